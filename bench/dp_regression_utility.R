# DP geodesic regression: the utility targets of issue 10, side by side, in
# one run.
#
#   Rscript bench/dp_regression_utility.R            # full run (~15 min)
#   DPM_BENCH_QUICK=true Rscript bench/dp_regression_utility.R   # smoke run
#
# Tables (medians over `reps` data sets unless said otherwise):
#  1. S^2, the setting of Kulkarni and Soto (section 4.1) as in the issue:
#     geodesic of length 0.6 from a random start, x ~ U[0, 1], noise
#     N(0, 0.001 I_3) normalised back, tau = 0.15, public ball of radius 0.4
#     around the geodesic's midpoint. Energy ratio = E(private) / E(non-
#     private fit) on the same data, for the joint release (default chain),
#     the joint release with chains 20 times longer (the law the default
#     chain should reproduce), method = "tangent", method = "energy"
#     (exponential mechanism on the clipped energy; default chain and 20x)
#     and method = "linearised" (energy law at 20% of epsilon, then the
#     split SSP of the linearised residuals; default chain and 20x); `default` names the
#     method the public rule of method = "auto" picks.
#  2. SPD(2), Kulkarni and Soto appendix F: p, q ~ Wishart(I, 2) / 2,
#     v = Log(p, q), x ~ U[0, 1], y = Exp(y_clean, xi), xi ~ N(0, 0.01^2 I)
#     in the tangent space; tau = 0.05; public ball of radius |v|/2 + 0.2
#     around the midpoint.
#  3. Kendall shapes: shapes::rats (8 landmarks, log age). For each of
#     `reps` random choices of 6 public pilot animals: centre = Frechet mean
#     of the pilots' shapes, radius = 1.2 x their largest distance from it,
#     tau = 1.2 x the largest residual of the pilots' own fit; the other
#     animals are private; epsilon = 5 per record.
#  4. Euclidean (DP linear regression): y = 1 + 2x + N(0, 0.5^2),
#     x ~ U[0, 1], public y bounds [-0.5, 4.5] (centre 2, radius 2.5) and
#     x range [0, 1] for every method. Mean over data sets of the total
#     squared error of (intercept, slope) against the truth (1, 2):
#     dp_geodesic_regression(euclidean(1)) (exact SSP), DPpack::LinearRegressionDP
#     (objective perturbation, pure epsilon; l2 regulariser, best gamma of a
#     grid, chosen on the truth: favourable to DPpack) and Laplace
#     sufficient-statistics perturbation (centred sums of x, x^2, y, x y,
#     Laplace noise with their L1 sensitivity; standard single scale, and
#     the budget split optimally over the sums). DPpack is not a dependency
#     of dpmanifold: it is installed into a temporary library ($DPM_BENCH_LIB
#     or a temporary directory) when missing.
#  5. Time of one release at n = 1000 on S^2 (default settings).
#
# Prints what it measures; asserts nothing.

# DPpack first: its dependencies may be newer than the site library's.
lib <- Sys.getenv("DPM_BENCH_LIB", file.path(tempdir(), "dpm-bench-lib"))
dir.create(lib, showWarnings = FALSE, recursive = TRUE)
.libPaths(c(lib, .libPaths()))
have_dppack <- requireNamespace("DPpack", quietly = TRUE)
if (!have_dppack) {
  message("installing DPpack into ", lib, " (not a dependency of dpmanifold)")
  try(utils::install.packages("DPpack", lib = lib, repos = c(CRAN = "https://cloud.r-project.org"), quiet = TRUE))
  have_dppack <- requireNamespace("DPpack", quietly = TRUE)
}
if (have_dppack) suppressPackageStartupMessages(library(DPpack))
suppressPackageStartupMessages(library(dpmanifold))
quick <- identical(Sys.getenv("DPM_BENCH_QUICK"), "true")
reps <- if (quick) 3L else 20L
set.seed(20240610)
q <- function(e) withCallingHandlers(e, dpmanifold_privacy_leak = function(w) invokeRestart("muffleWarning"))
t_start <- proc.time()[["elapsed"]]

