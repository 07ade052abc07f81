# Noise-free or noisy geodesic data on any manifold: y_i = exp_p(t_i v) (+ noise).
geodesic_data <- function(M, p, v, t, noise = 0) {
  n <- length(t)
  V <- if (is.null(M$point_dim)) outer(t, v) else array(outer(as.vector(v), t), c(dim(v), n))
  Y <- mfd_exp(M, p, V)
  if (noise > 0) Y <- mfd_exp(M, Y, noise * mfd_random_tangent(M, Y, n))
  Y
}

regression_cases <- function() {
  K <- kendall_shape(5)
  pk <- as_preshape(matrix(c(0, 1, 2, 1, 0, 0, 0, 1, 2, 1), 5))
  list(
    euclidean = list(M = euclidean(3), p = c(1, 0, 2), v = c(0.5, -1, 0.3)),
    sphere = list(M = sphere(2), p = c(0, 0, 1), v = c(0.7, 0.3, 0)),
    spd_ai = list(M = spd(2), p = matrix(c(2, 0.3, 0.3, 1), 2), v = matrix(c(0.8, 0.2, 0.2, -0.4), 2)),
    spd_le = list(M = spd(2, "log_euclidean"), p = matrix(c(2, 0.3, 0.3, 1), 2), v = matrix(c(0.8, 0.2, 0.2, -0.4), 2)),
    kendall = list(M = K, p = pk, v = mfd_project(K, pk, matrix(c(0.2, 0, -0.1, 0.1, 0, 0, 0.1, 0, -0.1, 0.05), 5)))
  )
}
shape_like <- function(x, like) if (is.null(dim(like))) as.vector(x) else array(x, dim(like))
