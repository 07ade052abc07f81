#' Riemannian geometry on a manifold
#'
#' The primitives every estimator in the package is built from, vectorised
#' over points. The manifold `M` always comes first. Points and tangent
#' vectors use the layout of `M` (see [manifolds]): a vector or an n-row
#' matrix for `euclidean()`/`sphere()`, a k x k matrix or k x k x n array for
#' `spd()`, a k x 2 matrix or k x 2 x n array for `kendall_shape()`. Where
#' one argument holds one point and another holds n, the single one is
#' recycled.
#'
#' * `mfd_exp(M, p, v)`: the point reached from `p` along the geodesic with
#'   initial velocity `v`; a point the other functions would refuse as input
#'   (on `hyperbolic()`, \eqn{x_0 > 10^{12}}) is an error of class
#'   `dpmanifold_not_representable`.
#' * `mfd_log(M, p, q)`: the inverse, the tangent vector at `p` pointing to
#'   `q` with length `mfd_dist(M, p, q)`. At the cut locus (antipodal points
#'   of the sphere) the log is not unique; a fixed direction of length pi is
#'   returned. On Kendall's shape space `q` is first rotated into optimal
#'   alignment with `p`, so `mfd_exp(M, p, mfd_log(M, p, q))` is the aligned
#'   representative of the shape of `q`.
#' * `mfd_dist()`: geodesic distance (on the sphere computed with `atan2`,
#'   accurate near 0 and pi); `mfd_dist_matrix()` all pairs.
#' * `mfd_inner()`, `mfd_norm()`: the Riemannian metric at `p`.
#' * `mfd_transport(M, p, q, v)`: parallel transport of `v` from `p` to `q`
#'   along the minimising geodesic.
#' * `mfd_project(M, p, v)`: orthogonal projection of an ambient vector onto
#'   the tangent space at `p`.
#' * `mfd_belongs(M, p, tol)`: membership test for each point.
#'
#' @param M A manifold object, see [manifolds].
#' @param p,q Points on `M`.
#' @param u,v Tangent vectors at `p` (for `mfd_project()`, any ambient vector).
#' @param tol Tolerance for `mfd_belongs()`.
#' @return Points, tangent vectors or numbers, in the layout of `M`.
#' @examples
#' S2 <- sphere(2)
#' p <- c(0, 0, 1); q <- c(1, 0, 0)
#' v <- mfd_log(S2, p, q)
#' mfd_norm(S2, p, v)            # pi / 2
#' mfd_exp(S2, p, v)             # q
#' mfd_dist(S2, p, rbind(q, c(0, 1, 0), p))
#' P <- spd(2)
#' mfd_dist(P, diag(2), diag(c(exp(1), 1)))  # 1
#' @name geometry
NULL

#' @rdname geometry
#' @export
mfd_exp <- function(M, p, v) {
  check_required(c("M", "p", "v"))
  P <- as_points(M, p, "p")
  V <- as_tangents(M, P, v, "v")
  out <- check_representable(M, cpp_binary_op(M, "exp", P, V), "v", "output")
  from_ambient(M, out, is_single(P, V))
}

#' @rdname geometry
#' @export
mfd_log <- function(M, p, q) {
  check_required(c("M", "p", "q"))
  P <- as_points(M, p, "p")
  Q <- as_points(M, q, "q")
  check_recycle(P, Q, "q")
  out <- check_representable(M, cpp_binary_op(M, "log", P, Q), "q", "tangent")
  from_ambient(M, out, is_single(P, Q))
}

#' @rdname geometry
#' @export
mfd_dist <- function(M, p, q) {
  check_required(c("M", "p", "q"))
  P <- as_points(M, p, "p")
  Q <- as_points(M, q, "q")
  check_recycle(P, Q, "q")
  check_representable(M, cpp_dist(M, P, Q), "q", "number")
}

#' @rdname geometry
#' @param X,Y Sets of points; `mfd_dist_matrix()` returns the matrix of
#'   distances between each point of `X` and each point of `Y`.
#' @export
mfd_dist_matrix <- function(M, X, Y = X) {
  check_required(c("M", "X"))
  # with Y left out the distances are among the points of X: blame X
  ya <- if (missing(Y)) "X" else "Y"
  Xa <- as_points(M, X, "X")
  Ya <- if (missing(Y)) Xa else as_points(M, Y, "Y")
  check_alloc(ncol(Xa), ncol(Ya), ya)
  check_representable(M, cpp_dist_matrix(M, Xa, Ya), ya, "number")
}

