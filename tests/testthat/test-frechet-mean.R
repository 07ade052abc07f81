# Frechet mean: convergence, first-order optimality, closed forms on flat
# metrics, agreement with an independent optimiser, warnings and weights.

# n points in the geodesic ball B_r(m0), in the layout of M.
fm_ball_sample <- function(M, m0, n, r) {
  V <- mfd_random_tangent(M, m0, n)
  len <- r * stats::runif(n)^(1 / M$dim) / mfd_norm(M, m0, V)
  V <- if (is.null(M$point_dim)) V * len else sweep(V, 3, len, `*`)
  mfd_exp(M, m0, V)
}

fm_objective <- function(M, y, X) 0.5 * mean(mfd_dist(M, y, X)^2)

fm_cases <- list(
  euclidean = list(M = euclidean(3), r = 2),
  sphere2 = list(M = sphere(2), r = 0.7),
  sphere4 = list(M = sphere(4), r = 0.7),
  spd_ai = list(M = spd(3), r = 1.5),
  spd_le = list(M = spd(3, "log_euclidean"), r = 1.5),
  kendall3 = list(M = kendall_shape(3), r = 0.35),
  kendall6 = list(M = kendall_shape(6), r = 0.35)
)

test_that("frechet_mean converges to a stationary local minimum on every manifold", {
  set.seed(101)
  for (nm in names(fm_cases)) {
    M <- fm_cases[[nm]]$M
    m0 <- mfd_random_point(M)
    X <- fm_ball_sample(M, m0, 40, fm_cases[[nm]]$r)
    fm <- expect_silent(frechet_mean(M, X))
    expect_true(fm$converged, label = nm)
    expect_true(mfd_belongs(M, fm$mean), label = nm)
    # the Riemannian gradient -(1/n) sum Log_x(x_i) vanishes at the mean
    g <- kng_gradient(M, fm$mean, X)
    expect_lt(mfd_norm(M, fm$mean, g), 1e-8, label = paste(nm, "gradient norm"))
    expect_lt(fm$grad_norm, 1e-8, label = nm)
    # reported objective is F at the mean, and F grows in every direction
    F0 <- fm_objective(M, fm$mean, X)
    expect_equal(fm$objective, F0, tolerance = 1e-10, label = nm)
    V <- mfd_random_tangent(M, fm$mean, 20)
    V <- if (is.null(M$point_dim)) V * (0.05 / mfd_norm(M, fm$mean, V)) else sweep(V, 3, 0.05 / mfd_norm(M, fm$mean, V), `*`)
    Y <- mfd_exp(M, fm$mean, V)
    Fy <- vapply(seq_len(20), function(j) fm_objective(M, slice_point(M, Y, j), X), numeric(1))
    expect_true(all(Fy > F0), label = paste(nm, "local minimum"))
    # and it is below F at every data point (the usual initialisation)
    Fx <- vapply(seq_len(40), function(j) fm_objective(M, slice_point(M, X, j), X), numeric(1))
    expect_lt(F0, min(Fx), label = nm)
  }
})

test_that("frechet_mean is the arithmetic mean on R^d and Exp(mean Log) on log-Euclidean SPD", {
  set.seed(102)
  E <- euclidean(4)
  X <- matrix(rnorm(4 * 25, sd = 3), 25)
  fm <- frechet_mean(E, X)
  expect_equal(as.vector(fm$mean), colMeans(X), tolerance = 1e-12)
  expect_lte(fm$iterations, 2)   # closed form reached by the first unit step

  P <- spd(3, "log_euclidean")
  X <- fm_ball_sample(P, mfd_random_point(P), 25, 2)
  mlog <- function(A) { e <- eigen(A, symmetric = TRUE); e$vectors %*% (log(e$values) * t(e$vectors)) }
  mexp <- function(A) { e <- eigen(A, symmetric = TRUE); e$vectors %*% (exp(e$values) * t(e$vectors)) }
  L <- Reduce(`+`, lapply(seq_len(25), function(i) mlog(X[, , i]))) / 25
  fm <- frechet_mean(P, X)
  expect_equal(fm$mean, mexp(L), tolerance = 1e-10)
  expect_lte(fm$iterations, 2)
})