energy <- function(M, x01, Y, p, v) {
  # the package's energy with the centred covariate (p at mid-range, v over the range)
  dpmanifold:::cpp_regression_energy(M, x01 - 0.5, dpmanifold:::to_ambient(M, Y, "y"),
                                     as.numeric(dpmanifold:::to_ambient(M, p, "p")),
                                     as.numeric(dpmanifold:::to_ambient(M, v, "v")))
}
# energy ratio of a release (v per unit of x; the covariate range is [0, 1])
release_ratio <- function(rel, M, x01, Y, E0) energy(M, x01, Y, rel$estimate$p, rel$estimate$v) / E0
nonprivate_energy <- function(M, x01, Y) {
  f <- geodesic_regression(M, x01, Y, x_range = c(0, 1))
  f$energy
}

# ---- 1. S^2 ------------------------------------------------------------------
S2 <- sphere(2)
sim_sphere <- function(n, len = 0.6, delta = 0.001) {
  q0 <- mfd_random_point(S2, 1)
  z <- mfd_random_tangent(S2, q0, 1)
  z <- len * z / sqrt(sum(z^2))
  x <- runif(n)
  G <- mfd_exp(S2, q0, outer(x, z))
  Y <- G + matrix(rnorm(3 * n, sd = sqrt(delta)), n)
  list(x = x, y = Y / sqrt(rowSums(Y^2)), center = as.numeric(mfd_exp(S2, q0, z / 2)))
}
s2_settings <- if (quick) list(c(100, 1), c(1000, 0.5)) else
  list(c(50, 1), c(100, 1), c(100, 2), c(200, 1), c(200, 2), c(500, 1), c(1000, 0.5), c(1000, 1))
long_for <- function(n) n <= 200   # 20x chains where they matter (and are affordable)
s2_rows <- list()
for (ne in s2_settings) {
  n <- ne[1]; eps <- ne[2]
  res <- replicate(reps, {
    D <- sim_sphere(n)
    E0 <- nonprivate_energy(S2, D$x, D$y)
    base <- list(S2, D$x, D$y, epsilon = eps, tau = 0.15, center = D$center, radius = 0.4, x_range = c(0, 1))
    j <- do.call(dp_geodesic_regression, c(base, list(method = "joint")))
    jl <- if (long_for(n) && !quick) do.call(dp_geodesic_regression, c(base, list(method = "joint", sampler = "mcmc",
             mcmc = mcmc_control(burnin = 20 * 600, steps = 20 * 600)))) else NULL
    tg <- do.call(dp_geodesic_regression, c(base, list(method = "tangent")))
    en <- do.call(dp_geodesic_regression, c(base, list(method = "energy")))
    enl <- if (long_for(n) && !quick) do.call(dp_geodesic_regression, c(base, list(method = "energy",
             mcmc = mcmc_control(burnin = 20 * 600, steps = 20 * 600)))) else NULL
    li <- do.call(dp_geodesic_regression, c(base, list(method = "linearised")))
    lil <- if (long_for(n) && !quick) do.call(dp_geodesic_regression, c(base, list(method = "linearised",
             mcmc = mcmc_control(burnin = 20 * 600, steps = 20 * 600)))) else NULL
    c(joint = release_ratio(j, S2, D$x, D$y, E0),
      joint_20x = if (is.null(jl)) NA else release_ratio(jl, S2, D$x, D$y, E0),
      linearised = release_ratio(li, S2, D$x, D$y, E0),
      linearised_20x = if (is.null(lil)) NA else release_ratio(lil, S2, D$x, D$y, E0),
      tangent = release_ratio(tg, S2, D$x, D$y, E0),
      energy = release_ratio(en, S2, D$x, D$y, E0),
      energy_20x = if (is.null(enl)) NA else release_ratio(enl, S2, D$x, D$y, E0),
      exact = j$sampler$kind == "exact")
  })
  s2_rows[[length(s2_rows) + 1L]] <- data.frame(
    n = n, epsilon = eps, nonprivate = 1, joint = median(res["joint", ]),
    joint_20x_chain = median(res["joint_20x", ]), tangent = median(res["tangent", ]),
    energy = median(res["energy", ]), energy_20x_chain = median(res["energy_20x", ]),
    linearised = median(res["linearised", ]), linearised_20x_chain = median(res["linearised_20x", ]),
    default = dpmanifold:::auto_method(S2, n, eps, 0.15, 0.4, 0.8),
    default_ratio = median(res[if (dpmanifold:::auto_method(S2, n, eps, 0.15, 0.4, 0.8) == "energy") "energy" else "linearised", ]),
    joint_exact_share = mean(res["exact", ]))
}
cat("\n== 1. S^2 (Kulkarni and Soto 4.1; tau = 0.15, radius 0.4): median energy ratio over", reps, "data sets ==\n")
cat("   targets: <= 1.5 at (100, 1); <= 1.1 at (200, 1) and (1000, 0.5)\n")
print(do.call(rbind, s2_rows), digits = 3, row.names = FALSE)

