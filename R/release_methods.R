# Methods of dp_release objects beyond print and summary (R/release.R):
# prediction and coefficients of regression releases.

#' @rdname dp_release
#' @param newdata Covariate values (in the units of `x`) at which to
#'   evaluate a private geodesic: a numeric vector, or a data frame (or a
#'   list of columns) with one numeric column or a numeric column `x`, as for
#'   [predict()][geodesic_regression-methods] of a non-private fit (an `NA`
#'   gives an `NA` prediction and radius). Names (a
#'   vector's names, a data frame's row names) are kept on the predictions
#'   of vector layouts, as [stats::predict.lm()] does. Unlike lm's method it
#'   is required: a release has no fitted values ([release_conventions]).
#' @param interval `"none"` (the points) or `"confidence"`: also the radius
#'   of a geodesic ball around each prediction that holds the least-squares
#'   geodesic of the clipped data with probability `level`, from the
#'   release's public error model (the default method and `"tangent"`;
#'   post-processing, no privacy cost). Returns `list(fit, radius, level)`
#'   (not lm's matrix of `fit`, `lwr`, `upr`: on a manifold the region is a
#'   ball; on `euclidean(1)` the interval is `fit - radius` to `fit +
#'   radius`). There is no `"prediction"`
#'   interval: the release holds no estimate of the residual spread. The
#'   radius counts the noise and, where the last round's clip level was
#'   drawn, the clipped fit's modelled distance from least squares (and
#'   stops at the diameter of `sphere()` and `kendall_shape()`, pi and
#'   pi / 2: a ball that wide is the whole manifold);
#'   residuals far from Gaussian (asymmetric ones above all) can put the
#'   release farther off (see the section "Regression releases" of
#'   [confint.dp_release()]).
#' @param level Confidence level of the balls.
#' @export
predict.dp_release <- function(object, newdata, interval = c("none", "confidence"), level = 0.95, ...) {
  check_release(object, "object")
  if (...length()) {
    nm <- names(list(...))
    abort_arg(if (is.null(nm) || !nzchar(nm[1])) "..." else nm[1],
              "is not an argument of predict() for a private release (it takes newdata, interval and level)")
  }
  if (!identical(object$statistic, "geodesic_regression")) {
    abort_arg("object", sprintf(paste0(
      "is a %s release, not a regression release: predict() evaluates a private geodesic at covariate values. ",
      "The released value is coef(object)"), gsub("_", " ", object$statistic %||% "non-regression")))
  }
  if (missing(newdata)) {
    abort_arg("newdata", "is missing: a private release has no fitted values (they would need the private covariates); give the covariate values at which to evaluate it")
  }
  if (identical(interval, "prediction")) {
    abort_arg("interval", paste(
      "is \"prediction\", which a release cannot give: a prediction interval needs the spread of the residuals,",
      "which the release does not estimate; \"confidence\" gives the public region of the geodesic itself"))
  }
  interval <- check_choice(interval, c("none", "confidence"), "interval")
  M <- object$manifold
  g <- release_regression_geodesic(object, "object")
  # a data frame gives its column (names: its row names); a vector is
  # checked for size before anything converts it
  if (is.list(newdata)) newdata <- regression_newdata(newdata)
  if (length(dim(newdata)) > 1L && min(dim(newdata)) > 1L) {
    abort_arg("newdata", "must be numeric covariate values (a vector, or a data frame with one numeric column)")
  }
  nm <- names(newdata)
  s <- release_newdata(M, newdata)
  # no covariate values, no predictions (as lm's predict): an empty result
  # in the layout of M
  out <- release_geodesic_at(M, g, s)
  fit <- from_ambient(M, out, single = length(s) == 1L)
  if (is.matrix(fit) && !is.null(names(object$estimate$p))) colnames(fit) <- names(object$estimate$p)
  if (!is.null(nm) && !is_matrix_layout(M)) {
    if (M$ambient_dim == 1L) names(fit) <- nm else if (is.matrix(fit)) rownames(fit) <- nm
  }
  if (interval == "none") return(fit)
  radius <- release_band_radius(object, s, level)
  names(radius) <- nm
  list(fit = fit, radius = radius, level = level)
}

# Radius of the confidence ball around the release's prediction at the
# covariate values s, from the public error model the release
# carries (method "gauss_newton" and "tangent"): the line's error in normal
# coordinates is about N(0, (var_value + (t - t_mean)^2 var_slope) I_d),
# t = s / width, so its length is that standard deviation times a chi law
# with d degrees of freedom. That model leaves out the clipping of the
# refining round, the Laplace tails of the noise and the curvature of the
# tangent approximation, and covered 0.82-0.92 at level 0.9 on the S^2 and
# Euclidean settings of the tests; the variances are therefore inflated by
# a public constant, .band_inflation. (With the C++ core's low reading of
# a bunched design's spread, proof section 3, the bands cover 0.91-1.00
# there; the velocity's ball covers 0.85-0.94 on S^2 at n = 300, epsilon =
# 1: ?confint.dp_release.)
.band_inflation <- 1.5

