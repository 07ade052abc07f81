# Nets over pairs of coordinates, measured against the default's net per
# coordinate (inst/proofs/regression-gauss-newton.md section 8). Where the
# default's release is the net's draw per coordinate (d blocks, so
# sensitivity d), blocks of two coordinates halve the sensitivity, and the
# score clips the residual's norm over both coordinates of a block; the
# draw per block is the exponential mechanism over every pair of lines of
# the same per-coordinate lattice (N^2 candidates), with the same clips
# (times `clip factor` for a pair), and a last single coordinate when d is
# odd keeps its own net. Blocks of disjoint coordinates, one term in
# [0, 1] per record and block: sensitivity ceiling(d / 2), epsilon-DP by
# the argument of section 3b. A study in R, not a release path: it reads
# the package's lattice (dpmanifold:::localisation) and releases the line
# through the chart at the centre, moved onto the public balls; the
# default at the same epsilon runs on the same data set beside it.
#
#   Rscript bench/dp_regression_pair_blocks.R                       # about 9 minutes
#   DPM_BENCH_QUICK=true Rscript bench/dp_regression_pair_blocks.R  # smoke run
#
# Median energy ratio and the share above 3. Prints what it measures;
# asserts nothing. Its figures (proof section 8) were read before the
# package drew pairs itself: since then the default on S^5 at n 200 is the
# net over pairs with its own lattice (section 3b, pair_lattice()), so the
# "default" column there is that path; the paired comparison of the
# package's pairs with its net per coordinate is
# bench/dp_regression_net_pairs.R.

source(file.path(dirname(sub("^--file=", "", grep("^--file=", c(commandArgs(FALSE), "--file=bench/x"), value = TRUE)[1])), "regression-bench-utils.R"))
quick <- identical(Sys.getenv("DPM_BENCH_QUICK"), "true")
t_start <- proc.time()[["elapsed"]]
localisation <- get("localisation", asNamespace("dpmanifold"))

# One draw of the pair-block net on data set D (x in [0, 1]).
pair_release <- function(M, D, eps, tau, clip_factor) {
  d <- M$dim
  n <- length(D$x)
  r <- D$radius
  t <- D$x - 0.5
  blocks <- split(seq_len(d), ceiling(seq_len(d) / 2))
  beta <- length(blocks)
  loc <- localisation(M, n, eps, r, min(tau, 3 * r), r, 2 * r, any_net = TRUE)
  A <- loc$spec$net[1, ]
  Bv <- loc$spec$net[2, ]
  N <- length(A)
  c1 <- loc$spec$net_clip
  w1 <- max(loc$spec$net_clip_wide, c1)
  basis <- mfd_tangent_basis(M, D$center)
  bk <- function(k) if (length(dim(basis)) == 3) basis[, , k] else basis[k, ]
  combine <- function(x) Reduce(`+`, lapply(seq_len(d), function(k) x[k] * bk(k)))
  L <- mfd_log(M, D$center, D$y)
  Z <- t(vapply(seq_len(d), function(k) as.numeric(mfd_inner(M, D$center, bk(k), L)), numeric(n)))
  lam <- function(q, cc, ww) 0.5 * (pmin(q, cc^2) / cc^2 + pmin(q, ww^2) / ww^2)
  draw <- function(S) {
    w <- exp(-eps * (S - min(S)) / (2 * beta))
    sample.int(length(S), 1L, prob = as.vector(w))
  }
  a <- b <- numeric(d)
  for (blk in blocks) {
    res2 <- lapply(blk, function(k) (Z[k, ] - outer(rep(1, n), A) - outer(t, Bv))^2)
    if (length(blk) == 1L) {
      j <- draw(colSums(lam(res2[[1]], c1, w1)))
      a[blk] <- A[j]
      b[blk] <- Bv[j]
      next
    }
    S <- matrix(0, N, N)
    for (j1 in seq_len(N)) S[j1, ] <- colSums(lam(res2[[1]][, j1] + res2[[2]], clip_factor * c1, clip_factor * w1))
    j <- draw(S)
    j1 <- (j - 1L) %% N + 1L
    j2 <- (j - 1L) %/% N + 1L
    a[blk] <- A[c(j1, j2)]
    b[blk] <- Bv[c(j1, j2)]
  }
  if (sqrt(sum(a^2)) > r) a <- a * r / sqrt(sum(a^2))
  if (sqrt(sum(b^2)) > 2 * r) b <- b * 2 * r / sqrt(sum(b^2))
  p <- mfd_exp(M, D$center, combine(a))
  list(p = p, v = mfd_transport(M, D$center, p, combine(b)), N = N)
}
cell <- function(M, sim, eps, tau, label, reps, clip_factor = 1, seed = 13) {
  set.seed(seed)
  res <- replicate(reps, {
    D <- sim()
    E0 <- nonprivate_energy(M, D$x, D$y)
    def <- dp_geodesic_regression(M, D$x, D$y, epsilon = eps, tau = tau, center = D$center, radius = D$radius,
                                  x_range = c(0, 1))
    pr <- pair_release(M, D, eps, tau, clip_factor)
    c(default = energy(M, D$x, D$y, def$estimate$p, def$estimate$v) / E0, pairs = energy(M, D$x, D$y, pr$p, pr$v) / E0,
      N = pr$N)
  })
  data.frame(setting = label, "clip factor" = clip_factor, "lines per coordinate" = stats::median(res["N", ]),
             default = round(stats::median(res["default", ]), 3), "default>3" = round(mean(res["default", ] > 3), 2),
             pairs = round(stats::median(res["pairs", ]), 3), "pairs>3" = round(mean(res["pairs", ] > 3), 2),
             check.names = FALSE)
}
rows <- list(cell(S5, function() sim_sphere(200, M = S5), 1, 0.15, "S^5 n 200, eps 1", if (quick) 2L else 60L),
             cell(P2, function() sim_spd(50), 1, 0.05, "SPD(2) n 50, eps 1", if (quick) 2L else 20L))
if (!quick && requireNamespace("shapes", quietly = TRUE)) {
  ap <- apes_setting()
  for (f in c(1, sqrt(2))) rows[[length(rows) + 1L]] <- cell(ap$M, function() ap$D, 2, ap$tau, "apes eps 2", 20L, f)
}
show("Nets over pairs of coordinates against the default's net per coordinate (same data sets)", rows)
cat(sprintf("\n(%.0f s)\n", proc.time()[["elapsed"]] - t_start))
