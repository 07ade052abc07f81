# The default private geodesic regression (method = "gauss_newton") and the
# one-round tangent release (method = "tangent"; every method on
# euclidean() but "gauss_newton"): exact Gauss-Newton rounds of perturbed
# sufficient statistics, run in one call into C++
# (inst/include/dpmanifold_core/release_regression.hpp). Proof:
# inst/proofs/regression-gauss-newton.md.

# Public constants of the default (chosen on the S^2 setting of
# bench/dp_regression_utility.R, then checked on the others there):
# the design's share of epsilon, the localising round's share of the rest,
# the clip stage's share of the refining round, the n epsilon from which
# the clip level is chosen privately (below it the clip stage's noise
# costs more than a loose tau), the n epsilon below which one round (the
# tangent release) is run, the target quantile and the number of grid levels
# (tau_e 2^(-j/2), j = 0..levels) with the power of their public base
# measure (level^-grid_power: a level too high costs noise in proportion,
# one too low only a shorter step), and the half-width of the covariate's
# working window in design standard deviations (rounds with a private clip
# level may narrow it to 1 or 1.5, proof section 3); for the
# net localisation (section 3b): the largest dimension netted jointly, the
# points per ball, the work bound n x blocks x points, the score's narrow
# and wide clips as shares of the radius, the draw's margin over the
# plateau, its share, the n e1 below which a one-block net coarsens (up to
# twice) and the margin within which a net per coordinate does, the share
# of the K-norm round's error below which the net takes the whole budget,
# the factor of the band variances of its draw, the exponent by which a
# net per coordinate narrows its clips (d^-net_narrow), the share of its
# spacing below which a kept net's clip does not narrow, and the size of
# the lattice a net per coordinate draws from (at most net_coord_max lines,
# log N net_coord_tail below the plateau's margin, spacing in a at least
# net_coord_floor core sds), and the kept net's clip in spacings
# (net_cover where log N exceeds net_cover_half of the plateau's margin,
# else net_cover_small), and the ladder of net_levels clips whose lowest is
# net_low_tau tau / sqrt(d) (a net per coordinate; none at net_levels 2);
# whether a lattice per coordinate is drawn over pairs of coordinates, the
# work bound n ceil(d / 2) N^2 of that draw, the spacing, in core sds,
# beyond which its lattice counts as coarse (pair_lattice()), and the
# factor of a pair's clips over those per coordinate (S^5, n 200: 0.8 and
# 0.7 put 5% and 20% of data sets above ratio 3; proof section 3b), and the
# most squared residuals n N per coordinate that draw holds (the C++ core's
# kNetResidualsMax).
# Where epsilon sqrt(n) reaches precise_esqn (times sqrt((d + 1) / 2))
# the release's noise falls below the least-squares fit's own sampling
# error, and where n epsilon reaches precise_neps (times d / 2 from d = 2:
# a round's noise grows like d) below the bias a round at the 0.6-quantile
# leaves (a share of its start's error; the threshold is measured, on
# d = 1 and 2); there what the rounds leave of the
# start's bias decides (proof section 3, "Precise rounds"):
# the refining rounds then clip at precise_quantile on a grid of
# precise_levels, one round more follows from extra_round_esqn, and each
# round's released step but the last counts, times 1 - gain, as the
# state's bias (the error a step divided by the gain may leave, when the
# clipped map's secant lies between the gain and 1). Wherever the last
# round's level is drawn, the bands add gap_safety times clip_fit_gap():
# the clipped fit's distance from least squares.
.gauss_newton <- list(design = 0.15, localise = 0.4, clip = 0.15, clip_min_neps = 90, two_rounds_min_neps = 50,
                      quantile = 0.6, levels = 8L, grid_power = 1, shift = 1, third = 2, localise3 = 0.3,
                      window = 2, net_max_dim = 2L, net_block = 150L, net_max_work = 4e7, net_clip_r = 0.25,
                      net_clip_wide = 0.5, net_margin = 4, localise_net = 0.55, net_spacing = 100, net_tail = 7,
                      net_only_gain = 0.5, net_var = 3, net_narrow = 0.3, net_cover = 1.2, net_cover_small = 0.8,
                      net_cover_half = 0.5, net_coord_max = 3.3e4, net_coord_tail = 6, net_coord_floor = 2,
                      precise_esqn = 50, precise_neps = 1200, precise_quantile = 0.9, precise_levels = 12L, extra_round_esqn = 150,
                      gap_safety = 1.5, net_low_tau = 0.7, net_levels = 2L,
                      net_pairs = TRUE, net_pair_work = 4e8, net_pair_spacing = 3, net_pair_clip = 1,
                      net_pair_residuals = 2.5e7, net_pair_sparse = TRUE, net_sparse_lines = 2e5,
                      net_sparse_work = 1e9, net_sparse_visits = 1e7, net_sparse_margin = 600)

