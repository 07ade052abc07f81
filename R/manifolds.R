#' Manifolds supported by dpmanifold
#'
#' Constructors for the six manifolds of the package. Each returns an object
#' of class `c("<name>", "manifold")` that is passed as the first argument
#' `M` to every geometric function ([mfd_exp()], [mfd_log()], ...: see
#' [geometry]) and to the estimators ([frechet_mean()],
#' [geodesic_regression()]) and private releases ([dp_frechet_mean()],
#' [dp_geodesic_regression()]), whose public radius must be below
#' [max_radius()]. Accepted forms of points (data frames, raw Kendall
#' configurations): [input_forms].
#'
#' * `euclidean(d)`: \eqn{R^d}; points are numeric vectors of length `d` (or
#'   an n x d matrix, one point per row).
#' * `sphere(d)`: the unit sphere \eqn{S^d} in \eqn{R^{d+1}} (curvature 1,
#'   injectivity radius pi). `sphere(2)` holds directions in 3D.
#' * `spd(k, metric)`: k x k symmetric positive-definite matrices with the
#'   affine-invariant metric \eqn{<u,v>_p = tr(p^{-1} u p^{-1} v)} (Hadamard,
#'   curvature in \[-1/2, 0\]) or the log-Euclidean metric (flat). Points are
#'   k x k matrices or k x k x n arrays. Every operation takes a symmetric
#'   eigendecomposition and a few matrix products, O(k^3): about 0.07 s for
#'   a logarithm at k = 300 and 3 s at k = 1000. An interrupt or a time limit
#'   reaches them inside the decomposition and the products; only the
#'   affine-invariant distance's singular values (Eigen's SVD, from k = 33)
#'   run to the end first, about 1 s at k = 1000.
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
#'   are refused, and [mfd_exp()] refuses to return one (class
#'   `dpmanifold_not_representable`); other computed points (release draws,
#'   fits) are returned up to \eqn{x_0 = 10^{100}}.
#'
#' The formulas are those of Reimherr, Bharath and Soto (2021) and Soto et
#' al. (2022); the documents shipped in
#' `system.file("proofs", package = "dpmanifold")` derive what the
#' mechanisms use of them.
#'
#' Each manifold is declared once to the R layer by an internal
#' registration (its layout, labels, default mechanism); its geometry
#' (curvature bounds, injectivity radius) comes from the C++ core. Adding a
#' manifold takes one C++ header, one factory line and one registration:
#' see `DEVELOPING.md` in the installed package
#' (`system.file("DEVELOPING.md", package = "dpmanifold")`).
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
  check_required("d")
  new_manifold("euclidean", d)
}

#' @rdname manifolds
#' @export
sphere <- function(d) {
  check_required("d")
  new_manifold("sphere", d)
}

#' @rdname manifolds
#' @export
spd <- function(k, metric = c("affine_invariant", "log_euclidean")) {
  check_required("k")
  k <- check_size(k, "k", "spd_affine_invariant")
  metric <- check_choice(metric)
  new_manifold(paste0("spd_", metric), k)
}

#' @rdname manifolds
#' @export
kendall_shape <- function(k) {
  check_required("k")
  new_manifold("kendall_shape", k)
}

#' @rdname manifolds
#' @export
hyperbolic <- function(d) {
  check_required("d")
  new_manifold("hyperbolic", d)
}

#' @export
print.manifold <- function(x, ...) {
  check_manifold(x, "x")
  cat("<manifold>", manifold_long_label(x), "\n")
  cat(sprintf("  dimension %d (ambient %d), curvature in [%g, %g], injectivity radius %s\n",
              x$dim, x$ambient_dim, x$kappa_min, x$kappa_max, format(x$injectivity_radius, digits = 4)))
  invisible(x)
}

# ---------------------------------------------------------------------------
# Registrations (see register_manifold() in aaa-registry.R). The order is the
# order of the property suite.
# ---------------------------------------------------------------------------

register_manifold(
  "euclidean", class = "euclidean", constructor = "euclidean", size_arg = "d",
  layout = function(k) list(dim = k, ambient_dim = k, point_dim = NULL),
  label = function(M) sprintf("Euclidean space R^%d", M$size),
  short_label = function(M) sprintf("R^%d", M$size),
  checks = list(sizes = 3, tol = 1e-10, radius = 3, lengths = c(0.5, 2, 5)))

register_manifold(
  "sphere", class = "sphere", constructor = "sphere", size_arg = "d",
  layout = function(k) list(dim = k, ambient_dim = k + 1, point_dim = NULL),
  label = function(M) sprintf("Unit sphere S^%d in R^%d", M$size, M$size + 1L),
  short_label = function(M) sprintf("S^%d", M$size),
  checks = list(sizes = c(2, 5), tol = 1e-10, radius = 0.95 * pi, lengths = c(0.3, 1, 2.5)))

# SPD matrices, one registration per metric (same layout, class "spd" and
# constructor; the metric is a field of the object). Eigenvalues beyond
# e^{+-100} leave no room for the matrix algebra, hence max_distance = 100.
register_spd <- function(metric, metric_label) {
  register_manifold(
    paste0("spd_", metric), class = "spd", constructor = "spd", size_arg = "k",
    layout = function(k) list(dim = k * (k + 1) / 2, ambient_dim = k * k, point_dim = c(k, k)),
    fields = list(metric = metric),
    label = function(M) sprintf("SPD(%d) matrices, %s metric", M$size, metric_label),
    short_label = function(M) sprintf("SPD(%d), %s", M$size, metric_label),
    max_distance = 100,
    checks = list(sizes = 3, tol = 1e-9, radius = 2.5, lengths = c(0.3, 1, 2)))
}
register_spd("affine_invariant", "affine-invariant")
register_spd("log_euclidean", "log-Euclidean")

# Kendall's shape space: data may be raw k x 2 configurations, turned into
# preshapes before the membership check; KNG is the more accurate default.
register_manifold(
  "kendall_shape", class = "kendall_shape", constructor = "kendall_shape", size_arg = "k",
  layout = function(k) list(dim = 2 * k - 4, ambient_dim = 2 * k, point_dim = c(k, 2)),
  min_size = 3,
  label = function(M) sprintf("Kendall planar shape space, %d landmarks", M$size),
  short_label = function(M) sprintf("Kendall shape space (%d landmarks)", M$size),
  default_mechanism = "kng",
  prepare_data = function(M, X, degenerate = "error") {
    if (length(dim(X)) %in% 2:3 && dim(X)[1] == M$size && dim(X)[2] == 2L) preshape_slices(X, degenerate) else X
  },
  checks = list(sizes = c(3, 6), tol = 1e-10, radius = 0.95 * pi / 2, lengths = c(0.2, 0.7, 1.4)))

# Hyperbolic space, hyperboloid model: coordinates grow like e^t at distance
# t from the origin and carry a relative error of 1e-16 x0, hence
# max_distance = 230 for computed points (input points are refused beyond
# x0 = 1e12 by the C++ membership check).
register_manifold(
  "hyperbolic", class = "hyperbolic", constructor = "hyperbolic", size_arg = "d",
  layout = function(k) list(dim = k, ambient_dim = k + 1, point_dim = NULL),
  label = function(M) sprintf("Hyperbolic space H^%d, hyperboloid model in R^%d", M$size, M$size + 1L),
  short_label = function(M) sprintf("H^%d", M$size),
  max_distance = 230,
  checks = list(sizes = c(2, 5), tol = 1e-9, radius = 3, lengths = c(0.3, 1, 2.5)))
