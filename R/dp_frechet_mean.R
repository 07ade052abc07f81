#' Differentially private Frechet mean
#'
#' Releases the Frechet mean of data on a manifold under differential
#' privacy. The data are first clipped to the public ball
#' \eqn{B_r(center)} (points outside are moved to its boundary along the
#' geodesic from the centre), so the sensitivity holds for any data. The
#' release holds the private estimate and public facts only (see
#' [dp_release]).
#'
#' Mechanisms (\eqn{h = h(2r, \kappa_{max})}, see [frechet_sensitivity()]):
#' * `"laplace"` (the default except on Kendall's shape space: smallest
#'   measured error, see the table below): the Riemannian Laplace mechanism around the
#'   Frechet mean, \eqn{\Delta = 2r(2-h)/(nh)} (Reimherr, Bharath and Soto
#'   2021, Theorems 1-2). With `truncated = FALSE` the law is the
#'   untruncated one on the whole manifold, whose
#'   normalising constant does not depend on its footpoint on these
#'   homogeneous spaces, so \eqn{\sigma = \Delta/\epsilon}; the draw is then
#'   moved onto the public ball (post-processing). On `spd()` with the
#'   affine-invariant metric and on `hyperbolic()` that law exists only for
#'   sigma below `max_untruncated_sigma(M)`; with `truncated = TRUE` the
#'   law is restricted to the ball and \eqn{\sigma = 2\Delta/\epsilon}.
#'   The default (`truncated = NULL`) takes the untruncated law when
#'   \eqn{\Delta/\epsilon} is below 0.8 `max_untruncated_sigma(M)` (always on
#'   the sphere, Kendall's space and flat spaces), the truncated one
#'   otherwise: near the limit the untruncated tail hardly decays; but the
#'   untruncated law still, where it exists, when the exact sampler of the
#'   truncated one refuses these public parameters (its noise fills the
#'   ball in a high dimension).
#' * `"kng"`: the K-norm gradient mechanism, density
#'   \eqn{\propto \exp(-\|n^{-1}\sum Log_y(x_i)\|_y / \sigma)} on the ball,
#'   \eqn{\Delta = 2r(2-h)/n}, \eqn{\sigma = 2\Delta/\epsilon} (Soto et al.
#'   2022, Theorems 1-2), drawn exactly by rejection from a Riemannian
#'   Laplace envelope. The default on `kendall_shape()` where that exact
#'   sampler runs for the public parameters ([default_mechanism()]).
#' * `"wrapped_laplace"`, `"wrapped_gaussian"`: exponential-wrapped
#'   mechanisms on Hadamard manifolds (`spd()`, `euclidean()`,
#'   `hyperbolic()`) with public
#'   footpoint, \eqn{\Delta = 2r/n}. Laplace: epsilon-DP with
#'   \eqn{\sigma = \Delta/\epsilon}. Gaussian: (epsilon, delta)-DP by the
#'   analytic calibration ([calibrate_analytic_gaussian()]), mu-GDP
#'   (`mu`), or (alpha, epsilon)-RDP (`alpha` with `epsilon`).
#' * `"euclidean_laplace"`: the ambient baselines of the papers'
#'   comparisons: sphere: K-norm Laplace on the Frechet mean in
#'   \eqn{R^{d+1}} (Laplace sensitivity, \eqn{\sigma = \Delta/\epsilon}),
#'   normalised back; affine-invariant SPD: K-norm Laplace on the
#'   Frobenius-isometric vech of the arithmetic mean of the data whitened by
#'   the public centre (ambient radius \eqn{e^r - 1}), which may leave the
#'   SPD cone; log-Euclidean SPD: K-norm Laplace on vech of the mean matrix
#'   logarithm (\eqn{\Delta = 2r/n}); Kendall: landmark-wise Laplace after
#'   Procrustes alignment to the public centre with the budget split over the
#'   2k coordinates (Soto et al. 2022, B.5.2, with public bounds); Euclidean:
#'   the K-norm Laplace mechanism; hyperbolic: K-norm Laplace on the ambient
#'   (hyperboloid) mean of the data moved by the Lorentz boost taking the
#'   public centre to the origin (ambient radius
#'   \eqn{\sqrt{2\cosh r(\cosh r - 1)}}), brought back to the sheet.
#'
#' **Samplers.** Every mechanism is drawn exactly by default
#' (`sampler = "exact"`): the release is then epsilon-DP (or the stated
#' notion) exactly. The KNG and truncated Laplace samplers reject proposals,
#' so their running time depends on the data (it is not part of the release;
#' the number of proposals is never returned). `sampler = "mcmc"` draws KNG
#' and Laplace laws by Metropolis-Hastings with a step set from public
#' quantities only ([mcmc_control()]); a finite chain is at best
#' (epsilon, delta)-DP with an unknown delta, and the release says so.
#'
#' `seed_scale = TRUE` uses \eqn{\sigma = \Delta/\epsilon} on the truncated
#' laws, as some experiments of the seed papers did. It is not epsilon-DP
#' (the normalising constant depends on the data): the release is marked not
#' private and the privacy-leak warning is raised.
#'
#' @section Expected error by mechanism:
#' Mean geodesic distance between the release and the non-private Frechet
#' mean (`inst/scripts/mechanism-table.R`, results in
#' `inst/extdata/mechanism-table.rds`; epsilon = 1):
#' \tabular{llllllll}{
#'   manifold, r \tab n \tab Laplace \tab Laplace (trunc.) \tab KNG \tab wrapped Laplace \tab wrapped Gauss.* \tab ambient \cr
#'   S^2, 0.393 \tab 20 \tab 0.1163 \tab 0.1810 \tab 0.1677 \tab - \tab - \tab 0.1328 \cr
#'   S^2, 0.393 \tab 100 \tab 0.0246 \tab 0.0505 \tab 0.0401 \tab - \tab - \tab 0.0272 \cr
#'   Kendall(4), 0.3 \tab 20 \tab 0.2544 \tab 0.2292 \tab 0.2037 \tab - \tab - \tab 0.5569 \cr
#'   Kendall(4), 0.3 \tab 100 \tab 0.0761 \tab 0.1477 \tab 0.0719 \tab - \tab - \tab 0.1204 \cr
#'   SPD(2) affine-invariant, 1 \tab 20 \tab 0.3060 \tab 0.5127 \tab 0.5109 \tab 0.3203 \tab 0.5938 \tab 0.5658 (99\% SPD) \cr
#'   SPD(2) affine-invariant, 1 \tab 100 \tab 0.0614 \tab 0.1209 \tab 0.1156 \tab 0.0598 \tab 0.1198 \tab 0.1546 \cr
#'   SPD(2) log-Euclidean, 1 \tab 20 \tab 0.2866 \tab 0.4839 \tab 0.5052 \tab 0.2899 \tab 0.6075 \tab 0.3101 \cr
#'   SPD(2) log-Euclidean, 1 \tab 100 \tab 0.0609 \tab 0.1213 \tab 0.1256 \tab 0.0603 \tab 0.1181 \tab 0.0586 \cr
#'   R^2, 1 \tab 20 \tab 0.2038 \tab 0.3599 \tab 0.3601 \tab 0.1988 \tab 0.4673 \tab 0.1933 \cr
#'   R^2, 1 \tab 100 \tab 0.0357 \tab 0.0762 \tab 0.0823 \tab 0.0386 \tab 0.0943 \tab 0.0400 \cr
#' }
#' 300 data sets per row; * the wrapped Gaussian is (1, 1e-5)-DP, listed for reference.
#'
#' @param M A manifold, see [manifolds].
#' @param X Data in the layout of `M` (n points). Kendall data may be raw
#'   configurations (k x 2 x n), converted with [as_preshape()].
#' @param epsilon Privacy budget (for RDP, the RDP epsilon).
#' @param mechanism One of `"laplace"`, `"kng"`, `"wrapped_laplace"`,
#'   `"wrapped_gaussian"`, `"euclidean_laplace"`. Default: the manifold's
#'   default ([default_mechanism()]).
#' @param center,radius Public ball holding the data; `radius` must be below
#'   [max_radius()]. When missing they are taken from the data with a
#'   [dpmanifold_privacy_leak] warning.
#' @param delta For `"wrapped_gaussian"` under (epsilon, delta)-DP.
#' @param mu For `"wrapped_gaussian"` under mu-GDP (then `epsilon` is not
#'   used).
#' @param alpha For `"wrapped_gaussian"` under (alpha, epsilon)-RDP.
#' @param footpoint Public footpoint of the wrapped mechanisms (default
#'   `center`).
#' @param truncated For `"laplace"`: `NULL` (default) uses the untruncated
#'   law when sigma is below 0.8 `max_untruncated_sigma(M)` (or where only
#'   its exact sampler runs), `TRUE` the law
#'   restricted to the ball, `FALSE` the untruncated law wherever it exists.
#' @param align For the Kendall `"euclidean_laplace"` baseline: align the
#'   shapes to the centre before adding noise.
#' @param sampler `"exact"` (default) or `"mcmc"` (KNG and Laplace only).
#' @param mcmc Chain settings for `sampler = "mcmc"` ([mcmc_control()]).
#' @param seed_scale See Details.
#' @param return_nonprivate Also return the non-private Frechet mean and the
#'   number of clipped points in `$nonprivate` (for studies; the release is
#'   then marked not private and the privacy-leak warning is raised).
#' @return A [dp_release] object.
#' @references Reimherr, Bharath and Soto (2021), Theorems 1-3; Soto,
#'   Bharath, Reimherr and Slavkovic (2022), Theorems 1-2 and supplement B;
#'   Exponential-wrapped mechanisms for DP on Hadamard manifolds,
#'   Theorems 3.1-3.4 and Algorithm 1.
#' @examples
#' S2 <- sphere(2)
#' north <- c(0, 0, 1)
#' X <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 50))
#' rel <- dp_frechet_mean(S2, X, epsilon = 1, center = north, radius = pi / 8)
#' rel
#' dp_frechet_mean(S2, X, epsilon = 1, mechanism = "kng", center = north, radius = pi / 8)
#' dp_frechet_mean(spd(2), array(diag(2), c(2, 2, 10)), epsilon = 1,
#'                 mechanism = "wrapped_gaussian", delta = 1e-5,
#'                 center = diag(2), radius = 1)
#' @export
dp_frechet_mean <- function(M, X, epsilon, mechanism = NULL, center = NULL, radius = NULL,
                            delta = NULL, mu = NULL, alpha = NULL, footpoint = center,
                            truncated = NULL, align = TRUE, sampler = c("exact", "mcmc"),
                            mcmc = mcmc_control(), seed_scale = FALSE, return_nonprivate = FALSE) {
  cl <- match.call()
  check_manifold(M)
  mechanism <- if (is.null(mechanism)) NULL else
    check_choice(mechanism, c("laplace", "kng", "wrapped_laplace", "wrapped_gaussian", "euclidean_laplace"), "mechanism")
  sampler <- check_choice(sampler, c("exact", "mcmc"), "sampler")
  check_flag(seed_scale, "seed_scale")
  check_flag(return_nonprivate, "return_nonprivate")
  if (!is.null(truncated)) check_flag(truncated, "truncated")
  check_mcmc(mcmc)
  privacy <- resolve_privacy(mechanism %||% "laplace", if (missing(epsilon)) NULL else epsilon, delta, mu, alpha)
  if (!is.null(mechanism) && mechanism %in% c("wrapped_laplace", "wrapped_gaussian") && !M$hadamard) {
    abort_arg("mechanism", sprintf("\"%s\" needs a Hadamard manifold (%s); on %s use \"laplace\" or \"kng\"",
                                   mechanism, hadamard_constructors(), manifold_label(M)))
  }
  if (sampler == "mcmc" && !is.null(mechanism) && !mechanism %in% c("kng", "laplace")) {
    abort_arg("sampler", sprintf("\"mcmc\" applies to mechanisms \"laplace\" and \"kng\" only (\"%s\" is drawn exactly)", mechanism))
  }
  if (isTRUE(seed_scale) && !is.null(mechanism) && !mechanism %in% c("kng", "laplace")) {
    abort_arg("seed_scale", "applies to mechanisms \"laplace\" and \"kng\" only")
  }
  Xa <- as_data_points(M, X, "X")
  n <- ncol(Xa)
  b <- resolve_ball(M, Xa, center, radius)
  Xa <- b$X
  if (is.null(mechanism)) mechanism <- public_default_mechanism(M, n, privacy$epsilon, b$center, b$radius)
  f <- if (is.null(footpoint)) b$center else as_points(M, footpoint, "footpoint")[, 1]
  fm <- function() cpp_frechet_mean(M, Xa, rep(1, n), b$center, 1000L, 1e-12)$mean

  eps <- privacy$epsilon
  not_private <- character()
  scale <- mechanism_scale(M, mechanism, privacy, b$radius, n, truncated, seed_scale, align,
                           center = b$center, sampler = sampler)
  Delta <- scale$sensitivity
  sigma <- scale$sigma
  if (isTRUE(seed_scale)) {
    warn_privacy_leak(msg = paste("`seed_scale = TRUE` uses sigma = Delta/epsilon on a law restricted to the ball,",
                                  "whose normalising constant depends on the data: the release is NOT epsilon-DP."))
    not_private <- "seed_scale = TRUE (sigma = Delta/epsilon on a truncated law)"
  }
  check_noise_representable(M, b$radius, sigma, if (mechanism == "wrapped_gaussian") "gaussian" else "laplace")
  est <- switch(mechanism,
    laplace = release_laplace(M, fm(), sigma, b$center, b$radius, truncated = scale$truncated,
                              sampler = sampler, mcmc = mcmc),
    kng = release_kng(M, Xa, sigma, b$center, b$radius, sampler = sampler, mcmc = mcmc),
    wrapped_laplace = ,
    wrapped_gaussian = cpp_rwrapped(M, fm(), sigma, f, 1L, sub("wrapped_", "", mechanism))[, 1],
    euclidean_laplace = euclidean_baseline(M, Xa, eps, b, align))
  # finite and on the manifold (an ambient baseline may leave the manifold,
  # e.g. the SPD cone: its method says so with off_manifold = TRUE)
  off <- is.list(est) && isTRUE(est$off_manifold)
  if (is.list(est)) est <- est$estimate
  est <- as.numeric(check_representable(M, matrix(est), "radius", if (off) "tangent" else "point"))
  nonprivate <- NULL
  if (isTRUE(return_nonprivate)) {
    warn_privacy_leak(msg = "`return_nonprivate = TRUE` stores the non-private Frechet mean and clipped count: this release is NOT private.")
    nonprivate <- list(frechet_mean = from_ambient(M, matrix(fm()), single = TRUE), clipped = b$clipped)
  }
  privacy$not_private <- not_private
  bounds <- list(center = from_ambient(M, matrix(b$center), single = TRUE), radius = b$radius,
                 inferred = b$inferred)
  if (mechanism %in% c("wrapped_laplace", "wrapped_gaussian")) bounds$footpoint <- from_ambient(M, matrix(f), single = TRUE)
  if (mechanism == "laplace") bounds$truncated <- scale$truncated
  new_dp_release(
    estimate = from_ambient(M, matrix(est), single = TRUE), manifold = M,
    mechanism = mechanism, statistic = "frechet_mean", privacy = privacy,
    sensitivity = Delta, sigma = sigma, bounds = bounds, n = n,
    sampler = release_sampler(sampler, mcmc), nonprivate = nonprivate, call = cl)
}

