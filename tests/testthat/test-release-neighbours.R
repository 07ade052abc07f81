# Regression releases under the neighbour test of helper-neighbours.R: for
# the same seed, a data set and its neighbour (one record's response moved
# to the far side of the public ball or beyond it, its covariate far outside
# the public range) give releases that differ only in the estimate: fields,
# printout, summary, warnings and errors. Every method on every manifold.

test_that("regression releases on neighbouring data differ only in the estimate", {
  set.seed(611)
  n <- 30
  x <- runif(n)
  K <- kendall_shape(4)
  zk <- as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  cases <- list(
    list(M = sphere(2), center = c(0, 0, 1), radius = 0.5, tau = 0.2, far = c(0, 0, -1)),
    list(M = spd(2), center = diag(2), radius = 1, tau = 0.3, far = diag(c(80, 0.02))),
    list(M = spd(2, "log_euclidean"), center = diag(2), radius = 1, tau = 0.3, far = diag(c(80, 0.02))),
    list(M = K, center = zk, radius = 0.3, tau = 0.1, far = as_preshape(matrix(c(0, 1, 0.5, 3, 0, 0, 2, -1), 4))),
    list(M = euclidean(2), center = c(0, 0), radius = 1, tau = 0.5, far = c(50, -50)))
  for (cs in cases) {
    M <- cs$M
    u <- mfd_random_tangent(M, cs$center)
    u <- 0.3 * cs$radius * u / mfd_norm(M, cs$center, u)
    Vs <- if (is.null(M$point_dim)) outer(x - 0.5, u) else sweep(array(u, c(dim(u), n)), 3, x - 0.5, `*`)
    Y <- mfd_exp(M, cs$center, Vs)
    Yn <- replace_record(M, Y, 2, cs$far)
    xn <- x; xn[2] <- 40
    methods <- if (inherits(M, "euclidean")) "joint" else c("joint", "tangent", "sequential")
    for (method in methods) for (smp in if (method == "joint" && !inherits(M, "euclidean")) c("exact", "mcmc") else "auto") {
      f <- function(D) dp_geodesic_regression(M, D$x, D$y, epsilon = 2, tau = cs$tau, center = cs$center,
                                              radius = cs$radius, x_range = c(0, 1), method = method,
                                              sampler = smp)
      expect_neighbours_agree(f, list(x = x, y = Y), list(x = xn, y = Yn),
                              label = paste(manifold_label(M), method, smp))
    }
  }
})

