# Random (p, v) in the sampler's domain: p in B_R(center), |v|_p <= V.
random_domain_point <- function(M, center, R, V) {
  p <- mfd_exp(M, center, tangent_of_length(M, center, runif(1) * min(R, 0.99 * M$injectivity_radius)))
  v <- tangent_of_length(M, p, runif(1) * V)
  list(p = p, v = v)
}

test_that("clipped regression gradients never move by more than the sensitivity (privacy audit)", {
  set.seed(21)
  n <- 12
  ratios <- list()
  for (case in regression_cases()) {
    M <- case$M
    if (inherits(M, "euclidean")) next   # its exact mechanism is audited below
    radius <- if (inherits(M, "kendall_shape")) 0.35 else 0.6
    tau <- 0.3
    center <- case$p
    sens <- regression_sensitivity(M, tau, radius, n)
    R <- radius + tau; V <- 2 * (radius + tau)
    worst <- 0
    for (rep in 1:25) {
      x <- runif(n)
      Y <- dpmanifold:::to_ambient(M, geodesic_data(M, case$p, case$v * 0.3, x, noise = 0.4), "Y")
      Y <- dpmanifold:::resolve_ball(M, Y, center, radius)$X
      Y2 <- Y
      Y2[, n] <- dpmanifold:::to_ambient(M, clip_to_ball(M, mfd_random_point(M), center, radius), "y")
      x2 <- x; x2[n] <- runif(1)
      for (k in 1:4) {
        s <- random_domain_point(M, center, R, V)
        P <- as.vector(s$p); Vv <- as.vector(s$v)
        g1 <- dpmanifold:::cpp_regression_gradient(M, x, Y, P, Vv, tau)
        g2 <- dpmanifold:::cpp_regression_gradient(M, x2, Y2, P, Vv, tau)
        dp <- mfd_norm(M, s$p, shape_like(g1$p - g2$p, s$p))
        dv <- mfd_norm(M, s$p, shape_like(g1$v - g2$v, s$p))
        expect_lte(dp, sens[["p"]] * (1 + 1e-9))
        expect_lte(dv, sens[["v"]] * (1 + 1e-9))
        expect_lte(sqrt(dp^2 + dv^2), sens[["joint"]] * (1 + 1e-9))
        # log density ratio of the joint KNG (unnormalised part) is <= epsilon / 2,
        # so with the normalising constants it is <= epsilon
        eps <- 1
        sigma <- 2 * sens[["joint"]] / eps
        n1 <- mfd_norm(M, s$p, shape_like(g1$p, s$p))^2 + mfd_norm(M, s$p, shape_like(g1$v, s$p))^2
        n2 <- mfd_norm(M, s$p, shape_like(g2$p, s$p))^2 + mfd_norm(M, s$p, shape_like(g2$v, s$p))^2
        expect_lte(abs(sqrt(n1) - sqrt(n2)) / sigma, eps / 2 + 1e-9)
        worst <- max(worst, sqrt(dp^2 + dv^2) / sens[["joint"]])
      }
    }
    ratios[[M$name]] <- worst
  }
  # The bound is attained up to a modest factor (it is not vacuous).
  expect_true(all(unlist(ratios) > 0.2))
})

test_that("the exact DP linear regression uses a sensitivity that holds on its domain", {
  set.seed(22)
  n <- 10; radius <- 1; tau <- 0.5
  R <- radius + tau; V <- 2 * (radius + tau)
  dp <- (2 * radius + V) / n; dv <- 2 * (radius + R + V) / n
  for (rep in 1:200) {
    x <- runif(n); Y <- matrix(runif(n, -radius, radius), 1)
    x2 <- x; Y2 <- Y; x2[n] <- runif(1); Y2[n] <- runif(1, -radius, radius)
    p <- runif(1, -R, R); v <- runif(1, -V, V)
    g1 <- dpmanifold:::cpp_regression_gradient(euclidean(1), x, Y, p, v, 0)
    g2 <- dpmanifold:::cpp_regression_gradient(euclidean(1), x2, Y2, p, v, 0)
    expect_lte(abs(g1$p - g2$p), dp + 1e-12)
    expect_lte(abs(g1$v - g2$v), dv + 1e-12)
  }
  rel <- dp_geodesic_regression(euclidean(1), runif(20), runif(20, -1, 1), epsilon = 1, tau = tau,
                                center = 0, radius = radius, x_range = c(0, 1))
  expect_equal(unname(rel$sensitivity[c("p", "v")]), c((2 * radius + V) / 20, 2 * (radius + R + V) / 20))
})