#' Default private mechanism of a manifold
#'
#' The mechanism [dp_frechet_mean()] uses when none is given: the one with
#' the smallest measured expected error (see the table in
#' [dp_frechet_mean()]). That is the untruncated Riemannian Laplace
#' mechanism on every manifold except Kendall's shape space, where KNG is
#' more accurate (the Laplace sensitivity pays for the largest curvature, 4,
#' in every direction). KNG is chosen only where its exact sampler runs for
#' these public parameters; otherwise the default falls back to
#' `"laplace"`. The choice depends on public quantities only, never on the
#' data.
#'
#' @param M A manifold, see [manifolds].
#' @param n,epsilon,center,radius Optional public sample size, budget and
#'   ball; without them the preferred mechanism of `M` is returned.
#' @return A mechanism name.
#' @examples
#' default_mechanism(sphere(2))
#' default_mechanism(kendall_shape(4))
#' @export
default_mechanism <- function(M, n = NULL, epsilon = NULL, center = NULL, radius = NULL) {
  check_manifold(M)
  if (is.null(n) || is.null(epsilon) || is.null(center) || is.null(radius)) {
    return(manifold_entry(M)$default_mechanism)
  }
  n <- check_count(n, "n")
  check_epsilon(epsilon)
  C <- as_points(M, center, "center")
  if (ncol(C) != 1L) abort_arg("center", "must be a single point")
  check_radius(M, radius)
  public_default_mechanism(M, n, epsilon, C[, 1], radius)
}

