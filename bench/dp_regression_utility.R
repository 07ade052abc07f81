# DP geodesic regression: the utility and speed targets of issue 17, the new
# default beside the earlier methods, in one run.
#
#   Rscript bench/dp_regression_utility.R                        # full run
#   DPM_BENCH_QUICK=true Rscript bench/dp_regression_utility.R   # smoke run
#
# Energy ratio = E(private fit) / E(non-private fit) on the same data (the
# energy of geodesic_regression(), covariate range [0, 1]); tables give the
# median over `reps` fresh data sets and the share above 3. Methods:
# default = "gauss_newton" (exact); tangent (exact, one round at the
# centre); energy and linearised (chains); previous = the default before
# this round (the public rule that picked "energy" or "linearised").
# law(tau) is no release: the Laplace approximation of the energy law's
# expected ratio at the user's tau, computed from the non-private residuals
# (proof section 8). It describes the law's core and leaves out its plateau;
# bench/dp_regression_energy_law.R measures the exact law, plateau included
# (at small n epsilon on SPD(2) the plateau holds nearly all of it, and the
# chain's figure there is the chain's, not the law's).
#  1. S^2, the setting of Kulkarni and Soto (4.1): geodesic of length 0.6,
#     x ~ U[0, 1], noise N(0, 0.001 I_3) normalised back, tau = 0.15, public
#     ball of radius 0.4 around the geodesic's midpoint.
#  2. S^2 robustness at n epsilon >= 100: covariates on one side of the
#     middle of the range (x ~ U[0, 0.5]); tau 0.075 to 0.6; |v| 0.2 and 1.2
#     (radius |v| / 2 + 0.1).
#  3. Small samples (Kulkarni and Soto appendix F): S^2 as in 1 and SPD(2)
#     (p, q ~ Wishart(I, 2) / 2, v = Log(p, q), noise N(0, 0.01^2 I) in the
#     tangent space, tau = 0.05, radius |v| / 2 + 0.2) at n = 20, 50, 100 and
#     epsilon = 0.2, 1, 2; SPD(2) at (500, 1).
#  4. Other manifolds: S^5, SPD(3) (affine-invariant and log-Euclidean), H^2
#     and Kendall shapes (shapes::apes against log centroid size; shapes::rats
#     against log age with public pilot animals, epsilon = 5).
#     (Simulated settings pass the true midpoint of the geodesic as the
#     public centre; bench/dp_regression_centre.R releases the same kind of
#     data with a public pilot's Frechet mean as the centre too.)
#  5. Euclidean (DP linear regression) against DPpack and Laplace SSP.
#  6. Speed: one default release on S^2 at n = 10^4..10^6 against one
#     mfd_log() pass over the responses, measured in the same run; SPD(3)
#     at n = 1000.
# Prints what it measures; asserts nothing.

lib <- Sys.getenv("DPM_BENCH_LIB", file.path(tempdir(), "dpm-bench-lib"))
dir.create(lib, showWarnings = FALSE, recursive = TRUE)
.libPaths(c(lib, .libPaths()))
quick <- identical(Sys.getenv("DPM_BENCH_QUICK"), "true")
have_dppack <- requireNamespace("DPpack", quietly = TRUE)
if (!have_dppack && !quick) {
  message("installing DPpack into ", lib, " (not a dependency of dpmanifold)")
  try(utils::install.packages("DPpack", lib = lib, repos = c(CRAN = "https://cloud.r-project.org"), quiet = TRUE))
  have_dppack <- requireNamespace("DPpack", quietly = TRUE)
}
if (have_dppack) suppressPackageStartupMessages(library(DPpack))
suppressPackageStartupMessages(library(dpmanifold))
reps <- if (quick) 4L else 20L
set.seed(20261125)
t_start <- proc.time()[["elapsed"]]

source(file.path(dirname(sub("^--file=", "", grep("^--file=", c(commandArgs(FALSE), "--file=bench/x"), value = TRUE)[1])), "regression-bench-utils.R"))

