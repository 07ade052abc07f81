# DP geodesic regression across the privacy budget and tau, with a centre a
# user could have.
#
#   Rscript bench/dp_regression_sweep.R                        # full run
#   DPM_BENCH_QUICK=true Rscript bench/dp_regression_sweep.R   # smoke run
#
# The main bench reads each setting at one epsilon and one tau. A default
# must not break off them: more budget must not cost accuracy, and a tau a
# little tight or loose must not cost orders of magnitude. For each setting
# the same data sets (public centre: the Frechet mean of a public pilot of
# 20 further records, as in dp_regression_centre.R) are released at every
# epsilon by the default and by method = "tangent", beside the release a
# user has for free (the public centre, v = 0). Median energy ratio over
# `reps` data sets (share above 3). To read an earlier commit beside this
# one, install it into another library and run this script with
# DPM_BENCH_LIB pointing there (the data and seeds are the same). Prints
# what it measures; asserts nothing.

# (the helpers set the library path and load dpmanifold)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", c(commandArgs(FALSE), "--file=bench/x"), value = TRUE)[1])), "regression-bench-utils.R"))
quick <- identical(Sys.getenv("DPM_BENCH_QUICK"), "true")
reps <- if (quick) 3L else 20L
set.seed(20261127)
t_start <- proc.time()[["elapsed"]]

# `reps` data sets with their pilot centres and non-private energies.
data_sets <- function(M, sim, n) {
  lapply(seq_len(reps), function(i) {
    D <- with_pilot(M, sim(n + 20L), n)$pilot
    D$E0 <- nonprivate_energy(M, D$x, D$y)
    D
  })
}
# Median energy ratio (share above 3) of one method over the data sets,
# every data set's release from its own fixed seed.
med <- function(M, DS, eps, tau, method) {
  r <- vapply(seq_along(DS), function(i) {
    D <- DS[[i]]
    set.seed(1000L + i)
    rel <- dp_geodesic_regression(M, D$x, D$y, epsilon = eps, tau = tau, center = D$center, radius = D$radius,
                                  x_range = c(0, 1), method = method)
    energy(M, D$x, D$y, rel$estimate$p, rel$estimate$v) / D$E0
  }, numeric(1))
  sprintf("%.3f (%.2f)", stats::median(r), mean(r > 3))
}
free <- function(M, DS) {
  stats::median(vapply(DS, function(D) energy(M, D$x, D$y, D$center, mfd_log(M, D$center, D$center)) / D$E0, 1))
}
sweep_eps <- function(M, sim, n, tau, label, epss) {
  DS <- data_sets(M, sim, n)
  rows <- lapply(epss, function(e) data.frame(setting = label, epsilon = e, "n epsilon" = n * e,
                                              default = med(M, DS, e, tau, "gauss_newton"),
                                              tangent = med(M, DS, e, tau, "tangent"), check.names = FALSE))
  show(sprintf("%s, tau %g: across epsilon (the public centre, v = 0: %.0f)", label, tau, free(M, DS)), rows)
  invisible(DS)
}
sweep_tau <- function(M, DS, eps, taus, label) {
  rows <- lapply(taus, function(tau) data.frame(setting = label, epsilon = eps, tau = tau,
                                                default = med(M, DS, eps, tau, "gauss_newton"), check.names = FALSE))
  show(sprintf("%s: across tau", label), rows)
}

epss <- if (quick) c(1, 1.5) else c(0.7, 0.8, 0.9, 1, 1.2, 1.5, 2, 3)
D3 <- sweep_eps(P3, function(n) sim_spd(n, M = P3), 200, 0.05, "SPD(3) n 200", epss)
sweep_tau(P3, D3, 1, if (quick) c(0.05, 0.1) else c(0.025, 0.05, 0.1, 0.2), "SPD(3) n 200")
if (!quick) {
  sweep_eps(P3le, function(n) sim_spd(n, M = P3le), 200, 0.05, "SPD(3) log-Euclidean n 200", epss)
  sweep_eps(P2, function(n) sim_spd(n), 100, 0.05, "SPD(2) n 100", epss)
  sweep_eps(S5, function(n) sim_sphere(n, M = S5), 200, 0.15, "S^5 n 200", epss)
}
cat(sprintf("\n(%.0f s)\n", proc.time()[["elapsed"]] - t_start))
