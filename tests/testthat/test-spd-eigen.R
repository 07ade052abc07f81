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
