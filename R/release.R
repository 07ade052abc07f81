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
#' Nothing computed from the data without noise is stored: no count of
#' clipped records, no non-private fit, no acceptance rate or number of
#' proposals (each would be a release of its own). `nonprivate` holds such
#' values only when the caller asked for them (`return_nonprivate = TRUE`),
#' and the release then prints as not private.
#'
#' `privacy_spent()` composes releases of the same data (see its section).
#'
#' @param x,object A `dp_release`.
#' @param ... Releases (for `privacy_spent()`), or unused.
#' @return A `dp_release`; `summary()` a table of its public facts.
#' @examples
#' E <- euclidean(2)
#' X <- matrix(rnorm(40, sd = 0.3), 20)
#' r1 <- dp_frechet_mean(E, X, epsilon = 0.5, center = c(0, 0), radius = 1)
#' r2 <- dp_frechet_mean(E, X, epsilon = 0.25, center = c(0, 0), radius = 1)
#' r1
#' summary(r1)
#' privacy_spent(r1, r2)
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
# when it is a name; anything else (the values themselves, as do.call()
# embeds them, or an expression that may spell them out) becomes the name
# `<data>`.
public_call <- function(call, data_args = c("X", "x", "y")) {
  if (!is.call(call)) return(call)
  for (a in intersect(names(call), data_args)) {
    if (!is.name(call[[a]])) call[[a]] <- as.name("<data>")
  }
  call
}

