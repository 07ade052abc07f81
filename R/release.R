#' Private releases
#'
#' Every private function of the package returns an object of class
#' `dp_release`. It holds the private estimate and public facts only:
#' * `estimate`: the released value (a point in the layout of the manifold
#'   for a Frechet mean; a fitted geodesic for regression);
#' * `mechanism`, `statistic`, `n` (public: neighbouring data sets differ in
#'   one record, not in size);
#' * `privacy`: the notion (`type`: `"pure"`, `"approximate"`, `"gdp"` or
#'   `"rdp"`) with `epsilon`, `delta`, `mu`, `alpha`, and what holds:
#'   `guarantee` (the printed sentence), `private` (`FALSE` when bounds came
#'   from the data, non-private values are included, or the procedure is not
#'   DP as run) with the reasons in `not_private`, and `delta_unknown` (a
#'   finite Metropolis-Hastings chain is at best (epsilon, delta)-DP with an
#'   unknown delta); the shortcuts `epsilon` and `delta`;
#' * `sensitivity` (Delta) and `sigma` (the mechanism's scale);
#' * `bounds`: the public centre, radius and other bounds (`inferred` names
#'   any that were taken from the data, which voids the guarantee);
#' * `sampler`: `kind` (`"exact"` or `"mcmc"`) and its public settings.
#'
#' The methods a user of [stats::lm()] expects answer from these alone:
#' `print()`, `summary()`, `coef()` and, for a regression release of
#' [dp_geodesic_regression()], `predict()` (documented here);
#' [confint()][confint.dp_release] (public confidence regions);
#' [nobs()][release_conventions]; [plot()][plot.dp_release];
#' [update()][dp_budget] (a new release, which spends privacy again).
#' `fitted()` and `residuals()` would need the private data and refuse
#' ([release_conventions]); [vcov()][vcov.dp_release] on [euclidean()]
#' regressions is the covariance of the release's error (not lm's sampling
#' covariance); there is no `logLik()` or formula.
#'
#' Nothing computed from the data without noise is stored: no count of
#' clipped records, no non-private fit, no acceptance rate or number of
#' proposals (each would be a release of its own). `nonprivate` holds such
#' values only when the caller asked for them (`return_nonprivate = TRUE`),
#' and the release then prints as not private.
#'
#' [privacy_spent()] composes releases of the same data, and a
#' [dp_budget()] refuses releases that would overspend it.
#'
#' @section Keep the seed of a real release secret:
#' Every release draws from R's random number generator, so `set.seed()`
#' reproduces it: useful for studies, dangerous for a real release. The
#' exact samplers reject proposals, and how many uniforms they consume
#' depends on the data; with a known seed an observer who reruns the
#' release on candidate data sets can tell neighbours apart (for the exact
#' KNG sampler the consumption differs between neighbours in about two seeds
#' in three). For a real release, do not set or publish the seed (R seeds
#' its generator from the clock and the process id), and do not release the
#' running time (`inst/proofs/exact-samplers.md`).
#'
#' @param x,object A `dp_release`.
#' @param ... Unused (`predict()` refuses unknown arguments, such as lm's
#'   `se.fit`).
#' @return `print()`: `x`, invisibly. `summary()`: an object holding the
#'   table of its public facts (`table`), its stages (`stages`) and the
#'   private estimate (`estimate`), printed with the stages' facts and the
#'   estimate. `coef()`: the estimate of a Frechet-mean release (a point
#'   in the layout of the manifold); for a regression on [euclidean()]
#'   lm's coefficients (intercept at x = 0 and slope: a named vector for one
#'   response, a 2 x d matrix for d), elsewhere `list(p, v, x0)` (the
#'   footpoint at `x0`, the middle of `x_range`, and the velocity per unit
#'   of x). `predict()`: the points of the private geodesic at `newdata`,
#'   in the layout of the responses (on `euclidean(1)` a numeric vector),
#'   or with `interval = "confidence"` `list(fit, radius, level)`.
#' @seealso [dp_frechet_mean()], [dp_geodesic_regression()],
#'   [frechet_mechanism()] and [regression_mechanism()] (a release's
#'   mechanism before the data), [confint.dp_release()],
#'   [release_conventions], [plot.dp_release()], [privacy_spent()].
#' @examples
#' E <- euclidean(2)
#' X <- matrix(rnorm(40, sd = 0.3), 20)
#' r1 <- dp_frechet_mean(E, X, epsilon = 0.5, center = c(0, 0), radius = 1)
#' r2 <- dp_frechet_mean(E, X, epsilon = 0.25, center = c(0, 0), radius = 1)
#' r1
#' summary(r1)
#' privacy_spent(r1, r2)
#'
#' # a private linear regression, used as lm's fit would be
#' x <- runif(300)
#' y <- 1 + 2 * x + rnorm(300, sd = 0.3)
#' reg <- dp_geodesic_regression(euclidean(1), x, y, epsilon = 1, center = 2,
#'                               radius = 2, x_range = c(0, 1))
#' coef(reg)
#' predict(reg, data.frame(x = c(a = 0.25, b = 0.75)), interval = "confidence")
#' @name dp_release
NULL

