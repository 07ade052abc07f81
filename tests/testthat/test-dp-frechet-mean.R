# dp_frechet_mean(): utility ordering on the sphere (001 Fig. 1),
# reproducibility under set.seed(), input validation, public bounds and
# clipping, privacy accounting of the release.

S2 <- sphere(2)
north <- c(0, 0, 1)

# 001 B.4.1: theta ~ U[0, r], phi ~ U[0, 2 pi) around the north pole
b41_data <- function(n, r) {
  th <- runif(n, 0, r); ph <- runif(n, 0, 2 * pi)
  cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
}

utility_study <- function(R, n, r, eps, mechanisms = c("kng", "laplace", "euclidean_laplace")) {
  d <- matrix(NA_real_, R, length(mechanisms), dimnames = list(NULL, mechanisms))
  for (i in seq_len(R)) {
    X <- b41_data(n, r)
    xbar <- frechet_mean(S2, X)$mean
    for (m in colnames(d)) {
      rel <- dp_frechet_mean(S2, X, eps, m, center = north, radius = r)
      d[i, m] <- mfd_dist(S2, xbar, rel$estimate)
    }
  }
  d
}

test_that("the default release beats the projected ambient baseline on S^2 (r = pi/8, epsilon = 1, n = 20 and 100)", {
  set.seed(501)
  R <- 300
  for (n in c(20, 100)) {
    d <- utility_study(R, n = n, r = pi / 8, eps = 1, mechanisms = c(default_mechanism(S2), "euclidean_laplace"))
    m <- colMeans(d)
    se <- apply(d, 2, sd) / sqrt(R)
    message(sprintf("S^2, r = pi/8, n = %d, eps = 1, %d data sets: mean distance to the Frechet mean: default (%s) %.4f (se %.4f), projected ambient Laplace %.4f (se %.4f)",
                    n, R, default_mechanism(S2), m[1], se[1], m[2], se[2]))
    expect_lt(m[[1]], m[["euclidean_laplace"]])
    # errors are of the order of sigma = Delta / epsilon
    sig <- frechet_sensitivity(S2, pi / 8, n, "laplace")
    expect_gt(m[[1]], 0.5 * sig)
    expect_lt(m[[1]], 4 * sig)
  }
})

test_that("set.seed() reproduces every mechanism's release", {
  X_s2 <- b41_data(20, pi / 8)
  P <- spd(2)
  set.seed(1)
  X_spd <- mfd_exp(P, diag(2), 0.3 * mfd_random_tangent(P, diag(2), 15))
  K <- kendall_shape(4)
  X_k <- mfd_exp(K, as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4)),
                 0.1 * mfd_random_tangent(K, as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4)), 15))
  E <- euclidean(2)
  X_e <- matrix(runif(30, -1, 1), 15)
  ctrl <- mcmc_control(burnin = 500, steps = 500)
  cases <- list(
    list(M = S2, X = X_s2, center = north, radius = pi / 8, mech = c("kng", "laplace", "euclidean_laplace")),
    list(M = P, X = X_spd, center = diag(2), radius = 1.5,
         mech = c("kng", "laplace", "wrapped_laplace", "wrapped_gaussian", "euclidean_laplace")),
    list(M = spd(2, "log_euclidean"), X = X_spd, center = diag(2), radius = 1.5,
         mech = c("kng", "laplace", "wrapped_laplace", "wrapped_gaussian")),
    list(M = K, X = X_k, center = as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4)), radius = 0.35,
         mech = c("kng", "laplace", "euclidean_laplace")),
    list(M = E, X = X_e, center = c(0, 0), radius = 2,
         mech = c("kng", "laplace", "wrapped_laplace", "wrapped_gaussian", "euclidean_laplace"))
  )
  for (cs in cases) for (mech in cs$mech) {
    for (smp in if (mech %in% c("kng", "laplace")) c("exact", "mcmc") else "exact") {
    rel <- function(seed) {
      set.seed(seed)
      suppressWarnings(
        dp_frechet_mean(cs$M, cs$X, epsilon = 1, mechanism = mech, center = cs$center, radius = cs$radius,
                        delta = if (mech == "wrapped_gaussian") 1e-5, sampler = smp, mcmc = if (smp == "mcmc") ctrl),
        classes = "dpmanifold_low_utility")
    }
    a <- rel(42); b <- rel(42); c2 <- rel(43)
    lab <- paste(cs$M$name, mech, smp)
    expect_identical(a$estimate, b$estimate, label = lab)
    expect_identical(a$sampler$kind, smp, label = lab)
    expect_false(identical(a$estimate, c2$estimate), label = lab)
    expect_true(mech == "euclidean_laplace" || all(mfd_belongs(cs$M, a$estimate)), label = lab)
    }
  }
})