# ---- 1. S^2, the seed setting ---------------------------------------------------
all_methods <- c("default", "tangent", "energy", "linearised", "previous")
s2_settings <- if (quick) list(c(200, 1)) else
  list(c(50, 1), c(100, 1), c(100, 2), c(200, 0.5), c(200, 1), c(500, 1), c(1000, 0.5), c(1000, 1))
rows <- lapply(s2_settings, function(ne) cell(S2, function() sim_sphere(ne[1]), ne[2], 0.15, all_methods,
                                              sprintf("n %d, eps %g", ne[1], ne[2])))
show(sprintf("1. S^2 seed setting (tau 0.15, radius 0.4): median energy ratio, %d data sets", reps), rows)

# ---- 2. S^2 robustness ------------------------------------------------------------
rob <- list(
  list("even", function(n) sim_sphere(n), 0.15),
  list("one side: x in [0, 0.5]", function(n) sim_sphere(n, xmax = 0.5), 0.15),
  list("tau 0.075", function(n) sim_sphere(n), 0.075),
  list("tau 0.3", function(n) sim_sphere(n), 0.3),
  list("tau 0.6", function(n) sim_sphere(n), 0.6),
  list("|v| 0.2", function(n) sim_sphere(n, len = 0.2), 0.15),
  list("|v| 1.2", function(n) sim_sphere(n, len = 1.2), 0.15))
rob_ne <- if (quick) list(c(200, 1)) else list(c(100, 1), c(200, 1), c(1000, 0.5))
rows <- list()
for (ne in rob_ne) for (r in rob) {
  rows[[length(rows) + 1L]] <- cell(S2, function() r[[2]](ne[1]), ne[2], r[[3]], c("default", "previous"),
                                    sprintf("n %d, eps %g, %s", ne[1], ne[2], r[[1]]))
}
show("2. S^2 robustness (targets: n eps >= 100 median <= 1.5 and < 10% above 3; n eps >= 200: <= 1.15)", rows)

# ---- 3. Small samples (appendix F) and SPD(2) ---------------------------------------
small <- if (quick) list(c(50, 1)) else
  list(c(20, 0.2), c(20, 1), c(20, 2), c(50, 0.2), c(50, 1), c(50, 2), c(100, 0.2), c(100, 1), c(100, 2))
rows <- list()
for (ne in small) {
  rows[[length(rows) + 1L]] <- cell(S2, function() sim_sphere(ne[1]), ne[2], 0.15, c("default", "tangent", "energy"),
                                    sprintf("S^2 n %d, eps %g", ne[1], ne[2]))
  rows[[length(rows) + 1L]] <- cell(P2, function() sim_spd(ne[1]), ne[2], 0.05, c("default", "tangent", "energy"),
                                    sprintf("SPD(2) n %d, eps %g", ne[1], ne[2]))
}
show("3. small samples, appendix F (targets: no cell worse than tangent; median <= 2 where n eps >= 50)", rows)
show("3b. SPD(2) appendix F at n 500, eps 1", list(cell(P2, function() sim_spd(500), 1, 0.05,
                                                       c("default", "tangent", "energy", "linearised"), "SPD(2) n 500, eps 1")))

# ---- 4. Other manifolds --------------------------------------------------------------
rows <- list()
# (the energy chain at n = 1000 on SPD(3) takes about 20 s a release: it
# runs at n = 200 only; the columns are kept apart per n)
for (ne in if (quick) list(c(200, 1)) else list(c(200, 1), c(1000, 1))) {
  meth <- if (ne[1] <= 200) c("default", "tangent", "energy") else c("default", "tangent")
  rows <- list()
  rows[[length(rows) + 1L]] <- cell(S5, function() sim_sphere(ne[1], M = S5), ne[2], 0.15, meth,
                                    sprintf("S^5 n %d, eps %g", ne[1], ne[2]))
  rows[[length(rows) + 1L]] <- cell(P3, function() sim_spd(ne[1], M = P3), ne[2], 0.05, meth,
                                    sprintf("SPD(3) n %d, eps %g", ne[1], ne[2]))
  rows[[length(rows) + 1L]] <- cell(P3le, function() sim_spd(ne[1], M = P3le), ne[2], 0.05, meth,
                                    sprintf("SPD(3) log-Euclidean n %d, eps %g", ne[1], ne[2]))
  rows[[length(rows) + 1L]] <- cell(H2, function() sim_h2(ne[1]), ne[2], 0.15, meth,
                                    sprintf("H^2 n %d, eps %g", ne[1], ne[2]))
  show(sprintf("4a. S^5, SPD(3), H^2 at n = %d (target: median <= 1.2 at n eps >= 200)", ne[1]), rows)
}

