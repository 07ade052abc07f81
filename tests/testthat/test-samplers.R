# Sampler correctness: Kolmogorov-Smirnov tests of the released laws against
# numerically integrated targets. Seeds are fixed; each KS p-value must be
# above 1e-3 (the tests are run once per seed, so this is a check that the
# law is right, not a statistical procedure), and a deliberately wrong target
# must be rejected so the checks have power. The p-values are printed.

ks_threshold <- 1e-3

# ks.test p-value; a thinned Metropolis-Hastings chain can repeat a state
# (a rejected run longer than the thinning), which only triggers the ties
# warning of ks.test.
ks_p <- function(...) {
  withCallingHandlers(stats::ks.test(...)$p.value, warning = function(w) {
    if (grepl("ties", conditionMessage(w))) invokeRestart("muffleWarning")
  })
}

ks_report <- function(label, p) {
  message(sprintf("KS %-58s p = %.4f", label, p))
  f <- Sys.getenv("DPMANIFOLD_KS_REPORT")
  if (nzchar(f)) cat(sprintf("%s\t%.6g\n", label, p), file = f, append = TRUE)
  invisible(p)
}

# CDF of the geodesic radius t in [0, r] with density prop. to
# exp(-t / sigma) s(t)^(d - 1), by numerical integration.
radius_cdf <- function(sigma, d, r, s = sin) {
  f <- function(t) exp(-t / sigma) * s(t)^(d - 1)
  Z <- integrate(f, 0, r, rel.tol = 1e-10)$value
  function(q) vapply(q, function(x) if (x <= 0) 0 else if (x >= r) 1 else integrate(f, 0, x, rel.tol = 1e-10)$value / Z, numeric(1))
}

# Angle of Log_p(y) in the plane of the first two tangent basis vectors.
tangent_angle <- function(M, p, Y) {
  B <- mfd_tangent_basis(M, p)
  V <- mfd_log(M, p, Y)
  a <- mfd_inner(M, p, V, slice_point(M, B, 1))
  b <- mfd_inner(M, p, V, slice_point(M, B, 2))
  atan2(b, a)
}

test_that("exact Riemannian Laplace on S^2, S^4 and Kendall(3): geodesic radius and direction have the target law", {
  set.seed(301)
  N <- 2000
  cases <- list(
    list(M = sphere(2), sigma = 0.2, r = 0.7, s = sin),
    list(M = sphere(2), sigma = 1.5, r = 0.7, s = sin),   # sigma > r: uniform-ball proposals
    list(M = sphere(4), sigma = 0.15, r = 0.6, s = sin),
    list(M = kendall_shape(3), sigma = 0.1, r = 0.35, s = function(t) sin(2 * t) / 2)
  )
  for (cs in cases) {
    M <- cs$M
    m <- mfd_random_point(M)
    Y <- rriemann_laplace(M, N, m, cs$sigma, center = m, radius = cs$r)
    expect_identical(attr(Y, "diagnostics")$method, "exact")
    t <- mfd_dist(M, m, Y)
    expect_lte(max(t), cs$r)
    p <- ks_report(sprintf("exact Laplace radius on %s(%d), sigma = %g", M$name, M$size, cs$sigma),
                   ks_p(t, radius_cdf(cs$sigma, M$dim, cs$r, cs$s)))
    expect_gt(p, ks_threshold)
    if (M$dim == 2) {
      p <- ks_report(sprintf("exact Laplace direction on %s(%d), sigma = %g", M$name, M$size, cs$sigma),
                     ks_p(tangent_angle(M, m, Y), "punif", -pi, pi))
      expect_gt(p, ks_threshold)
    }
    # power: a 25% larger (or, for the near-uniform law, much smaller) scale is rejected
    wrong <- if (cs$sigma > cs$r) cs$sigma / 4 else 1.25 * cs$sigma
    expect_lt(ks_p(t, radius_cdf(wrong, M$dim, cs$r, cs$s)), ks_threshold)
  }
})

