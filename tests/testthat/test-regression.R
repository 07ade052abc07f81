test_that("the regression gradient matches finite differences of the energy on every manifold", {
  set.seed(3)
  for (case in regression_cases()) {
    M <- case$M
    x <- runif(15)
    Y <- geodesic_data(M, case$p, case$v, x, noise = 0.15)
    Ya <- dpm$to_ambient(M, Y, "Y")
    p <- mfd_exp(M, case$p, 0.1 * mfd_random_tangent(M, case$p))
    v <- mfd_transport(M, case$p, p, case$v)
    P <- as.vector(p); V <- as.vector(v)
    g <- dpm$cpp_regression_gradient(M, x, Ya, P, V, Inf)
    E <- function(pp, vv) dpm$cpp_regression_energy(M, x, Ya, as.vector(pp), as.vector(vv))
    h <- 1e-5
    for (k in 1:3) {
      u <- mfd_random_tangent(M, p)
      # footpoint: move p along u, carry v by transport
      pp <- mfd_exp(M, p, h * u); pm <- mfd_exp(M, p, -h * u)
      dE <- (E(pp, mfd_transport(M, p, pp, v)) - E(pm, mfd_transport(M, p, pm, v))) / (2 * h)
      expect_equal(mfd_inner(M, p, shape_like(g$p, u), u), dE, tolerance = 1e-6,
                   label = paste(M$name, "grad_p"))
      dEv <- (E(p, v + h * u) - E(p, v - h * u)) / (2 * h)
      expect_equal(mfd_inner(M, p, shape_like(g$v, u), u), dEv, tolerance = 1e-6,
                   label = paste(M$name, "grad_v"))
    }
  }
})

test_that("the fit's Gauss-Newton matrix is sum A_i^T A_i of the fitted points' finite differences", {
  set.seed(12)
  cases <- c(regression_cases(), list(hyperbolic = list(M = hyperbolic(2), p = c(cosh(0.5), sinh(0.5), 0),
                                                         v = c(0, 0, 1.6))))
  for (case in cases) {
    M <- case$M
    x <- runif(6)
    p <- as.vector(dpm$to_ambient(M, case$p, "p"))
    v <- 2 * as.vector(dpm$to_ambient(M, case$v, "v"))  # long: the curvature shows
    H <- dpm$cpp_regression_gauss_newton_matrix(M, x, p, v)
    B <- dpm$cpp_tangent_basis(M, p)
    d <- ncol(B)
    # the fitted points exp_p(x_i v) as functions of (p, v); p moves along a
    # basis vector with v carried by parallel transport
    fitted_at <- function(pp, vv) dpm$cpp_binary_op(M, "exp", matrix(pp, length(pp), length(x)), outer(vv, x))
    h <- 1e-6
    A <- vector("list", 2 * d)
    for (j in seq_len(d)) {
      pj <- function(s) dpm$cpp_binary_op(M, "exp", matrix(p), matrix(s * B[, j]))[, 1]
      vj <- function(s) dpm$cpp_ternary_op(M, "transport_along", matrix(p), matrix(s * B[, j]), matrix(v))[, 1]
      A[[j]] <- (fitted_at(pj(h), vj(h)) - fitted_at(pj(-h), vj(-h))) / (2 * h)
      A[[d + j]] <- (fitted_at(p, v + h * B[, j]) - fitted_at(p, v - h * B[, j])) / (2 * h)
    }
    Yhat <- fitted_at(p, v)
    # (on Kendall shapes the preshapes also turn, vertically: project the
    # differences onto the horizontal space, the shape space's tangent)
    A <- lapply(A, function(a) dpm$cpp_binary_op(M, "project", Yhat, a))
    Hfd <- matrix(0, 2 * d, 2 * d)
    for (j in seq_len(2 * d)) for (k in seq_len(2 * d)) {
      Hfd[j, k] <- mean(vapply(seq_along(x), function(i)
        dpm$cpp_inner(M, Yhat[, i, drop = FALSE], A[[j]][, i, drop = FALSE], A[[k]][, i, drop = FALSE]), 0))
    }
    expect_equal(H, Hfd, tolerance = 1e-6, label = paste(M$name, "Gauss-Newton matrix"))
  }
})