test_that("the release records mechanism, budget, sensitivity, scale and exactly what holds", {
  set.seed(503)
  X <- b41_data(40, pi / 8)
  ctrl <- mcmc_control(burnin = 500, steps = 500)
  rk <- dp_frechet_mean(S2, X, 0.5, "kng", center = north, radius = pi / 8)
  expect_s3_class(rk, "dp_release")
  expect_equal(rk$epsilon, 0.5)
  expect_equal(rk$delta, 0)
  expect_equal(rk$sensitivity, frechet_sensitivity(S2, pi / 8, 40, "kng"))
  expect_equal(rk$sigma, 2 * rk$sensitivity / 0.5)
  expect_identical(rk$sampler, list(kind = "exact"))
  expect_true(rk$privacy$private)
  expect_match(rk$privacy$guarantee, "^epsilon-DP \\(exact sampler\\)")
  expect_lte(mfd_dist(S2, north, rk$estimate), pi / 8 + 1e-12)
  expect_null(rk$nonprivate)
  # nothing computed from the data without noise is stored
  expect_null(rk$clipped)
  expect_null(rk$diagnostics)
  expect_false(any(grepl("clipped|proposal|acceptance", capture.output(print(rk), print(summary(rk))))))
  # MCMC on request: (epsilon, delta)-DP with an unknown delta, public settings only
  rm <- dp_frechet_mean(S2, X, 0.5, "kng", center = north, radius = pi / 8, sampler = "mcmc", mcmc = ctrl)
  expect_identical(rm$sampler, list(kind = "mcmc", settings = list(burnin = 500L, steps = 500L)))
  expect_true(rm$privacy$delta_unknown)
  expect_match(rm$privacy$guarantee, "delta unknown")
  expect_true(any(grepl("delta unknown \\(finite MCMC chain\\)", capture.output(print(rm)))))
  # the untruncated Laplace law: sigma = Delta / epsilon, draw moved onto the ball
  rl <- dp_frechet_mean(S2, X, 0.5, "laplace", center = north, radius = pi / 8)
  expect_equal(rl$sigma, frechet_sensitivity(S2, pi / 8, 40, "laplace") / 0.5)
  expect_false(rl$bounds$truncated)
  expect_lte(mfd_dist(S2, north, rl$estimate), pi / 8 + 1e-12)
  rt <- dp_frechet_mean(S2, X, 0.5, "laplace", center = north, radius = pi / 8, truncated = TRUE)
  expect_equal(rt$sigma, 2 * frechet_sensitivity(S2, pi / 8, 40, "laplace") / 0.5)
  expect_true(rt$bounds$truncated)
  # non-private values only on request, and then the release is not private
  expect_warning(rn <- dp_frechet_mean(S2, X, 0.5, "laplace", center = north, radius = pi / 8,
                                       return_nonprivate = TRUE), class = "dpmanifold_privacy_leak")
  expect_lt(mfd_dist(S2, rn$nonprivate$frechet_mean, frechet_mean(S2, X)$mean), 1e-9)
  expect_false(rn$privacy$private)
  expect_match(rn$privacy$guarantee, "^NOT private")
  expect_true(any(grepl("NOT private", capture.output(print(rn)))))
  expect_warning(rs <- dp_frechet_mean(S2, X, 0.5, "kng", center = north, radius = pi / 8, seed_scale = TRUE),
                 class = "dpmanifold_privacy_leak")
  expect_equal(rs$sigma, rs$sensitivity / 0.5)
  expect_match(rs$privacy$guarantee, "^NOT private")
  P <- spd(2)
  Xp <- mfd_exp(P, diag(2), 0.3 * mfd_random_tangent(P, diag(2), 20))
  rg <- dp_frechet_mean(P, Xp, 1, "wrapped_gaussian", center = diag(2), radius = 1, delta = 1e-5)
  expect_equal(rg$sensitivity, 2 * 1 / 20)
  expect_equal(rg$sigma, calibrate_analytic_gaussian(1, 1e-5, 0.1))
  expect_equal(rg$delta, 1e-5)
  expect_match(rg$privacy$guarantee, "^\\(epsilon, delta\\)-DP \\(exact sampler\\)")
  rmu <- dp_frechet_mean(P, Xp, mechanism = "wrapped_gaussian", center = diag(2), radius = 1, mu = 0.5)
  expect_equal(rmu$sigma, 0.1 / 0.5)
  expect_match(rmu$privacy$guarantee, "^mu-GDP")
  rw <- dp_frechet_mean(P, Xp, 2, "wrapped_laplace", center = diag(2), radius = 1)
  expect_equal(rw$sigma, 0.1 / 2)
  # log-Euclidean ambient baseline: noise on vech(Log X) with Delta = 2r/n
  re <- dp_frechet_mean(spd(2, "log_euclidean"), Xp, 1, "euclidean_laplace", center = diag(2), radius = 1)
  expect_equal(re$sensitivity, 2 / 20)
  expect_true(mfd_belongs(spd(2, "log_euclidean"), re$estimate))
})

