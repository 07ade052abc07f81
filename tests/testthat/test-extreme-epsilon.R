# An epsilon (or mu) so small that the noise scale Delta / epsilon
# overflows to Inf: a classed error naming it, before the budget or the
# data, never a C++ message or a NaN estimate; with bounds_share, the same
# before the charge, and the private centre stays a point of the sphere.

test_that("an infinite noise scale is refused naming epsilon or mu (public ball)", {
  set.seed(41)
  fx <- cap_fixture(300)
  S2 <- fx$M; N <- fx$center; X <- fx$X; x <- fx$x
  b <- dp_budget(1)
  # (used to be the C++ message "sigma must be positive", and for the
  # regression a release whose velocity was NaN)
  expect_refusals_unspent(b, for (e in c(5e-324, 1e-320)) {
    expect_error(dp_frechet_mean(S2, X, epsilon = e, center = N, radius = 0.5, budget = b), "`epsilon`",
                 class = "dpmanifold_not_representable")
    expect_error(dp_geodesic_regression(S2, x, X, epsilon = e, center = N, radius = 0.5, x_range = c(0, 1), budget = b),
                 "`epsilon`", class = "dpmanifold_not_representable")
  })
  H <- hyperbolic(2)
  expect_error(frechet_mechanism(H, 10, mechanism = "wrapped_gaussian", mu = 1e-320, center = c(1, 0, 0), radius = 1),
               "`mu`", class = "dpmanifold_not_representable")
})

test_that("bounds_share: scales double precision does not hold are refused before the charge", {
  set.seed(42)
  fx <- cap_fixture(300)
  S2 <- fx$M; N <- fx$center; X <- fx$X; x <- fx$x
  K <- kendall_shape(4)
  pk <- as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  Y <- mfd_exp(K, pk, 0.05 * mfd_random_tangent(K, pk, 300))
  P <- spd(2)
  S <- mfd_exp(P, diag(2), 0.2 * mfd_random_tangent(P, diag(2), 300))
  b <- dp_budget(1e308)
  quiet <- function(expr) suppressWarnings(expr, classes = "dpmanifold_low_utility")
  expect_refusals_unspent(b, for (e in c(5e-324, 1e-320, 1e306)) {
    expect_error(quiet(dp_frechet_mean(S2, X, epsilon = e, bounds_share = 0.5, budget = b)), "`epsilon`",
                 class = "dpmanifold_not_representable")
    expect_error(quiet(dp_frechet_mean(K, Y, epsilon = e, bounds_share = 0.5, budget = b)), "`epsilon`",
                 class = "dpmanifold_not_representable")
    expect_error(quiet(dp_frechet_mean(P, S, epsilon = e, bounds_share = 0.5, center = diag(2), radius = 1,
                                       budget = b)), "`epsilon`", class = "dpmanifold_not_representable")
    expect_error(quiet(dp_geodesic_regression(S2, x, X, epsilon = e, bounds_share = 0.5, x_range = c(0, 1),
                                              budget = b)), "`epsilon`", class = "dpmanifold_not_representable")
  })
  # a huge centre-stage scale (n epsilon_c = 1.5e-298): the noise's sum of
  # squares overflowed and the private centre was c(0, 0, 0), off the sphere
  r <- quiet(dp_frechet_mean(S2, X, epsilon = 1, bounds_share = 1e-300))
  expect_equal(sum(r$bounds$center^2), 1)
  r <- quiet(dp_geodesic_regression(S2, x, X, epsilon = 1, bounds_share = 1e-300, x_range = c(0, 1)))
  expect_equal(sum(r$bounds$center^2), 1)
})

test_that("regression_mechanism(): a subnormal radius and a bad method or sampler are classed errors", {
  S2 <- sphere(2)
  N <- c(0, 0, 1)
  # radius 5e-324: the localisation net's spacing underflowed to 0 and the
  # net asked for -Inf:Inf ("result would be too long a vector")
  expect_error(regression_mechanism(S2, 200, 1, center = N, radius = 5e-324, x_range = c(0, 1)), "`radius`",
               class = "dpmanifold_not_representable")
  expect_error(dp_geodesic_regression(S2, runif(2), rbind(N, N), 1, center = N, radius = 5e-324, x_range = c(0, 1)),
               "`radius`", class = "dpmanifold_not_representable")
  # match.arg()'s unclassed errors
  for (v in list(NA, 1, "foo", c("tangent", "joint"))) {
    expect_error(regression_mechanism(S2, 200, 1, center = N, radius = 0.3, x_range = c(0, 1), method = v), "`method`",
                 class = "dpmanifold_error")
    expect_error(regression_mechanism(S2, 200, 1, center = N, radius = 0.3, x_range = c(0, 1), sampler = v),
                 "`sampler`", class = "dpmanifold_error")
  }
})

test_that("the sphere's ambient baseline at epsilon near 1e-300 releases a unit vector; a scale's error names the parameter to blame", {
  S2 <- sphere(2)
  X <- matrix(c(0, 0, 1), 20, 3, byrow = TRUE)
  b <- dp_budget(1)
  # the noise's sum of squares overflowed: an error blaming `radius`, after the charge
  for (e in c(1e-155, 1e-300)) {
    set.seed(1)
    r <- suppressWarnings(dp_frechet_mean(S2, X, e, mechanism = "euclidean_laplace", center = c(0, 0, 1), radius = 0.5,
                                          budget = b), classes = "dpmanifold_low_utility")
    expect_equal(sqrt(sum(r$estimate^2)), 1)
  }
  E <- euclidean(1)
  X1 <- matrix(rnorm(20, sd = 0.3))
  expect_error(dp_frechet_mean(E, X1, mechanism = "wrapped_gaussian", mu = 1e-300, center = 0, radius = 1),
               "^`mu` gives a noise scale .*use a larger mu", class = "dpmanifold_not_representable")
  expect_error(dp_frechet_mean(S2, X, 1e308, center = c(0, 0, 1), radius = 0.5),
               "^`epsilon` is so large that the noise scale .* underflows", class = "dpmanifold_not_representable")
  expect_error(frechet_mechanism(E, 20, epsilon = 1, center = 0, radius = 1e-310),
               "^`radius` is 1e-310: too small for double precision", class = "dpmanifold_not_representable")
})