release_band_radius <- function(object, s, level, call = sys.call(-1)) {
  check_probability(level, "level", call = call)
  u <- release_error_model(object, "interval", "= \"confidence\" needs", call)
  t <- (s - object$estimate$x0) / diff(object$estimate$x_range)
  cap_ball_radius(object$manifold, release_line_sd(u, t) * sqrt(stats::qchisq(level, object$manifold$dim)))
}

# A geodesic ball no wider than the manifold: on sphere() (diameter pi) and
# kendall_shape() (pi / 2), where the diameter is the injectivity radius, a
# larger radius means the whole manifold (Inf elsewhere: no cap).
cap_ball_radius <- function(M, radius) pmin(radius, M$injectivity_radius)

# The public error model a regression release carries (methods
# "gauss_newton" and "tangent"), checked; `arg` and `asks` say who asked
# for it in the error.
release_error_model <- function(object, arg, asks, call = sys.call(-1)) {
  u <- object$estimate$uncertainty
  ok <- is.numeric(u) && all(c("var_value", "var_slope", "t_mean") %in% names(u)) && all(is.finite(u)) &&
    u[["var_value"]] >= 0 && u[["var_slope"]] >= 0
  if (!ok) {
    abort_arg(arg, sprintf("%s the public error model of the default method (this release is method \"%s\")",
                           asks, object$method %||% object$mechanism), call)
  }
  u
}

# Standard deviation per coordinate of the line's error at t (covariate per
# unit of the range, 0 at the middle), inflated by .band_inflation.
release_line_sd <- function(u, t) sqrt(.band_inflation * (u[["var_value"]] + (t - u[["t_mean"]])^2 * u[["var_slope"]]))

#' @rdname dp_release
#' @export
coef.dp_release <- function(object, ...) {
  check_release(object, "object")
  if (!identical(object$statistic, "geodesic_regression")) return(object$estimate)
  e <- object$estimate
  regression_coef(object$manifold, e$p, e$v, e$x0)
}

# The coefficients of a geodesic (fit or release) as coef() reports them:
# on euclidean() as lm() does (intercept at x = 0 and slope; a vector for one
# response, a 2 x d matrix for d), elsewhere list(p, v, x0) (footpoint at
# x0, the middle of the range, velocity per unit of x).
regression_coef <- function(M, p, v, x0) {
  if (!inherits(M, "euclidean")) return(list(p = p, v = v, x0 = x0))
  b <- rbind(`(Intercept)` = as.numeric(p) - x0 * as.numeric(v), x = as.numeric(v))
  if (ncol(b) == 1L) return(stats::setNames(b[, 1], rownames(b)))
  colnames(b) <- names(p)
  b
}

# lm's names of the coefficients of a linear fit of d responses (`resp`
# their names, else y1, y2, ...): "(Intercept)" and "x", or "y1:(Intercept)",
# "y1:x", ...
coef_terms <- function(d, resp = NULL) {
  terms <- c("(Intercept)", "x")
  if (d == 1L) return(terms)
  paste0(rep(paste0(resp %||% paste0("y", seq_len(d)), ":"), each = 2L), terms)
}

# The geodesic of a regression release (or its non-private part) in the
# parametrisation of geodesic_regression(): footpoint at the lower end of
# the range, velocity over the whole range. (For plot.dp_release.)
regression_release_curve <- function(M, p, v, x0, x_range) {
  P <- to_ambient(M, p, "p")
  V <- to_ambient(M, v, "v") * diff(x_range)
  back <- -(x0 - x_range[1]) / diff(x_range) * V
  list(p = from_ambient(M, cpp_binary_op(M, "exp", P, back), single = TRUE),
       v = from_ambient(M, cpp_ternary_op(M, "transport_along", P, back, V), single = TRUE))
}

print_estimate <- function(x) {
  est <- x$estimate
  cat(sprintf("  method: %s\n", x$method %||% "joint"))
  cat(sprintf("  private footpoint p (at x = %g, the middle of the x range [%g, %g]):\n",
              est$x0, est$x_range[1], est$x_range[2]))
  print(signif(est$p, 5))
  cat("  private velocity v (per unit of x):\n")
  print(signif(est$v, 5))
  if (inherits(x$manifold, "euclidean")) {
    # as coef() gives them (a named vector for one response)
    cat("  intercept (at x = 0) and slope, as coef():\n")
    print(signif(regression_coef(x$manifold, est$p, est$v, est$x0), 5))
  }
  invisible(NULL)
}