test_that("frechet_mean on the sphere agrees with an independent optim() minimisation", {
  set.seed(103)
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  for (rep in 1:3) {
    # 001 B.4.1 data: theta ~ U[0, r], phi ~ U[0, 2 pi) around the north pole
    th <- runif(30, 0, pi / 4); ph <- runif(30, 0, 2 * pi)
    X <- cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
    # our own objective: angle by atan2 of cross and dot products
    Fz <- function(z) {
      u <- z / sqrt(sum(z^2))
      cr <- cbind(u[2] * X[, 3] - u[3] * X[, 2], u[3] * X[, 1] - u[1] * X[, 3], u[1] * X[, 2] - u[2] * X[, 1])
      0.5 * mean(atan2(sqrt(rowSums(cr^2)), X %*% u)^2)
    }
    opt <- optim(colMeans(X), Fz, method = "BFGS", control = list(reltol = 1e-15, maxit = 1000))
    zopt <- opt$par / sqrt(sum(opt$par^2))
    fm <- frechet_mean(S2, X)
    # BFGS with numerical gradients locates the minimiser to ~1e-6
    expect_lt(mfd_dist(S2, fm$mean, zopt), 1e-5)
    expect_lte(fm$objective, opt$value + 1e-12)
    expect_equal(fm$objective, Fz(fm$mean), tolerance = 1e-12)
  }
})

test_that("frechet_mean warns when it does not converge", {
  set.seed(104)
  S2 <- sphere(2)
  X <- fm_ball_sample(S2, c(0, 0, 1), 20, 0.7)
  far <- mfd_exp(S2, c(0, 0, 1), c(0.9, 0, 0))
  expect_warning(fm <- frechet_mean(S2, X, init = far, max_iter = 1), "did not converge")
  expect_false(fm$converged)
  expect_gt(fm$grad_norm, 1e-10)
  expect_equal(fm$iterations, 1)
  # with enough iterations the same start converges, silently
  expect_silent(fm2 <- frechet_mean(S2, X, init = far))
  expect_true(fm2$converged)
  expect_lt(fm2$objective, fm$objective)
})

test_that("weights: zero weight drops a point, integer weights duplicate points", {
  set.seed(105)
  for (M in list(sphere(2), spd(2), kendall_shape(4))) {
    m0 <- mfd_random_point(M)
    X <- fm_ball_sample(M, m0, 12, if (inherits(M, "kendall_shape")) 0.3 else 0.7)
    X1 <- if (is.null(M$point_dim)) X[1:11, ] else X[, , 1:11]
    fm_drop <- frechet_mean(M, X1)
    fm_w0 <- frechet_mean(M, X, weights = c(rep(1, 11), 0))
    expect_lt(mfd_dist(M, fm_drop$mean, fm_w0$mean), 1e-9, label = M$name)
    # the unweighted mean differs, so the weight did something
    expect_gt(mfd_dist(M, frechet_mean(M, X)$mean, fm_w0$mean), 1e-4, label = M$name)
    # weight 3 on point 1 equals three copies of point 1
    Xdup <- if (is.null(M$point_dim)) rbind(X, X[1, ], X[1, ]) else array(c(X, X[, , 1], X[, , 1]), c(M$point_dim, 14))
    fm_dup <- frechet_mean(M, Xdup)
    fm_w3 <- frechet_mean(M, X, weights = c(3, rep(1, 11)))
    expect_lt(mfd_dist(M, fm_dup$mean, fm_w3$mean), 1e-9, label = M$name)
    # weights are scale-free
    fm_w6 <- frechet_mean(M, X, weights = 2 * c(3, rep(1, 11)))
    expect_lt(mfd_dist(M, fm_w6$mean, fm_w3$mean), 1e-9, label = M$name)
  }
  S2 <- sphere(2)
  X <- rbind(c(0, 0, 1), c(1, 0, 0))
  expect_error(frechet_mean(S2, X, weights = c(-1, 2)), class = "dpmanifold_error")
  expect_error(frechet_mean(S2, X, weights = c(0, 0)), class = "dpmanifold_error")
  expect_error(frechet_mean(S2, X, weights = 1), class = "dpmanifold_error")
})

test_that("Kendall Frechet mean is invariant to rotating, scaling and translating the configurations", {
  set.seed(106)
  K <- kendall_shape(5)
  X <- fm_ball_sample(K, mfd_random_point(K), 15, 0.3)
  raw <- X
  for (i in seq_len(15)) {
    a <- runif(1, 0, 2 * pi)
    R <- matrix(c(cos(a), sin(a), -sin(a), cos(a)), 2)
    raw[, , i] <- runif(1, 0.5, 3) * X[, , i] %*% R + matrix(rnorm(2), 5, 2, byrow = TRUE)
  }
  fm1 <- frechet_mean(K, X)
  fm2 <- frechet_mean(K, raw)
  expect_lt(mfd_dist(K, fm1$mean, fm2$mean), 1e-9)
  expect_equal(fm1$objective, fm2$objective, tolerance = 1e-10)
})
