# The floors of inst/proofs/regression-gauss-newton.md section 8: the
# expected energy ratio of an exponential mechanism's draw over lines, in
# the Laplace approximation of its core (no lattice, no plateau), for
# Gaussian residuals of sd s per coordinate and an even design.
#
# A score with values in [0, 1] per record and block of m coordinates, at
# sensitivity beta = d / m (d / m blocks), gives a draw whose energy ratio
# is 1 + 4 beta / (n epsilon C), C the expected score's curvature per
# coordinate at the truth, in units of 1 / s^2:
# - the clipped square min(|u|^2, c^2) / c^2 at c = kappa s: C = G_m(kappa) /
#   kappa^2, G_m the second derivative of E min(|Z - a e_1|^2, kappa^2)
#   (Z standard normal in R^m), by numerical integration of the
#   noncentral chi-square;
# - the best bounded score: C = E[(|W|^2 - m)_+] / m (W standard normal in
#   R^m; the 0-1 loss at |W|^2 = m attains it), 2 phi(1) = 0.484 for m = 1.
# Run: Rscript score-floors.R (a second; base R only).

clipped_square_curvature <- function(kappa, m, h = 1e-3) {
  e <- function(a) stats::integrate(function(x) stats::pchisq(x, m, ncp = a^2, lower.tail = FALSE), 0, kappa^2)$value
  (e(h) - 2 * e(0) + e(-h)) / h^2 / kappa^2
}
best_clipped_square <- function(m) {
  o <- stats::optimize(function(k) 1 / clipped_square_curvature(k, m), c(0.5, 6 * sqrt(m)))
  list(kappa = o$minimum, curvature = 1 / o$objective)
}
best_bounded_curvature <- function(m) {
  stats::integrate(function(x) (x - m) * stats::dchisq(x, m), m, Inf)$value / m
}
energy_floor <- function(d, n_eps, m, curvature) 1 + 4 * (d / m) / (n_eps * curvature)

score_floors <- function(settings = data.frame(setting = c("S^5 n 200 eps 1", "SPD(3) n 200 eps 1",
                                                           "apes eps 2 (108 records)", "SPD(2) n 50 eps 1"),
                                               d = c(5, 6, 12, 3), n_eps = c(200, 200, 216, 50))) {
  rows <- lapply(seq_len(nrow(settings)), function(i) {
    d <- settings$d[i]
    ne <- settings$n_eps[i]
    one <- best_clipped_square(1)
    joint <- best_clipped_square(d)
    data.frame(setting = settings$setting[i],
               per_coordinate_clipped = energy_floor(d, ne, 1, one$curvature),
               per_coordinate_bounded = energy_floor(d, ne, 1, best_bounded_curvature(1)),
               joint_clipped = energy_floor(d, ne, d, joint$curvature),
               joint_bounded = energy_floor(d, ne, d, best_bounded_curvature(d)),
               joint_kappa_per_sqrt_d = joint$kappa / sqrt(d))
  })
  do.call(rbind, rows)
}

# Blocks of m coordinates (the last block holds the rest, as the default's
# pairs leave the last coordinate of an odd d alone), beta = ceil(d / m)
# blocks, each record's term the mean of clipped squares at the clips
# kappas (in sds per coordinate, the same for every block): each
# coordinate's variance is 4 beta / (n epsilon C), C its block's curvature
# E[rho(W) (|W|^2 - k)] / k (the score's second derivative, by Stein).
mean_clipped_curvature <- function(kappas, k) {
  rho <- function(x) rowMeans(vapply(kappas, function(kap) pmin(x / kap^2, 1), numeric(length(x))))
  stats::integrate(function(x) rho(x) * (x - k) * stats::dchisq(x, k), 0, Inf)$value / k
}
blocks_floor <- function(d, n_eps, m, kappas) {
  sizes <- c(rep(m, d %/% m), if (d %% m) d %% m)
  per_coordinate <- sum(vapply(sizes, function(k) k / mean_clipped_curvature(kappas, k), 0)) / d
  1 + 4 * length(sizes) * per_coordinate / n_eps
}

if (sys.nframe() == 0L) {
  cat(sprintf("best bounded curvature per coordinate, one coordinate: %.4f (2 phi(1) = %.4f)\n",
              best_bounded_curvature(1), 2 * stats::dnorm(1)))
  b <- best_clipped_square(1)
  cat(sprintf("best clipped square, one coordinate: kappa %.2f, kappa^2 / G %.3f\n", b$kappa, 1 / b$curvature))
  print(score_floors(), digits = 4, row.names = FALSE)
  # pairs at the clips the main bench's tau gives (section 8: SPD(3) clips
  # at 2.94 sds per coordinate, S^5 at 1.97 and 2.96), at the best single
  # clip, and triples
  best <- function(d, m) stats::optimize(function(k) blocks_floor(d, 200, m, k), c(0.5, 6))
  cat(sprintf("pairs at the bench's clips: SPD(3) %.3f, S^5 %.3f\n",
              blocks_floor(6, 200, 2, 2.94), blocks_floor(5, 200, 2, c(1.97, 2.96))))
  cat(sprintf("pairs at the best clip: SPD(3) %.3f, S^5 %.3f; triples at the best clip: SPD(3) %.3f, S^5 %.3f\n",
              best(6, 2)$objective, best(5, 2)$objective, best(6, 3)$objective, best(5, 3)$objective))
}
