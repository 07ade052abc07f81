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
# (tau_e 2^(-j/2), j = 0..levels).
.gauss_newton <- list(design = 0.2, localise = 0.4, clip = 0.15, clip_min_neps = 150, two_rounds_min_neps = 50,
                      quantile = 0.9, levels = 8L, shift = 1)

# The design stage: S_t and S_tt with Laplace noise of scales alpha / eG
# and beta / eG (weighted l1 sensitivity 1; proof section 2).
design_stage <- function(eG) {
  sc <- ssp_gram_scales()
  list(stage = dp_stage("design", "laplace_sums", epsilon = eG, sensitivity = 1, sigma = 1 / eG,
                        proof = "regression-gauss-newton", detail = "sums of t and t^2, weighted l1 norm"),
       spec = list(scale_st = sc[["St"]] / eG, scale_stt = sc[["Stt"]] / eG, floor_stt = sc[["Stt"]] / eG))
}

# One round of the C++ spec.
ssp_round <- function(e, upper, eq = 0, grid = upper) {
  list(epsilon = e, clip_upper = upper, epsilon_clip = eq, quantile = .gauss_newton$quantile, grid = grid)
}

gauss_newton_plan <- function(M, n, eps, r, tau, R0, V0) {
  g <- .gauss_newton
  top <- r + R0 + V0 / 2
  tau_e <- if (is.null(tau)) top else min(tau, top)
  if (n * eps < g$two_rounds_min_neps) {
    p <- tangent_plan(M, n, eps, r)
    return(p)
  }
  eG <- g$design * eps
  e1 <- g$localise * (eps - eG)
  e2 <- eps - eG - e1
  eq <- if (n * eps >= g$clip_min_neps) g$clip * e2 else 0
  eT <- e2 - eq
  des <- design_stage(eG)
  # With the clip stage, the refining round clips at most at tau_e plus
  # the localising round's public error (root mean square shift of
  # the line for an even design, sqrt(8 d (d + 1)) 2 r / (n e1)): a step
  # from residuals clipped well below the first round's error cannot
  # correct it.
  # Without a private clip level (small n epsilon) the refining round clips
  # at tau_e, and when the first round's error exceeds tau_e it cannot
  # correct it: then one round (the tangent release, the whole budget) does
  # better (a public rule).
  d <- M$dim
  shift1 <- sqrt(8 * d * (d + 1)) * 2 * r / (n * e1)
  if (eq == 0 && shift1 > tau_e) return(tangent_plan(M, n, eps, r))
  up2 <- if (eq > 0) min(top, tau_e + g$shift * shift1) else tau_e
  grid <- up2 * 2^(-(g$levels:0) / 2)
  stages <- list(
    des$stage,
    dp_stage("localise", "knorm", epsilon = e1, sensitivity = 2 * r, sigma = 2 * r / e1,
             proof = "regression-gauss-newton", detail = "moments of the tangent coordinates at the centre"))
  if (eq > 0) {
    stages <- c(stages, list(dp_stage("clip", "exponential_grid", epsilon = eq, sensitivity = 1, sigma = 2 / eq,
                                      proof = "regression-gauss-newton",
                                      detail = sprintf("%g-quantile of the residual norms on a grid of %d levels up to tau",
                                                       g$quantile, length(grid)))))
  }
  stages <- c(stages, list(dp_stage("refine", "knorm", epsilon = eT, sensitivity = 2 * up2, sigma = 2 * up2 / eT,
                                    proof = "regression-gauss-newton",
                                    detail = "Gauss-Newton step from clipped residuals")))
  rounds <- list(ssp_round(e1, r), if (eq > 0) ssp_round(eT, up2, eq, grid) else ssp_round(eT, up2))
  cpp <- c(des$spec, list(radius = r, tol = .dpm_tol, R0 = R0, V0 = V0,
                          prior_a = R0^2 / (d + 2), prior_b = V0^2 / (d + 2), step_var = 0, rounds = rounds))
  list(stages = stages, spec = list(cpp = cpp, tau_e = tau_e, clip_upper = up2))
}

# The tangent release: one round at the centre, the whole budget on the
# design and the moments (shares: ssp_gram_share), no weighting.
tangent_plan <- function(M, n, eps, r) {
  s <- ssp_gram_share(M$dim)
  eG <- s * eps
  eT <- eps - eG
  des <- design_stage(eG)
  stages <- list(des$stage,
                 dp_stage("moments", "knorm", epsilon = eT, sensitivity = 2 * r, sigma = 2 * r / eT,
                          proof = "regression-gauss-newton", detail = "moments of the tangent coordinates at the centre"))
  cpp <- c(des$spec, list(radius = r, tol = .dpm_tol, R0 = Inf, V0 = Inf, prior_a = Inf, prior_b = Inf,
                          step_var = 0, rounds = list(ssp_round(eT, r))))
  list(stages = stages, spec = list(cpp = cpp))
}

# The values the release drew that its stages report: the clip level of
# the refining round (sensitivity 2 rho, scale 2 rho / epsilon).
gauss_newton_drawn <- function(mech, clip) {
  st <- mech$stages
  if (is.null(st$refine) || length(clip) < 2L) return(list())
  rho <- clip[[2]]
  e <- st$refine$privacy$epsilon
  list(stages = list(refine = list(sensitivity = 2 * rho, sigma = 2 * rho / e)),
       bounds = list(clip = rho))
}
