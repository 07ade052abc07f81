# The SPD manifolds run on a fixed-size symmetric eigensolver for k = 2..6
# (Eigen's for other k). These tests compare every size against matrix
# functions computed with R's eigen() (LAPACK), including the inputs that
# stress an eigensolver: repeated eigenvalues, diagonal and already
# tridiagonal matrices, a zero tangent vector and a wide eigenvalue spread.

r_sym_fun <- function(A, f) {
  e <- eigen((A + t(A)) / 2, symmetric = TRUE)
  e$vectors %*% (f(e$values) * t(e$vectors))
}
r_ai_exp <- function(p, v) {
  h <- r_sym_fun(p, sqrt); hi <- r_sym_fun(p, function(x) 1 / sqrt(x))
  h %*% r_sym_fun(hi %*% v %*% hi, exp) %*% h
}
r_ai_log <- function(p, q) {
  h <- r_sym_fun(p, sqrt); hi <- r_sym_fun(p, function(x) 1 / sqrt(x))
  h %*% r_sym_fun(hi %*% q %*% hi, log) %*% h
}
r_ai_dist <- function(p, q) {
  hi <- r_sym_fun(p, function(x) 1 / sqrt(x))
  sqrt(sum(log(eigen(hi %*% q %*% hi, symmetric = TRUE, only.values = TRUE)$values)^2))
}
random_orthogonal <- function(k) qr.Q(qr(matrix(rnorm(k * k), k)))
with_spectrum <- function(Q, values) Q %*% (values * t(Q))

hard_points <- function(k) {
  Q <- random_orthogonal(k)
  list(
    identity = diag(k),
    diagonal = diag(seq_len(k), k),
    repeated = with_spectrum(Q, c(rep(2, k - 1), 5)[seq_len(k)]),
    spread = with_spectrum(Q, exp(seq(-4, 4, length.out = k))),
    tridiagonal = diag(k) * 3 + (abs(row(diag(k)) - col(diag(k))) == 1) * 0.5,
    random = mfd_random_point(spd(k))
  )
}
hard_tangents <- function(k) {
  Q <- random_orthogonal(k)
  list(
    zero = matrix(0, k, k),
    repeated = with_spectrum(Q, c(rep(-0.7, k - 1), 1.1)[seq_len(k)]),
    diagonal = diag(seq(-1, 1, length.out = k), k),
    random = mfd_random_tangent(spd(k), diag(k))
  )
}

test_that("affine-invariant exp, log and dist agree with R's eigen() for k = 1..7", {
  set.seed(101)
  for (k in 1:7) {
    P <- spd(k)
    for (p in hard_points(k)) {
      h <- r_sym_fun(p, sqrt)
      for (V in hard_tangents(k)) {
        v <- h %*% V %*% h  # whitened V: same spectrum at every footpoint
        q <- mfd_exp(P, p, v)
        ref <- r_ai_exp(p, v)
        expect_equal(q, ref, tolerance = 1e-10, info = sprintf("exp, k = %d", k))
        expect_equal(mfd_log(P, p, ref), v, tolerance = 1e-9, info = sprintf("log, k = %d", k))
        expect_equal(mfd_dist(P, p, ref), r_ai_dist(p, ref), tolerance = 1e-10,
                     info = sprintf("dist, k = %d", k))
      }
      q <- mfd_random_point(P)
      expect_equal(mfd_log(P, p, q), r_ai_log(p, q), tolerance = 1e-9)
    }
  }
})

test_that("log-Euclidean exp at the identity and dist agree with R's eigen() for k = 1..7", {
  set.seed(102)
  for (k in 1:7) {
    L <- spd(k, "log_euclidean")
    pts <- hard_points(k)
    for (v in hard_tangents(k)) {
      expect_equal(mfd_exp(L, diag(k), v), r_sym_fun(v, exp), tolerance = 1e-10)
    }
    for (p in pts) for (q in pts) {
      ref <- sqrt(sum((r_sym_fun(p, log) - r_sym_fun(q, log))^2))
      expect_equal(mfd_dist(L, p, q), ref, tolerance = 1e-10, info = sprintf("k = %d", k))
    }
  }
})

test_that("wrapped draws are exp at the footpoint of the noisy log (003 Algorithm 1)", {
  # the sampler draws its d normals in coordinate order by Marsaglia's polar
  # method on R's uniforms, so polar_normals() after the same seed reproduces
  # the noise; the basis is mfd_tangent_basis()
  polar_normals <- function(n) {
    out <- numeric(0)
    while (length(out) < n) {
      repeat {
        u <- 2 * runif(1) - 1; v <- 2 * runif(1) - 1; s <- u^2 + v^2
        if (s < 1 && s > 0) break
      }
      f <- sqrt(-2 * log(s) / s)
      out <- c(out, u * f, v * f)
    }
    out[seq_len(n)]
  }
  for (k in c(2, 5, 7)) {
    P <- spd(k)
    set.seed(5)
    p0 <- mfd_random_point(P)
    m <- mfd_exp(P, p0, 0.4 * mfd_random_tangent(P, p0))
    set.seed(9)
    y <- rwrapped_gaussian(P, 1, m, sigma = 0.3, footpoint = p0)
    set.seed(9)
    z <- 0.3 * polar_normals(P$dim)
    B <- mfd_tangent_basis(P, p0)  # k x k x dim
    w <- mfd_log(P, p0, m) + matrix(matrix(B, k * k) %*% z, k)
    expect_equal(y, mfd_exp(P, p0, w), tolerance = 1e-10)
  }
})