test_that("noise-free geodesic data are recovered on every manifold", {
  set.seed(4)
  for (case in regression_cases()) {
    M <- case$M
    x <- runif(25, 10, 20)
    Y <- geodesic_data(M, case$p, case$v, (x - 10) / 10)
    fit <- geodesic_regression(M, x, Y, x_range = c(10, 20))
    expect_true(fit$converged)
    # coef(): footpoint at the middle of the range (x = 15), velocity per unit of x
    mid <- geodesic_data(M, case$p, case$v, 0.5)
    expect_lt(max(abs(as.vector(fit$coef$p) - as.vector(mid))), 1e-6, label = paste(M$name, "p"))
    expect_equal(fit$coef$x0, 15)
    expect_lt(max(abs(as.vector(predict(fit, c(10, 20))) - as.vector(geodesic_data(M, case$p, case$v, c(0, 1))))), 1e-6,
              label = paste(M$name, "v"))
    expect_lt(fit$energy, 1e-12)
    # and from a poor starting point
    fit2 <- geodesic_regression(M, x, Y, x_range = c(10, 20),
                                init = list(p = mfd_exp(M, case$p, 0.2 * case$v), v = 0 * case$v))
    expect_lt(max(abs(as.vector(fit2$coef$p) - as.vector(mid))), 1e-6, label = paste(M$name, "p from a poor start"))
    # init in the parametrisation of coef(): the fit itself is a fixed point
    fit3 <- geodesic_regression(M, x, Y, x_range = c(10, 20), init = fit$coef[c("p", "v")])
    expect_lte(fit3$iterations, 1)
  }
})

test_that("the fit takes a few Gauss-Newton steps where the geodesic bends strongly", {
  # SPD(3) with |v| = 2.8 over the range: the flat case's normal equations,
  # the fit's earlier step, took 20 to 800 iterations on such data (median
  # 29 at n = 1000); the curved ones take 2 or 3
  set.seed(11)
  P3 <- spd(3)
  p <- diag(c(1, 2, 4))
  v <- mfd_random_tangent(P3, p)
  v <- 2.8 * v / mfd_norm(P3, p, v)
  x <- runif(300)
  clean <- mfd_exp(P3, p, array(outer(as.vector(v), x - 0.5), c(3, 3, 300)))
  Y <- mfd_exp(P3, clean, 0.01 * mfd_random_tangent(P3, clean, 300))
  fit <- geodesic_regression(P3, x, Y, x_range = c(0, 1))
  expect_true(fit$converged)
  expect_lte(fit$iterations, 6)
  expect_lt(fit$grad_norm, 1e-8)
  # the same minimum from another start
  fit2 <- geodesic_regression(P3, x, Y, x_range = c(0, 1), init = list(p = p, v = 0.5 * v))
  expect_equal(fit2$energy, fit$energy, tolerance = 1e-10)
  expect_lt(max(abs(fit2$coef$p - fit$coef$p)), 1e-6)
})

test_that("the Euclidean fit equals lm()", {
  set.seed(5)
  x <- runif(50, -3, 7)
  Y <- cbind(1 + 2 * x, -x) + matrix(rnorm(100), 50)
  fit <- geodesic_regression(euclidean(2), x, Y)
  ols <- coef(lm(Y ~ x))
  # p is the fit at the middle of range(x), v the slope per unit of x
  expect_equal(fit$coef$p, as.vector(ols[1, ] + ols[2, ] * mean(range(x))), tolerance = 1e-10)
  expect_equal(fit$coef$v, as.vector(ols[2, ]), tolerance = 1e-10)
  expect_equal(unname(predict(fit, c(0, 2))), unname(cbind(1, c(0, 2)) %*% ols), tolerance = 1e-10)
  expect_equal(unname(fitted(fit)), unname(fitted(lm(Y ~ x))), tolerance = 1e-10)
})

