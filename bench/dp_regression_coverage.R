# Coverage of the confidence regions of default regression releases
# (confint(), level 0.9) below the precise-rounds threshold, where
# ?confint.dp_release reports it lower than the level: S^2, n 300,
# residual sd 0.05, |v| 0.54, tau 0.3, radius 0.5, epsilon 1 and 2; four
# data sets, `reps` releases each. Prints, per data set, the share of
# releases whose balls hold the least-squares footpoint and velocity, the
# root mean square error of v, and the misses of the velocity's ball by the
# clip level the release drew (a level drawn below the residuals' scale
# gives a short step, which the band does not count).
#
# DPM_BENCH_GRID_POWER=x re-runs it with the clip grid's base measure
# level^-x instead of the package's (a public constant of the plan:
# .gauss_newton$grid_power), to weigh that constant against coverage; the
# energy ratios it moves are in bench/dp_regression_utility.R.
# Prints what it measures; asserts nothing. About a minute per setting.

lib <- Sys.getenv("DPM_BENCH_LIB", file.path(tempdir(), "dpm-bench-lib"))
.libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(dpmanifold))
reps <- as.integer(Sys.getenv("DPM_BENCH_REPS", "400"))
gp <- Sys.getenv("DPM_BENCH_GRID_POWER")
if (nzchar(gp)) {
  g <- dpmanifold:::.gauss_newton
  g$grid_power <- as.numeric(gp)
  utils::assignInNamespace(".gauss_newton", g, "dpmanifold")
}
cat(sprintf("grid_power %g, %d releases per data set, level 0.9\n", dpmanifold:::.gauss_newton$grid_power, reps))

S2 <- sphere(2)
north <- c(0, 0, 1)
coverage <- function(seed, n, eps) {
  set.seed(seed)
  x <- runif(n)
  y <- mfd_exp(S2, north, outer(x - 0.5, c(0.5, 0.2, 0)))
  y <- mfd_exp(S2, y, 0.05 * mfd_random_tangent(S2, y, n))
  fit <- coef(geodesic_regression(S2, x, y, x_range = c(0, 1)))
  res <- t(replicate(reps, {
    rel <- dp_geodesic_regression(S2, x, y, epsilon = eps, tau = 0.3, center = north, radius = 0.5,
                                  x_range = c(0, 1))
    ci <- confint(rel, level = 0.9)
    ev <- sqrt(sum((ci$v$center - mfd_transport(S2, fit$p, ci$p$center, fit$v))^2))
    c(v = ev <= ci$v$radius, p = mfd_dist(S2, ci$p$center, fit$p) <= ci$p$radius, err = ev,
      clip = rel$bounds$clip[1])
  }))
  miss <- tapply(res[, "v"] == 0, signif(res[, "clip"], 2), function(m) sprintf("%d/%d", sum(m), length(m)))
  cat(sprintf("  data set %d, n %d, epsilon %g: velocity %.3f, footpoint %.3f, rms error of v %.4f\n",
              seed, n, eps, mean(res[, "v"]), mean(res[, "p"]), sqrt(mean(res[, "err"]^2))))
  cat("    velocity misses by drawn clip level:", paste(names(miss), miss, sep = ": ", collapse = ", "), "\n")
}
for (eps in c(1, 2)) for (seed in 15:18) coverage(seed, 300, eps)