# ---- 1b. the default at the two borderline targets, 100 data sets -------------------
# A median over 20 data sets has a standard error of about 0.05-0.1 here;
# the default alone is cheap enough for 100 (bootstrap standard error shown).
big <- if (quick) 10L else 100L
cat("\n== 1b. S^2, the default method only, median energy ratio over", big, "data sets ==\n")
for (ne in list(c(100, 1), c(200, 1))) {
  r <- replicate(big, {
    D <- sim_sphere(ne[1])
    E0 <- nonprivate_energy(S2, D$x, D$y)
    rel <- dp_geodesic_regression(S2, D$x, D$y, epsilon = ne[2], tau = 0.15, center = D$center, radius = 0.4,
                                  x_range = c(0, 1))
    release_ratio(rel, S2, D$x, D$y, E0)
  })
  se <- sd(replicate(2000, median(sample(r, replace = TRUE))))
  cat(sprintf("   (n, epsilon) = (%d, %g): default %s, median %.3f (bootstrap se %.3f), quartiles %.3f-%.3f\n",
              ne[1], ne[2], dpmanifold:::auto_method(S2, ne[1], ne[2], 0.15, 0.4, 0.8), median(r), se,
              quantile(r, 0.25), quantile(r, 0.75)))
}

# ---- 2. SPD(2) ------------------------------------------------------------------
P <- spd(2)
sim_spd <- function(n, noise = 0.01) {
  repeat {
    p <- stats::rWishart(1, 2, diag(2))[, , 1] / 2
    qq <- stats::rWishart(1, 2, diag(2))[, , 1] / 2
    v <- mfd_log(P, p, qq)
    L <- mfd_norm(P, p, v)
    if (L < 3) break   # the appendix's random pairs, kept representable for the public ball
  }
  x <- runif(n)
  clean <- mfd_exp(P, p, array(outer(as.vector(v), x), c(2, 2, n)))
  y <- mfd_exp(P, clean, noise * mfd_random_tangent(P, clean, n))
  list(x = x, y = y, center = mfd_exp(P, p, v / 2), radius = L / 2 + 0.2)
}
spd_settings <- if (quick) list(c(500, 1)) else list(c(100, 1), c(200, 1), c(500, 1), c(500, 2), c(1000, 1))
spd_rows <- list()
for (ne in spd_settings) {
  n <- ne[1]; eps <- ne[2]
  res <- replicate(reps, {
    D <- sim_spd(n)
    E0 <- nonprivate_energy(P, D$x, D$y)
    base <- list(P, D$x, D$y, epsilon = eps, tau = 0.05, center = D$center, radius = D$radius, x_range = c(0, 1))
    j <- do.call(dp_geodesic_regression, c(base, list(method = "joint")))
    tg <- do.call(dp_geodesic_regression, c(base, list(method = "tangent")))
    en <- do.call(dp_geodesic_regression, c(base, list(method = "energy")))
    enl <- if (quick || n > 100) NULL else do.call(dp_geodesic_regression, c(base, list(method = "energy",
             mcmc = mcmc_control(burnin = 20 * 900, steps = 20 * 900))))   # 20x chains where affordable
    li <- do.call(dp_geodesic_regression, c(base, list(method = "linearised")))
    c(joint = release_ratio(j, P, D$x, D$y, E0), tangent = release_ratio(tg, P, D$x, D$y, E0),
      linearised = release_ratio(li, P, D$x, D$y, E0),
      auto_lin = dpmanifold:::auto_method(P, n, eps, 0.05, D$radius, 2 * D$radius) == "linearised",
      energy = release_ratio(en, P, D$x, D$y, E0),
      energy_20x = if (is.null(enl)) NA else release_ratio(enl, P, D$x, D$y, E0))
  })
  spd_rows[[length(spd_rows) + 1L]] <- data.frame(n = n, epsilon = eps, nonprivate = 1,
                                                  joint = median(res["joint", ]), tangent = median(res["tangent", ]),
                                                  energy = median(res["energy", ]),
                                                  energy_20x_chain = median(res["energy_20x", ]),
                                                  linearised = median(res["linearised", ]),
                                                  default = median(ifelse(res["auto_lin", ] == 1, res["linearised", ], res["energy", ])),
                                                  default_share_linearised = mean(res["auto_lin", ]))
}
cat("\n== 2. SPD(2) (appendix F; tau = 0.05): median energy ratio over", reps, "data sets ==\n")
cat("   target: <= 2 at (500, 1)\n")
print(do.call(rbind, spd_rows), digits = 3, row.names = FALSE)

