# Methods of the non-private fit of geodesic_regression() (R/regression.R),
# lm-style: print, summary, coef, fitted, residuals, predict, and on
# euclidean() fits lm's sampling model (confint, vcov, prediction
# intervals). The private release has its own (R/release_methods.R).

#' Methods for non-private geodesic regression fits
#'
#' The usual model methods for a [geodesic_regression()] fit, as for
#' [stats::lm()]:
#' * `coef()`: on `euclidean()` lm's coefficients (intercept at x = 0 and
#'   slope; a named vector for one response, a 2 x d matrix for d),
#'   elsewhere `list(p, v, x0)`: the footpoint at `x0`, the middle of
#'   `x_range`, and the velocity per unit of x.
#' * `fitted()`: the fitted points, in the layout of `y` (on
#'   `euclidean(1)` a numeric vector of length n).
#' * `residuals()`: the residual tangent vectors \eqn{Log_{\hat y_i}(y_i)}
#'   at the fitted points, in the layout of `y`: on `euclidean()` exactly
#'   `y - fitted(fit)` (a numeric vector on `euclidean(1)`). Their lengths
#'   are `fit$residuals$norms`.
#' * `predict()`: the geodesic at covariate values `newdata` (the fitted
#'   points when `newdata` is missing). `newdata` is a numeric vector or a
#'   data frame (or a list of columns) with one numeric column (or a
#'   numeric column named `x`); names (a vector's names, a data frame's row
#'   names) are kept on the predictions of vector layouts, and no values
#'   give an empty result in the layout of `y`, as for a private release
#'   ([predict.dp_release()]). Values outside `x_range` are extrapolated
#'   along the geodesic, whereas the fit clamped such covariates into the
#'   range (with a warning): there `predict(fit, x)` is not `fitted(fit)`.
#' * `confint()` and `vcov()`: lm's, on `euclidean()` fits only (rows
#'   `(Intercept)` and `x`, or `y1:(Intercept)`, `y1:x`, `y2:(Intercept)`,
#'   ... for several responses, the layout of [confint.dp_release()]): the
#'   ordinary least-squares sampling model, which the geodesic fit is on a
#'   flat space. On curved manifolds no sampling model is implemented for
#'   the non-private fit: they raise an error of class `dpmanifold_error`.
#'   So do `sigma()` and `df.residual()`, lm's on `euclidean()` fits.
#' * `deviance()`: the residual sum of squares (lm's, one per response
#'   coordinate, on `euclidean()`; elsewhere the sum of the squared
#'   residual lengths, `2 * nobs(fit) * fit$energy`).
#' * `summary()`, `print()`, [nobs()][release_conventions] and
#'   [plot()][plot.geodesic_regression].
#'
#' A covariate outside a user-given `x_range` was clamped to it by the fit;
#' the sampling model is then that of the clamped covariate.
#'
#' @param object,x A `geodesic_regression` object (for
#'   `print.summary.geodesic_regression()`, its summary).
#' @param newdata Covariate values (in the units of `x`): a numeric vector,
#'   or a data frame (or a list of columns) with one numeric column or a
#'   numeric column `x`. An `NA` gives an `NA` prediction, as lm's
#'   `na.pass`.
#' @param interval `"none"` (the points); on `euclidean(1)` fits also
#'   `"confidence"` or `"prediction"`: lm's intervals, returned as for a
#'   private release's `predict(interval = "confidence")`:
#'   `list(fit, radius, level)`, the interval being `fit - radius` to
#'   `fit + radius`. Other manifolds have no sampling model for the
#'   non-private fit, and raise an error.
#' @param level Confidence level.
#' @param parm Coefficients (row names or indices of the table), as for
#'   [stats::confint()]; all by default.
#' @param ... Unused (`predict()` refuses unknown arguments).
#' @return `coef()`, `fitted()`, `residuals()`, `predict()`: see above.
#'   `confint()`: a matrix with columns for the lower and upper limits, one
#'   row per coefficient. `vcov()`: lm's covariance matrix of the
#'   coefficients. `summary()`: an object of class
#'   `summary.geodesic_regression` (n, energy, R^2, quantiles of the
#'   residual norms, length of the geodesic over `x_range`, convergence).
#' @seealso [geodesic_regression()], [dp_release] for the private fit.
#' @examples
#' x <- c(2, 3, 5, 7, 11, 13, 17, 19)
#' y <- 1 + 0.5 * x + c(0.3, -0.2, 0.1, -0.4, 0.2, 0.1, -0.3, 0.2)
#' fit <- geodesic_regression(euclidean(1), x, y)
#' coef(fit)
#' confint(fit)                        # as confint(lm(y ~ x))
#' deviance(fit)                       # sum(residuals(fit)^2), as lm's
#' sigma(fit)
#' predict(fit, data.frame(x = c(a = 4, b = 8)))
#' predict(fit, c(4, 8), interval = "prediction")
#' summary(fit)
#'
#' S2 <- sphere(2)
#' t <- seq(0, 1, length.out = 30)
#' truth <- mfd_exp(S2, c(0, 0, 1), outer(t, c(0.8, 0.3, 0)))
#' fs <- geodesic_regression(S2, t, mfd_exp(S2, truth, 0.05 * mfd_random_tangent(S2, truth, 30)))
#' predict(fs, c(0, 0.5, 1))
#' head(residuals(fs))
#' @name geodesic_regression-methods
NULL

