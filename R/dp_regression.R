#' Differentially private geodesic regression
#'
#' Releases a geodesic \eqn{x \mapsto Exp_p((x - x_0) v)} fitted to
#' covariates `x` and manifold-valued responses `y` (on [euclidean()]:
#' linear regression) under epsilon-differential privacy. `p` is the
#' footpoint at \eqn{x_0}, the middle of the public `x_range`, and `v` the
#' velocity per unit of `x`, the parametrisation of [geodesic_regression()]
#' too; [predict()][dp_release], [coef()][dp_release] and
#' [print()][dp_release] work in the units of `x`, and
#' [confint()][confint.dp_release] gives public regions for `p` and `v`
#' (lm's intervals on [euclidean()]).
#'
#' @section What the default guarantees:
#' `method = "gauss_newton"` (the default; `"auto"` is the same) is
#' **epsilon-DP with every sampler exact** (no chain, so no unknown
#' delta), on every manifold. It composes a few stages whose budgets add
#' up to `epsilon`; the printout lists each stage's budget, sensitivity and
#' scale, and [regression_mechanism()] shows them before any data are read.
#' Each stage reads each record once, so a release costs a few passes over
#' the data (well under a second at n = 10^6 on the sphere).
#'
#' The stages (proof and measurements: `regression-gauss-newton.md`):
#' 0. *scale* (on manifolds of dimension 3 to 6, once
#'    \eqn{n\epsilon \ge 500}): a residual scale chosen privately, the
#'    median of distances within random triples of records from the
#'    geodesic through two of them (no line needed), on the grid
#'    `tau`/2^j; the stages below then run at the clip bound
#'    min(`tau`, 2 x scale) with the rest of the budget (the release
#'    reports both in `bounds`);
#' 1. *design*: the sums of the rescaled covariate and of its square, with
#'    Laplace noise (the later stages read the design only through them, so
#'    a design bunched on one side of `x_range` does not break them);
#' 2. *localise*: the exponential mechanism over a public net of geodesics
#'    scored by their clipped energy (the whole net on manifolds of
#'    dimension 1 or 2; above, one tangent coordinate at a time, or two at
#'    a time where a fine lattice of lines fits the work bound, which
#'    halves the draw's sensitivity), or, where that net would be coarser,
#'    one K-norm round of the responses' tangent moments at `center`;
#' 3. *clip* (once \eqn{n\epsilon \ge 90}): a clip level chosen privately,
#'    the 0.6-quantile of the residual norms at the localised geodesic;
#' 4. *refine*: a Gauss-Newton step from the residuals clipped at that
#'    level, with K-norm noise, weighed against the localisation by public
#'    variances (stages 3-4 run twice when the localisation is coarse).
#'
#' Where \eqn{\epsilon\sqrt{n}/\sqrt{(d+1)/2} \ge 50} (d the manifold's
#' dimension), the noise is below the sampling error of the fit and the
#' rounds become *precise*: they clip at the 0.9-quantile (on 13 levels),
#' count 1 - kappa of each released step but the last (kappa the round's
#' gain) as bias that the next round should remove, and from 150 one round
#' more runs, so the release lands on the clipped fit, close
#' to least squares (`euclidean(1)`, n = 1000, epsilon = 50: slope within
#' 0.008 of lm's, against 0.07 below it without them).
#'
#' At small \eqn{n\epsilon} (below 50) the release is the net's draw with
#' the whole budget or the one-round `"tangent"` release, whichever has the
#' smaller public error; the net's draw is also the release where it
#' localises far closer than a round could (dimension 3 and up at moderate
#' \eqn{n\epsilon}). Once the rounds run the error falls like
#' \eqn{1/(n\epsilon)}.
#'
#' @section Choosing the public inputs:
#' * `center`, `radius`: a ball that holds the responses, from knowledge
#'   that does not come from these records (a pilot study, an atlas, the
#'   design). Responses outside are moved onto it. Without one, spend a
#'   share of epsilon choosing it privately (`bounds_share`).
#' * `x_range`: the covariate's public range (say, the ages a study
#'   recruits); values outside are clamped.
#' * `tau`: an upper limit on residual norms, best near the largest you
#'   expect (their 90-95% quantile). The rounds choose their own clip level
#'   privately on a grid whose top is `tau` plus the public error of the
#'   stage before (a step from residuals clipped well below the start's
#'   error could not correct it), so the drawn level can exceed `tau`
#'   (`bounds$clip` of the release holds it); a loose `tau`, or none (the
#'   largest residual the domain allows), costs little there. On dimension
#'   3 to 6 from \eqn{n\epsilon = 500} the scale stage sets the clip
#'   bound from the residuals (SPD(3), n = 600, epsilon = 1, residual
#'   norms about 0.025: median energy ratio 1.08 at `tau` 0.05 and at 0.4,
#'   against 1.05 and 3.8 without the stage; `bench/dp_regression_loose_tau.R`).
#'   Below that, where the net's draw is the release (the printed stages
#'   say so), it clips at `tau` itself and its error grows with a loose
#'   `tau` (SPD(3), n = 200, epsilon = 1: 1.34 at `tau` = 0.025, 1.54 at
#'   0.05, 3.3 at 0.1, 8.6 at 0.2; `bench/dp_regression_net_clips.R`).
#'   A scale stage there takes more than it saves: on SPD(3) at n = 200
#'   it read 2.4-2.6 at every `tau` from 0.05 to 0.4 (a third of data sets
#'   above 3), against 1.5 at 0.05 without it.
#'
#' Where the public error model puts the line's error at or above the
#' domain's, a [dpmanifold_low_utility] warning says that the public centre
#' would do as well. Bounds left out are taken from the data with a
#' [dpmanifold_privacy_leak] warning, and the release says it is not
#' private.
#'
#' @section Other methods (on request):
#' * `"tangent"`: one round at `center`; exact epsilon-DP. On curved spaces
#'   biased by about \eqn{\kappa r^2} times the geodesic's length when the
#'   data lie far from the centre.
#' * `"energy"`: the exponential mechanism on the clipped energy;
#'   `"linearised"`: that law as a first stage, then a split sufficient
#'   statistics step. Both are drawn by a chain: (epsilon, delta)-DP with
#'   delta unknown. Where \eqn{n\epsilon} is small against the domain the
#'   law itself puts most of its mass far from the data (SPD(2), n = 50,
#'   epsilon = 1: proof section 8).
#' * `"joint"`: the K-norm gradient law of Kulkarni and Soto (exact where a
#'   public bound makes its sampler affordable, else a chain).
#' * `"sequential"`: the seed paper's procedure, **not** DP (a leak
#'   warning; for reproducing the paper).
#'
#' On [euclidean()] the chain methods run as `"tangent"`. Derivations and
#' proofs: `system.file("proofs", package = "dpmanifold")`, files
#' `regression-gauss-newton.md` and `regression-methods.md`.
#'
#' @param M A manifold, see [manifolds].
#' @param x Numeric covariate (a constant covariate is a valid input).
#' @param y Responses in the layout of `M`.
#' @param epsilon Total privacy budget; for `"sequential"` a scalar (split
#'   equally) or `c(p = , v = )`.
#' @param tau Public limit on residual norms: the clip level of the energy
#'   laws and of the net's draw, the base of the rounds' clip grid (whose
#'   top adds the previous stage's public error). Optional for
#'   `"gauss_newton"` and `"tangent"`; for the other methods missing means
#'   the largest residual of the non-private fit, with the leak warning.
#' @param center,radius Public ball holding the responses (radius below
#'   [max_radius()]).
#' @param x_range Public covariate range (two increasing numbers).
#' @param method `"gauss_newton"` (the default; `"auto"` is the same),
#'   `"tangent"`, `"energy"`, `"linearised"`, `"joint"` or `"sequential"`.
#' @param p_radius,v_bound Public domain: the footpoint within `p_radius` of
#'   `center` (default `radius`), the velocity over the whole `x_range` of
#'   norm at most `v_bound` (default `2 * radius`).
#' @param localise,weight,sampler,mcmc Options of the `"joint"`, `"energy"`,
#'   `"linearised"` and `"sequential"` methods (share of the joint law's
#'   first stage, weight of its velocity gradient, `"auto"`/`"exact"`/
#'   `"mcmc"`, chain settings from [mcmc_control()]). The joint law's
#'   exact first stage runs only where it would shrink the domain and its
#'   public acceptance bound certifies its sampler (otherwise, a decision from
#'   public quantities, the whole budget goes to one stage); the bound is
#'   about \eqn{e^{-0.43 n \epsilon_1}} on the default domain, so it rarely
#'   runs (see `regression-methods.md`).
#' @param return_nonprivate Also return the non-private fit and clip counts
#'   in `$nonprivate` (for studies: raises the leak warning and marks the
#'   release not private).
#' @param budget A [dp_budget()] to charge (refused before any data are
#'   read if it cannot pay).
#' @param bounds_share Share of `epsilon` spent choosing the responses'
#'   ball privately (a number in (0, 1)), for `"gauss_newton"` and
#'   `"tangent"`: the ball's centre and radius are released by two private
#'   stages, as in [dp_frechet_mean()] (`bounds_share`), and the regression
#'   runs on that ball with the rest. `center` and `radius` are then a
#'   coarse public ball (required on non-compact manifolds); `x_range` stays
#'   a required public input. Proof: `private-bounds.md`.
#' @param ... Not used: an argument given here (such as lm()'s `data`) is
#'   an error naming it (there is no formula interface).
#' @return A [dp_release] whose `estimate` is `list(p, v, x0, x_range)`;
#'   `stages` lists each stage's budget, sensitivity and scale; `bounds`
#'   holds the public bounds and the clip level the release drew.
#' @references Kulkarni and Soto, Differentially private geodesic regression;
#'   Fletcher (2013) for geodesic regression; Hardt and Talwar (2010) for
#'   the K-norm mechanism; McSherry and Talwar (2007) for the exponential
#'   mechanism; Wang (2018), Revisiting differentially private linear
#'   regression (sufficient-statistics perturbation).
#' @seealso [regression_mechanism()], [geodesic_regression()] (the
#'   non-private fit), [dp_release] (`predict()`, `coef()`, `summary()`),
#'   [confint.dp_release()], [release_conventions] (`nobs()`; why no
#'   `fitted()` or `residuals()`), [plot.dp_release()], [dp_budget()],
#'   [dp_frechet_mean()].
#' @examples
#' S2 <- sphere(2)
#' x <- runif(300)
#' mid <- c(0, 0, 1)
#' truth <- mfd_exp(S2, mid, outer(x - 0.5, c(0.5, 0.2, 0)))
#' y <- mfd_exp(S2, truth, 0.03 * mfd_random_tangent(S2, truth, 300))
#' rel <- dp_geodesic_regression(S2, x, y, epsilon = 1, tau = 0.15,
#'                               center = mid, radius = 0.45, x_range = c(0, 1))
#' rel
#' predict(rel, c(0, 0.5, 1))
#' # DP linear regression
#' xe <- runif(500)
#' ye <- 1 + 2 * xe + rnorm(500, sd = 0.5)
#' coef(dp_geodesic_regression(euclidean(1), xe, ye, epsilon = 1, center = 2,
#'                             radius = 2.5, x_range = c(0, 1)))
#' @export
dp_geodesic_regression <- function(M, x, y, epsilon, tau = NULL, center = NULL, radius = NULL, x_range = NULL,
                                   method = c("gauss_newton", "auto", "tangent", "energy", "linearised", "joint",
                                              "sequential"),
                                   p_radius = NULL, v_bound = NULL, localise = 0.1, weight = NULL,
                                   sampler = c("auto", "exact", "mcmc"), mcmc = NULL,
                                   return_nonprivate = FALSE, budget = NULL, bounds_share = NULL, ...) {
  check_required("M")
  check_no_formula(if (!missing(x)) x, "x", ..., what = "dp_geodesic_regression()")
  check_required(c("x", "y"))
  cl <- match.call()
  method <- check_choice(method, c("gauss_newton", "auto", "tangent", "energy", "linearised", "joint", "sequential"),
                         "method")
  if (method == "auto") method <- "gauss_newton"
  opts <- regression_options(M, if (missing(epsilon)) NULL else epsilon, method, tau, p_radius, v_bound, localise,
                             weight, check_choice(sampler, c("auto", "exact", "mcmc"), "sampler"), mcmc)
  check_flag(return_nonprivate, "return_nonprivate")
  if (!is.null(bounds_share)) {
    return(regression_with_private_bounds(M, x, y, opts, bounds_share, center, radius, x_range, return_nonprivate,
                                          budget, cl))
  }
  # the public bounds validated and the budget checked before any data are
  # read: what the release will spend is known from public inputs (a chain
  # is refused below, once n fixes the sampler); the charge once the data
  # are found valid
  public_bounds <- !is.null(center) && !is.null(radius)
  if (public_bounds) public_ball(M, NULL, center, radius)
  if (!is.null(x_range)) check_x_range(x_range)
  from_data <- !public_bounds || (is.null(opts$tau) && !opts$method %in% c("gauss_newton", "tangent"))
  spend_budget(budget, prospective_privacy(list(type = "pure", epsilon = sum(opts$epsilon), delta = 0),
                                           not_private = from_data || is.null(x_range) || return_nonprivate ||
                                             opts$method == "sequential", chain = FALSE),
               "geodesic_regression", charge = FALSE)
  Ya <- release_layout(M, y, "y")
  n <- ncol(Ya)
  cv <- private_covariate(x, n, x_range)
  Xa <- if (from_data) validate_release_points(M, Ya, "y") else Ya
  ball <- public_ball(M, Xa, center, radius)
  inferred <- c(ball$inferred, cv$inferred)
  if (is.null(opts$tau) && !opts$method %in% c("gauss_newton", "tangent")) {
    f <- regression_fit_centred(M, cv$t, clip_points(M, Xa, ball$center, ball$radius))
    opts$tau <- max(f$residual_norms, 1e-8)
    warn_privacy_leak("`tau` (the largest residual of the non-private fit) was")
    inferred <- c(inferred, "tau")
  }
  mech <- build_regression_mechanism(M, n, opts, ball, cv$range, inferred)
  release_regression_data(mech, cv, Ya, return_nonprivate, call = cl,
                          charge = mechanism_charge(mech, budget, return_nonprivate, cl), resp = response_names(M, y))
}

