#' The mechanism of a private Frechet mean
#'
#' Builds the mechanism [dp_frechet_mean()] releases, from public inputs
#' only, so that its cost and its facts can be read before any data are
#' touched; [release()] then draws it for a data set of `n` points. The
#' arguments are those of [dp_frechet_mean()], with the number of records
#' `n` in place of the data; `center` and `radius` are required (a
#' mechanism never looks at data to find them).
#'
#' @inheritParams dp_frechet_mean
#' @param center,radius Public ball holding the data (required: a mechanism
#'   is built from public inputs only); `radius` must be below [max_radius()].
#' @param n Number of records of the data set the mechanism will release
#'   (public: neighbouring data sets differ in one record, not in size).
#' @return A `dp_mechanism` (see [dp_mechanism]).
#' @seealso [dp_frechet_mean()], [release()].
#' @examples
#' S2 <- sphere(2)
#' m <- frechet_mechanism(S2, n = 100, epsilon = 0.5, center = c(0, 0, 1), radius = 0.3)
#' m
#' X <- mfd_exp(S2, c(0, 0, 1), 0.1 * mfd_random_tangent(S2, c(0, 0, 1), 100))
#' release(m, X)
#' @export
frechet_mechanism <- function(M, n, epsilon, mechanism = NULL, center, radius, delta = NULL, mu = NULL,
                              alpha = NULL, footpoint = center, truncated = NULL, align = TRUE,
                              sampler = c("exact", "mcmc"), mcmc = mcmc_control(), seed_scale = FALSE) {
  check_required(c("M", "n"))
  n <- check_count(n, "n")
  check_required(c("center", "radius"), why = "a mechanism is built from public bounds only")
  opts <- frechet_options(M, if (missing(epsilon)) NULL else epsilon, mechanism, delta, mu, alpha,
                          truncated, align, sampler, mcmc, seed_scale, mcmc_given = !missing(mcmc))
  check_footpoint_used(opts$mechanism, !missing(footpoint) && !is.null(footpoint))
  ball <- public_ball(M, NULL, center, radius)
  f <- if (is.null(footpoint)) NULL else as_points(M, footpoint, "footpoint")[, 1]
  build_frechet_mechanism(M, n, opts, ball, footpoint = f)
}

# A footpoint given for a mechanism that draws none (the default, laplace,
# kng, the baseline) is refused, as `delta` and `mu` are, not ignored.
check_footpoint_used <- function(mechanism, given, call = sys.call(-1)) {
  if (given && !isTRUE(mechanism %in% c("wrapped_laplace", "wrapped_gaussian"))) {
    abort_arg("footpoint", sprintf("only applies to mechanisms \"wrapped_laplace\" and \"wrapped_gaussian\" (%s draws no footpoint)",
                                   if (is.null(mechanism)) "the default mechanism" else sprintf("\"%s\"", mechanism)),
              call)
  }
  invisible(NULL)
}

# The options of a Frechet-mean release, validated (public inputs).
frechet_options <- function(M, epsilon, mechanism, delta, mu, alpha, truncated, align, sampler, mcmc,
                            seed_scale, mcmc_given = FALSE, call = sys.call(-1)) {
  mechanism <- if (is.null(mechanism)) NULL else
    check_choice(mechanism, c("laplace", "kng", "wrapped_laplace", "wrapped_gaussian", "euclidean_laplace"),
                 "mechanism", call = call)
  sampler <- check_choice(sampler, c("exact", "mcmc"), "sampler", call = call)
  check_flag(seed_scale, "seed_scale", call = call)
  check_flag(align, "align", call = call)
  if (!is.null(truncated)) check_flag(truncated, "truncated", call = call)
  # (chain settings with the exact sampler would be ignored: a study that
  # passed them believed it ran a chain; NULL stands for none, so that code
  # looping over samplers can pass `if (sampler == "mcmc") ctrl`)
  if (is.null(mcmc)) {
    mcmc <- mcmc_control()
    mcmc_given <- FALSE
  }
  check_mcmc(mcmc, call = call)
  if (mcmc_given && sampler == "exact") {
    abort_arg("mcmc", "applies to sampler = \"mcmc\" only: the exact sampler (the default) runs no chain, so these settings would be ignored",
              call)
  }
  if (!is.null(mechanism) && mechanism %in% c("wrapped_laplace", "wrapped_gaussian") && !M$hadamard) {
    abort_arg("mechanism", sprintf("\"%s\" needs a Hadamard manifold (%s); on %s use \"laplace\" or \"kng\"",
                                   mechanism, hadamard_constructors(), manifold_label(M)), call)
  }
  privacy <- resolve_privacy(mechanism %||% "laplace", epsilon, delta, mu, alpha, call = call)
  if (sampler == "mcmc" && !is.null(mechanism) && !mechanism %in% c("kng", "laplace")) {
    abort_arg("sampler", sprintf("\"mcmc\" applies to mechanisms \"laplace\" and \"kng\" only (\"%s\" is drawn exactly)",
                                 mechanism), call)
  }
  if (isTRUE(seed_scale) && !is.null(mechanism) && !mechanism %in% c("kng", "laplace")) {
    abort_arg("seed_scale", "applies to mechanisms \"laplace\" and \"kng\" only", call)
  }
  list(mechanism = mechanism, privacy = privacy, truncated = truncated, align = align,
       sampler = sampler, mcmc = mcmc, seed_scale = seed_scale)
}

