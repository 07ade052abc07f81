#' Private releases
#'
#' Every private function of the package returns an object of class
#' `dp_release`: a list with
#' * `estimate`: the released value (a point in the layout of the manifold
#'   for a Frechet mean; a fitted geodesic for regression);
#' * `mechanism`, `statistic`, `privacy` (type `"pure"`, `"approximate"`,
#'   `"gdp"` or `"rdp"` with `epsilon`, `delta`, `mu`, `alpha`), and the
#'   shortcuts `epsilon` and `delta`;
#' * `sensitivity` (Delta) and `sigma` (the mechanism's scale);
#' * `bounds`: the public centre and radius (and which were inferred from the
#'   data, which voids the guarantee), `clipped`: how many points were moved
#'   onto the ball;
#' * `diagnostics`: sampler figures (method, chain length, burn-in,
#'   acceptance rate, tuned step), and `nonprivate` only if asked for.
#'
#' `privacy_spent()` composes several releases: epsilons and deltas add up
#' (basic composition); mu-GDP releases compose as \eqn{\sqrt{\sum \mu^2}}.
#'
#' @param x,object A `dp_release`.
#' @param ... Releases (for `privacy_spent()`), or unused.
#' @return `privacy_spent()` returns a list with `epsilon`, `delta` and `mu`.
#' @examples
#' E <- euclidean(2)
#' X <- matrix(rnorm(40, sd = 0.3), 20)
#' r1 <- dp_frechet_mean(E, X, epsilon = 0.5, center = c(0, 0), radius = 1)
#' r2 <- dp_frechet_mean(E, X, epsilon = 0.25, center = c(0, 0), radius = 1)
#' summary(r1)
#' privacy_spent(r1, r2)
#' @name dp_release
NULL

new_dp_release <- function(estimate, manifold, mechanism, statistic, privacy, sensitivity, sigma,
                           bounds, clipped, n, diagnostics, nonprivate = NULL, call = NULL, ...) {
  structure(list(estimate = estimate, manifold = manifold, mechanism = mechanism,
                 statistic = statistic, privacy = privacy,
                 epsilon = privacy$epsilon, delta = privacy$delta,
                 sensitivity = sensitivity, sigma = sigma, bounds = bounds, clipped = clipped,
                 n = n, diagnostics = diagnostics, nonprivate = nonprivate, call = call, ...),
            class = "dp_release")
}

mechanism_label <- function(m) {
  switch(m, kng = "K-norm gradient (KNG)", laplace = "Riemannian Laplace",
         wrapped_laplace = "exponential-wrapped Laplace", wrapped_gaussian = "exponential-wrapped Gaussian",
         euclidean_laplace = "ambient Euclidean Laplace (baseline)", m)
}

privacy_label <- function(p) {
  switch(p$type,
    pure = sprintf("epsilon = %g (pure DP)", p$epsilon),
    approximate = sprintf("(epsilon, delta) = (%g, %g)", p$epsilon, p$delta),
    gdp = sprintf("mu = %g (Gaussian DP)", p$mu),
    rdp = sprintf("(alpha, epsilon) = (%g, %g) Renyi DP", p$alpha, p$epsilon),
    sequential = sprintf("epsilon = %g (%s)", p$epsilon, p$note))
}

diagnostics_label <- function(d) {
  if (is.null(d$method)) return("")
  if (!is.null(d$p) && !is.null(d$v) && is.list(d$p)) {
    return(paste0("sequential; p-step ", diagnostics_label(d$p), "; v-step ", diagnostics_label(d$v)))
  }
  if (identical(d$method, "metropolis_hastings")) {
    return(sprintf("Metropolis-Hastings: %d burn-in + %d steps, acceptance %.2f (burn-in %.2f), step %.3g",
                   as.integer(d$burnin), as.integer(d$steps), d$acceptance, d$burnin_acceptance, d$step))
  }
  if (!is.null(d$attempts)) return(sprintf("exact sampler (%d proposals)", as.integer(d$attempts)))
  "exact sampler"
}

