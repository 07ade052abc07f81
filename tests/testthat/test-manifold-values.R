test_that("closed-form values hold on each manifold", {
  E <- euclidean(2)
  expect_equal(mfd_dist(E, c(0, 0), c(3, 4)), 5)
  expect_equal(mfd_exp(E, c(1, 1), c(2, -1)), c(3, 0))

  S <- sphere(2)
  e1 <- c(1, 0, 0); e2 <- c(0, 1, 0); e3 <- c(0, 0, 1)
  expect_equal(mfd_dist(S, e1, e2), pi / 2, tolerance = 1e-14)
  expect_equal(mfd_log(S, e1, e2), c(0, pi / 2, 0), tolerance = 1e-14)
  expect_equal(mfd_exp(S, e3, c(pi / 2, 0, 0)), e1, tolerance = 1e-14)
  # atan2 keeps tiny angles accurate where acos would return 0
  tiny <- c(cos(1e-9), sin(1e-9), 0)
  expect_equal(mfd_dist(S, e1, tiny), 1e-9, tolerance = 1e-12)
  # cut locus: a documented direction of length pi, not NaN
  lv <- mfd_log(S, e1, -e1)
  expect_false(anyNA(lv))
  expect_equal(sqrt(sum(lv^2)), pi)
  expect_equal(sum(lv * e1), 0)
  expect_equal(mfd_exp(S, e1, lv), -e1, tolerance = 1e-12)
  # transport of a vector orthogonal to the plane of motion is unchanged
  expect_equal(mfd_transport(S, e1, e2, e3), e3, tolerance = 1e-14)
  expect_equal(mfd_transport(S, e1, e2, e2), -e1, tolerance = 1e-14)

  P <- spd(2)
  expect_equal(mfd_dist(P, diag(2), diag(c(exp(1), 1))), 1, tolerance = 1e-12)
  A <- diag(c(2, 3)); B <- diag(c(5, 7))
  expect_equal(mfd_dist(P, A, B), sqrt(log(5 / 2)^2 + log(7 / 3)^2), tolerance = 1e-12)
  # affine invariance: d(g A g', g B g') = d(A, B)
  g <- matrix(c(1, 2, 0.5, 3), 2)
  expect_equal(mfd_dist(P, g %*% A %*% t(g), g %*% B %*% t(g)), mfd_dist(P, A, B), tolerance = 1e-10)
  expect_equal(mfd_norm(P, A, diag(c(2, 3))), sqrt(2), tolerance = 1e-12)
  LE <- spd(2, "log_euclidean")
  expect_equal(mfd_dist(LE, diag(2), diag(exp(c(2, 3)))), sqrt(13), tolerance = 1e-12)
  R <- matrix(c(cos(0.3), sin(0.3), -sin(0.3), cos(0.3)), 2)
  C <- R %*% diag(c(4, 0.5)) %*% t(R)
  expect_equal(mfd_dist(LE, diag(2), C), sqrt(log(4)^2 + log(0.5)^2), tolerance = 1e-12)
  expect_equal(mfd_exp(LE, diag(2), diag(c(1, 2))), diag(exp(c(1, 2))), tolerance = 1e-12)

  K <- kendall_shape(3)
  tri <- rbind(c(0, 0), c(1, 0), c(0.2, 0.9))
  rot <- matrix(c(cos(2), sin(2), -sin(2), cos(2)), 2)
  z <- as_preshape(tri)
  w <- as_preshape(3 * tri %*% rot + 7)
  expect_lt(mfd_dist(K, z, w), 1e-7)
  # against an independent complex-arithmetic computation of acos|<z, w>|
  eq <- rbind(c(0, 0), c(1, 0), c(0.5, sqrt(3) / 2))
  rt <- rbind(c(0, 0), c(1, 0), c(0, 1))
  cz <- function(x) { x <- as_preshape(x); complex(real = x[, 1], imaginary = x[, 2]) }
  expected <- acos(Mod(sum(Conj(cz(eq)) * cz(rt))))
  expect_equal(mfd_dist(K, as_preshape(eq), as_preshape(rt)), expected, tolerance = 1e-12)
  # reflection of an asymmetric triangle is a different planar shape
  expect_gt(mfd_dist(K, z, as_preshape(tri %*% diag(c(1, -1)))), 0.1)
  # alignment keeps the shape and makes the Hermitian product real
  a <- align_shapes(K, as_preshape(tri %*% rot), z)
  expect_lt(sum((a - z)^2), 1e-12)
})