# Proof document of each Frechet mechanism (inst/proofs/<stem>.md).
.frechet_proofs <- c(laplace = "riemannian-laplace", kng = "kng", wrapped_laplace = "wrapped",
                     wrapped_gaussian = "wrapped", euclidean_laplace = "ambient-baselines")

# The mechanism for validated public inputs: ball = list(center = ambient
# vector, radius); footpoint: ambient vector or NULL (the centre);
# inferred: names of bounds taken from the data (voids the guarantee).
build_frechet_mechanism <- function(M, n, opts, ball, footpoint = NULL, inferred = character(),
                                    call = sys.call(-1)) {
  privacy <- opts$privacy
  mechanism <- opts$mechanism %||% public_default_mechanism(M, n, privacy$epsilon, ball$center, ball$radius)
  scale <- mechanism_scale(M, mechanism, privacy, ball$radius, n, opts$truncated, opts$seed_scale, opts$align,
                           center = ball$center, sampler = opts$sampler, call = call)
  if (!is.finite(scale$sigma)) {
    # (Delta / epsilon overflowed: the samplers need a finite scale)
    abort_arg(if (identical(privacy$type, "gdp")) "mu" else "epsilon",
              sprintf("is so small that the noise scale (sensitivity %.3g over it) is not representable in double precision; use a larger one",
                      scale$sensitivity), call, class = "dpmanifold_not_representable")
  }
  in_ball <- mechanism == "kng" || (mechanism == "laplace" && isTRUE(scale$truncated))
  check_noise_representable(M, ball$radius, scale$sigma,
                            if (mechanism == "wrapped_gaussian") "gaussian" else "laplace",
                            in_ball = in_ball || opts$sampler == "mcmc",
                            privacy_arg = if (identical(privacy$type, "gdp")) "mu" else "epsilon", call = call)
  mcmc_used <- opts$sampler == "mcmc" && mechanism %in% c("kng", "laplace")
  sampler <- if (mcmc_used) {
    list(kind = "mcmc", settings = list(burnin = opts$mcmc$burnin, steps = opts$mcmc$steps))
  } else {
    list(kind = "exact")
  }
  detail <- switch(mechanism,
    laplace = if (isTRUE(scale$truncated)) "law restricted to the ball" else "untruncated law, draw moved onto the ball",
    wrapped_laplace = , wrapped_gaussian = "in the tangent space of the public footpoint",
    NULL)
  if (mcmc_used) detail <- c(detail, "Metropolis-Hastings chain")
  stage <- dp_stage("mean", mechanism, privacy = privacy_parameters(privacy),
                    sensitivity = scale$sensitivity, sigma = scale$sigma, sampler = sampler,
                    proof = .frechet_proofs[[mechanism]], detail = paste(detail, collapse = ", "))
  not_private <- character()
  if (isTRUE(opts$seed_scale)) {
    warn_privacy_leak(msg = paste("`seed_scale = TRUE` uses sigma = Delta/epsilon on a law restricted to the ball,",
                                  "whose normalising constant depends on the data: the release is NOT epsilon-DP."),
                      call = call)
    not_private <- "seed_scale = TRUE (sigma = Delta/epsilon on a truncated law)"
  }
  bounds <- list(center = from_ambient(M, matrix(ball$center), single = TRUE), radius = ball$radius,
                 inferred = inferred)
  foot <- footpoint %||% ball$center
  if (mechanism %in% c("wrapped_laplace", "wrapped_gaussian")) bounds$footpoint <- from_ambient(M, matrix(foot), single = TRUE)
  if (mechanism == "laplace") bounds$truncated <- scale$truncated
  spec <- list(law = mechanism, sigma = scale$sigma, center = ball$center, radius = ball$radius,
               truncated = isTRUE(scale$truncated), footpoint = foot, sampler = opts$sampler,
               mcmc = opts$mcmc, align = opts$align, epsilon = privacy$epsilon)
  err <- if (is.finite(scale$sigma)) frechet_expected_error(M, mechanism, scale$sigma, ball$radius)
  if (!is.null(err)) warn_low_utility(err, ball$radius, call = call)
  new_dp_mechanism("frechet_mean", M, n, privacy, bounds, list(stage), method = mechanism,
                   not_private = not_private, spec = spec, expected_error = err, subclass = "dp_mechanism_frechet",
                   build = list(fun = "build_frechet_mechanism",
                                args = list(M = M, n = n, opts = opts, ball = ball, footpoint = footpoint,
                                            inferred = inferred)))
}

