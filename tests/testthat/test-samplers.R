# Sampler correctness: Kolmogorov-Smirnov tests of the released laws against
# numerically integrated targets (and against long Metropolis-Hastings
# chains). Seeds are fixed; each KS p-value must be above 1e-3 (the tests are
# run once per seed, so this is a check that the law is right, not a
# statistical procedure), and a deliberately wrong target must be rejected
# so the checks have power. The p-values are printed.

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
  message(sprintf("KS %-62s p = %.4f", label, p))
  f <- Sys.getenv("DPMANIFOLD_KS_REPORT")
  if (nzchar(f)) cat(sprintf("%s\t%.6g\n", label, p), file = f, append = TRUE)
  invisible(p)
}

# CDF on [0, r] of the density prop. to f, by numerical integration on a
# fine grid (trapezoid rule on 4000 cells, then linear interpolation).
grid_cdf_1d <- function(f, r, m = 4000) {
  x <- seq(0, r, length.out = m + 1)
  y <- f(x)
  y[!is.finite(y)] <- 0
  cw <- c(0, cumsum((y[-1] + y[-(m + 1)]) / 2))
  cw <- cw / cw[m + 1]
  function(q) stats::approx(x, cw, pmin(pmax(q, 0), r))$y
}

# CDF of the geodesic radius t in [0, r] with density prop. to
# exp(-t / sigma) s(t)^(d - 1).
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

