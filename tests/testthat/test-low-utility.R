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
