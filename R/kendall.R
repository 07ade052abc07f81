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
  check_required("X")
  preshape_slices(X)
}

# as_preshape()'s work. A configuration whose landmarks coincide (up to
# rounding) has no shape: an error by default; with `degenerate = "zero"`
# (the data of a release, R/bounds.R) it becomes the zero vector, which the
# release's validation takes for a record double precision does not hold
# and replaces by the public centre: no record is refused for its value
# and no message names one (SPEC section 6).
preshape_slices <- function(X, degenerate = c("error", "zero")) {
  degenerate <- match.arg(degenerate)
  check_finite_numeric(X, "X")
  dx <- dim(X)
  if (!(length(dx) %in% 2:3) || dx[2] != 2L || dx[1] < 3L) {
    abort_arg("X", "must be a k x 2 matrix or a k x 2 x n array with k >= 3 landmarks")
  }
  k <- dx[1]
  n <- if (length(dx) == 3L) dx[3] else 1L
  if (n == 0L) abort_arg("X", "holds no configurations")
  Y <- matrix(as.vector(X), 2L * k)
  # Each configuration is first divided by its largest |coordinate| (so
  # that neither 1e300 nor 1e-300 coordinates over- or underflow), then
  # centred and scaled to unit size. It is degenerate when its centred size
  # is at rounding level relative to its coordinates: the scale-free test
  # accepts a tiny triangle (1e-13) and rejects landmarks equal up to rounding.
  big <- apply(abs(Y), 2, max)
  Y <- sweep(Y, 2, ifelse(big > 0, big, 1), `/`)
  xs <- seq_len(k)
  Y[xs, ] <- sweep(Y[xs, , drop = FALSE], 2, colMeans(Y[xs, , drop = FALSE]))
  Y[k + xs, ] <- sweep(Y[k + xs, , drop = FALSE], 2, colMeans(Y[k + xs, , drop = FALSE]))
  s <- sqrt(colSums(Y^2))
  bad <- !(s > 1e-12)
  if (any(bad) && degenerate == "error") {
    abort_arg("X", sprintf("contains a degenerate shape (all landmarks coincide, up to rounding) at index %d", which(bad)[1]))
  }
  s[bad] <- 1
  Y[, bad] <- 0
  array(sweep(Y, 2, s, `/`), dx)
}

#' @rdname as_preshape
#' @export
align_shapes <- function(M, X, target) {
  check_required(c("M", "X", "target"))
  if (!inherits(M, "kendall_shape")) abort_arg("M", "must be a kendall_shape() manifold")
  Z <- as_points(M, X, "X")
  t0 <- as_points(M, target, "target")
  if (ncol(t0) != 1L) abort_arg("target", "must be a single preshape")
  out <- cpp_kendall_align(M, t0[, 1], Z)
  from_ambient(M, out, attr(Z, "single"))
}
