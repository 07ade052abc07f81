# The speed of one default private regression release, alone: section 6 of
# bench/dp_regression_utility.R, for a machine that runs nothing else (the
# release's passes use both cores, so another busy process halves them).
#
#   Rscript bench/dp_regression_speed.R

# (the helpers set the library path and load dpmanifold)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", c(commandArgs(FALSE), "--file=bench/x"), value = TRUE)[1])), "regression-bench-utils.R"))
reps <- 1L
set.seed(20261126)
speed_section()
