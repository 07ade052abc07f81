# Accounting: the composition of releases (privacy_spent()) and the budget
# that refuses to be overspent (dp_budget()). One set of composition rules
# (compose_privacy()) serves both; proofs: inst/proofs/composition.md.

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
#' @param ... [dp_release] objects.
#' @param delta Target delta for converting GDP or RDP totals (and mixtures)
#'   to (epsilon, delta)-DP.
#' @return An object of class `dp_privacy_total`: a list with `type`
#'   (`"pure"`, `"approximate"`, `"gdp"`, `"rdp"`), `epsilon`, `delta`,
#'   `mu`, `alpha`, `private`, `delta_unknown`, `not_private` and
#'   `guarantee`.
#' @seealso [dp_budget()], which refuses a release that would overspend;
#'   [dp_release].
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
  call <- sys.call()
  P <- lapply(seq_along(rel), function(i) release_privacy(rel[[i]], sprintf("..%d", i), call))
  if (!is.null(delta)) check_delta(delta, call = call)
  structure(compose_privacy(P, delta, call), class = "dp_privacy_total")
}

# The privacy facts of a release, validated against what the package
# computes (a hand-edited release must not change a total): a known
# notion with valid parameters, logical flags, and a guarantee that
# matches them.
release_privacy <- function(x, arg, call = sys.call(-1)) {
  check_release(x, arg, call = call)
  p <- x$privacy
  bad <- function(what) {
    abort_arg(arg, sprintf("has invalid privacy facts (%s): was it edited by hand?", what), call,
              class = "dpmanifold_invalid_release")
  }
  num_ok <- function(v, lo, hi = Inf, lo_open = TRUE) {
    is.numeric(v) && length(v) == 1L && !is.na(v) && is.finite(v) && (if (lo_open) v > lo else v >= lo) && v < hi
  }
  if (!(p$type %in% c("pure", "approximate", "gdp", "rdp"))) bad(sprintf("unknown notion \"%s\"", p$type))
  for (f in c("private", "delta_unknown")) {
    if (!(is.logical(p[[f]]) && length(p[[f]]) == 1L && !is.na(p[[f]]))) bad(sprintf("`%s` is not TRUE or FALSE", f))
  }
  if (p$type != "gdp" && !num_ok(p$epsilon, 0)) bad("epsilon must be a positive finite number")
  dl <- p$delta %||% 0
  if (!num_ok(dl, 0, 1, lo_open = FALSE)) bad("delta must be a number in [0, 1)")
  if (p$type == "pure" && dl != 0) bad("a pure-DP release has delta = 0")
  if (p$type == "approximate" && !(dl > 0)) bad("an approximate-DP release has delta > 0")
  if (p$type == "gdp" && !num_ok(p$mu, 0)) bad("mu must be a positive finite number")
  if (p$type == "rdp" && !num_ok(p$alpha, 1)) bad("alpha must be a finite number > 1")
  if (!identical(p$private, !length(p$not_private))) bad("`private` contradicts `not_private`")
  if (!identical(p$guarantee, guarantee_label(p))) bad("the guarantee does not match the notion")
  if (!is.null(x$stages) && p$type %in% c("pure", "approximate")) {
    eps <- vapply(x$stages, function(s) as.numeric(s$privacy$epsilon %||% NA_real_), numeric(1))
    if (anyNA(eps) || abs(sum(eps) - p$epsilon) > 1e-9 * p$epsilon) bad("the stages do not add up to epsilon")
  }
  p
}

