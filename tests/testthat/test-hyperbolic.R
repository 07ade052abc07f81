# hyperbolic(d): the hyperboloid model. Hand-checked values, stability far
# from the origin and near 0, agreement with GeodRegr, the exact samplers,
# the releases, hostile input.

H2 <- hyperbolic(2)
o2 <- c(1, 0, 0)
# the point at distance t from the origin in direction (cos a, sin a)
hpt <- function(t, a = 0) c(cosh(t), sinh(t) * cos(a), sinh(t) * sin(a))
# coordinates of tangent vectors (rows of V) at p in the orthonormal basis of
# mfd_tangent_basis() (the metric is the Minkowski form)
tangent_coords_h <- function(M, p, V) {
  V <- matrix(V, ncol = M$ambient_dim)
  V %*% diag(c(-1, rep(1, M$dim))) %*% t(mfd_tangent_basis(M, p))
}

test_that("hyperbolic(d) is a Hadamard manifold of curvature -1", {
  expect_s3_class(H2, c("hyperbolic", "manifold"))
  expect_equal(H2$dim, 2L)
  expect_equal(H2$ambient_dim, 3L)
  expect_equal(c(H2$kappa_min, H2$kappa_max), c(-1, -1))
  expect_true(is.infinite(H2$injectivity_radius))
  expect_true(H2$hadamard)
  expect_output(print(H2), "Hyperbolic space H\\^2")
  expect_equal(max_untruncated_sigma(hyperbolic(3)), 0.5)
  expect_equal(max_untruncated_sigma(hyperbolic(5)), 0.25)
  expect_true(is.infinite(max_untruncated_sigma(hyperbolic(1))))
  expect_error(hyperbolic(0), class = "dpmanifold_error")
  expect_error(hyperbolic(2.5), class = "dpmanifold_error")
})

test_that("exp, log, dist, transport and inner match hand-computed values", {
  for (t in c(1e-8, 0.3, 2, 10)) {
    expect_equal(mfd_exp(H2, o2, c(0, t, 0)), hpt(t), tolerance = 1e-14)
    expect_equal(mfd_log(H2, o2, hpt(t)), c(0, t, 0), tolerance = 1e-13)
    expect_equal(mfd_dist(H2, o2, hpt(t)), t, tolerance = 1e-14)
  }
  # along one geodesic through the origin, far out: dist = |a - b|
  expect_equal(mfd_dist(H2, hpt(3), hpt(7)), 4, tolerance = 1e-13)
  expect_equal(mfd_dist(H2, hpt(-3), hpt(7)), 10, tolerance = 1e-13)
  # hyperbolic law of cosines: cosh d = cosh a cosh b - sinh a sinh b cos(theta)
  a <- 1.3; b <- 0.4; th <- 2.1
  d <- acosh(cosh(a) * cosh(b) - sinh(a) * sinh(b) * cos(th))
  expect_equal(mfd_dist(H2, hpt(a), hpt(b, th)), d, tolerance = 1e-13)
  # exp of (0, t, 0) at the boosted point: the geodesic continues
  p <- hpt(1.5)
  v <- c(sinh(1.5), cosh(1.5), 0) * 0.7   # unit radial vector at p, times 0.7
  expect_equal(mfd_norm(H2, p, v), 0.7, tolerance = 1e-14)
  expect_equal(mfd_exp(H2, p, v), hpt(2.2), tolerance = 1e-13)
  # transport from o along the x1-axis: (0, 0, 1) is unchanged, (0, 1, 0)
  # turns into the unit velocity (sinh t, cosh t, 0)
  t <- 1.7
  expect_equal(mfd_transport(H2, o2, hpt(t), c(0, 0, 1)), c(0, 0, 1), tolerance = 1e-14)
  expect_equal(mfd_transport(H2, o2, hpt(t), c(0, 1, 0)), c(sinh(t), cosh(t), 0), tolerance = 1e-13)
  # the metric is the Minkowski form on tangent vectors
  u <- c(sinh(1.5), cosh(1.5), 0); w <- c(0, 0, 2)
  expect_equal(mfd_inner(H2, p, u, u), 1, tolerance = 1e-14)
  expect_equal(mfd_inner(H2, p, u, w), 0, tolerance = 1e-14)
  expect_equal(mfd_inner(H2, p, w, w), 4, tolerance = 1e-14)
  # Jacobi fields: d exp_v off the direction of travel is sinh(L)/L, d exp_p cosh(L)
  L <- 1.2
  expect_equal(mfd_dexp(H2, o2, c(0, L, 0), c(0, 0, 1), "v"), c(0, 0, sinh(L) / L), tolerance = 1e-13)
  expect_equal(mfd_dexp(H2, o2, c(0, L, 0), c(0, 0, 1), "p"), c(0, 0, cosh(L)), tolerance = 1e-13)
  expect_equal(mfd_dexp(H2, o2, c(0, L, 0), c(0, 1, 0), "v"), c(sinh(L), cosh(L), 0), tolerance = 1e-13)
  # the tangent basis at a point is Minkowski-orthonormal and tangent
  B <- mfd_tangent_basis(H2, hpt(2, 0.5))
  G <- B %*% diag(c(-1, 1, 1)) %*% t(B)
  expect_equal(G, diag(2), tolerance = 1e-12)
  expect_equal(as.vector(B %*% (c(-1, 1, 1) * hpt(2, 0.5))), c(0, 0), tolerance = 1e-12)
})

