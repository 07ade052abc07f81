# Shared by the regression benches (dp_regression_utility.R,
# dp_regression_centre.R, dp_regression_speed.R): the energy ratio of a
# release, the simulated settings, the table helpers and the speed
# section. Source it from a bench script's own directory; it puts
# DPM_BENCH_LIB first on the library path and loads dpmanifold. The script
# sets `reps` (data sets per row) before calling the helpers.

lib <- Sys.getenv("DPM_BENCH_LIB", file.path(tempdir(), "dpm-bench-lib"))
# (shapes loads rgl, which warns on a machine without a display unless it
# draws off screen)
if (!nzchar(Sys.getenv("RGL_USE_NULL"))) Sys.setenv(RGL_USE_NULL = "TRUE")
.libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(dpmanifold))

energy <- function(M, x01, Y, p, v) {
  dpmanifold:::cpp_regression_energy(M, x01 - 0.5, dpmanifold:::to_ambient(M, Y, "y"),
                                     as.numeric(dpmanifold:::to_ambient(M, p, "p")),
                                     as.numeric(dpmanifold:::to_ambient(M, v, "v")))
}
nonprivate_energy <- function(M, x01, Y) geodesic_regression(M, x01, Y, x_range = c(0, 1))$energy
# The rule that picked the default before this round (removed from the package).
previous_default <- function(M, n, eps, tau, r) {
  tau_e <- min(tau, 2 * r + r)
  d <- M$dim
  noise_ok <- (28 / 3) * (d + 1) / (0.65^2 * n * eps) <= 0.5
  w <- tau_e / sqrt(n * 0.2 * eps)
  L <- d * (log(max(r / w, 1)) + log(max(2 * r / (sqrt(12) * w), 1)))
  if (noise_ok && n * 0.2 * eps / 2 >= L + 5) "linearised" else "energy"
}
# Energy ratios of the given methods on one data set D (x in [0, 1]).
# Every method's release starts from the same seed (common random numbers:
# a paired comparison, and methods that run the same mechanism give the
# same release); the data stream continues as if no release had run.
# Also returned, as "law(tau)": the energy law's expected ratio at the
# user's tau, 1 + 2 d tau_e^2 / (n epsilon mean |z_i|^2) (z_i the
# non-private fit's residuals; the Laplace approximation of
# inst/proofs/regression-gauss-newton.md section 8): the core of the
# exponential mechanism on the clipped energy, without its plateau
# (dp_regression_energy_law.R measures the whole law). It reads the data
# (a reference for the bench, not a release) and draws nothing.
ratios <- function(M, D, eps, tau, methods) {
  fit <- geodesic_regression(M, D$x, D$y, x_range = c(0, 1))
  E0 <- fit$energy
  tau_e <- min(tau, 3 * D$radius)
  law <- 1 + 2 * M$dim * tau_e^2 / (length(D$x) * eps * mean(fit$residuals$norms^2))
  prev <- previous_default(M, length(D$x), eps, tau, D$radius)
  seed <- sample.int(.Machine$integer.max, 1L)
  state <- .Random.seed
  on.exit(assign(".Random.seed", state, envir = globalenv()))
  vapply(methods, function(m) {
    mm <- if (m == "previous") prev else if (m == "default") "gauss_newton" else m
    set.seed(seed)
    rel <- dp_geodesic_regression(M, D$x, D$y, epsilon = eps, tau = tau, center = D$center, radius = D$radius,
                                  x_range = c(0, 1), method = mm)
    energy(M, D$x, D$y, rel$estimate$p, rel$estimate$v) / E0
  }, numeric(1)) -> r
  c(r, "law(tau)" = law)
}
# One row: median and share above 3 of each method over `reps` data sets.
cell <- function(M, sim, eps, tau, methods, label, k = reps) {
  res <- replicate(k, ratios(M, sim(), eps, tau, methods))
  res <- matrix(res, nrow = length(methods) + 1L, dimnames = list(c(methods, "law(tau)"), NULL))
  out <- data.frame(setting = label, stringsAsFactors = FALSE, check.names = FALSE)
  for (m in methods) {
    out[[m]] <- round(stats::median(res[m, ]), 3)
    out[[paste0(m, ">3")]] <- round(mean(res[m, ] > 3), 2)
  }
  out[["law(tau)"]] <- round(stats::median(res["law(tau)", ]), 3)
  out
}
show <- function(title, rows) {
  cat("\n==", title, "==\n")
  print(do.call(rbind, rows), row.names = FALSE)
}

