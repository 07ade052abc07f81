# Methods of the non-private Frechet mean (R/frechet.R), lm-style: print,
# summary, coef, nobs and, on euclidean(), lm's confidence intervals. The
# private release has its own (R/release_conventions.R).

#' Methods for non-private Frechet means
#'
#' The usual model methods for a [frechet_mean()] result:
#' * `coef()`: the mean, in the layout of the manifold (as `$mean`).
#' * `nobs()`: the number of points (of positive weight, as lm's).
#' * `confint()`: on `euclidean()`, lm's intervals for the mean, one row
#'   per coordinate (`mean[1]`, `mean[2]`, ..., the terms of the private
#'   release's `tidy()`): those of `lm(X ~ 1, weights = weights)`
#'   (coordinate by coordinate: the mean plus or minus a t quantile times
#'   the standard error). On curved manifolds no sampling model is
#'   implemented for the non-private mean: an error of class
#'   `dpmanifold_error`.
#' * `summary()` and `print()`: the mean, the objective F (half the
#'   weighted mean squared distance to the mean) and the root mean squared
#'   distance, and the convergence of the gradient descent.
#' * `plot()`: the fit keeps neither the points nor a ball to draw them in,
#'   so it raises an error of class `dpmanifold_error` that names the
#'   pictures that do: `plot()` of a release with `data =`, or the
#'   manifold's own ([plot_sphere()], [plot_spd_ellipses()],
#'   [plot_shapes()]).
#'
#' @param object,x A `frechet_mean` object (for
#'   `print.summary.frechet_mean()`, its summary).
#' @param parm Coordinates (row names or indices), as for
#'   [stats::confint()]; all by default.
#' @param level Confidence level.
#' @param ... Unused.
#' @return `coef()`: the mean. `nobs()`: a number. `confint()`: a matrix
#'   with columns for the lower and upper limits, one row per coordinate.
#'   `summary()`: an object of class `summary.frechet_mean`.
#' @seealso [frechet_mean()], [confint.dp_release()] for a private release.
#' @examples
#' X <- cbind(c(1.2, 0.8, 1.1, 0.9, 1.3), c(-0.1, 0.2, 0, 0.1, -0.2))
#' fm <- frechet_mean(euclidean(2), X)
#' coef(fm)
#' nobs(fm)
#' confint(fm)                      # as confint(lm(X[, j] ~ 1)), j = 1, 2
#' summary(fm)
#'
#' S2 <- sphere(2)
#' Y <- mfd_exp(S2, c(0, 0, 1), 0.3 * mfd_random_tangent(S2, c(0, 0, 1), 20))
#' summary(frechet_mean(S2, Y))
#' @name frechet_mean-methods
NULL

#' @rdname frechet_mean-methods
#' @export
print.frechet_mean <- function(x, ...) {
  check_fields(x, "frechet_mean", c("mean", "iterations", "grad_norm", "objective", "converged", "n", "manifold"))
  cat(sprintf("<frechet_mean> on %s, n = %d\n", manifold_label(x$manifold), x$n))
  cat(sprintf("  %s after %d iterations (gradient norm %.2e), objective %.6g\n",
              if (x$converged) "converged" else "NOT converged", x$iterations, x$grad_norm, x$objective))
  cat("  mean:\n")
  print(signif(x$mean, 5))
  invisible(x)
}

#' @rdname frechet_mean-methods
#' @export
summary.frechet_mean <- function(object, ...) {
  check_fields(object, "frechet_mean", c("mean", "iterations", "grad_norm", "objective", "converged", "n", "manifold"),
               arg = "object")
  structure(list(
    n = object$n, manifold = manifold_label(object$manifold), mean = object$mean, objective = object$objective,
    rms_distance = sqrt(2 * max(object$objective, 0)),
    iterations = object$iterations, grad_norm = object$grad_norm, converged = object$converged),
    class = "summary.frechet_mean")
}

#' @rdname frechet_mean-methods
#' @export
print.summary.frechet_mean <- function(x, ...) {
  cat(sprintf("Frechet mean on %s, n = %d\n", x$manifold, x$n))
  cat(sprintf("  objective F = %.6g, root mean squared distance to the mean %.4g\n", x$objective, x$rms_distance))
  cat("  mean:\n")
  print(signif(x$mean, 5))
  cat_convergence(x)
  invisible(x)
}

# The last line of a non-private fit's summary (Frechet mean, geodesic
# regression): how its iteration ended.
cat_convergence <- function(x) {
  cat(sprintf("  %s after %d iterations, gradient norm %.2e\n",
              if (x$converged) "converged" else "NOT converged", x$iterations, x$grad_norm))
}

#' @rdname frechet_mean-methods
#' @export
coef.frechet_mean <- function(object, ...) {
  check_fields(object, "frechet_mean", "mean", arg = "object")
  object$mean
}

#' @rdname frechet_mean-methods
#' @export
nobs.frechet_mean <- function(object, ...) {
  check_fields(object, "frechet_mean", "n", arg = "object")
  # as lm's nobs(): records of weight zero do not count
  if (is.null(object$n_weighted)) object$n else as.integer(object$n_weighted)
}

#' @rdname frechet_mean-methods
#' @export
confint.frechet_mean <- function(object, parm, level = 0.95, ...) {
  check_fields(object, "frechet_mean", c("mean", "n", "manifold"), arg = "object")
  M <- object$manifold
  if (!inherits(M, "euclidean")) {
    abort_arg("object", sprintf(paste0(
      "is a non-private Frechet mean on %s: no sampling model is implemented for it, so it has no confidence ",
      "intervals (they are lm's on euclidean()). For a private release, confint() of dp_frechet_mean() gives a ",
      "public confidence ball around the release"), manifold_label(M)))
  }
  check_probability(level, "level")
  s <- object$sampling
  ok <- is.list(s) && is.numeric(s$ss) && length(s$ss) == length(object$mean) && is_scalar_number(s$sum_w) &&
    is_scalar_number(s$df)
  if (!ok) abort_arg("object", "is a malformed frechet_mean object (no `sampling`)")
  if (s$df < 1) abort_arg("object", "has a single point of positive weight: no residual degrees of freedom for a sampling model")
  se <- sqrt(s$ss / s$df / s$sum_w)
  a <- c((1 - level) / 2, (1 + level) / 2)
  q <- stats::qt(a[2], s$df)
  b <- as.numeric(object$mean)
  rn <- coordinate_terms(M, "mean", object$mean)
  out <- cbind(b - q * se, b + q * se)
  dimnames(out) <- list(rn, paste(format(100 * a, trim = TRUE, scientific = FALSE, digits = 3), "%"))
  if (missing(parm)) return(out)
  out[confint_parm(parm, rn, sys.call()), , drop = FALSE]
}

#' @rdname frechet_mean-methods
#' @export
plot.frechet_mean <- function(x, ...) {
  abort_arg("x", paste("is a non-private Frechet mean, which keeps neither the points nor a ball to draw: plot a",
                       "release with its data (plot(<dp_release>, data = X)), or draw the mean with the points in",
                       "the manifold's own picture (plot_sphere(), plot_spd_ellipses(), plot_shapes())"), sys.call())
}
