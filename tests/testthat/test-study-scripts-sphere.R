# The script behind vignette("sphere") runs in its small mode and writes a
# result with the structure the vignette reads.

sphere_study_script <- function() {
  f <- system.file("scripts", "sphere-studies.R", package = "dpmanifold")
  if (!nzchar(f)) {
    # running from the source tree (devtools::test())
    f <- test_path("..", "..", "inst", "scripts", "sphere-studies.R")
  }
  f
}

test_that("sphere-studies.R runs in small mode and writes the expected structure", {
  f <- sphere_study_script()
  skip_if_not(file.exists(f), "sphere-studies.R not found")
  env <- new.env()
  sys.source(f, envir = env)
  expect_true(is.function(env$sphere_studies))
  out <- file.path(tempfile("sphere-study-"), "sphere-studies.rds")
  # (small mode's few records fill the ball in some cells: a utility
  # warning about the settings, not about the script)
  res <- suppressWarnings(env$sphere_studies(small = TRUE, out = out, seed = 1), classes = "dpmanifold_low_utility")
  expect_true(file.exists(out))
  saved <- readRDS(out)
  expect_named(saved, c("frechet_utility", "regression", "info"))
  expect_true(saved$info$small)

  u <- saved$frechet_utility$summary
  expect_s3_class(u, "data.frame")
  expect_true(all(c("n", "mechanism", "reps", "mean", "se", "sigma") %in% names(u)))
  expect_setequal(unique(u$mechanism), c("kng", "laplace", "laplace_truncated", "kng_seed_scale",
                                         "laplace_seed_scale", "euclidean_ambient", "euclidean_projected"))
  expect_setequal(unique(u$n), saved$frechet_utility$design$n)
  expect_true(all(is.finite(u$mean) & u$mean >= 0))
  expect_true(all(u$se >= 0))
  # the manifold releases and the projected baseline stay on the sphere
  raw <- saved$frechet_utility$raw
  on <- raw$mechanism != "euclidean_ambient"
  expect_true(all(is.finite(raw$geodesic_dist[on])))
  expect_true(all(is.na(raw$geodesic_dist[!on])))
  # on the truncated laws the DP scale is twice the seed papers' scale; the
  # untruncated Laplace law is DP at the seed papers' scale
  s <- function(m) u$sigma[u$mechanism == m]
  expect_equal(s("kng"), 2 * s("kng_seed_scale"))
  expect_equal(s("laplace_truncated"), 2 * s("laplace_seed_scale"))
  expect_equal(s("laplace"), s("laplace_seed_scale"))

  r <- saved$regression$summary
  expect_s3_class(r, "data.frame")
  expect_true(all(c("study", "method", "n", "epsilon", "epsilon_p", "epsilon_v", "mean_mse",
                    "se_mse", "log_mean_mse", "log_mean_mse_nonprivate") %in% names(r)))
  expect_setequal(unique(r$study), c("equal", "split"))
  expect_setequal(unique(r$method), c("joint", "sequential"))
  expect_true(all(is.finite(r$mean_mse) & r$mean_mse > 0))
  split <- r[r$study == "split" & r$method == "sequential", ]
  expect_equal(split$epsilon_p + split$epsilon_v, rep(2.02, nrow(split)))
  # private geodesics fit no better than the least-squares one
  expect_true(all(r$mean_mse >= r$mean_mse_nonprivate - 1e-12))
})