# The default's median energy ratio (and share above 3) on the same data
# sets (paired; each release draws its seed from the stream) under two
# versions of one of its public constant lists (`object`, e.g.
# ".gauss_newton"): a(g) and b(g) return the list each column runs with.
paired_constants <- function(M, sim, eps, tau, label, object, a, b, cols, seed = 20261127) {
  base <- get(object, envir = asNamespace("dpmanifold"))
  with_constants <- function(edit, expr) {
    assignInNamespace(object, edit(base), "dpmanifold")
    on.exit(assignInNamespace(object, base, "dpmanifold"))
    expr
  }
  set.seed(seed)
  res <- replicate(reps, {
    D <- sim()
    c(with_constants(a, ratios(M, D, eps, tau, "default")[["default"]]),
      with_constants(b, ratios(M, D, eps, tau, "default")[["default"]]))
  })
  out <- data.frame(setting = label, stringsAsFactors = FALSE, check.names = FALSE)
  for (k in 1:2) {
    out[[cols[k]]] <- round(stats::median(res[k, ]), 3)
    out[[paste0(cols[k], ">3")]] <- round(mean(res[k, ] > 3), 2)
  }
  out
}

S2 <- sphere(2)
sim_sphere <- function(n, len = 0.6, delta = 0.001, xmax = 1, radius = len / 2 + 0.1, M = S2) {
  D <- M$ambient_dim
  q0 <- mfd_random_point(M, 1)
  z <- mfd_random_tangent(M, q0, 1)
  z <- len * z / sqrt(sum(z^2))
  x <- runif(n, 0, xmax)
  G <- mfd_exp(M, q0, outer(x - 0.5, z))
  Y <- G + matrix(rnorm(D * n, sd = sqrt(delta)), n)
  list(x = x, y = Y / sqrt(rowSums(Y^2)), center = as.numeric(q0), radius = radius)
}

P2 <- spd(2)
sim_spd <- function(n, noise = 0.01, M = P2) {
  k <- M$ambient_dim
  m <- round(sqrt(k))
  repeat {
    p <- stats::rWishart(1, m, diag(m))[, , 1] / 2
    qq <- stats::rWishart(1, m, diag(m))[, , 1] / 2
    v <- mfd_log(M, p, qq)
    L <- mfd_norm(M, p, v)
    if (L < 3) break
  }
  x <- runif(n)
  clean <- mfd_exp(M, p, array(outer(as.vector(v), x), c(m, m, n)))
  y <- mfd_exp(M, clean, noise * mfd_random_tangent(M, clean, n))
  list(x = x, y = y, center = mfd_exp(M, p, v / 2), radius = L / 2 + 0.2)
}

# shapes::apes: 167 great-ape skulls, 8 landmarks; covariate log centroid
# size, public range from the species' published size range (here: the
# range rounded outwards); public ball: the Frechet mean of a public
# half-sample (the gorillas, a different group), radius 1.2 x the largest
# distance of any skull from it (a bench shortcut for a radius a user takes
# from published ranges); tau 1.2 x the gorillas' largest residual. The
# other apes are the private records.
apes_setting <- function() {
  e <- new.env()
  utils::data("apes", package = "shapes", envir = e)
  A <- as_preshape(e$apes$x)
  K8 <- kendall_shape(dim(e$apes$x)[1])
  lcs <- log(apply(e$apes$x, 3, function(z) sqrt(sum(sweep(z, 2, colMeans(z))^2))))
  xr <- c(floor(min(lcs) * 10), ceiling(max(lcs) * 10)) / 10
  x01 <- (lcs - xr[1]) / diff(xr)
  pub <- e$apes$group %in% c("gorf", "gorm")
  ctr <- frechet_mean(K8, A[, , pub])$mean
  pf <- geodesic_regression(K8, x01[pub], A[, , pub], x_range = c(0, 1))
  list(M = K8, D = list(x = x01[!pub], y = A[, , !pub], center = ctr, radius = 1.2 * max(mfd_dist(K8, ctr, A))),
       tau = 1.2 * max(pf$residuals$norms), private = !pub)
}

