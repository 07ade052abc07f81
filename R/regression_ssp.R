# Sufficient-statistics laws shared by the regression methods: the design
# scales and shares, K-norm and Laplace noise, the split SSP of
# method = "linearised" (proofs: inst/proofs/regression-gauss-newton.md and
# regression-methods.md).
# Derivations in the documentation of dp_geodesic_regression().

# Public constant of the design release: Laplace scales alpha (sum t) and
# beta = .ssp_gram_c * alpha (sum t^2) with the weighted l1 sensitivity 1.
.ssp_gram_c <- 0.3

ssp_gram_scales <- function(c = .ssp_gram_c) {
  alpha <- (1 + c)^2 / (4 * c)
  c(St = alpha, Stt = c * alpha)
}

# Public share of epsilon for the design statistics: minimises the expected
# excess energy A_G / s^2 + A_T / (1 - s)^2 with the slope over the range
# taken as r (public proxy): A_G = 2 r^2 (alpha^2 + 12 beta^2) from the
# design noise, A_T = 8 d (d + 1) (2 r)^2 from the moment noise.
ssp_gram_share <- function(d) {
  s <- ssp_gram_scales()
  AG <- 2 * (s[["St"]]^2 + 12 * s[["Stt"]]^2)
  AT <- 8 * d * (d + 1) * 4
  k <- (AG / AT)^(1 / 3)
  k / (1 + k)
}

# The noise of these laws, drawn in C++ through R's generator
# (samplers.hpp): K-norm (l2) noise in R^d of density prop. to
# exp(-|nu| / scale), and independent Laplace variables.
knorm_l2_noise <- function(d, scale) cpp_noise("knorm", d, scale)

laplace_noise <- function(k, scale) cpp_noise("laplace", k, scale)

project_ball <- function(z, rad) {
  nz <- sqrt(sum(z^2))
  if (nz > rad) z * (rad / nz) else z
}

# Public facts of an SSP release: the design (K-norm or weighted l1 with
# sensitivity 1) at eG, the moments (l1-of-l2 sensitivity 2 r) at eT.
ssp_facts <- function(r, eG, eT) {
  list(sensitivity = c(design = 1, moments = 2 * r),
       sigma = c(design = 1 / eG, moments = 2 * r / eT),
       split = c(design = eG, moments = eT))
}

# The split SSP of method = "linearised" (derivation in the documentation of
# dp_geodesic_regression()): moments summed on each side of the middle of
# the range, t > 0 and t <= 0 (the weights 1/2 +- sign(t)/2 give the
# slope 3/2 times the signal of the least-squares weights 1/2 +- t for the
# same sensitivity), and the design they need, (sum sign t, sum t,
# sum |t|), released by the K-norm mechanism of its exact sensitivity hull.
#
# Each record's design is the barycentric vector of (sign t, t+, t-) in the
# simplex with vertices (1, 0, 0), (1, 1/2, 0), (-1, 0, 0), (-1, 0, 1/2).
split_design_barycentric <- function(t) {
  pos <- t > 0
  cbind(ifelse(pos, 1 - 2 * t, 0), ifelse(pos, 2 * t, 0), ifelse(pos, 0, 1 + 2 * t), ifelse(pos, 0, -2 * t))
}

# K-norm noise for a sum of simplex vectors under replace-one (the
# difference body {y in R^4: sum y = 0, sum |y| <= 2}; samplers.hpp).
simplex_difference_noise <- function(scale) cpp_noise("simplex_difference", 4L, scale)

ssp_release_split <- function(t, Z, r, eps, share) {
  d <- nrow(Z)
  n <- ncol(Z)
  eG <- share * eps
  eT <- (1 - share) * eps
  B <- colSums(split_design_barycentric(t)) + simplex_difference_noise(1 / eG)
  Ss <- B[[1]] + B[[2]] - B[[3]] - B[[4]]
  St <- (B[[2]] - B[[4]]) / 2
  Sa <- (B[[2]] + B[[4]]) / 2
  pos <- t > 0
  Tp <- rowSums(Z[, pos, drop = FALSE]) + knorm_l2_noise(d, 2 * r / eT)
  Tm <- rowSums(Z[, !pos, drop = FALSE]) + knorm_l2_noise(d, 2 * r / eT)
  # post-processing: a valid design, the determinant floored at the design
  # noise scale, then the 2 x 2 solve of
  # [n, St; Ss, Sa] (a, b) = (T+ + T-, T+ - T-)
  Ss <- min(max(Ss, -n), n)
  St <- min(max(St, -n / 2), n / 2)
  Sa <- min(max(Sa, abs(St)), n / 2)
  det <- max(Sa - St * Ss / n, 1 / eG)
  b <- ((Tp - Tm) - Ss * (Tp + Tm) / n) / det
  a <- (Tp + Tm - St * b) / n
  c(list(x = c(a, b)), ssp_facts(r, eG, eT))
}