#' @rdname geodesic_regression-methods
#' @export
print.geodesic_regression <- function(x, ...) {
  check_fields(x, "geodesic_regression", c("n", "manifold", "x_range", "energy", "r_squared", "converged",
                                           "iterations", "coef"))
  cat(sprintf("<geodesic_regression> %d points on %s\n", x$n, manifold_label(x$manifold)))
  cat(sprintf("  covariate range [%g, %g]; energy %.6g; R^2 %.4f; %s after %d iterations\n",
              x$x_range[1], x$x_range[2], x$energy, x$r_squared,
              if (x$converged) "converged" else "NOT converged", x$iterations))
  cat(sprintf("  footpoint p (at x = %g, the middle of the x range):\n", x$coef$x0))
  print(signif(x$coef$p, 5))
  cat("  velocity v (per unit of x):\n")
  print(signif(x$coef$v, 5))
  invisible(x)
}

#' @rdname geodesic_regression-methods
#' @export
summary.geodesic_regression <- function(object, ...) {
  check_fields(object, "geodesic_regression", c("n", "manifold", "x_range", "energy", "r_squared", "converged",
                                                "iterations", "coef", "residuals", "frechet_variance", "grad_norm"),
               arg = "object")
  M <- object$manifold
  structure(list(
    n = object$n, manifold = manifold_label(M), energy = object$energy,
    r_squared = object$r_squared, frechet_variance = object$frechet_variance,
    residual_norms = stats::quantile(object$residuals$norms, c(0, 0.25, 0.5, 0.75, 1)),
    geodesic_length = diff(object$x_range) *
      sqrt(sum(cpp_inner(M, to_ambient(M, object$coef$p, "p"), to_ambient(M, object$coef$v, "v"), to_ambient(M, object$coef$v, "v")))),
    iterations = object$iterations, grad_norm = object$grad_norm, converged = object$converged,
    x_range = object$x_range), class = "summary.geodesic_regression")
}

#' @rdname geodesic_regression-methods
#' @export
print.summary.geodesic_regression <- function(x, ...) {
  cat(sprintf("Geodesic regression on %s, n = %d\n", x$manifold, x$n))
  cat(sprintf("  energy E = %.6g, Frechet variance %.6g, R^2 = %.4f\n", x$energy, x$frechet_variance, x$r_squared))
  cat(sprintf("  geodesic length |v| = %.4g over x in [%g, %g]\n", x$geodesic_length, x$x_range[1], x$x_range[2]))
  cat("  residual norms:\n")
  print(signif(x$residual_norms, 4))
  cat_convergence(x)
  invisible(x)
}

#' @rdname geodesic_regression-methods
#' @export
coef.geodesic_regression <- function(object, ...) {
  check_fields(object, "geodesic_regression", c("manifold", "coef"), arg = "object")
  regression_coef(object$manifold, object$coef$p, object$coef$v, object$coef$x0)
}

#' @rdname geodesic_regression-methods
#' @export
fitted.geodesic_regression <- function(object, ...) {
  check_fields(object, "geodesic_regression", "fitted", arg = "object")
  object$fitted
}

# (object$residuals stays list(vectors, norms): benches read its norms)
#' @rdname geodesic_regression-methods
#' @export
residuals.geodesic_regression <- function(object, ...) {
  check_fields(object, "geodesic_regression", "residuals", arg = "object")
  if (is.null(object$residuals$vectors)) abort_arg("object", "is a malformed geodesic_regression object (no residual vectors)")
  object$residuals$vectors
}

