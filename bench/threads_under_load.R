# One default private regression release on S^2 on one thread and on two,
# on an idle machine and beside busy-loop processes: the figures behind the
# batch.hpp constants kParallelMinWork (small rounds stay on the calling
# thread) and kRoundWork (rounds of ~50 ms, few barriers). Each setting runs
# in a fresh Rscript, so the busy loops start and stop around it.
#
#   Rscript bench/threads_under_load.R          # hogs 0 and 1
#   BENCH_HOGS="0 1 2" Rscript bench/threads_under_load.R
#
# Prints seconds per release; asserts nothing. Compare a build of the
# previous batch.hpp with DPM_BENCH_LIB pointing at it, in the same session.

lib <- Sys.getenv("DPM_BENCH_LIB", "")
hogs_list <- as.integer(strsplit(Sys.getenv("BENCH_HOGS", "0 1"), " ")[[1]])
one <- function(n, reps, threads) {
  code <- sprintf('
    if (nzchar("%s")) .libPaths(c("%s", .libPaths()))
    suppressPackageStartupMessages(library(dpmanifold))
    set.seed(1); S2 <- sphere(2); n <- %d; x <- runif(n)
    Y <- mfd_exp(S2, c(0, 0, 1), outer(x - 0.5, c(0.5, 0.2, 0)))
    Y <- mfd_exp(S2, Y, 0.03 * mfd_random_tangent(S2, Y, n))
    options(dpmanifold.threads = %d)
    t0 <- proc.time()[[3]]
    for (i in 1:%d) r <- dp_geodesic_regression(S2, x, Y, epsilon = 1, tau = 0.2, center = c(0, 0, 1),
                                                radius = 0.7, x_range = c(0, 1))
    cat((proc.time()[[3]] - t0) / %d)', lib, lib, as.integer(n), threads, reps, reps)
  as.numeric(system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)), stdout = TRUE))
}
for (hogs in hogs_list) {
  pids <- integer(0)
  for (h in seq_len(hogs)) {
    pids <- c(pids, as.integer(system2("sh", c("-c", shQuote("while :; do :; done >/dev/null 2>&1 & echo $!")),
                                       stdout = TRUE)))
  }
  for (cfg in list(c(2000, 100), c(1e6, 5))) {
    t1 <- one(cfg[1], cfg[2], 1L)
    t2 <- one(cfg[1], cfg[2], 2L)
    cat(sprintf("busy processes %d, n %7d: one thread %.4f s, two threads %.4f s (ratio %.2f)\n",
                hogs, as.integer(cfg[1]), t1, t2, t2 / t1))
  }
  if (length(pids)) tools::pskill(pids)
}