# The design stage: S_t and S_tt with Laplace noise of scales alpha / eG
# and beta / eG (weighted l1 sensitivity 1; proof section 2).
design_stage <- function(eG) {
  sc <- ssp_gram_scales()
  list(stage = dp_stage("design", "laplace_sums", epsilon = eG, sensitivity = 1, sigma = 1 / eG,
                        proof = "regression-gauss-newton", detail = "sums of t and t^2, weighted l1 norm"),
       spec = list(scale_st = sc[["St"]] / eG, scale_stt = sc[["Stt"]] / eG, floor_stt = sc[["Stt"]] / eG))
}

# One round of the C++ spec.
ssp_round <- function(e, upper, eq = 0, grid = upper, d = 1L, q = .gauss_newton$quantile) {
  list(epsilon = e, clip_upper = upper, epsilon_clip = eq, quantile = q, grid = grid,
       grid_log_weight = -.gauss_newton$grid_power * log(grid / max(grid)),
       gain = if (eq > 0) clip_gain(q, d) else 1, gap = if (eq > 0) .gauss_newton$gap_safety * clip_fit_gap(q, d) else 0)
}

# The standard deviation per coordinate, in units of rho / sqrt(n) (of the
# intercept; the slope's is the same per unit of the design's spread), of
# the distance between the fit from residuals clipped at rho, the
# q-quantile of their norms, and least squares, for isotropic Gaussian
# residuals in R^d: the M-estimator with psi(z) = z min(1, rho / |z|)
# against the mean. By Stein's lemma their covariance is the mean's
# variance, so the difference has variance (E|psi|^2 / d) / kappa^2 - 1
# (sigma^2 / n per coordinate), kappa = clip_gain(q, d); in one dimension
# Huber's estimator at k = rho / sigma.
clip_fit_gap <- function(q, d = 1L) {
  c2 <- stats::qchisq(q, d)
  psi2 <- (d * stats::pchisq(c2, d + 2) + c2 * (1 - q)) / d
  sqrt(max(psi2 / clip_gain(q, d)^2 - 1, 0) / c2)
}

# The mean slope of the clipped residual map z -> z min(1, rho / |z|) when
# rho is the q-quantile of |z| and z is isotropic Gaussian in R^d: q (the
# unclipped records, slope 1) plus, for the clipped ones, (d - 1) / d times
# rho / |z| (the tangential part). A Gauss-Newton step from clipped
# residuals is this much too short; dividing by it restores the step. A
# public constant: it scales steps, never the noise a record meets.
clip_gain <- function(q, d) {
  if (q >= 1) return(1)
  c <- sqrt(stats::qchisq(q, d))
  tail <- stats::integrate(function(r) c / r * stats::dchisq(r^2, d) * 2 * r, c, Inf)$value
  q + (d - 1) / d * tail
}