# dp_geodesic_regression(bounds_share = ): the responses' ball chosen
# privately (R/private_bounds.R), then the regression on it with the rest
# of the budget; x_range stays public.
regression_with_private_bounds <- function(M, x, y, opts, share, center, radius, x_range, return_nonprivate, budget,
                                           cl, call = sys.call(-1)) {
  if (!opts$method %in% c("gauss_newton", "tangent")) {
    abort_arg("bounds_share", sprintf("applies to methods \"gauss_newton\" and \"tangent\" (not \"%s\")", opts$method),
              call)
  }
  check_bounds_share(M, share, center, radius, call)
  if (is.null(x_range)) {
    abort_arg("x_range", "is required with `bounds_share`: the private stages choose the responses' ball, not the covariate's range",
              call)
  }
  check_x_range(x_range, call)
  privacy <- list(type = "pure", epsilon = opts$epsilon, delta = 0)
  priv <- prospective_privacy(privacy, not_private = return_nonprivate, chain = FALSE)
  spend_budget(budget, priv, "geodesic_regression", charge = FALSE, call = call)
  Yv <- as_release_data(M, y, "y", call)
  cv <- private_covariate(x, ncol(Yv), x_range, call)
  inner <- opts
  inner$epsilon <- (1 - share) * opts$epsilon
  # the regression's public options (p_radius, v_bound, the domain's noise
  # scales) checked on the largest and the smallest ball the private stages
  # may choose, so that none of them fails after the charge
  on_private_ball_range(function(r) regression_domain(M, ncol(Yv), inner, r, call = call), M, radius, call)
  # (charged just before the first private stage draws: every stage after
  # it draws)
  pb <- private_ball_stages(M, Yv, opts$epsilon, share, center, radius,
                            charge = function() spend_budget(budget, priv, "geodesic_regression", call = call),
                            call = call)
  mech <- on_private_ball(build_regression_mechanism(M, ncol(Yv), inner, pb, cv$range, call = call), call)
  release_regression_data(compose_private_bounds(mech, pb, privacy), cv, Yv, return_nonprivate, call = cl,
                          resp = response_names(M, y))
}