test_that("distances are accurate near 0, also far from the origin", {
  for (t in c(0, 3, 15)) for (h in c(1e-12, 1e-9, 1e-5)) {
    expect_equal(mfd_dist(H2, hpt(t), hpt(t + h)), h, tolerance = 1e-6 * max(1, cosh(t)^2 * 1e-10))
    # perpendicular: dist from (t, angle 0) to (t, angle a) is 2 asinh(sinh(t) sin(a/2))
    a <- h / sinh(max(t, 1))
    expect_equal(mfd_dist(H2, hpt(t, 0), hpt(t, a)), 2 * asinh(sinh(t) * sin(a / 2)), tolerance = 1e-6)
  }
  p <- hpt(5, 1)
  expect_identical(mfd_dist(H2, p, p), 0)
  expect_identical(mfd_log(H2, p, p), c(0, 0, 0))
  v <- mfd_log(H2, hpt(4), hpt(4 + 1e-10))
  expect_equal(mfd_norm(H2, hpt(4), v), 1e-10, tolerance = 1e-6)
  # the textbook arcosh(-<p, q>) returns 0 or ~1e-8 here
  expect_gt(mfd_dist(H2, o2, hpt(1e-10)), 0)
})

test_that("hyperbolic(d) agrees with GeodRegr's exp_map, log_map, geo_dist and par_trans", {
  skip_if_not_installed("GeodRegr")
  G <- function(f) getExportedValue("GeodRegr", f)
  set.seed(12)
  for (d in c(2, 4)) {
    M <- hyperbolic(d)
    for (i in 1:10) {
      p <- mfd_random_point(M)
      q <- mfd_exp(M, p, mfd_random_tangent(M, p))
      v <- mfd_random_tangent(M, p)
      w <- mfd_random_tangent(M, p)
      expect_equal(mfd_exp(M, p, v), G("exp_map")("hyperbolic", p, v), tolerance = 1e-10)
      expect_equal(mfd_log(M, p, q), G("log_map")("hyperbolic", p, q), tolerance = 1e-9)
      expect_equal(mfd_dist(M, p, q), G("geo_dist")("hyperbolic", p, q), tolerance = 1e-9)
      expect_equal(mfd_transport(M, p, q, w), G("par_trans")("hyperbolic", p, q, w), tolerance = 1e-9)
    }
  }
})

test_that("geodesic_regression on hyperbolic(2) agrees with GeodRegr's geo_reg", {
  skip_if_not_installed("GeodRegr")
  set.seed(3)
  n <- 40
  x <- sort(runif(n))
  p0 <- hpt(0.5, 1)
  v0 <- mfd_project(H2, p0, c(0, 1.2, -0.4))
  truth <- mfd_exp(H2, p0, outer(x, v0))
  y <- mfd_exp(H2, truth, 0.1 * mfd_random_tangent(H2, truth, n))
  fit <- geodesic_regression(H2, x, y)
  g <- suppressWarnings(getExportedValue("GeodRegr", "geo_reg")("hyperbolic", x - mean(x), t(y), "l2",
                                                                  p_tol = 1e-9, V_tol = 1e-9))
  # GeodRegr fits y ~ Exp(p, V (x - mean x)): its geodesic at the data
  gp <- as.vector(g$p); gV <- as.vector(g$V)
  pred_g <- mfd_exp(H2, gp, outer(x - mean(x), gV))
  expect_lt(max(mfd_dist(H2, fitted(fit), pred_g)), 1e-4)
  E <- function(P) mean(mfd_dist(H2, P, y)^2) / 2
  expect_lte(E(fitted(fit)), E(pred_g) + 1e-12)
})