test_that("the energy at our solution is no larger than optim()'s on the sphere and Kendall space", {
  set.seed(6)
  S2 <- sphere(2)
  x <- runif(40)
  Y <- geodesic_data(S2, c(0, 0, 1), c(0.9, -0.4, 0), x, noise = 0.2)
  fit <- geodesic_regression(S2, x, Y)
  Ya <- t(Y)
  # independent parametrisation: p by spherical angles, v in the tangent basis
  energy <- function(th) {
    p <- c(sin(th[1]) * cos(th[2]), sin(th[1]) * sin(th[2]), cos(th[1]))
    B <- mfd_tangent_basis(S2, p)
    v <- th[3] * B[1, ] + th[4] * B[2, ]
    mean(mfd_dist(S2, mfd_exp(S2, p, outer(x, v)), Y)^2) / 2
  }
  opt <- optim(c(0.3, 0, 0.5, 0), energy, method = "BFGS", control = list(reltol = 1e-14, maxit = 1000))
  expect_lte(fit$energy, opt$value + 1e-10)

  K <- kendall_shape(4)
  pk <- as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  vk <- mfd_project(K, pk, matrix(c(0.3, -0.1, 0, 0.1, 0, 0.2, -0.1, 0), 4))
  Yk <- geodesic_data(K, pk, vk, x, noise = 0.05)
  fk <- geodesic_regression(K, x, Yk)
  Ek <- function(th) {
    B <- mfd_tangent_basis(K, pk)
    p <- mfd_exp(K, pk, th[1] * B[, , 1] + th[2] * B[, , 2] + th[3] * B[, , 3] + th[4] * B[, , 4])
    Bp <- mfd_tangent_basis(K, p)
    v <- th[5] * Bp[, , 1] + th[6] * Bp[, , 2] + th[7] * Bp[, , 3] + th[8] * Bp[, , 4]
    mean(mfd_dist(K, mfd_exp(K, p, array(outer(as.vector(v), x), c(4, 2, 40))), Yk)^2) / 2
  }
  ok <- optim(rep(0, 8), Ek, method = "BFGS", control = list(reltol = 1e-14, maxit = 2000))
  expect_lte(fk$energy, ok$value + 1e-10)
})

test_that("geodesic_regression returns a usable model object", {
  set.seed(7)
  S2 <- sphere(2)
  x <- runif(30, 1990, 2020)
  Y <- geodesic_data(S2, c(0, 0, 1), c(0.6, 0, 0), (x - 1990) / 30, noise = 0.05)
  fit <- geodesic_regression(S2, x, Y)
  expect_s3_class(fit, "geodesic_regression")
  expect_named(coef(fit), c("p", "v", "x0"))
  expect_equal(dim(fitted(fit)), c(30L, 3L))
  expect_length(fit$residuals$norms, 30)
  expect_equal(fit$residuals$norms, mfd_dist(S2, fitted(fit), Y), tolerance = 1e-10)
  expect_equal(dim(residuals(fit)), c(30L, 3L))
  expect_equal(sqrt(rowSums(residuals(fit)^2)), fit$residuals$norms, tolerance = 1e-10)
  expect_equal(predict(fit), fitted(fit))
  expect_equal(predict(fit, x[3]), fitted(fit)[3, ], tolerance = 1e-12)
  expect_gt(fit$r_squared, 0.5)
  expect_lt(fit$r_squared, 1)
  expect_output(print(fit), "geodesic_regression")
  expect_output(print(summary(fit)), "R\\^2")
})

test_that("bad regression input gets a clear error", {
  S2 <- sphere(2)
  Y <- rbind(c(0, 0, 1), c(0, 1, 0), c(1, 0, 0))
  expect_error(geodesic_regression(S2, 1:2, Y), "`x` has length 2 but `y` has 3 points")
  expect_error(geodesic_regression(S2, c(1, 1, 1), Y), "`x` is constant")
  expect_error(geodesic_regression(S2, c(1, NA, 3), Y), "`x` contains NA")
  expect_error(geodesic_regression(S2, 1, c(0, 0, 1)), "at least 2 points")
  expect_error(geodesic_regression(S2, 1:3, Y * 2), "`y` holds a point that is not on the manifold")
  expect_error(geodesic_regression(S2, 1:3, Y, x_range = c(3, 1)), "`x_range`")
  expect_warning(geodesic_regression(S2, 1:3, Y, x_range = c(1, 2)), "clamped")
})

test_that("the regression kernels refuse arrays of the wrong shape instead of reading past them", {
  S2 <- sphere(2)
  # Y as n x 3 instead of 3 x n crashed R (Eigen's bounds checks are off)
  expect_error(dpm$cpp_regression_clipped_loss(S2, runif(10), matrix(0, 10, 3), c(0, 0, 1), c(0, 0, 0), 1),
               "ambient_dim x n")
  expect_error(dpm$cpp_regression_energy(S2, runif(10), matrix(0, 3, 9), c(0, 0, 1), c(0, 0, 0)), "ambient_dim x n")
  expect_error(dpm$cpp_regression_gradient(S2, runif(3), diag(3), c(0, 1), c(0, 0, 0), 1), "ambient dimension")
})
