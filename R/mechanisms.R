#' Settings of the Metropolis-Hastings sampler
#'
#' The mechanisms are sampled exactly by default; Metropolis-Hastings runs
#' only when a caller asks for it (`sampler = "mcmc"` in the releases,
#' `method = "mcmc"` in [rriemann_laplace()] and [rkng()]). A finite chain is
#' at best (epsilon, delta)-DP with an unknown delta (Kulkarni and Soto,
#' appendix A.1), and releases made with it say so.
#'
#' The chain proposes \eqn{y = Exp_x(s \xi)}, \eqn{\xi} an isotropic
#' standard Gaussian tangent vector, rejects proposals outside the public
#' ball, starts at the public centre, runs `burnin` steps and then `steps`
#' further steps, and releases the final state. The step `s` is **not tuned
#' on the data**: a step adapted to the data's target would itself be a
#' release (a privacy auditor could read the data from it). It is `step`
#' when given, otherwise a public default from sigma and the dimension d,
#' \eqn{2.38 \sigma \sqrt{(d+1)/d}} (the random-walk rule of thumb for a
#' Laplace-type law of scale sigma; KNG uses the scale of its Laplace
#' envelope), capped so that a typical proposal stays within the ball.
#' Nothing about the chain's path (acceptance rate, moves) is returned or
#' checked, since any such check would depend on the data.
#'
#' @param burnin Burn-in steps.
#' @param steps Steps after burn-in before the released state.
#' @param thin Steps between successive draws when several are requested
#'   from an `r*` sampler.
#' @param step Step of the random walk; `NULL` uses the public default.
#' @param keep_chain Keep every post-burn-in state (for studies of the
#'   chain; memory grows with the chain); otherwise memory is O(1) in the
#'   chain length.
#' @return A list of class `mcmc_control`.
#' @examples
#' mcmc_control(burnin = 2000, steps = 2000)
#' @export
mcmc_control <- function(burnin = 5000, steps = 5000, thin = 100, step = NULL, keep_chain = FALSE) {
  burnin <- check_count(burnin, "burnin", min = 0L)
  steps <- check_count(steps, "steps")
  thin <- check_count(thin, "thin")
  if (!is.null(step)) check_positive_number(step, "step")
  if (!(is.logical(keep_chain) && length(keep_chain) == 1L && !is.na(keep_chain))) {
    abort_arg("keep_chain", "must be TRUE or FALSE")
  }
  structure(list(burnin = burnin, steps = steps, thin = thin, step = if (is.null(step)) 0 else step,
                 keep_chain = keep_chain),
            class = "mcmc_control")
}

check_mcmc <- function(mcmc, call = sys.call(-1)) {
  if (!inherits(mcmc, "mcmc_control")) abort_arg("mcmc", "must come from mcmc_control()", call)
  invisible(mcmc)
}