#' @rdname frechet_mechanism
#' @param mechanism A mechanism from `frechet_mechanism()`.
#' @param X Data: `n` points in the layout of the manifold (clipped to the
#'   public ball inside the release).
#' @param return_nonprivate See [dp_frechet_mean()].
#' @param budget A [dp_budget()] to charge before any data are read, or `NULL`.
#' @param ... Not used: other arguments (`epsilon`, `radius`, ...) are
#'   refused, the mechanism fixes them.
#' @export
release.dp_mechanism_frechet <- function(mechanism, X, return_nonprivate = FALSE, budget = NULL, ...) {
  # (matched to the method's formals, so that the data of release(m, X), given by
  # position, are named and public_call() leaves them out of the release)
  cl <- match.call(release.dp_mechanism_frechet, sys.call(-1))
  check_required("X", call = cl)
  check_no_dots(..., what = release_takes("frechet_mechanism"), call = cl)
  st <- release_start(mechanism, X, "X", return_nonprivate, budget, call = cl)
  release_frechet_points(mechanism, st$data, return_nonprivate, call = cl, charge = st$charge)
}

# The data work of a Frechet-mean release (Xa: the data in ambient layout,
# not yet validated): one call into C++ validates, replaces the points double
# precision does not hold, clips and draws (release_frechet.hpp); the
# ambient baselines take the prepared data back and draw in R.
# `charge`: the budget's charge (or NULL), made once the data are found
# valid, before anything of the draw is returned: invalid data cost nothing.
release_frechet_points <- function(mech, Xa, return_nonprivate = FALSE, call = NULL, charge = NULL) {
  M <- mech$manifold
  s <- mech$spec
  baseline <- s$law == "euclidean_laplace"
  chain <- s$sampler == "mcmc" && s$law %in% c("laplace", "kng")
  spec <- list(law = if (baseline) "none" else s$law, sigma = s$sigma, center = s$center, radius = s$radius,
               truncated = s$truncated, footpoint = s$footpoint, chain = chain,
               mcmc = if (chain) mcmc_settings(s$mcmc, 1L, keep = FALSE), p_fail = exact_failure_probability(),
               tol = .dpm_tol, nonprivate = isTRUE(return_nonprivate))
  res <- cpp_release_frechet(M, Xa, spec)
  if (res$status == "malformed") {
    abort_off_manifold(M, "X", res$why, call = call)
  }
  # (a public refusal -- improper, refused, unresolved: decided from public
  # inputs before any draw -- costs nothing; a draw, even one that reached
  # its bound, is charged)
  if (!is.null(charge) && res$status %in% c("ok", "exhausted")) charge()
  if (res$status != "ok") {
    sampler_status_error(res, M, s$sigma, if (s$law == "laplace" && !s$truncated) Inf else s$radius,
                         if (s$law == "kng") "KNG" else "Riemannian Laplace", call)
  }
  est <- if (baseline) {
    euclidean_baseline(M, res$data, s$epsilon, list(center = s$center, radius = s$radius), s$align)
  } else {
    res$estimate
  }
  # finite and on the manifold (an ambient baseline may leave the manifold,
  # e.g. the SPD cone: its method says so with off_manifold = TRUE)
  off <- is.list(est) && isTRUE(est$off_manifold)
  if (is.list(est)) est <- est$estimate
  est <- as.numeric(check_representable(M, matrix(est), "radius", if (off) "tangent" else "point", call = call))
  nonprivate <- NULL
  if (isTRUE(return_nonprivate)) {
    warn_privacy_leak(msg = "`return_nonprivate = TRUE` stores the non-private Frechet mean and clipped count: this release is NOT private.",
                      call = call)
    nonprivate <- list(frechet_mean = from_ambient(M, matrix(res$nonprivate_mean), single = TRUE),
                       clipped = res$clipped)
  }
  release_object(mech, from_ambient(M, matrix(est), single = TRUE), nonprivate = nonprivate, call = call)
}

