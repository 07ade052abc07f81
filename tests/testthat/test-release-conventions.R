# R's conventions on private releases (issue 20) and their public
# confidence balls (issue 19): summary() shows the estimate, nobs(),
# fitted()/residuals() refuse with a classed error, tidy()/glance() through
# generics, confint() covers the non-private estimate at its level.

S2 <- sphere(2)
north <- c(0, 0, 1)

sphere_release <- function() {
  set.seed(31)
  X <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 60))
  set.seed(32)
  dp_frechet_mean(S2, X, epsilon = 1, center = north, radius = pi / 8)
}

regression_release <- function() {
  set.seed(33)
  x <- runif(30)
  y <- mfd_exp(S2, north, outer(x - 0.5, c(0.3, 0, 0)) + 0.02 * mfd_random_tangent(S2, north, 30))
  set.seed(34)
  dp_geodesic_regression(S2, x, y, epsilon = 1, tau = 0.15, center = north, radius = 0.45, x_range = c(0, 1))
}

test_that("summary() of a release prints the estimate and the stages' facts", {
  rel <- sphere_release()
  s <- summary(rel)
  expect_s3_class(s, "summary.dp_release")
  expect_identical(s$estimate, rel$estimate)
  out <- paste(capture.output(print(s)), collapse = "\n")
  expect_match(out, "estimate:", fixed = TRUE)
  expect_match(out, format(signif(rel$estimate[1], 5)), fixed = TRUE)
  expect_match(out, "stage 1, mean: Riemannian Laplace", fixed = TRUE)
  expect_match(out, "epsilon-DP (exact sampler)", fixed = TRUE)
  # print() shows the same estimate
  expect_match(paste(capture.output(print(rel)), collapse = "\n"), format(signif(rel$estimate[1], 5)), fixed = TRUE)
  rr <- regression_release()
  out <- paste(capture.output(summary(rr)), collapse = "\n")
  expect_match(out, "private footpoint p", fixed = TRUE)
  expect_match(out, "private velocity v", fixed = TRUE)
  # a tampered release is refused with a classed error, not a base-R one
  bad <- rel
  bad$sigma <- "large"
  expect_error(summary(bad), "`object$sigma`", fixed = TRUE, class = "dpmanifold_error")
  bad <- rel
  bad$n <- -3
  expect_error(summary(bad), "`object$n`", fixed = TRUE, class = "dpmanifold_error")
})

test_that("nobs() is the public n; fitted() and residuals() refuse and point to predict()", {
  rel <- sphere_release()
  rr <- regression_release()
  expect_equal(nobs(rel), 60)
  expect_equal(nobs(rr), 30)
  set.seed(35)
  x <- runif(20)
  expect_equal(nobs(geodesic_regression(S2, x, mfd_exp(S2, north, outer(x, c(0.2, 0, 0))))), 20)
  for (f in list(fitted, residuals)) {
    expect_error(f(rel), "private data", class = "dpmanifold_error")
    expect_error(f(rr), "predict\\(object, newdata\\)", class = "dpmanifold_error")
  }
  expect_error(nobs(structure(list(), class = "dp_release")), class = "dpmanifold_error")
})

test_that("a mechanism gives its public n and refuses the estimate's methods, pointing to release()", {
  fx <- mechanism_fixture(30)
  for (m in list(fx$m, fx$rm)) {
    expect_identical(nobs(m), 30L)
    expect_output(print(summary(m)), "nothing released yet")
    for (f in list(coef, vcov, confint, predict, fitted, residuals)) {
      expect_error(f(m), "`object` is a dp_mechanism: .*release\\(<mechanism>, <data>\\)", class = "dpmanifold_error")
    }
    expect_error(plot(m), "`x` is a dp_mechanism", class = "dpmanifold_error")
  }
})

