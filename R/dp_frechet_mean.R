#' Differentially private Frechet mean
#'
#' Releases the Frechet mean of data on a manifold under differential
#' privacy. The data are first clipped to the public ball
#' \eqn{B_r(center)} (points outside are moved to its boundary along the
#' geodesic from the centre), so the sensitivity holds for any data.
#'
#' Mechanisms:
#' * `"kng"` (default): the K-norm gradient mechanism, density
#'   \eqn{\propto \exp(-\|n^{-1}\sum Log_y(x_i)\|_y / \sigma)} on the ball,
#'   \eqn{\Delta = 2r(2-h)/n}, \eqn{\sigma = 2\Delta/\epsilon} (Soto et al.
#'   2022). No Frechet mean is computed inside the mechanism.
#' * `"laplace"`: the Riemannian Laplace mechanism around the Frechet mean,
#'   \eqn{\Delta = 2r(2-h)/(nh)}, \eqn{\sigma = 2\Delta/\epsilon} (Reimherr,
#'   Bharath and Soto 2021).
#' * `"wrapped_laplace"`, `"wrapped_gaussian"`: exponential-wrapped
#'   mechanisms on Hadamard manifolds (`spd()`, `euclidean()`) with public
#'   footpoint, \eqn{\Delta = 2r/n}. Laplace: epsilon-DP with
#'   \eqn{\sigma = \Delta/\epsilon}. Gaussian: (epsilon, delta)-DP by the
#'   analytic calibration ([calibrate_analytic_gaussian()]), mu-GDP
#'   (`mu`), or (alpha, epsilon)-RDP (`alpha` with `epsilon`).
#' * `"euclidean_laplace"`: the ambient baselines of the papers'
#'   comparisons: sphere: K-norm Laplace on the mean in \eqn{R^{d+1}}
#'   (sensitivity of the Laplace mechanism, \eqn{\sigma = \Delta/\epsilon}),
#'   normalised back; SPD: K-norm Laplace on the Frobenius-isometric vech of
#'   the arithmetic mean of the whitened data (ambient radius \eqn{e^r - 1}),
#'   which may leave the SPD cone (reported in `diagnostics$on_manifold`);
#'   Kendall: landmark-wise Laplace after Procrustes alignment to the public
#'   centre with the budget split over the 2k coordinates (Soto et al. 2022,
#'   B.5.2, with public bounds); Euclidean: the K-norm Laplace mechanism.
#'
#' `seed_scale = TRUE` uses \eqn{\sigma = \Delta/\epsilon} for KNG and
#' Riemannian Laplace, as some experiments of the seed papers did. It is not
#' epsilon-DP in general (the normalising constant depends on the data), so
#' it raises the privacy-leak warning; it exists to reproduce those figures.
#'
#' @param M A manifold, see [manifolds].
#' @param X Data in the layout of `M` (n points). Kendall data may be raw
#'   configurations (k x 2 x n), converted with [as_preshape()].
#' @param epsilon Privacy budget (for RDP, the RDP epsilon).
#' @param mechanism One of `"kng"`, `"laplace"`, `"wrapped_laplace"`,
#'   `"wrapped_gaussian"`, `"euclidean_laplace"`.
#' @param center,radius Public ball holding the data; `radius` must be below
#'   [max_radius()]. When missing they are taken from the data with a
#'   [dpmanifold_privacy_leak] warning.
#' @param delta For `"wrapped_gaussian"` under (epsilon, delta)-DP.
#' @param mu For `"wrapped_gaussian"` under mu-GDP (then `epsilon` is not
#'   used).
#' @param alpha For `"wrapped_gaussian"` under (alpha, epsilon)-RDP.
#' @param footpoint Public footpoint of the wrapped mechanisms (default
#'   `center`).
#' @param align For the Kendall `"euclidean_laplace"` baseline: align the
#'   shapes to the centre before adding noise.
#' @param seed_scale See Details.
#' @param mcmc Sampler settings ([mcmc_control()]).
#' @param return_nonprivate Also return the non-private Frechet mean (for
#'   studies; never publish it).
#' @return A [dp_release] object.
#' @references Reimherr, Bharath and Soto (2021), Theorems 1-3; Soto,
#'   Bharath, Reimherr and Slavkovic (2022), Theorems 1-2 and supplement B;
#'   Exponential-wrapped mechanisms for DP on Hadamard manifolds,
#'   Theorems 3.1-3.4 and Algorithm 1.
#' @examples
#' S2 <- sphere(2)
#' north <- c(0, 0, 1)
#' X <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 50))
#' rel <- dp_frechet_mean(S2, X, epsilon = 1, center = north, radius = pi / 8,
#'                        mcmc = mcmc_control(burnin = 1000, steps = 1000))
#' rel
#' dp_frechet_mean(spd(2), array(diag(2), c(2, 2, 10)), epsilon = 1,
#'                 mechanism = "wrapped_gaussian", delta = 1e-5,
#'                 center = diag(2), radius = 1)
#' @export
dp_frechet_mean <- function(M, X, epsilon, mechanism = c("kng", "laplace", "wrapped_laplace",
                                                         "wrapped_gaussian", "euclidean_laplace"),
                            center = NULL, radius = NULL, delta = NULL, mu = NULL, alpha = NULL,
                            footpoint = center, align = TRUE, seed_scale = FALSE,
                            mcmc = mcmc_control(), return_nonprivate = FALSE) {
  cl <- match.call()
  check_manifold(M)
  mechanism <- match.arg(mechanism)
  privacy <- resolve_privacy(mechanism, if (missing(epsilon)) NULL else epsilon, delta, mu, alpha)
  if (mechanism %in% c("wrapped_laplace", "wrapped_gaussian") && !M$hadamard) {
    abort_arg("mechanism", sprintf("\"%s\" needs a Hadamard manifold (spd() or euclidean()); on %s use \"kng\" or \"laplace\"",
                                   mechanism, manifold_label(M)))
  }
  Xa <- as_data_points(M, X, "X")
  n <- ncol(Xa)
  b <- resolve_ball(M, Xa, center, radius)
  Xa <- b$X
  fm <- function() cpp_frechet_mean(M, Xa, rep(1, n), b$center, 1000L, 1e-10)$mean

  eps <- privacy$epsilon
  diagnostics <- list()
  nonprivate <- NULL
  if (mechanism %in% c("kng", "laplace")) {
    Delta <- frechet_sensitivity(M, b$radius, n, mechanism)
    sigma <- if (isTRUE(seed_scale)) Delta / eps else 2 * Delta / eps
    if (isTRUE(seed_scale)) {
      warn_privacy_leak(msg = paste("`seed_scale = TRUE` uses sigma = Delta/epsilon, but the normalising constant",
                                    "of this mechanism depends on the data: the release is NOT epsilon-DP."))
    }
    settings <- mcmc_settings(mcmc, 1L)
    res <- if (mechanism == "kng") {
      flat <- if (M$kappa_max == 0 && M$kappa_min == 0) fm()
      cpp_rkng(M, Xa, sigma, b$center, b$radius, settings, flat, FALSE)
    } else {
      cpp_rlaplace(M, fm(), sigma, b$center, b$radius, settings, FALSE)
    }
    check_chain(res)
    est <- res$draws
    diagnostics <- sampler_diagnostics(res)
  } else if (mechanism %in% c("wrapped_laplace", "wrapped_gaussian")) {
    Delta <- 2 * b$radius / n
    f <- if (is.null(footpoint)) b$center else as_points(M, footpoint, "footpoint")[, 1]
    sigma <- switch(privacy$type,
      pure = Delta / eps,
      approximate = calibrate_analytic_gaussian(eps, privacy$delta, Delta),
      gdp = Delta / privacy$mu,
      rdp = Delta / sqrt(2 * eps / privacy$alpha))
    est <- cpp_rwrapped(M, fm(), sigma, f, 1L, sub("wrapped_", "", mechanism))
    diagnostics <- list(method = "exact", footpoint = from_ambient(M, matrix(f), single = TRUE))
  } else {
    base <- euclidean_baseline(M, Xa, eps, b, align)
    est <- base$estimate
    Delta <- base$sensitivity
    sigma <- base$sigma
    diagnostics <- base$diagnostics
  }
  if (isTRUE(return_nonprivate)) nonprivate <- from_ambient(M, matrix(fm()), single = TRUE)
  new_dp_release(
    estimate = from_ambient(M, est, single = TRUE), manifold = M,
    mechanism = mechanism, statistic = "frechet_mean", privacy = privacy,
    sensitivity = Delta, sigma = sigma,
    bounds = list(center = from_ambient(M, matrix(b$center), single = TRUE), radius = b$radius,
                  inferred = b$inferred),
    clipped = b$clipped, n = n, diagnostics = diagnostics, nonprivate = nonprivate, call = cl)
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
# manifold class.
euclidean_baseline <- function(M, Xa, epsilon, ball, align) UseMethod("euclidean_baseline")

#' @export
euclidean_baseline.euclidean <- function(M, Xa, epsilon, ball, align) {
  n <- ncol(Xa)
  Delta <- 2 * ball$radius / n
  sigma <- Delta / epsilon
  est <- rowMeans(Xa) + cpp_euclidean_laplace_noise(M$dim, sigma, 1L)[, 1]
  list(estimate = matrix(est), sensitivity = Delta, sigma = sigma,
       diagnostics = list(method = "exact", on_manifold = TRUE))
}

#' @export
euclidean_baseline.sphere <- function(M, Xa, epsilon, ball, align) {
  n <- ncol(Xa)
  # The Frechet mean moves by at most the Laplace sensitivity in geodesic,
  # hence also in chordal, distance.
  Delta <- frechet_sensitivity(M, ball$radius, n, "laplace")
  sigma <- Delta / epsilon
  xbar <- cpp_frechet_mean(M, Xa, rep(1, n), ball$center, 1000L, 1e-10)$mean
  z <- xbar + cpp_euclidean_laplace_noise(M$ambient_dim, sigma, 1L)[, 1]
  list(estimate = matrix(z / sqrt(sum(z^2))), sensitivity = Delta, sigma = sigma,
       diagnostics = list(method = "exact", ambient_estimate = z, on_manifold = FALSE))
}

#' @export
euclidean_baseline.spd <- function(M, Xa, epsilon, ball, align) {
  n <- ncol(Xa)
  k <- M$size
  C <- matrix(ball$center, k)
  e <- eigen(C, symmetric = TRUE)
  Ch <- e$vectors %*% diag(sqrt(e$values), k) %*% t(e$vectors)
  Cih <- e$vectors %*% diag(1 / sqrt(e$values), k) %*% t(e$vectors)
  # Whitened data lie in the Frobenius ball of radius e^r - 1 around I
  # (Soto et al. 2022, B.3.3); for log-Euclidean the same bound holds with
  # the centre's logarithm, so we use it for both metrics.
  W <- vapply(seq_len(n), function(i) as.vector(Cih %*% matrix(Xa[, i], k) %*% Cih), numeric(k * k))
  Wbar <- matrix(rowMeans(matrix(W, k * k)), k)
  rE <- exp(ball$radius) - 1
  Delta <- 2 * rE / n
  sigma <- Delta / epsilon
  low <- lower.tri(Wbar)
  z <- cpp_euclidean_laplace_noise(M$dim, sigma, 1L)[, 1]
  N <- diag(z[seq_len(k)], k)
  N[low] <- z[-seq_len(k)] / sqrt(2)   # Frobenius-isometric vech
  N[upper.tri(N)] <- t(N)[upper.tri(N)]
  est <- Ch %*% (Wbar + N) %*% Ch
  est <- (est + t(est)) / 2
  pd <- min(eigen(est, symmetric = TRUE, only.values = TRUE)$values) > 0
  list(estimate = matrix(as.vector(est)), sensitivity = Delta, sigma = sigma,
       diagnostics = list(method = "exact", on_manifold = pd, ambient_radius = rE))
}

#' @export
euclidean_baseline.kendall_shape <- function(M, Xa, epsilon, ball, align) {
  n <- ncol(Xa)
  k <- M$size
  Z <- if (isTRUE(align)) cpp_kendall_align(M, ball$center, Xa) else Xa
  # Each coordinate of an aligned preshape is within the chordal distance
  # 2 sin(r/2) of the centre's; unaligned preshapes only within 2.
  rho <- if (isTRUE(align)) 2 * sin(ball$radius / 2) else 2
  Delta <- 2 * rho / n                 # per coordinate
  b <- Delta / (epsilon / (2 * k))     # budget split over 2k coordinates
  noisy <- rowMeans(Z) + b * (stats::rexp(2 * k) - stats::rexp(2 * k))
  est <- as_preshape(matrix(noisy, k, 2))
  list(estimate = matrix(as.vector(est)), sensitivity = Delta, sigma = b,
       diagnostics = list(method = "exact", aligned = isTRUE(align), coordinate_scale = b,
                          on_manifold = TRUE))
}