test_that("the log-Euclidean ambient baseline's sensitivity holds for badly conditioned centres", {
  # issue 9: with centre diag(e^3, e^-3), r = 0.5, n = 10 the old baseline's
  # whitened mean moved by 0.339 against Delta = 0.130
  L <- spd(2, "log_euclidean")
  C <- diag(exp(c(3, -3)))
  set.seed(507)
  worst <- 0
  for (i in 1:200) {
    V <- mfd_random_tangent(L, C, 10)
    X <- mfd_exp(L, C, sweep(V, 3, 0.5 / mfd_norm(L, C, V), `*`))
    X2 <- X
    X2[, , 1] <- mfd_exp(L, C, -0.5 * V[, , 1] / mfd_norm(L, C, V[, , 1]))
    logmean <- function(X) apply(X, 3, function(x) { e <- eigen(x, symmetric = TRUE); e$vectors %*% diag(log(e$values)) %*% t(e$vectors) })
    worst <- max(worst, sqrt(sum((rowMeans(logmean(X)) - rowMeans(logmean(X2)))^2)))
  }
  expect_lte(worst, 2 * 0.5 / 10 + 1e-12)
  rel <- dp_frechet_mean(L, X, 1, "euclidean_laplace", center = C, radius = 0.5)
  expect_equal(rel$sensitivity, 2 * 0.5 / 10)
})

test_that("neighbouring data sets give releases that differ only in the estimate (every mechanism, every manifold)", {
  set.seed(508)
  K <- kendall_shape(4)
  zk <- as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  P <- spd(2)
  cases <- list(
    list(M = S2, center = north, radius = pi / 8, far = c(0, 0, -1),
         mech = c("laplace", "kng", "euclidean_laplace")),
    list(M = P, center = diag(2), radius = 1, far = diag(c(50, 0.01)),
         mech = c("laplace", "kng", "wrapped_laplace", "wrapped_gaussian", "euclidean_laplace")),
    list(M = spd(2, "log_euclidean"), center = diag(2), radius = 1, far = diag(c(50, 0.01)),
         mech = c("laplace", "kng", "wrapped_laplace", "wrapped_gaussian", "euclidean_laplace")),
    list(M = K, center = zk, radius = 0.3, far = as_preshape(matrix(c(0, 1, 0.5, 3, 0, 0, 2, -1), 4)),
         mech = c("laplace", "kng", "euclidean_laplace")),
    list(M = euclidean(2), center = c(0, 0), radius = 1, far = c(100, -100),
         mech = c("laplace", "kng", "wrapped_laplace", "wrapped_gaussian", "euclidean_laplace"))
  )
  ctrl <- mcmc_control(burnin = 200, steps = 200)
  for (cs in cases) {
    X <- mfd_exp(cs$M, cs$center, 0.5 * cs$radius * mfd_random_tangent(cs$M, cs$center, 12) /
                   sqrt(cs$M$dim))
    X <- clip_to_ball(cs$M, X, cs$center, cs$radius)
    attr(X, "clipped") <- NULL
    Xn <- replace_record(cs$M, X, 3, cs$far)
    for (mech in cs$mech) for (smp in if (mech %in% c("kng", "laplace")) c("exact", "mcmc") else "exact") {
      f <- function(D) dp_frechet_mean(cs$M, D, 1, mech, center = cs$center, radius = cs$radius,
                                      delta = if (mech == "wrapped_gaussian") 1e-5, sampler = smp, mcmc = if (smp == "mcmc") ctrl)
      expect_neighbours_agree(f, X, Xn, label = paste(manifold_label(cs$M), mech, smp))
    }
    # other notions and options
    if (cs$M$hadamard) {
      for (args in list(list(mu = 0.7), list(alpha = 3, epsilon = 0.5))) {
        f <- function(D) do.call(dp_frechet_mean, c(list(cs$M, D, mechanism = "wrapped_gaussian",
                                                       center = cs$center, radius = cs$radius), args))
        expect_neighbours_agree(f, X, Xn, label = paste(manifold_label(cs$M), names(args)[1]))
      }
    }
    f <- function(D) dp_frechet_mean(cs$M, D, 1, "laplace", center = cs$center, radius = cs$radius, truncated = TRUE)
    expect_neighbours_agree(f, X, Xn, label = paste(manifold_label(cs$M), "truncated laplace"))
  }
})

test_that("ambient baselines: the sensitivity bounds the move of the ambient mean (Kendall, hyperbolic)", {
  set.seed(512)
  # Kendall: one preshape replaced moves each real coordinate of the mean by
  # at most its range / n: 4 sin(r/2) aligned to the centre, 2 unaligned
  K <- kendall_shape(5)
  zc <- mfd_random_point(K)
  r <- 0.3; n <- 10
  X <- clip_to_ball(K, mfd_exp(K, zc, r * mfd_random_tangent(K, zc, 200) / sqrt(K$dim)), zc, r)
  Z <- dpm$cpp_kendall_align(K, dpm$to_ambient(K, zc, "c")[, 1], dpm$to_ambient(K, X, "X"))
  spread_al <- max(apply(Z, 1, function(z) diff(range(z))))
  rel_al <- dp_frechet_mean(K, X, 1, "euclidean_laplace", center = zc, radius = r)
  rel_un <- suppressWarnings(dp_frechet_mean(K, X[, , 1:n], 1, "euclidean_laplace", center = zc, radius = r,
                                                  align = FALSE), classes = "dpmanifold_low_utility")
  expect_equal(rel_un$sensitivity, 2 / n)          # was 4 / n: twice the bound
  expect_equal(rel_al$sensitivity * 200, 4 * sin(r / 2))
  expect_lte(spread_al, rel_al$sensitivity * 200)
  expect_gt(spread_al, 0.5 * rel_al$sensitivity * 200)
  # unit vectors: a real coordinate ranges over at most 2, attained by z, -z
  Zr <- dpm$to_ambient(K, mfd_random_point(K, 500), "Z")
  expect_lte(max(apply(cbind(Zr, -Zr), 1, function(z) diff(range(z)))), rel_un$sensitivity * n)
  expect_equal(rel_un$sigma, rel_un$sensitivity / (1 / (2 * 5)))
  # hyperbolic: in the centre's boosted frame the ball B_r lies in the
  # Euclidean ball of radius sqrt(2 cosh r (cosh r - 1)) around the origin
  # (ambient diameter at most twice that; exactly 2 sinh r, between
  # antipodal boundary points)
  H <- hyperbolic(3)
  o <- c(1, 0, 0, 0)
  for (r in c(0.2, 1, 3)) {
    U <- mfd_random_tangent(H, o, 400)
    U <- sweep(U, 1, sqrt(rowSums(U^2)), `/`)
    B <- rbind(mfd_exp(H, o, r * U), mfd_exp(H, o, -r * U), mfd_exp(H, o, r * runif(400) * U))
    diam <- max(dist(B))
    rel <- suppressWarnings(dp_frechet_mean(H, B[1:10, ], 1, "euclidean_laplace", center = o, radius = r),
                                 classes = "dpmanifold_low_utility")
    expect_equal(diam, 2 * sinh(r), tolerance = 1e-8)
    expect_lte(diam, rel$sensitivity * 10 * (1 + 1e-12))
  }
})

