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

utility_study <- function(R, n, r, eps, ctrl) {
  d <- matrix(NA_real_, R, 3, dimnames = list(NULL, c("kng", "laplace", "euclidean_laplace")))
  for (i in seq_len(R)) {
    X <- b41_data(n, r)
    xbar <- frechet_mean(S2, X)$mean
    for (m in colnames(d)) {
      rel <- dp_frechet_mean(S2, X, eps, m, center = north, radius = r, mcmc = ctrl)
      d[i, m] <- mfd_dist(S2, xbar, rel$estimate)
    }
  }
  d
}

test_that("KNG beats the Riemannian Laplace mechanism on S^2 (r = pi/8, n = 50, epsilon = 1)", {
  set.seed(501)
  R <- 300
  d <- utility_study(R, n = 50, r = pi / 8, eps = 1, ctrl = mcmc_control(burnin = 1000, steps = 1000))
  m <- colMeans(d)
  se <- apply(d, 2, sd) / sqrt(R)
  message(sprintf("utility on S^2, r = pi/8, n = 50, eps = 1, %d replicates: mean geodesic distance to the sample Frechet mean: KNG %.4f (se %.4f), Riemannian Laplace %.4f (se %.4f), projected Euclidean Laplace %.4f (se %.4f)",
                  R, m[1], se[1], m[2], se[2], m[3], se[3]))
  expect_lt(m[["kng"]], m[["laplace"]])
  # and by a margin the replicates resolve (one-sided Welch test)
  expect_lt(t.test(d[, "kng"], d[, "laplace"], alternative = "less")$p.value, 0.05)
  # the scale of the errors is that of sigma: Delta = 2r(2 - h)/n, sigma = 2 Delta
  sig_k <- 2 * frechet_sensitivity(S2, pi / 8, 50, "kng")
  expect_gt(m[["kng"]], 0.5 * sig_k)
  expect_lt(m[["kng"]], 4 * sig_k)
})

test_that("extended: utility ordering and 1/n rate over sample sizes", {
  skip_if_not(identical(Sys.getenv("DPMANIFOLD_EXTENDED_TESTS"), "true"))
  set.seed(502)
  R <- 2000
  res <- sapply(c(20, 50, 100), function(n) {
    colMeans(utility_study(R, n = n, r = pi / 8, eps = 1, ctrl = mcmc_control(burnin = 2000, steps = 2000)))
  })
  colnames(res) <- c(20, 50, 100)
  message("extended utility study, mean geodesic distance:\n", paste(capture.output(print(res)), collapse = "\n"))
  expect_true(all(res["kng", ] < res["laplace", ]))
  # errors scale like 1/n: n * distance stays within a factor 1.5
  nd <- res["kng", ] * c(20, 50, 100)
  expect_lt(max(nd) / min(nd), 1.5)
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
    rel <- function(seed) {
      set.seed(seed)
      dp_frechet_mean(cs$M, cs$X, epsilon = 1, mechanism = mech, center = cs$center, radius = cs$radius,
                      delta = if (mech == "wrapped_gaussian") 1e-5, mcmc = ctrl)
    }
    a <- rel(42); b <- rel(42); c2 <- rel(43)
    lab <- paste(cs$M$name, mech)
    expect_identical(a$estimate, b$estimate, label = lab)
    expect_identical(a$diagnostics, b$diagnostics, label = lab)
    expect_false(identical(a$estimate, c2$estimate), label = lab)
    expect_true(mech == "euclidean_laplace" || all(mfd_belongs(cs$M, a$estimate)), label = lab)
  }
})

