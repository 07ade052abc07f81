# Hyperbolic space: conversions between the hyperboloid model (the layout of
# hyperbolic()) and the Poincare ball / upper half-plane, and the Poincare-
# disc pictures of releases.

#' Poincare ball and upper half-plane coordinates of hyperbolic space
#'
#' [hyperbolic()] holds points in the hyperboloid model: \eqn{x \in R^{d+1}}
#' with \eqn{-x_0^2 + x_1^2 + \dots + x_d^2 = -1}, \eqn{x_0 > 0}. These
#' functions convert to and from two other models of the same space, for
#' input (embeddings are often given in the Poincare ball), output and
#' plots. All are isometries: distances computed by [mfd_dist()] on the
#' converted points are the hyperbolic distances of the original model.
#'
#' * Poincare ball: \eqn{b = (x_1, \dots, x_d)/(1 + x_0)}, in the open unit
#'   ball of \eqn{R^d}; back, \eqn{x = ((1 + |b|^2), 2b)/(1 - |b|^2)}. The
#'   origin \eqn{(1, 0, \dots, 0)} maps to 0 and a point at distance t from
#'   it to a point of Euclidean norm \eqn{\tanh(t/2)}.
#' * Upper half-plane (d = 2 only): \eqn{(u, v) = (x_1, 1)/(x_0 - x_2)},
#'   \eqn{v > 0}, computed as \eqn{(x_1, 1)(x_0 + x_2)/(1 + x_1^2)} when
#'   \eqn{x_2 > 0} (no cancellation on either side);
#'   back, \eqn{x = ((u^2 + v^2 + 1)/(2v), u/v, (u^2 + v^2 - 1)/(2v))}. The
#'   origin maps to \eqn{(0, 1)}, i.e. \eqn{i}.
#'
#' Points near the boundary of the ball (\eqn{|b| \to 1}) or of the
#' half-plane (\eqn{v \to 0}) are far from the origin: their hyperboloid
#' coordinates grow like \eqn{e^t/2}, and in double precision every
#' geometric quantity there is accurate to about \eqn{10^{-16} x_0}. Points
#' with \eqn{x_0 > 10^{12}} (distance above 28.3 from the origin,
#' \eqn{|b| > 1 - 10^{-12}}) are refused with an error of class
#' `dpmanifold_not_representable`, as [hyperbolic()] refuses them as input.
#'
#' @param x Points of `hyperbolic(d)`: a vector of length `d + 1` or an
#'   n x (d + 1) matrix, one point per row.
#' @param b Points of the Poincare ball: a vector of length `d` or an n x d
#'   matrix, each of Euclidean norm below 1.
#' @param z Points of the upper half-plane: a vector `c(u, v)`, an n x 2
#'   matrix, or a complex vector `u + v i`; `v > 0`.
#' @return The converted points, one per row (a vector for a single point in
#'   vector form).
#' @references Cannon, Floyd, Kenyon and Parry (1997), Hyperbolic geometry,
#'   sections 7-10 (the models and the isometries between them).
#' @examples
#' H2 <- hyperbolic(2)
#' x <- c(cosh(1), sinh(1), 0)          # at distance 1 from the origin
#' hyperbolic_to_poincare(x)            # (tanh(1/2), 0)
#' poincare_to_hyperbolic(c(tanh(0.5), 0))
#' hyperbolic_to_halfplane(x)
#' halfplane_to_hyperbolic(complex(real = 0, imaginary = exp(2)))  # distance 2 from i
#' X <- mfd_random_point(H2, 5)
#' all.equal(mfd_dist(H2, X[1, ], X[2, ]),
#'           mfd_dist(H2, poincare_to_hyperbolic(hyperbolic_to_poincare(X))[1, ], X[2, ]))
#' @export
hyperbolic_to_poincare <- function(x) {
  check_required("x")
  X <- hyperbolic_points(x, "x")
  B <- X[-1, , drop = FALSE] / rep(1 + X[1, ], each = nrow(X) - 1L)
  rows_out(B, attr(X, "single"))
}