test_that("the default Laplace law avoids a truncated law whose exact sampler refuses", {
  # H^20, r = 1: Delta / epsilon at 0.86 of max_untruncated_sigma, above the
  # 0.8 share, but the truncated sampler at 2 Delta / epsilon refuses (its
  # noise fills the ball in dimension 20); the untruncated one runs
  H <- hyperbolic(20)
  o <- c(1, rep(0, 20))
  set.seed(513)
  X <- mfd_exp(H, o, 0.3 * mfd_random_tangent(H, o, 20) / sqrt(20))
  eps <- 2.2
  sm <- max_untruncated_sigma(H)
  expect_gt((2 / 20) / eps, 0.8 * sm)
  expect_false(dpm$exact_sampler_available(H, 2 * (2 / 20) / eps, o, 1, "laplace"))
  rel <- dp_frechet_mean(H, X, eps, "laplace", center = o, radius = 1)
  expect_false(rel$bounds$truncated)
  expect_equal(rel$sigma, (2 / 20) / eps)
  expect_error(suppressWarnings(dp_frechet_mean(H, X, eps, "laplace", center = o, radius = 1, truncated = TRUE),
                                     classes = "dpmanifold_low_utility"),
               class = "dpmanifold_sampler_error")
  # where both run, the 0.8 rule decides (the truncated law near the limit)
  P <- spd(2)
  Xp <- mfd_exp(P, diag(2), 0.2 * mfd_random_tangent(P, diag(2), 10))
  rp <- suppressWarnings(dp_frechet_mean(P, Xp, 0.15, "laplace", center = diag(2), radius = 1),
                              classes = "dpmanifold_low_utility")
  expect_gt(0.2 / 0.15, 0.8 * max_untruncated_sigma(P))
  expect_true(rp$bounds$truncated)
})

test_that("default_mechanism() takes KNG on Kendall's space only where its exact sampler runs, from public inputs", {
  K4 <- kendall_shape(4)
  z4 <- as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  expect_identical(default_mechanism(K4), "kng")
  expect_identical(default_mechanism(K4, n = 50, epsilon = 1, center = z4, radius = 0.3), "kng")
  # by expected error: at radius 0.1 the Laplace law's h(0.2, 4) = 0.95 > 1/2
  # (measured, 150 data sets: n 20: Laplace 0.044, KNG 0.061; n 100: 0.0091,
  # 0.0177), at 0.3 KNG's (h = 0.47; n 20: 0.264 against 0.208)
  expect_identical(default_mechanism(K4, n = 20, epsilon = 1, center = z4, radius = 0.1), "laplace")
  expect_identical(default_mechanism(K4, n = 100, epsilon = 1, center = z4, radius = 0.1), "laplace")
  # Kendall(20), n = 100: the KNG noise (sigma 0.018) fills the ball of
  # radius 0.3 in dimension 36
  K20 <- kendall_shape(20)
  z20 <- as_preshape(cbind(cos(2 * pi * (1:20) / 20), sin(2 * pi * (1:20) / 20)))
  sig <- 2 * frechet_sensitivity(K20, 0.3, 100, "kng") / 1
  expect_false(dpm$exact_sampler_available(K20, sig, as.vector(z20), 0.3, "kng"))
  expect_identical(default_mechanism(K20, n = 100, epsilon = 1, center = z20, radius = 0.3), "laplace")
  expect_identical(default_mechanism(K20, n = 5, epsilon = 1, center = z20, radius = 0.3), "kng")
  X <- array(z20, c(20, 2, 100))
  expect_identical(suppressWarnings(dp_frechet_mean(K20, X, 1, center = z20, radius = 0.3),
                                         classes = "dpmanifold_low_utility")$mechanism, "laplace")
  expect_identical(default_mechanism(sphere(2), n = 5, epsilon = 1, center = c(0, 0, 1), radius = 0.3), "laplace")
  # the public inputs are validated, named
  expect_error(default_mechanism(K4, n = 0, epsilon = 1, center = z4, radius = 0.3), "`n`", class = "dpmanifold_error")
  expect_error(default_mechanism(K4, n = 5, epsilon = -1, center = z4, radius = 0.3), "`epsilon`", class = "dpmanifold_error")
  expect_error(default_mechanism(K4, n = 5, epsilon = 1, center = c(1, 2), radius = 0.3), "`center`", class = "dpmanifold_error")
  expect_error(default_mechanism(K4, n = 5, epsilon = 1, center = z4, radius = 2), "`radius`", class = "dpmanifold_error")
})