test_that("exact Riemannian Laplace radii follow exp(-t/sigma) sinh(t)^(d-1)", {
  set.seed(2026)
  # numerical CDF of the radial law on [0, T]
  radial_cdf <- function(d, sigma, T) {
    f <- function(t) exp(-t / sigma + (d - 1) * (log1p(-exp(-2 * t)) + t - log(2)))
    Z <- stats::integrate(f, 0, T, rel.tol = 1e-10)$value
    function(q) vapply(q, function(s) stats::integrate(f, 0, min(s, T), rel.tol = 1e-10)$value / Z, 0)
  }
  M <- hyperbolic(3)
  m <- c(cosh(1), sinh(1), 0, 0)
  # untruncated: proper for sigma < 1/2
  sigma <- 0.3
  y <- rriemann_laplace(M, 2000, m, sigma, truncated = FALSE)
  r <- mfd_dist(M, m, y)
  p_un <- suppressWarnings(stats::ks.test(r, radial_cdf(3, sigma, Inf))$p.value)
  expect_gt(p_un, 1e-3)
  # the direction is uniform: the mean of the unit directions is near 0
  u <- mfd_log(M, m, y) / r
  expect_lt(sqrt(sum(colMeans(tangent_coords_h(M, m, u))^2)), 4 / sqrt(2000))
  # truncated to a ball around the mean, with sigma beyond the untruncated limit
  sigma <- 0.8
  y <- rriemann_laplace(M, 2000, m, sigma, center = m, radius = 1.5)
  r <- mfd_dist(M, m, y)
  expect_lte(max(r), 1.5 + 1e-9)
  p_tr <- suppressWarnings(stats::ks.test(r, radial_cdf(3, sigma, 1.5))$p.value)
  expect_gt(p_tr, 1e-3)
  expect_error(rriemann_laplace(M, 1, m, 0.6, truncated = FALSE), class = "dpmanifold_error")
})

test_that("exact KNG on hyperbolic(2) agrees with a long Metropolis-Hastings chain", {
  set.seed(99)
  c0 <- hpt(0.8, 2)
  X <- clip_to_ball(H2, mfd_exp(H2, c0, 0.4 * mfd_random_tangent(H2, c0, 15)), c0, 1)
  Ye <- rkng(H2, 1000, X, 0.15, c0, 1)
  Ym <- rkng(H2, 1000, X, 0.15, c0, 1, mcmc = mcmc_control(burnin = 2000, thin = 500), method = "mcmc")
  expect_lte(max(mfd_dist(H2, c0, Ye)), 1 + 1e-9)
  xbar <- frechet_mean(H2, X)$mean
  ks <- function(a, b) suppressWarnings(stats::ks.test(a, b)$p.value)
  expect_gt(ks(mfd_dist(H2, c0, Ye), mfd_dist(H2, c0, Ym)), 1e-3)
  expect_gt(ks(mfd_dist(H2, xbar, Ye), mfd_dist(H2, xbar, Ym)), 1e-3)
  expect_gt(ks(Ye[, 2], Ym[, 2]), 1e-3)
})