# The default for validated public inputs (center: an ambient vector).
public_default_mechanism <- function(M, n, epsilon, center, radius) {
  preferred <- manifold_entry(M)$default_mechanism
  if (preferred == "kng") {
    sigma <- mechanism_scale(M, "kng", list(epsilon = epsilon), radius, n, NULL, FALSE)$sigma
    if (!isTRUE(exact_sampler_available(M, sigma, center, radius, "kng"))) preferred <- "laplace"
  }
  preferred
}

release_sampler <- function(sampler, mcmc) {
  if (sampler == "exact") return(list(kind = "exact"))
  list(kind = "mcmc", settings = list(burnin = mcmc$burnin, steps = mcmc$steps))
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
check_noise_representable <- function(M, radius, sigma, kind, call = sys.call(-1)) {
  lim <- max_representable_distance(M)
  if (is.infinite(lim)) return(invisible(TRUE))
  if (radius > lim) {
    abort_arg("radius", sprintf("is %.4g: points that far from the centre are not representable in double precision on %s (at most %g)",
                                radius, manifold_label(M), lim), call, class = "dpmanifold_not_representable")
  }
  q <- if (kind == "gaussian") sigma * sqrt(stats::qchisq(1e-12, M$dim, lower.tail = FALSE)) else
    stats::qgamma(1e-12, M$dim, scale = sigma, lower.tail = FALSE)
  if (radius + q > lim) {
    abort_arg("epsilon", sprintf("gives a noise scale sigma = %.4g whose draws are not representable in double precision on %s; use a larger epsilon or a smaller radius",
                                 sigma, manifold_label(M)), call, class = "dpmanifold_not_representable")
  }
  invisible(TRUE)
}

# Which privacy notion a call asks for, validated.
resolve_privacy <- function(mechanism, epsilon, delta, mu, alpha, call = sys.call(-1)) {
  if (mechanism == "wrapped_gaussian") {
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
  if (!is.null(delta)) check_delta(delta, call = call)
  if (!is.null(mu) || !is.null(alpha)) abort_arg(if (is.null(mu)) "alpha" else "mu", "only applies to mechanism = \"wrapped_gaussian\"", call)
  list(type = "pure", epsilon = epsilon, delta = 0)
}

# Ambient ("Euclidean") baselines of the papers' comparisons, one method per
# manifold class: they are specific to each embedding (the ambient distance
# bound of the public ball and the way back onto the manifold differ), so a
# manifold without methods has no baseline and mechanism =
# "euclidean_laplace" is refused with a classed error. baseline_scale()
# gives the sensitivity and scale from public quantities;
# euclidean_baseline() returns list(estimate = ambient vector,
# off_manifold = TRUE when the estimate may leave the manifold).
baseline_scale <- function(M, radius, n, epsilon, align = TRUE) UseMethod("baseline_scale")
euclidean_baseline <- function(M, Xa, epsilon, ball, align) UseMethod("euclidean_baseline")

no_euclidean_baseline <- function(M, call = sys.call(-1)) {
  abort_arg("mechanism", sprintf("\"euclidean_laplace\" has no ambient baseline on %s (it needs baseline_scale() and euclidean_baseline() methods for class \"%s\"); use \"laplace\" or \"kng\"",
                                 manifold_label(M), class(M)[1]), call, class = "dpmanifold_no_baseline")
}

#' @export
baseline_scale.default <- function(M, radius, n, epsilon, align = TRUE) no_euclidean_baseline(M)

#' @export
euclidean_baseline.default <- function(M, Xa, epsilon, ball, align) no_euclidean_baseline(M)

#' @export
baseline_scale.euclidean <- function(M, radius, n, epsilon, align = TRUE) {
  Delta <- 2 * radius / n
  list(sensitivity = Delta, sigma = Delta / epsilon)
}

#' @export
euclidean_baseline.euclidean <- function(M, Xa, epsilon, ball, align) {
  s <- baseline_scale(M, ball$radius, ncol(Xa), epsilon)
  list(estimate = rowMeans(Xa) + cpp_euclidean_laplace_noise(M$dim, s$sigma, 1L)[, 1])
}

#' @export
baseline_scale.sphere <- function(M, radius, n, epsilon, align = TRUE) {
  # The Frechet mean moves by at most the Laplace sensitivity in geodesic,
  # hence also in chordal, distance.
  Delta <- frechet_sensitivity(M, radius, n, "laplace")
  list(sensitivity = Delta, sigma = Delta / epsilon)
}

#' @export
euclidean_baseline.sphere <- function(M, Xa, epsilon, ball, align) {
  n <- ncol(Xa)
  s <- baseline_scale(M, ball$radius, n, epsilon)
  xbar <- cpp_frechet_mean(M, Xa, rep(1, n), ball$center, 1000L, 1e-12)$mean
  z <- xbar + cpp_euclidean_laplace_noise(M$ambient_dim, s$sigma, 1L)[, 1]
  list(estimate = z / sqrt(sum(z^2)))
}

#' @export
baseline_scale.spd <- function(M, radius, n, epsilon, align = TRUE) {
  # Affine-invariant: whitened data lie in the Frobenius ball of radius
  # e^r - 1 around I (Soto et al. 2022, B.3.3). Log-Euclidean: the matrix
  # logarithms lie in the Frobenius ball of radius r around Log(centre).
  rE <- if (identical(M$metric, "log_euclidean")) radius else exp(radius) - 1
  Delta <- 2 * rE / n
  list(sensitivity = Delta, sigma = Delta / epsilon)
}

# Symmetric k x k matrix from a Frobenius-isometric vech (diagonal first,
# then the lower triangle scaled by sqrt(2)).
sym_from_vech <- function(z, k) {
  N <- diag(z[seq_len(k)], k)
  N[lower.tri(N)] <- z[-seq_len(k)] / sqrt(2)
  N[upper.tri(N)] <- t(N)[upper.tri(N)]
  N
}

sym_fun <- function(A, f) {
  e <- eigen((A + t(A)) / 2, symmetric = TRUE)
  e$vectors %*% diag(f(e$values), nrow(A)) %*% t(e$vectors)
}

#' @export
euclidean_baseline.spd <- function(M, Xa, epsilon, ball, align) {
  n <- ncol(Xa)
  k <- M$size
  s <- baseline_scale(M, ball$radius, n, epsilon)
  N <- sym_from_vech(cpp_euclidean_laplace_noise(M$dim, s$sigma, 1L)[, 1], k)
  if (identical(M$metric, "log_euclidean")) {
    L <- matrix(rowMeans(vapply(seq_len(n), function(i) as.vector(sym_fun(matrix(Xa[, i], k), log)),
                                numeric(k * k))), k)
    return(list(estimate = as.vector(sym_fun(L + N, exp)), off_manifold = TRUE))
  }
  C <- matrix(ball$center, k)
  Ch <- sym_fun(C, sqrt)
  Cih <- sym_fun(C, function(l) 1 / sqrt(l))
  W <- vapply(seq_len(n), function(i) as.vector(Cih %*% matrix(Xa[, i], k) %*% Cih), numeric(k * k))
  Wbar <- matrix(rowMeans(matrix(W, k * k)), k)
  est <- Ch %*% (Wbar + N) %*% Ch
  # may leave the SPD cone: the baseline's known weakness (post-processing
  # of the release, so checking it reveals nothing more)
  list(estimate = as.vector((est + t(est)) / 2), off_manifold = TRUE)
}

#' @export
baseline_scale.hyperbolic <- function(M, radius, n, epsilon, align = TRUE) {
  # In the frame of the public centre (the Lorentz boost taking it to the
  # origin, an isometry) the ball is {(cosh t, sinh t u): t <= r, |u| = 1}.
  # Two of its points are at squared ambient distance
  # cosh 2t + cosh 2s - 2 cosh(t - s) <= 2 cosh 2r - 2 = (2 sinh r)^2
  # (increasing in t and s), attained by opposite boundary points: the
  # ambient diameter is 2 sinh r, and the mean moves by at most that / n.
  Delta <- 2 * sinh(radius) / n
  list(sensitivity = Delta, sigma = Delta / epsilon)
}

# Lorentz boost taking the origin to c (inverse = TRUE: c to the origin),
# applied to the columns of X.
hyperbolic_boost <- function(c, X, inverse = FALSE) {
  cs <- if (inverse) -c[-1] else c[-1]
  a <- colSums(cs * X[-1, , drop = FALSE])
  rbind(c[1] * X[1, ] + a, X[-1, , drop = FALSE] + outer(cs, X[1, ] + a / (1 + c[1])))
}

#' @export
euclidean_baseline.hyperbolic <- function(M, Xa, epsilon, ball, align) {
  # K-norm Laplace on the ambient mean of the data in the centre's frame,
  # brought back to the sheet (Minkowski normalisation when the noisy mean
  # is future-timelike, else the sheet point over its spatial part: both
  # post-processing), then back to the centre.
  n <- ncol(Xa)
  s <- baseline_scale(M, ball$radius, n, epsilon)
  z <- rowMeans(hyperbolic_boost(ball$center, Xa, inverse = TRUE)) +
    cpp_euclidean_laplace_noise(M$ambient_dim, s$sigma, 1L)[, 1]
  q <- z[1]^2 - sum(z[-1]^2)
  z <- if (z[1] > 0 && q > 0) z / sqrt(q) else c(sqrt(1 + sum(z[-1]^2)), z[-1])
  list(estimate = as.vector(hyperbolic_boost(ball$center, matrix(z))))
}

#' @export
baseline_scale.kendall_shape <- function(M, radius, n, epsilon, align = TRUE) {
  # Replacing one preshape moves each coordinate of the mean by at most
  # (the coordinate's range over the data) / n. Aligned to the centre, a
  # preshape is within the chordal distance 2 sin(r/2) of it, so a
  # coordinate ranges over 2 * 2 sin(r/2); unaligned, a coordinate of a
  # unit vector lies in [-1, 1]: a range of 2 (never more, aligned or not).
  # The budget is split over the 2k coordinates (per-coordinate Laplace).
  spread <- if (isTRUE(align)) min(4 * sin(radius / 2), 2) else 2
  Delta <- spread / n
  list(sensitivity = Delta, sigma = Delta / (epsilon / (2 * M$size)))
}

#' @export
euclidean_baseline.kendall_shape <- function(M, Xa, epsilon, ball, align) {
  n <- ncol(Xa)
  k <- M$size
  s <- baseline_scale(M, ball$radius, n, epsilon, align)
  Z <- if (isTRUE(align)) cpp_kendall_align(M, ball$center, Xa) else Xa
  noisy <- rowMeans(Z) + s$sigma * (stats::rexp(2 * k) - stats::rexp(2 * k))
  list(estimate = as.vector(as_preshape(matrix(noisy, k, 2))))
}
