# The default's net over pairs of coordinates against its net per
# coordinate (inst/proofs/regression-gauss-newton.md sections 3b and 8),
# paired: the same data sets and noise seeds, the package's constants with
# `net_pairs` on (the default) and off. Rows:
#   - S^5, n 200, epsilon 1, the bench's centre (the true midpoint);
#   - the same with the centre the Frechet mean of a public pilot of 20
#     records (as bench/dp_regression_centre.R), where the lattice rounds;
#   - pairs forced (net_pair_spacing 100) where the rule keeps the net per
#     coordinate, because the pairs' lattice would be coarse: SPD(3),
#     n 200, and SPD(2), n 100 (epsilon 1).
#
#   Rscript bench/dp_regression_net_pairs.R                       # about 70 s
#   DPM_BENCH_QUICK=true Rscript bench/dp_regression_net_pairs.R  # smoke run
#
# Median energy ratio and the share above 3. Prints what it measures;
# asserts nothing.

source(file.path(dirname(sub("^--file=", "", grep("^--file=", c(commandArgs(FALSE), "--file=bench/x"), value = TRUE)[1])), "regression-bench-utils.R"))
quick <- identical(Sys.getenv("DPM_BENCH_QUICK"), "true")
reps <- if (quick) 3L else 40L
t_start <- proc.time()[["elapsed"]]
per_coordinate <- function(g) {
  g$net_pairs <- FALSE
  g
}
default <- function(g) g
forced <- function(g) {
  g$net_pair_spacing <- 100
  g
}
cols <- c("per coordinate", "pairs")
rows <- list(paired_constants(S5, function() sim_sphere(200, M = S5), 1, 0.15, "S^5 n 200, eps 1, true midpoint",
                              ".gauss_newton", per_coordinate, default, cols))
# The pilot centre: the same comparison, with the centre a public pilot's mean.
pilot_sim <- function() with_pilot(S5, sim_sphere(220, M = S5), 200)$pilot
rows[[2]] <- paired_constants(S5, pilot_sim, 1, 0.15, "S^5 n 200, eps 1, pilot centre", ".gauss_newton",
                              per_coordinate, default, cols)
if (!quick) {
  reps <- 20L
  rows[[3]] <- paired_constants(P3, function() sim_spd(200, M = P3), 1, 0.05, "SPD(3) n 200, eps 1 (pairs forced)",
                                ".gauss_newton", per_coordinate, forced, cols)
  rows[[4]] <- paired_constants(P2, function() sim_spd(100), 1, 0.05, "SPD(2) n 100, eps 1 (pairs forced)",
                                ".gauss_newton", per_coordinate, forced, cols)
}
show("The net over pairs of coordinates against the net per coordinate (paired)", rows)
cat(sprintf("\n(%.0f s)\n", proc.time()[["elapsed"]] - t_start))