gauss_newton_plan <- function(M, n, eps, r, tau, R0, V0) {
  g <- .gauss_newton
  top <- r + R0 + V0 / 2
  tau_e <- if (is.null(tau)) top else min(tau, top)
  d <- M$dim
  eG <- g$design * eps
  # Wherever the plan would run the tangent release (one round at the
  # centre), the net with the whole budget replaces it when the net's public
  # error is below the tangent release's.
  tangent_or_net <- function() {
    only <- net_only_plan(M, n, eps, eG, r, tau_e, R0, V0, decide = FALSE)
    tangent_error <- knorm_round_error(d, n, r, (1 - ssp_gram_share(d)) * eps)
    if (!is.null(only) && only$spec$error < tangent_error) return(only)
    tangent_plan(M, n, eps, r, R0, V0)
  }
  if (n * eps < g$two_rounds_min_neps) return(tangent_or_net())
  clip <- n * eps >= g$clip_min_neps
  # Public root-mean-square error of a round at share e with clip level rho
  # (the shift of the line for an even design, sqrt(8 d (d + 1)) 2 rho /
  # (n e)). Without a private clip level (small n epsilon) the refining
  # round clips at tau_e, and when the first round's error exceeds tau_e it
  # cannot correct it: then one round (the tangent release, the whole
  # budget) does better. With the clip stage, each refining round clips at
  # most at tau_e plus the previous round's error (a step from residuals
  # clipped far below that error cannot correct it), and when the first
  # round's error exceeds 2 tau_e a second refining round follows (the first
  # cannot bring the line within tau_e). Public rules.
  round_error <- function(rho, e) knorm_round_error(d, n, rho, e)
  e1 <- g$localise * (eps - eG)
  loc <- localisation(M, n, e1, r, tau_e, R0, V0)
  if (!is.null(loc$spec$net)) {
    # the net's draw is worth a larger share (its error falls like
    # 1 / sqrt(n e1), and the refining round then clips lower)
    e1 <- g$localise_net * (eps - eG)
    loc <- localisation(M, n, e1, r, tau_e, R0, V0)
  }
  # A net per coordinate at its share that is coarse (the kept net, its
  # clip set by its spacing), where the whole budget reaches a net that is
  # not (the lattice, or a kept net at its own clip): the draw with the
  # whole budget is the release and no round follows (public rule). The
  # coarse net's best line can sit half a spacing off the data, which takes
  # its score's gap over the plateau from about n down to about n / 2 in
  # some coordinates; the draw then lands on the plateau, and no round
  # recovers (proof section 3b; bench/dp_regression_sweep.R, SPD(3),
  # n 200: median energy ratio 1836 against 1.44 at epsilon 1.5, 5.7
  # against 1.36 at epsilon 2).
  coarse_only <- function(loc) {
    if (is.null(loc$spec$net) || !isTRUE(loc$coarse)) return(NULL)
    only <- net_only_plan(M, n, eps, eG, r, tau_e, R0, V0, decide = FALSE)
    if (!is.null(only) && isFALSE(only$coarse)) only
  }
  only <- coarse_only(loc)
  if (!is.null(only)) return(only)
  # Without a private clip level the refining round clips at tau_e; when
  # its public error exceeds the net's, the net takes the whole budget and
  # no round follows (public rule).
  if (!clip && !is.null(loc$spec$net) && round_error(tau_e, eps - eG - e1) > loc$error) {
    only <- net_only_plan(M, n, eps, eG, r, tau_e, R0, V0)
    if (!is.null(only)) return(only)
  }
  # When the net is too coarse at the localising share but not with the
  # whole budget, and then localises far closer than the K-norm round, it
  # takes the whole budget and no round follows (public rule; a coarse net
  # at a share between, followed by a round, does far worse: SPD(3),
  # n 200, epsilon 1, a net at 0.7: median energy ratio 1674 against 2.2).
  if (is.null(loc$spec$net)) {
    only <- net_only_plan(M, n, eps, eG, r, tau_e, R0, V0)
    if (!is.null(only) && only$spec$error < g$net_only_gain * loc$error) return(only)
  }
  if (!clip && loc$error > tau_e) return(tangent_or_net())
  three <- clip && loc$error > g$third * tau_e
  if (three) {
    e1 <- g$localise3 * (eps - eG)
    loc <- localisation(M, n, e1, r, tau_e, R0, V0)
    only <- coarse_only(loc)
    if (!is.null(only)) return(only)
  }
  k <- if (three) 2L else 1L
  # (precise rounds: public rule on epsilon sqrt(n) and n epsilon; see
  # .gauss_newton)
  # (a round's noise grows like sqrt(d (d + 1)) / (n epsilon) and the
  # clipped fit's gap like sqrt(d / n): their ratio goes like
  # epsilon sqrt(n) / sqrt(d + 1), normalised to epsilon sqrt(n) at d = 1;
  # the bias a round leaves does not fall with n: against it n epsilon
  # decides, at a threshold measured on d = 1 and 2 and raised like the
  # noise, d / 2, above (proof section 3))
  esqn <- eps * sqrt(n) / sqrt((d + 1) / 2)
  precise <- clip && (esqn >= g$precise_esqn || n * eps >= g$precise_neps * max(1, d / 2))
  if (precise && esqn >= g$extra_round_esqn) k <- k + 1L
  q <- if (precise) g$precise_quantile else g$quantile
  levels <- if (precise) g$precise_levels else g$levels
  e_ref <- rep((eps - eG - e1) / k, k)
  des <- design_stage(eG)
  stages <- c(list(des$stage), unname(loc$stages))
  rounds <- loc$rounds
  prev <- loc$error
  ups <- numeric(k)
  for (j in seq_len(k)) {
    sfx <- if (j == 1L) "" else as.character(j)
    eq <- if (clip) g$clip * e_ref[j] else 0
    eT <- e_ref[j] - eq
    up <- if (clip) min(top, tau_e + g$shift * prev) else tau_e
    grid <- up * 2^(-(levels:0) / 2)
    if (eq > 0) {
      stages <- c(stages, list(dp_stage(paste0("clip", sfx), "exponential_grid", epsilon = eq, sensitivity = 1,
                                        sigma = 2 / eq, proof = "regression-gauss-newton",
                                        detail = sprintf("%g-quantile of the residual norms on a grid of %d levels up to %.3g",
                                                         q, length(grid), up))))
    }
    stages <- c(stages, list(dp_stage(paste0("refine", sfx), "knorm", epsilon = eT, sensitivity = 2 * up,
                                      sigma = 2 * up / eT, proof = "regression-gauss-newton",
                                      detail = "Gauss-Newton step from clipped residuals")))
    rounds <- c(rounds, list(if (eq > 0) ssp_round(eT, up, eq, grid, d, q) else ssp_round(eT, up)))
    ups[j] <- up
    prev <- round_error(up, eT)
    # (with a private clip level the round's error lies between these: the
    # level is drawn from the grid, typically far below its top)
    low <- if (eq > 0) round_error(grid[1], eT) else prev
  }
  # (a refining round with a private clip level may narrow the covariate's
  # window where its noise, knorm_round_error() at its drawn level, outweighs
  # the clamping's bias: proof section 3, "Narrower windows"; the C++ core
  # gets the error per unit of rho / epsilon)
  window_noise <- if (clip) knorm_round_error(d, n, 1, 1) else 0
  if (precise) {
    # (every round but the last: the next round's weights read it; the
    # last round's step is precise, and the bands count its gap instead)
    for (j in seq_len(length(rounds) - 1L)) rounds[[j]]$bias <- 1 - rounds[[j]]$gain
  }
  cpp <- c(cpp_plan(des, d, r, R0, V0, rounds, loc$spec), list(window_noise = window_noise))
  list(stages = stages, spec = list(cpp = cpp,
                                    tau_e = tau_e, clip_upper = ups, expected_error = prev,
                                    expected_error_low = if (clip) low))
}