S5 <- sphere(5)
P3 <- spd(3)
P3le <- spd(3, metric = "log_euclidean")
H2 <- hyperbolic(2)
sim_h2 <- function(n) {
  p <- mfd_exp(H2, c(1, 0, 0), mfd_random_tangent(H2, c(1, 0, 0), 1) * 0.3)
  v <- mfd_random_tangent(H2, p, 1)
  v <- 0.8 * v / mfd_norm(H2, p, v)
  x <- runif(n)
  clean <- mfd_exp(H2, p, outer(x - 0.5, as.numeric(v)))
  list(x = x, y = mfd_exp(H2, clean, 0.05 * mfd_random_tangent(H2, clean, n)), center = as.numeric(p), radius = 0.6)
}

# One data set of n private records from sim(n + pilot); the last `pilot`
# records are public and give the second centre.
with_pilot <- function(M, D, n, pilot = 20L) {
  keep <- seq_len(n)
  pub <- n + seq_len(pilot)
  # (points in rows, or SPD matrices along the third index)
  pick <- function(idx) if (length(dim(D$y)) == 2L) D$y[idx, , drop = FALSE] else D$y[, , idx, drop = FALSE]
  list(truth = list(x = D$x[keep], y = pick(keep), center = D$center, radius = D$radius),
       pilot = list(x = D$x[keep], y = pick(keep), center = frechet_mean(M, pick(pub))$mean, radius = D$radius))
}

# Section 6 of the main bench, also run alone by dp_regression_speed.R (a
# machine running nothing else gives the figures the README quotes): one
# default release on S^2 at n = 10^4..10^6 against one mfd_log() pass over
# the responses, in the same run; SPD(3) at n = 1000.
speed_section <- function(quick = FALSE) {
  cat("\n== 6. Speed of one default release (elapsed seconds, median of 3) against one mfd_log() pass ==\n")
  med_time <- function(f, k = 3) stats::median(replicate(k, system.time(f())[["elapsed"]]))
  for (n in if (quick) c(1e4, 1e5) else c(1e4, 1e5, 1e6)) {
    D <- sim_sphere(n)
    tl <- med_time(function() mfd_log(S2, D$center, D$y))
    tr <- med_time(function() dp_geodesic_regression(S2, D$x, D$y, epsilon = 1, tau = 0.15, center = D$center,
                                                     radius = D$radius, x_range = c(0, 1)))
    te <- if (n <= 1e4) med_time(function() dp_geodesic_regression(S2, D$x, D$y, epsilon = 1, tau = 0.15, center = D$center,
                                                                    radius = D$radius, x_range = c(0, 1), method = "energy"), 1) else NA
    cat(sprintf("   S^2 n = %7d: default %.3f s, one log pass %.3f s, ratio %.1f (target < 15); energy chain %s\n",
                as.integer(n), tr, tl, tr / tl, if (is.na(te)) "not run" else sprintf("%.2f s", te)))
  }
  D <- sim_spd(1000, M = P3)
  cat(sprintf("   SPD(3) n = 1000: default %.3f s (target < 1 s)\n",
              med_time(function() dp_geodesic_regression(P3, D$x, D$y, epsilon = 1, tau = 0.05, center = D$center,
                                                        radius = D$radius, x_range = c(0, 1)))))
}
