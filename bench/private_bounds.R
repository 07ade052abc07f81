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
