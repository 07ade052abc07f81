#' Settings of the Metropolis-Hastings sampler
#'
#' The KNG and Riemannian Laplace mechanisms are sampled by random-walk
#' Metropolis-Hastings where no exact sampler exists: proposals
#' \eqn{y = Exp_x(s \xi)} with \eqn{\xi} an isotropic standard Gaussian
#' tangent vector, rejected outside the public ball. The chain starts at the
#' public centre, tunes the step `s` during burn-in towards
#' `target_acceptance` (Robbins-Monro on log s, batches of 50), then runs
#' `steps` further steps and releases the final state. The defaults mix on
#' every example of the package (acceptance is reported; a warning is raised
#' below 5% or above 95%, and an error when the chain never moved).
#'
#' @param burnin Burn-in (tuning) steps.
#' @param steps Steps after burn-in before the released state.
#' @param thin Steps between successive draws when several are requested
#'   from an `r*` sampler.
#' @param step Initial step; `NULL` uses the mechanism's scale sigma.
#' @param target_acceptance Acceptance rate aimed at during burn-in.
#' @param keep_chain Keep every post-burn-in state (memory grows with the
#'   chain); otherwise memory is O(1) in the chain length.
#' @return A list of class `mcmc_control`.
#' @examples
#' mcmc_control(burnin = 2000, steps = 2000)
#' @export
mcmc_control <- function(burnin = 5000, steps = 5000, thin = 100, step = NULL,
                         target_acceptance = 0.3, keep_chain = FALSE) {
  burnin <- check_count(burnin, "burnin", min = 0L)
  steps <- check_count(steps, "steps")
  thin <- check_count(thin, "thin")
  if (!is.null(step)) check_positive_number(step, "step")
  ok <- is.numeric(target_acceptance) && length(target_acceptance) == 1 && target_acceptance > 0 && target_acceptance < 1
  if (!ok) abort_arg("target_acceptance", "must be a number in (0, 1)")
  structure(list(burnin = burnin, steps = steps, thin = thin, step = if (is.null(step)) 0 else step,
                 target_acceptance = target_acceptance, keep_chain = isTRUE(keep_chain)),
            class = "mcmc_control")
}

mcmc_settings <- function(ctrl, n_draws) {
  if (!inherits(ctrl, "mcmc_control")) abort_arg("mcmc", "must come from mcmc_control()", call = sys.call(-1))
  s <- unclass(ctrl)
  s$n_draws <- as.integer(n_draws)
  s$thin <- if (n_draws == 1L) ctrl$steps else ctrl$thin
  s
}

check_chain <- function(res, call = sys.call(-1)) {
  if (!identical(res$method, "metropolis_hastings")) return(invisible(res))
  if (res$accepted == 0) {
    stop(structure(class = c("dpmanifold_error", "error", "condition"),
                   list(message = "the Metropolis-Hastings chain never moved after burn-in; increase `burnin` or set `step` in mcmc_control()", call = call)))
  }
  if (res$acceptance < 0.05 || res$acceptance > 0.95) {
    warning(structure(class = c("dpmanifold_mcmc_warning", "warning", "condition"),
                      list(message = sprintf("Metropolis-Hastings acceptance rate %.3f is extreme; the chain may not have mixed (adjust mcmc_control())", res$acceptance), call = call)))
  }
  invisible(res)
}

sampler_diagnostics <- function(res) {
  res$draws <- NULL
  res$chain <- NULL
  res
}