#' @rdname hyperbolic_to_poincare
#' @export
poincare_to_hyperbolic <- function(b) {
  check_required("b")
  B <- model_rows(b, "b")
  nb <- sqrt(rowSums(B^2))
  bad <- which(!(nb < 1))
  if (length(bad)) abort_arg("b", sprintf("must lie in the open unit ball, |b| < 1 (point %d has norm %.17g)", bad[1], nb[bad[1]]))
  den <- (1 - nb) * (1 + nb)
  X <- cbind((1 + nb^2) / den, 2 * B / den)
  rows_out(check_model_points(hyperbolic(ncol(B)), t(X), "b"), attr(B, "single"))
}

#' @rdname hyperbolic_to_poincare
#' @export
hyperbolic_to_halfplane <- function(x) {
  check_required("x")
  X <- hyperbolic_points(x, "x")
  if (nrow(X) != 3L) abort_arg("x", "must be points of hyperbolic(2) (length 3): the upper half-plane is 2-dimensional")
  # s = 1 / (x0 - x2) = (x0 + x2) / (1 + x1^2): each form where its sum
  # does not cancel (x0 - x2 with x2 <= 0, x0 + x2 with x2 > 0); one form
  # alone loses every digit at distance 20 on the other side
  x2 <- X[3, ]
  s <- ifelse(x2 <= 0, 1 / (X[1, ] - x2), (X[1, ] + x2) / (1 + X[2, ]^2))
  rows_out(rbind(X[2, ] * s, s), attr(X, "single"))
}

#' @rdname hyperbolic_to_poincare
#' @export
halfplane_to_hyperbolic <- function(z) {
  check_required("z")
  if (is.complex(z)) {
    if (!is.null(dim(z))) abort_arg("z", "must be a complex vector u + v i (one point per element), not a complex matrix or array")
    if (!length(z)) abort_arg("z", "must hold at least one point")
    if (any(!is.finite(z))) abort_arg("z", "contains NA, NaN or Inf values")
    Z <- cbind(Re(z), Im(z))
    attr(Z, "single") <- length(z) == 1L && is.null(dim(z))
  } else {
    Z <- model_rows(z, "z")
    if (ncol(Z) != 2L) abort_arg("z", "must hold points (u, v) of the upper half-plane: length 2, or a matrix with 2 columns")
  }
  u <- Z[, 1]
  v <- Z[, 2]
  bad <- which(!(v > 0))
  if (length(bad)) abort_arg("z", sprintf("must lie in the upper half-plane, v > 0 (point %d has v = %g)", bad[1], v[bad[1]]))
  w <- u^2 + v^2
  X <- rbind((w + 1) / (2 * v), u / v, (w - 1) / (2 * v))
  rows_out(check_model_points(hyperbolic(2), X, "z"), attr(Z, "single"))
}

# Converted points (ambient columns) must be points hyperbolic() accepts as
# input: finite and within x0 <= 1e12 (see hyperbolic()); otherwise a classed
# "not representable" error naming the argument of the other model.
check_model_points <- function(M, X, arg, call = sys.call(-1)) {
  why <- if (any(!is.finite(X))) "overflows" else {
    r <- cpp_check_points(M, X, 1e-6)
    if (any(nzchar(r))) sprintf("%s (point %d)", r[nzchar(r)][1L], which(nzchar(r))[1L]) else ""
  }
  if (nzchar(why)) {
    abort_arg(arg, sprintf("is too close to the boundary of its model: the hyperboloid point %s", why), call,
              class = "dpmanifold_not_representable")
  }
  X
}

# Points of hyperbolic(d), d from the length of x: a (d + 1) x n ambient
# matrix, validated (classed errors naming `arg`) and projected on the sheet.
hyperbolic_points <- function(x, arg, call = sys.call(-1)) {
  check_finite_numeric(x, arg, call)
  D <- if (is.null(dim(x))) length(x) else if (length(dim(x)) == 2L) ncol(x) else 0L
  if (D < 2L) abort_arg(arg, "must be a vector of length d + 1 >= 2 or a matrix with d + 1 >= 2 columns (one point per row)", call)
  as_points(hyperbolic(D - 1L), x, arg, call = call)
}

# A vector (one point) or a matrix (one point per row) of a model other than
# the hyperboloid, as an n x k matrix with attribute "single".
model_rows <- function(x, arg, call = sys.call(-1)) {
  check_finite_numeric(x, arg, call)
  if (!is.null(dim(x)) && length(dim(x)) != 2L) abort_arg(arg, "must be a vector or a matrix with one point per row", call)
  single <- is.null(dim(x))
  X <- if (single) matrix(as.numeric(x), 1L) else unname(x)
  storage.mode(X) <- "double"
  attr(X, "single") <- single
  X
}