# Public root-mean-square error of a K-norm round of the endpoint moments
# at clip level rho and share e: the shift of the line over an even
# design, sqrt(8 d (d + 1)) 2 rho / (n e) (proof section 7).
knorm_round_error <- function(d, n, rho, e) sqrt(8 * d * (d + 1)) * 2 * rho / (n * e)

# The C++ spec of a plan: the design's scales, the public domain with its
# prior variances, the rounds and the localising net's fields (if any).
cpp_plan <- function(des, d, r, R0, V0, rounds, net = list()) {
  c(des$spec, list(radius = r, tol = .dpm_tol, R0 = R0, V0 = V0, prior_a = R0^2 / (d + 2),
                   prior_b = V0^2 / (d + 2), step_var = 0, window = .gauss_newton$window, rounds = rounds), net)
}

# The plan whose release is the net's draw with the whole budget (no
# design stage, no rounds; proof section 3b); NULL when the net is not
# available.
net_only_plan <- function(M, n, eps, eG, r, tau_e, R0, V0, decide = TRUE) {
  d <- M$dim
  # (decide: against a round, the plan decides as if the design took its
  # share eG, as when the design stage was kept: the net must beat the
  # K-norm localisation at eps - eG, and its public error there is what
  # the plan weighs; the draw then takes the whole budget. Deciding at eps
  # sent shapes::apes at epsilon 2 to a coarse net: median 2.7-3.8 against
  # 1.64-1.69. Against the tangent release its error at eps is weighed.)
  loc <- localisation(M, n, eps, r, tau_e, R0, V0, any_net = TRUE)
  if (is.null(loc$spec$net)) return(NULL)
  at <- if (decide) localisation(M, n, eps - eG, r, tau_e, R0, V0) else loc
  if (is.null(at$spec$net)) return(NULL)
  # The release is the draw: its public variances feed only the
  # confidence bands; they take the wide clip and a public factor for the
  # law's tails beyond its quadratic core (S^2, n 30, epsilon 1: root mean square
  # error 1.7 times the core's at the ends of the range)
  loc$spec[c("net_var_a", "net_var_b")] <- as.list(.gauss_newton$net_var * loc$band)
  # (no design stage: with no round after the draw nothing would read the
  # design but the covariate's window, which is then the public range)
  des <- list(spec = list(scale_st = 0, scale_stt = 0, floor_stt = 0, design = FALSE))
  list(stages = unname(loc$stages), coarse = loc$coarse,
       spec = list(cpp = cpp_plan(des, d, r, R0, V0, list(), loc$spec), tau_e = tau_e, clip_upper = numeric(0),
                   error = at$error, expected_error = loc$error))
}