test_that("dp_frechet_mean on hyperbolic(2) runs every mechanism, concentrates, and passes the neighbour test", {
  set.seed(5)
  c0 <- hpt(1, 0.3)
  n <- 200
  X <- mfd_exp(H2, c0, 0.3 * mfd_random_tangent(H2, c0, n))
  Xn <- replace_record(H2, X, 3, hpt(20, 2))     # a record far outside the ball
  xbar <- frechet_mean(H2, clip_to_ball(H2, X, c0, 1))$mean
  runs <- list(
    list(mechanism = "laplace"),
    list(mechanism = "laplace", truncated = TRUE),
    list(mechanism = "laplace", sampler = "mcmc", mcmc = mcmc_control(burnin = 200, steps = 200)),
    list(mechanism = "kng"),
    list(mechanism = "kng", sampler = "mcmc", mcmc = mcmc_control(burnin = 200, steps = 200)),
    list(mechanism = "wrapped_laplace"),
    list(mechanism = "wrapped_gaussian", delta = 1e-5),
    list(mechanism = "wrapped_gaussian", mu = 1),
    list(mechanism = "wrapped_gaussian", alpha = 2),
    list(mechanism = "euclidean_laplace"))
  for (a in runs) {
    f <- function(D) do.call(dp_frechet_mean, c(list(M = H2, X = D, epsilon = 1, center = c0, radius = 1), a))
    lab <- paste(unlist(a[c("mechanism", "sampler", "truncated", "delta", "mu", "alpha")]), collapse = " ")
    rel <- f(X)
    expect_s3_class(rel, "dp_release")
    expect_true(mfd_belongs(H2, rel$estimate, 1e-9), label = lab)
    expect_lt(mfd_dist(H2, xbar, rel$estimate), 0.5, label = lab)
    # and on the mechanism's own scale (0.5 is 25-50 sigma here): a radial
    # Gamma(d, sigma) tail beyond 12 sigma has probability < 1e-3 for d <= 3;
    # measured distance / sigma 0.46 (kng) to 4.4 (euclidean_laplace)
    expect_lt(mfd_dist(H2, xbar, rel$estimate), 12 * rel$sigma, label = lab)
    expect_neighbours_agree(f, X, Xn, label = paste("hyperbolic(2)", lab))
  }
  # the default is the untruncated Laplace law (Delta / epsilon < 1 = 1/(d - 1))
  rel <- dp_frechet_mean(H2, X, epsilon = 1, center = c0, radius = 1)
  expect_equal(rel$mechanism, "laplace")
  expect_false(rel$bounds$truncated)
  # untruncated needs sigma < 1/(d - 1): refused with a classed error otherwise
  expect_error(dp_frechet_mean(hyperbolic(3), mfd_random_point(hyperbolic(3), 5), epsilon = 0.1,
                               center = c(1, 0, 0, 0), radius = 1, truncated = FALSE),
               class = "dpmanifold_error")
  # the ambient baseline: sensitivity = ambient diameter of the ball / n,
  # 2 sinh(r) / n, attained by two opposite boundary points in the centre's
  # frame and exceeded by no pair of random points of the ball
  rel <- dp_frechet_mean(H2, X, epsilon = 1, mechanism = "euclidean_laplace", center = c0, radius = 1)
  expect_equal(rel$sensitivity, 2 * sinh(1) / n)
  o <- c(1, 0, 0)   # the centre's frame: the centre at the origin
  u <- mfd_random_tangent(H2, o, 2000)
  u <- u / sqrt(rowSums(u^2))
  P <- mfd_exp(H2, o, u * runif(2000)^(1 / 2))
  Q <- mfd_exp(H2, o, -u[sample(2000), ] * runif(2000)^(1 / 4))
  expect_lte(max(sqrt(rowSums((P - Q)^2))), 2 * sinh(1) * (1 + 1e-12))
  opp <- mfd_exp(H2, o, rbind(u[1, ], -u[1, ]))
  expect_equal(sqrt(sum((opp[1, ] - opp[2, ])^2)), 2 * sinh(1), tolerance = 1e-10)
})

test_that("the Euclidean baseline boosts to the centre's frame and back", {
  set.seed(4)
  c0 <- hpt(2, 1)
  X <- cbind(c0, t(mfd_exp(H2, c0, mfd_random_tangent(H2, c0, 5))), deparse.level = 0)
  Z <- dpm$hyperbolic_boost(c0, X, inverse = TRUE)
  expect_equal(Z[, 1], c(1, 0, 0), tolerance = 1e-12)
  expect_true(all(mfd_belongs(H2, t(Z), 1e-12)))
  expect_equal(dpm$hyperbolic_boost(c0, Z), X, tolerance = 1e-12)
  # an isometry: distances are kept
  expect_equal(mfd_dist(H2, t(Z[, 2]), t(Z[, 3])), mfd_dist(H2, X[, 2], X[, 3]), tolerance = 1e-12)
})