#' Samplers of the privacy mechanisms
#'
#' Draw from the laws the private mechanisms release. All use R's random
#' number generator, so `set.seed()` reproduces them. Gaussian variates
#' inside the package are made from R's uniform stream by Marsaglia's polar
#' method (faster than R's inversion); `RNGkind()`'s `kind` applies to them,
#' its `normal.kind` does not.
#'
#' * `rriemann_laplace()`: the Riemannian Laplace law
#'   \eqn{\propto \exp(-d(\eta, y)/\sigma)} restricted to the ball
#'   \eqn{B_r(center)} (Reimherr, Bharath and Soto 2021). Exact where the
#'   curvature is constant and non-negative (`euclidean()`, `sphere()`,
#'   log-Euclidean `spd()`, `kendall_shape(3)`): the geodesic radius is drawn
#'   by rejection from a Gamma(d, sigma) proposal with acceptance
#'   \eqn{(\sin(\sqrt\kappa t)/(\sqrt\kappa t))^{d-1}}, the direction
#'   uniformly, and draws outside the ball are rejected. When sigma exceeds
#'   the radius (few Gamma draws would land in the ball) the proposal is
#'   uniform on the ball instead, accepted with probability
#'   \eqn{\exp(-(d(\eta, y) - d_{min})/\sigma) \ge e^{-2r/\sigma}}.
#'   Elsewhere Metropolis-Hastings ([mcmc_control()]).
#' * `rkng()`: the K-norm gradient law
#'   \eqn{\propto \exp(-\|n^{-1}\sum_i Log_y(x_i)\|_y/\sigma)} on the ball
#'   (Soto et al. 2022). Exact on flat manifolds, where it is the Riemannian
#'   Laplace law around the Frechet mean; Metropolis-Hastings elsewhere.
#' * `rwrapped_laplace()`, `rwrapped_gaussian()`: exponential-wrapped laws on
#'   Hadamard manifolds: \eqn{Exp_{p_0}(Log_{p_0}\eta + Z)} with Z a K-norm
#'   Laplace (density \eqn{\propto e^{-\|z\|/\sigma}}) or
#'   \eqn{N(0, \sigma^2 I)} vector in orthonormal coordinates of the
#'   tangent space at the footpoint \eqn{p_0} (exponential-wrapped
#'   mechanisms, Algorithm 1).
#'
#' @param M A manifold, see [manifolds].
#' @param n Number of draws.
#' @param mean The footpoint \eqn{\eta} of the law.
#' @param X Data points (for `rkng()`).
#' @param sigma Scale.
#' @param center,radius The ball the law is restricted to (`radius = Inf` on
#'   Hadamard manifolds leaves it unrestricted).
#' @param footpoint Public footpoint of the wrapped laws (default `mean`).
#' @param mcmc Sampler settings, see [mcmc_control()].
#' @param method `"auto"` (exact where possible) or `"mcmc"` (always
#'   Metropolis-Hastings, for checking the exact samplers).
#' @return Draws in the layout of `M`, with attribute `diagnostics`.
#' @examples
#' S2 <- sphere(2)
#' y <- rriemann_laplace(S2, 100, c(0, 0, 1), sigma = 0.1, center = c(0, 0, 1), radius = 0.5)
#' summary(mfd_dist(S2, c(0, 0, 1), y))
#' rwrapped_gaussian(spd(2), 2, diag(2), sigma = 0.1)
#' @name mechanism_samplers
NULL

#' @rdname mechanism_samplers
#' @export
rriemann_laplace <- function(M, n, mean, sigma, center = mean, radius = Inf,
                             mcmc = mcmc_control(), method = c("auto", "mcmc")) {
  check_manifold(M)
  n <- check_count(n, "n")
  method <- match.arg(method)
  m <- as_points(M, mean, "mean")[, 1]
  check_positive_number(sigma, "sigma")
  b <- sampler_ball(M, center, radius)
  if (is.infinite(b$radius) && !M$hadamard) abort_arg("radius", "must be finite (below max_radius(M)) on this manifold")
  res <- cpp_rlaplace(M, m, sigma, b$center, b$radius, mcmc_settings(mcmc, n), method == "mcmc")
  check_chain(res)
  structure(from_ambient(M, res$draws, single = n == 1L), diagnostics = sampler_diagnostics(res),
            chain = if (!is.null(res$chain)) from_ambient(M, res$chain))
}

#' @rdname mechanism_samplers
#' @export
rkng <- function(M, n, X, sigma, center, radius, mcmc = mcmc_control(), method = c("auto", "mcmc")) {
  check_manifold(M)
  n <- check_count(n, "n")
  method <- match.arg(method)
  Xa <- as_data_points(M, X, "X")
  check_positive_number(sigma, "sigma")
  b <- sampler_ball(M, center, radius)
  flat_mean <- if (identical(M$kappa_max, 0) && identical(M$kappa_min, 0)) {
    cpp_frechet_mean(M, Xa, rep(1, ncol(Xa)), Xa[, 1], 1000L, 1e-12)$mean
  }
  res <- cpp_rkng(M, Xa, sigma, b$center, b$radius, mcmc_settings(mcmc, n), flat_mean, method == "mcmc")
  check_chain(res)
  structure(from_ambient(M, res$draws, single = n == 1L), diagnostics = sampler_diagnostics(res),
            chain = if (!is.null(res$chain)) from_ambient(M, res$chain))
}

#' @rdname mechanism_samplers
#' @export
rwrapped_laplace <- function(M, n, mean, sigma, footpoint = mean) {
  rwrapped(M, n, mean, sigma, footpoint, "laplace")
}

#' @rdname mechanism_samplers
#' @export
rwrapped_gaussian <- function(M, n, mean, sigma, footpoint = mean) {
  rwrapped(M, n, mean, sigma, footpoint, "gaussian")
}

rwrapped <- function(M, n, mean, sigma, footpoint, kind, call = sys.call(-1)) {
  check_manifold(M)
  if (!M$hadamard) {
    abort_arg("M", sprintf("must be a Hadamard manifold (euclidean() or spd()): wrapped mechanisms do not apply on %s; use mechanism \"kng\" or \"laplace\"",
                           manifold_label(M)), call)
  }
  n <- check_count(n, "n")
  m <- as_points(M, mean, "mean")[, 1]
  f <- as_points(M, footpoint, "footpoint")[, 1]
  check_positive_number(sigma, "sigma")
  from_ambient(M, cpp_rwrapped(M, m, sigma, f, n, kind), single = n == 1L)
}

