# dp_geodesic_regression(bounds_share = ): the responses' ball chosen by two
# private stages, then the regression on it (proof: private-bounds.md).

test_that("private bounds for the regression: exact epsilon-DP, stages composed, near the public ball's fit", {
  set.seed(31)
  D <- sphere_regression_data(1000)
  M <- D$M
  r <- dp_geodesic_regression(M, D$x, D$y, epsilon = 1, x_range = c(0, 1), bounds_share = 0.2)
  expect_match(r$privacy$guarantee, "^epsilon-DP \\(exact sampler\\)")
  expect_true(isTRUE(r$bounds$private_bounds))
  expect_identical(vapply(r$stages[1:2], `[[`, "", "name"), c("center", "radius"))
  eps <- vapply(r$stages, function(s) s$privacy$epsilon, numeric(1))
  expect_equal(sum(eps), 1)
  expect_equal(sum(eps[1:2]), 0.2)
  # the regression's own clip level, not the bounds' stages
  expect_named(r$private_draws$stages, "refine")
  expect_length(r$private_draws$bounds$clip, 1L)
  expect_output(print(r), "stage 1, center")
  # accuracy: median energy ratio over 8 fresh data sets against the fit
  # (n epsilon_r = 100: measured 1.02 over 20 sets; 1.5 leaves room for 8)
  ratio <- replicate(8, {
    D <- sphere_regression_data(1000)
    f <- geodesic_regression(M, D$x, D$y, x_range = c(0, 1))
    rel <- dp_geodesic_regression(M, D$x, D$y, epsilon = 1, x_range = c(0, 1), bounds_share = 0.2)
    dpm$cpp_regression_energy(M, D$x - 0.5, t(D$y), rel$estimate$p, rel$estimate$v) / f$energy
  })
  expect_lt(stats::median(ratio), 1.5)
})

test_that("private bounds for the regression: public inputs refused before the budget or the data", {
  set.seed(32)
  D <- sphere_regression_data(100)
  M <- D$M
  b <- dp_budget(5)
  f <- function(...) dp_geodesic_regression(M, D$x, D$y, epsilon = 1, budget = b, ...)
  expect_error(f(x_range = c(0, 1), bounds_share = 0), "`bounds_share`", class = "dpmanifold_error")
  expect_error(f(x_range = c(0, 1), bounds_share = 0.2, method = "energy", tau = 0.1), "`bounds_share`",
               class = "dpmanifold_error")
  expect_error(f(bounds_share = 0.2), "`x_range` is required", class = "dpmanifold_error")
  P <- spd(2)
  S <- mfd_exp(P, diag(2), 0.1 * mfd_random_tangent(P, diag(2), 100))
  expect_error(dp_geodesic_regression(P, D$x, S, epsilon = 1, x_range = c(0, 1), bounds_share = 0.2, budget = b),
               "`center` is required", class = "dpmanifold_error")
  expect_error(f(x_range = c(0, 1), bounds_share = 0.2, y = "not data"), class = "dpmanifold_error")
  expect_equal(budget_spent(b)$releases, 0)
  expect_error(dp_geodesic_regression(M, "x", "y", epsilon = 6, x_range = c(0, 1), bounds_share = 0.2, budget = b),
               class = "dpmanifold_budget_exceeded")
  # a coarse public ball on SPD: the release runs and is charged once
  rs <- dp_geodesic_regression(P, D$x, S, epsilon = 2, x_range = c(0, 1), bounds_share = 0.3, center = diag(2),
                               radius = 2, budget = b)
  expect_match(rs$privacy$guarantee, "^epsilon-DP \\(exact sampler\\)")
  expect_equal(budget_spent(b)$epsilon, 2)
})

