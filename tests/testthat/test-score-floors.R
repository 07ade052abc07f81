# inst/scripts/score-floors.R computes the floors quoted in
# inst/proofs/regression-gauss-newton.md section 8; each figure is checked
# here against a computation that does not share its code.

score_floors_env <- function() {
  f <- system.file("scripts", "score-floors.R", package = "dpmanifold")
  if (!nzchar(f)) f <- test_path("..", "..", "inst", "scripts", "score-floors.R")
  skip_if_not(file.exists(f), "score-floors.R not found")
  env <- new.env()
  sys.source(f, envir = env)
  env
}

test_that("the best bounded score per coordinate curves by 2 phi(1), the 0-1 loss at one sd", {
  env <- score_floors_env()
  # P(|Z - a| > 1) by finite differences: the 0-1 loss's curvature
  zero_one <- function(a) 1 - stats::pnorm(1 - a) + stats::pnorm(-1 - a)
  h <- 1e-3
  fd <- (zero_one(h) - 2 * zero_one(0) + zero_one(-h)) / h^2
  expect_equal(env$best_bounded_curvature(1), fd, tolerance = 1e-5)
  expect_equal(fd, 2 * stats::dnorm(1), tolerance = 1e-5)
  # a 0-1 loss at another threshold curves less (the bound is attained at 1)
  other <- function(a) 1 - stats::pnorm(1.5 - a) + stats::pnorm(-1.5 - a)
  expect_lt((other(h) - 2 * other(0) + other(-h)) / h^2, fd - 0.05)
})

test_that("the clipped square's curvature matches its closed form in one coordinate", {
  env <- score_floors_env()
  G <- function(k) 2 * (2 * stats::pnorm(k) - 1) - 4 * k * stats::dnorm(k)
  for (k in c(0.8, 1.37, 3)) expect_equal(env$clipped_square_curvature(k, 1), G(k) / k^2, tolerance = 1e-4)
  b <- env$best_clipped_square(1)
  expect_equal(1 / b$curvature, 2.336, tolerance = 1e-3)
})

test_that("the floors quoted in the proof are the script's", {
  env <- score_floors_env()
  fl <- env$score_floors()
  expect_equal(round(fl$per_coordinate_bounded, 3), c(1.207, 1.248, 1.459, 1.496))
  expect_equal(round(fl$joint_bounded, 2), c(1.08, 1.09, 1.12, 1.26))
  expect_equal(round(fl$joint_clipped, 2), c(1.12, 1.14, 1.21, 1.34))
})