test_that("tidy() and glance() through generics", {
  skip_if_not_installed("generics")
  rel <- sphere_release()
  td <- generics::tidy(rel)
  expect_s3_class(td, "data.frame")
  expect_named(td, c("term", "estimate"))
  expect_equal(td$term, c("mean[1]", "mean[2]", "mean[3]"))
  expect_equal(td$estimate, as.numeric(rel$estimate))
  gl <- generics::glance(rel)
  expect_equal(nrow(gl), 1L)
  expect_true(all(c("n", "epsilon", "delta", "guarantee", "mechanism") %in% names(gl)))
  expect_equal(gl$n, 60)
  expect_equal(gl$epsilon, 1)
  expect_equal(gl$delta, 0)
  expect_equal(gl$mechanism, "laplace")
  expect_true(gl$private)
  rr <- regression_release()
  tr <- generics::tidy(rr)
  expect_equal(tr$term, c(sprintf("footpoint[%d]", 1:3), sprintf("velocity[%d]", 1:3)))
  expect_equal(tr$estimate, c(as.numeric(rr$estimate$p), as.numeric(rr$estimate$v)))
  # matrix layouts: one row per matrix entry
  set.seed(36)
  rs <- dp_frechet_mean(spd(2), array(diag(2), c(2, 2, 10)), epsilon = 1, center = diag(2), radius = 1)
  ts <- generics::tidy(rs)
  expect_equal(ts$term, c("mean[1,1]", "mean[2,1]", "mean[1,2]", "mean[2,2]"))
  expect_equal(ts$estimate, as.numeric(rs$estimate))
  # Gaussian DP: no epsilon
  rg <- dp_frechet_mean(euclidean(2), matrix(0, 10, 2), mechanism = "wrapped_gaussian", mu = 1,
                        center = c(0, 0), radius = 1)
  expect_true(is.na(generics::glance(rg)$epsilon))
})

# Coverage of the non-private estimate (the Frechet mean of the clipped
# data) by R releases of fixed data, at level 0.9: at least the level up to
# a binomial tolerance for R releases (its 0.1% quantile when the coverage
# is exactly the level). Also returns the ball's radius (public: one value)
# and the empirical quantile of the distance, to compare a conservative
# bound with the law it bounds.
coverage <- function(M, X, center, radius, R = 400, level = 0.9, ...) {
  xbar <- frechet_mean(M, clip_to_ball(M, X, center, radius))$mean
  hit <- logical(R)
  rad <- dist <- numeric(R)
  for (i in seq_len(R)) {
    rel <- dp_frechet_mean(M, X, center = center, radius = radius, ...)
    ci <- confint(rel, level = level)
    rad[i] <- ci$radius
    dist[i] <- mfd_dist(M, ci$center, xbar)
    hit[i] <- dist[i] <= ci$radius
  }
  list(coverage = mean(hit), radius = unique(rad), floor = stats::qbinom(0.001, R, level) / R,
       empirical = unname(stats::quantile(dist, level)), mechanism = rel$mechanism,
       truncated = isTRUE(rel$bounds$truncated))
}

test_that("confint() covers the non-private mean at its level (flat spaces)", {
  set.seed(41)
  E2 <- euclidean(2)
  X <- matrix(rnorm(24, mean = 0.6, sd = 0.3), 12)  # some records outside the unit ball
  cv <- coverage(E2, X, c(0, 0), 1, epsilon = 1)  # untruncated Laplace, moved onto the ball
  expect_gte(cv$coverage, cv$floor)
  expect_length(cv$radius, 1L)  # public: the same for every release
  cv <- coverage(E2, X, c(0, 0), 1, epsilon = 1, mechanism = "kng")  # KNG = Laplace restricted to the ball
  expect_gte(cv$coverage, cv$floor)
  expect_lte(cv$radius, 2)
  cv <- coverage(E2, X, c(0, 0), 1, epsilon = 1, mechanism = "wrapped_laplace")
  expect_gte(cv$coverage, cv$floor)
  cv <- coverage(E2, X, c(0, 0), 1, epsilon = 1, mechanism = "euclidean_laplace")
  expect_gte(cv$coverage, cv$floor)
  # the wrapped Gaussian draw stays where it fell: the ball is exact
  E3 <- euclidean(3)
  X3 <- matrix(rnorm(45, sd = 0.3), 15)
  cv <- coverage(E3, X3, c(0, 0, 0), 1, epsilon = 1, mechanism = "wrapped_gaussian", delta = 1e-5)
  expect_gte(cv$coverage, cv$floor)
  expect_lte(cv$coverage, 0.9 + 3 * sqrt(0.09 / 400))
  # log-Euclidean SPD is flat
  L <- spd(2, metric = "log_euclidean")
  S <- replicate(15, { A <- matrix(rnorm(4, sd = 0.3), 2); expm_sym <- eigen(A + t(A), symmetric = TRUE)
    expm_sym$vectors %*% diag(exp(expm_sym$values)) %*% t(expm_sym$vectors) }, simplify = FALSE)
  cv <- coverage(L, S, diag(2), 1.2, R = 300, epsilon = 1)
  expect_gte(cv$coverage, cv$floor)
})