test_that("the call stored in a release never holds the data", {
  E <- euclidean(2)
  X <- matrix(c(0.123456, -0.234567, 0.345678, 0.456789, -0.11, 0.22), 3)
  # do.call() embeds the values of its arguments in the call
  rel <- suppressWarnings(do.call(dp_frechet_mean, list(E, X, epsilon = 1, center = c(0, 0), radius = 1)),
                               classes = "dpmanifold_low_utility")
  expect_identical(rel$call$X, as.name("<data>"))
  expect_false(any(grepl("0.123456", deparse(rel$call), fixed = TRUE)))
  # an expression spelling out the data is dropped too; a name is kept
  rel2 <- suppressWarnings(dp_frechet_mean(E, rbind(c(0.123456, 0.456789), c(-0.234567, -0.11)), 1,
                                                center = c(0, 0), radius = 1), classes = "dpmanifold_low_utility")
  expect_identical(rel2$call$X, as.name("<data>"))
  rel3 <- suppressWarnings(dp_frechet_mean(E, X, 1, center = c(0, 0), radius = 1), classes = "dpmanifold_low_utility")
  expect_identical(rel3$call$X, quote(X))
  # an expression of names alone (a column, a transform) is kept
  dat <- list(X = X)
  rel4 <- suppressWarnings(dp_frechet_mean(E, dat$X, 1, center = c(0, 0), radius = 1), classes = "dpmanifold_low_utility")
  expect_identical(rel4$call$X, quote(dat$X))
  rel5 <- suppressWarnings(dp_frechet_mean(E, dat$X[, 2:1], 1, center = c(0, 0), radius = 1),
                                classes = "dpmanifold_low_utility")
  expect_identical(rel5$call$X, as.name("<data>"))
  expect_identical(rel3$call$epsilon, 1)
  # regression releases: covariates and responses alike
  x <- c(0.1, 0.5, 0.9)
  rg <- suppressWarnings(do.call(dp_geodesic_regression, list(E, x, X, epsilon = 1, tau = 1, center = c(0, 0),
                                                              radius = 1, x_range = c(0, 1))),
                         classes = "dpmanifold_low_utility")
  expect_identical(rg$call$x, as.name("<data>"))
  expect_identical(rg$call$y, as.name("<data>"))
  # release() of a mechanism: the data given by position (as do.call() and
  # most calls give them) are left out too; a name is kept
  m <- suppressWarnings(frechet_mechanism(E, 3, 1, center = c(0, 0), radius = 1), classes = "dpmanifold_low_utility")
  rm <- do.call(release, list(m, X))
  expect_identical(rm$call$X, as.name("<data>"))
  expect_false(any(grepl("0.123456", deparse(rm$call), fixed = TRUE)))
  expect_identical(release(m, X)$call$X, quote(X))
  expect_identical(release(m, X[3:1, ])$call$X, as.name("<data>"))
  mr <- suppressWarnings(regression_mechanism(E, 3, 1, tau = 1, center = c(0, 0), radius = 1, x_range = c(0, 1)),
                         classes = "dpmanifold_low_utility")
  rr <- do.call(release, list(mr, x, X))
  expect_identical(rr$call$x, as.name("<data>"))
  expect_identical(rr$call$y, as.name("<data>"))
  expect_false(any(grepl("0.123456", deparse(rr$call), fixed = TRUE)))
})