new_dp_release <- function(estimate, manifold, mechanism, statistic, privacy, sensitivity, sigma,
                           bounds, n, sampler, nonprivate = NULL, call = NULL, ...) {
  reasons <- as.character(privacy$not_private %||% character())
  if (length(bounds$inferred)) {
    reasons <- c(reasons, sprintf("%s taken from the data", paste(bounds$inferred, collapse = " and ")))
  }
  if (!is.null(nonprivate)) reasons <- c(reasons, "non-private values included")
  privacy$not_private <- unique(reasons)
  privacy$private <- !length(reasons)
  privacy$delta_unknown <- identical(sampler$kind, "mcmc")
  privacy$guarantee <- guarantee_label(privacy)
  call <- public_call(call)
  structure(list(estimate = estimate, manifold = manifold, mechanism = mechanism,
                 statistic = statistic, privacy = privacy,
                 epsilon = privacy$epsilon, delta = privacy$delta,
                 sensitivity = sensitivity, sigma = sigma, bounds = bounds, n = n,
                 sampler = sampler, nonprivate = nonprivate, call = call, ...),
            class = "dp_release")
}

# The call stored in a release, without the data: an argument holding data
# (X of dp_frechet_mean(), x and y of dp_geodesic_regression()) is kept only
# when it is an expression of names alone (`ages`, `dat$age`,
# `log(dat$size)`); anything holding a constant or a value (the values
# themselves, as do.call() embeds them, or an expression that may spell
# them out, such as c(0.31, 0.52)) becomes the name `<data>`.
public_call <- function(call, data_args = c("X", "x", "y")) {
  if (!is.call(call)) return(call)
  for (a in intersect(names(call), data_args)) {
    if (!names_only(call[[a]])) call[[a]] <- as.name("<data>")
  }
  call
}
names_only <- function(e) {
  if (is.name(e)) return(nzchar(as.character(e)))
  is.call(e) && all(vapply(as.list(e), names_only, logical(1)))
}

mechanism_label <- function(m) {
  switch(m, kng = "K-norm gradient (KNG)", laplace = "Riemannian Laplace",
         wrapped_laplace = "exponential-wrapped Laplace", wrapped_gaussian = "exponential-wrapped Gaussian",
         euclidean_laplace = "ambient Euclidean Laplace (baseline)",
         exponential = "exponential mechanism on the clipped energy",
         ssp = "sufficient-statistics perturbation (K-norm noise)",
         gauss_newton = "exact Gauss-Newton rounds of perturbed sufficient statistics",
         tangent = "sufficient-statistics perturbation at the centre",
         knorm = "K-norm mechanism", laplace_sums = "Laplace mechanism",
         exponential_grid = "exponential mechanism over a finite grid",
         exponential_net = "exponential mechanism over a public net of geodesics",
         linearised = "exponential mechanism (localisation), then SSP of the linearised residuals", m)
}

# What produced the estimate, in words: a default regression whose only
# estimating stage is the net's draw (no round follows it) is that draw,
# not "Gauss-Newton rounds".
release_mechanism_label <- function(x) {
  stage_names <- vapply(x$stages, function(s) s$name %||% "", "")
  mechanisms <- vapply(x$stages, function(s) s$mechanism %||% "", "")
  if (identical(x$mechanism, "gauss_newton") && !any(grepl("^(refine|moments)", stage_names)) &&
      any(stage_names == "localise" & mechanisms == "exponential_net")) {
    return(mechanism_label("exponential_net"))
  }
  mechanism_label(x$mechanism)
}