# ---- 3. Kendall: shapes::rats ------------------------------------------------------
if (requireNamespace("shapes", quietly = TRUE)) {
  e <- new.env()
  utils::data("rats", package = "shapes", envir = e)
  rd <- e$rats
  K <- kendall_shape(dim(rd$x)[1])
  Z <- as_preshape(rd$x)
  lrange <- log(c(7, 150))
  x01 <- (log(rd$time) - lrange[1]) / diff(lrange)
  animals <- unique(rd$no)
  res <- replicate(reps, {
    pilots <- sample(animals, 6)
    pub <- rd$no %in% pilots
    ctr <- frechet_mean(K, Z[, , pub])$mean
    rad <- 1.2 * max(mfd_dist(K, ctr, Z[, , pub]))
    pf <- geodesic_regression(K, x01[pub], Z[, , pub], x_range = c(0, 1))
    tau <- 1.2 * max(pf$residuals$norms)
    priv <- !pub
    E0 <- nonprivate_energy(K, x01[priv], Z[, , priv])
    base <- list(K, x01[priv], Z[, , priv], epsilon = 5, tau = tau, center = ctr, radius = rad, x_range = c(0, 1))
    j <- do.call(dp_geodesic_regression, c(base, list(method = "joint")))
    tg <- do.call(dp_geodesic_regression, c(base, list(method = "tangent")))
    en <- do.call(dp_geodesic_regression, c(base, list(method = "energy")))
    li <- do.call(dp_geodesic_regression, c(base, list(method = "linearised")))
    c(joint = release_ratio(j, K, x01[priv], Z[, , priv], E0), linearised = release_ratio(li, K, x01[priv], Z[, , priv], E0),
      tangent = release_ratio(tg, K, x01[priv], Z[, , priv], E0),
      energy = release_ratio(en, K, x01[priv], Z[, , priv], E0), n = sum(priv), radius = rad, tau = tau)
  })
  cat("\n== 3. Kendall shapes, shapes::rats (log age; 6 public pilot animals, the rest private; epsilon = 5 per record):\n")
  cat(sprintf("   median over %d pilot choices: n = %d, radius %.3f, tau %.3f; energy ratio joint %.3f, tangent %.3f, energy %.3f, linearised %.3f (target <= 1.5; default: %s)\n",
              reps, as.integer(res["n", 1]), median(res["radius", ]), median(res["tau", ]),
              median(res["joint", ]), median(res["tangent", ]), median(res["energy", ]), median(res["linearised", ]),
              dpmanifold:::auto_method(K, as.integer(res["n", 1]), 5, median(res["tau", ]), median(res["radius", ]),
                                       2 * median(res["radius", ]))))
} else {
  cat("\n== 3. Kendall shapes: skipped (package shapes not installed)\n")
}