test_that("privacy_spent() composes every notion and says what holds", {
  set.seed(509)
  E <- euclidean(2)
  X <- matrix(runif(20, -0.5, 0.5), 10)
  pure <- function(e) dp_frechet_mean(E, X, e, "laplace", center = c(0, 0), radius = 1)
  appr <- function(e, d) suppressWarnings(dp_frechet_mean(E, X, e, "wrapped_gaussian", delta = d, center = c(0, 0),
                                                               radius = 1), classes = "dpmanifold_low_utility")
  gdp <- function(mu) dp_frechet_mean(E, X, mechanism = "wrapped_gaussian", mu = mu, center = c(0, 0), radius = 1)
  rdp <- function(a, e) dp_frechet_mean(E, X, e, "wrapped_gaussian", alpha = a, center = c(0, 0), radius = 1)
  # pure and approximate: sums
  s <- privacy_spent(pure(1), pure(0.5))
  expect_equal(c(s$epsilon, s$delta), c(1.5, 0)); expect_identical(s$type, "pure"); expect_true(s$private)
  expect_match(s$guarantee, "^epsilon-DP with epsilon = 1.5$")
  s <- privacy_spent(pure(1), appr(0.5, 1e-6), appr(0.25, 1e-7))
  expect_equal(c(s$epsilon, s$delta), c(1.75, 1.1e-6)); expect_identical(s$type, "approximate")
  # GDP: sqrt(sum mu^2), exact conversion
  s <- privacy_spent(gdp(0.3), gdp(0.4))
  expect_equal(s$mu, 0.5); expect_true(is.na(s$epsilon)); expect_identical(s$type, "gdp")
  s <- privacy_spent(gdp(0.3), gdp(0.4), delta = 1e-5)
  dfun <- function(e, mu) pnorm(-e / mu + mu / 2) - exp(e) * pnorm(-e / mu - mu / 2)
  expect_lte(dfun(s$epsilon, 0.5), 1e-5)
  expect_gt(dfun(s$epsilon - 1e-6, 0.5), 1e-5)
  expect_gt(s$epsilon, 0)
  # a GDP-only composition never reports epsilon = 0 without saying so
  expect_false(isTRUE(privacy_spent(gdp(1))$epsilon == 0))
  # RDP at equal orders: sum, then epsilon + log(1/delta)/(alpha - 1)
  s <- privacy_spent(rdp(2, 0.5))
  expect_equal(s$epsilon, 0.5); expect_identical(s$type, "rdp")
  s <- privacy_spent(rdp(2, 0.5), delta = 1e-6)
  expect_equal(s$epsilon, 0.5 + log(1e6), tolerance = 1e-12)   # about 14.3, as in issue 9
  s <- privacy_spent(rdp(2, 0.5), rdp(2, 0.25), delta = 1e-6)
  expect_equal(s$epsilon, 0.75 + log(1e6), tolerance = 1e-12)
  # mixtures need delta, then convert each group at an equal share of it
  expect_error(privacy_spent(pure(1), rdp(2, 0.5), rdp(2, 0.5)), "delta", class = "dpmanifold_error")
  expect_error(privacy_spent(pure(1), gdp(1)), "delta", class = "dpmanifold_error")
  expect_error(privacy_spent(rdp(2, 0.5), rdp(3, 0.5)), "delta", class = "dpmanifold_error")
  s <- privacy_spent(pure(1), rdp(2, 0.5), rdp(2, 0.5), delta = 1e-6)
  expect_equal(s$epsilon, 1 + 1 + log(1e6), tolerance = 1e-12)
  expect_equal(s$delta, 1e-6)
  s <- privacy_spent(pure(1), gdp(0.5), rdp(3, 0.2), delta = 2e-6)
  expect_equal(s$epsilon, 1 + dpm$gdp_epsilon(0.5, 1e-6) + 0.2 + log(1e6) / 2, tolerance = 1e-10)
  expect_equal(s$delta, 2e-6)
  # MCMC releases: delta unknown, carried into the total
  S2r <- dp_frechet_mean(S2, b41_data(10, 0.3), 1, "kng", center = north, radius = pi / 8, sampler = "mcmc",
                         mcmc = mcmc_control(burnin = 100, steps = 100))
  s <- privacy_spent(pure(1), S2r)
  expect_true(s$delta_unknown); expect_match(s$guarantee, "delta unknown")
  # a not-private release makes the total not private
  np <- suppressWarnings(dp_frechet_mean(E, X, 1, "laplace", center = c(0, 0)))
  s <- privacy_spent(pure(1), np)
  expect_false(s$private); expect_match(s$guarantee, "^NOT private")
  expect_output(print(s), "NOT private")
  # bad input
  expect_error(privacy_spent(), class = "dpmanifold_error")
  expect_error(privacy_spent(pure(1), list(a = 1)), class = "dpmanifold_error")
  expect_error(privacy_spent(pure(1), delta = 2), class = "dpmanifold_error")
})

