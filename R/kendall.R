#' Preshapes and alignment for Kendall's shape space
#'
#' `as_preshape(X)` centres a k x 2 configuration (or each slice of a
#' k x 2 x n array, the layout of the `shapes` package) and scales it to unit
#' Frobenius norm: the representation `kendall_shape()` works with.
#' `align_shapes(M, X, target)` rotates each preshape in `X` to its optimal
#' (Procrustes) rotation onto `target`, which leaves its shape unchanged.
#'
#' @param X A k x 2 matrix or k x 2 x n array of landmark coordinates.
#' @param M A `kendall_shape()` manifold.
#' @param target A preshape (k x 2) to align to.
#' @return A preshape or array of preshapes of the same dimensions.
#' @examples
#' tri <- rbind(c(0, 0), c(1, 0), c(0, 1))
#' z <- as_preshape(tri)
#' rot <- tri %*% matrix(c(cos(1), sin(1), -sin(1), cos(1)), 2)
#' M <- kendall_shape(3)
#' mfd_dist(M, z, as_preshape(rot * 5 + 2))   # 0: same shape
#' @export
as_preshape <- function(X) {
  check_finite_numeric(X, "X")
  dx <- dim(X)
  if (!(length(dx) %in% 2:3) || dx[2] != 2L || dx[1] < 3L) {
    abort_arg("X", "must be a k x 2 matrix or a k x 2 x n array with k >= 3 landmarks")
  }
  k <- dx[1]
  Y <- matrix(as.vector(X), 2L * k)
  Y <- apply(Y, 2, function(z) {
    z[1:k] <- z[1:k] - mean(z[1:k])
    z[k + 1:k] <- z[k + 1:k] - mean(z[k + 1:k])
    s <- sqrt(sum(z^2))
    if (!(s > 1e-12 * max(1, max(abs(z))))) NA_real_ * z else z / s
  })
  Y <- matrix(Y, 2L * k)
  degenerate <- which(is.na(Y[1, ]))
  if (length(degenerate)) {
    abort_arg("X", sprintf("contains a degenerate shape (all landmarks coincide) at index %d", degenerate[1]))
  }
  array(Y, dx)
}

#' @rdname as_preshape
#' @export
align_shapes <- function(M, X, target) {
  check_manifold(M)
  if (!inherits(M, "kendall_shape")) abort_arg("M", "must be a kendall_shape() manifold")
  Z <- as_points(M, X, "X")
  t0 <- as_points(M, target, "target")
  if (ncol(t0) != 1L) abort_arg("target", "must be a single preshape")
  out <- cpp_kendall_align(M, t0[, 1], Z)
  from_ambient(M, out, attr(Z, "single"))
}
