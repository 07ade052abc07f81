new_manifold <- function(type, size, class_name, point_dim = NULL, ...) {
  M <- list(type = type, size = as.integer(size))
  info <- cpp_manifold_info(M)
  M <- c(M, info[c("name", "dim", "ambient_dim", "kappa_min", "kappa_max",
                   "injectivity_radius", "hadamard")],
         list(point_dim = point_dim, ...))
  structure(M, class = c(class_name, "manifold"))
}

# Sizes: whole numbers from the manifold's minimum up to the largest size
# whose ambient dimension (d + 1, k^2, 2k) still fits R's integers.
check_size <- function(x, arg, type, call = sys.call(-1)) {
  lay <- manifold_layout(type, 0)
  check_count(x, arg, min = lay$min, max = lay$max, call = call)
}

#' Manifolds supported by dpmanifold
#'
#' Constructors for the six manifolds of the package. Each returns an object
#' of class `c("<name>", "manifold")` that is passed as the first argument
#' `M` to every geometric function (`mfd_exp()`, `mfd_log()`, ...) and to
#' the estimators and private mechanisms.
#'
#' * `euclidean(d)`: \eqn{R^d}; points are numeric vectors of length `d` (or
#'   an n x d matrix, one point per row).
#' * `sphere(d)`: the unit sphere \eqn{S^d} in \eqn{R^{d+1}} (curvature 1,
#'   injectivity radius pi). `sphere(2)` holds directions in 3D.
#' * `spd(k, metric)`: k x k symmetric positive-definite matrices with the
#'   affine-invariant metric \eqn{<u,v>_p = tr(p^{-1} u p^{-1} v)} (Hadamard,
#'   curvature in \[-1/2, 0\]) or the log-Euclidean metric (flat). Points are
#'   k x k matrices or k x k x n arrays.
#' * `kendall_shape(k)`: Kendall's planar shape space of `k >= 3` landmarks
#'   (curvature in \[1, 4\], injectivity radius pi/2). Points are preshapes:
#'   k x 2 configurations, centred and of unit size (see [as_preshape()]);
#'   several are a k x 2 x n array as in the `shapes` package.
#' * `hyperbolic(d)`: hyperbolic space \eqn{H^d} (curvature -1, Hadamard) in
#'   the hyperboloid model: points are vectors \eqn{x} of length `d + 1`
#'   on the upper sheet \eqn{-x_0^2 + x_1^2 + \dots + x_d^2 = -1},
#'   \eqn{x_0 > 0} (or an n x (d + 1) matrix), the layout of the `GeodRegr`
#'   package; tangent vectors at `p` are Minkowski-orthogonal to `p`. See
#'   [hyperbolic_to_poincare()] for the Poincare ball and the upper
#'   half-plane. Distances and logarithms are computed without cancellation
#'   (accurate near 0, unlike \eqn{arcosh(-<p, q>)}), but the model itself
#'   holds a point at distance t from the origin with coordinates of size
#'   \eqn{e^t/2}, so every quantity there is accurate to about
#'   \eqn{10^{-16} e^t}: input points with \eqn{x_0 > 10^{12}} (t > 28.3)
#'   are refused; computed points are returned up to \eqn{x_0 = 10^{100}}.
#'
#' The formulas are those of Reimherr, Bharath and Soto (2021) and Soto et
#' al. (2022), summarised in the package's SPEC.
#'
#' @param d Intrinsic dimension.
#' @param k Matrix size (SPD) or number of landmarks (Kendall).
#' @param metric `"affine_invariant"` (default) or `"log_euclidean"`.
#' @return A manifold object: a list with `dim` (intrinsic dimension),
#'   `ambient_dim`, `kappa_min`, `kappa_max`, `injectivity_radius` and
#'   `hadamard`.
#' @examples
#' S2 <- sphere(2)
#' S2
#' spd(3, metric = "log_euclidean")
#' kendall_shape(8)$dim
#' hyperbolic(2)
#' @name manifolds
NULL

#' @rdname manifolds
#' @export
euclidean <- function(d) {
  d <- check_size(d, "d", "euclidean")
  new_manifold("euclidean", d, "euclidean")
}

#' @rdname manifolds
#' @export
sphere <- function(d) {
  d <- check_size(d, "d", "sphere")
  new_manifold("sphere", d, "sphere")
}

#' @rdname manifolds
#' @export
spd <- function(k, metric = c("affine_invariant", "log_euclidean")) {
  k <- check_size(k, "k", "spd_affine_invariant")
  metric <- check_choice(metric)
  new_manifold(paste0("spd_", metric), k, "spd", point_dim = c(k, k), metric = metric)
}

#' @rdname manifolds
#' @export
kendall_shape <- function(k) {
  k <- check_size(k, "k", "kendall_shape")
  new_manifold("kendall_shape", k, "kendall_shape", point_dim = c(k, 2L))
}

#' @rdname manifolds
#' @export
hyperbolic <- function(d) {
  d <- check_size(d, "d", "hyperbolic")
  new_manifold("hyperbolic", d, "hyperbolic")
}

#' @export
print.manifold <- function(x, ...) {
  check_manifold(x, "x")
  label <- switch(x$type,
    euclidean = sprintf("Euclidean space R^%d", x$size),
    sphere = sprintf("Unit sphere S^%d in R^%d", x$size, x$size + 1L),
    spd_affine_invariant = sprintf("SPD(%d) matrices, affine-invariant metric", x$size),
    spd_log_euclidean = sprintf("SPD(%d) matrices, log-Euclidean metric", x$size),
    kendall_shape = sprintf("Kendall planar shape space, %d landmarks", x$size),
    hyperbolic = sprintf("Hyperbolic space H^%d, hyperboloid model in R^%d", x$size, x$size + 1L)
  )
  cat("<manifold>", label, "\n")
  cat(sprintf("  dimension %d (ambient %d), curvature in [%g, %g], injectivity radius %s\n",
              x$dim, x$ambient_dim, x$kappa_min, x$kappa_max, format(x$injectivity_radius, digits = 4)))
  invisible(x)
}
