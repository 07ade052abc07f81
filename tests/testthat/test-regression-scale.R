# The scale stage of the default private regression (R/regression_scale.R,
# inst/include/dpmanifold_core/regression_scale.hpp; proof:
# inst/proofs/regression-gauss-newton.md, section 2a).

scale_fixture <- function(M, n, center, v, noise, seed = 1) {
  set.seed(seed)
  gn_data(M, n, center, v, noise)
}

test_that("the stage runs where its public rule says, first, and states its share", {
  P3 <- spd(3)
  es <- function(M, n, eps) dpm$scale_stage_epsilon(M, n, eps)
  expect_equal(es(P3, 600, 1), 25 / 200)
  expect_equal(es(P3, 500, 1), 0)                 # 25 / 166 > 0.15
  expect_equal(es(euclidean(2), 5000, 1), 0)      # not on euclidean()
  expect_equal(es(spd(2), 2, 100), 0)             # no triple
  expect_equal(es(sphere(2), 5000, 1), 0)         # one-block net: the rounds choose their clips
  expect_equal(es(sphere(3), 5000, 1), 25 / 1666)
  expect_equal(es(kendall_shape(8), 5000, 1), 0)  # dimension 12 > 6
  m <- regression_mechanism(P3, n = 600, epsilon = 1, tau = 0.4, center = diag(3), radius = 1.5,
                            x_range = c(0, 1))
  expect_identical(names(m$stages)[1], "scale")
  expect_equal(m$stages$scale$privacy$epsilon, 25 / 200)
  expect_equal(sum(m$privacy$split), 1)
  expect_output(print(m), "stage 1, scale: exponential mechanism over a finite grid \\(0.5-quantile of 200 triple")
  m2 <- regression_mechanism(P3, n = 500, epsilon = 1, tau = 0.4, center = diag(3), radius = 1.5,
                             x_range = c(0, 1))
  expect_false("scale" %in% names(m2$stages))
})

test_that("a triple's statistic cancels the line and reads the residual scale", {
  S2 <- sphere(2)
  t <- runif(600)
  # exact geodesic data: the statistics vanish whatever the slope
  for (v in list(c(0.1, 0, 0), c(1.2, -0.5, 0))) {
    Y <- mfd_exp(S2, c(0, 0, 1), outer(t - 0.5, v))
    set.seed(2)
    g <- dpm$cpp_regression_scale(S2, t(Y), t, 1, 0.5, c(0.1, 1))$statistics
    expect_length(g, 200L)
    expect_lt(max(g), 1e-8)
  }
  # noise of norm about s: mean square of the statistics about s^2
  D <- scale_fixture(S2, 3000, c(0, 0, 1), c(1, 0.3, 0), 0.05, seed = 3)
  fit <- geodesic_regression(S2, D$x, D$y, x_range = c(0, 1))
  set.seed(4)
  g <- dpm$cpp_regression_scale(S2, t(D$y), D$x, 1, 0.5, c(0.1, 1))$statistics
  ratio <- mean(g^2) / mean(fit$residuals$norms^2)
  # (1000 statistics of a chi-square(2)-like law: sd of the ratio ~ 0.05)
  expect_gt(ratio, 0.8)
  expect_lt(ratio, 1.25)
})

test_that("one record replaced changes at most one triple statistic (sensitivity of every count: 1)", {
  P2 <- spd(2)
  D <- scale_fixture(P2, 90, diag(2), matrix(c(0.4, 0.1, 0.1, -0.2), 2), 0.03, seed = 5)
  amb <- function(Y) matrix(Y, 4)
  for (i in c(1L, 45L, 90L)) {
    for (far in list(diag(c(3, 1 / 3)), diag(2))) {
      Y2 <- D$y
      Y2[, , i] <- far
      x2 <- replace(D$x, i, if (i == 45L) 1 else 0)
      set.seed(6)
      a <- dpm$cpp_regression_scale(P2, amb(D$y), D$x, 1, 0.5, c(0.1, 1))$statistics
      set.seed(6)
      b <- dpm$cpp_regression_scale(P2, amb(Y2), x2, 1, 0.5, c(0.1, 1))$statistics
      expect_lte(sum(a != b), 1L)
      expect_true(all(is.finite(b)))
      lev <- c(0.001, 0.01, 0.03, 0.1, 1)
      expect_lte(max(abs(vapply(lev, function(l) sum(a <= l) - sum(b <= l), 0))), 1)
    }
  }
})