#' @rdname dp_release
#' @export
print.dp_release <- function(x, ...) {
  cat(sprintf("<dp_release> %s of %d points on %s\n", gsub("_", " ", x$statistic), x$n,
              manifold_label(x$manifold)))
  cat(sprintf("  mechanism: %s\n", mechanism_label(x$mechanism)))
  cat(sprintf("  privacy:   %s\n", privacy_label(x$privacy)))
  if (length(x$bounds$inferred)) {
    cat(sprintf("  WARNING:   %s taken from the data: NOT differentially private\n",
                paste(x$bounds$inferred, collapse = " and ")))
  }
  sens <- paste(sprintf("%s%.4g", ifelse(nzchar(names(x$sensitivity) %||% ""), paste0(names(x$sensitivity), " "), ""),
                        x$sensitivity), collapse = ", ")
  cat(sprintf("  sensitivity %s, sigma %s; %d point(s) clipped to the public bounds\n", sens,
              paste(sprintf("%.4g", x$sigma), collapse = ", "), as.integer(sum(x$clipped))))
  dl <- diagnostics_label(x$diagnostics)
  if (nzchar(dl)) cat("  sampler:  ", dl, "\n")
  if (x$statistic == "frechet_mean") {
    cat("  estimate:\n")
    print(signif(x$estimate, 5))
  } else {
    print_estimate(x)
  }
  invisible(x)
}

`%||%` <- function(a, b) if (is.null(a)) b else a

#' @rdname dp_release
#' @export
summary.dp_release <- function(object, ...) {
  d <- object$diagnostics
  rows <- c(
    statistic = object$statistic, manifold = manifold_label(object$manifold),
    mechanism = mechanism_label(object$mechanism), privacy = privacy_label(object$privacy),
    n = object$n,
    sensitivity = paste(signif(object$sensitivity, 4), collapse = ", "),
    sigma = paste(signif(object$sigma, 4), collapse = ", "),
    radius = paste(signif(unlist(object$bounds[intersect(names(object$bounds), c("radius", "tau", "v_bound"))]), 4), collapse = ", "),
    clipped = sum(object$clipped),
    bounds_from_data = if (length(object$bounds$inferred)) paste(object$bounds$inferred, collapse = ", ") else "none",
    sampler = diagnostics_label(d))
  structure(list(table = data.frame(value = rows, stringsAsFactors = FALSE), release = object),
            class = "summary.dp_release")
}

#' @export
print.summary.dp_release <- function(x, ...) {
  cat("Differentially private release\n")
  tab <- x$table
  w <- max(nchar(rownames(tab)))
  for (i in seq_len(nrow(tab))) cat(sprintf("  %-*s  %s\n", w, rownames(tab)[i], tab$value[i]))
  invisible(x)
}

#' @rdname dp_release
#' @export
privacy_spent <- function(...) {
  rel <- list(...)
  if (!length(rel) || !all(vapply(rel, inherits, logical(1), "dp_release"))) {
    abort_arg("...", "must be one or more dp_release objects")
  }
  types <- vapply(rel, function(r) r$privacy$type, character(1))
  mus <- vapply(rel, function(r) r$privacy$mu %||% NA_real_, numeric(1))
  eps <- vapply(rel, function(r) r$privacy$epsilon %||% NA_real_, numeric(1))
  dl <- vapply(rel, function(r) r$privacy$delta %||% 0, numeric(1))
  if (any(types == "rdp")) warning("RDP releases are summed by their epsilon at their own orders; convert to (epsilon, delta) for a single guarantee", call. = FALSE)
  gdp <- types == "gdp"
  list(epsilon = if (any(!gdp)) sum(eps[!gdp]) else 0,
       delta = sum(dl[!gdp]),
       mu = if (any(gdp)) sqrt(sum(mus[gdp]^2)) else 0)
}
