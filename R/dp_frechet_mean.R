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
#' * `"laplace"` (the default wherever its predicted error is the smaller,
#'   see [default_mechanism()]: flat spaces, SPD, hyperbolic space, and the
#'   sphere and Kendall's space at small radii): the Riemannian Laplace mechanism around the
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
#'   Laplace envelope. The default where the curvature makes the Laplace
#'   sensitivity large (the sphere above radius 0.58, Kendall's space above
#'   0.29) and that exact sampler runs for the public parameters
#'   ([default_mechanism()]).
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
#' The mean distance between the release and the non-private Frechet mean,
#' by mechanism, manifold, radius (a grid from 0.1 to 1) and n, with the
#' default of each cell, is tabulated in the package's README and in
#' `inst/extdata/mechanism-table.rds` (made by
#' `inst/scripts/mechanism-table.R`); a mechanism object prints its own
#' expected error ([frechet_mechanism()]).
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
#'   [dpmanifold_privacy_leak] warning. With `bounds_share` they are a coarse
#'   public ball inside which the release chooses a tighter one privately:
#'   required on manifolds that are not compact, optional on `sphere()` and
#'   `kendall_shape()`, and never one without the other.
#' @param delta For `"wrapped_gaussian"` under (epsilon, delta)-DP.
#' @param mu For `"wrapped_gaussian"` under mu-GDP (then `epsilon` is not
#'   used).
#' @param alpha For `"wrapped_gaussian"` under (alpha, epsilon)-RDP.
#' @param footpoint Public footpoint of the wrapped mechanisms (default
#'   `center`; with `bounds_share` the private centre, and giving one is an
#'   error, as it is for the mechanisms that draw no footpoint).
#' @param truncated For `"laplace"`: `NULL` (default) uses the untruncated
#'   law when sigma is below 0.8 `max_untruncated_sigma(M)` (or where only
#'   its exact sampler runs), `TRUE` the law
#'   restricted to the ball, `FALSE` the untruncated law wherever it exists.
#' @param align For the Kendall `"euclidean_laplace"` baseline: align the
#'   shapes to the centre before adding noise.
#' @param sampler `"exact"` (default) or `"mcmc"` (KNG and Laplace only).
#' @param mcmc Chain settings for `sampler = "mcmc"` ([mcmc_control()]);
#'   given with the exact sampler they are an error (they would be
#'   ignored), and `NULL` stands for the defaults.
#' @param seed_scale See Details.
#' @param return_nonprivate Also return the non-private Frechet mean and the
#'   number of clipped points in `$nonprivate` (for studies; the release is
#'   then marked not private and the privacy-leak warning is raised).
#' @param budget A [dp_budget()] to charge (before any data are read), or
#'   `NULL`.
#' @param bounds_share A share of `epsilon` (in (0, 1)) spent on choosing the
#'   ball privately (epsilon-DP releases only): half on a private centre, half
#'   on a private radius (the 0.9-quantile of the distances from it, by the
#'   exponential mechanism over a public grid of 97 radii, widened by 1.25);
#'   the mean then runs on that ball with the rest. The grid's public base
#'   measure leans to smaller radii by at most 19.2 nats and always 6 nats
#'   less than the count term's range \eqn{0.45 n\epsilon_r}
#'   (\eqn{\epsilon_r} the radius stage's share), so where
#'   \eqn{n\epsilon_r} is small the radius errs large (a loose ball that
#'   holds the data) rather than collapsing. Below \eqn{n\epsilon_r = 23.5}
#'   the draw is about uniform over the radii above the data, and on the
#'   sphere without a public ball the centre's predicted error
#'   \eqn{2(d+1)/(n\epsilon_c)} may reach half the largest radius: a
#'   [dpmanifold_low_utility] warning says so (public inputs only).
#'   On `sphere()` and `kendall_shape()` no public bound is needed: the
#'   centre is a private ambient (Procrustes) mean; given `center` and
#'   `radius` there too, the centre is instead the default private Frechet
#'   mean on that coarse ball and the radius at most `radius` plus the
#'   centre's distance from `center`, as on every other manifold, where the
#'   coarse ball is required. The release prints epsilon-DP for the whole
#'   and each stage's share. Options the mean would refuse on some ball
#'   the private stages may choose (from 1.25/64 of the largest to twice
#'   a coarse `radius`: the exact sampler's refusal, a noise scale double
#'   precision does not hold) are refused before the budget is charged.
#'   Proof: `system.file("proofs", "private-bounds.md", package = "dpmanifold")`.
#' @param ... Not used: an argument given here (such as lm()'s `data`) is
#'   an error naming it (there is no formula interface).
#' @return A [dp_release] object (methods: `print()`, `summary()`,
#'   `coef()`, [confint()][confint.dp_release], [nobs()][release_conventions],
#'   [plot()][plot.dp_release]).
#' @seealso [frechet_mechanism()] (the mechanism and its expected error
#'   before the data), [frechet_mean()] (the non-private estimate),
#'   [confint.dp_release()], [privacy_spent()], [dp_budget()],
#'   [dp_geodesic_regression()].
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
#' P2 <- spd(2)
#' S <- mfd_exp(P2, diag(2), 0.2 * mfd_random_tangent(P2, diag(2), 200))
#' dp_frechet_mean(P2, S, epsilon = 1, mechanism = "wrapped_gaussian", delta = 1e-5,
#'                 center = diag(2), radius = 1)
#' # no public ball at all: 20% of epsilon chooses it privately
#' Y <- mfd_exp(S2, c(1, 0, 0), 0.15 * mfd_random_tangent(S2, c(1, 0, 0), 1000))
#' dp_frechet_mean(S2, Y, epsilon = 1, bounds_share = 0.2)
#' @export
dp_frechet_mean <- function(M, X, epsilon, mechanism = NULL, center = NULL, radius = NULL,
                            delta = NULL, mu = NULL, alpha = NULL, footpoint = center,
                            truncated = NULL, align = TRUE, sampler = c("exact", "mcmc"),
                            mcmc = mcmc_control(), seed_scale = FALSE, return_nonprivate = FALSE,
                            budget = NULL, bounds_share = NULL, ...) {
  check_required("M")
  check_no_formula(if (!missing(X)) X, "X", ..., what = "dp_frechet_mean()",
                   pass = "the manifold first, then the data, e.g. dp_frechet_mean(sphere(2), X, epsilon = 1, ...)")
  check_required("X")
  cl <- match.call()
  opts <- frechet_options(M, if (missing(epsilon)) NULL else epsilon, mechanism, delta, mu, alpha,
                          truncated, align, sampler, mcmc, seed_scale, mcmc_given = !missing(mcmc))
  check_flag(return_nonprivate, "return_nonprivate")
  if (!is.null(bounds_share)) {
    if (!missing(footpoint) && !is.null(footpoint)) {
      abort_arg("footpoint", "does not combine with `bounds_share`: the footpoint is the privately chosen centre")
    }
    return(frechet_with_private_bounds(M, X, opts, bounds_share, center, radius, return_nonprivate, budget, cl))
  }
  check_footpoint_used(opts$mechanism, !missing(footpoint) && !is.null(footpoint))
  # the public ball and footpoint validated and the budget checked before
  # any data are read (all of it is public); the charge once the data are
  # found valid (an input error costs nothing)
  if (!is.null(center) && !is.null(radius)) public_ball(M, NULL, center, radius)
  if (!is.null(footpoint)) as_points(M, footpoint, "footpoint")
  priv <- prospective_privacy(
    opts$privacy, not_private = is.null(center) || is.null(radius) || seed_scale || return_nonprivate,
    chain = opts$sampler == "mcmc" && (opts$mechanism %||% "laplace") %in% c("laplace", "kng"))
  spend_budget(budget, priv, "frechet_mean", charge = FALSE)
  Xa <- release_layout(M, X, "X")
  # bounds from the data (not private, with the leak warning) need the
  # validated data; a public ball does not
  ball <- public_ball(M, if (is.null(center) || is.null(radius)) as_release_data(M, X, "X", cl) else Xa,
                      center, radius)
  f <- if (is.null(footpoint)) NULL else as_points(M, footpoint, "footpoint")[, 1]
  mech <- build_frechet_mechanism(M, ncol(Xa), opts, ball, footpoint = f, inferred = ball$inferred)
  release_frechet_points(mech, Xa, return_nonprivate, call = cl,
                         charge = function() spend_budget(budget, priv, "frechet_mean", call = cl))
}