test_that("dp_geodesic_regression on hyperbolic(2) releases a geodesic and passes the neighbour test", {
  set.seed(8)
  n <- 60
  x <- runif(n)
  c0 <- hpt(0.5, 1)
  u <- mfd_project(H2, c0, c(0, 0.6, -0.2))
  Y <- mfd_exp(H2, mfd_exp(H2, c0, outer(x - 0.5, u)), 0.05 * mfd_random_tangent(H2, mfd_exp(H2, c0, outer(x - 0.5, u)), n))
  Yn <- replace_record(H2, Y, 2, hpt(20, 1))
  xn <- x; xn[2] <- 40
  for (method in c("joint", "energy", "tangent")) {
    f <- function(D) dp_geodesic_regression(H2, D$x, D$y, epsilon = 2, tau = 0.2, center = c0, radius = 1,
                                            x_range = c(0, 1), method = method)
    rel <- f(list(x = x, y = Y))
    expect_true(mfd_belongs(H2, rel$estimate$p, 1e-9))
    # the shooting vector is Minkowski-orthogonal to the footpoint
    expect_lt(abs(sum(rel$estimate$v * rel$estimate$p * c(-1, 1, 1))), 1e-9 * max(1, sum(abs(rel$estimate$v))))
    expect_neighbours_agree(f, list(x = x, y = Y), list(x = xn, y = Yn), label = paste("hyperbolic(2)", method))
  }
})

test_that("hostile input on hyperbolic(d) raises classed errors naming the argument", {
  err <- function(expr, arg, pattern) {
    e <- tryCatch(expr, dpmanifold_error = function(e) e)
    expect_s3_class(e, "dpmanifold_error")
    expect_identical(e$arg, arg)
    expect_match(conditionMessage(e), pattern)
  }
  err(mfd_dist(H2, c(-1, 0, 0), o2), "p", "lower sheet")
  err(mfd_dist(H2, o2, -hpt(2, 1)), "q", "lower sheet")
  err(mfd_dist(H2, o2, c(1, 1, 0)), "q", "<x, x> = -1")
  err(mfd_dist(H2, c(0, 0, 0), o2), "p", "<x, x> = -1")
  err(mfd_dist(H2, o2, c(1, 0)), "q", "length 3")
  err(mfd_dist(H2, o2, c(1, NA, 0)), "q", "NA")
  err(mfd_dist(H2, o2, c(Inf, Inf, 0)), "q", "Inf")
  # near-infinite coordinates: on the sheet in floating point, but beyond
  # what double precision can compute with
  err(mfd_dist(H2, o2, c(1e200, 1e200, 0)), "q", "too far from the origin")
  err(mfd_exp(H2, o2, c(0, 800, 0)), "v", "not representable")
  err(mfd_exp(H2, o2, c(0, 300, 0)), "v", "not representable")
  err(mfd_exp(H2, hpt(25), c(0, 0, 300)), "v", "not representable")
  # beyond x0 = 1e12 (distance 28.3) rounding leaves fewer than 4 digits:
  # such input is refused, and mfd_exp() does not return such a point (it
  # returned x0 = 5.3e12 for distance 30, which mfd_dist() then refused)
  err(mfd_dist(H2, o2, hpt(30)), "q", "too far from the origin")
  err(mfd_exp(H2, o2, c(0, 30, 0)), "v", "not representable")
  err(mfd_exp(H2, o2, c(0, 40, 0)), "v", "x0 above 1e12")
  err(mfd_exp(H2, hpt(20), c(0, 0, 10)), "v", "not representable")
  for (L in seq(24.5, 26, by = 0.1)) {   # returned exactly when accepted back
    x <- tryCatch(mfd_exp(H2, hpt(3), L * c(sinh(3), cosh(3), 0)), dpmanifold_not_representable = function(e) NULL)
    expect_true(is.null(x) || mfd_belongs(H2, x), label = paste("L =", L))
    if (L <= 25.2) expect_false(is.null(x))
  }
  expect_equal(mfd_dist(H2, o2, hpt(28)), 28, tolerance = 1e-14)
  # tangent vectors that are not Minkowski-orthogonal (Euclidean-orthogonal is not enough)
  p <- hpt(1.5)
  err(mfd_exp(H2, p, c(-sinh(1.5), cosh(1.5), 0)), "v", "Minkowski-orthogonal")
  err(mfd_exp(H2, o2, c(1, 0, 0)), "v", "Minkowski-orthogonal")
  err(mfd_transport(H2, o2, p, c(0.5, 1, 0)), "v", "Minkowski-orthogonal")
  expect_equal(mfd_project(H2, o2, c(0.5, 1, 0)), c(0, 1, 0))
  # the estimators refuse such data too
  err(frechet_mean(H2, rbind(o2, c(-1, 0, 0))), "X", "lower sheet")
  err(suppressWarnings(dp_frechet_mean(H2, rbind(o2, c(2, 0, 0)), epsilon = 1, center = o2, radius = 1),
                            classes = "dpmanifold_low_utility"), "X", "<x, x> = -1")
  err(dp_frechet_mean(H2, rbind(o2, o2), epsilon = 1, center = c(-1, 0, 0), radius = 1), "center", "lower sheet")
  err(dp_frechet_mean(H2, rbind(o2, o2), epsilon = 1, center = o2, radius = 500), "radius", ".")
  # a release whose noise cannot stay representable is refused from public facts
  expect_error(dp_frechet_mean(H2, rbind(o2, o2), epsilon = 1e-3, mechanism = "wrapped_laplace",
                               center = o2, radius = 200), class = "dpmanifold_not_representable")
})

