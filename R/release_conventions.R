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
#'   velocity (`velocity[...]`, per unit of x); unlike broom's `tidy()` of
#'   an `lm` fit there are no standard errors, and `conf.int = TRUE` is
#'   refused (the public regions are balls: `confint()`). `glance()` gives one row of
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
#' @seealso [dp_release] (`predict()`, `coef()`, `summary()`),
#'   [confint.dp_release()], [geodesic_regression-methods] for the non-private fit.
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

tidy.dp_release <- function(x, conf.int = FALSE, ...) {
  check_release(x, "x")
  # broom's tidy(conf.int = TRUE) of a model adds per-term intervals; a
  # release's public regions are balls (confint()), not per-term intervals
  if (!identical(conf.int, FALSE)) {
    abort_arg("conf.int", paste(
      "is not supported for a release: its public confidence regions are geodesic balls, not intervals per term;",
      "use confint(x, level = )"))
  }
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

#' Public confidence regions of a private release
#'
#' For a Frechet-mean release, a region computed from the release and its public noise law only
#' (post-processing, no privacy cost): the geodesic ball around the released
#' estimate that holds the non-private estimate (the Frechet mean of the data
#' clipped to the public ball) with probability at least `level` over the
#' mechanism's noise, whatever the data.
#'
#' The radius is a quantile, or a provably conservative upper quantile, of
#' the distance between the release and the non-private estimate, read from
#' the stored facts `sigma`, `mechanism`, the law (truncated or not),
#' `sampler` and the public `radius` r; it never exceeds 2r, the diameter of
#' the public ball that holds both. The laws used:
#' * flat spaces (`euclidean()`, `spd(metric = "log_euclidean")`): a
#'   Gamma(d, sigma) distance for the Laplace-type laws (Riemannian, ambient
#'   and wrapped Laplace, KNG), sigma times a chi law for the wrapped
#'   Gaussian: exact quantiles;
#' * the Riemannian Laplace law on `sphere()`, `hyperbolic()` and
#'   `kendall_shape()`: the radial density exp(-t / sigma) A(t), A the
#'   polar volume (Kendall's shape space of k landmarks is the complex
#'   projective space of complex dimension m = k - 2 with the Fubini-Study
#'   metric of diameter pi / 2: A(t) = sin(t)^(2m-1) cos(t)), exact;
#' * the Riemannian Laplace law on `spd()` with the affine-invariant metric,
#'   whose volume depends on the direction: the radial law of a volume that
#'   dominates it in likelihood ratio, a conservative quantile;
#' * the KNG law on the curved manifolds: a conservative bound from the
#'   public bounds of the gradient norm that the exact sampler uses (the
#'   gradient norm at distance t from the estimate lies between two public
#'   functions of t).
#'
#' A law restricted to the ball is handled direction by direction from the
#' estimate, an untruncated draw moved onto the ball by the fact that the
#' move never lengthens the distance to a point of the ball. The proofs are
#' in the document shipped with the package,
#' `system.file("proofs", "confidence-balls.md", package = "dpmanifold")`.
#'
#' Available for exact Frechet-mean releases of every mechanism on
#' `euclidean()` and `spd(metric = "log_euclidean")`, and of the Riemannian
#' Laplace and KNG mechanisms (the defaults of [dp_frechet_mean()] there),
#' truncated or not, on `sphere()`, `hyperbolic()`, `kendall_shape()` and
#' `spd()` (affine-invariant); other Frechet-mean releases (the wrapped and
#' ambient mechanisms on curved manifolds, Metropolis-Hastings chains) raise
#' an error of class `dpmanifold_error`. The region covers the estimate of
#' the *clipped* data: records outside the public ball are moved onto it
#' before the mechanism runs.
#'
#' @section Regression releases:
#' For a release of [dp_geodesic_regression()] by the default method or
#' `"tangent"`, the regions come from the public error model the release
#' carries, the one behind `predict(release, newdata, interval =
#' "confidence")`: the footpoint's ball is that band at the middle of
#' `x_range`, and the velocity (per unit of x) gets a ball in the tangent
#' space at the footpoint. On `euclidean()` the result is lm's table, one
#' interval per coefficient (intercept at x = 0 and slope, for each response
#' `y1`, `y2`, ...), and `parm` picks rows by name or index; elsewhere
#' `parm` is `"p"`, `"v"` or both (or their indices 1 and 2). They hold the least-squares fit of the
#' clipped data at about their level: at 0.9, 0.91-1.00 on spheres and
#' SPD(2) with even designs and one bunched in the lower 40% of the range,
#' 0.97-0.99 on `euclidean()` (300 releases each). The velocity's ball can
#' cover less where epsilon is small: on S^2 at n = 300 (residual sd 0.05,
#' |v| 0.54, `tau = 0.3`, `radius = 0.5`; four data sets, 400 releases each)
#' it covered 0.85-0.94 at epsilon = 1 (the footpoint's 0.985-0.99) and
#' 0.91-0.93 at epsilon = 2: the weights shrink the velocity's step towards
#' the start (a mean error of up to 0.14 of the ball's radius), a bias the
#' model does not count. On `sphere()` and `kendall_shape()` a ball is no
#' wider than the manifold's diameter (pi and pi / 2). From n epsilon = 1200
#' (times d / 2 above dimension 2) the rounds clip nearer least squares ("precise rounds"), which took the
#' velocity's ball at n = 3000, epsilon = 1 from 0.13 to 1.00; just below
#' that, at n = 1000 and epsilon = 1, it covered 0.88-0.94 and the band at
#' each end of the range 0.89-0.95 (S^2, residual sd 0.03, three data sets,
#' 80 releases each; both ends at once 0.81-0.88). The model is approximate (proof section 3 of
#' `system.file("proofs", "regression-gauss-newton.md", package =
#' "dpmanifold")`): when the net's draw is the release (small n epsilon), a
#' design bunched on one side covered 0.84 at the far end of the range. The
#' chain laws have no such model, and their releases raise an error.
#'
#' The model counts the noise of the release and, where the last round's
#' clip level was drawn, the clipped fit's distance from least squares for
#' Gaussian residuals (1.5 times that of the clipped M-estimator, proof
#' section 3, "Precise rounds"); both are then inflated by 1.5 in variance. Measured at level 0.9 (30 releases of each
#' of three data sets, n = 1000): on `euclidean(1)` (slope 2, residual sd
#' 0.3, `center = 2`, `radius = 2`) the intervals covered the intercept and
#' slope of `lm()` in 0.93-1.00 of releases at epsilon = 1, 1.5, 2, 5 and 50;
#' on `sphere(2)` (Gaussian residuals of sd 0.05, `tau = 0.3`) the balls
#' covered 0.93-1.00 at epsilon = 1, 5, 10 and 50, with radii about twice
#' the mean distance. Residuals far from Gaussian can put the clipped fit
#' farther from least squares than the model allows. Skewed residuals move
#' it (`euclidean(1)`, residuals exponential minus their mean 0.3, epsilon
#' = 5: the intercept's interval held lm's in 0 of 15 releases, the slope's
#' in all), and so does any asymmetric residual law: on
#' [quakes_directions()] regressed on depth (the sphere vignette's call,
#' level 0.95) the footpoint's ball covered 0-2% of 100 releases at
#' epsilon = 1 (the release sits 0.028 from least squares, the radius is
#' 0.007-0.010) and 97-100% at epsilon = 5. There the residuals clipped at
#' their 0.6-quantile have a mean of norm 0.012 at the least-squares fit,
#' whose residuals average 0; their tails are barely heavier than
#' Gaussian (0.9- over 0.6-quantile of the norms 1.82, against 1.59).
#'
#' @param object A Frechet-mean or regression [dp_release].
#' @param parm Frechet means: not used (one ball for the whole estimate).
#'   Regressions: the coefficients, `"p"` and/or `"v"` (or their indices
#'   1 and 2), or on `euclidean()` row names or indices of the table, as
#'   for [stats::confint()].
#' @param level Coverage probability, strictly between 0 and 1.
#' @param ... Unused.
#' @return For a Frechet mean, a list of class `dp_confidence_ball`:
#'   `center` (the release's estimate), `radius` (geodesic), `level`,
#'   `manifold` and `law` (a description of the distance law used). For a
#'   regression on `euclidean()`, a matrix with columns for the lower and
#'   upper limits; elsewhere a list of class `dp_regression_confint` with
#'   `p` and `v` (each `center` and `radius`), `level`, `x0` and `manifold`.
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
#'
#' # a regression release: balls for the footpoint and the velocity
#' x <- runif(200)
#' Y <- mfd_exp(S2, north, outer(x - 0.5, c(0.4, 0, 0)))
#' Y <- mfd_exp(S2, Y, 0.03 * mfd_random_tangent(S2, Y, 200))
#' fit <- dp_geodesic_regression(S2, x, Y, epsilon = 1, tau = 0.15, center = north, radius = 0.45,
#'                               x_range = c(0, 1))
#' confint(fit, level = 0.9)
#' @seealso [dp_release] (`predict(interval = "confidence")`, `coef()`),
#'   [vcov.dp_release] (the covariance behind the intervals on [euclidean()]),
#'   [release_conventions], [dp_frechet_mean()], [dp_geodesic_regression()].
#' @importFrom stats confint
#' @export
confint.dp_release <- function(object, parm, level = 0.95, ...) {
  check_release(object, "object")
  check_probability(level, "level")
  if (identical(object$statistic, "geodesic_regression")) return(confint_regression(object, parm, level))
  if (!missing(parm)) abort_arg("parm", "is not used: the region is one geodesic ball for the whole estimate")
  if (!identical(object$statistic, "frechet_mean")) {
    abort_arg("object", "is neither a Frechet-mean nor a regression release: confint() has no region for it")
  }
  M <- object$manifold
  if (identical(object$sampler$kind, "mcmc")) {
    abort_arg("object", "was drawn by a finite Metropolis-Hastings chain, whose law is not the mechanism's: no confidence region follows from its public facts")
  }
  law <- release_distance_law(object, sys.call())
  r2 <- 2 * as.numeric(object$bounds$radius)
  radius <- switch(law$cut,
    none = law$q(level),
    cap = min(law$q(level), r2),
    trunc = law$q(level * law$p(r2)),
    bound = min(law$q(level), r2))
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
# non-private estimate, from the release's public facts (proof:
# inst/proofs/confidence-balls.md): list(p, q) its distribution and quantile
# functions (of the law before any cut), `cut` ("none": the draw stays where
# it fell; "cap": an untruncated draw moved onto the ball; "trunc": a law
# restricted to the ball; "bound": q is already a valid quantile of the
# distance, at most 2r) and a label.
release_distance_law <- function(object, call = sys.call(-1)) {
  M <- object$manifold
  # the stage that releases the mean is the last (with private bounds the
  # first two choose the ball)
  last <- if (length(object$stages)) object$stages[[length(object$stages)]] else list()
  mech <- last$mechanism %||% object$mechanism
  sigma <- as.numeric(last$sigma %||% object$sigma)
  if (length(sigma) != 1L || !is.finite(sigma) || sigma <= 0) abort_arg("object", "has no single noise scale `sigma`", call)
  d <- M$dim
  r <- as.numeric(object$bounds$radius)
  flat <- M$type %in% c("euclidean", "spd_log_euclidean")
  truncated <- isTRUE(object$bounds$truncated)
  unsupported <- function() {
    abort_arg("object", sprintf(paste0(
      "is a release of mechanism \"%s\" on %s: confint() covers Frechet-mean releases of every mechanism on ",
      "euclidean() and spd(metric = \"log_euclidean\"), and of the Riemannian Laplace and KNG mechanisms on ",
      "the curved manifolds; the distance law of this one is not derived yet"), mech, manifold_label(M)), call)
  }
  laplace_like <- mech == "laplace" || (flat && mech %in% c("kng", "wrapped_laplace", "euclidean_laplace"))
  if (flat && mech == "wrapped_gaussian") {
    return(list(p = function(t) stats::pchisq((t / sigma)^2, d), q = function(u) sigma * sqrt(stats::qchisq(u, d)),
                cut = "none", label = sprintf("sigma = %.4g times a chi law with %d degrees of freedom (wrapped Gaussian)", sigma, d)))
  }
  if (!laplace_like && !(mech == "kng" && !flat)) unsupported()
  cut <- if (mech == "kng" || (mech == "laplace" && truncated)) "trunc" else if (mech == "laplace") "cap" else "none"
  what <- switch(cut, trunc = "restricted to the ball", cap = "untruncated, moved onto the ball", none = "untruncated")
  if (flat) {
    return(list(p = function(t) stats::pgamma(t, d, scale = sigma), q = function(u) stats::qgamma(u, d, scale = sigma),
                cut = cut, label = sprintf("Gamma(%d, sigma = %.4g) distance (%s law, %s)", d, sigma, mechanism_label(mech), what)))
  }
  vol <- polar_volume_bound(M)
  if (mech == "kng") {
    return(kng_distance_law(M, sigma, r, vol$log_A,
                            sprintf("KNG, sigma = %.4g: radial bound from the public bounds of the gradient norm and %s",
                                    sigma, vol$label)))
  }
  # Riemannian Laplace: the radial law of the polar volume (or of its
  # likelihood-ratio bound), cut at 2r or capped at 2r
  growth <- 1 / max_untruncated_sigma(M)  # exponential growth rate of the volume (0 when compact or flat)
  upper <- if (is.finite(M$injectivity_radius)) {
    # A(t) <= t^(d-1) (curvature >= 0): Gamma tails
    min(M$injectivity_radius, sigma * (d + 80))
  } else {
    # A(t) <= t^(d-1) e^(growth t)
    rate <- 1 / sigma - growth
    if (rate > 0) (d + 80 + d * max(0, log(1 / (rate * sigma)))) / rate else if (cut == "trunc") Inf else
      abort_arg("object", "has an untruncated law with sigma beyond max_untruncated_sigma(), which has no finite mass")
  }
  if (cut == "trunc") upper <- min(upper, 2 * r)
  radial_law(sigma, vol$log_A, upper, cut,
             sprintf("radial density exp(-t/sigma) A(t), sigma = %.4g (%s, %s), %s", sigma, mechanism_label(mech),
                     what, vol$label))
}

# The polar volume of M (exact on flat, constant-curvature and rank-one
# spaces) or a bound that dominates it in likelihood ratio (SPD,
# affine-invariant): the C++ core's log_polar_volume_bound().
polar_volume_bound <- function(M) {
  exact <- cpp_log_polar_volume_bound(M, numeric())$exact
  list(log_A = function(t) cpp_log_polar_volume_bound(M, t)$log_A, exact = exact,
       label = if (exact) "A the polar volume" else "A(t) = t^(d-1) sinh(C t)/(C t), a likelihood-ratio bound of the polar volume")
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

# A valid upper quantile of the distance between a KNG release on B_r and
# the Frechet mean xbar of the clipped data (inst/proofs/confidence-balls.md,
# section 3): with Phi(t) <= |grad F(y)| <= Psi(t) at distance t from xbar
# (the sampler's public bounds, cpp_kng_public_bounds()) and the polar
# volume bound Abar, for every t
#   P(dist > t) <= N(t) / (N(t) + I(t)),
#   N(t) = int_t^2r exp(-Phi(s)/sigma) Abar(s) ds, I(t) = int_0^t exp(-Psi(s)/sigma) Abar(s) ds.
# On the grid s_j: Phi by its lower and Psi by its upper Riemann sum (phi
# nonincreasing, psi nondecreasing), and per cell N by its upper and I by
# its lower bound (Abar monotone on each cell): the tail is over-estimated.
kng_distance_law <- function(M, sigma, r, logA, label, grid = 20001L) {
  s <- seq(0, 2 * r, length.out = grid)
  h <- s[2] - s[1]
  b <- cpp_kng_public_bounds(M, r, s)
  Phi <- c(0, cumsum(b$phi[-1] * h))
  Psi <- c(0, cumsum(b$psi[-1] * h))
  lA <- logA(s)
  lA[is.na(lA)] <- -Inf
  hiA <- pmax(lA[-1], lA[-grid])
  loA <- pmin(lA[-1], lA[-grid])
  lN <- -Phi[-grid] / sigma + hiA   # cell [s_j, s_j+1]
  lI <- -Psi[-1] / sigma + loA
  m <- max(c(lN, lI)[is.finite(c(lN, lI))])
  N <- rev(cumsum(rev(exp(lN - m))))     # t = s_j: cells j, j+1, ...
  I <- c(0, cumsum(exp(lI - m)))[-grid]  # t = s_j: cells before j
  tail <- N / (N + I)
  q <- function(u) {
    j <- which(tail <= 1 - u)[1]
    if (is.na(j)) 2 * r else s[j]
  }
  list(p = function(t) 1, q = q, cut = "bound", label = label)
}