test_that("confint() covers the non-private mean at its level (sphere, hyperbolic space)", {
  set.seed(42)
  X <- mfd_exp(S2, north, 0.35 * mfd_random_tangent(S2, north, 15))
  cv <- coverage(S2, X, north, pi / 8, epsilon = 1)  # untruncated, moved onto the ball
  expect_gte(cv$coverage, cv$floor)
  cv <- coverage(S2, X, north, pi / 8, epsilon = 1, truncated = TRUE)
  expect_gte(cv$coverage, cv$floor)
  # radius 0.7: the default is KNG, covered by the bound from the public
  # bounds of its gradient norm (conservative, within the diameter 2r)
  set.seed(45)
  X <- mfd_exp(S2, north, 0.5 * mfd_random_tangent(S2, north, 200))
  cv <- coverage(S2, X, north, 0.7, R = 300, epsilon = 1)
  expect_identical(cv$mechanism, "kng")
  expect_gte(cv$coverage, cv$floor)
  expect_gte(cv$radius, cv$empirical)
  expect_lt(cv$radius, 1.4)
  H <- hyperbolic(2)
  o <- c(1, 0, 0)
  XH <- mfd_exp(H, o, 0.4 * mfd_random_tangent(H, o, 15))
  cv <- coverage(H, XH, o, 0.8, epsilon = 1)
  expect_gte(cv$coverage, cv$floor)
  cv <- coverage(H, XH, o, 0.8, epsilon = 1, truncated = TRUE)
  expect_gte(cv$coverage, cv$floor)
  cv <- coverage(H, XH, o, 0.8, R = 300, epsilon = 2, mechanism = "kng")
  expect_gte(cv$coverage, cv$floor)
})

test_that("confint() covers the non-private mean at its level (Kendall's shape space)", {
  K <- kendall_shape(4)
  square <- matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4)
  set.seed(46)
  cfg <- array(rnorm(8 * 200, sd = 0.1) + as.vector(square), c(4, 2, 200))
  # radius 0.2: the default is the untruncated Laplace law (exact radial law of CP^2)
  cv <- coverage(K, cfg, square, 0.2, R = 300, epsilon = 1)
  expect_identical(c(cv$mechanism, cv$truncated), c("laplace", "FALSE"))
  expect_gte(cv$coverage, cv$floor)
  # radius 0.35: the default is KNG
  cv <- coverage(K, cfg, square, 0.35, R = 300, epsilon = 1)
  expect_identical(cv$mechanism, "kng")
  expect_gte(cv$coverage, cv$floor)
  expect_gte(cv$radius, cv$empirical)
  expect_lt(cv$radius, 0.7)
  # few records, many clipped (the estimate near the ball's edge), the law
  # restricted to the ball
  cfg <- array(rnorm(8 * 20, sd = 0.15) + as.vector(square), c(4, 2, 20))
  cv <- suppressWarnings(coverage(K, cfg, square, 0.2, R = 300, epsilon = 1, truncated = TRUE))
  expect_gte(cv$coverage, cv$floor)
})

test_that("confint() covers the non-private mean at its level (SPD, affine-invariant)", {
  S <- spd(2)
  set.seed(47)
  X <- replicate(100, { A <- matrix(rnorm(4, sd = 0.3), 2); e <- eigen(A + t(A), symmetric = TRUE)
    e$vectors %*% diag(exp(e$values)) %*% t(e$vectors) }, simplify = FALSE)
  # the default: the untruncated Laplace law, bounded by the radial law of
  # a volume that dominates the direction-dependent one
  cv <- coverage(S, X, diag(2), 1, R = 300, epsilon = 1)
  expect_identical(c(cv$mechanism, cv$truncated), c("laplace", "FALSE"))
  expect_gte(cv$coverage, cv$floor)
  cv <- coverage(S, X, diag(2), 1, R = 300, epsilon = 1, truncated = TRUE)
  expect_gte(cv$coverage, cv$floor)
  cv <- coverage(S, X, diag(2), 1, R = 300, epsilon = 1, mechanism = "kng")
  expect_gte(cv$coverage, cv$floor)
  expect_gte(cv$radius, cv$empirical)
  # a ball whose records are mostly clipped
  cv <- coverage(S, X, diag(2), 0.3, R = 300, epsilon = 1)
  expect_gte(cv$coverage, cv$floor)
})