# Composition of validated privacy facts (SPEC section 6): pure and
# approximate DP by sums; mu-GDP by sqrt(sum mu^2), converted at `delta`
# by the exact GDP formula; RDP at equal orders by sums, converted by
# epsilon + log(1 / delta) / (alpha - 1); mixtures need `delta`, shared
# equally by the GDP group and each RDP order; a chain's unknown delta
# stays unknown; a not-private release makes the total not private.
compose_privacy <- function(P, delta = NULL, call = sys.call(-1)) {
  type <- vapply(P, `[[`, character(1), "type")
  reasons <- unique(unlist(lapply(P, function(p) p$not_private)))
  private <- all(vapply(P, function(p) isTRUE(p$private), logical(1)))
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
    out$mu <- norm2(mu)
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
      abort_arg("delta", "is required to compose different privacy notions (or RDP orders): give the target delta for the conversion to (epsilon, delta)-DP", call)
    }
    groups <- c(if (any(gdp)) list(gdp), lapply(sort(unique(alpha[rdp])), function(a) rdp & alpha == a))
    share <- delta / length(groups)
    e <- sum(eps[classic]); d <- sum(dl[classic])
    for (g in groups) {
      if (any(gdp & g)) {
        e <- e + gdp_epsilon(norm2(mu[g]), share)
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
  out
}

# The Euclidean norm without overflow of the squares (mu = 1e200 composed
# to Inf).
norm2 <- function(x) {
  m <- max(abs(x))
  if (m > 0 && is.finite(m)) m * sqrt(sum((x / m)^2)) else m
}

# Smallest epsilon with delta(epsilon) <= delta for mu-GDP (Dong, Roth and
# Su 2022, Corollary 2.13); delta(epsilon) decreases in epsilon.
# (the second term in logs: exp(epsilon) overflows from epsilon = 710
# while its factor underflows, and Inf * 0 is NaN)
gdp_delta <- function(epsilon, mu) {
  stats::pnorm(-epsilon / mu + mu / 2) - exp(epsilon + stats::pnorm(-epsilon / mu - mu / 2, log.p = TRUE))
}
# The least epsilon at which mu-GDP gives (epsilon, delta)-DP; Inf when it
# exceeds the largest double (no finite epsilon is claimed, and a budget
# then refuses the release).
gdp_epsilon <- function(mu, delta) {
  if (gdp_delta(0, mu) <= delta) return(0)
  hi <- 1
  while (gdp_delta(hi, mu) > delta) {
    hi <- 2 * hi
    if (hi > .Machine$double.xmax / 4) return(Inf)
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

#' A privacy budget that refuses to be overspent
#'
#' `dp_budget()` creates an accountant for one data set: a total epsilon
#' (and delta) that the releases charged to it may not exceed. Pass it as
#' `budget =` to [dp_frechet_mean()] or [dp_geodesic_regression()] (or to
#' [release()]): a release that would take the total beyond the budget fails
#' with an error of class `dpmanifold_budget_exceeded` **before any data are
#' read**, and nothing is charged. Charges compose by the rules of
#' [privacy_spent()] (pure and approximate DP by sums; mu-GDP and RDP
#' converted to (epsilon, delta) at the delta left after the approximate-DP
#' charges). A release whose guarantee is not a proven one (a finite MCMC
#' chain with unknown delta, or a release that is not private) cannot be
#' accounted for and is refused too. The accountant is a reference object:
#' copies share one ledger. A release that fails after its charge (a
#' sampler's public failure event) keeps the charge.
#'
#' `update(object, ...)` reruns the call that made a release, as
#' [stats::update()] does for a model, with the named arguments in `...`
#' changed (`update(rel, epsilon = 2)`; `NULL` removes one). It is a new
#' release of the same data: it spends privacy again (charging `budget`
#' again when the call has one; see [privacy_spent()]) and says so with a
#' message of class `dpmanifold_budget_message`. A release has no formula,
#' so unnamed arguments are refused. The call keeps the data's names
#' (`x = dat$age`), never their values: it is evaluated where `update()` is
#' called, and a release whose data were given as values (by [do.call()],
#' say) asks for them again. `evaluate = FALSE` returns the call and
#' spends nothing.
#'
#' @param epsilon Total epsilon of the budget.
#' @param delta Total delta (default 0: only pure-DP releases fit, unless a
#'   delta is given).
#' @param x A `dp_budget`.
#' @param ... `print()`: unused. `update()`: the arguments of the release's
#'   call to change, each named.
#' @return `dp_budget()`: an object of class `dp_budget`;
#'   `budget_spent()`: the composed total of its charges (as
#'   [privacy_spent()] returns it) with the `left` epsilon and delta.
#'   `update()`: a new [dp_release], or the call with `evaluate = FALSE`.
#' @seealso [privacy_spent()], [dp_release].
#' @examples
#' b <- dp_budget(epsilon = 1)
#' E <- euclidean(2)
#' X <- matrix(rnorm(40, sd = 0.3), 20)
#' dp_frechet_mean(E, X, epsilon = 0.6, center = c(0, 0), radius = 1, budget = b)
#' b
#' try(dp_frechet_mean(E, X, epsilon = 0.6, center = c(0, 0), radius = 1, budget = b))
#' @export
dp_budget <- function(epsilon, delta = 0) {
  check_required("epsilon")
  check_epsilon(epsilon)
  if (!(is.numeric(delta) && length(delta) == 1L && !is.na(delta) && delta >= 0 && delta < 1)) {
    abort_arg("delta", "must be a number in [0, 1)")
  }
  ledger <- new.env(parent = emptyenv())
  ledger$charges <- list()
  structure(list(epsilon = as.numeric(epsilon), delta = as.numeric(delta), ledger = ledger),
            class = "dp_budget")
}

check_budget <- function(budget, arg = "budget", call = sys.call(-1)) {
  ok <- inherits(budget, "dp_budget") && is.environment(budget$ledger) &&
    is.numeric(budget$epsilon) && length(budget$epsilon) == 1L && is.finite(budget$epsilon) && budget$epsilon > 0 &&
    is.numeric(budget$delta) && length(budget$delta) == 1L && is.finite(budget$delta) && budget$delta >= 0 &&
    budget$delta < 1 && is.list(budget$ledger$charges)
  if (!ok) abort_arg(arg, "must be a budget from dp_budget()", call)
  invisible(budget)
}

# The total of a list of charges at the budget's delta: approximate-DP
# deltas first, the rest of delta for converting GDP and RDP charges.
budget_total <- function(budget, P) {
  if (!length(P)) return(list(epsilon = 0, delta = 0))
  type <- vapply(P, `[[`, character(1), "type")
  classic_delta <- sum(vapply(P[type %in% c("pure", "approximate")], function(p) p$delta %||% 0, numeric(1)))
  if (all(type %in% c("pure", "approximate"))) return(list(epsilon = sum(vapply(P, `[[`, numeric(1), "epsilon")),
                                                          delta = classic_delta))
  conv <- budget$delta - classic_delta
  if (!(conv > 0)) return(list(epsilon = Inf, delta = Inf))
  t <- compose_privacy(P, conv)
  list(epsilon = t$epsilon, delta = t$delta)
}

# What a release of these public settings will guarantee, before it runs.
prospective_privacy <- function(privacy, not_private, chain) {
  p <- privacy_parameters(privacy)
  p$private <- !isTRUE(not_private)
  p$delta_unknown <- isTRUE(chain)
  p
}

# Charge `privacy` (a validated privacy list of a release about to be made)
# to `budget`, or refuse before any data are read.
# charge = FALSE only checks (before the data are read); the charge itself
# comes once every input is validated, just before the draw, so that an
# input error costs no budget.
spend_budget <- function(budget, privacy, label, call = sys.call(-1), charge = TRUE) {
  if (is.null(budget)) return(invisible(NULL))
  check_budget(budget, call = call)
  refuse <- function(why) {
    stop(structure(class = c("dpmanifold_budget_exceeded", "dpmanifold_error", "error", "condition"),
                   list(message = sprintf("`budget` refuses this release: %s", why), call = call)))
  }
  if (!isTRUE(privacy$private)) refuse("it is not private, so no budget can account for it")
  if (isTRUE(privacy$delta_unknown)) refuse("its delta is unknown (a finite MCMC chain), so no budget can account for it")
  P <- c(budget$ledger$charges, list(privacy))
  tot <- budget_total(budget, P)
  # (a relative tolerance for the rounding of the sums only, a few units
  # in the last place per charge, so that 3 x 0.1 fits a budget of 0.3; a
  # delta-0 budget takes no delta at all)
  tol <- 4 * length(P) * .Machine$double.eps
  if (tot$epsilon > budget$epsilon * (1 + tol) || tot$delta > budget$delta * (1 + tol)) {
    left <- budget_left(budget)
    refuse(sprintf(paste("it would spend %s, bringing the total to epsilon = %.6g, delta = %.3g, and the budget",
                         "(epsilon = %g, delta = %g) has epsilon = %.6g, delta = %.3g left"),
                   notion_parameters(privacy), tot$epsilon, tot$delta, budget$epsilon, budget$delta,
                   left$epsilon, left$delta))
  }
  if (!charge) return(invisible(budget))
  budget$ledger$charges <- P
  budget$ledger$labels <- c(budget$ledger$labels, label)
  invisible(budget)
}

budget_left <- function(budget) {
  tot <- budget_total(budget, budget$ledger$charges)
  list(epsilon = max(0, budget$epsilon - tot$epsilon), delta = max(0, budget$delta - tot$delta))
}

#' @rdname dp_budget
#' @export
budget_spent <- function(x) {
  check_required("x")
  check_budget(x, "x")
  tot <- budget_total(x, x$ledger$charges)
  c(tot, list(left = budget_left(x), releases = length(x$ledger$charges)))
}

#' @rdname dp_budget
#' @export
print.dp_budget <- function(x, ...) {
  s <- budget_spent(x)
  cat(sprintf("<dp_budget> epsilon = %g, delta = %g\n", x$epsilon, x$delta))
  cat(sprintf("  spent: epsilon = %.6g, delta = %.3g in %d release(s)\n", s$epsilon, s$delta, s$releases))
  cat(sprintf("  left:  epsilon = %.6g, delta = %.3g\n", s$left$epsilon, s$left$delta))
  invisible(x)
}

#' @rdname dp_budget
#' @param object A [dp_release].
#' @param evaluate As in [stats::update()]: `FALSE` returns the updated
#'   call without running it.
#' @export
update.dp_release <- function(object, ..., evaluate = TRUE) {
  call <- object$call
  if (is.null(call)) abort_arg("object", "has no call to update")
  extras <- match.call(expand.dots = FALSE)$...
  # an unnamed argument would be dropped (or fail on a missing name), and
  # the call rerun unchanged at a new privacy cost: refused, before anything
  if (length(extras) && (is.null(names(extras)) || !all(nzchar(names(extras))))) {
    abort_arg("...", paste("must name the arguments to change (e.g. update(object, epsilon = 2)): a release has no",
                           "formula, and an unnamed argument would be dropped, the release rerun unchanged"))
  }
  if (length(extras)) for (a in names(extras)) call[[a]] <- extras[[a]]
  held <- vapply(as.list(call)[-1], identical, logical(1), as.name("<data>"))
  if (any(held)) {
    a <- names(call)[-1][held]
    abort_arg("object", sprintf(paste("was made from data its call does not keep (%s: the expression may spell",
                                      "out values); pass it again, e.g. update(object, %s)"),
                                paste(a, collapse = ", "), paste0(a, " = ...", collapse = ", ")))
  }
  if (!evaluate) return(call)
  if (!is.null(call$budget)) {
    message(structure(class = c("dpmanifold_budget_message", "message", "condition"),
                      list(message = "update() makes a new release: it charges `budget` again\n", call = NULL)))
  } else {
    message(structure(class = c("dpmanifold_budget_message", "message", "condition"),
                      list(message = "update() makes a new release of the same data: it spends privacy again (see privacy_spent())\n",
                           call = NULL)))
  }
  eval(call, parent.frame())
}