#' Default private mechanism of a manifold
#'
#' The mechanism [dp_frechet_mean()] uses when none is given. With the
#' public `n`, `epsilon`, `center` and `radius`, the one with the smaller
#' expected error predicted from them (\eqn{d\sigma}, see
#' [dpmanifold_low_utility]) of the Riemannian Laplace mechanism (its
#' default law) and KNG: the Laplace law's sensitivity \eqn{2r(2-h)/(nh)}
#' at scale \eqn{\Delta/\epsilon} against KNG's \eqn{2r(2-h)/n} at
#' \eqn{2\Delta/\epsilon}, so Laplace wins where \eqn{h > 1/2} (flat spaces,
#' the sphere, Kendall's space at small radii: at radius 0.1 its error is
#' about half KNG's) and KNG where the curvature makes \eqn{h} small
#' (Kendall's space at radius 0.3). KNG is chosen only where its exact
#' sampler runs for these public parameters. Without them, the preferred
#' mechanism of `M` (KNG on Kendall's space, Laplace elsewhere). The choice
#' depends on public quantities only, never on the data.
#'
#' @param M A manifold, see [manifolds].
#' @param n,epsilon,center,radius Optional public sample size, budget and
#'   ball, all four or none: without them the preferred mechanism of `M` is
#'   returned; some without the others are refused.
#' @return A mechanism name.
#' @examples
#' default_mechanism(sphere(2))
#' default_mechanism(kendall_shape(4))
#' default_mechanism(sphere(2), n = 200, epsilon = 1, center = c(0, 0, 1), radius = 0.7)
#' @export
default_mechanism <- function(M, n = NULL, epsilon = NULL, center = NULL, radius = NULL) {
  check_required("M")
  given <- !c(n = is.null(n), epsilon = is.null(epsilon), center = is.null(center), radius = is.null(radius))
  if (!any(given)) return(manifold_entry(M)$default_mechanism)
  if (!all(given)) {
    # some but not all: the answer would silently ignore those given
    abort_arg(names(given)[!given][1], sprintf(
      "is missing: the default for given public inputs needs all of n, epsilon, center and radius (%s given); give none for the manifold's preferred mechanism",
      paste(names(given)[given], collapse = ", ")))
  }
  n <- check_count(n, "n")
  check_epsilon(epsilon)
  C <- as_points(M, center, "center")
  if (ncol(C) != 1L) abort_arg("center", "must be a single point")
  check_radius(M, radius)
  public_default_mechanism(M, n, epsilon, C[, 1], radius)
}