test_that("exact Riemannian Laplace on R^d: radius Gamma(d, sigma), truncated to the ball", {
  set.seed(302)
  N <- 2000
  E <- euclidean(3)
  m <- c(1, -2, 0.5)
  Y <- rriemann_laplace(E, N, m, sigma = 0.5, radius = Inf)
  t <- mfd_dist(E, m, Y)
  expect_gt(ks_report("exact Laplace radius on R^3, no ball", ks_p(t, "pgamma", shape = 3, scale = 0.5)), ks_threshold)
  expect_lt(ks_p(t, "pgamma", shape = 3, scale = 0.6), ks_threshold)
  # direction uniform on the unit sphere: each coordinate of u is U(-1, 1)
  U <- sweep(Y, 2, m) / t
  expect_gt(ks_report("exact Laplace direction on R^3 (u_3 ~ U(-1,1))", ks_p(U[, 3], "punif", -1, 1)), ks_threshold)
  # restricted to the ball of radius 2 around m: truncated Gamma
  Y <- rriemann_laplace(E, N, m, sigma = 0.8, center = m, radius = 2)
  t <- mfd_dist(E, m, Y)
  expect_lte(max(t), 2)
  Ftr <- function(q) pgamma(pmin(q, 2), 3, scale = 0.8) / pgamma(2, 3, scale = 0.8)
  expect_gt(ks_report("exact Laplace radius on R^3, ball r = 2", ks_p(t, Ftr)), ks_threshold)
})

test_that("Metropolis-Hastings Riemannian Laplace on S^2 matches the target and the exact sampler", {
  set.seed(303)
  S2 <- sphere(2)
  m <- c(0, 0, 1)
  ctrl <- mcmc_control(burnin = 2000, thin = 100)
  Y <- rriemann_laplace(S2, 1500, m, sigma = 0.2, center = m, radius = 0.7, mcmc = ctrl, method = "mcmc")
  dg <- attr(Y, "diagnostics")
  expect_identical(dg$method, "metropolis_hastings")
  expect_gt(dg$acceptance, 0.15)
  expect_lt(dg$acceptance, 0.6)
  t <- mfd_dist(S2, m, Y)
  expect_gt(ks_report("MCMC Laplace radius on S^2", ks_p(t, radius_cdf(0.2, 2, 0.7))), ks_threshold)
  expect_gt(ks_report("MCMC Laplace direction on S^2", ks_p(tangent_angle(S2, m, Y), "punif", -pi, pi)), ks_threshold)
  # mean off the centre: the restricted law is not radial; compare samplers
  eta <- mfd_exp(S2, m, c(0.45, 0, 0))
  Ym <- rriemann_laplace(S2, 1500, eta, sigma = 0.25, center = m, radius = 0.6, mcmc = ctrl, method = "mcmc")
  Ye <- rriemann_laplace(S2, 1500, eta, sigma = 0.25, center = m, radius = 0.6)
  stats <- list("radius" = function(Y) mfd_dist(S2, m, Y), "x" = function(Y) Y[, 1], "z" = function(Y) Y[, 3])
  for (nm in names(stats)) {
    expect_gt(ks_report(sprintf("MCMC vs exact Laplace on S^2, mean off centre, %s", nm),
                        ks_p(stats[[nm]](Ym), stats[[nm]](Ye))), ks_threshold)
  }
  # the same with sigma > r (the exact sampler then proposes uniformly on the ball)
  Ym <- rriemann_laplace(S2, 1500, eta, sigma = 1, center = m, radius = 0.6, mcmc = ctrl, method = "mcmc")
  Ye <- rriemann_laplace(S2, 1500, eta, sigma = 1, center = m, radius = 0.6)
  for (nm in names(stats)) {
    expect_gt(ks_report(sprintf("MCMC vs exact Laplace on S^2, mean off centre, sigma > r, %s", nm),
                        ks_p(stats[[nm]](Ym), stats[[nm]](Ye))), ks_threshold)
  }
  # a huge sigma (radius close to r*, where h(2r) -> 0) gives the uniform law on the ball
  Yu <- rriemann_laplace(S2, 1500, eta, sigma = 1e6, center = m, radius = 0.6)
  expect_gt(ks_report("exact Laplace on S^2, sigma = 1e6: uniform on the ball",
                      ks_p(mfd_dist(S2, m, Yu), function(q) (1 - cos(pmin(q, 0.6))) / (1 - cos(0.6)))), ks_threshold)
})