sampler_ball <- function(M, center, radius, call = sys.call(-1)) {
  C <- as_data_points(M, center, "center", call = call)
  if (ncol(C) != 1L) abort_arg("center", "must be a single point", call)
  if (!(is.numeric(radius) && length(radius) == 1 && !is.na(radius) && radius > 0)) {
    abort_arg("radius", "must be a single positive number", call)
  }
  if (is.finite(radius)) check_radius(M, radius, call = call)
  list(center = C[, 1], radius = as.numeric(radius))
}

#' Unnormalised log densities of the KNG and Riemannian Laplace laws
#'
#' `dkng()` returns \eqn{-\|n^{-1}\sum_i Log_y(x_i)\|_y/\sigma} and
#' `driemann_laplace()` returns \eqn{-d(\eta, y)/\sigma} at each point `y`:
#' the log densities with respect to the Riemannian volume up to their
#' normalising constants (which depend on the data, hence sigma = 2 Delta /
#' epsilon). `kng_gradient()` returns \eqn{n^{-1}\sum_i Log_y(x_i)}.
#'
#' @param M A manifold.
#' @param y Points at which to evaluate.
#' @param X Data points.
#' @param mean Footpoint of the Laplace law.
#' @param sigma Scale.
#' @return Numbers (`dkng()`, `driemann_laplace()`) or tangent vectors.
#' @examples
#' S2 <- sphere(2)
#' X <- rbind(c(0, 0, 1), c(0, 0.1, 1) / sqrt(1.01))
#' dkng(S2, c(0, 0, 1), X, sigma = 0.1)
#' @export
dkng <- function(M, y, X, sigma) {
  check_manifold(M)
  check_positive_number(sigma, "sigma")
  -cpp_kng_gradient_norm(M, as_points(M, y, "y"), as_data_points(M, X, "X")) / sigma
}

#' @rdname dkng
#' @export
driemann_laplace <- function(M, y, mean, sigma) {
  check_manifold(M)
  check_positive_number(sigma, "sigma")
  -mfd_dist(M, mean, y) / sigma
}

#' @rdname dkng
#' @export
kng_gradient <- function(M, y, X) {
  check_manifold(M)
  Y <- as_points(M, y, "y")
  from_ambient(M, cpp_kng_gradient(M, Y, as_data_points(M, X, "X")), attr(Y, "single"))
}

#' Calibrating the Gaussian mechanism
#'
#' `calibrate_analytic_gaussian()` returns the smallest sigma for which
#' Gaussian noise on a summary of L2 sensitivity `sensitivity` is
#' (epsilon, delta)-DP, by the exact condition of Balle and Wang (2018):
#' \eqn{\Phi(\Delta/(2\sigma) - \epsilon\sigma/\Delta) - e^\epsilon
#' \Phi(-\Delta/(2\sigma) - \epsilon\sigma/\Delta) \le \delta}. The
#' exponential-wrapped paper states this condition in its eq. (1) with a
#' repeated argument; its proof has the signs used here.
#' For mu-GDP sigma is `sensitivity / mu`; for (alpha, epsilon)-RDP it is
#' `sensitivity / sqrt(2 * epsilon / alpha)`.
#'
#' @param epsilon,delta Privacy parameters.
#' @param sensitivity L2 sensitivity Delta.
#' @return sigma.
#' @examples
#' calibrate_analytic_gaussian(1, 1e-5, 0.1)
#' @export
calibrate_analytic_gaussian <- function(epsilon, delta, sensitivity) {
  check_epsilon(epsilon)
  check_delta(delta)
  check_positive_number(sensitivity, "sensitivity")
  # The condition depends on sigma / Delta only: solve for u = sigma / Delta
  # (so no sensitivity, however large or small, over- or underflows), with
  # e^epsilon Phi(.) taken in logs (finite for any epsilon).
  excess <- function(lu) {
    u <- exp(lu)
    a <- 1 / (2 * u); b <- epsilon * u
    stats::pnorm(a - b) - exp(epsilon + stats::pnorm(-a - b, log.p = TRUE)) - delta
  }
  # excess decreases from 1 - delta (u -> 0) to -delta (u -> Inf): bracket
  # the root by doubling the interval (a bounded number of steps).
  lo <- -1; hi <- 1
  for (i in 1:60) {
    if (excess(lo) > 0) break
    lo <- 2 * lo
  }
  for (i in 1:60) {
    if (excess(hi) < 0) break
    hi <- 2 * hi
  }
  if (!(excess(lo) > 0 && excess(hi) < 0)) {
    abort_arg("epsilon", "and `delta` admit no Gaussian calibration in double precision",
              class = "dpmanifold_not_representable")
  }
  lu <- stats::uniroot(excess, c(lo, hi), tol = 1e-13)$root
  # never return a sigma on the wrong side of the root
  for (i in 1:1000) {
    if (excess(lu) <= 0) break
    lu <- lu + max(1e-12, 4 * .Machine$double.eps * abs(lu))
  }
  sigma <- exp(lu) * sensitivity
  if (!is.finite(sigma) || sigma <= 0) {
    abort_arg("sensitivity", "is too large or too small in magnitude: the result is not representable in double precision",
              class = "dpmanifold_not_representable")
  }
  sigma
}
