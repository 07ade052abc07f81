# The sampler layer of the releases (SPEC sections 3 and 6): one draw of the
# Riemannian Laplace or KNG law, exact by default, by Metropolis-Hastings
# only when the caller asks. These functions return the draw and nothing
# else: no proposal counts, no acceptance, no tuned step. Their running time
# depends on the data (the number of proposals of a rejection sampler does).
# A sampler refuses up front, from public quantities only, when its public
# acceptance bound is too low (a `dpmanifold_sampler_error` whose message
# names public quantities only); once it runs it returns a draw
# (inst/proofs/exact-samplers.md).

# The failure probability of the exact samplers' refusal rule (one home:
# the core's kFailureProbability; inst/proofs/exact-samplers.md).
exact_failure_probability <- function() cpp_failure_probability()

# Classed error of the samplers.
abort_sampler <- function(msg, call = sys.call(-1)) {
  stop(structure(class = c("dpmanifold_sampler_error", "dpmanifold_error", "error", "condition"),
                 list(message = msg, call = call)))
}

#' The largest scale of a proper untruncated Riemannian Laplace law
#'
#' The untruncated Riemannian Laplace law
#' \eqn{\propto \exp(-d(\eta, y)/\sigma)} on the whole manifold is
#' normalisable for every sigma on compact (sphere, Kendall) and flat
#' (Euclidean, log-Euclidean SPD) manifolds. On `spd(k)` with the
#' affine-invariant metric the volume grows exponentially: in normal
#' coordinates its density is \eqn{J(v) = \prod_{i<j} \sinh(a_{ij})/a_{ij}},
#' \eqn{a_{ij} = |\lambda_i - \lambda_j|/2}, which grows like
#' \eqn{\exp(t \sum_{i<j} a_{ij}(u))} along \eqn{v = t u}, and
#' \eqn{\max_{|u| = 1} \sum_{i<j} a_{ij}(u) = c_k = \sqrt{k(k^2-1)/3}/2}
#' (at eigenvalues proportional to \eqn{(k-1, k-3, \dots, 1-k)}). The
#' normalising constant is finite iff \eqn{\sigma < 1/c_k}: 1.414 (k = 2),
#' 0.707 (k = 3), 0.316 (k = 5), 0.110 (k = 10).
#' On `hyperbolic(d)` the polar volume is \eqn{\sinh^{d-1}(t)}: the limit is
#' \eqn{1/(d-1)}. A release uses the untruncated law (scale
#' \eqn{\Delta/\epsilon}) only below this limit (see [dp_frechet_mean()]).
#' @param M A manifold, see [manifolds].
#' @return `1/c_k` (SPD), `1/(d-1)` (hyperbolic), or `Inf`.
#' @examples
#' max_untruncated_sigma(spd(3))
#' max_untruncated_sigma(hyperbolic(4))
#' max_untruncated_sigma(sphere(2))
#' @export
max_untruncated_sigma <- function(M) {
  check_required("M")
  cpp_max_untruncated_sigma(M)
}

# A classed error for a sampler status other than "ok".
sampler_status_error <- function(res, M, sigma, radius, what, call, mean_outside = FALSE) {
  label <- manifold_label(M)
  msg <- switch(res$status,
    improper = sprintf(paste("`sigma` = %.4g is at or above max_untruncated_sigma() = %.4g on %s: the",
                             "untruncated %s law is not normalisable there; use the truncated law or a larger epsilon"),
                       sigma, max_untruncated_sigma(M), label, what),
    refused = if (mean_outside) {
      sprintf(paste("`mean` lies outside the ball B_radius(center) and `sigma` = %.4g is small compared with",
                    "`radius` = %.4g: the truncated %s law cannot be sampled by rejection within %.0f proposals;",
                    "move `mean` into the ball, enlarge `sigma`, or use method = \"mcmc\""),
              sigma, radius, what, res$max_attempts)
    } else {
      sprintf(paste("the exact %s sampler on %s (dimension %d) with sigma = %.4g and radius = %.4g would need",
                    "more than %.0f proposals to keep its failure probability below %g (its noise is as wide as",
                    "the ball in this dimension); %s"),
              what, label, M$dim, sigma, radius, res$max_attempts, exact_failure_probability(),
              if (what == "KNG") "use sampler = \"mcmc\" (an (epsilon, delta)-DP release), or more data or a larger epsilon"
              else "use the untruncated law, sampler = \"mcmc\", or more data or a larger epsilon")
    },
    unresolved = sprintf(paste("`sigma` = %.4g is below what double precision resolves at `radius` = %.4g (%g times",
                               "the radius): the exact %s sampler would not terminate, and a release that sharp is the",
                               "Frechet mean to rounding; use a smaller epsilon (or sigma), or mechanism = \"laplace\""),
                         sigma, radius, 1e-13, what),
    exhausted = sprintf(paste("the exact %s sampler on %s (sigma = %.4g, radius = %.4g) reached its public bound of",
                              "%.0f proposals, an event of probability below %g; draw again"),
                        what, label, sigma, radius, res$max_attempts, exact_failure_probability()),
    sprintf("the exact %s sampler failed (%s)", what, res$status))
  abort_sampler(msg, call)
}

