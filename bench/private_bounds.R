# Private bounds (dp_frechet_mean(bounds_share = )): the error of a private
# mean whose ball is chosen privately, against the release given the true
# centre and radius, in one run.
#
#   Rscript bench/private_bounds.R
#
# S^2, data uniform in a cap of radius 0.3 around a random (unknown) point,
# n = 1000, epsilon = 1; mean distance to the non-private Frechet mean over
# `reps` data sets. Target (issue 19): within 2x of the known ball.
# Kendall(8): shapes::rats (144 skulls), epsilon = 5, against the ball
# centred at the data's own mean with radius 1.2 x the largest distance
# (not private: a reference only). Prints what it measures.
suppressPackageStartupMessages(library(dpmanifold))
set.seed(20261125)
reps <- if (identical(Sys.getenv("DPM_BENCH_QUICK"), "true")) 10L else 100L
S2 <- sphere(2)
cap <- function(c0, n, rad) {
  V <- mfd_random_tangent(S2, c0, n)
  mfd_exp(S2, c0, V / sqrt(rowSums(V^2)) * rad * sqrt(runif(n)))
}
res <- replicate(reps, {
  c0 <- mfd_random_point(S2, 1)
  X <- cap(c0, 1000, 0.3)
  m <- frechet_mean(S2, X)$mean
  d <- function(r) mfd_dist(S2, r$estimate, m)
  c(known = d(dp_frechet_mean(S2, X, epsilon = 1, center = c0, radius = 0.3)),
    share_0.1 = d(dp_frechet_mean(S2, X, epsilon = 1, bounds_share = 0.1)),
    share_0.2 = d(dp_frechet_mean(S2, X, epsilon = 1, bounds_share = 0.2)),
    share_0.3 = d(dp_frechet_mean(S2, X, epsilon = 1, bounds_share = 0.3)))
})
m <- rowMeans(res)
cat(sprintf("S^2 cap 0.3, n 1000, eps 1, %d data sets: mean distance to the Frechet mean\n", reps))
print(data.frame(ball = names(m), mean_error = signif(m, 3), ratio_to_known = signif(m / m[["known"]], 3)),
      row.names = FALSE)
if (requireNamespace("shapes", quietly = TRUE)) {
  e <- new.env()
  utils::data("rats", package = "shapes", envir = e)
  K <- kendall_shape(8)
  Z <- as_preshape(e$rats$x)
  mk <- frechet_mean(K, Z)$mean
  rad <- 1.2 * max(mfd_dist(K, mk, Z))
  rk <- replicate(reps, c(
    data_ball = mfd_dist(K, suppressWarnings(dp_frechet_mean(K, Z, epsilon = 5, center = mk, radius = rad))$estimate, mk),
    share_0.3 = mfd_dist(K, dp_frechet_mean(K, Z, epsilon = 5, bounds_share = 0.3)$estimate, mk)))
  cat(sprintf("\nKendall(8), shapes::rats, eps 5: mean distance, ball from the data (not private) %.4g, private bounds (share 0.3) %.4g\n",
              mean(rk["data_ball", ]), mean(rk["share_0.3", ])))
}