test_that("dp_frechet_mean rejects bad privacy parameters", {
  X <- b41_data(10, pi / 8)
  call <- function(...) dp_frechet_mean(S2, X, center = north, radius = pi / 8, ...)
  for (eps in list(0, -1, Inf, NA_real_, NaN, c(1, 2), "1")) {
    expect_error(call(epsilon = eps), class = "dpmanifold_error", label = deparse(eps))
  }
  expect_error(dp_frechet_mean(S2, X, center = north, radius = pi / 8), class = "dpmanifold_error")   # epsilon missing
  P <- spd(2)
  Xp <- array(diag(2), c(2, 2, 5))
  for (dl in list(0, 1, -0.1, 1.5, NA_real_, c(0.1, 0.2))) {
    expect_error(dp_frechet_mean(P, Xp, 1, "wrapped_gaussian", center = diag(2), radius = 1, delta = dl),
                 class = "dpmanifold_error", label = deparse(dl))
  }
  expect_error(dp_frechet_mean(P, Xp, 1, "wrapped_gaussian", center = diag(2), radius = 1), "delta",
               class = "dpmanifold_error")
  expect_error(call(epsilon = 1, delta = 2), class = "dpmanifold_error")
  # delta is refused, not dropped, where the mechanism is epsilon-DP
  expect_error(call(epsilon = 1, delta = 1e-5), "`delta` only applies to mechanism = \"wrapped_gaussian\"",
               class = "dpmanifold_error")
  expect_error(call(epsilon = 1, mu = 1), class = "dpmanifold_error")
  # and so is a footpoint, where the mechanism draws none (it was ignored)
  set.seed(2)
  Xs <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 30))
  for (mech in list(NULL, "laplace", "kng")) {
    expect_error(dp_frechet_mean(S2, Xs, epsilon = 1, mechanism = mech, center = north, radius = 0.5,
                                 footpoint = c(1, 0, 0)),
                 "`footpoint` only applies to mechanisms \"wrapped_laplace\" and \"wrapped_gaussian\"",
                 class = "dpmanifold_error")
  }
  expect_error(frechet_mechanism(S2, 30, 1, center = north, radius = 0.5, footpoint = north),
               "`footpoint` only applies", class = "dpmanifold_error")
  expect_s3_class(suppressWarnings(dp_frechet_mean(P, Xp, 1, "wrapped_laplace", center = diag(2), radius = 1,
                                                   footpoint = diag(2)), classes = "dpmanifold_low_utility"),
                  "dp_release")
  expect_error(dp_frechet_mean(P, Xp, 1, "wrapped_gaussian", center = diag(2), radius = 1, alpha = 1),
               class = "dpmanifold_error")
  expect_error(call(epsilon = 1, mechanism = "gaussian"))
})

test_that("wrapped mechanisms are refused off Hadamard manifolds", {
  X <- b41_data(10, pi / 8)
  K <- kendall_shape(4)
  set.seed(504)
  z0 <- mfd_random_point(K)
  Xk <- mfd_exp(K, z0, 0.1 * mfd_random_tangent(K, z0, 10))
  for (mech in c("wrapped_laplace", "wrapped_gaussian")) {
    expect_error(dp_frechet_mean(S2, X, 1, mech, center = north, radius = pi / 8, delta = 1e-5),
                 "Hadamard", class = "dpmanifold_error")
    expect_error(dp_frechet_mean(K, Xk, 1, mech, center = z0, radius = 0.3, delta = 1e-5),
                 "Hadamard", class = "dpmanifold_error")
  }
  expect_error(rwrapped_laplace(S2, 1, north, 0.1), class = "dpmanifold_error")
})

test_that("radius must be below max_radius, and data and centre must be on the manifold", {
  X <- b41_data(10, pi / 8)
  for (r in list(pi / 4, 1, 0, -0.1, Inf, NA_real_)) {
    expect_error(dp_frechet_mean(S2, X, 1, center = north, radius = r), class = "dpmanifold_error", label = deparse(r))
  }
  K <- kendall_shape(4)
  z0 <- as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  expect_error(dp_frechet_mean(K, array(z0, c(4, 2, 3)), 1, center = z0, radius = pi / 8), "r\\*",
               class = "dpmanifold_error")
  # data off the manifold
  Xbad <- X; Xbad[2, ] <- 1.1 * Xbad[2, ]
  expect_error(dp_frechet_mean(S2, Xbad, 1, center = north, radius = pi / 8), "not on the manifold",
               class = "dpmanifold_error")
  Xna <- X; Xna[3, 1] <- NA
  expect_error(dp_frechet_mean(S2, Xna, 1, center = north, radius = pi / 8), class = "dpmanifold_error")
  expect_error(dp_frechet_mean(S2, X[, 1:2], 1, center = north, radius = pi / 8), class = "dpmanifold_error")
  expect_error(dp_frechet_mean(S2, X, 1, center = c(0, 0, 2), radius = pi / 8), class = "dpmanifold_error")
  expect_error(dp_frechet_mean(S2, X, 1, center = rbind(north, north), radius = pi / 8), class = "dpmanifold_error")
  P <- spd(2)
  Xp <- array(diag(2), c(2, 2, 4))
  # (n = 4 in a ball of radius 1: the release would fill the ball, and says
  # so before it looks at the data)
  wl <- function(Xp) suppressWarnings(dp_frechet_mean(P, Xp, 1, "wrapped_laplace", center = diag(2), radius = 1),
                                           classes = "dpmanifold_low_utility")
  Xp[, , 2] <- matrix(c(1, 2, 2, 1), 2)     # symmetric, not positive definite
  expect_error(wl(Xp), class = "dpmanifold_error")
  Xp[, , 2] <- matrix(c(1, 0.5, 0, 1), 2)   # not symmetric
  expect_error(wl(Xp), class = "dpmanifold_error")
  expect_error(dp_frechet_mean(list(), X, 1, center = north, radius = pi / 8), class = "dpmanifold_error")
})

