# DP geodesic regression where the default's release is the draw of a net
# per coordinate (manifolds of dimension 3 and more at moderate n epsilon;
# inst/proofs/regression-gauss-newton.md section 3b): how its error grows
# with a loose tau, and the ladder of clips (.gauss_newton$net_levels = 3)
# that the default does not use.
#
#   Rscript bench/dp_regression_net_clips.R                       # 60 data sets a cell
#   DPM_BENCH_QUICK=true Rscript bench/dp_regression_net_clips.R  # smoke run
#
# tau from 0.5x to 4x the main bench's (0.15 on S^5, 0.05 on SPD), the
# same data sets and release seeds for both columns (paired); median
# energy ratio and the share above 3. Prints what it measures; asserts
# nothing.

source(file.path(dirname(sub("^--file=", "", grep("^--file=", c(commandArgs(FALSE), "--file=bench/x"), value = TRUE)[1])), "regression-bench-utils.R"))
quick <- identical(Sys.getenv("DPM_BENCH_QUICK"), "true")
reps <- if (quick) 4L else 60L
t_start <- proc.time()[["elapsed"]]
paired <- function(M, sim, eps, tau, label) {
  paired_constants(M, sim, eps, tau, label, ".gauss_newton", function(g) replace(g, "net_levels", 2L),
                   function(g) replace(g, "net_levels", 3L), c("default", "ladder"))
}
rows <- list()
for (tm in if (quick) c(1, 4) else c(0.5, 1, 2, 4)) {
  rows[[length(rows) + 1L]] <- paired(S5, function() sim_sphere(200, M = S5), 1, 0.15 * tm, sprintf("S^5 n 200, eps 1, tau x%g", tm))
  rows[[length(rows) + 1L]] <- paired(P3, function() sim_spd(200, M = P3), 1, 0.05 * tm, sprintf("SPD(3) n 200, eps 1, tau x%g", tm))
  rows[[length(rows) + 1L]] <- paired(P3le, function() sim_spd(200, M = P3le), 1, 0.05 * tm,
                                      sprintf("SPD(3) log-Euclidean n 200, eps 1, tau x%g", tm))
  rows[[length(rows) + 1L]] <- paired(P2, function() sim_spd(100), 1, 0.05 * tm, sprintf("SPD(2) n 100, eps 1, tau x%g", tm))
}
show(sprintf("A loose tau on the net per coordinate: the default against the ladder of clips (%d data sets, paired)", reps), rows)
cat(sprintf("\n(%.0f s)\n", proc.time()[["elapsed"]] - t_start))
