# Methods of dp_release objects beyond print and summary (R/release.R):
# prediction and coefficients of regression releases.

#' @rdname dp_release
#' @param newdata Covariate values (in the units of `x`) at which to
#'   evaluate a private geodesic.
#' @export
predict.dp_release <- function(object, newdata, ...) {
  check_release(object, "object")
  if (!identical(object$statistic, "geodesic_regression")) abort_arg("object", "is not a regression release")
  if (missing(newdata)) {
    abort_arg("newdata", "is missing: a private release has no fitted values (they would need the private covariates); give the covariate values at which to evaluate it")
  }
  M <- object$manifold
  g <- release_regression_geodesic(object, "object")
  s <- release_newdata(M, newdata)
  # no covariate values, no predictions (as lm's predict): an empty result
  # in the layout of M
  out <- release_geodesic_at(M, g, s)
  from_ambient(M, out, single = length(s) == 1L)
}

#' @rdname dp_release
#' @export
coef.dp_release <- function(object, ...) {
  check_release(object, "object")
  if (identical(object$statistic, "geodesic_regression")) object$estimate[c("p", "v", "x0")] else object$estimate
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
    cat("  intercept (at x = 0) and slope:\n")
    print(signif(rbind(intercept = as.numeric(est$p) - est$x0 * as.numeric(est$v), slope = as.numeric(est$v)), 5))
  }
  invisible(NULL)
}
