# Private bounds (dp_frechet_mean(bounds_share = )): the error of a private
# mean whose ball is chosen privately, against the release given the true
# centre and radius, in one run, for the package's radius rule ("new") and
# the former one ("old": a base measure of fixed cost 19.2 nats across the
# grid, which collapses the radius below n epsilon_r = 43; it is the same
# rule with margin = -Inf, set here only).
#
#   Rscript bench/private_bounds.R            (DPM_BENCH_QUICK=true: 10 reps)
#
# 1. S^2, data uniform in a cap of radius 0.3 around a random (unknown)
#    point, n = 1000, epsilon = 1; mean distance to the non-private Frechet
#    mean over `reps` data sets. Target (issue 19): within 2x of the known
#    ball.
# 2. Kendall(8): shapes::rats (144 skulls), epsilon = 5, against the ball
#    centred at the data's own mean with radius 1.2 x the largest distance
#    (not private: a reference only).
# 3. The sweep over n epsilon_r (epsilon 1, share 0.2, so n epsilon_r =
#    n / 10, from 10 to 1000): S^2 caps of radius 0.3 and 0.05 (a
#    concentrated cap: radii above the data are many), and hyperbolic(2)
#    with a cap of radius 0.3 at distance 1 from the origin inside the coarse
#    public ball (origin, 3). miss: share of releases whose chosen ball does
#    not hold the data's mean; ratio: mean error over the known ball's;
#    radius: median chosen radius.
suppressPackageStartupMessages(library(dpmanifold))
quick <- identical(Sys.getenv("DPM_BENCH_QUICK"), "true")
reps <- if (quick) 10L else 100L
sweep_reps <- if (quick) 10L else 40L
rules <- local({
  new <- get(".private_ball", asNamespace("dpmanifold"))
  list(old = modifyList(new, list(margin = -Inf)), new = new)
})
use_rule <- function(r) utils::assignInNamespace(".private_ball", rules[[r]], "dpmanifold")
quiet <- function(expr) suppressWarnings(expr, classes = "dpmanifold_low_utility")
cap <- function(M, c0, n, rad) {
  V <- mfd_random_tangent(M, c0, n)
  mfd_exp(M, c0, V / sqrt(rowSums(V^2)) * rad * sqrt(runif(n)))
}
S2 <- sphere(2)
for (rule in names(rules)) {
  use_rule(rule)
  # (a seed per data set: both rules see the same data and the same centre
  # draws, so the comparison is paired)
  res <- sapply(seq_len(reps), function(i) {
    set.seed(20261125 + i)
    c0 <- mfd_random_point(S2, 1)
    X <- cap(S2, c0, 1000, 0.3)
    m <- frechet_mean(S2, X)$mean
    d <- function(r) mfd_dist(S2, r$estimate, m)
    c(known = d(dp_frechet_mean(S2, X, epsilon = 1, center = c0, radius = 0.3)),
      share_0.1 = d(dp_frechet_mean(S2, X, epsilon = 1, bounds_share = 0.1)),
      share_0.2 = d(dp_frechet_mean(S2, X, epsilon = 1, bounds_share = 0.2)),
      share_0.3 = d(dp_frechet_mean(S2, X, epsilon = 1, bounds_share = 0.3)))
  })
  m <- rowMeans(res)
  cat(sprintf("[%s rule] S^2 cap 0.3, n 1000, eps 1, %d data sets: mean distance to the Frechet mean\n", rule, reps))
  print(data.frame(ball = names(m), mean_error = signif(m, 3), ratio_to_known = signif(m / m[["known"]], 3)),
        row.names = FALSE)
  if (requireNamespace("shapes", quietly = TRUE)) {
    e <- new.env()
    utils::data("rats", package = "shapes", envir = e)
    K <- kendall_shape(8)
    Z <- as_preshape(e$rats$x)
    mk <- frechet_mean(K, Z)$mean
    rad <- 1.2 * max(mfd_dist(K, mk, Z))
    rk <- sapply(seq_len(reps), function(i) {
      set.seed(20261126 + i)
      c(data_ball = mfd_dist(K, suppressWarnings(dp_frechet_mean(K, Z, epsilon = 5, center = mk, radius = rad))$estimate, mk),
        share_0.3 = mfd_dist(K, dp_frechet_mean(K, Z, epsilon = 5, bounds_share = 0.3)$estimate, mk))
    })
    cat(sprintf("[%s rule] Kendall(8), shapes::rats, eps 5: mean distance, ball from the data (not private) %.4g, private bounds (share 0.3) %.4g\n\n",
                rule, mean(rk["data_ball", ]), mean(rk["share_0.3", ])))
  }
}