test_that("the (p, v) Metropolis-Hastings chain reproduces the exact linear-regression KNG law", {
  set.seed(23)
  n <- 40
  x <- runif(n); Y <- matrix(0.5 + x + rnorm(n, sd = 0.2), 1)
  E <- euclidean(1)
  sigma <- 0.05; R <- 3; V <- 6
  # exact: beta = beta_ols + H^-1 u, u K-norm in R^2 (|u| ~ Gamma(2, sigma))
  X <- cbind(1, x)
  beta <- solve(crossprod(X), crossprod(X, Y[1, ]))
  Hinv <- solve(crossprod(X) / n)
  u <- dpmanifold:::cpp_euclidean_laplace_noise(2L, sigma, 3000L)
  exact <- beta[, 1] + Hinv %*% u
  # the law of (p, v) is elongated (H^-1 u), so the isotropic random walk
  # decorrelates slowly: with thin = 20 the draws are correlated enough to
  # fail KS for 4 seeds in 10; thin = 400 passes with p > 0.2 for all seeds tried
  ctrl <- mcmc_control(burnin = 3000, thin = 400)
  s <- dpmanifold:::mcmc_settings(ctrl, 750L)
  res <- dpmanifold:::cpp_regression_joint_kng(E, x, Y, 0, sigma, 0, R, V, 0, 0, s)
  expect_gt(res$acceptance, 0.1)
  # (a chain may repeat a state between thinned draws: ties are harmless here)
  expect_gt(suppressWarnings(ks.test(res$draws[1, ], exact[1, ]))$p.value, 0.001)
  expect_gt(suppressWarnings(ks.test(res$draws[2, ], exact[2, ]))$p.value, 0.001)
  # the norm of the gradient at the draws is Gamma(2, sigma)
  gn <- apply(res$draws, 2, function(b) {
    g <- dpmanifold:::cpp_regression_gradient(E, x, Y, b[1], b[2], 0)
    sqrt(g$p^2 + g$v^2)
  })
  expect_gt(suppressWarnings(ks.test(gn, "pgamma", shape = 2, scale = sigma))$p.value, 0.001)
})

test_that("the private slope of DP linear regression concentrates at the 1/n rate of the sensitivity", {
  set.seed(24)
  spread <- function(n, reps = 300) {
    x <- runif(n); y <- 1 + 0.5 * x + rnorm(n, sd = 0.1)
    ols <- unname(coef(lm(y ~ x))[2])
    s <- replicate(reps, dp_geodesic_regression(euclidean(1), x, y, epsilon = 1, tau = 0.5, center = 1,
                                                 radius = 1, x_range = c(0, 1))$estimate$v)
    c(bias = mean(s) - ols, sd = sd(s))
  }
  # large n, so that the law is far inside the domain |v| <= V
  a <- spread(2000); b <- spread(8000)
  # sigma scales as 1/n, so the spread shrinks by about 4 (the sampling
  # error of an sd from 300 draws is about 4%)
  expect_gt(a[["sd"]] / b[["sd"]], 3)
  expect_lt(a[["sd"]] / b[["sd"]], 5.5)
  expect_lt(abs(b[["bias"]]), 4 * b[["sd"]] / sqrt(300))
})

test_that("private geodesics on S^2 improve with n and epsilon and approach the non-private energy", {
  set.seed(25)
  S2 <- sphere(2)
  ctrl <- mcmc_control(burnin = 1000, steps = 1000)
  study <- function(n, eps, reps = 8) {
    mean(replicate(reps, {
      x <- runif(n)
      Y <- geodesic_data(S2, c(0, 0, 1), c(0.6, 0.2, 0), x, noise = 0.1)
      rel <- dp_geodesic_regression(S2, x, Y, epsilon = eps, tau = 0.3, center = c(0, 0, 1), radius = 0.75,
                                    x_range = c(0, 1), mcmc = ctrl, return_nonprivate = TRUE)
      e_priv <- dpmanifold:::cpp_regression_energy(S2, x, t(Y), rel$estimate$p, rel$estimate$v)
      e_priv / rel$nonprivate$energy
    }))
  }
  r_small <- study(20, 1); r_big <- study(100, 1); r_big_eps <- study(100, 10)
  expect_gt(r_small, r_big)
  expect_gt(r_big, r_big_eps)
  expect_lt(r_big_eps, 1.5)
  expect_gte(r_big_eps, 1)
})