# The notion's parameters, e.g. "epsilon = 1" or "(alpha, epsilon) = (2, 0.5)".
notion_parameters <- function(p) {
  switch(p$type,
    pure = sprintf("epsilon = %g", p$epsilon),
    approximate = sprintf("epsilon = %g, delta = %g", p$epsilon, p$delta),
    gdp = sprintf("mu = %g", p$mu),
    rdp = sprintf("alpha = %g, epsilon = %g", p$alpha, p$epsilon),
    "")
}

# What holds, in one sentence (SPEC section 6).
guarantee_label <- function(p) {
  if (!isTRUE(p$private)) {
    return(sprintf("NOT private (%s); nominal %s", paste(p$not_private, collapse = "; "), notion_parameters(p)))
  }
  if (isTRUE(p$delta_unknown)) {
    return(sprintf("(epsilon, delta)-DP, delta unknown (finite MCMC chain); %s", notion_parameters(p)))
  }
  notion <- switch(p$type, pure = "epsilon-DP", approximate = "(epsilon, delta)-DP",
                   gdp = "mu-GDP", rdp = "(alpha, epsilon)-RDP")
  sprintf("%s (exact sampler); %s", notion, notion_parameters(p))
}

sampler_label <- function(s) {
  if (is.null(s$kind)) return("")
  if (identical(s$kind, "mcmc")) {
    st <- s$settings
    return(sprintf("Metropolis-Hastings, %d burn-in + %d steps (public settings)",
                   as.integer(st$burnin %||% 0), as.integer(st$steps %||% 0)))
  }
  "exact"
}

format_named <- function(x) {
  nm <- names(x) %||% rep("", length(x))
  paste(sprintf("%s%.4g", ifelse(nzchar(nm), paste0(nm, " "), ""), x), collapse = ", ")
}

#' @rdname dp_release
#' @export
print.dp_release <- function(x, ...) {
  check_release(x, "x")
  check_release_numbers(x, "x")
  cat(sprintf("<dp_release> %s of %d points on %s\n", gsub("_", " ", x$statistic), as.integer(x$n),
              manifold_label(x$manifold)))
  cat(sprintf("  mechanism: %s\n", if (length(x$stages) == 1L) stage_label(x$stages[[1]]) else release_mechanism_label(x)))
  cat(sprintf("  privacy:   %s\n", x$privacy$guarantee))
  if (length(x$stages) > 1L) {
    print_stages(x$stages)
  } else {
    cat(sprintf("  sensitivity %s, sigma %s\n", format_named(x$sensitivity), format_named(x$sigma)))
  }
  sl <- sampler_label(x$sampler)
  if (nzchar(sl)) cat("  sampler:  ", sl, "\n")
  print_release_estimate(x)
  invisible(x)
}

# The private estimate, as print() and summary() show it.
print_release_estimate <- function(x) {
  if (x$statistic == "frechet_mean") {
    cat("  estimate:\n")
    print(signif(x$estimate, 5))
  } else {
    print_estimate(x)
  }
  invisible(NULL)
}

`%||%` <- function(a, b) if (is.null(a)) b else a

#' @rdname dp_release
#' @export
summary.dp_release <- function(object, ...) {
  check_release(object, "object")
  check_release_numbers(object, "object")
  b <- object$bounds
  rows <- c(
    statistic = object$statistic, manifold = manifold_label(object$manifold),
    mechanism = release_mechanism_label(object), guarantee = object$privacy$guarantee,
    n = object$n,
    sensitivity = format_named(object$sensitivity),
    sigma = format_named(object$sigma),
    bounds = format_named(unlist(b[intersect(names(b), c("radius", "tau", "p_radius", "v_bound"))])),
    bounds_from_data = if (length(b$inferred)) paste(b$inferred, collapse = ", ") else "none",
    sampler = sampler_label(object$sampler))
  structure(list(table = data.frame(value = rows, stringsAsFactors = FALSE), estimate = object$estimate,
                 stages = object$stages, release = object),
            class = "summary.dp_release")
}

#' @export
print.summary.dp_release <- function(x, ...) {
  cat("Differentially private release\n")
  tab <- x$table
  w <- max(nchar(rownames(tab)))
  for (i in seq_len(nrow(tab))) cat(sprintf("  %-*s  %s\n", w, rownames(tab)[i], tab$value[i]))
  if (length(x$stages)) {
    cat("  stages:\n")
    print_stages(x$stages)
  }
  print_release_estimate(x$release)
  invisible(x)
}