test_that("predictions beyond x0 = 1e12 are refused as mfd_exp() refuses them", {
  # predict() extrapolates along the geodesic; far out it would return a
  # point that mfd_dist() and every other function then refuses (x0 5e12 at
  # distance 30 from the origin: fewer than 4 digits left)
  set.seed(3)
  x <- runif(40)
  Y <- mfd_exp(H2, o2, outer(x - 0.5, c(0, 1, 0)))
  fit <- geodesic_regression(H2, x, Y, x_range = c(0, 1))
  expect_true(mfd_belongs(H2, predict(fit, 20), 1e-6))         # distance about 19.5
  e <- tryCatch(predict(fit, c(0.5, 40)), dpmanifold_error = function(e) e)
  expect_s3_class(e, "dpmanifold_not_representable")
  expect_identical(e$arg, "newdata")
  rel <- dp_geodesic_regression(H2, x, Y, epsilon = 5, tau = 0.2, center = o2, radius = 1, x_range = c(0, 1))
  expect_true(mfd_belongs(H2, predict(rel, 0.5), 1e-9))
  e <- tryCatch(predict(rel, c(0.5, 1e4)), dpmanifold_error = function(e) e)
  expect_s3_class(e, "dpmanifold_not_representable")
  expect_identical(e$arg, "newdata")
})

test_that("Poincare ball and half-plane conversions are inverse isometries", {
  set.seed(21)
  X <- mfd_random_point(H2, 20)
  B <- hyperbolic_to_poincare(X)
  expect_true(all(rowSums(B^2) < 1))
  expect_equal(poincare_to_hyperbolic(B), X, tolerance = 1e-12)
  # the Poincare distance arcosh(1 + 2|a - b|^2 / ((1 - |a|^2)(1 - |b|^2)))
  dP <- acosh(1 + 2 * sum((B[1, ] - B[2, ])^2) / ((1 - sum(B[1, ]^2)) * (1 - sum(B[2, ]^2))))
  expect_equal(dP, mfd_dist(H2, X[1, ], X[2, ]), tolerance = 1e-12)
  expect_equal(hyperbolic_to_poincare(hpt(1)), c(tanh(0.5), 0), tolerance = 1e-15)
  expect_equal(hyperbolic_to_poincare(o2), c(0, 0))
  Z <- hyperbolic_to_halfplane(X)
  expect_true(all(Z[, 2] > 0))
  expect_equal(halfplane_to_hyperbolic(Z), X, tolerance = 1e-12)
  dU <- acosh(1 + sum((Z[1, ] - Z[2, ])^2) / (2 * Z[1, 2] * Z[2, 2]))
  expect_equal(dU, mfd_dist(H2, X[1, ], X[2, ]), tolerance = 1e-12)
  expect_equal(hyperbolic_to_halfplane(o2), c(0, 1))
  expect_equal(halfplane_to_hyperbolic(complex(real = 0, imaginary = exp(2))), c(cosh(2), 0, sinh(2)), tolerance = 1e-15)
  # higher dimension
  X5 <- mfd_random_point(hyperbolic(5), 3)
  expect_equal(poincare_to_hyperbolic(hyperbolic_to_poincare(X5)), X5, tolerance = 1e-12)
  # hostile input
  expect_error(poincare_to_hyperbolic(c(0.6, 0.8)), class = "dpmanifold_error")
  expect_error(poincare_to_hyperbolic(c(1, 0)), class = "dpmanifold_error")
  expect_equal(mfd_dist(H2, o2, poincare_to_hyperbolic(c(tanh(5), 0))), 10, tolerance = 1e-10)
  expect_error(poincare_to_hyperbolic(rbind(c(0.1, 0), c(2, 0))), "point 2")
  expect_error(halfplane_to_hyperbolic(c(0, -1)), class = "dpmanifold_error")
  expect_error(halfplane_to_hyperbolic(c(0, 1e-200)), class = "dpmanifold_not_representable")
  expect_error(poincare_to_hyperbolic(c(1 - 1e-14, 0)), class = "dpmanifold_not_representable")
  expect_equal(mfd_dist(H2, o2, poincare_to_hyperbolic(c(tanh(12), 0))), 24, tolerance = 1e-6)
  expect_error(hyperbolic_to_poincare(c(-1, 0, 0)), "lower sheet")
  expect_error(hyperbolic_to_halfplane(mfd_random_point(hyperbolic(3))), class = "dpmanifold_error")
  expect_error(hyperbolic_to_poincare(c(1, NA, 0)), class = "dpmanifold_error")
})