#' @rdname geodesic_regression-methods
#' @export
predict.geodesic_regression <- function(object, newdata = NULL, interval = c("none", "confidence", "prediction"),
                                        level = 0.95, ...) {
  check_fields(object, "geodesic_regression", c("manifold", "coef", "x_range", "fitted"), arg = "object")
  check_no_dots(..., what = "predict() for a geodesic_regression fit (it takes newdata, interval and level)")
  interval <- check_choice(interval, c("none", "confidence", "prediction"), "interval")
  M <- object$manifold
  if (interval != "none" && !(inherits(M, "euclidean") && M$ambient_dim == 1L)) {
    abort_arg("interval", sprintf(paste0(
      "is \"%s\" but a non-private fit on %s has only interval = \"none\": lm's intervals exist for euclidean(1) ",
      "fits, and no sampling model is implemented for the non-private fit elsewhere (a private release's ",
      "predict(interval = \"confidence\") gives balls around the release)"), interval, manifold_label(M)))
  }
  if (is.null(newdata)) {
    fit <- object$fitted
    s <- clamped_covariate(object)
  } else {
    curve <- regression_release_curve(M, object$coef$p, object$coef$v, object$coef$x0, object$x_range)
    fit <- predict_geodesic(M, curve$p, curve$v, object$x_range, newdata)
    if (is.matrix(fit) && !is.null(names(object$coef$p))) colnames(fit) <- names(object$coef$p)
    s <- regression_newdata(newdata)
  }
  if (interval == "none") return(fit)
  check_probability(level, "level")
  ols <- euclidean_ols(object)
  X0 <- cbind(1, s)
  var_fit <- ols$sigma2 * rowSums((X0 %*% ols$XtXi) * X0)
  if (interval == "prediction") var_fit <- var_fit + ols$sigma2
  radius <- stats::qt((1 + level) / 2, ols$df) * sqrt(var_fit)
  names(radius) <- names(fit)
  list(fit = fit, radius = radius, level = level)
}

#' @rdname geodesic_regression-methods
#' @importFrom stats vcov
#' @export
vcov.geodesic_regression <- function(object, ...) {
  ols <- euclidean_ols(object)
  V <- if (length(ols$sigma2) == 1L) ols$sigma2 * ols$XtXi else kronecker(ols$estvar(), ols$XtXi)
  dimnames(V) <- list(ols$terms, ols$terms)
  V
}

#' @rdname geodesic_regression-methods
#' @importFrom stats deviance
#' @export
deviance.geodesic_regression <- function(object, ...) {
  check_fields(object, "geodesic_regression", c("manifold", "residuals"), arg = "object")
  # lm's (one per response coordinate) on euclidean(); elsewhere the sum of
  # the squared geodesic residuals, 2 n times the energy
  if (inherits(object$manifold, "euclidean")) {
    ols <- euclidean_ols(object)
    return(ols$sigma2 * ols$df)
  }
  sum(object$residuals$norms^2)
}

#' @rdname geodesic_regression-methods
#' @importFrom stats df.residual
#' @export
df.residual.geodesic_regression <- function(object, ...) euclidean_ols(object)$df

#' @rdname geodesic_regression-methods
#' @importFrom stats sigma
#' @export
sigma.geodesic_regression <- function(object, ...) sqrt(euclidean_ols(object)$sigma2)

#' @rdname geodesic_regression-methods
#' @export
confint.geodesic_regression <- function(object, parm, level = 0.95, ...) {
  ols <- euclidean_ols(object)
  check_probability(level, "level")
  b <- as.numeric(coef.geodesic_regression(object))
  se <- sqrt(as.numeric(outer(diag(ols$XtXi), ols$sigma2)))
  a <- c((1 - level) / 2, (1 + level) / 2)
  q <- stats::qt(a[2], ols$df)
  out <- cbind(b - q * se, b + q * se)
  dimnames(out) <- list(ols$terms, paste(format(100 * a, trim = TRUE, scientific = FALSE, digits = 3), "%"))
  if (missing(parm)) return(out)
  out[confint_parm(parm, ols$terms, sys.call()), , drop = FALSE]
}

# The covariate the fit used: x clamped to x_range.
clamped_covariate <- function(object) pmin(pmax(object$x, object$x_range[1]), object$x_range[2])