#' @rdname geometry
#' @export
mfd_inner <- function(M, p, u, v) {
  check_required(c("M", "p", "u", "v"))
  P <- as_points(M, p, "p")
  U <- as_tangents(M, P, u, "u")
  V <- as_tangents(M, P, v, "v")
  check_recycle(U, V, "v")
  check_representable(M, cpp_inner(M, P, U, V), "v", "number")
}

#' @rdname geometry
#' @export
mfd_norm <- function(M, p, v) {
  check_required(c("M", "p", "v"))
  P <- as_points(M, p, "p")
  V <- as_tangents(M, P, v, "v")
  # |v| = s |v / s| with s the largest |entry|: the squared norm of a long
  # (or very short) vector would over- or underflow on its own
  s <- apply(abs(V), 2, max)
  s[s == 0 | (s > 1e-100 & s < 1e100)] <- 1   # the plain formula in the normal range
  Vs <- if (all(s == 1)) V else sweep(V, 2, s, `/`)
  check_representable(M, s * sqrt(pmax(cpp_inner(M, P, Vs, Vs), 0)), "v", "number")
}

#' @rdname geometry
#' @export
mfd_transport <- function(M, p, q, v) {
  check_required(c("M", "p", "q", "v"))
  P <- as_points(M, p, "p")
  Q <- as_points(M, q, "q")
  V <- as_tangents(M, P, v, "v")
  check_recycle_all(list(p = P, q = Q, v = V))
  out <- check_representable(M, cpp_ternary_op(M, "transport", P, Q, V), "v", "tangent")
  from_ambient(M, out, is_single(P, Q, V))
}

#' @rdname geometry
#' @export
mfd_project <- function(M, p, v) {
  check_required(c("M", "p", "v"))
  P <- as_points(M, p, "p")
  V <- to_ambient(M, v, "v")
  check_recycle(P, V, "v")
  out <- check_representable(M, cpp_binary_op(M, "project", P, V), "v", "tangent")
  from_ambient(M, out, is_single(P, V))
}

#' @rdname geometry
#' @export
mfd_belongs <- function(M, p, tol = 1e-8) {
  check_required(c("M", "p"))
  check_positive_number(tol, "tol")
  X <- to_ambient(M, p, "p")
  !nzchar(cpp_check_points(M, X, tol))
}

#' Random points and tangent vectors
#'
#' Draws from R's random number generator, so `set.seed()` reproduces them
#' (Gaussian variates by Marsaglia's polar method on R's uniform stream).
#' `mfd_random_point()` samples a spread-out reference law: standard
#' Gaussian on `euclidean()`, uniform on `sphere()` and on Kendall's shape
#' space (preshape of an iid Gaussian configuration), and the matrix
#' exponential of a standard Gaussian symmetric matrix on `spd(k)`, scaled
#' by `4 / sqrt(k)` when k > 16 (so that the condition number stays near
#' 1e5 instead of growing like `exp(2 sqrt(2 k))`: 1e17 at k = 200, a
#' matrix [spd()] refuses as numerically singular), the
#' exponential at the origin of a standard Gaussian tangent vector on
#' `hyperbolic(d)`, scaled by `4 / sqrt(d)` when d > 16 (so that points stay
#' at distance about 4 from the origin, which [hyperbolic()] accepts as
#' input, instead of about `sqrt(d)`: `x0` near 1e13 at d = 1000).
#' `mfd_random_tangent()` draws isotropic standard Gaussian tangent vectors at
#' `p` (coordinates iid N(0, 1) in any orthonormal basis of the tangent
#' space). `mfd_tangent_basis()` returns an orthonormal basis of the tangent
#' space at `p`, one basis vector per point slot of the layout.
#'
#' @param M A manifold object, see [manifolds].
#' @param p A point on `M` (or one point per draw).
#' @param n Number of draws.
#' @return Points or tangent vectors in the layout of `M` (n of them; a
#'   single one in single-point form when `n = 1`).
#' @examples
#' mfd_random_point(sphere(2), 3)
#' mfd_random_tangent(spd(2), diag(2))
#' mfd_tangent_basis(sphere(2), c(0, 0, 1))
#' @export
mfd_random_point <- function(M, n = 1) {
  check_required("M")
  n <- check_count(n, "n")
  check_alloc(n, M$ambient_dim, "n")
  from_ambient(M, cpp_random_point(M, n), single = n == 1L)
}