# k x n columns to the user's layout: a vector for one point given as a
# vector, otherwise n x k.
rows_out <- function(X, single) {
  attributes(X) <- list(dim = dim(X))
  if (isTRUE(single) && ncol(X) == 1L) return(as.vector(X))
  t(X)
}

# --- pictures ------------------------------------------------------------------

# The Poincare disc: unit circle and, for d > 2, a note that the first two
# ball coordinates are drawn.
poincare_frame <- function(M, ..., main = NULL, legend_labels = NULL) {
  tt <- seq(0, 2 * pi, length.out = 361)
  lim <- limits_with_legend(c(-1, 1), c(-1, 1), legend_labels)
  graphics::plot(lim$xlim, lim$ylim, type = "n", asp = 1, axes = FALSE, xlab = "", ylab = "",
                 main = main %||% if (M$size > 2L) "Poincare ball, coordinates 1 and 2" else NULL, ...)
  graphics::lines(cos(tt), sin(tt), col = "grey40")
}

# First two Poincare-ball coordinates of points (user layout of M).
poincare_xy <- function(M, X) {
  B <- matrix(hyperbolic_to_poincare(X), ncol = M$size)
  if (M$size == 1L) cbind(B[, 1], 0) else B[, 1:2, drop = FALSE]
}

# Boundary of the geodesic ball B_r(center), in the plane of the first two
# tangent basis vectors at the centre (the whole boundary when d = 2).
poincare_ball_boundary <- function(M, center, r) {
  B <- mfd_tangent_basis(M, center)
  tt <- seq(0, 2 * pi, length.out = 181)
  V <- if (M$size == 1L) rbind(B[1, ], -B[1, ]) * r else r * (outer(cos(tt), B[1, ]) + outer(sin(tt), B[2, ]))
  poincare_xy(M, mfd_exp(M, center, V))
}

#' @export
plot_release_mean.hyperbolic <- function(M, x, data, legend, ...) {
  pts <- release_points(x)
  poincare_frame(M, ..., legend_labels = release_legend_labels(names(pts), legend))
  if (!is.null(data)) graphics::points(poincare_xy(M, data), col = .dpm_col["data"], pch = 16, cex = 0.6)
  ring <- poincare_ball_boundary(M, x$bounds$center, x$bounds$radius)
  graphics::lines(ring, col = .dpm_col["center"], lty = 2)
  for (nm in names(pts)) {
    graphics::points(poincare_xy(M, pts[[nm]]), pch = if (nm == "center") 3 else 19, col = .dpm_col[nm], cex = 1.3)
  }
  release_legend_ball(names(pts), legend)
}

#' @export
plot_regression_fit.hyperbolic <- function(M, curves, x_range, data, legend, ..., at = NULL, bounds = NULL) {
  ball <- !is.null(bounds$center) && is.numeric(bounds$radius) && is.finite(bounds$radius)
  poincare_frame(M, ..., legend_labels = if (legend) c(regression_labels[names(curves)],
                                                       if (ball) c("public centre", "public ball")))
  if (!is.null(data)) {
    graphics::points(poincare_xy(M, data$y), pch = 16, cex = 0.8, col = covariate_greys(data$x, x_range))
  }
  if (ball) {
    graphics::lines(poincare_ball_boundary(M, bounds$center, bounds$radius), col = .dpm_col["center"], lty = 2)
    graphics::points(poincare_xy(M, bounds$center), pch = 3, col = .dpm_col["center"], cex = 1.2)
  }
  xs <- regression_at(at, x_range, 100)
  for (nm in names(curves)) {
    cv <- curves[[nm]]
    graphics::lines(poincare_xy(M, predict_geodesic(M, cv$p, cv$v, x_range, xs)), col = regression_cols[[nm]],
                    lwd = 2.5)
  }
  if (ball) {
    regression_legend(curves, legend, extra = c("public centre", "public ball"),
                      extra_col = rep(.dpm_col[["center"]], 2), extra_pch = c(3, NA), extra_lty = c(NA, 2))
  } else {
    regression_legend(curves, legend)
  }
}