# lm's sampling model of a euclidean() fit (ordinary least squares of each
# response coordinate on the clamped covariate, which the fit is): (X'X)^-1
# from the QR decomposition as summary.lm() computes it, the residual
# variance per coordinate, the degrees of freedom and the coefficient names
# in the layout of confint.dp_release(). Curved manifolds: a classed error.
euclidean_ols <- function(object, call = sys.call(-1)) {
  check_fields(object, "geodesic_regression", c("manifold", "coef", "x", "x_range", "residuals", "n"),
               arg = "object", call = call)
  M <- object$manifold
  if (!inherits(M, "euclidean")) {
    abort_arg("object", sprintf(paste0(
      "is a non-private fit on %s: no sampling model is implemented for it, so it has no confidence intervals ",
      "or covariance (they are lm's on euclidean() fits). For a private release, confint() of ",
      "dp_geodesic_regression() gives public regions around the release"), manifold_label(M)), call)
  }
  n <- object$n
  if (n < 3L) abort_arg("object", "has 2 points: no residual degrees of freedom for a sampling model", call)
  R <- matrix(object$residuals$vectors, n)
  df <- n - 2L
  Xq <- qr(cbind(1, clamped_covariate(object)))
  list(XtXi = chol2inv(qr.R(Xq)), sigma2 = colSums(R^2) / df, estvar = function() crossprod(R) / df, df = df,
       terms = coef_terms(ncol(R), names(object$coef$p)))
}

# Covariate values for predict(): a numeric vector, or a data frame with
# one numeric column or a numeric column `x`. Names (a vector's names, a
# data frame's row names, as lm's predict()) are kept.
regression_newdata <- function(newdata, call = sys.call(-1), arg = "newdata") {
  if (is.list(newdata) && !is.data.frame(newdata)) {
    # (a plain list of columns, as lm's predict() takes)
    newdata <- tryCatch(as.data.frame(newdata, stringsAsFactors = FALSE), error = function(e) {
      abort_arg(arg, "is a list that does not make a data frame: give covariate values as a numeric vector or a data frame", call)
    })
  }
  if (is.data.frame(newdata)) {
    cols <- names(newdata)
    col <- if ("x" %in% cols) "x" else if (length(cols) == 1L) cols else NULL
    if (is.null(col) || !is.numeric(newdata[[col]])) {
      abort_arg(arg, sprintf(paste0(
        "is a data frame with %s: give covariate values as a numeric vector, or a data frame with exactly one ",
        "numeric column or a numeric column named `x`"),
        if (length(cols)) paste0("columns ", paste(sprintf("`%s`", cols), collapse = ", ")) else "no columns"), call)
    }
    return(stats::setNames(as.numeric(newdata[[col]]), rownames(newdata)))
  }
  newdata <- na_as_double(newdata)
  if (!is.numeric(newdata) || (length(dim(newdata)) > 1L && min(dim(newdata)) > 1L)) {
    abort_arg(arg, "must be numeric covariate values (a vector, or a data frame with one numeric column)",
              call)
  }
  stats::setNames(as.numeric(newdata), names(newdata))
}

# The geodesic with footpoint p at the lower end of x_range and v the change
# over it (the curves of the plots), at the covariate values `newdata`; no
# values give an empty result in the layout of M (as predict.dp_release()).
predict_geodesic <- function(M, p, v, x_range, newdata, call = sys.call(-1), arg = "newdata") {
  s <- regression_newdata(newdata, call, arg)
  check_alloc(length(s), M$ambient_dim, arg, call)
  if (any(is.infinite(s))) abort_arg(arg, "must be numeric covariate values (finite or NA)", call)
  if (!length(s)) return(from_ambient(M, matrix(numeric(0), M$ambient_dim, 0L)))
  P <- to_ambient(M, p, "p", call)
  V <- to_ambient(M, v, "v", call)
  at <- function(s) {
    t <- (s - x_range[1]) / (x_range[2] - x_range[1])
    Vt <- check_representable(M, sweep(matrix(V[, 1], nrow(V), length(t)), 2, t, `*`), arg, "tangent", call)
    check_representable(M, cpp_binary_op(M, "exp", P, Vt), arg, "output", call)
  }
  out <- from_ambient(M, at_values_or_na(M, s, at), single = length(s) == 1L)
  if (!is.null(names(s)) && !is_matrix_layout(M)) {
    if (M$ambient_dim == 1L) names(out) <- names(s) else if (is.matrix(out)) rownames(out) <- names(s)
  }
  out
}