test_that("the release records mechanism, budget, sensitivity and scale", {
  set.seed(503)
  X <- b41_data(40, pi / 8)
  ctrl <- mcmc_control(burnin = 500, steps = 500)
  rk <- dp_frechet_mean(S2, X, 0.5, "kng", center = north, radius = pi / 8, mcmc = ctrl)
  expect_s3_class(rk, "dp_release")
  expect_equal(rk$epsilon, 0.5)
  expect_equal(rk$delta, 0)
  expect_equal(rk$sensitivity, frechet_sensitivity(S2, pi / 8, 40, "kng"))
  expect_equal(rk$sigma, 2 * rk$sensitivity / 0.5)
  expect_identical(rk$diagnostics$method, "metropolis_hastings")
  expect_equal(rk$diagnostics$steps, 500)
  expect_true(rk$diagnostics$acceptance > 0 && rk$diagnostics$acceptance < 1)
  expect_lte(mfd_dist(S2, north, rk$estimate), pi / 8 + 1e-12)
  expect_null(rk$nonprivate)
  rl <- dp_frechet_mean(S2, X, 0.5, "laplace", center = north, radius = pi / 8, return_nonprivate = TRUE)
  expect_equal(rl$sigma, 2 * frechet_sensitivity(S2, pi / 8, 40, "laplace") / 0.5)
  expect_lt(mfd_dist(S2, rl$nonprivate, frechet_mean(S2, X)$mean), 1e-9)
  expect_identical(rl$diagnostics$method, "exact")
  P <- spd(2)
  Xp <- mfd_exp(P, diag(2), 0.3 * mfd_random_tangent(P, diag(2), 20))
  rg <- dp_frechet_mean(P, Xp, 1, "wrapped_gaussian", center = diag(2), radius = 1, delta = 1e-5)
  expect_equal(rg$sensitivity, 2 * 1 / 20)
  expect_equal(rg$sigma, calibrate_analytic_gaussian(1, 1e-5, 0.1))
  expect_equal(rg$delta, 1e-5)
  rmu <- dp_frechet_mean(P, Xp, mechanism = "wrapped_gaussian", center = diag(2), radius = 1, mu = 0.5)
  expect_equal(rmu$sigma, 0.1 / 0.5)
  rw <- dp_frechet_mean(P, Xp, 2, "wrapped_laplace", center = diag(2), radius = 1)
  expect_equal(rw$sigma, 0.1 / 2)
  # basic composition
  sp <- privacy_spent(rk, rl, rg)
  expect_equal(sp$epsilon, 0.5 + 0.5 + 1)
  expect_equal(sp$delta, 1e-5)
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
  expect_error(call(epsilon = 1, mu = 1), class = "dpmanifold_error")
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
  Xp[, , 2] <- matrix(c(1, 2, 2, 1), 2)     # symmetric, not positive definite
  expect_error(dp_frechet_mean(P, Xp, 1, "wrapped_laplace", center = diag(2), radius = 1), class = "dpmanifold_error")
  Xp[, , 2] <- matrix(c(1, 0.5, 0, 1), 2)   # not symmetric
  expect_error(dp_frechet_mean(P, Xp, 1, "wrapped_laplace", center = diag(2), radius = 1), class = "dpmanifold_error")
  expect_error(dp_frechet_mean(list(), X, 1, center = north, radius = pi / 8), class = "dpmanifold_error")
})

test_that("bounds taken from the data raise the privacy-leak warning", {
  set.seed(505)
  X <- b41_data(20, pi / 8)
  ctrl <- mcmc_control(burnin = 300, steps = 300)
  expect_warning(r1 <- dp_frechet_mean(S2, X, 1, "laplace", radius = pi / 8), "center", class = "dpmanifold_privacy_leak")
  expect_identical(r1$bounds$inferred, "center")
  expect_warning(r2 <- dp_frechet_mean(S2, X, 1, "laplace", center = north), "radius", class = "dpmanifold_privacy_leak")
  expect_identical(r2$bounds$inferred, "radius")
  expect_equal(r2$bounds$radius, max(mfd_dist(S2, north, X)))
  expect_equal(r2$clipped, 0)
  # both missing: two classed warnings, for every mechanism
  P <- spd(2)
  Xp <- mfd_exp(P, diag(2), 0.3 * mfd_random_tangent(P, diag(2), 10))
  for (cs in list(list(M = S2, X = X, mech = "kng"), list(M = S2, X = X, mech = "euclidean_laplace"),
                  list(M = P, X = Xp, mech = "wrapped_gaussian"))) {
    n_leak <- 0
    rel <- withCallingHandlers(
      dp_frechet_mean(cs$M, cs$X, 1, cs$mech, delta = 1e-5, mcmc = ctrl),
      dpmanifold_privacy_leak = function(w) { n_leak <<- n_leak + 1; invokeRestart("muffleWarning") })
    expect_equal(n_leak, 2, label = cs$mech)
    expect_setequal(rel$bounds$inferred, c("center", "radius"))
  }
  # public bounds: no warning at all
  expect_silent(dp_frechet_mean(S2, X, 1, "laplace", center = north, radius = pi / 8))
  # the inferred radius never reaches r*: data spread over more than r* are
  # clipped to a radius just below it
  Xwide <- b41_data(20, 1.2)
  expect_warning(expect_warning(r3 <- dp_frechet_mean(S2, Xwide, 1, "laplace"), class = "dpmanifold_privacy_leak"),
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
  rel <- dp_frechet_mean(S2, X, 1, "laplace", center = north, radius = r, return_nonprivate = TRUE)
  expect_equal(rel$clipped, 3)
  expect_lt(mfd_dist(S2, rel$nonprivate, frechet_mean(S2, C)$mean), 1e-9)
  expect_equal(dp_frechet_mean(S2, Xin, 1, "laplace", center = north, radius = r)$clipped, 0)
  # SPD, affine-invariant: clipped points are at distance r from the centre
  P <- spd(3)
  c0 <- mfd_random_point(P)
  V <- mfd_random_tangent(P, c0, 12)
  len <- c(rep(0.5, 8), 2, 3, 4, 5)
  Xp <- mfd_exp(P, c0, sweep(V, 3, len / mfd_norm(P, c0, V), `*`))
  Cp <- clip_to_ball(P, Xp, c0, 1)
  expect_equal(attr(Cp, "clipped"), 4)
  expect_equal(mfd_dist(P, c0, Cp), pmin(len, 1), tolerance = 1e-8)
  expect_equal(dp_frechet_mean(P, Xp, 1, "wrapped_laplace", center = c0, radius = 1)$clipped, 4)
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