test_that("KNG on S^2 by Metropolis-Hastings matches a polar-grid quadrature of its density", {
  set.seed(304)
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  r <- pi / 8
  # 001 B.4.1 data, shifted so that the law is not symmetric about the centre
  n <- 20
  th <- runif(n, 0, 0.2); ph <- runif(n, 0, 2 * pi)
  X0 <- cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
  X <- mfd_exp(S2, X0, mfd_transport(S2, north, X0, c(0.15, 0, 0)))
  X <- clip_to_ball(S2, X, north, r)
  sigma <- 0.08
  # geodesic polar grid around the centre (midpoint rule), volume sin(rho)
  nr <- 300; nphi <- 240
  rho <- (seq_len(nr) - 0.5) * r / nr
  phi <- (seq_len(nphi) - 0.5) * 2 * pi / nphi
  G <- expand.grid(rho = rho, phi = phi)
  Yg <- cbind(sin(G$rho) * cos(G$phi), sin(G$rho) * sin(G$phi), cos(G$rho))
  w <- exp(dkng(S2, Yg, X, sigma)) * sin(G$rho)
  w <- w / sum(w)
  grid_cdf <- function(vals) {
    o <- order(vals); v <- vals[o]; cw <- cumsum(w[o])
    function(q) { i <- findInterval(q, v); ifelse(i == 0, 0, cw[pmax(i, 1)]) }
  }
  Y <- rkng(S2, 1500, X, sigma, north, r, mcmc = mcmc_control(burnin = 2000, thin = 100))
  dg <- attr(Y, "diagnostics")
  expect_identical(dg$method, "metropolis_hastings")
  expect_equal(dg$steps, 1500 * 100)
  for (s in list(list("geodesic radius", function(Y) acos(pmin(1, Y[, 3]))),
                 list("x coordinate", function(Y) Y[, 1]),
                 list("y coordinate", function(Y) Y[, 2]))) {
    p <- ks_report(sprintf("MCMC KNG on S^2 vs grid, %s", s[[1]]), ks_p(s[[2]](Y), grid_cdf(s[[2]](Yg))))
    expect_gt(p, ks_threshold)
  }
  # power: the grid law of a data set moved by 0.05 is rejected
  Xs <- mfd_exp(S2, X, mfd_transport(S2, north, X, c(0.05, 0, 0)))
  ws <- exp(dkng(S2, Yg, Xs, sigma)) * sin(G$rho); ws <- ws / sum(ws)
  o <- order(Yg[, 1]); v <- Yg[o, 1]; cw <- cumsum(ws[o])
  expect_lt(ks_p(Y[, 1], function(q) { i <- findInterval(q, v); ifelse(i == 0, 0, cw[pmax(i, 1)]) }), ks_threshold)
})

test_that("KNG on flat manifolds: the exact sampler equals the MCMC law (Laplace around the mean)", {
  set.seed(305)
  E <- euclidean(2)
  X <- matrix(runif(30, -1, 1), 15)
  Ye <- rkng(E, 1500, X, sigma = 0.3, center = c(0, 0), radius = 1.5)
  Ym <- rkng(E, 1500, X, sigma = 0.3, center = c(0, 0), radius = 1.5,
             mcmc = mcmc_control(burnin = 2000, thin = 100), method = "mcmc")
  expect_identical(attr(Ye, "diagnostics")$method, "exact")
  xbar <- colMeans(X)
  t_e <- mfd_dist(E, xbar, Ye)
  for (j in 1:2) expect_gt(ks_report(sprintf("KNG R^2 exact vs MCMC, coordinate %d", j), ks_p(Ye[, j], Ym[, j])), ks_threshold)
  # the exact draws are the Laplace law around the mean restricted to the ball
  Yl <- rriemann_laplace(E, 1500, xbar, sigma = 0.3, center = c(0, 0), radius = 1.5)
  expect_gt(ks_report("KNG R^2 exact vs Laplace around the mean", ks_p(t_e, mfd_dist(E, xbar, Yl))), ks_threshold)
})

# Coordinates of Log_{p0}(y) - Log_{p0}(mean) in an orthonormal basis of T_{p0}.
wrapped_coords <- function(M, p0, mean, Y) {
  B <- mfd_tangent_basis(M, p0)
  V <- mfd_log(M, p0, Y)
  c0 <- mfd_log(M, p0, mean)
  V <- if (is.null(M$point_dim)) sweep(V, 2, c0) else sweep(V, 1:2, c0)
  nY <- if (is.null(M$point_dim)) nrow(Y) else dim(Y)[3]
  vapply(seq_len(M$dim), function(i) mfd_inner(M, p0, V, slice_point(M, B, i)), numeric(nY))
}