# Ill-conditioned pairs (condition number up to 1e10, still points of the
# manifold). A whitened p^-1/2 q p^-1/2 spans the square of their range,
# beyond double precision: its eigendecomposition gave a NaN distance one
# way round (a false overflow error), 17% off the other.
ill_pair <- function(k, cond) {
  spec <- function() exp(seq(0, -log(cond), length.out = k)[sample(k)])
  lapply(1:2, function(i) { s <- with_spectrum(random_orthogonal(k), spec()); (s + t(s)) / 2 })
}

test_that("affine-invariant dist is symmetric and accurate for ill-conditioned pairs", {
  P <- spd(3)
  p <- diag(c(1, 1, 1e-10))
  q <- structure(c(0.60875432673575, -0.550976603517363, -0.609216610148496, -0.550976603517363,
                   0.517130112238186, 0.432643531073515, -0.609216610148496, 0.432643531073515,
                   1.37411556112606), dim = c(3L, 3L))
  # reference: the pencil's eigenvalues in 60-digit arithmetic (mpmath)
  expect_equal(mfd_dist(P, p, q), 32.7826881597151, tolerance = 1e-7)
  expect_equal(mfd_dist(P, q, p), 32.7826881597151, tolerance = 1e-7)
  set.seed(2)
  R <- random_orthogonal(3)
  q2 <- R %*% diag(c(2, 1e-6, 0.5)) %*% t(R); q2 <- (q2 + t(q2)) / 2
  p2 <- diag(c(1, 1, 1e-6))
  expect_equal(mfd_dist(P, p2, q2), 19.6705262805294, tolerance = 1e-10)
  expect_equal(mfd_dist(P, q2, p2), 19.6705262805294, tolerance = 1e-10)
  set.seed(7)
  for (cond in c(1e2, 1e6, 1e8, 1e10)) for (k in 2:7) {
    P <- spd(k)
    pq <- ill_pair(k, cond)
    near <- pq[[1]] + 1e-3 * mfd_random_tangent(P, pq[[1]])
    for (q in list(pq[[2]], (near + t(near)) / 2)) {
      d1 <- mfd_dist(P, pq[[1]], q)
      d2 <- mfd_dist(P, q, pq[[1]])
      expect_true(is.finite(d1) && is.finite(d2))
      expect_equal(d1, d2, tolerance = 1e-12, info = sprintf("k = %d, cond = %g", k, cond))
      # the batch kernel (other matrix types, other rounding): to the conditioning
      dm <- mfd_dist_matrix(P, array(q, c(k, k, 1)), array(pq[[1]], c(k, k, 1)))[1, 1]
      expect_lt(abs(dm - d1), 64 * .Machine$double.eps * cond * max(1, d1))
    }
    expect_equal(mfd_dist(P, pq[[1]], pq[[1]]), 0, tolerance = 1e-8)
  }
})

# Log-Euclidean transport is the identity in log coordinates, an isometry.
# Near a singular q it went through q -> log_p(q) -> exp_p, which moves q's
# small eigenvalues by eps / lambda_min relative; the norm at q weighs the
# result by 1 / lambda_min (norm 3.13 came out 3078 at lambda_min = 1e-12).
# What remains is the dense representation of a tangent at q: its component
# along lambda_min is held to eps |w| / lambda_min, so the norm to ~eps cond(q).
test_that("log-Euclidean transport preserves the norm near singular matrices", {
  set.seed(5)
  L <- spd(3, "log_euclidean")
  for (lam in c(1e-6, 1e-8, 1e-10, 1e-12)) for (rep in 1:5) {
    p <- diag(c(1, 1, lam))
    q <- with_spectrum(random_orthogonal(3), c(2, lam, 0.5)); q <- (q + t(q)) / 2
    w <- matrix(mfd_random_tangent(L, p, 1), 3)
    tol <- 16 * .Machine$double.eps * kappa(q, exact = TRUE)
    tw <- mfd_transport(L, p, q, w)
    expect_equal(mfd_norm(L, q, tw), mfd_norm(L, p, w), tolerance = tol, info = sprintf("lambda = %g", lam))
    expect_equal(mfd_transport(L, q, p, tw), w, tolerance = tol)
  }
})

test_that("above k = 32 the affine-invariant distance (divided-and-conquer SVD) stays symmetric and |log|", {
  # (one-sided Jacobi there cost 0.26 s a distance at k = 300, 6.7 times the
  # eigendecomposition it replaced; the SVD takes 0.046 s)
  set.seed(81)
  for (k in c(32L, 33L, 60L)) {
    M <- spd(k)
    A <- matrix(rnorm(k^2), k)
    B <- matrix(rnorm(k^2), k)
    p <- crossprod(A) / k + diag(k)
    q <- crossprod(B) / k + diag(k)
    d <- mfd_dist(M, p, q)
    expect_identical(d, mfd_dist(M, q, p))
    expect_equal(d, mfd_norm(M, p, mfd_log(M, p, q)), tolerance = 1e-10)
  }
})