# n exact draws (ambient D x n) of the Riemannian Laplace law around `mean`
# restricted to B_radius(center); radius = Inf gives the untruncated law.
# mean_in_ball: dist(mean, center) <= radius is guaranteed by the caller
# (release paths: the mean of data clipped to the ball).
laplace_exact_draws <- function(M, mean, sigma, center, radius, n, mean_in_ball, call = sys.call(-1),
                                p_fail = exact_failure_probability()) {
  res <- cpp_rlaplace_exact(M, mean, sigma, center, radius, as.integer(n), isTRUE(mean_in_ball), p_fail)
  if (!identical(res$status, "ok")) {
    sampler_status_error(res, M, sigma, radius, "Riemannian Laplace", call, mean_outside = !isTRUE(mean_in_ball))
  }
  check_representable(M, res$draws, "sigma", "point", call)
}

kng_exact_draws <- function(M, Xa, sigma, center, radius, n, call = sys.call(-1)) {
  res <- cpp_rkng_exact(M, Xa, sigma, center, radius, as.integer(n))
  if (!identical(res$status, "ok")) sampler_status_error(res, M, sigma, radius, "KNG", call)
  res$draws
}

# Move a point (ambient vector) onto B_radius(center) along the geodesic from
# the centre, as the data are clipped (post-processing of a draw).
clip_point_to_ball <- function(M, y, center, radius) {
  d <- cpp_dist(M, matrix(center), matrix(y))
  if (!(d > radius)) return(y)
  v <- cpp_binary_op(M, "log", matrix(center), matrix(y))
  cpp_binary_op(M, "exp", matrix(center), v * (radius / d))[, 1]
}

refuse_improper <- function(M, sigma, what, call, from = NULL, spread = 0) {
  smax <- max_untruncated_sigma(M)
  if (!(sigma < smax)) sampler_status_error(list(status = "improper"), M, sigma, Inf, what, call)
  if (!is.null(from) && !untruncated_tail_ok(M, sigma, from, spread)) {
    abort_sampler(sprintf(paste("`sigma` = %.4g is so close to max_untruncated_sigma() = %.4g on %s that the untruncated",
                                "%s law reaches beyond double precision (distance %.4g from the origin) with probability",
                                "above %g; use a smaller sigma or the truncated law"),
                          sigma, smax, manifold_label(M), what, representable_distance(M), exact_failure_probability()),
                  call)
  }
}

# Distance from the origin (the point (1, 0, ..., 0) of hyperbolic(d), the
# identity of spd(k)) beyond which points leave double precision: x0 above
# the core's 1e100 on the hyperboloid, eigenvalues beyond e^(+-690) on SPD
# (affine-invariant). Inf where the untruncated law never grows.
representable_distance <- function(M) {
  switch(M$type, hyperbolic = acosh(1e100), spd_affine_invariant = 690, Inf)
}

manifold_origin <- function(M) {
  switch(M$type, hyperbolic = c(1, numeric(M$size)), spd_affine_invariant = as.vector(diag(M$size)), NULL)
}