if (requireNamespace("shapes", quietly = TRUE)) {
  ap <- apes_setting()
  K8 <- ap$M; Dapes <- ap$D; tau <- ap$tau; priv <- ap$private
  apes_rows <- lapply(c(2, 5), function(eps) cell(K8, function() Dapes, eps, tau, c("default", "tangent", "energy"),
                                                 sprintf("apes (n %d private) eps %g", sum(priv), eps)))
  show("4b. Kendall shapes, shapes::apes against log centroid size (the same data, fresh noise per release)", apes_rows)
  e <- new.env()
  utils::data("rats", package = "shapes", envir = e)
  rd <- e$rats
  K <- kendall_shape(dim(rd$x)[1])
  Z <- as_preshape(rd$x)
  lrange <- log(c(7, 150))
  xr01 <- (log(rd$time) - lrange[1]) / diff(lrange)
  animals <- unique(rd$no)
  res <- replicate(reps, {
    pilots <- sample(animals, 6)
    pub <- rd$no %in% pilots
    ctr <- frechet_mean(K, Z[, , pub])$mean
    rad <- 1.2 * max(mfd_dist(K, ctr, Z[, , pub]))
    pf <- geodesic_regression(K, xr01[pub], Z[, , pub], x_range = c(0, 1))
    ratios(K, list(x = xr01[!pub], y = Z[, , !pub], center = ctr, radius = rad), 5, 1.2 * max(pf$residuals$norms),
           c("default", "tangent", "energy", "linearised"))
  })
  cat("\n== 4c. shapes::rats (log age; 6 public pilot animals, the rest private; epsilon 5): median energy ratio ==\n")
  print(round(apply(res, 1, stats::median), 3))
}