test_that("the polar volumes confint() reads are the package's own", {
  # Kendall's shape space of k = 4 landmarks is CP^2 with the Fubini-Study
  # metric of diameter pi / 2: under the uniform law on shapes (Gaussian
  # landmarks), cos^2 of the distance to a fixed shape is Beta(1, k - 2),
  # i.e. the distance has density prop. to sin(t)^3 cos(t), the polar volume
  K <- kendall_shape(4)
  set.seed(48)
  shapes <- array(rnorm(8 * 3000), c(4, 2, 3000))
  square <- matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4)
  d <- mfd_dist(K, as_preshape(square), as_preshape(shapes))
  expect_gt(suppressWarnings(stats::ks.test(cos(d)^2, "pbeta", 1, 2))$p.value, 0.01)
  t <- c(0.05, 0.3, 0.7, 1.2)
  vb <- dpm$cpp_log_polar_volume_bound(K, t)
  expect_true(vb$exact)
  expect_equal(vb$log_A, log(sin(t)^3 * cos(t)))
  # SPD(3), affine-invariant: A(t, u) / Abar(t) is nonincreasing in t for
  # every direction u (the likelihood-ratio bound of the proof)
  S3 <- spd(3)
  vb <- dpm$cpp_log_polar_volume_bound(S3, t <- seq(0.1, 4, by = 0.1))
  expect_false(vb$exact)
  for (j in 1:20) {
    u <- mfd_random_tangent(S3, diag(3), 1)
    u <- u / sqrt(sum(u^2))
    lJ <- dpm$cpp_log_volume_density(S3, as.vector(diag(3)), sapply(t, function(s) as.vector(s * u)))
    expect_true(all(diff(5 * log(t) + lJ - vb$log_A) <= 1e-12))
  }
})

test_that("the radial quantiles are those of the public law", {
  # small sigma on the sphere: the radial law is nearly Gamma(d, sigma)
  set.seed(43)
  S3 <- sphere(3)
  X <- mfd_exp(S3, c(0, 0, 0, 1), 0.1 * mfd_random_tangent(S3, c(0, 0, 0, 1), 2000))
  rel <- dp_frechet_mean(S3, X, epsilon = 5, center = c(0, 0, 0, 1), radius = 0.5)
  ci <- confint(rel, level = 0.95)
  expect_equal(ci$radius, qgamma(0.95, 3, scale = rel$sigma), tolerance = 1e-3)
  expect_lt(ci$radius, confint(rel, level = 0.99)$radius)
  # a ball never exceeds the public diameter 2r
  rel <- dp_frechet_mean(S2, X[, 1:3] / sqrt(rowSums(X[, 1:3]^2)), epsilon = 0.01, center = north, radius = 0.2)
  expect_lte(confint(rel)$radius, 0.4)
  expect_output(print(confint(rel)), "geodesic ball of radius")
})

test_that("confint() refuses what it cannot cover", {
  # (a regression release has its own regions: test-regression-confint.R)
  expect_s3_class(confint(regression_release()), "dp_regression_confint")
  rel <- sphere_release()
  expect_error(confint(rel, level = 1.2), "`level`", class = "dpmanifold_error")
  expect_error(confint(rel, parm = 1), "`parm`", class = "dpmanifold_error")
  S <- spd(2)
  set.seed(44)
  rw <- dp_frechet_mean(S, replicate(10, diag(2), simplify = FALSE), epsilon = 1, center = diag(2), radius = 0.5,
                        mechanism = "wrapped_laplace")
  expect_error(confint(rw), "not derived yet", class = "dpmanifold_error")
  expect_warning(rm <- dp_frechet_mean(S2, rbind(north, north), epsilon = 1, center = north, radius = pi / 8,
                                       sampler = "mcmc"), class = "dpmanifold_low_utility")
  expect_error(confint(rm), "Metropolis-Hastings", class = "dpmanifold_error")
})
