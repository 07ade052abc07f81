# The scripts that precompute the vignettes' studies (inst/scripts) run in
# their small mode and return results of the structure the vignettes read.

study_script <- function(name) {
  f <- system.file("scripts", name, package = "dpmanifold")
  if (!nzchar(f)) {
    # Not installed (e.g. load_all()): look in the source tree.
    f <- file.path(testthat::test_path(), "..", "..", "inst", "scripts", name)
  }
  if (!file.exists(f)) testthat::skip(paste("study script not found:", name))
  env <- new.env(parent = globalenv())
  sys.source(f, envir = env)
  env
}

test_that("spd-studies.R small mode writes the utility summary", {
  skip_on_cran()
  env <- study_script("spd-studies.R")
  out <- file.path(tempdir(), "spd-studies-small.rds")
  on.exit(unlink(out))
  res <- env$run_spd_studies(small = TRUE, file = out)
  expect_true(file.exists(out))
  expect_equal(readRDS(out)$summary, res$summary)
  s <- res$summary
  expect_setequal(unique(s$mechanism),
                  c("kng", "laplace", "wrapped_laplace", "wrapped_gaussian", "euclidean_laplace"))
  expect_setequal(unique(s$n), res$settings$n_grid)
  expect_true(all(c("dist_mean", "dist_se", "frob_mean", "frob_se", "frac_spd", "seconds") %in% names(s)))
  expect_true(all(s$frac_spd >= 0 & s$frac_spd <= 1))
  # Every manifold mechanism releases an SPD matrix.
  expect_true(all(s$frac_spd[s$mechanism != "euclidean_laplace"] == 1))
  expect_true(all(is.finite(s$frob_mean) & s$frob_mean >= 0))
  expect_true(res$settings$small)
  expect_equal(res$settings$radius, 1.5)
})

test_that("shape-studies.R small mode writes releases, utility and regressions beside the public centre", {
  skip_on_cran()
  env <- study_script("shape-studies.R")
  out <- file.path(tempdir(), "shape-studies-small.rds")
  on.exit(unlink(out))
  res <- env$run_shape_studies(small = TRUE, file = out)
  expect_true(file.exists(out))
  k <- res$settings$k
  M <- kendall_shape(k)
  mechs <- c("laplace", "kng", "laplace_aligned", "laplace_unaligned")
  expect_named(res$mean$releases, mechs)
  for (r in res$mean$releases) {
    expect_equal(dim(r$estimates), c(k, 2L, 6L))
    expect_true(all(mfd_belongs(M, r$estimates)))
    expect_true(all(r$dist >= 0 & r$dist <= pi / 2 + 1e-8))
    expect_true(r$sampler %in% c("exact", "mcmc"))
    expect_true(is.numeric(r$expected) && r$expected > 0)
    expect_true(is.logical(r$low_utility))
  }
  # every release but the chain's is exact epsilon-DP, and says so
  expect_match(res$mean$releases$laplace$guarantee, "epsilon-DP \\(exact")
  if (res$mean$releases$kng$sampler == "mcmc") expect_match(res$mean$releases$kng$guarantee, "delta unknown")
  # KNG and the default stay in the public ball (the default is projected onto it)
  expect_true(all(res$mean$releases$kng$dist <= 2 * res$mean$radius + 1e-8))
  expect_true(all(res$mean$releases$laplace$dist <= 2 * res$mean$radius + 1e-8))
  expect_equal(res$mean$center_dist, mfd_dist(M, res$mean$nonprivate, res$mean$center))
  expect_lt(res$mean$radius, max_radius(M))
  u <- res$utility
  expect_setequal(unique(u$mechanism), c(mechs, "public_centre"))
  expect_true(all(is.finite(u$dist_mean)))
  expect_true(all(is.na(u$expected[u$mechanism == "public_centre"])))
  expect_true(all(u$expected[u$mechanism != "public_centre"] > 0))
  # the low-utility flag is the public prediction against the radius
  pr <- u[u$mechanism != "public_centre", ]
  expect_equal(pr$low_utility, pr$expected >= res$settings$radius)
  reg <- res$regression
  expect_true(all(c("nonprivate", "releases", "public_centre") %in% names(reg)))
  for (j in reg$releases) {
    expect_true(mfd_belongs(M, j$p))
    expect_equal(length(j$v), 2L * k)
    expect_match(j$guarantee, "epsilon-DP \\(exact")
  }
  expect_equal(reg$public_centre$p, reg$center)
  expect_true(all(reg$public_centre$v == 0))
  if (nzchar(system.file("data", "rats.rda", package = "shapes"))) {
    expect_false(is.null(res$rats))
    expect_equal(length(res$rats$releases), length(res$rats$epsilon_record))
    expect_true(mfd_belongs(kendall_shape(8), res$rats$releases[[1]]$p))
    expect_equal(res$rats$public_centre$p, res$rats$center)
  }
})
