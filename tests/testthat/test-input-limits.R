# Inputs at the edges of double precision found by a fuzzing review: each
# case hung, returned -Inf, lost its class or refused valid input before.

test_that("a radius below what double precision resolves at the centre is refused, not sampled forever", {
  set.seed(71)
  # (centres whose coordinates are of order 1: near a zero coordinate a
  # smaller radius can still be resolved)
  cases <- list(list(spd(2), diag(c(1, 2))), list(spd(2, metric = "log_euclidean"), diag(c(1, 2))),
                list(hyperbolic(2), c(cosh(1), sinh(1), 0)), list(euclidean(2), c(1, -1)))
  for (cs in cases) {
    M <- cs[[1]]
    p <- cs[[2]]
    X <- clip_to_ball(M, mfd_random_point(M, 10), p, 0.3)
    expect_error(dp_frechet_mean(M, X, epsilon = 1, center = p, radius = 1e-17), "`radius` is 1e-17, below what",
                 class = "dpmanifold_error")
    expect_s3_class(dp_frechet_mean(M, X, epsilon = 1, center = p, radius = 1e-12), "dp_release")
  }
  K <- kendall_shape(4)
  p <- mfd_random_point(K, 1)
  expect_s3_class(dp_frechet_mean(K, clip_to_ball(K, mfd_random_point(K, 10), p, 0.3), epsilon = 1, center = p,
                                  radius = 1e-12), "dp_release")
  # (the exact KNG sampler on SPD(2) at radius 1e-20 ran until killed)
  M <- spd(2)
  X <- clip_to_ball(M, mfd_random_point(M, 30), diag(2), 1)
  setTimeLimit(elapsed = 20)
  on.exit(setTimeLimit())
  expect_error(dp_frechet_mean(M, X, epsilon = 1, center = diag(2), radius = 1e-20, mechanism = "kng"), "`radius`",
               class = "dpmanifold_error")
})

test_that("an interrupt inside a release's non-private fit stays an interrupt", {
  # (it became "`x` gives no non-private fit (... interrupted ...)")
  M <- hyperbolic(2)
  set.seed(72)
  y <- mfd_random_point(M, 1e5)
  x <- runif(1e5)
  setTimeLimit(elapsed = 0.5)
  on.exit(setTimeLimit())
  e <- tryCatch(suppressWarnings(dp_geodesic_regression(M, x, y, epsilon = 1, center = c(1, 0, 0), radius = 2,
                                                        x_range = c(0, 1), method = "energy")),
                error = function(e) e)
  setTimeLimit()
  expect_s3_class(e, "dpmanifold_interrupted")
})

test_that("numbers beyond double precision are classed errors, not NA comparisons or -Inf", {
  set.seed(73)
  S2 <- sphere(2)
  p <- c(0, 0, 1)
  y <- clip_to_ball(S2, mfd_random_point(S2, 30), p, 0.5)
  x <- runif(30)
  # (v_bound 1e200: "missing value where TRUE/FALSE needed")
  expect_error(suppressWarnings(dp_geodesic_regression(S2, x, y, epsilon = 1, center = p, radius = 0.5, tau = 0.3,
                                                       x_range = c(0, 1), method = "joint", v_bound = 1e200)),
               class = "dpmanifold_error")
  E <- euclidean(2)
  far <- rbind(c(-1e308, 0), c(1e308, 0))
  expect_error(dkng(E, c(1e308, 0), far, sigma = 1), "`X`", class = "dpmanifold_not_representable")
  expect_error(driemann_laplace(E, c(1e308, 0), c(-1e308, 0), sigma = 1), "`y`", class = "dpmanifold_not_representable")
  expect_error(kng_gradient(E, c(1e308, 0), far), "`X`", class = "dpmanifold_not_representable")
  expect_error(frechet_mean(S2, mfd_random_point(S2, 20), weights = rep(1e308, 20)), "`weights` sum beyond",
               class = "dpmanifold_error")
  expect_equal(frechet_mean(S2, y, weights = rep(1e300, 30))$mean, frechet_mean(S2, y)$mean, tolerance = 1e-8)
})

test_that("rkng() takes what clip_to_ball() returns, at small radii too", {
  # (points clipped to radius 1e-8 sat 2.4e-16 beyond it and were refused)
  set.seed(74)
  for (M in list(spd(2), kendall_shape(4))) {
    p <- mfd_random_point(M, 1)
    X <- clip_to_ball(M, mfd_random_point(M, 30), p, 1e-8)
    expect_no_error(rkng(M, 1, X, sigma = 1e-8, center = p, radius = 1e-8))
  }
})

test_that("mfd_random_point() on spd(k) returns points the package accepts, at every k", {
  # the exponential of a standard Gaussian symmetric matrix has condition
  # number about exp(2 sqrt(2 k)): at k = 200 mfd_random_point() returned
  # matrices that mfd_dist() refused as numerically singular
  set.seed(17)
  for (k in c(3L, 16L, 17L, 200L, 400L)) {
    for (metric in c("affine_invariant", "log_euclidean")) {
      M <- spd(k, metric = metric)
      X <- mfd_random_point(M, 2)
      expect_true(all(mfd_belongs(M, X)), label = paste(k, metric))
      ev <- eigen(X[, , 1], symmetric = TRUE, only.values = TRUE)$values
      expect_lt(log10(max(ev) / min(ev)), 6.5, label = paste(k, metric))
      expect_true(is.finite(mfd_dist(M, X[, , 1], X[, , 2])), label = paste(k, metric))
    }
  }
})
