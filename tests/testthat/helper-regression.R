# Noise-free or noisy geodesic data on any manifold: y_i = exp_p(t_i v) (+ noise).
geodesic_data <- function(M, p, v, t, noise = 0) {
  n <- length(t)
  V <- if (is.null(M$point_dim)) outer(t, v) else array(outer(as.vector(v), t), c(dim(v), n))
  Y <- mfd_exp(M, p, V)
  if (noise > 0) Y <- mfd_exp(M, Y, noise * mfd_random_tangent(M, Y, n))
  Y
}

# An lm()-style data frame of n people: age in [20, 80] and blood pressure
# linear in it, with residual sd `noise`.
bp_frame <- function(n, noise = 1) {
  df <- data.frame(age = runif(n, 20, 80))
  df$bp <- 100 + 0.5 * df$age + noise * rnorm(n)
  df
}

# A data set of n records around the geodesic through `center` with velocity
# v (x in [0, 1], footpoint at x = 0.5) and tangent noise of sd `noise`.
gn_data <- function(M, n, center, v, noise, x = runif(n)) {
  if (is.null(M$point_dim)) {
    Y <- mfd_exp(M, center, outer(x - 0.5, as.numeric(v)))
  } else {
    Y <- mfd_exp(M, center, array(outer(as.vector(v), x - 0.5), c(dim(v), n)))
  }
  list(x = x, y = mfd_exp(M, Y, noise * mfd_random_tangent(M, Y, n)), center = center)
}

regression_cases <- function() {
  K <- kendall_shape(5)
  pk <- as_preshape(matrix(c(0, 1, 2, 1, 0, 0, 0, 1, 2, 1), 5))
  list(
    euclidean = list(M = euclidean(3), p = c(1, 0, 2), v = c(0.5, -1, 0.3)),
    sphere = list(M = sphere(2), p = c(0, 0, 1), v = c(0.7, 0.3, 0)),
    spd_ai = list(M = spd(2), p = matrix(c(2, 0.3, 0.3, 1), 2), v = matrix(c(0.8, 0.2, 0.2, -0.4), 2)),
    spd_le = list(M = spd(2, "log_euclidean"), p = matrix(c(2, 0.3, 0.3, 1), 2), v = matrix(c(0.8, 0.2, 0.2, -0.4), 2)),
    kendall = list(M = K, p = pk, v = mfd_project(K, pk, matrix(c(0.2, 0, -0.1, 0.1, 0, 0, 0.1, 0, -0.1, 0.05), 5)))
  )
}
shape_like <- function(x, like) if (is.null(dim(like))) as.vector(x) else array(x, dim(like))

# The seed paper's S^2 setting (Kulkarni and Soto, section 4.1): points on a
# geodesic of length `len` from a random start, Gaussian noise of variance
# delta per ambient coordinate, normalised back; the public ball is centred
# at the geodesic's midpoint.
sphere_regression_data <- function(n, len = 0.6, delta = 0.001, radius = 0.4) {
  S2 <- sphere(2)
  q0 <- mfd_random_point(S2, 1)
  z <- mfd_random_tangent(S2, q0, 1)
  z <- len * z / sqrt(sum(z^2))
  x <- runif(n)
  G <- mfd_exp(S2, q0, outer(x, z))
  Y <- G + matrix(rnorm(3 * n, sd = sqrt(delta)), n)
  list(M = S2, x = x, y = Y / sqrt(rowSums(Y^2)), center = as.numeric(mfd_exp(S2, q0, z / 2)), radius = radius)
}

# Weighted norm of the change of the joint gradient between two data sets at
# (p, v) (ambient vectors), with the centred covariates t and t2.
joint_gradient_change <- function(M, t, Y, t2, Y2, p, v, tau, w) {
  g1 <- dpm$cpp_regression_gradient(M, t, Y, p, v, tau)
  g2 <- dpm$cpp_regression_gradient(M, t2, Y2, p, v, tau)
  P <- matrix(p)
  dp <- g1$p - g2$p
  dv <- g1$v - g2$v
  sqrt(dpm$cpp_inner(M, P, matrix(dp), matrix(dp)) + w^2 * dpm$cpp_inner(M, P, matrix(dv), matrix(dv)))
}

# Chart coordinates -> (p, v) ambient.
chart_point <- function(M, center, x) {
  pv <- dpm$cpp_chart_points(M, as.numeric(center), matrix(x))
  list(p = pv$p[, 1], v = pv$v[, 1])
}

# Every field of a release except the estimate (and the call).
release_public_part <- function(rel) {
  r <- unclass(rel)
  r$estimate <- NULL
  r$call <- NULL
  r
}

# The shared fixture of the release and accounting tests: n records in a cap
# around `center` of M (random tangent directions scaled by `spread`) and n
# covariates in [0, 1], drawn in that order, so that a test seeded as before
# sees the same data. The default is S^2 around the north pole.
cap_fixture <- function(n, spread = 0.1, M = sphere(2), center = c(0, 0, 1)) {
  X <- mfd_exp(M, center, spread * mfd_random_tangent(M, center, n))
  list(M = M, center = center, X = X, x = runif(n))
}

# cap_fixture(n) on S^2 with the two mechanisms of the release tests on its
# public ball (centre the north pole, radius 0.3, epsilon 1, x in [0, 1]).
mechanism_fixture <- function(n = 30) {
  fx <- cap_fixture(n)
  c(fx, list(m = frechet_mechanism(fx$M, n = n, epsilon = 1, center = fx$center, radius = 0.3),
             rm = regression_mechanism(fx$M, n, epsilon = 1, center = fx$center, radius = 0.3, x_range = c(0, 1))))
}

# Runs `refusals` (expectations that calls given budget b are refused) and
# checks that they charged b nothing: a refusal comes before the charge.
expect_refusals_unspent <- function(b, refusals) {
  force(refusals)
  spent <- budget_spent(b)
  expect_equal(spent$releases, 0, label = "releases charged by refused calls")
  expect_equal(spent$epsilon, 0, label = "epsilon charged by refused calls")
  invisible(b)
}

# The default's plan without its scale stage (R/regression_scale.R), for the
# tests of the stages after it at settings where the stage would run:
# returns the constants to restore with restore_scale_stage().
no_scale_stage <- function() {
  old <- get(".regression_scale", envir = asNamespace("dpmanifold"))
  g <- old
  g$max_share <- 0
  utils::assignInNamespace(".regression_scale", g, "dpmanifold")
  old
}
restore_scale_stage <- function(old) utils::assignInNamespace(".regression_scale", old, "dpmanifold")