test_that("exact Riemannian Laplace on S^2, S^4 and Kendall(3), truncated: geodesic radius and direction have the target law", {
  set.seed(301)
  N <- 2000
  cases <- list(
    list(M = sphere(2), sigma = 0.2, r = 0.7, s = sin),
    list(M = sphere(2), sigma = 1.5, r = 0.7, s = sin),   # sigma > r: uniform-on-ball proposals
    list(M = sphere(4), sigma = 0.15, r = 0.6, s = sin),
    list(M = kendall_shape(3), sigma = 0.1, r = 0.35, s = function(t) sin(2 * t) / 2)
  )
  for (cs in cases) {
    M <- cs$M
    m <- mfd_random_point(M)
    Y <- rriemann_laplace(M, N, m, cs$sigma, center = m, radius = cs$r)
    expect_identical(attr(Y, "sampler"), "exact")
    expect_null(attr(Y, "diagnostics"))
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

test_that("exact untruncated Riemannian Laplace on S^2 and Kendall(4): radius law exp(-t/sigma) A(t) on [0, inj)", {
  set.seed(311)
  N <- 2000
  k4 <- function(t) sin(t)^2 * sin(2 * t) / 2     # Kendall k = 4: sin^(2k-6) t sin(2t)/2
  cases <- list(
    list(M = sphere(2), sigma = 0.5, A = sin, T = pi),
    list(M = sphere(2), sigma = 3, A = sin, T = pi),         # nearly uniform on the sphere
    list(M = kendall_shape(4), sigma = 0.15, A = k4, T = pi / 2),
    list(M = kendall_shape(4), sigma = 1, A = k4, T = pi / 2)
  )
  for (cs in cases) {
    M <- cs$M
    m <- mfd_random_point(M)
    Y <- rriemann_laplace(M, N, m, cs$sigma, truncated = FALSE)
    t <- mfd_dist(M, m, Y)
    expect_lt(max(t), cs$T)
    Ft <- grid_cdf_1d(function(t) exp(-t / cs$sigma) * cs$A(t), cs$T)
    p <- ks_report(sprintf("exact untruncated Laplace radius on %s(%d), sigma = %g", M$name, M$size, cs$sigma),
                   ks_p(t, Ft))
    expect_gt(p, ks_threshold)
    # power: a 25% larger scale (near-uniform laws: a 4 times smaller one) is rejected
    ws <- if (cs$sigma >= 1) cs$sigma / 4 else 1.25 * cs$sigma
    wrong <- grid_cdf_1d(function(t) exp(-t / ws) * cs$A(t), cs$T)
    expect_lt(ks_p(t, wrong), ks_threshold)
  }
  # Kendall(4) truncated at r = 0.3 around the mean
  M <- kendall_shape(4)
  m <- mfd_random_point(M)
  Y <- rriemann_laplace(M, N, m, 0.1, center = m, radius = 0.3)
  t <- mfd_dist(M, m, Y)
  expect_lte(max(t), 0.3)
  p <- ks_report("exact truncated Laplace radius on Kendall(4), sigma = 0.1, r = 0.3",
                 ks_p(t, grid_cdf_1d(function(t) exp(-t / 0.1) * k4(t), 0.3)))
  expect_gt(p, ks_threshold)
  expect_lt(ks_p(t, grid_cdf_1d(function(t) exp(-t / 0.125) * k4(t), 0.3)), ks_threshold)
  # the volume matters: on the whole space at sigma = 1 the flat volume t^3 is rejected
  Y <- rriemann_laplace(M, N, m, 1, truncated = FALSE)
  expect_lt(ks_p(mfd_dist(M, m, Y), grid_cdf_1d(function(t) exp(-t) * t^3, pi / 2)), ks_threshold)
})

# SPD(2), affine-invariant, around the identity: v = Log(y) has |v| = t and
# s = tr(v) / (sqrt 2 t) is the component of the unit direction along the
# identity, uniform on [-1, 1] for the flat law. The volume density is
# J = sinhc(t b(s)), b(s) = sqrt(1 - s^2)/sqrt 2 (one root, |l1 - l2|/2), so
#   (t, s) has density prop. to exp(-t/sigma) t^2 sinhc(t b(s)).
# Marginals: t: exp(-t/sigma) t^2 int_0^1 sinhc(t b(s)) ds;
#            s: (1/(2b)) ((1/sigma - b)^-2 - (1/sigma + b)^-2)  (b -> 0: 2 sigma^3).
spd2_stats <- function(Y) {
  # Log(y) by an eigendecomposition (draws of a wide law can be too
  # ill-conditioned for the package's membership check)
  lam <- apply(Y, 3, function(y) log(eigen(y, symmetric = TRUE, only.values = TRUE)$values))
  t <- sqrt(colSums(lam^2))
  list(t = t, s = colSums(lam) / (sqrt(2) * t))
}
sinhc <- function(x) ifelse(x < 1e-8, 1, sinh(x) / x)
spd2_t_density <- function(sigma) {
  function(t) exp(-t / sigma) * t^2 * vapply(t, function(tt) integrate(function(s) sinhc(tt * sqrt(1 - s^2) / sqrt(2)), 0, 1)$value, numeric(1))
}
spd2_s_cdf <- function(sigma) {
  f <- function(s) {
    b <- sqrt(1 - s^2) / sqrt(2)
    ifelse(b < 1e-6, 2 * sigma^3, ((1 / sigma - b)^-2 - (1 / sigma + b)^-2) / (2 * b))
  }
  Z <- integrate(f, -1, 1)$value
  function(q) vapply(q, function(x) if (x <= -1) 0 else if (x >= 1) 1 else integrate(f, -1, x)$value / Z, numeric(1))
}

test_that("exact Riemannian Laplace on affine-invariant SPD(2), untruncated and truncated: radius and direction marginals match quadrature", {
  set.seed(312)
  N <- 2000
  P <- spd(2)
  I2 <- diag(2)
  expect_equal(max_untruncated_sigma(P), sqrt(2))
  for (sigma in c(0.3, 0.9)) {
    Y <- rriemann_laplace(P, N, I2, sigma, truncated = FALSE)
    st <- spd2_stats(Y)
    tmax <- 60 * sigma / (1 - sigma / sqrt(2))
    p <- ks_report(sprintf("exact untruncated Laplace on SPD(2), t, sigma = %g", sigma),
                   ks_p(st$t, grid_cdf_1d(spd2_t_density(sigma), tmax)))
    expect_gt(p, ks_threshold)
    p <- ks_report(sprintf("exact untruncated Laplace on SPD(2), tr-direction s, sigma = %g", sigma),
                   ks_p(st$s, spd2_s_cdf(sigma)))
    expect_gt(p, ks_threshold)
  }
  # power at sigma = 0.9: the flat law (Gamma(3, sigma) radius, uniform s) is rejected
  expect_lt(ks_p(st$t, "pgamma", shape = 3, scale = 0.9), ks_threshold)
  expect_lt(ks_p(st$s, "punif", -1, 1), ks_threshold)
  # truncated to B_1.2(I): the radial law cut at 1.2
  Y <- rriemann_laplace(P, N, I2, 0.3, center = I2, radius = 1.2)
  st <- spd2_stats(Y)
  expect_lte(max(st$t), 1.2 + 1e-12)
  p <- ks_report("exact truncated Laplace on SPD(2), t, sigma = 0.3, r = 1.2",
                 ks_p(st$t, grid_cdf_1d(spd2_t_density(0.3), 1.2)))
  expect_gt(p, ks_threshold)
  expect_lt(ks_p(st$t, grid_cdf_1d(spd2_t_density(0.375), 1.2)), ks_threshold)
})

test_that("exact Laplace on SPD(2) with the mean off the centre agrees with a long MCMC chain; log-Euclidean is Gamma", {
  set.seed(313)
  P <- spd(2)
  I2 <- diag(2)
  eta <- mfd_exp(P, I2, matrix(c(0.5, 0.2, 0.2, -0.1), 2))
  ctrl <- mcmc_control(burnin = 2000, thin = 100)
  Ye <- rriemann_laplace(P, 1500, eta, 0.4, center = I2, radius = 0.8)
  Ym <- rriemann_laplace(P, 1500, eta, 0.4, center = I2, radius = 0.8, mcmc = ctrl, method = "mcmc")
  expect_identical(attr(Ym, "sampler"), "mcmc")
  for (st in list(list("dist to centre", function(Y) mfd_dist(P, I2, Y)),
                  list("dist to mean", function(Y) mfd_dist(P, eta, Y)),
                  list("y[1,1]", function(Y) Y[1, 1, ]))) {
    p <- ks_report(sprintf("exact vs MCMC Laplace on SPD(2), mean off centre, %s", st[[1]]),
                   ks_p(st[[2]](Ye), st[[2]](Ym)))
    expect_gt(p, ks_threshold)
  }
  # log-Euclidean SPD(2) is flat: the untruncated radius is Gamma(3, sigma)
  L <- spd(2, "log_euclidean")
  Y <- rriemann_laplace(L, 2000, eta, 0.4, truncated = FALSE)
  t <- mfd_dist(L, eta, Y)
  expect_gt(ks_report("exact untruncated Laplace on log-Euclidean SPD(2)", ks_p(t, "pgamma", shape = 3, scale = 0.4)),
            ks_threshold)
  expect_lt(ks_p(t, "pgamma", shape = 3, scale = 0.5), ks_threshold)
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
  expect_identical(attr(Y, "sampler"), "mcmc")
  expect_null(attr(Y, "diagnostics"))
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
  # a huge sigma gives the uniform law on the ball
  Yu <- rriemann_laplace(S2, 1500, eta, sigma = 1e6, center = m, radius = 0.6)
  expect_gt(ks_report("exact Laplace on S^2, sigma = 1e6: uniform on the ball",
                      ks_p(mfd_dist(S2, m, Yu), function(q) (1 - cos(pmin(q, 0.6))) / (1 - cos(0.6)))), ks_threshold)
})

test_that("Metropolis-Hastings in many dimensions leaves the mode: S^40 against the exact sampler", {
  # A Laplace-type law in d = 40 has a cusp at its mode and its mass on a
  # shell; a chain started at the mode with a step sized for the shell never
  # moved (distances all 0). The public start and the ball's step cap fix it.
  set.seed(318)
  S <- sphere(40)
  m <- c(rep(0, 40), 1)
  for (sg in c(0.01, 0.004)) {   # the ball binds / the shell lies inside it
    Ym <- rriemann_laplace(S, 400, m, sigma = sg, center = m, radius = 0.3,
                           mcmc = mcmc_control(burnin = 3000, thin = 100), method = "mcmc")
    Ye <- rriemann_laplace(S, 400, m, sigma = sg, center = m, radius = 0.3)
    expect_gt(ks_report(sprintf("MCMC vs exact Laplace on S^40, sigma = %g, radius", sg),
                        ks_p(mfd_dist(S, m, Ym), mfd_dist(S, m, Ye))), ks_threshold)
  }
})

test_that("the Metropolis-Hastings chain is not tuned on the data and returns nothing about its path", {
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  s <- dpm$mcmc_settings(mcmc_control(burnin = 100, steps = 100), 1L)
  res <- dpm$cpp_rlaplace_mcmc(S2, north, 0.1, north, 0.5, s)
  expect_setequal(names(res), c("draws", "method", "burnin", "steps"))
  X <- clip_to_ball(S2, rbind(north, c(0.1, 0, 1) / sqrt(1.01)), north, 0.5)
  res <- dpm$cpp_rkng_mcmc(S2, t(X), 0.1, north, 0.5, s)
  expect_setequal(names(res), c("draws", "method", "burnin", "steps"))
  # the step is the one given, not a tuned one: on a flat target (sigma huge)
  # far from the boundary, the lengths of the moves over the step are
  # chi(2)-distributed (Rayleigh); a 20% different step is rejected
  set.seed(317)
  s <- dpm$mcmc_settings(mcmc_control(burnin = 0, steps = 4000, step = 0.01, keep_chain = TRUE), 1L)
  res <- dpm$cpp_rlaplace_mcmc(S2, north, 1e6, north, 1, s)
  ch <- res$chain
  len <- mfd_dist(S2, t(ch[, -1]), t(ch[, -ncol(ch)]))
  len <- len[len > 0] / 0.01
  prayleigh <- function(q, s = 1) 1 - exp(-q^2 / (2 * s^2))
  expect_gt(ks_report("MCMC move lengths / step vs chi(2)", ks_p(len, prayleigh)), ks_threshold)
  expect_lt(ks_p(len, prayleigh, s = 1.2), ks_threshold)
  # mcmc_control has no data-facing tuning target any more, and validates
  expect_false("target_acceptance" %in% names(mcmc_control()))
  expect_error(mcmc_control(step = -1), class = "dpmanifold_error")
  expect_error(mcmc_control(keep_chain = NA), class = "dpmanifold_error")
  expect_error(mcmc_control(burnin = 1.5), class = "dpmanifold_error")
})

# 001 B.4.1-like data on S^2, shifted so that the KNG law is not symmetric
# about the centre, and a geodesic polar grid around the centre.
kng_s2_case <- function(n = 20) {
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  r <- pi / 8
  th <- runif(n, 0, 0.2); ph <- runif(n, 0, 2 * pi)
  X0 <- cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
  X <- mfd_exp(S2, X0, mfd_transport(S2, north, X0, c(0.15, 0, 0)))
  X <- clip_to_ball(S2, X, north, r)
  nr <- 300; nphi <- 240
  rho <- (seq_len(nr) - 0.5) * r / nr
  phi <- (seq_len(nphi) - 0.5) * 2 * pi / nphi
  G <- expand.grid(rho = rho, phi = phi)
  Yg <- cbind(sin(G$rho) * cos(G$phi), sin(G$rho) * sin(G$phi), cos(G$rho))
  list(S2 = S2, north = north, r = r, X = X, Yg = Yg, vol = sin(G$rho))
}
# CDF of a statistic under the grid law (weights w at the grid values):
# cells with equal values pooled, each cell's mass centred on its value, and
# linear interpolation (a step function would be off by half a cell's mass,
# which KS detects at a few thousand draws)
grid_law_cdf <- function(w, vals) {
  a <- tapply(w, vals, sum)
  v <- as.numeric(names(a)); a <- as.numeric(a) / sum(w)
  o <- order(v); v <- v[o]; a <- a[o]
  cw <- cumsum(a) - a / 2
  function(q) stats::approx(v, cw, q, rule = 2)$y
}

test_that("exact KNG on S^2 matches a polar-grid quadrature of its density and a long MCMC chain", {
  set.seed(304)
  cs <- kng_s2_case()
  S2 <- cs$S2
  sigma <- 0.08
  w <- exp(dkng(S2, cs$Yg, cs$X, sigma)) * cs$vol
  Y <- rkng(S2, 2000, cs$X, sigma, cs$north, cs$r)
  expect_identical(attr(Y, "sampler"), "exact")
  expect_lte(max(mfd_dist(S2, cs$north, Y)), cs$r + 1e-12)
  stats <- list(list("geodesic radius", function(Y) acos(pmin(1, Y[, 3]))),
                list("x coordinate", function(Y) Y[, 1]),
                list("y coordinate", function(Y) Y[, 2]))
  for (s in stats) {
    p <- ks_report(sprintf("exact KNG on S^2 vs grid, %s", s[[1]]), ks_p(s[[2]](Y), grid_law_cdf(w, s[[2]](cs$Yg))))
    expect_gt(p, ks_threshold)
  }
  # power: the grid law of a data set moved by 0.05 is rejected
  Xs <- mfd_exp(S2, cs$X, mfd_transport(S2, cs$north, cs$X, c(0.05, 0, 0)))
  ws <- exp(dkng(S2, cs$Yg, Xs, sigma)) * cs$vol
  expect_lt(ks_p(Y[, 1], grid_law_cdf(ws, cs$Yg[, 1])), ks_threshold)
  # and the Laplace envelope itself (around the mean, scale sigma / c) is rejected
  xbar <- frechet_mean(S2, cs$X)$mean
  c0 <- 2 * cs$r / tan(2 * cs$r)
  wl <- exp(-mfd_dist(S2, xbar, cs$Yg) * c0 / sigma) * cs$vol
  expect_lt(ks_p(acos(pmin(1, Y[, 3])), grid_law_cdf(wl, acos(pmin(1, cs$Yg[, 3])))), ks_threshold)
  # a long Metropolis-Hastings chain gives the same law
  Ym <- rkng(S2, 1500, cs$X, sigma, cs$north, cs$r, mcmc = mcmc_control(burnin = 2000, thin = 100), method = "mcmc")
  expect_identical(attr(Ym, "sampler"), "mcmc")
  for (s in stats) {
    p <- ks_report(sprintf("MCMC KNG on S^2 vs grid, %s", s[[1]]), ks_p(s[[2]](Ym), grid_law_cdf(w, s[[2]](cs$Yg))))
    expect_gt(p, ks_threshold)
    p <- ks_report(sprintf("exact vs MCMC KNG on S^2, %s", s[[1]]), ks_p(s[[2]](Y), s[[2]](Ym)))
    expect_gt(p, ks_threshold)
  }
})

test_that("exact KNG on Kendall(4) and SPD(2) agrees with long MCMC chains", {
  set.seed(314)
  # thinning 500: with 100 the chain's draws stay correlated enough to push
  # KS p-values (which assume independence) down to ~0.01; with 1000 and 4000
  # draws each, p = 0.24-0.45 on SPD(2)
  ctrl <- mcmc_control(burnin = 2000, thin = 500)
  K <- kendall_shape(4)
  z0 <- mfd_random_point(K)
  X <- clip_to_ball(K, mfd_exp(K, z0, 0.12 * mfd_random_tangent(K, z0, 15)), z0, 0.3)
  Ye <- rkng(K, 1000, X, 0.05, z0, 0.3)
  Ym <- rkng(K, 1000, X, 0.05, z0, 0.3, mcmc = ctrl, method = "mcmc")
  xbar <- frechet_mean(K, X)$mean
  for (st in list(list("dist to centre", function(Y) mfd_dist(K, z0, Y)),
                  list("dist to mean", function(Y) mfd_dist(K, xbar, Y)))) {
    p <- ks_report(sprintf("exact vs MCMC KNG on Kendall(4), %s", st[[1]]), ks_p(st[[2]](Ye), st[[2]](Ym)))
    expect_gt(p, ks_threshold)
  }
  P <- spd(2)
  I2 <- diag(2)
  X <- clip_to_ball(P, mfd_exp(P, I2, 0.4 * mfd_random_tangent(P, I2, 15)), I2, 1)
  Ye <- rkng(P, 1000, X, 0.15, I2, 1)
  Ym <- rkng(P, 1000, X, 0.15, I2, 1, mcmc = ctrl, method = "mcmc")
  xbar <- frechet_mean(P, X)$mean
  for (st in list(list("dist to centre", function(Y) mfd_dist(P, I2, Y)),
                  list("dist to mean", function(Y) mfd_dist(P, xbar, Y)),
                  list("y[1,2]", function(Y) Y[1, 2, ]))) {
    p <- ks_report(sprintf("exact vs MCMC KNG on SPD(2), %s", st[[1]]), ks_p(st[[2]](Ye), st[[2]](Ym)))
    expect_gt(p, ks_threshold)
  }
})

test_that("KNG on flat manifolds: the exact sampler equals the MCMC law (Laplace around the mean)", {
  set.seed(305)
  E <- euclidean(2)
  X <- matrix(runif(30, -1, 1), 15)
  Ye <- rkng(E, 1500, X, sigma = 0.3, center = c(0, 0), radius = 1.5)
  Ym <- rkng(E, 1500, X, sigma = 0.3, center = c(0, 0), radius = 1.5,
             mcmc = mcmc_control(burnin = 2000, thin = 100), method = "mcmc")
  expect_identical(attr(Ye, "sampler"), "exact")
  xbar <- colMeans(X)
  t_e <- mfd_dist(E, xbar, Ye)
  for (j in 1:2) expect_gt(ks_report(sprintf("KNG R^2 exact vs MCMC, coordinate %d", j), ks_p(Ye[, j], Ym[, j])), ks_threshold)
  # the exact draws are the Laplace law around the mean restricted to the ball
  Yl <- rriemann_laplace(E, 1500, xbar, sigma = 0.3, center = c(0, 0), radius = 1.5)
  expect_gt(ks_report("KNG R^2 exact vs Laplace around the mean", ks_p(t_e, mfd_dist(E, xbar, Yl))), ks_threshold)
})

test_that("the volume density J of the exact samplers matches finite differences of exp in normal coordinates", {
  set.seed(315)
  # J(v) = sqrt(det g(z)) for the pulled-back metric g of z -> exp_p(sum z_i b_i)
  numeric_logJ <- function(M, p, z, h = 1e-5) {
    B <- mfd_tangent_basis(M, p)
    d <- M$dim
    tang <- function(z) Reduce(`+`, lapply(seq_len(d), function(i) z[i] * slice_point(M, B, i)))
    q <- mfd_exp(M, p, tang(z))
    D <- lapply(seq_len(d), function(i) {
      e <- numeric(d); e[i] <- h
      (mfd_log(M, q, mfd_exp(M, p, tang(z + e))) - mfd_log(M, q, mfd_exp(M, p, tang(z - e)))) / (2 * h)
    })
    G <- outer(seq_len(d), seq_len(d), Vectorize(function(i, j) mfd_inner(M, q, D[[i]], D[[j]])))
    list(logJ = 0.5 * log(det(G)), v = tang(z))
  }
  for (M in list(sphere(3), kendall_shape(4), kendall_shape(5), spd(2), spd(3), spd(3, "log_euclidean"))) {
    p <- mfd_random_point(M)
    for (len in c(0.3, 0.9)) {
      z <- rnorm(M$dim); z <- z * len / sqrt(sum(z^2))
      nj <- numeric_logJ(M, p, z)
      V <- dpm$to_ambient(M, nj$v, "v")
      expect_equal(dpm$cpp_log_volume_density(M, dpm$to_ambient(M, p, "p")[, 1], V),
                   nj$logJ, tolerance = 1e-6, label = sprintf("log J on %s(%d), |v| = %g", M$name, M$size, len))
    }
  }
  # the bounds log(sinh x / x) <= A x^2 + B x used by the SPD sampler
  tab <- dpm$cpp_sinhc_bound_table()
  x <- c(seq(1e-4, 60, length.out = 2e5), exp(seq(log(60), log(1e6), length.out = 2e4)))
  lsh <- ifelse(x < 20, log(sinh(x) / x), x - log(2 * x) + log1p(-exp(-2 * x)))
  viol <- apply(tab, 1, function(ab) max(lsh - ab[1] * x^2 - ab[2] * x))
  expect_true(all(viol <= 1e-12))
})

test_that("rejection samplers fail with a classed, data-independent error", {
  # mean outside the ball and sigma tiny: refused at once, naming `mean` and `sigma`
  err <- expect_error(rriemann_laplace(sphere(1), 1, c(1, 0), 1e-3, center = c(-1, 0), radius = 0.1),
                      class = "dpmanifold_sampler_error")
  expect_s3_class(err, "dpmanifold_error")
  expect_match(conditionMessage(err), "`mean`")
  expect_match(conditionMessage(err), "`sigma`")
  # untruncated law on affine-invariant SPD beyond its threshold
  err <- expect_error(rriemann_laplace(spd(3), 1, diag(3), 0.8, truncated = FALSE), class = "dpmanifold_sampler_error")
  expect_match(conditionMessage(err), "max_untruncated_sigma")
  expect_error(dpm$release_laplace(spd(3), as.vector(diag(3)), 0.8, as.vector(diag(3)), 1, truncated = FALSE),
               class = "dpmanifold_sampler_error")
  expect_equal(max_untruncated_sigma(spd(3)), 2 / sqrt(8))
  expect_equal(max_untruncated_sigma(spd(10)), 2 / sqrt(330))
  expect_identical(max_untruncated_sigma(sphere(2)), Inf)
  expect_identical(max_untruncated_sigma(kendall_shape(5)), Inf)
  expect_identical(max_untruncated_sigma(spd(3, "log_euclidean")), Inf)
  expect_identical(max_untruncated_sigma(euclidean(2)), Inf)
  # a release-path refusal (public bound beyond the cap) names public quantities only
  P <- spd(10)
  err <- expect_error(dpm$release_laplace(P, as.vector(diag(10)), 0.03, as.vector(diag(10)), 0.5),
                      class = "dpmanifold_sampler_error")
  expect_false(grepl("`mean`", conditionMessage(err)))
  expect_false(dpm$exact_sampler_available(P, 0.03, as.vector(diag(10)), 0.5, "laplace"))
  expect_true(dpm$exact_sampler_available(P, 0.03, as.vector(diag(10)), 0.5, "laplace", truncated = FALSE))
  expect_false(dpm$exact_sampler_available(P, 0.2, as.vector(diag(10)), 0.5, "laplace", truncated = FALSE))
  expect_true(dpm$exact_sampler_available(sphere(2), 0.01, c(0, 0, 1), pi / 8, "kng"))
  # KNG where its noise fills the ball in dimension 36: refused before the data are read
  K <- kendall_shape(20)
  z <- dpm$to_ambient(K, mfd_random_point(K), "z")[, 1]
  expect_false(dpm$exact_sampler_available(K, 0.0184, z, 0.3, "kng"))
  expect_error(dpm$release_kng(K, matrix(z, ncol = 5, nrow = length(z)), 0.0184, z, 0.3),
               class = "dpmanifold_sampler_error")
  # once a sampler runs it never fails: a public bound certified for
  # p_fail ~ 1 (a tiny cap) still gives every draw, in the ball (a cap would
  # fail with a data-dependent probability: inst/proofs/exact-samplers.md)
  set.seed(316)
  S2 <- sphere(2)
  y <- dpm$laplace_exact_draws(S2, c(0, 0, 1), 0.3, c(0, 0, 1), 0.2, 200L, TRUE, p_fail = 1 - 1e-12)
  expect_equal(ncol(y), 200L)
  expect_lte(max(mfd_dist(S2, c(0, 0, 1), t(y))), 0.2 + 1e-12)
  # KNG data outside the ball: an argument error
  expect_error(rkng(S2, 1, rbind(c(0, 0, 1), c(1, 0, 0)), 0.1, c(0, 0, 1), 0.3), class = "dpmanifold_error")
})

test_that("release_laplace() and release_kng() return one plain ambient vector, reproducibly", {
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  X <- t(clip_to_ball(S2, mfd_exp(S2, north, 0.1 * mfd_random_tangent(S2, north, 30)), north, pi / 8))
  xbar <- frechet_mean(S2, t(X))$mean
  for (tr in c(TRUE, FALSE)) for (smp in c("exact", "mcmc")) {
    set.seed(9); y1 <- dpm$release_laplace(S2, xbar, 0.3, north, pi / 8, truncated = tr, sampler = smp,
                                                   mcmc = mcmc_control(burnin = 200, steps = 200))
    set.seed(9); y2 <- dpm$release_laplace(S2, xbar, 0.3, north, pi / 8, truncated = tr, sampler = smp,
                                                   mcmc = mcmc_control(burnin = 200, steps = 200))
    expect_identical(y1, y2)
    expect_true(is.numeric(y1) && is.null(attributes(y1)) && length(y1) == 3)
    expect_lte(mfd_dist(S2, north, y1), pi / 8 + 1e-12)   # untruncated draws are clipped onto the ball
  }
  for (smp in c("exact", "mcmc")) {
    y <- dpm$release_kng(S2, X, 0.05, north, pi / 8, sampler = smp, mcmc = mcmc_control(burnin = 200, steps = 200))
    expect_true(is.numeric(y) && is.null(attributes(y)) && length(y) == 3)
    expect_lte(mfd_dist(S2, north, y), pi / 8 + 1e-12)
  }
  # a large untruncated sigma: most draws are outside the ball and land on its boundary
  set.seed(10)
  d <- replicate(200, mfd_dist(S2, north, dpm$release_laplace(S2, xbar, 2, north, pi / 8, truncated = FALSE)))
  expect_gt(mean(abs(d - pi / 8) < 1e-9), 0.5)
  expect_lte(max(d), pi / 8 + 1e-9)
  # the sampler a release reports: its kind and public settings only
  me <- frechet_mechanism(S2, 10, 1, "kng", center = north, radius = pi / 8)
  expect_identical(me$stages$mean$sampler, list(kind = "exact"))
  mm <- frechet_mechanism(S2, 10, 1, "kng", center = north, radius = pi / 8, sampler = "mcmc",
                          mcmc = mcmc_control(burnin = 10, steps = 20))
  expect_identical(mm$stages$mean$sampler$settings$steps, 20L)
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

test_that("a KNG scale below double precision's resolution is refused at once, not a loop that never ends", {
  # Below about 1e-16 times the radius the data's mean cannot be found to
  # the sampler's tolerance and the rejection loop ran forever (rkng with
  # sigma 1e-20; dp_frechet_mean(mechanism = "kng") at epsilon 1e15).
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  set.seed(31)
  X <- mfd_exp(S2, north, 0.1 * mfd_random_tangent(S2, north, 20))
  setTimeLimit(elapsed = 20, transient = TRUE)
  on.exit(setTimeLimit())
  expect_error(rkng(S2, 1, X, sigma = 1e-20, center = north, radius = 0.5), "resolves",
               class = "dpmanifold_sampler_error")
  expect_error(dp_frechet_mean(S2, X, 1e15, "kng", center = north, radius = 0.5), "resolves",
               class = "dpmanifold_sampler_error")
  H <- hyperbolic(2)
  o <- c(1, 0, 0)
  Y <- mfd_exp(H, o, 0.1 * mfd_random_tangent(H, o, 20))
  expect_error(dp_frechet_mean(H, Y, 1e300, "kng", center = o, radius = 0.5), "resolves",
               class = "dpmanifold_sampler_error")
  # a public refusal: the default mechanism passes over KNG there
  K <- kendall_shape(4)
  zk <- as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  expect_identical(default_mechanism(K, 20, 1e20, zk, 0.35), "laplace")
  expect_identical(default_mechanism(K, 20, 1, zk, 0.35), "kng")
  # ordinary small scales still draw
  expect_true(all(is.finite(rkng(S2, 1, X, sigma = 1e-10, center = north, radius = 0.5))))
})