test_that("records that double precision does not hold are never refused (issue 19's pairs)", {
  # SPD: condition numbers above ~1e14 (both metrics), every mechanism
  set.seed(19)
  for (M in list(spd(2), spd(2, "log_euclidean"))) {
    X <- array(0, c(2, 2, 12))
    for (i in 1:12) X[, , i] <- diag(exp(rnorm(2, sd = 0.2)))
    # fib: [[F47, F48], [F48, F49]] has determinant exactly 1 (Cassini), so it
    # is positive definite, yet rounding breaks its Cholesky test
    fib <- matrix(c(2971215073, 4807526976, 4807526976, 7778742049), 2)
    expect_error(mfd_dist(M, fib, diag(2)), "numerically singular", class = "dpmanifold_error")
    for (far in list(diag(c(exp(17), exp(-17))), diag(c(1, 1e-17)), fib)) {
      Xp <- X
      Xp[, , 5] <- far
      for (mech in c("laplace", "kng", "wrapped_laplace", "wrapped_gaussian")) {
        f <- function(D) dp_frechet_mean(M, D, 1, mech, center = diag(2), radius = 1,
                                         delta = if (mech == "wrapped_gaussian") 1e-6)
        r <- expect_neighbours_agree(f, X, Xp, paste(manifold_label(M), mech))
        expect_s3_class(r[[2]], "dp_release")
      }
      r <- expect_neighbours_agree(function(D) dp_frechet_mean(M, D, 1, "kng", center = diag(2), radius = 1,
                                                                sampler = "mcmc",
                                                                mcmc = mcmc_control(burnin = 50, steps = 50)),
                                   X, Xp, paste(manifold_label(M), "kng mcmc"))
    }
  }
  # SPD records at the ends of the double range: eigenvalues 1e300 and
  # 1e-300 (positive definite, but no scaling holds both), and entries
  # above half the largest double (their sum overflows). Each is a point of
  # the manifold: every path replaces or clips it, none refuses it.
  I2 <- diag(2)
  X <- array(0, c(2, 2, 30))
  for (i in 1:30) X[, , i] <- diag(exp(rnorm(2, sd = 0.2)))
  x <- runif(30)
  for (M in list(spd(2), spd(2, "log_euclidean"))) {
    for (far in list(diag(c(1e300, 1e-300)), diag(c(1.7e308, 1.7e308)))) {
      Xp <- X
      Xp[, , 5] <- far
      lab <- paste(manifold_label(M), format(far[1, 1]))
      for (mech in c("laplace", "kng", "euclidean_laplace")) {
        expect_neighbours_agree(function(D) dp_frechet_mean(M, D, 1, mech, center = I2, radius = 1), X, Xp,
                                paste(lab, mech))
      }
      # (with private bounds the later stages' scales follow the private
      # radius, so the neighbours' objects differ there by design; what
      # must hold is that neither errors)
      for (D in list(X, Xp)) {
        expect_s3_class(suppressWarnings(dp_frechet_mean(M, D, 1, center = I2, radius = 3, bounds_share = 0.3),
                                         classes = "dpmanifold_low_utility"), "dp_release")
      }
      r <- expect_neighbours_agree(function(D) dp_geodesic_regression(M, x, D, epsilon = 2, tau = 0.2, center = I2,
                                                                       radius = 1, x_range = c(0, 1)),
                                   X, Xp, paste(lab, "regression"))
      expect_s3_class(r[[2]], "dp_release")
    }
  }
  # hyperbolic: records farther than 28.3 from the origin, also inside a ball
  # whose centre is near that limit
  H <- hyperbolic(2)
  o <- c(1, 0, 0)
  Y <- mfd_exp(H, o, 0.3 * mfd_random_tangent(H, o, 12))
  Yp <- Y
  Yp[4, ] <- c(cosh(35), sinh(35), 0)   # (mfd_exp() refuses to return it)
  for (mech in c("laplace", "kng", "wrapped_laplace")) {
    expect_neighbours_agree(function(D) dp_frechet_mean(H, D, 1, mech, center = o, radius = 1), Y, Yp,
                            paste("H^2", mech))
  }
  cfar <- mfd_exp(H, o, c(0, 27.5, 0))
  Z <- mfd_exp(H, cfar, 0.2 * mfd_random_tangent(H, cfar, 12))
  Zp <- Z
  Zp[2, ] <- c(cosh(28.6), sinh(28.6), 0)   # 1.1 beyond cfar: in the ball, x0 > 1e12
  expect_gt(Zp[2, 1], 1e12)
  expect_neighbours_agree(function(D) dp_frechet_mean(H, D, 1, "laplace", center = cfar, radius = 1.2), Z, Zp,
                          "H^2 centre near the limit")
  # a malformed data set is refused without naming or counting records
  bad <- Y
  bad[3, 1] <- 2
  e <- tryCatch(dp_frechet_mean(H, bad, 1, center = o, radius = 1), error = identity)
  expect_s3_class(e, "dpmanifold_error")
  expect_false(grepl("[0-9]+ more|point [0-9]", conditionMessage(e)))
})

test_that("a Kendall record whose landmarks coincide (up to rounding) is replaced, not refused by its index", {
  # A configuration with all landmarks equal, or equal up to rounding (a
  # triangle translated to 1e13), has no shape that double precision holds.
  # A release must treat it like any record it cannot represent (SPEC
  # section 6): replaced by the public centre, no error naming it.
  set.seed(88)
  K <- kendall_shape(4)
  base <- matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4)
  zk <- as_preshape(base)
  X <- array(0, c(4, 2, 15))
  for (i in 1:15) X[, , i] <- base + matrix(rnorm(8, sd = 0.05), 4)
  x <- runif(15)
  for (far in list(matrix(1, 4, 2), base + 1e13, matrix(0, 4, 2))) {
    Xp <- X
    Xp[, , 3] <- far
    for (mech in c("laplace", "kng", "euclidean_laplace")) {
      expect_neighbours_agree(function(D) dp_frechet_mean(K, D, 1, mech, center = zk, radius = 0.3), X, Xp,
                              paste("Kendall degenerate", mech))
    }
    m <- suppressWarnings(frechet_mechanism(K, 15, 1, center = zk, radius = 0.3), classes = "dpmanifold_low_utility")
    expect_neighbours_agree(function(D) release(m, D), X, Xp, "Kendall degenerate, release()")
    for (method in c("gauss_newton", "tangent")) {
      expect_neighbours_agree(function(D) dp_geodesic_regression(K, x, D, epsilon = 2, tau = 0.2, center = zk,
                                                                 radius = 0.3, x_range = c(0, 1), method = method),
                              X, Xp, paste("Kendall degenerate regression", method))
    }
    rel <- suppressWarnings(dp_frechet_mean(K, Xp, 1, bounds_share = 0.3), classes = "dpmanifold_low_utility")
    expect_s3_class(rel, "dp_release")
    expect_true(all(is.finite(rel$estimate)))
  }
  # outside a release such a configuration is still refused (it is no shape)
  expect_error(as_preshape(matrix(1, 4, 2)), class = "dpmanifold_error")
})