test_that("the level is drawn from its exponential-mechanism law (chi-square, with a power check)", {
  S2 <- sphere(2)
  D <- scale_fixture(S2, 60, c(0, 0, 1), c(0.5, 0.2, 0), 0.05, seed = 7)
  levels <- 0.2 * 2^-(6:0)
  eps <- 0.4
  reps <- 4000
  set.seed(8)
  draws <- replicate(reps, {
    r <- dpm$cpp_regression_scale(S2, t(D$y), D$x, eps, 0.5, levels)
    c(r$level, vapply(levels, function(l) sum(r$statistics <= l), 0))
  })
  law <- function(e) {
    # the exact probabilities given each draw's statistics, summed over draws
    rowSums(apply(draws[-1, ], 2, function(cnt) {
      w <- exp(-e * abs(cnt - 0.5 * 20) / 2)
      w / sum(w)
    }))
  }
  obs <- tabulate(draws[1, ], length(levels))
  chi <- function(expected) {
    keep <- expected >= 5
    sum((obs[keep] - expected[keep])^2 / expected[keep])
  }
  k <- sum(law(eps) >= 5)
  expect_gt(stats::pchisq(chi(law(eps)), k - 1, lower.tail = FALSE), 1e-3)
  # power: the law at twice the epsilon is rejected
  expect_lt(stats::pchisq(chi(law(2 * eps)), sum(law(2 * eps) >= 5) - 1, lower.tail = FALSE), 1e-3)
})

test_that("a scaled release reports the level drawn and the plan it ran, and a loose tau stops costing", {
  P3 <- spd(3)
  set.seed(9)
  x <- runif(600)
  v <- matrix(c(0.5, 0.1, 0, 0.1, -0.3, 0.2, 0, 0.2, 0.4), 3)
  D <- gn_data(P3, 600, diag(3), v, 0.01, x = x)
  fit <- geodesic_regression(P3, D$x, D$y, x_range = c(0, 1))
  ratio <- function(tau) {
    set.seed(10)
    vapply(1:5, function(k) {
      r <- dp_geodesic_regression(P3, D$x, D$y, epsilon = 1, tau = tau, center = diag(3), radius = 1.2,
                                  x_range = c(0, 1))
      expect_identical(r$stages[[1]]$name, "scale")
      expect_true(r$bounds$tau_used <= tau)
      expect_true(r$bounds$residual_scale %in% (min(tau, 1.2 + 1.2 + 1.2) * 2^-(0:6)))
      sum(mfd_dist(P3, predict(r, D$x), D$y)^2) / sum(fit$residuals$norms^2)
    }, 0)
  }
  # a tau 20 and 80 times the residual norms (about 0.025): the release is
  # as good as at a tight tau (measured median energy ratio 1.03-1.05 at all three)
  tight <- stats::median(ratio(0.05))
  expect_lt(stats::median(ratio(0.5)), 1.5 * tight)
  expect_lt(stats::median(ratio(2)), 1.5 * tight)
})

test_that("with bounds_share the private ball's stages come first, and the shares add up to epsilon", {
  P3 <- spd(3)
  set.seed(11)
  v <- matrix(c(0.5, 0.1, 0, 0.1, -0.3, 0.2, 0, 0.2, 0.4), 3)
  D <- gn_data(P3, 900, diag(3), v, 0.01)
  r <- dp_geodesic_regression(P3, D$x, D$y, epsilon = 1, tau = 0.5, center = diag(3), radius = 3, x_range = c(0, 1),
                              bounds_share = 0.2)
  nm <- vapply(r$stages, function(s) s$name, "")
  expect_identical(nm[1:3], c("center", "radius", "scale"))
  expect_equal(sum(r$privacy$split), 1)
  expect_equal(unname(r$privacy$split[nm == "scale"]), 25 / 300)
  expect_true(r$bounds$tau_used <= 0.5)
})
