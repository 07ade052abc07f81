# R's conventions for dp_release objects (issue 20): fitted() and
# residuals() refuse with a classed error (they would need the private
# data), nobs() (n is public), tidy() and glance() for the generics / broom
# family (registered when `generics` is installed, see .onLoad below), and
# confint() (issue 19): a confidence ball from the public noise law.

#' R's model conventions for private releases
#'
#' A [dp_release] holds the private estimate and public facts only, so the
#' methods R users expect from a fitted model answer from those alone:
#' * `nobs()` returns the number of records `n` (public: neighbouring data
#'   sets differ in one record, not in size); it also works on a
#'   non-private [geodesic_regression()] fit.
#' * `fitted()` and `residuals()` would need the private covariates and
#'   responses, which a release does not hold: they raise an error of class
#'   `dpmanifold_error` that says so. Evaluate a private geodesic at
#'   covariates you hold with `predict(release, newdata)`.
#' * `tidy()` and `glance()` (the `generics` package, re-exported by
#'   `broom`; the methods are registered when `generics` is installed):
#'   `tidy()` gives one row per coordinate of the estimate (`term`,
#'   `estimate`): for a Frechet mean `mean[i]` (vector layouts) or
#'   `mean[i,j]` (matrix layouts), for a regression the footpoint
#'   (`footpoint[...]`, at the middle `x0` of the public x range) and the
#'   velocity (`velocity[...]`, per unit of x). `glance()` gives one row of
#'   public facts: `statistic`, `n`, `epsilon`, `delta`, `guarantee`,
#'   `mechanism`, `private`.
#' * `confint()`: see [confint.dp_release()].
#'
#' @param object A `dp_release` (or, for `nobs()`, a `geodesic_regression`).
#' @param ... Unused.
#' @return `nobs()`: a number. `fitted()` and `residuals()` do not return.
#' @examples
#' E <- euclidean(2)
#' X <- matrix(rnorm(40, sd = 0.3), 20)
#' rel <- dp_frechet_mean(E, X, epsilon = 1, center = c(0, 0), radius = 1)
#' nobs(rel)
#' tryCatch(fitted(rel), dpmanifold_error = function(e) conditionMessage(e))
#' if (requireNamespace("generics", quietly = TRUE)) {
#'   print(generics::tidy(rel))
#'   print(generics::glance(rel))
#' }
#' @name release_conventions
NULL

#' @rdname release_conventions
#' @importFrom stats nobs
#' @export
nobs.dp_release <- function(object, ...) {
  check_release(object, "object")
  object$n
}

#' @rdname release_conventions
#' @export
nobs.geodesic_regression <- function(object, ...) {
  check_fields(object, "geodesic_regression", "n", arg = "object")
  object$n
}

no_private_data <- function(what, object, call) {
  check_release(object, "object", call)
  abort_arg("object", sprintf(paste0(
    "is a private release: its %s would need the private data (covariates and responses), which a release does not ",
    "hold (only the private estimate and public facts). %s"), what,
    if (identical(object$statistic, "geodesic_regression")) {
      "Use predict(object, newdata) with covariate values you hold."
    } else {
      "The estimate is object$estimate."
    }), call)
}

#' @rdname release_conventions
#' @importFrom stats fitted
#' @export
fitted.dp_release <- function(object, ...) no_private_data("fitted values", object, sys.call())

#' @rdname release_conventions
#' @importFrom stats residuals
#' @export
residuals.dp_release <- function(object, ...) no_private_data("residuals", object, sys.call())

# --- tidy / glance (generics) ---------------------------------------------

# Names of the coordinates of a point (or tangent vector) in the layout of M.
coordinate_terms <- function(M, prefix, x) {
  if (is_matrix_layout(M)) {
    pd <- M$point_dim
    return(sprintf("%s[%d,%d]", prefix, rep(seq_len(pd[1]), pd[2]), rep(seq_len(pd[2]), each = pd[1])))
  }
  nm <- names(x)
  if (!is.null(nm) && all(nzchar(nm))) return(sprintf("%s[%s]", prefix, nm))
  sprintf("%s[%d]", prefix, seq_along(x))
}

tidy.dp_release <- function(x, ...) {
  check_release(x, "x")
  M <- x$manifold
  if (identical(x$statistic, "geodesic_regression")) {
    p <- x$estimate$p
    v <- x$estimate$v
    return(data.frame(term = c(coordinate_terms(M, "footpoint", p), coordinate_terms(M, "velocity", v)),
                      estimate = c(as.numeric(p), as.numeric(v)), stringsAsFactors = FALSE))
  }
  data.frame(term = coordinate_terms(M, "mean", x$estimate), estimate = as.numeric(x$estimate),
             stringsAsFactors = FALSE)
}

glance.dp_release <- function(x, ...) {
  check_release(x, "x")
  p <- x$privacy
  num <- function(v) if (is.numeric(v) && length(v) == 1L) as.numeric(v) else NA_real_
  data.frame(statistic = x$statistic, n = x$n, epsilon = num(p$epsilon), delta = num(p$delta %||% 0),
             guarantee = p$guarantee %||% NA_character_, mechanism = x$mechanism, private = isTRUE(p$private),
             stringsAsFactors = FALSE)
}