# The default for validated public inputs (center: an ambient vector).
public_default_mechanism <- function(M, n, epsilon, center, radius) {
  pub <- list(epsilon = epsilon)
  lap <- mechanism_scale(M, "laplace", pub, radius, n, NULL, FALSE, center = center)$sigma
  kng <- mechanism_scale(M, "kng", pub, radius, n, NULL, FALSE)$sigma
  # the same d for both: compare the scales (expected error d sigma)
  if (kng < lap && isTRUE(exact_sampler_available(M, kng, center, radius, "kng"))) "kng" else "laplace"
}

# Share of max_untruncated_sigma(M) below which the default Laplace law is
# the untruncated one.
.untruncated_share <- 0.8

# Sensitivity and scale of each mechanism, from public quantities only
# (center and sampler: the default Laplace law avoids a truncated law whose
# exact sampler refuses these public parameters when the untruncated one runs).
mechanism_scale <- function(M, mechanism, privacy, radius, n, truncated, seed_scale, align = TRUE,
                            center = NULL, sampler = "exact", call = sys.call(-1)) {
  eps <- privacy$epsilon
  if (mechanism == "laplace") {
    Delta <- frechet_sensitivity(M, radius, n, "laplace")
    untrunc_ok <- Delta / eps < max_untruncated_sigma(M)
    if (isFALSE(truncated) && !untrunc_ok) {
      abort_arg("truncated", sprintf("= FALSE needs sigma = Delta/epsilon below %.4g on %s (the untruncated law has no finite normalising constant beyond it); use truncated = TRUE or a larger epsilon",
                                     max_untruncated_sigma(M), manifold_label(M)), call)
    }
    # Default: the untruncated law only well inside its range. Close to
    # max_untruncated_sigma its radial tail (exp(-t / sigma) against a
    # volume growing like exp(C t)) hardly decays and the truncated law at
    # twice the scale does better (measured on H^2: the untruncated law wins
    # at 0.6 of the limit, loses at 0.9). A public rule: sigma, M only.
    prefer_untrunc <- Delta / eps < .untruncated_share * max_untruncated_sigma(M)
    tr <- if (is.null(truncated)) !prefer_untrunc else truncated
    if (is.null(truncated) && tr && untrunc_ok && identical(sampler, "exact") && !is.null(center) &&
        !isTRUE(seed_scale) && !exact_sampler_available(M, 2 * Delta / eps, center, radius, "laplace") &&
        exact_sampler_available(M, Delta / eps, center, radius, "laplace", truncated = FALSE)) {
      tr <- FALSE
    }
    if (isTRUE(seed_scale)) tr <- TRUE
    sigma <- if (!tr || isTRUE(seed_scale)) Delta / eps else 2 * Delta / eps
    return(list(sensitivity = Delta, sigma = sigma, truncated = tr))
  }
  if (mechanism == "kng") {
    Delta <- frechet_sensitivity(M, radius, n, "kng")
    return(list(sensitivity = Delta, sigma = if (isTRUE(seed_scale)) Delta / eps else 2 * Delta / eps))
  }
  if (mechanism %in% c("wrapped_laplace", "wrapped_gaussian")) {
    Delta <- frechet_sensitivity(M, radius, n, "wrapped")
    sigma <- switch(privacy$type,
      pure = Delta / eps,
      approximate = calibrate_analytic_gaussian(eps, privacy$delta, Delta),
      gdp = Delta / privacy$mu,
      rdp = Delta / sqrt(2 * eps / privacy$alpha))
    return(list(sensitivity = Delta, sigma = sigma))
  }
  s <- baseline_scale(M, radius, n, eps, align)
  list(sensitivity = s$sensitivity, sigma = s$sigma)
}

# Distances from the centre beyond which points of a non-compact manifold
# are no longer representable in double precision with room for the matrix
# algebra (declared by its registration: SPD, eigenvalues e^{+-100}).
max_representable_distance <- function(M) {
  if (!M$hadamard) return(Inf)
  manifold_entry(M)$max_distance
}