# dp_frechet_mean(bounds_share = ): the ball chosen privately, then the mean
# on it (R/private_bounds.R).
frechet_with_private_bounds <- function(M, X, opts, share, center, radius, return_nonprivate, budget, cl,
                                        call = sys.call(-1)) {
  check_bounds_share(M, share, center, radius, call)
  if (opts$privacy$type != "pure") {
    abort_arg("bounds_share", "applies to epsilon-DP releases (not delta, mu or alpha)", call)
  }
  if (isTRUE(opts$seed_scale)) abort_arg("bounds_share", "does not combine with `seed_scale = TRUE`", call)
  priv <- prospective_privacy(opts$privacy, not_private = return_nonprivate, chain = opts$sampler == "mcmc")
  spend_budget(budget, priv, "frechet_mean", charge = FALSE)
  Xv <- as_release_data(M, X, "X", call)
  eps <- opts$privacy$epsilon
  inner <- opts
  inner$privacy$epsilon <- (1 - share) * eps
  # the mean's public options (truncated, the noise's representability,
  # the exact sampler's public refusal) checked on the largest and the
  # smallest ball the private stages may choose, so that none of them
  # fails after the charge
  # (the private stages' own scales first: an epsilon near 1e306 is
  # refused as such, not by the mean's sampler on a ball)
  check_private_ball_scales(M, ncol(Xv), eps, share, is.null(center) && inherits(M, c("sphere", "kendall_shape")), call)
  ctr <- if (is.null(center)) private_ball_public_point(M) else public_ball(M, NULL, center, radius, call = call)$center
  on_private_ball_range(function(r) {
    s <- build_frechet_mechanism(M, ncol(Xv), inner, list(center = ctr, radius = r), call = call)$spec
    if (s$sampler == "exact" && s$law %in% c("laplace", "kng") &&
        !isTRUE(exact_sampler_available(M, s$sigma, s$center, s$radius, s$law, s$truncated))) {
      abort_sampler(sprintf(paste("the exact %s sampler on %s refuses sigma = %.4g on a ball of radius %.4g (its noise",
                                  "is as wide as the ball in this dimension, or too sharp for double precision); give a",
                                  "smaller coarse `radius`, a larger epsilon or bounds_share, or sampler = \"mcmc\""),
                            if (s$law == "kng") "KNG" else "Riemannian Laplace", manifold_label(M), s$sigma, s$radius), call)
    }
  }, M, radius, call)
  # (charged just before the first private stage draws: every stage after
  # it draws)
  pb <- private_ball_stages(M, Xv, eps, share, center, radius,
                            charge = function() spend_budget(budget, priv, "frechet_mean", call = call), call = call)
  mech <- on_private_ball(build_frechet_mechanism(M, ncol(Xv), inner, list(center = pb$center, radius = pb$radius),
                                                  footpoint = pb$center, call = call), call)
  mech <- compose_private_bounds(mech, pb, opts$privacy)
  release_frechet_points(mech, Xv, return_nonprivate, call = cl)
}