# The C++ chain's settings. `keep = FALSE` where only the draws are used
# (a release): a kept chain would be allocated and dropped. A kept chain
# holds thin x n_draws states of `dim` numbers: checked against the memory
# budget before the chain runs (steps = 2^31 - 1 on S^2 asked for 51 GB).
mcmc_settings <- function(ctrl, n_draws, dim = NULL, keep = TRUE, call = sys.call(-1)) {
  if (!inherits(ctrl, "mcmc_control")) abort_arg("mcmc", "must come from mcmc_control()", call = call)
  s <- unclass(ctrl)
  s$n_draws <- as.integer(n_draws)
  s$thin <- if (n_draws == 1L) ctrl$steps else ctrl$thin
  if (!keep) s$keep_chain <- FALSE
  if (isTRUE(s$keep_chain) && !is.null(dim)) check_alloc(as.numeric(s$thin) * n_draws, dim, "mcmc", call)
  s
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
#'   \eqn{\propto \exp(-d(\eta, y)/\sigma)} (Reimherr, Bharath and Soto
#'   2021), with respect to the Riemannian volume, restricted to the ball
#'   \eqn{B_r(center)} (`truncated = TRUE`) or on the whole manifold
#'   (`truncated = FALSE`, or `radius = Inf`). Exact on every manifold of the
#'   package, in geodesic polar coordinates around \eqn{\eta}: the direction
#'   is uniform and the radius t has density \eqn{\propto e^{-t/\sigma}A(t)}
#'   with A the polar volume: \eqn{t^{d-1}} (flat: Gamma(d, sigma)),
#'   \eqn{\sin^{d-1} t} on \eqn{S^d}, \eqn{\sin^{2k-6}(t)\sin(2t)/2},
#'   \eqn{t < \pi/2}, on Kendall's space of k landmarks (rank one, CP^(k-2)),
#'   drawn by rejection from a piecewise-exponential hat. On affine-invariant
#'   `spd(k)` the volume density in normal coordinates,
#'   \eqn{J(v) = \prod_{i<j}\sinh(a_{ij})/a_{ij}},
#'   \eqn{a_{ij} = |\lambda_i-\lambda_j|/2} (\eqn{\lambda}: eigenvalues of
#'   the whitened v), depends on the direction: the radius is proposed from
#'   a hat built on \eqn{\log J(tu) \le A (k/4) t^2 + B(A) c_k t}, the
#'   direction uniformly, and the pair kept with probability J over that
#'   bound. The untruncated law there is proper only for
#'   \eqn{\sigma < 1/c_k}, \eqn{c_k = \sqrt{k(k^2-1)/3}/2} (the limit
#'   \eqn{1/c_k}: 1.414 for k = 2, 0.707 for k = 3, 0.316 for k = 5, 0.110
#'   for k = 10). The truncated law
#'   is drawn by proposing from the untruncated one and keeping draws inside
#'   the ball, or, when that is slow (sigma large relative to the radius, or
#'   `mean` outside the ball), uniformly on the ball with probability
#'   \eqn{\exp(-(d(\eta, y) - d_{min})/\sigma)}.
#' * `rkng()`: the K-norm gradient law
#'   \eqn{\propto \exp(-\|n^{-1}\sum_i Log_y(x_i)\|_y/\sigma)} on the ball
#'   (Soto et al. 2022), exact on every manifold, by rejection from a radial
#'   envelope around the Frechet mean \eqn{\hat x} (computed to a public
#'   tolerance). On the ball \eqn{\|grad F(y)\| \ge \Phi(d(y, \bar x))},
#'   where \eqn{\Phi' \ge c = h(2r, \kappa_{max})} (1 on Hadamard
#'   manifolds) is the lower bound of the Hessian of F from the Hessian
#'   comparison theorem (Soto et al. 2022, Lemma 1, refined with the
#'   distances of the data); proposals \eqn{\propto e^{-\Phi(t)/\sigma}} in
#'   geodesic polar coordinates around \eqn{\hat x} are kept with
#'   probability \eqn{\exp(-(\|grad F(y)\| + \delta - \Phi(t))/\sigma)},
#'   \eqn{\delta \ge d(\hat x, \bar x)}. With \eqn{\Phi(t) = c t} this is
#'   the Riemannian Laplace envelope of scale \eqn{\sigma / c}.
#' * `rwrapped_laplace()`, `rwrapped_gaussian()`: exponential-wrapped laws on
#'   Hadamard manifolds: \eqn{Exp_{p_0}(Log_{p_0}\eta + Z)} with Z a K-norm
#'   Laplace (density \eqn{\propto e^{-\|z\|/\sigma}}) or
#'   \eqn{N(0, \sigma^2 I)} vector in orthonormal coordinates of the
#'   tangent space at the footpoint \eqn{p_0} (exponential-wrapped
#'   mechanisms, Algorithm 1).
#'
#' `method = "mcmc"` samples the Laplace and KNG laws by the
#' Metropolis-Hastings chain of [mcmc_control()] instead (for checking the
#' exact samplers, or studies).
#'
#' **Running time depends on the data.** The rejection samplers take a
#' random number of proposals whose law depends on `mean` (or `X`); the
#' number is never returned. Each rejection loop stops after a public number
#' of proposals, derived from a public lower bound on its acceptance so that
#' stopping has probability below 1e-10, and then raises an error of class
#' `dpmanifold_sampler_error`. When that public bound exceeds 1e7 proposals
#' (sigma tiny compared with the radius in a high dimension, or, for
#' `rriemann_laplace()`, a `mean` far outside the ball) the sampler refuses
#' up front with the same class of error.
#'
#' @param M A manifold, see [manifolds].
#' @param n Number of draws.
#' @param mean The footpoint \eqn{\eta} of the law.
#' @param X Data points (for `rkng()`), in the ball (see [clip_to_ball()]).
#' @param sigma Scale.
#' @param center,radius The ball the law is restricted to. `radius = Inf`
#'   (the default of `rriemann_laplace()`) gives the law on the whole
#'   manifold. `rkng()` needs a finite radius below [max_radius()].
#' @param truncated For `rriemann_laplace()`: `TRUE` restricts the law to the
#'   ball; `FALSE` draws from the law on the whole manifold (`center` and
#'   `radius` are then not used; a release moves such a draw onto the ball
#'   with [clip_to_ball()]).
#' @param footpoint Public footpoint of the wrapped laws (default `mean`).
#' @param mcmc Sampler settings for `method = "mcmc"`, see [mcmc_control()].
#' @param method `"exact"` (default) or `"mcmc"`.
#' @return Draws in the layout of `M`, with attribute `sampler` (`"exact"`
#'   or `"mcmc"`) and, for `mcmc_control(keep_chain = TRUE)`, `chain`.
#' @references Reimherr, Bharath and Soto (2021), Differential privacy over
#'   Riemannian manifolds; Soto, Bharath, Reimherr and Slavkovic (2022),
#'   Shape and structure preserving differential privacy, Lemma 1 and
#'   supplement B.
#' @examples
#' S2 <- sphere(2)
#' y <- rriemann_laplace(S2, 100, c(0, 0, 1), sigma = 0.1, center = c(0, 0, 1), radius = 0.5)
#' summary(mfd_dist(S2, c(0, 0, 1), y))
#' # the law on the whole sphere
#' y_all <- rriemann_laplace(S2, 100, c(0, 0, 1), sigma = 0.1, truncated = FALSE)
#' summary(mfd_dist(S2, c(0, 0, 1), y_all))
#' X <- mfd_exp(S2, c(0, 0, 1), 0.1 * mfd_random_tangent(S2, c(0, 0, 1), 20))
#' X <- clip_to_ball(S2, X, c(0, 0, 1), pi / 8)
#' rkng(S2, 2, X, sigma = 0.05, center = c(0, 0, 1), radius = pi / 8)
#' rwrapped_gaussian(spd(2), 2, diag(2), sigma = 0.1)
#' @name mechanism_samplers
NULL

#' @rdname mechanism_samplers
#' @export
rriemann_laplace <- function(M, n, mean, sigma, center = mean, radius = Inf, truncated = TRUE,
                             mcmc = mcmc_control(), method = c("exact", "mcmc")) {
  check_required(c("M", "n", "mean", "sigma"))
  n <- check_count(n, "n")
  check_alloc(n, M$ambient_dim, "n")
  method <- check_choice(method)
  check_mcmc(mcmc)
  m <- as_points(M, mean, "mean")[, 1]
  check_positive_number(sigma, "sigma")
  if (!(is.logical(truncated) && length(truncated) == 1L && !is.na(truncated))) {
    abort_arg("truncated", "must be TRUE or FALSE")
  }
  call <- sys.call()
  if (truncated) {
    b <- sampler_ball(M, center, radius)
  } else {
    b <- list(center = m, radius = Inf)
  }
  if (is.infinite(b$radius)) refuse_improper(M, sigma, "Riemannian Laplace", call, from = b$center)
  if (method == "exact") {
    inside <- is.infinite(b$radius) || cpp_dist(M, matrix(b$center), matrix(m)) <= b$radius * (1 + 1e-12)
    draws <- laplace_exact_draws(M, m, sigma, b$center, b$radius, n, inside, call)
    return(structure(from_ambient(M, draws, single = n == 1L), sampler = "exact"))
  }
  res <- cpp_rlaplace_mcmc(M, m, sigma, b$center, b$radius, mcmc_settings(mcmc, n, M$ambient_dim))
  structure(from_ambient(M, res$draws, single = n == 1L), sampler = "mcmc",
            chain = if (!is.null(res$chain)) from_ambient(M, res$chain))
}

#' @rdname mechanism_samplers
#' @export
rkng <- function(M, n, X, sigma, center, radius, mcmc = mcmc_control(), method = c("exact", "mcmc")) {
  check_required(c("M", "n", "X", "sigma"))
  check_required(c("center", "radius"), why = "the public ball the KNG law lives on")
  n <- check_count(n, "n")
  check_alloc(n, M$ambient_dim, "n")
  method <- check_choice(method)
  check_mcmc(mcmc)
  Xa <- as_data_points(M, X, "X")
  check_positive_number(sigma, "sigma")
  b <- sampler_ball(M, center, radius)
  if (is.infinite(b$radius)) abort_arg("radius", "must be finite: the KNG law lives on a public ball")
  # (relative and absolute slack: clip_to_ball() puts points on the sphere
  # of the ball, at a distance that rounds a few ulps either way, which at a
  # radius of 1e-8 on SPD is far more than 1e-9 of it)
  if (any(cpp_dist(M, matrix(b$center), Xa) > b$radius * (1 + 1e-9) + 64 * .Machine$double.eps)) {
    abort_arg("X", "must lie in the ball B_radius(center) (see clip_to_ball())")
  }
  call <- sys.call()
  if (method == "exact") {
    draws <- kng_exact_draws(M, Xa, sigma, b$center, b$radius, n, call)
    return(structure(from_ambient(M, draws, single = n == 1L), sampler = "exact"))
  }
  res <- cpp_rkng_mcmc(M, Xa, sigma, b$center, b$radius, mcmc_settings(mcmc, n, M$ambient_dim))
  structure(from_ambient(M, res$draws, single = n == 1L), sampler = "mcmc",
            chain = if (!is.null(res$chain)) from_ambient(M, res$chain))
}

#' @rdname mechanism_samplers
#' @export
rwrapped_laplace <- function(M, n, mean, sigma, footpoint = mean) {
  check_required(c("M", "n", "mean", "sigma"))
  rwrapped(M, n, mean, sigma, footpoint, "laplace")
}

#' @rdname mechanism_samplers
#' @export
rwrapped_gaussian <- function(M, n, mean, sigma, footpoint = mean) {
  check_required(c("M", "n", "mean", "sigma"))
  rwrapped(M, n, mean, sigma, footpoint, "gaussian")
}

rwrapped <- function(M, n, mean, sigma, footpoint, kind, call = sys.call(-1)) {
  check_manifold(M)
  if (!M$hadamard) {
    abort_arg("M", sprintf("must be a Hadamard manifold (%s): wrapped mechanisms do not apply on %s; use mechanism \"kng\" or \"laplace\"",
                           hadamard_constructors(), manifold_label(M)), call)
  }
  n <- check_count(n, "n")
  check_alloc(n, M$ambient_dim, "n")
  m <- as_points(M, mean, "mean")[, 1]
  f <- as_points(M, footpoint, "footpoint")[, 1]
  check_positive_number(sigma, "sigma")
  draws <- check_representable(M, cpp_rwrapped(M, m, sigma, f, n, kind), "sigma", "point")
  from_ambient(M, draws, single = n == 1L)
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
  check_required(c("M", "y", "X", "sigma"))
  check_positive_number(sigma, "sigma")
  # (a gradient beyond double precision is an error, as mfd_dist()'s, not -Inf)
  -check_representable(M, cpp_kng_gradient_norm(M, as_points(M, y, "y"), as_data_points(M, X, "X")), "X", "number") / sigma
}

#' @rdname dkng
#' @export
driemann_laplace <- function(M, y, mean, sigma) {
  check_required(c("M", "y", "mean", "sigma"))
  Y <- as_points(M, y, "y")
  m <- as_points(M, mean, "mean")
  if (ncol(m) != 1L) abort_arg("mean", "must be a single point")
  check_positive_number(sigma, "sigma")
  -check_representable(M, cpp_dist(M, m, Y), "y", "number") / sigma
}

#' @rdname dkng
#' @export
kng_gradient <- function(M, y, X) {
  check_required(c("M", "y", "X"))
  Y <- as_points(M, y, "y")
  from_ambient(M, check_representable(M, cpp_kng_gradient(M, Y, as_data_points(M, X, "X")), "X", "tangent"),
               attr(Y, "single"))
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
  check_required(c("epsilon", "delta", "sensitivity"))
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