test_that("private bounds for the regression: neighbours differ only in the private outputs", {
  D <- local({ set.seed(33); sphere_regression_data(400) })
  M <- D$M
  D2 <- D
  D2$y <- replace_record(M, D$y, 5, -D$center)       # one record to the far side of the sphere
  D2$x[5] <- 7                                      # and its covariate far outside x_range
  f <- function(d) dp_geodesic_regression(M, d$x, d$y, epsilon = 1, x_range = c(0, 1), bounds_share = 0.25)
  set.seed(34); a <- run_recording(function() f(D))
  set.seed(34); b <- run_recording(function() f(D2))
  expect_identical(a$conditions, b$conditions)
  # the centre and radius are private outputs, and the scales and domain of
  # the stages after them follow from the radius: with the same radius drawn
  # (the same uniform, scores within one count), all else is identical
  expect_identical(a$value$bounds$radius, b$value$bounds$radius)
  pub <- function(r) {
    r <- with_private_outputs_of(r, b$value)
    r$bounds$center <- NULL
    r
  }
  expect_identical(pub(a$value), pub(b$value))
})

test_that("private bounds for the regression: invalid domain options are refused before the budget is charged", {
  # p_radius and v_bound are public inputs: an invalid one used to surface
  # only once the private stages had run, after the charge (budget 5:
  # spent 1 for an error)
  set.seed(35)
  D <- sphere_regression_data(1000)
  M <- D$M
  b <- dp_budget(5)
  f <- function(...) dp_geodesic_regression(M, D$x, D$y, epsilon = 1, x_range = c(0, 1), bounds_share = 0.2,
                                            budget = b, ...)
  expect_error(f(p_radius = -1), "`p_radius`", class = "dpmanifold_error")
  expect_error(f(p_radius = "a"), "`p_radius`", class = "dpmanifold_error")
  expect_error(f(p_radius = 10), "`p_radius`", class = "dpmanifold_error")
  expect_error(f(v_bound = NA), "`v_bound`", class = "dpmanifold_error")
  expect_error(f(v_bound = c(1, 2)), "`v_bound`", class = "dpmanifold_error")
  # a domain whose noise scales leave double precision: refused from the
  # largest ball the private stages may choose (public), naming `v_bound`
  expect_error(f(v_bound = 1e300), "`v_bound`", class = "dpmanifold_error")
  P <- spd(2)
  S <- mfd_exp(P, diag(2), 0.1 * mfd_random_tangent(P, diag(2), 1000))
  expect_error(dp_geodesic_regression(P, D$x, S, epsilon = 1, x_range = c(0, 1), bounds_share = 0.2, center = diag(2),
                                      radius = 2, p_radius = 99, budget = b), "`p_radius`", class = "dpmanifold_error")
  expect_equal(budget_spent(b)$releases, 0)
})

test_that("a 1 x 1 matrix where a number is expected is a classed error naming the argument", {
  # p_radius = matrix(0.1) failed with R's "dims [product 1] do not match
  # the length of object [9]"; epsilon and bounds_share as 1 x 1 matrices
  # released with R's array-recycling warning
  set.seed(36)
  D <- sphere_regression_data(200)
  M <- D$M
  f <- function(...) dp_geodesic_regression(M, D$x, D$y, x_range = c(0, 1), ...)
  expect_error(f(epsilon = 1, bounds_share = 0.3, p_radius = matrix(0.1)), "`p_radius`", class = "dpmanifold_error")
  expect_error(f(epsilon = 1, center = D$center, radius = 0.4, p_radius = matrix(0.1)), "`p_radius`",
               class = "dpmanifold_error")
  expect_error(f(epsilon = matrix(1), bounds_share = 0.3), "`epsilon`", class = "dpmanifold_error")
  expect_error(f(epsilon = 1, bounds_share = matrix(0.3)), "`bounds_share`", class = "dpmanifold_error")
  expect_error(dp_frechet_mean(M, D$y, epsilon = matrix(1), bounds_share = 0.3), "`epsilon`",
               class = "dpmanifold_error")
  expect_error(dp_frechet_mean(M, D$y, epsilon = 1, center = D$center, radius = matrix(0.4)), "`radius`",
               class = "dpmanifold_error")
})
