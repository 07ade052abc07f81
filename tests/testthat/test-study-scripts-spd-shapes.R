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

test_that("shape-studies.R small mode writes releases, utility and regressions", {
  skip_on_cran()
  env <- study_script("shape-studies.R")
  out <- file.path(tempdir(), "shape-studies-small.rds")
  on.exit(unlink(out))
  res <- env$run_shape_studies(small = TRUE, file = out)
  expect_true(file.exists(out))
  k <- res$settings$k
  M <- kendall_shape(k)
  expect_named(res$mean$releases, c("kng", "laplace_aligned", "laplace_unaligned"))
  for (r in res$mean$releases) {
    expect_equal(dim(r$estimates), c(k, 2L, 6L))
    expect_true(all(mfd_belongs(M, r$estimates)))
    expect_true(all(r$dist >= 0 & r$dist <= pi / 2 + 1e-8))
  }
  # KNG releases stay in the public ball.
  expect_true(all(res$mean$releases$kng$dist <= 2 * res$mean$radius + 1e-8))
  expect_lt(res$mean$radius, max_radius(M))
  u <- res$utility
  expect_setequal(unique(u$mechanism), c("kng", "laplace_aligned", "laplace_unaligned"))
  expect_true(all(is.finite(u$dist_mean)))
  reg <- res$regression
  expect_true(all(c("nonprivate", "joint", "sequential") %in% names(reg)))
  for (j in reg$joint) {
    expect_true(mfd_belongs(M, j$p))
    expect_equal(length(j$v), 2L * k)
  }
  if (nzchar(system.file("data", "rats.rda", package = "shapes"))) {
    expect_false(is.null(res$rats))
    expect_equal(length(res$rats$releases), length(res$rats$epsilon_record))
    expect_true(mfd_belongs(kendall_shape(8), res$rats$releases[[1]]$p))
  }
})