test_that("dp_geodesic_regression releases are complete, reproducible and validated", {
  set.seed(26)
  S2 <- sphere(2)
  x <- runif(30, 0, 10)
  Y <- geodesic_data(S2, c(0, 0, 1), c(0.5, 0, 0), x / 10, noise = 0.05)
  ctrl <- mcmc_control(burnin = 500, steps = 500)
  args <- list(M = S2, x = x, y = Y, epsilon = 1, tau = 0.2, center = c(0, 0, 1), radius = 0.7,
               x_range = c(0, 10), mcmc = ctrl)
  set.seed(1); a <- do.call(dp_geodesic_regression, args)
  set.seed(1); b <- do.call(dp_geodesic_regression, args)
  expect_identical(a$estimate, b$estimate)
  expect_s3_class(a, "dp_release")
  expect_named(a$sensitivity, c("p", "v", "joint"))
  expect_equal(a$sigma, 2 * a$sensitivity[["joint"]] / 1)
  expect_equal(a$epsilon, 1)
  expect_equal(sum(mfd_belongs(S2, a$estimate$p)), 1)
  expect_lt(abs(sum(a$estimate$p * a$estimate$v)), 1e-10)
  expect_equal(dim(predict(a, c(0, 5, 10))), c(3L, 3L))
  expect_equal(predict(a, 0), a$estimate$p, tolerance = 1e-12)
  expect_output(print(a), "geodesic regression")
  expect_output(print(summary(a)), "sensitivity")
  expect_gt(a$diagnostics$acceptance, 0.05)

  expect_warning(
    s <- do.call(dp_geodesic_regression, c(args[-4], list(epsilon = c(p = 0.3, v = 0.7), method = "sequential"))),
    class = "dpmanifold_privacy_leak")
  expect_equal(s$privacy$type, "sequential")
  expect_equal(s$epsilon, 1)
  expect_equal(unname(s$sigma), 2 * unname(s$sensitivity[c("p", "v")]) / c(0.3, 0.7))
  expect_output(print(s), "non-private v-hat")

  # clipping of responses and clamping of covariates are counted
  Yout <- rbind(Y, c(1, 0, 0))
  c1 <- dp_geodesic_regression(S2, c(x, 12), Yout, epsilon = 1, tau = 0.2, center = c(0, 0, 1),
                               radius = 0.7, x_range = c(0, 10), mcmc = ctrl)
  expect_equal(unname(c1$clipped), c(1, 1))

  # bounds taken from the data are loud
  expect_warning(dp_geodesic_regression(S2, x, Y, epsilon = 1, tau = 0.2, center = c(0, 0, 1), radius = 0.7,
                                        mcmc = ctrl), class = "dpmanifold_privacy_leak")
  expect_warning(dp_geodesic_regression(S2, x, Y, epsilon = 1, center = c(0, 0, 1), radius = 0.7,
                                        x_range = c(0, 10), mcmc = ctrl), class = "dpmanifold_privacy_leak")
  expect_error(do.call(dp_geodesic_regression, modifyList(args, list(epsilon = 0))), "`epsilon`")
  expect_error(do.call(dp_geodesic_regression, modifyList(args, list(epsilon = c(a = 1, b = 1), method = "sequential"))), "`epsilon`")
  expect_error(do.call(dp_geodesic_regression, modifyList(args, list(tau = -1))), "`tau`")
  expect_error(do.call(dp_geodesic_regression, modifyList(args, list(radius = 1))), "below r\\*")
  expect_error(do.call(dp_geodesic_regression, modifyList(args, list(x = rep(1, 30)))), "`x` is constant")
  expect_error(do.call(dp_geodesic_regression, modifyList(args, list(v_bound = 5))), "`v_bound` is 5 but may not exceed 1.8")
  tight <- do.call(dp_geodesic_regression, modifyList(args, list(v_bound = 0.8, p_radius = 0.3)))
  expect_equal(c(tight$bounds$R, tight$bounds$v_bound), c(0.3, 0.8))
  expect_lte(mfd_norm(S2, tight$estimate$p, tight$estimate$v), 0.8 + 1e-12)
  expect_lte(mfd_dist(S2, c(0, 0, 1), tight$estimate$p), 0.3 + 1e-12)
})
