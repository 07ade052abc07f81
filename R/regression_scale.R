# The scale stage of the default private regression (method =
# "gauss_newton"; proof: inst/proofs/regression-gauss-newton.md, section
# 2a). A loose `tau` widens every clip of the release, and where the net's
# draw or a round from a coarse start clips at it, the release's excess
# energy grows like tau^2. Where the budget pays for it, a first stage
# chooses a residual scale privately, before any line is drawn: the
# exponential mechanism over the levels tau_e 2^-j, j = 0..levels - 1, with
# score minus the distance of the count of triple statistics below the level
# from `quantile` m (sensitivity 1; the C++ core,
# inst/include/dpmanifold_core/regression_scale.hpp). The rest of the
# release is the default's plan at the clip bound min(tau_e, kappa level)
# with the rest of the budget: one public plan per level, built with the
# mechanism; the release runs the one drawn (post-processing).
#
# It runs where the localising net is one per coordinate (dimension above
# .gauss_newton$net_max_dim) and the dimension is at most max_dim, off
# euclidean(). Public constants: the stage's epsilon is triples_eps / m
# (m = floor(n / 3) triples: the same lead of the right level over the
# others at every n; at 20, one draw in eight fell low enough on S^5 to
# land the net's draw on its plateau), and the stage runs only where that
# is at most max_share of epsilon (n epsilon >= about 500: below, the
# share costs the net per coordinate more than a loose tau does; at n 200
# the stage at share 0.15 read 2.4-2.6 on SPD(3) at every tau, against
# 1.52 at the bench's tau without it, and S^5 1.57-1.78 against 1.39-1.46:
# the loose-tau bench's second table); the
# levels span a factor 2^(levels - 1) = 64 below tau_e. Measured with bench/dp_regression_loose_tau.R (proof section 2a).
.regression_scale <- list(triples_eps = 25, max_share = 0.15, levels = 7L, kappa = 2, quantile = 0.5, max_dim = 6L)

# The stage's epsilon, or 0 where it does not run (public rule: the method,
# the manifold, n and epsilon).
scale_stage_epsilon <- function(M, n, eps, method = "gauss_newton") {
  g <- .regression_scale
  m <- n %/% 3
  # (on dimension <= net_max_dim the localising net is one block and the
  # rounds choose their clips privately: a loose tau costs little there,
  # S^2 at n 1000, epsilon 0.5: 1.011 at tau 0.15, 1.014 at 0.6)
  # (above max_dim a lower clip bound moves the plan to a net per
  # coordinate of d blocks, whose plateau then holds mass: shapes::apes,
  # Kendall d = 12, epsilon 5, 20 data sets: median 1.134 without the stage,
  # 1.186 with it and 20% above 3)
  if (!identical(method, "gauss_newton") || inherits(M, "euclidean") || M$dim <= .gauss_newton$net_max_dim ||
      M$dim > g$max_dim || m < 1) {
    return(0)
  }
  e <- g$triples_eps / m
  if (e > g$max_share * eps) 0 else e
}

# The default's plan, with the scale stage first where it runs: then
# `stages` are the scale stage and the plan's at tau_e (as printed before a
# release) and spec$scale holds the levels and one plan per level
# (increasing levels, as the C++ core reads them). A level whose plan the
# domain's scale checks refuse (`check`, a function of a plan's stages) is
# left out with every level below it: public, before any data.
scaled_gauss_newton_plan <- function(M, n, eps, r, tau, R0, V0, check = function(stages) TRUE) {
  g <- .regression_scale
  es <- scale_stage_epsilon(M, n, eps)
  if (es == 0) return(gauss_newton_plan(M, n, eps, r, tau, R0, V0))
  top <- r + R0 + V0 / 2
  tau_e <- if (is.null(tau)) top else min(tau, top)
  levels <- tau_e * 2^-(seq_len(g$levels) - 1)
  plans <- list()
  for (j in seq_along(levels)) {
    p <- gauss_newton_plan(M, n, eps - es, r, min(tau_e, g$kappa * levels[j]), R0, V0)
    if (!isTRUE(tryCatch(check(p$stages), dpmanifold_error = function(e) FALSE))) break
    p$tau_used <- min(tau_e, g$kappa * levels[j])
    plans[[j]] <- p
  }
  if (!length(plans)) return(gauss_newton_plan(M, n, eps, r, tau, R0, V0))
  levels <- levels[seq_along(plans)]
  m <- n %/% 3
  stage <- dp_stage("scale", "exponential_grid", epsilon = es, sensitivity = 1, sigma = 2 / es,
                    proof = "regression-gauss-newton",
                    detail = sprintf("%g-quantile of %d triple residuals on a grid of %d levels up to %.3g",
                                     g$quantile, m, length(levels), tau_e))
  ord <- rev(seq_along(levels))
  list(stages = c(list(stage), plans[[1]]$stages),
       spec = c(plans[[1]]$spec,
                list(scale = list(epsilon = es, quantile = g$quantile, levels = levels[ord], plans = plans[ord],
                                  stage = stage))))
}

# The C++ spec of a scaled plan: each level's spec with the public centre
# and domain, and the stage's parameters.
scaled_cpp_spec <- function(spec, center, R0, V0) {
  sc <- spec$scale
  subs <- lapply(sc$plans, function(p) {
    cpp <- p$spec$cpp
    cpp[c("center", "R0", "V0")] <- list(center, R0, V0)
    cpp
  })
  cpp <- subs[[length(subs)]]
  cpp$scale <- list(epsilon = sc$epsilon, quantile = sc$quantile, levels = sc$levels, specs = subs)
  cpp
}

# The mechanism a scaled release ran once level j (1-based, increasing
# levels) was drawn: the stages before the scale stage (the private ball's,
# with `bounds_share`), the scale stage and that level's plan; and what the
# release reports of the draw (the level, the clip bound that followed,
# and the plan's stages: post-processing of the stage's output).
scaled_mechanism <- function(mech, j) {
  sc <- mech$spec$scale
  p <- sc$plans[[j]]
  spec <- mech$spec
  spec$cpp <- mech$spec$cpp$scale$specs[[j]]
  spec[names(p$spec)[names(p$spec) != "cpp"]] <- p$spec[names(p$spec) != "cpp"]
  spec$scale <- NULL
  before <- mech$stages[seq_len(match("scale", names(mech$stages)) - 1L)]
  new_dp_mechanism(mech$statistic, mech$manifold, mech$n, mech$privacy[c("type", "epsilon", "delta")], mech$bounds,
                   c(unname(before), list(sc$stage), p$stages), method = mech$method, not_private = mech$privacy$not_private,
                   spec = spec, expected_error = mech$expected_error, subclass = class(mech)[1])
}

# The scale stage's draw, as the release lists it among its private draws.
scale_drawn <- function(mech, j) {
  sc <- mech$spec$scale
  st <- lapply(scaled_mechanism(mech, j)$stages, stage_public)
  split <- stats::setNames(vapply(st, function(s) as.numeric(s$privacy$epsilon), 0), vapply(st, function(s) s$name, ""))
  list(plan = list(stages = unname(st), split = split),
       bounds = list(residual_scale = sc$levels[j], tau_used = sc$plans[[j]]$tau_used))
}