#' @rdname mfd_random_point
#' @export
mfd_random_tangent <- function(M, p, n = 1) {
  check_required(c("M", "p"))
  n <- check_count(n, "n")
  check_alloc(n, M$ambient_dim, "n")
  P <- as_points(M, p, "p")
  if (ncol(P) != 1L && ncol(P) != n) abort_arg("n", "must equal the number of points in `p` (or `p` must be one point)")
  from_ambient(M, cpp_random_tangent(M, P, n), single = n == 1L)
}

#' @rdname mfd_random_point
#' @export
mfd_tangent_basis <- function(M, p) {
  check_required(c("M", "p"))
  P <- as_points(M, p, "p")
  if (ncol(P) != 1L) abort_arg("p", "must be a single point")
  check_alloc(M$dim, M$ambient_dim, "M")
  from_ambient(M, cpp_tangent_basis(M, P[, 1]), single = FALSE)
}

#' Differentials of the exponential map and their adjoints (Jacobi fields)
#'
#' `mfd_dexp(M, p, v, u, wrt)` is the derivative of \eqn{Exp_p(v)} in the
#' direction `u`, with respect to the footpoint (`wrt = "p"`, with `v`
#' carried by parallel transport) or to the shooting vector (`wrt = "v"`); it
#' is a tangent vector at `mfd_exp(M, p, v)`. `mfd_dexp_adjoint(M, p, v, w,
#' wrt)` is its adjoint: it maps a tangent vector `w` at `mfd_exp(M, p, v)`
#' back to the tangent space at `p`. These are the Jacobi-field terms of the
#' geodesic-regression gradients (Fletcher 2013; Kulkarni and Soto, eq. 5-8):
#' on the symmetric spaces of this package they are "transport, then scale
#' each curvature eigen-component" by cos/cosh (footpoint) or sin(x)/x,
#' sinh(x)/x (shooting vector).
#'
#' @param M A manifold object, see [manifolds].
#' @param p Footpoint on `M`.
#' @param v Shooting vector, a tangent vector at `p`.
#' @param u Tangent vector at `p` (direction of differentiation).
#' @param w Tangent vector at `mfd_exp(M, p, v)`.
#' @param wrt `"p"` or `"v"`.
#' @return Tangent vectors, in the layout of `M`.
#' @examples
#' S2 <- sphere(2)
#' p <- c(0, 0, 1); v <- c(1, 0, 0); y <- mfd_exp(S2, p, v)
#' w <- mfd_project(S2, y, c(0, 1, 0))
#' mfd_dexp_adjoint(S2, p, v, w, wrt = "p")   # cos(1) * (0, 1, 0)
#' @export
mfd_dexp <- function(M, p, v, u, wrt = c("p", "v")) {
  check_required(c("M", "p", "v", "u"))
  wrt <- check_choice(wrt)
  P <- as_points(M, p, "p")
  V <- as_tangents(M, P, v, "v")
  U <- as_tangents(M, P, u, "u")
  check_recycle_all(list(p = P, v = V, u = U))
  out <- check_representable(M, cpp_ternary_op(M, paste0("dexp_", wrt), P, V, U), "v", "tangent")
  from_ambient(M, out, is_single(P, V, U))
}

#' @rdname mfd_dexp
#' @export
mfd_dexp_adjoint <- function(M, p, v, w, wrt = c("p", "v")) {
  check_required(c("M", "p", "v", "w"))
  wrt <- check_choice(wrt)
  P <- as_points(M, p, "p")
  V <- as_tangents(M, P, v, "v")
  Y <- check_representable(M, cpp_binary_op(M, "exp", P, V), "v", "output")
  W <- as_tangents(M, Y, w, "w")
  check_recycle_all(list(p = P, v = V, w = W))
  out <- check_representable(M, cpp_ternary_op(M, paste0("adjoint_dexp_", wrt), P, V, W), "v", "tangent")
  from_ambient(M, out, is_single(P, V, W))
}