mechanism_label <- function(m) {
  switch(m, kng = "K-norm gradient (KNG)", laplace = "Riemannian Laplace",
         wrapped_laplace = "exponential-wrapped Laplace", wrapped_gaussian = "exponential-wrapped Gaussian",
         euclidean_laplace = "ambient Euclidean Laplace (baseline)",
         exponential = "exponential mechanism on the clipped energy",
         ssp = "sufficient-statistics perturbation (K-norm noise)",
         linearised = "exponential mechanism (localisation), then SSP of the linearised residuals", m)
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
  cat(sprintf("<dp_release> %s of %d points on %s\n", gsub("_", " ", x$statistic), as.integer(x$n),
              manifold_label(x$manifold)))
  cat(sprintf("  mechanism: %s\n", mechanism_label(x$mechanism)))
  cat(sprintf("  privacy:   %s\n", x$privacy$guarantee))
  if (length(x$stages) > 1L) {
    print_stages(x$stages)
  } else {
    cat(sprintf("  sensitivity %s, sigma %s\n", format_named(x$sensitivity), format_named(x$sigma)))
  }
  sl <- sampler_label(x$sampler)
  if (nzchar(sl)) cat("  sampler:  ", sl, "\n")
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
  check_release(object, "object")
  b <- object$bounds
  rows <- c(
    statistic = object$statistic, manifold = manifold_label(object$manifold),
    mechanism = mechanism_label(object$mechanism), guarantee = object$privacy$guarantee,
    n = object$n,
    sensitivity = format_named(object$sensitivity),
    sigma = format_named(object$sigma),
    radius = format_named(unlist(b[intersect(names(b), c("radius", "tau", "p_radius", "v_bound"))])),
    bounds_from_data = if (length(b$inferred)) paste(b$inferred, collapse = ", ") else "none",
    sampler = sampler_label(object$sampler))
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

#' Total privacy loss of several releases
#'
#' `privacy_spent()` composes releases computed on the same data and says
#' what the total guarantee is:
#' * pure and approximate DP compose by summing epsilon and delta (basic
#'   composition);
#' * mu-GDP releases compose to \eqn{\sqrt{\sum \mu_i^2}}-GDP; with `delta`
#'   the total is also converted to (epsilon, delta) by the exact GDP
#'   formula \eqn{\delta(\epsilon) = \Phi(-\epsilon/\mu + \mu/2) -
#'   e^\epsilon \Phi(-\epsilon/\mu - \mu/2)} (Dong, Roth and Su 2022);
#' * (alpha, epsilon)-RDP releases of the same order alpha compose by
#'   summing epsilon; with `delta` the total converts to
#'   \eqn{(\epsilon + \log(1/\delta)/(\alpha - 1), \delta)}-DP (Mironov 2017);
#' * mixing notions (or RDP orders) needs `delta`: each GDP group and each
#'   RDP order is converted at an equal share of `delta`, then everything is
#'   summed as approximate DP. Without `delta` the call is refused;
#' * a release made by a finite MCMC chain is (epsilon, delta)-DP with an
#'   unknown delta, and so is any total it enters (`delta_unknown`);
#' * a not-private release makes the total not private.
#'
#' @param ... `dp_release` objects.
#' @param delta Target delta for converting GDP or RDP totals (and mixtures)
#'   to (epsilon, delta)-DP.
#' @return An object of class `dp_privacy_total`: a list with `type`
#'   (`"pure"`, `"approximate"`, `"gdp"`, `"rdp"`), `epsilon`, `delta`,
#'   `mu`, `alpha`, `private`, `delta_unknown`, `not_private` and
#'   `guarantee`.
#' @references Dong, Roth and Su (2022), Gaussian differential privacy,
#'   Corollary 2.13; Mironov (2017), Renyi differential privacy,
#'   Proposition 3; exponential-wrapped mechanisms paper, Theorems 3.2-3.4.
#' @examples
#' E <- euclidean(2)
#' X <- matrix(rnorm(40, sd = 0.3), 20)
#' r1 <- dp_frechet_mean(E, X, epsilon = 0.5, center = c(0, 0), radius = 1)
#' g1 <- dp_frechet_mean(E, X, mechanism = "wrapped_gaussian", mu = 0.5,
#'                       center = c(0, 0), radius = 1)
#' g2 <- dp_frechet_mean(E, X, mechanism = "wrapped_gaussian", mu = 0.5,
#'                       center = c(0, 0), radius = 1)
#' privacy_spent(g1, g2)
#' privacy_spent(g1, g2, delta = 1e-6)
#' privacy_spent(r1, g1, delta = 1e-6)
#' @export
privacy_spent <- function(..., delta = NULL) {
  rel <- list(...)
  if (!length(rel)) abort_arg("...", "must be one or more dp_release objects")
  for (i in seq_along(rel)) check_release(rel[[i]], sprintf("..%d", i))
  if (!is.null(delta)) check_delta(delta)
  P <- lapply(rel, `[[`, "privacy")
  type <- vapply(P, `[[`, character(1), "type")
  reasons <- unique(unlist(lapply(P, function(p) p$not_private)))
  private <- all(vapply(P, function(p) isTRUE(p$private %||% TRUE), logical(1)))
  unknown <- any(vapply(P, function(p) isTRUE(p$delta_unknown), logical(1)))
  num <- function(field) vapply(P, function(p) as.numeric(p[[field]] %||% NA_real_), numeric(1))
  eps <- num("epsilon"); dl <- num("delta"); dl[is.na(dl)] <- 0
  mu <- num("mu"); alpha <- num("alpha")
  out <- list(type = NA_character_, epsilon = NA_real_, delta = NA_real_, mu = NA_real_, alpha = NA_real_)
  classic <- type %in% c("pure", "approximate")
  gdp <- type == "gdp"
  rdp <- type == "rdp"
  if (all(classic)) {
    out$epsilon <- sum(eps); out$delta <- sum(dl)
    out$type <- if (out$delta > 0) "approximate" else "pure"
  } else if (all(gdp)) {
    out$type <- "gdp"
    out$mu <- sqrt(sum(mu^2))
    if (!is.null(delta)) { out$epsilon <- gdp_epsilon(out$mu, delta); out$delta <- delta }
  } else if (all(rdp) && length(unique(alpha)) == 1L) {
    out$type <- "rdp"
    out$alpha <- alpha[1]; out$epsilon <- sum(eps)
    if (!is.null(delta)) {
      out$epsilon <- out$epsilon + log(1 / delta) / (out$alpha - 1)
      out$delta <- delta
    }
  } else {
    if (is.null(delta)) {
      abort_arg("delta", "is required to compose different privacy notions (or RDP orders): give the target delta for the conversion to (epsilon, delta)-DP")
    }
    groups <- c(if (any(gdp)) list(gdp), lapply(sort(unique(alpha[rdp])), function(a) rdp & alpha == a))
    share <- delta / length(groups)
    e <- sum(eps[classic]); d <- sum(dl[classic])
    for (g in groups) {
      if (any(gdp & g)) {
        e <- e + gdp_epsilon(sqrt(sum(mu[g]^2)), share)
      } else {
        e <- e + sum(eps[g]) + log(1 / share) / (alpha[g][1] - 1)
      }
      d <- d + share
    }
    out$type <- "approximate"; out$epsilon <- e; out$delta <- d
  }
  if (unknown && out$type == "pure") out$type <- "approximate"
  out$private <- private
  out$delta_unknown <- unknown
  out$not_private <- if (private) character() else reasons
  out$guarantee <- total_label(out)
  structure(out, class = "dp_privacy_total")
}

# Smallest epsilon with delta(epsilon) <= delta for mu-GDP (Dong, Roth and
# Su 2022, Corollary 2.13); delta(epsilon) decreases in epsilon.
gdp_delta <- function(epsilon, mu) {
  stats::pnorm(-epsilon / mu + mu / 2) - exp(epsilon) * stats::pnorm(-epsilon / mu - mu / 2)
}
gdp_epsilon <- function(mu, delta) {
  if (gdp_delta(0, mu) <= delta) return(0)
  hi <- 1
  while (gdp_delta(hi, mu) > delta) {
    hi <- 2 * hi
    if (hi > 1e6) abort_arg("delta", "is too small for this mu: the equivalent epsilon is not representable")
  }
  e <- stats::uniroot(function(e) gdp_delta(e, mu) - delta, c(0, hi), tol = 1e-12)$root
  while (gdp_delta(e, mu) > delta) e <- e + 1e-12 * max(1, e)  # never below the root
  e
}

total_label <- function(o) {
  if (!o$private) {
    return(sprintf("NOT private (%s)", paste(o$not_private, collapse = "; ")))
  }
  base <- switch(o$type,
    pure = sprintf("epsilon-DP with epsilon = %.6g", o$epsilon),
    approximate = sprintf("(epsilon, delta)-DP with epsilon = %.6g, delta = %.3g", o$epsilon, o$delta),
    gdp = if (is.na(o$epsilon)) sprintf("mu-GDP with mu = %.6g (give delta to convert)", o$mu) else
      sprintf("mu-GDP with mu = %.6g, i.e. (epsilon, delta)-DP with epsilon = %.6g, delta = %.3g", o$mu, o$epsilon, o$delta),
    rdp = if (is.na(o$delta)) sprintf("(alpha, epsilon)-RDP with alpha = %g, epsilon = %.6g (give delta to convert)", o$alpha, o$epsilon) else
      sprintf("(alpha, epsilon)-RDP at alpha = %g, i.e. (epsilon, delta)-DP with epsilon = %.6g, delta = %.3g", o$alpha, o$epsilon, o$delta))
  if (o$delta_unknown) {
    base <- if (o$type == "approximate" && o$delta == 0)
      sprintf("(epsilon, delta)-DP with epsilon = %.6g and delta unknown (finite MCMC chains)", o$epsilon) else
      paste0(base, ", plus an unknown delta from finite MCMC chains")
  }
  base
}

#' @export
print.dp_privacy_total <- function(x, ...) {
  cat("<privacy spent>", x$guarantee, "\n")
  invisible(x)
}