test_that("vectorised calls recycle a single point and return the layout", {
  S <- sphere(2)
  set.seed(1)
  X <- mfd_random_point(S, 5)
  expect_equal(dim(X), c(5L, 3L))
  d <- mfd_dist(S, c(0, 0, 1), X)
  expect_length(d, 5)
  expect_equal(d[3], mfd_dist(S, c(0, 0, 1), X[3, ]))
  D <- mfd_dist_matrix(S, X)
  expect_equal(dim(D), c(5L, 5L))
  expect_equal(D, t(D), tolerance = 1e-14)
  V <- mfd_log(S, c(0, 0, 1), X)
  expect_equal(dim(V), c(5L, 3L))
  P <- spd(2)
  Y <- mfd_random_point(P, 4)
  expect_equal(dim(Y), c(2L, 2L, 4L))
  expect_equal(dim(mfd_log(P, diag(2), Y)), c(2L, 2L, 4L))
  expect_equal(dim(mfd_random_point(kendall_shape(4), 3)), c(4L, 2L, 3L))
  expect_equal(mfd_belongs(S, rbind(c(1, 0, 0), c(1, 1, 0))), c(TRUE, FALSE))
})

test_that("random draws follow set.seed", {
  for (M in list(euclidean(2), sphere(3), spd(3), kendall_shape(5))) {
    set.seed(42); a <- mfd_random_point(M, 3)
    set.seed(42); b <- mfd_random_point(M, 3)
    c2 <- mfd_random_point(M, 3)
    expect_identical(a, b)
    expect_false(isTRUE(all.equal(a, c2)))
    p <- mfd_random_point(M)
    set.seed(3); u <- mfd_random_tangent(M, p, 2)
    set.seed(3); u2 <- mfd_random_tangent(M, p, 2)
    expect_identical(u, u2)
  }
})

test_that("random tangent vectors are isotropic standard Gaussian", {
  # E|v|^2 = dim; with 4000 draws the standard error of the mean is
  # sqrt(2 dim / 4000), so 5 standard errors is a safe band.
  set.seed(11)
  for (M in list(sphere(2), spd(3), spd(2, "log_euclidean"), kendall_shape(5))) {
    p <- mfd_random_point(M)
    V <- mfd_random_tangent(M, p, 4000)
    n2 <- mfd_norm(M, p, V)^2
    expect_lt(abs(mean(n2) - M$dim), 5 * sqrt(2 * M$dim / 4000))
  }
})

test_that("sphere and hyperbolic space share the constant-curvature facts (SpaceForm)", {
  # Jacobi fields in closed form at the pole/origin, v = L e1: along e1 the
  # differential of exp is the geodesic's velocity, across it s_K(L)/L
  # (wrt v) and c_K(L) (wrt p), with (s, c) = (sin, cos) on S^2 and
  # (sinh, cosh) on H^2
  L <- 0.9
  S <- sphere(2)
  n <- c(0, 0, 1)
  expect_equal(mfd_dexp(S, n, c(L, 0, 0), c(0, 1, 0), "v"), c(0, sin(L) / L, 0), tolerance = 1e-13)
  expect_equal(mfd_dexp(S, n, c(L, 0, 0), c(0, 1, 0), "p"), c(0, cos(L), 0), tolerance = 1e-13)
  expect_equal(mfd_dexp(S, n, c(L, 0, 0), c(1, 0, 0), "v"), c(cos(L), 0, -sin(L)), tolerance = 1e-13)
  expect_equal(mfd_dexp(S, n, c(L, 0, 0), c(1, 0, 0), "p"), c(cos(L), 0, -sin(L)), tolerance = 1e-13)
  H <- hyperbolic(2)
  o <- c(1, 0, 0)
  expect_equal(mfd_dexp(H, o, c(0, L, 0), c(0, 1, 0), "p"), c(sinh(L), cosh(L), 0), tolerance = 1e-13)
  # at v = 0 the differential is the identity on both
  expect_equal(mfd_dexp(S, n, c(0, 0, 0), c(0, 1, 0), "v"), c(0, 1, 0))
  expect_equal(mfd_dexp(H, o, c(0, 0, 0), c(0, 0, 1), "p"), c(0, 0, 1))
  # sizes and curvature from d and K
  for (d in c(1, 4)) {
    expect_equal(c(sphere(d)$dim, sphere(d)$ambient_dim, sphere(d)$kappa_min, sphere(d)$kappa_max), c(d, d + 1, 1, 1))
    expect_equal(c(hyperbolic(d)$dim, hyperbolic(d)$ambient_dim, hyperbolic(d)$kappa_min, hyperbolic(d)$kappa_max),
                 c(d, d + 1, -1, -1))
  }
  # the C++ constructor's own check (behind the R one) is a classed error
  for (M in list(sphere(2), hyperbolic(2))) {
    M$size <- 0L
    expect_error(dpm$cpp_manifold_info(M), "positive integer", class = "dpmanifold_error")
  }
})
