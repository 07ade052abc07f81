# The speed of one default private regression release, alone: section 6 of
# bench/dp_regression_utility.R, for a machine that runs nothing else (the
# release's passes use both cores, so another busy process halves them).
#
#   Rscript bench/dp_regression_speed.R

lib <- Sys.getenv("DPM_BENCH_LIB", file.path(tempdir(), "dpm-bench-lib"))
.libPaths(c(lib, .libPaths()))
suppressPackageStartupMessages(library(dpmanifold))
reps <- 1L
set.seed(20261126)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", c(commandArgs(FALSE), "--file=bench/x"), value = TRUE)[1])), "regression-bench-utils.R"))
speed_section()