# Registers `fun` as the method of pkg::generic for `class` when pkg is
# loaded, now or later (a package in Suggests: no hard dependency).
register_s3_method <- function(pkg, generic, class, fun) {
  register <- function(...) {
    ns <- asNamespace(pkg)
    if (exists(generic, envir = ns, inherits = FALSE)) registerS3method(generic, class, fun, envir = ns)
  }
  setHook(packageEvent(pkg, "onLoad"), register)
  if (isNamespaceLoaded(pkg)) register()
  invisible(NULL)
}

.onLoad <- function(libname, pkgname) {
  register_s3_method("generics", "tidy", "dp_release", tidy.dp_release)
  register_s3_method("generics", "glance", "dp_release", glance.dp_release)
}

# --- confint ------------------------------------------------------------------

#' Public confidence ball of a private Frechet mean
#'
#' A region computed from the release and its public noise law only
#' (post-processing, no privacy cost): the geodesic ball around the released
#' estimate that holds the non-private estimate (the Frechet mean of the data
#' clipped to the public ball) with probability at least `level` over the
#' mechanism's noise, whatever the data.
#'
#' The radius is a quantile of the distance between the release and the
#' non-private estimate, read from the stored facts `sigma`, `mechanism`,
#' the law (truncated or not), `sampler` and the public `radius` r:
#' * laws around the estimate with density proportional to exp(-d / sigma)
#'   (Riemannian Laplace; KNG on flat spaces, where its gradient norm is the
#'   distance; the wrapped and ambient Laplace mechanisms on flat spaces):
#'   the distance t has density proportional to exp(-t / sigma) A(t), A the
#'   polar volume (t^(d-1) flat, sin(t)^(d-1) on the sphere, sinh(t)^(d-1)
#'   hyperbolic), a Gamma(d, sigma) law on flat spaces;
#' * the wrapped Gaussian on flat spaces: sigma times a chi law with d
#'   degrees of freedom;
#' * a law restricted to the public ball: both the release and the estimate
#'   lie in it, and seen from the estimate each direction's distance law is
#'   the radial law cut at the ball's boundary, hence stochastically below
#'   the radial law cut at 2r, whose quantile is used;
#' * an untruncated draw moved onto the ball: the move (the nearest point of
#'   a geodesically convex ball) shortens the distance to any point of the
#'   ball, so the radial quantile, capped at 2r, is used.
#'
#' Available for exact Frechet-mean releases on `euclidean()` and
#' `spd(metric = "log_euclidean")` (flat: every mechanism) and on
#' `sphere()` and `hyperbolic()` (the Riemannian Laplace mechanism,
#' truncated or not); other releases (Kendall's shape space, the
#' affine-invariant metric, KNG on curved spaces, Metropolis-Hastings
#' chains, regressions) raise an error of class `dpmanifold_error`. The region covers the estimate of
#' the *clipped* data: records outside the public ball are moved onto it
#' before the mechanism runs.
#'
#' @param object A Frechet-mean [dp_release].
#' @param parm Not used: the region is one ball for the whole estimate.
#' @param level Coverage probability, strictly between 0 and 1.
#' @param ... Unused.
#' @return A list of class `dp_confidence_ball`: `center` (the release's
#'   estimate), `radius` (geodesic), `level`, `manifold` and `law` (a
#'   description of the distance law used).
#' @examples
#' S2 <- sphere(2)
#' north <- c(0, 0, 1)
#' X <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 100))
#' rel <- dp_frechet_mean(S2, X, epsilon = 1, center = north, radius = pi / 8)
#' ci <- confint(rel, level = 0.9)
#' ci
#' # does it hold the non-private estimate (of the clipped data)?
#' xbar <- frechet_mean(S2, clip_to_ball(S2, X, north, pi / 8))$mean
#' mfd_dist(S2, ci$center, xbar) <= ci$radius
#' @importFrom stats confint
#' @export
confint.dp_release <- function(object, parm, level = 0.95, ...) {
  check_release(object, "object")
  if (!missing(parm)) abort_arg("parm", "is not used: the region is one geodesic ball for the whole estimate")
  check_probability(level, "level")
  if (!identical(object$statistic, "frechet_mean")) {
    abort_arg("object", "is not a Frechet-mean release: confint() gives a confidence ball for dp_frechet_mean() releases only")
  }
  M <- object$manifold
  if (identical(object$sampler$kind, "mcmc")) {
    abort_arg("object", "was drawn by a finite Metropolis-Hastings chain, whose law is not the mechanism's: no confidence region follows from its public facts")
  }
  law <- release_distance_law(object)
  r2 <- 2 * as.numeric(object$bounds$radius)
  radius <- switch(law$cut,
    none = law$q(level),
    cap = min(law$q(level), r2),
    trunc = law$q(level * law$p(r2)))
  structure(list(center = object$estimate, radius = radius, level = level, manifold = M, law = law$label),
            class = "dp_confidence_ball")
}