# The tangent release: one round at the centre, the whole budget on the
# design and the moments (shares: ssp_gram_share); the line is moved onto
# the public domain (regression_mechanism() sets it). As method "tangent"
# (no R0, V0 here) the round's step is unweighted; as the default's
# fallback at small n epsilon it is weighed against the public domain
# (|a| <= R0, |b| <= V0) taken as a prior at the centre, with the public
# noise variances: where the noise outgrows the domain, the release
# shrinks towards the centre (public post-processing; seed 000's SPD(2),
# n 20, epsilon 0.2: median energy ratio 1877 against 7663, the public
# centre alone 1567).
tangent_plan <- function(M, n, eps, r, R0 = Inf, V0 = Inf) {
  s <- ssp_gram_share(M$dim)
  eG <- s * eps
  eT <- eps - eG
  des <- design_stage(eG)
  stages <- list(des$stage,
                 dp_stage("moments", "knorm", epsilon = eT, sensitivity = 2 * r, sigma = 2 * r / eT,
                          proof = "regression-gauss-newton", detail = "moments of the tangent coordinates at the centre"))
  # (cpp_plan() with an infinite domain gives infinite priors: no weighting)
  cpp <- cpp_plan(des, M$dim, r, R0, V0, list(ssp_round(eT, r)))
  list(stages = stages, spec = list(cpp = cpp, expected_error = knorm_round_error(M$dim, n, r, eT)))
}

# The values the release drew that its stages report: the clip level of
# each K-norm round whose level was chosen privately (sensitivity 2 rho,
# scale 2 rho / epsilon). The C++ core returns one level per round, in the
# order of the K-norm stages.
gauss_newton_drawn <- function(mech, clip) {
  st <- mech$stages
  rounds <- mech$spec$cpp$rounds
  # (a K-norm stage of private bounds, before the regression's, is not a round)
  knorm <- names(st)[vapply(st, function(s) identical(s$mechanism, "knorm") && !identical(s$proof, "private-bounds"),
                            NA)]
  # (one level per round and one K-norm stage per round, always: a
  # mismatch is a bug, which once hid the drawn levels after a net)
  if (length(knorm) != length(rounds) || length(clip) != length(rounds)) {
    stop("internal error: the release's rounds do not match its K-norm stages", call. = FALSE)
  }
  drawn <- which(vapply(rounds, function(r) r$epsilon_clip > 0, NA))
  if (!length(drawn)) return(list())
  out <- list()
  for (j in drawn) {
    rho <- clip[[j]]
    e <- st[[knorm[j]]]$privacy$epsilon
    out[[knorm[j]]] <- list(sensitivity = 2 * rho, sigma = 2 * rho / e)
  }
  list(stages = out, bounds = list(clip = unlist(clip[drawn])))
}