# Public check (sigma, the manifold and a public point `from` within
# `spread` of the law's mean): the untruncated Riemannian Laplace law puts
# mass at most exact_failure_probability() beyond double precision. With
# C = 1 / max_untruncated_sigma() the volume density in normal coordinates
# satisfies 1 <= J(v) <= exp(C |v|) (hyperbolic: (sinh t / t)^(d-1);
# SPD: prod sinh(a_ij) / a_ij), so with a = 1/sigma - C > 0
#   P(dist > t) <= (sigma a)^-d P(Gamma(d, rate a) > t).
# Near the limit (a -> 0) the draws run off to distances of order d / a
# (NaN rows at sigma = 0.2499 on hyperbolic(5), issue 20 group 4).
untruncated_tail_ok <- function(M, sigma, from, spread = 0) {
  tmax <- representable_distance(M)
  if (!is.finite(tmax)) return(TRUE)
  smax <- max_untruncated_sigma(M)
  if (!is.finite(smax)) return(TRUE)
  o <- manifold_origin(M)
  t <- tmax - cpp_dist(M, matrix(o), matrix(as.numeric(from))) - spread
  if (!(t > 0)) return(FALSE)
  a <- 1 / sigma - 1 / smax
  d <- M$dim
  log_bound <- -d * log(sigma * a) + stats::pgamma(t, shape = d, rate = a, lower.tail = FALSE, log.p = TRUE)
  log_bound <= log(exact_failure_probability())
}

# One draw of the Riemannian Laplace mechanism (internal; the release layer
# calls it from dp_frechet_mean()).
#   mean, center: ambient vectors; `mean` must lie in B_radius(center).
#   truncated = TRUE:  the law restricted to the ball (sigma = 2 Delta/epsilon).
#   truncated = FALSE: the law on the whole manifold (sigma = Delta/epsilon
#     where the normalising constant does not depend on the mean; on
#     affine-invariant SPD only for sigma < max_untruncated_sigma(M)), its
#     draw moved onto the ball along the geodesic from the centre.
#   sampler = "mcmc": Metropolis-Hastings from the centre with a public step.
# Returns the ambient vector of the draw, nothing else. Running time depends
# on the data.
release_laplace <- function(M, mean, sigma, center, radius, truncated = TRUE,
                            sampler = c("exact", "mcmc"), mcmc = mcmc_control()) {
  sampler <- match.arg(sampler)
  call <- sys.call(-1)
  mean <- as.numeric(mean)
  center <- as.numeric(center)
  if (!isTRUE(truncated)) refuse_improper(M, sigma, "Riemannian Laplace", call, from = center, spread = radius)
  R <- if (isTRUE(truncated)) radius else Inf
  y <- if (sampler == "exact") {
    laplace_exact_draws(M, mean, sigma, if (isTRUE(truncated)) center else mean, R, 1L, TRUE, call)[, 1]
  } else {
    cpp_rlaplace_mcmc(M, mean, sigma, center, R, mcmc_settings(mcmc, 1L, keep = FALSE))$draws[, 1]
  }
  if (!isTRUE(truncated)) y <- clip_point_to_ball(M, y, center, radius)
  as.numeric(y)
}

# One draw of the KNG mechanism on B_radius(center) for the data Xa
# (ambient D x n, already clipped to the ball). The exact sampler computes
# the Frechet mean in C++ and rejects from a Riemannian Laplace envelope.
release_kng <- function(M, Xa, sigma, center, radius, sampler = c("exact", "mcmc"),
                        mcmc = mcmc_control()) {
  sampler <- match.arg(sampler)
  call <- sys.call(-1)
  center <- as.numeric(center)
  y <- if (sampler == "exact") {
    kng_exact_draws(M, Xa, sigma, center, radius, 1L, call)[, 1]
  } else {
    cpp_rkng_mcmc(M, Xa, sigma, center, radius, mcmc_settings(mcmc, 1L, keep = FALSE))$draws[, 1]
  }
  as.numeric(y)
}

# Whether the exact sampler runs for these PUBLIC parameters (no data
# needed): FALSE when its public bound on proposals exceeds the cap, i.e.
# when release_laplace()/release_kng() with sampler = "exact" would raise
# the classed refusal. mechanism "laplace" with truncated = FALSE asks about
# the untruncated law.
exact_sampler_available <- function(M, sigma, center, radius, mechanism = c("laplace", "kng"),
                                    truncated = TRUE) {
  mechanism <- check_choice(mechanism)
  if (mechanism == "laplace" && !isTRUE(truncated)) {
    if (!(sigma < max_untruncated_sigma(M))) return(FALSE)
    if (!untruncated_tail_ok(M, sigma, center, radius)) return(FALSE)
    radius <- Inf
  }
  cpp_exact_sampler_ok(M, sigma, as.numeric(center), radius, mechanism)
}