# ---- 5. Euclidean: DP linear regression ---------------------------------------------
# Peers on the same public bounds (y in [lo, hi], x in [0, 1], the same
# public domain |a| <= 2.5, |b| <= 5 for the post-processing):
#  * laplace_ssp: the standard Laplace sufficient-statistics perturbation
#    (Foulds et al. 2016; Wang 2018): centred sums (sum t, sum t^2, sum z,
#    sum t z), t = x - 1/2, z = clip(y) - 2, one Laplace scale = the L1
#    sensitivity of the vector over epsilon; the centred design floored at
#    its noise scale; the solution projected onto the public domain.
#  * laplace_ssp_split: the same with the budget split over the four sums to
#    minimise the expected excess energy (public, the same proxy as ours):
#    the strongest Laplace SSP we know.
#  * DPpack::LinearRegressionDP: objective perturbation (best gamma of a grid,
#    chosen on the truth: favourable to DPpack).
lo <- -0.5; hi <- 4.5
lap <- function(k, s) stats::rexp(k, 1 / s) * ifelse(stats::runif(k) < 0.5, -1, 1)
ssp <- function(x, y, eps, split = FALSE) {
  n <- length(x); t <- x - 0.5; c0 <- (lo + hi) / 2; r <- (hi - lo) / 2
  z <- pmin(pmax(y, lo), hi) - c0
  sens <- c(1, 0.25, 2 * r, r)   # sum t, sum t^2, sum z, sum t z
  e <- if (split) {
    w <- c(r^2, r^2 * 12 / 16, 4 * r^2, 12 * r^2)^(1 / 3)   # eps_i prop. to (loss weight x sens^2)^(1/3)
    eps * w / sum(w)
  } else eps * sens / sum(sens)                              # one scale sum(sens) / eps
  S <- c(sum(t), sum(t^2), sum(z), sum(t * z)) + lap(4, sens / e)
  St <- min(max(S[1], -n / 2), n / 2)
  Sttc <- max(min(S[2], n / 4) - St^2 / n, sens[2] / e[2])
  b <- (S[4] - St * S[3] / n) / Sttc
  a <- (S[3] - St * b) / n
  a <- max(min(a, r), -r); b <- max(min(b, 2 * r), -2 * r)
  c(a + c0 - 0.5 * b, b)
}
dppack_fit <- function(x, y, eps, gamma) {
  m <- DPpack::LinearRegressionDP$new("l2", eps, 0, gamma, function(coeff) coeff)
  m$fit(data.frame(X = x), y, c(1, hi), c(0, lo), add.bias = TRUE)
  as.numeric(m$coeff)
}
gammas <- c(1e-4, 1e-3, 1e-2, 0.1)
eu_reps <- if (quick) 20L else 300L     # ours and the Laplace SSPs (cheap)
dpp_reps <- if (quick) 2L else 50L      # DPpack (its fits are slow)
eu_rows <- list()
for (n in c(1e3, 1e4)) for (eps in if (quick) 1 else c(0.5, 1, 2)) {
  tr <- c(1, 2)
  res <- replicate(eu_reps, {
    x <- runif(n); y <- 1 + 2 * x + rnorm(n, sd = 0.5)
    rel <- dp_geodesic_regression(euclidean(1), x, y, epsilon = eps, center = 2, radius = 2.5, x_range = c(0, 1))
    ours <- c(rel$estimate$p - rel$estimate$x0 * rel$estimate$v, rel$estimate$v)
    c(ours = sum((ours - tr)^2), ssp = sum((ssp(x, y, eps) - tr)^2), ssp_split = sum((ssp(x, y, eps, TRUE) - tr)^2),
      ols = sum((coef(lm.fit(cbind(1, x), y)) - tr)^2))
  })
  dres <- replicate(dpp_reps, {
    x <- runif(n); y <- 1 + 2 * x + rnorm(n, sd = 0.5)
    if (have_dppack) vapply(gammas, function(g) sum((dppack_fit(x, y, eps, g) - tr)^2), numeric(1)) else rep(NA, length(gammas))
  })
  m <- rowMeans(res)
  dm <- rowMeans(matrix(dres, nrow = length(gammas)))
  dpp_best <- min(dm)
  eu_rows[[length(eu_rows) + 1L]] <- data.frame(
    n = n, epsilon = eps, ols = m[["ols"]], dpmanifold = m[["ours"]], DPpack = dpp_best,
    DPpack_gamma = if (have_dppack) gammas[which.min(dm)] else NA, laplace_ssp = m[["ssp"]], laplace_ssp_split = m[["ssp_split"]],
    ratio_DPpack = m[["ours"]] / dpp_best, ratio_ssp = m[["ours"]] / m[["ssp"]],
    ratio_ssp_split = m[["ours"]] / m[["ssp_split"]],
    se_ratio_split = sd(res["ours", ] - m[["ours"]] / m[["ssp_split"]] * res["ssp_split", ]) / sqrt(eu_reps) / m[["ssp_split"]])
}
cat(sprintf("\n== 5. DP linear regression: mean total squared error of (intercept, slope); %d data sets (DPpack: %d) ==\n",
            eu_reps, dpp_reps))
cat("   dpmanifold = the default (exact Gauss-Newton SSP rounds; tau not given); targets: ratio_DPpack <= 0.5 and ratio_ssp <= 1\n")
cat("   (se_ratio_split: standard error of ratio_ssp_split, delta method)\n")
print(do.call(rbind, eu_rows), digits = 3, row.names = FALSE)


# ---- 6. Speed --------------------------------------------------------------------------
speed_section(quick)
cat(sprintf("\nbench done in %.0f s\n", proc.time()[["elapsed"]] - t_start))
