# The low-utility warning: public, before a release whose noise fills the ball.

test_that("a mechanism whose expected error reaches the radius warns, from public inputs only", {
  S2 <- sphere(2)
  expect_warning(m <- frechet_mechanism(S2, n = 10, epsilon = 0.1, center = c(0, 0, 1), radius = 0.3),
                 class = "dpmanifold_low_utility")
  expect_gte(m$expected_error$value, 0.3)
  expect_output(print(m), "expected error")
  expect_silent(m2 <- frechet_mechanism(S2, n = 1000, epsilon = 1, center = c(0, 0, 1), radius = 0.3))
  expect_lt(m2$expected_error$value, 0.3)
  # the prediction (d sigma for the untruncated Laplace law) against the
  # measured mean distance, flat case: within 10%
  set.seed(1)
  E <- euclidean(2)
  X <- matrix(rnorm(200, sd = 0.1), 100)
  m3 <- frechet_mechanism(E, n = 100, epsilon = 1, center = c(0, 0), radius = 1, mechanism = "wrapped_laplace")
  d <- replicate(2000, sqrt(sum((release(m3, X)$estimate - colMeans(X))^2)))
  expect_equal(mean(d), m3$expected_error$value, tolerance = 0.1)
  # the same warning on both data sets of a neighbouring pair (it reads no data)
  X2 <- X
  X2[1, ] <- c(50, 50)
  f <- function(D) dp_frechet_mean(E, D, epsilon = 0.01, center = c(0, 0), radius = 1)
  expect_neighbours_agree(f, X, X2, "low-utility warning")
  expect_warning(f(X), class = "dpmanifold_low_utility")
})

test_that("a regression mechanism whose line error fills the public domain warns, from public inputs only", {
  P2 <- spd(2)
  # SPD(2), n 20, epsilon 0.2: the default runs one round at the centre,
  # whose K-norm noise (public error sqrt(8 d (d + 1)) 2 r / (n e)) is far
  # beyond the domain's sqrt(R^2 + V^2 / 12) = sqrt(0.66^2 + 1.32^2 / 12)
  expect_warning(m <- regression_mechanism(P2, n = 20, epsilon = 0.2, tau = 0.05, center = diag(2), radius = 0.66,
                                           x_range = c(0, 1)),
                 class = "dpmanifold_low_utility")
  eT <- 0.2 * (1 - dpmanifold:::ssp_gram_share(3))
  expect_equal(m$expected_error$value, sqrt(8 * 3 * 4) * 2 * 0.66 / (20 * eT))
  expect_gte(m$expected_error$value, sqrt(0.66^2 + 1.32^2 / 12))
  expect_output(print(m), "expected error")
  expect_warning(regression_mechanism(P2, n = 20, epsilon = 0.2, tau = 0.05, center = diag(2), radius = 0.66,
                                      x_range = c(0, 1), method = "tangent"),
                 class = "dpmanifold_low_utility")
  # S^2 at n 200, epsilon 1: well inside, no warning; the chain methods
  # have no error model and state none
  expect_silent(m2 <- regression_mechanism(sphere(2), n = 200, epsilon = 1, tau = 0.15, center = c(0, 0, 1),
                                           radius = 0.4, x_range = c(0, 1)))
  expect_lt(m2$expected_error$value, 0.1)
  # with tau left out the refining round's clip level is drawn from a grid
  # up to the domain's bound: the model is a range over the grid, and the
  # warning weighs its lower end (the top alone, 0.575, passed the domain's
  # 0.52 although releases read energy ratios near 1.05)
  expect_silent(m4 <- regression_mechanism(sphere(2), n = 100, epsilon = 1, center = c(0, 0, 1), radius = 0.45,
                                           x_range = c(0, 1)))
  expect_gt(m4$expected_error$value, sqrt(0.45^2 + 0.9^2 / 12))
  expect_equal(m4$expected_error$lower, m4$expected_error$value * 2^(-dpmanifold:::.gauss_newton$levels / 2))
  expect_output(print(m4), "expected error: [0-9.]+ to [0-9.]+")
  expect_null(m$expected_error$lower)
  m3 <- regression_mechanism(sphere(2), n = 200, epsilon = 1, tau = 0.15, center = c(0, 0, 1), radius = 0.4,
                             x_range = c(0, 1), method = "energy")
  expect_null(m3$expected_error)
  # the same warning on both data sets of a neighbouring pair (it reads no data)
  set.seed(3)
  x <- runif(20)
  Y <- mfd_exp(P2, diag(2), array(outer(c(0.3, 0.1, 0.1, -0.2), x - 0.5), c(2, 2, 20)))
  Y2 <- Y
  Y2[, , 1] <- diag(c(40, 0.03))
  f <- function(D) dp_geodesic_regression(P2, x, D, epsilon = 0.2, tau = 0.05, center = diag(2), radius = 0.66,
                                          x_range = c(0, 1))
  expect_neighbours_agree(f, Y, Y2, "low-utility warning")
  expect_warning(f(Y), class = "dpmanifold_low_utility")
})
