# The joint stage of the default private regression (method =
# "gauss_newton"), where its release is the net's draw per coordinate; the
# C++ core runs it after the draw (release_regression.hpp, stage 1c).
# Proof: inst/proofs/regression-gauss-newton.md, section 3c.

# The net per coordinate at share 1 - joint_share of eps, then the joint
# stage at the rest (proof section 3c): the exponential mechanism over T
# candidate steps about the draw (the first the draw itself, the others
# Gaussian, sds joint_spread times the net's public sds per coordinate),
# scored by the residuals' energy clipped at min(tau_e, net_clip_r r), one
# term in [0, 1] a record: sensitivity 1. T = joint_max, within the work
# bound T n <= net_max_work. NULL where it does not run (public rule: a
# net per coordinate, joint_share > 0, the net available at its share).
joint_stage <- function(M, n, eps, r, tau_e, R0, V0) {
  g <- .gauss_newton
  d <- M$dim
  if (g$joint_share <= 0 || d <= g$net_max_dim) return(NULL)
  e2 <- g$joint_share * eps
  loc <- localisation(M, n, eps - e2, r, tau_e, R0, V0, any_net = TRUE)
  T <- floor(min(g$joint_max, g$net_max_work / n))
  if (is.null(loc$spec$net) || T < 2) return(NULL)
  c <- min(tau_e, g$net_clip_r * r)
  loc$spec <- c(loc$spec, list(joint_candidates = T, joint_epsilon = e2, joint_clip = c,
                               joint_sd_a = g$joint_spread * sqrt(loc$spec$net_var_a),
                               joint_sd_b = g$joint_spread * sqrt(loc$spec$net_var_b)))
  loc$stages$joint <- dp_stage("joint", "exponential_candidates", epsilon = e2, sensitivity = 1, sigma = 2 / e2,
                               proof = "regression-gauss-newton",
                               detail = sprintf("energy clipped at %.3g of %d geodesics drawn about the net's, jointly", c, T))
  loc
}