# ---- 4. Euclidean: DP linear regression ---------------------------------------------
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
eu_reps <- if (quick) 20L else 1000L     # ours and the Laplace SSPs (cheap)
dpp_reps <- if (quick) 5L else 100L      # DPpack (its fits are slow)
eu_rows <- list()
for (n in c(1e3, 1e4)) for (eps in c(0.5, 1, 2)) {
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
    DPpack_gamma = gammas[which.min(dm)], laplace_ssp = m[["ssp"]], laplace_ssp_split = m[["ssp_split"]],
    ratio_DPpack = m[["ours"]] / dpp_best, ratio_ssp = m[["ours"]] / m[["ssp"]],
    ratio_ssp_split = m[["ours"]] / m[["ssp_split"]],
    se_ratio_split = sd(res["ours", ] - m[["ours"]] / m[["ssp_split"]] * res["ssp_split", ]) / sqrt(eu_reps) / m[["ssp_split"]])
}
cat(sprintf("\n== 4. DP linear regression: mean total squared error of (intercept, slope); %d data sets (DPpack: %d) ==\n",
            eu_reps, dpp_reps))
cat("   dpmanifold = exact SSP (hull K-norm moments + Laplace design); targets: ratio_DPpack <= 0.5 and ratio_ssp <= 1\n")
cat("   (se_ratio_split: standard error of ratio_ssp_split, delta method)\n")
print(do.call(rbind, eu_rows), digits = 3, row.names = FALSE)

# ---- 5. Time of one release at n = 1000 on S^2 ------------------------------------
D <- sim_sphere(1000)
times <- replicate(if (quick) 2 else 7, {
  t0 <- proc.time()
  dp_geodesic_regression(S2, D$x, D$y, epsilon = 1, tau = 0.15, center = D$center, radius = 0.4, x_range = c(0, 1),
                         method = "joint")
  el <- proc.time() - t0
  c(elapsed = el[["elapsed"]], cpu = el[["user.self"]] + el[["sys.self"]])
})
cat(sprintf("\n== 5. One release at n = 1000 on S^2 (epsilon = 1, default chain): method = \"joint\": median %.2f s elapsed, %.2f s CPU (target < 1 s)\n",
            median(times["elapsed", ]), median(times["cpu", ])))
times <- replicate(if (quick) 2 else 7, {
  t0 <- proc.time()
  dp_geodesic_regression(S2, D$x, D$y, epsilon = 1, tau = 0.15, center = D$center, radius = 0.4, x_range = c(0, 1),
                         method = "energy")
  el <- proc.time() - t0
  c(elapsed = el[["elapsed"]], cpu = el[["user.self"]] + el[["sys.self"]])
})
cat(sprintf("   method = \"energy\": median %.2f s elapsed, %.2f s CPU\n", median(times["elapsed", ]), median(times["cpu", ])))
times <- replicate(if (quick) 2 else 7, {
  t0 <- proc.time()
  dp_geodesic_regression(S2, D$x, D$y, epsilon = 1, tau = 0.15, center = D$center, radius = 0.4, x_range = c(0, 1))
  el <- proc.time() - t0
  c(elapsed = el[["elapsed"]], cpu = el[["user.self"]] + el[["sys.self"]])
})
cat(sprintf("   the default (method = \"auto\" -> \"%s\"): median %.2f s elapsed, %.2f s CPU\n",
            dpmanifold:::auto_method(S2, 1000, 1, 0.15, 0.4, 0.8), median(times["elapsed", ]), median(times["cpu", ])))
cat(sprintf("\nbench done in %.0f s\n", proc.time()[["elapsed"]] - t_start))