H <- hyperbolic(2)
o <- c(1, 0, 0)
cases <- list(
  "S^2 cap 0.3" = list(M = S2, rad = 0.3, coarse = NULL, c0 = function() mfd_random_point(S2, 1)),
  "S^2 cap 0.05" = list(M = S2, rad = 0.05, coarse = NULL, c0 = function() mfd_random_point(S2, 1)),
  "H^2 cap 0.3, coarse ball (o, 3)" = list(M = H, rad = 0.3, coarse = list(center = o, radius = 3), c0 = function() {
    v <- matrix(mfd_random_tangent(H, o, 1), 1)
    mfd_exp(H, o, v[1, ] / sqrt(sum(v^2)))
  }))
ns <- c(100, 150, 200, 250, 350, 500, 1000, 2500, 10000)
cat(sprintf("Sweep over n epsilon_r (epsilon 1, share 0.2), %d data sets a cell, old -> new\n", sweep_reps))
for (nm in names(cases)) {
  cs <- cases[[nm]]
  M <- cs$M
  rows <- lapply(ns, function(n) {
    out <- lapply(names(rules), function(rule) {
      use_rule(rule)
      sapply(seq_len(sweep_reps), function(i) {
        set.seed(1000 * n + i)
        c0 <- cs$c0()
        X <- cap(M, c0, n, cs$rad)
        m <- frechet_mean(M, X)$mean
        kn <- quiet(dp_frechet_mean(M, X, epsilon = 1, center = c0, radius = cs$rad))
        r <- quiet(dp_frechet_mean(M, X, epsilon = 1, bounds_share = 0.2, center = cs$coarse$center,
                                   radius = cs$coarse$radius))
        c(known = mfd_dist(M, kn$estimate, m), priv = mfd_dist(M, r$estimate, m),
          miss = mfd_dist(M, r$bounds$center, m) > r$bounds$radius, radius = r$bounds$radius)
      })
    })
    names(out) <- names(rules)
    f <- function(v, k) sprintf(k, v[["old"]], v[["new"]])
    ratio <- vapply(out, function(x) mean(x["priv", ]) / mean(x["known", ]), 0)
    data.frame(n_eps_r = n / 10, miss = f(vapply(out, function(x) mean(x["miss", ]), 0), "%.2f -> %.2f"),
               ratio = f(ratio, "%.3g -> %.3g"),
               radius = f(vapply(out, function(x) median(x["radius", ]), 0), "%.3g -> %.3g"))
  })
  cat("\n", nm, "\n", sep = "")
  print(do.call(rbind, rows), row.names = FALSE)
}
use_rule("new")

# 4. The regression (dp_geodesic_regression(bounds_share = )), package rule:
#    the S^2 seed setting of bench/dp_regression_utility.R (a geodesic of
#    length 0.6, noise variance 0.001 per ambient coordinate, x on [0, 1]);
#    median energy ratio (private fit's energy over the non-private one's)
#    over `reg_reps` data sets, with the public ball (radius 0.4 at the
#    midpoint, tau 0.15 or none) beside the private bounds (no public input
#    but x_range). Common random numbers: the three releases of a data set
#    start from one seed.
reg_reps <- if (quick) 8L else 20L
sim_s2 <- function(n) {
  q0 <- mfd_random_point(S2, 1)
  z <- mfd_random_tangent(S2, q0, 1)
  z <- 0.6 * z / sqrt(sum(z^2))
  x <- runif(n)
  Y <- mfd_exp(S2, q0, outer(x - 0.5, z)) + matrix(rnorm(3 * n, sd = sqrt(0.001)), n)
  list(x = x, y = Y / sqrt(rowSums(Y^2)), center = as.numeric(q0), radius = 0.4)
}
reg_energy <- function(D, rel) {
  dpmanifold:::cpp_regression_energy(S2, D$x - 0.5, t(D$y), rel$estimate$p, rel$estimate$v)
}
cat("\nRegression on S^2, the seed setting: median energy ratio (share of data sets above 3)\n")
rows <- lapply(list(c(200, 1, 0.1), c(200, 1, 0.2), c(500, 1, 0.1), c(500, 1, 0.2), c(1000, 1, 0.2), c(200, 5, 0.2)),
               function(s) {
  res <- replicate(reg_reps, {
    D <- sim_s2(s[1])
    E0 <- geodesic_regression(S2, D$x, D$y, x_range = c(0, 1))$energy
    seed <- sample.int(1e6, 1)
    rel <- function(...) {
      set.seed(seed)
      quiet(dp_geodesic_regression(S2, D$x, D$y, epsilon = s[2], x_range = c(0, 1), ...))
    }
    c(tau = reg_energy(D, rel(tau = 0.15, center = D$center, radius = D$radius)),
      no_tau = reg_energy(D, rel(center = D$center, radius = D$radius)),
      private = reg_energy(D, rel(bounds_share = s[3]))) / E0
  })
  g <- function(k) sprintf("%.3f (%.2f)", median(res[k, ]), mean(res[k, ] > 3))
  data.frame(n = s[1], epsilon = s[2], share = s[3], public_ball_tau = g("tau"), public_ball = g("no_tau"),
             private_bounds = g("private"))
})
print(do.call(rbind, rows), row.names = FALSE)