#' @export
print.dp_confidence_ball <- function(x, ...) {
  cat(sprintf("<dp_confidence_ball> %g%% geodesic ball of radius %.4g around the release on %s\n",
              100 * x$level, x$radius, manifold_label(x$manifold)))
  cat(sprintf("  from the public noise law: %s\n", x$law))
  cat("  center:\n")
  print(signif(x$center, 5))
  invisible(x)
}

# The law of the distance between a Frechet-mean release and the
# non-private estimate, from the release's public facts: list(p, q) its
# distribution and quantile functions (of the law before any cut), `cut`
# ("none": the draw stays where it fell; "cap": an untruncated draw moved
# onto the ball; "trunc": a law restricted to the ball) and a label.
release_distance_law <- function(object) {
  M <- object$manifold
  # the stage that releases the mean is the last (with private bounds the
  # first two choose the ball)
  last <- if (length(object$stages)) object$stages[[length(object$stages)]] else list()
  mech <- last$mechanism %||% object$mechanism
  sigma <- as.numeric(last$sigma %||% object$sigma)
  if (length(sigma) != 1L || !is.finite(sigma) || sigma <= 0) abort_arg("object", "has no single noise scale `sigma`")
  d <- M$dim
  flat <- M$type %in% c("euclidean", "spd_log_euclidean")
  truncated <- isTRUE(object$bounds$truncated)
  unsupported <- function() {
    abort_arg("object", sprintf(paste0(
      "is a release of mechanism \"%s\" on %s: confint() covers Frechet-mean releases on euclidean() and ",
      "spd(metric = \"log_euclidean\") (every mechanism), and the Riemannian Laplace mechanism on sphere() and ",
      "hyperbolic(); the distance law of this one is not derived yet"), mech, manifold_label(M)))
  }
  laplace_like <- mech == "laplace" || (flat && mech %in% c("kng", "wrapped_laplace", "euclidean_laplace"))
  if (flat && mech == "wrapped_gaussian") {
    return(list(p = function(t) stats::pchisq((t / sigma)^2, d), q = function(u) sigma * sqrt(stats::qchisq(u, d)),
                cut = "none", label = sprintf("sigma = %.4g times a chi law with %d degrees of freedom (wrapped Gaussian)", sigma, d)))
  }
  if (!laplace_like) unsupported()
  cut <- if (mech == "kng" || (mech == "laplace" && truncated)) "trunc" else if (mech == "laplace") "cap" else "none"
  what <- switch(cut, trunc = "restricted to the ball", cap = "untruncated, moved onto the ball", none = "untruncated")
  if (flat) {
    return(list(p = function(t) stats::pgamma(t, d, scale = sigma), q = function(u) stats::qgamma(u, d, scale = sigma),
                cut = cut, label = sprintf("Gamma(%d, sigma = %.4g) distance (%s law, %s)", d, sigma, mechanism_label(mech), what)))
  }
  logA <- switch(M$type,
    sphere = function(t) if (d == 1L) 0 * t else (d - 1) * log(sin(t)),
    hyperbolic = function(t) if (d == 1L) 0 * t else (d - 1) * (t + log1p(-exp(-2 * t)) - log(2)),
    unsupported())
  # where the untruncated radial law's mass beyond is negligible (below
  # e^-70 of the whole): A(t) <= t^(d-1) on the sphere, <= t^(d-1) e^((d-1)t)
  # hyperbolic (and >= t^(d-1)), Gamma tails
  upper <- if (M$type == "sphere") {
    min(pi, sigma * (d + 80))
  } else {
    rate <- 1 / sigma - (d - 1)
    if (rate > 0) (d + 80 + d * max(0, log(1 / (rate * sigma)))) / rate else if (cut == "trunc") Inf else
      abort_arg("object", "has an untruncated law with sigma beyond the hyperbolic limit, which has no finite mass")
  }
  if (cut == "trunc") upper <- min(upper, 2 * as.numeric(object$bounds$radius))
  radial_law(sigma, logA, upper, cut,
             sprintf("radial density exp(-t/sigma) A(t), sigma = %.4g (%s, %s)", sigma, mechanism_label(mech), what))
}

# Distribution and quantile of the density exp(-t / sigma + logA(t)) on
# [0, upper], tabulated on a fine grid (trapezoid rule). Quantiles are
# rounded up to the next grid point, so the ball errs on the large side.
radial_law <- function(sigma, logA, upper, cut, label, grid = 20001L) {
  t <- seq(0, upper, length.out = grid)
  lf <- -t / sigma + logA(t)
  lf[!is.finite(lf)] <- -Inf
  f <- exp(lf - max(lf))
  cdf <- c(0, cumsum((f[-1] + f[-grid]) / 2))
  cdf <- cdf / cdf[grid]
  p <- function(s) stats::approx(t, cdf, xout = min(s, upper), rule = 2)$y
  q <- function(u) t[min(grid, which(cdf >= u)[1])]
  # with cut = "trunc" the table already stops at 2r: its quantiles are
  # those of the law cut there
  if (cut == "trunc") list(p = function(s) 1, q = q, cut = cut, label = label) else
    list(p = p, q = q, cut = cut, label = label)
}