test_that("releases and fits on hyperbolic(d) draw a Poincare-disc picture", {
  set.seed(31)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  c0 <- hpt(0.5, 1)
  X <- mfd_exp(H2, c0, 0.3 * mfd_random_tangent(H2, c0, 30))
  rel <- dp_frechet_mean(H2, X, epsilon = 1, center = c0, radius = 1)
  expect_silent(plot(rel, data = X))
  x <- runif(30)
  fit <- geodesic_regression(H2, x, X)
  expect_silent(plot(fit))
  M3 <- hyperbolic(3)
  X3 <- mfd_random_point(M3, 10)
  rel3 <- suppressWarnings(dp_frechet_mean(M3, X3, epsilon = 1, center = c(1, 0, 0, 0), radius = 2,
                                                mechanism = "kng"), classes = "dpmanifold_low_utility")
  expect_silent(plot(rel3, data = X3))
})

test_that("hyperbolic() sizes and O(D) tangent coordinates", {
  for (bad in list(0, -1, NaN, Inf, c(2, 3), NULL, "2", 2^31 - 1)) {
    e <- tryCatch(hyperbolic(bad), dpmanifold_error = function(e) e)
    expect_s3_class(e, "dpmanifold_error")
    expect_identical(e$arg, "d")
  }
  expect_identical(hyperbolic(2^31 - 2)$ambient_dim, .Machine$integer.max)
  set.seed(41)
  M <- hyperbolic(40)
  p <- mfd_random_point(M)
  P <- matrix(p)
  Bm <- t(mfd_tangent_basis(M, p))
  G <- crossprod(Bm, diag(c(-1, rep(1, 40))) %*% Bm)   # Minkowski Gram matrix of the basis
  expect_equal(G, diag(40), tolerance = 1e-10)
  v <- mfd_random_tangent(M, p)
  z <- dpm$cpp_tangent_coords(M, P, matrix(v))
  expect_equal(as.vector(Bm %*% z), v, tolerance = 1e-10)
  # malformed objects are refused
  bad <- unclass(hyperbolic(2)); bad$ambient_dim <- 2L; class(bad) <- c("hyperbolic", "manifold")
  expect_error(mfd_dist(bad, o2, o2), class = "dpmanifold_error")
})

test_that("exp(log) holds far from the origin when the geodesic passes near it", {
  # two points 10 from the origin at a right angle (x0 = 1.1e4): exp
  # formed cosh(L) ps + sinhc(L) vs, terms of 1e12 for a result of 1e4,
  # with L and vs rounded apart: it missed by a distance of 2.33 (7e-4 at 8)
  for (d in c(2, 5)) {
    H <- hyperbolic(d)
    for (t in c(8, 10)) {
      q <- c(cosh(t), sinh(t), numeric(d - 1))
      r <- c(cosh(t), 0, sinh(t), numeric(d - 2))
      # the limit is the conditioning, sinh(dist) times the rounding of the direction
      expect_lt(mfd_dist(H, mfd_exp(H, q, mfd_log(H, q, r)), r), 1e-15 * sinh(mfd_dist(H, q, r)))
      m <- mfd_exp(H, q, 0.5 * mfd_log(H, q, r))
      expect_equal(mfd_dist(H, q, m), mfd_dist(H, q, r) / 2, tolerance = 1e-9)
    }
  }
  # random pairs up to about 11 apart: the old exp missed by 4e-6
  set.seed(7)
  H <- hyperbolic(3)
  o <- c(1, 0, 0, 0)
  Q <- mfd_exp(H, o, 2 * mfd_random_tangent(H, o, 400))
  R <- mfd_exp(H, o, 2 * mfd_random_tangent(H, o, 400))
  expect_lt(max(mfd_dist(H, mfd_exp(H, Q, mfd_log(H, Q, R)), R)), 1e-8)
})