test_that("wrapped Gaussian: Log_{p0} of the draws is N(Log_{p0} mean, sigma^2 I) in orthonormal coordinates", {
  set.seed(306)
  N <- 4000
  for (M in list(spd(3), spd(3, "log_euclidean"), euclidean(3))) {
    p0 <- mfd_random_point(M)
    mean <- random_near(M, p0, 1)
    sigma <- 0.3
    Y <- rwrapped_gaussian(M, N, mean, sigma, footpoint = p0)
    C <- wrapped_coords(M, p0, mean, Y)
    d <- M$dim
    # mean 0 within 5 standard errors, covariance sigma^2 I within 5 standard
    # errors (sd of a sample variance sigma^2 sqrt(2/N), of a covariance sigma^2/sqrt(N))
    expect_lt(max(abs(colMeans(C))), 5 * sigma / sqrt(N), label = M$name)
    S <- cov(C)
    se <- sigma^2 * ifelse(diag(d) == 1, sqrt(2 / N), 1 / sqrt(N))
    expect_true(all(abs(S - sigma^2 * diag(d)) < 5 * se), label = paste(M$name, "covariance"))
    p <- min(vapply(seq_len(d), function(i) ks_p(C[, i], "pnorm", 0, sigma), numeric(1)))
    expect_gt(ks_report(sprintf("wrapped Gaussian on %s, Bonferroni min over coordinates", M$name), min(1, p * d)), ks_threshold)
  }
})

test_that("wrapped Laplace: norm of the tangent noise ~ Gamma(d, sigma), direction uniform", {
  set.seed(307)
  N <- 4000
  for (M in list(spd(3), spd(2, "log_euclidean"), euclidean(3))) {
    p0 <- mfd_random_point(M)
    mean <- random_near(M, p0, 1)
    sigma <- 0.2
    Y <- rwrapped_laplace(M, N, mean, sigma, footpoint = p0)
    C <- wrapped_coords(M, p0, mean, Y)
    d <- M$dim
    R <- sqrt(rowSums(C^2))
    expect_gt(ks_report(sprintf("wrapped Laplace norm on %s", M$name), ks_p(R, "pgamma", shape = d, scale = sigma)), ks_threshold)
    expect_lt(ks_p(R, "pgamma", shape = d, scale = 1.1 * sigma), ks_threshold)
    # isotropy: E[C] = 0 and Cov(C) = E[R^2]/d I = (d + 1) sigma^2 I; the
    # sample variance has relative sd sqrt((2d + 8) / ((d + 1) N))
    U <- C / R
    expect_lt(max(abs(colMeans(U))), 5 / sqrt(N * d), label = M$name)
    S <- cov(C)
    v <- (d + 1) * sigma^2
    expect_lt(max(abs(diag(S) - v)) / v, 5 * sqrt((2 * d + 8) / ((d + 1) * N)), label = paste(M$name, "variances"))
  }
})

test_that("the package's Gaussian variates are standard normal and independent", {
  # polar method on R's uniforms: both members of a pair are N(0, 1) and
  # independent; coordinates 1 and 2 of a Euclidean tangent draw are a pair
  set.seed(21)
  Z <- mfd_random_tangent(euclidean(4), rep(0, 4), 5000)
  p <- ks.test(as.vector(Z), "pnorm")$p.value
  message(sprintf("KS polar normals vs N(0, 1), 20000 values: p = %.4f", p))
  expect_gt(p, 1e-3)
  # correlation of a pair: sd 1 / sqrt(5000), 4 sd band
  expect_lt(abs(cor(Z[, 1], Z[, 2])), 4 / sqrt(5000))
  expect_lt(abs(cor(Z[, 1]^2, Z[, 2]^2)), 4 / sqrt(5000))
  # a wrong generator (uniforms scaled to unit variance) is rejected (R's
  # 32-bit uniforms may tie among 20000 values: harmless for this check)
  expect_lt(suppressWarnings(ks.test(sqrt(12) * (runif(20000) - 0.5), "pnorm"))$p.value, 1e-3)
})