# Public check that the noise of a release stays representable: the radius
# plus the 1 - 1e-12 quantile of the noise length must be representable.
# Depends only on public quantities (manifold, radius, sigma).
# A law that stays in the ball (KNG, truncated Laplace, any chain) only
# needs the ball itself to be representable.
check_noise_representable <- function(M, radius, sigma, kind, in_ball = FALSE, privacy_arg = "epsilon",
                                      call = sys.call(-1)) {
  # a noise scale that underflows to zero (or to a subnormal): the samplers
  # need a positive normal sigma. It is the radius's doing when the radius
  # is itself far below double precision's range, else the privacy
  # parameter's (epsilon, or mu, near 1e308).
  if (is.finite(sigma) && !(sigma >= .Machine$double.xmin)) {
    if (radius < sqrt(.Machine$double.xmin)) {
      abort_arg("radius", sprintf("is %.4g: too small for double precision (the noise scale underflows)", radius), call,
                class = "dpmanifold_not_representable")
    }
    abort_arg(privacy_arg, sprintf("is so large that the noise scale (%.3g) underflows in double precision; use a smaller one",
                                   sigma), call, class = "dpmanifold_not_representable")
  }
  lim <- max_representable_distance(M)
  if (is.infinite(lim)) return(invisible(TRUE))
  if (radius > lim) {
    abort_arg("radius", sprintf("is %.4g: points that far from the centre are not representable in double precision on %s (at most %g)",
                                radius, manifold_label(M), lim), call, class = "dpmanifold_not_representable")
  }
  if (in_ball) return(invisible(TRUE))
  q <- if (kind == "gaussian") sigma * sqrt(stats::qchisq(1e-12, M$dim, lower.tail = FALSE)) else
    stats::qgamma(1e-12, M$dim, scale = sigma, lower.tail = FALSE)
  if (radius + q > lim) {
    abort_arg(privacy_arg, sprintf("gives a noise scale sigma = %.4g whose draws are not representable in double precision on %s; use a larger %s or a smaller radius",
                                   sigma, manifold_label(M), privacy_arg), call, class = "dpmanifold_not_representable")
  }
  invisible(TRUE)
}

# Which privacy notion a call asks for, validated.
resolve_privacy <- function(mechanism, epsilon, delta, mu, alpha, call = sys.call(-1)) {
  if (mechanism == "wrapped_gaussian") {
    # one way to state the guarantee: a second would be silently overruled
    given <- c(delta = !is.null(delta), mu = !is.null(mu), alpha = !is.null(alpha))
    if (sum(given) > 1) {
      abort_arg(names(given)[given][2], sprintf("conflicts with `%s`: give one of `delta` ((epsilon, delta)-DP), `mu` (Gaussian DP) or `alpha` (Renyi DP)",
                                               names(given)[given][1]), call)
    }
    if (!is.null(mu)) {
      check_positive_number(mu, "mu", call = call)
      return(list(type = "gdp", mu = mu, epsilon = NA_real_, delta = 0))
    }
    if (is.null(epsilon)) abort_arg("epsilon", "is required (or give `mu` for Gaussian DP)", call)
    check_epsilon(epsilon, call = call)
    if (!is.null(alpha)) {
      ok <- is.numeric(alpha) && length(alpha) == 1 && !is.na(alpha) && alpha > 1 && is.finite(alpha)
      if (!ok) abort_arg("alpha", "must be a single finite number > 1 (the Renyi order)", call)
      return(list(type = "rdp", alpha = alpha, epsilon = epsilon, delta = 0))
    }
    if (is.null(delta)) abort_arg("delta", "is required for the Gaussian mechanism under (epsilon, delta)-DP (or give `mu` or `alpha`)", call)
    check_delta(delta, call = call)
    return(list(type = "approximate", epsilon = epsilon, delta = delta))
  }
  if (is.null(epsilon)) abort_arg("epsilon", "is required", call)
  check_epsilon(epsilon, call = call)
  if (!is.null(delta)) {
    check_delta(delta, call = call)
    abort_arg("delta", "only applies to mechanism = \"wrapped_gaussian\"; the other mechanisms are epsilon-DP (delta 0)", call)
  }
  if (!is.null(mu) || !is.null(alpha)) abort_arg(if (is.null(mu)) "alpha" else "mu", "only applies to mechanism = \"wrapped_gaussian\"", call)
  list(type = "pure", epsilon = epsilon, delta = 0)
}