test_that("parallel transport keeps norms and tangency far from the origin", {
  # The ambient forms w + <w, q> (p + q) / (1 + cosh d) and transport_along's
  # w + a ((cosh L - 1) e + sinh L p) cancel terms of x0^2 |w| or more: the
  # norm drifted by 3e-8 at distance 7 from o, and at 10 the result was not
  # tangent. Rounding p, q, w (x0 digits of each coordinate) leaves a
  # relative error of about eps (p0 + q0): 1.6e-12 at 10, 8e-6 at 25
  # (measured: at most 1.8 eps (p0 + q0)).
  for (t in c(3, 7, 8, 10)) {   # the report's pairs: 10 from o at a right angle
    p <- c(cosh(t), 0, sinh(t)); q <- c(cosh(t), sinh(t), 0)
    tw <- mfd_transport(H2, p, q, mfd_project(H2, p, c(0, 1, 0)))
    expect_equal(mfd_norm(H2, q, tw), 1, tolerance = 16 * .Machine$double.eps * 2 * cosh(t))
  }
  set.seed(31)
  ru <- function(d) { u <- rnorm(d); u / sqrt(sum(u^2)) }
  coords <- function(H, p, v) dpm$cpp_tangent_coords(H, matrix(p), matrix(v))[, 1]
  for (d in c(2, 5)) {
    H <- hyperbolic(d)
    for (r in c(3, 5, 7, 10, 15, 20, 25)) {
      for (i in 1:12) {
        p <- c(cosh(r), sinh(r) * ru(d))
        s <- if (i %% 3 == 0) r else runif(1, 0.3, 1) * r
        q <- if (i %% 4 == 0) mfd_exp(H, p, 1e-3 * mfd_random_tangent(H, p)) else c(cosh(s), sinh(s) * ru(d))
        tol <- 16 * .Machine$double.eps * (p[1] + q[1])   # <= 8e-11 up to r = 10
        lab <- sprintf("d = %d, r = %g, pair %d", d, r, i)
        w <- mfd_random_tangent(H, p)
        tw <- mfd_transport(H, p, q, w)   # refused before unless tangent at q
        expect_lt(abs(-tw[1] * q[1] + sum(tw[-1] * q[-1])) / sqrt(sum(tw^2) * sum(q^2)), 1e-14, label = lab)
        expect_lt(abs(mfd_norm(H, q, tw) / mfd_norm(H, p, w) - 1), tol, label = lab)
        back <- mfd_transport(H, q, p, tw)
        expect_lt(sqrt(sum((coords(H, p, back) - coords(H, p, w))^2)) / mfd_norm(H, p, w), tol, label = lab)
        # transport_along (regression, dexp): to e = exp_p(v), the velocity
        # there (within r <= 20: exp's conditioning, sinh(dist) eps, moves e
        # by O(1) and beyond x0 = 1e12 at 25)
        if (r > 20) next
        v <- mfd_log(H, p, q)
        e <- dpm$cpp_binary_op(H, "exp", matrix(p), matrix(v))[, 1]
        tv <- dpm$cpp_ternary_op(H, "transport_along", matrix(p), matrix(v), cbind(v, w))
        expect_lt(abs(mfd_norm(H, e, tv[, 2]) / mfd_norm(H, p, w) - 1), tol, label = lab)
        # (log's own rounding at e: 350 eps (p0 + q0) measured)
        expect_lt(sqrt(sum((coords(H, e, tv[, 1]) + coords(H, e, mfd_log(H, e, p)))^2)) / mfd_norm(H, p, v),
                  1e3 * tol, label = lab)
      }
    }
  }
})