test_that("bounds taken from the data raise the privacy-leak warning", {
  set.seed(505)
  X <- b41_data(20, pi / 8)
  expect_warning(r1 <- dp_frechet_mean(S2, X, 1, "laplace", radius = pi / 8), "center", class = "dpmanifold_privacy_leak")
  expect_identical(r1$bounds$inferred, "center")
  expect_warning(r2 <- dp_frechet_mean(S2, X, 1, "laplace", center = north), "radius", class = "dpmanifold_privacy_leak")
  expect_identical(r2$bounds$inferred, "radius")
  expect_equal(r2$bounds$radius, max(mfd_dist(S2, north, X)))
  expect_match(r2$privacy$guarantee, "^NOT private \\(radius taken from the data")
  # both missing: two classed warnings, for every mechanism
  P <- spd(2)
  Xp <- mfd_exp(P, diag(2), 0.3 * mfd_random_tangent(P, diag(2), 10))
  for (cs in list(list(M = S2, X = X, mech = "kng"), list(M = S2, X = X, mech = "euclidean_laplace"),
                  list(M = P, X = Xp, mech = "wrapped_gaussian"))) {
    n_leak <- 0
    rel <- withCallingHandlers(
      suppressWarnings(dp_frechet_mean(cs$M, cs$X, 1, cs$mech, delta = if (cs$mech == "wrapped_gaussian") 1e-5),
                            classes = "dpmanifold_low_utility"),
      dpmanifold_privacy_leak = function(w) { n_leak <<- n_leak + 1; invokeRestart("muffleWarning") })
    expect_equal(n_leak, 2, label = cs$mech)
    expect_setequal(rel$bounds$inferred, c("center", "radius"))
  }
  # public bounds: no warning at all
  expect_silent(dp_frechet_mean(S2, X, 1, "laplace", center = north, radius = pi / 8))
  # the inferred radius never reaches r*: data spread over more than r* are
  # clipped to a radius just below it
  Xwide <- b41_data(20, 1.2)
  expect_warning(expect_warning(suppressWarnings(r3 <- dp_frechet_mean(S2, Xwide, 1, "laplace"),
                                                     classes = "dpmanifold_low_utility"),
                               class = "dpmanifold_privacy_leak"),
                 class = "dpmanifold_privacy_leak")
  expect_lt(r3$bounds$radius, max_radius(S2))
})

test_that("clipping moves exactly the outside points onto the ball, along the geodesic from the centre", {
  set.seed(506)
  r <- 0.5
  Xin <- b41_data(15, 0.45)
  th <- c(0.6, 1, 2.5); ph <- c(0.3, 2, 4)
  Xout <- cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
  X <- rbind(Xin, Xout)
  C <- clip_to_ball(S2, X, north, r)
  expect_equal(attr(C, "clipped"), 3)
  expect_equal(unname(C[1:15, ]), unname(Xin))
  expect_equal(mfd_dist(S2, north, C[16:18, ]), rep(r, 3))
  # same direction from the centre
  expect_equal(atan2(C[16:18, 2], C[16:18, 1]), atan2(Xout[, 2], Xout[, 1]))
  rel <- suppressWarnings(dp_frechet_mean(S2, X, 1, "laplace", center = north, radius = r, return_nonprivate = TRUE))
  expect_equal(rel$nonprivate$clipped, 3)
  expect_lt(mfd_dist(S2, rel$nonprivate$frechet_mean, frechet_mean(S2, C)$mean), 1e-9)
  # SPD, affine-invariant: clipped points are at distance r from the centre
  P <- spd(3)
  c0 <- mfd_random_point(P)
  V <- mfd_random_tangent(P, c0, 12)
  len <- c(rep(0.5, 8), 2, 3, 4, 5)
  Xp <- mfd_exp(P, c0, sweep(V, 3, len / mfd_norm(P, c0, V), `*`))
  Cp <- clip_to_ball(P, Xp, c0, 1)
  expect_equal(attr(Cp, "clipped"), 4)
  expect_equal(mfd_dist(P, c0, Cp), pmin(len, 1), tolerance = 1e-8)
  expect_equal(suppressWarnings(dp_frechet_mean(P, Xp, 1, "wrapped_laplace", center = c0, radius = 1,
                                                return_nonprivate = TRUE))$nonprivate$clipped, 4)
  # Kendall: raw configurations are accepted and clipped as shapes
  K <- kendall_shape(5)
  z0 <- mfd_random_point(K)
  Vk <- mfd_random_tangent(K, z0, 6)
  lk <- c(0.1, 0.2, 0.3, 0.5, 0.7, 1.2)
  Xk <- mfd_exp(K, z0, sweep(Vk, 3, lk / mfd_norm(K, z0, Vk), `*`))
  Ck <- clip_to_ball(K, 3 * Xk + 1, z0, 0.35)
  expect_equal(attr(Ck, "clipped"), 3)
  expect_equal(mfd_dist(K, z0, Ck), pmin(lk, 0.35), tolerance = 1e-8)
})

test_that("chain settings with the exact sampler are refused, not ignored", {
  X <- b41_data(20, pi / 8)
  # the sphere study passed them for years and drew KNG exactly
  for (f in list(function(...) dp_frechet_mean(S2, X, 1, "kng", center = north, radius = pi / 8, ...),
                 function(...) frechet_mechanism(S2, 20, 1, "kng", center = north, radius = pi / 8, ...))) {
    expect_error(f(mcmc = mcmc_control(burnin = 100, steps = 100)), "^`mcmc` applies to sampler = \"mcmc\" only",
                 class = "dpmanifold_error")
    expect_silent(f(mcmc = NULL))
    expect_silent(f(sampler = "mcmc", mcmc = mcmc_control(burnin = 100, steps = 100)))
  }
})
