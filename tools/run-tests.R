# Runs the testthat suite against the installed package and writes
# "passed failed" to the file named by the first argument.
args <- commandArgs(TRUE)
suppressPackageStartupMessages(library(testthat))
# Our own suite, not CRAN: run the tests marked skip_on_cran() too.
Sys.setenv(NOT_CRAN = "true")
res <- testthat::test_dir("tests/testthat", package = "dpmanifold",
                          load_package = "installed", reporter = "summary",
                          stop_on_failure = FALSE, stop_on_warning = FALSE)
df <- as.data.frame(res)
passed <- sum(df$passed)
failed <- sum(df$failed) + sum(df$error)
cat(sprintf("testthat: %d expectations passed, %d failed, %d skipped\n",
            passed, failed, sum(df$skipped)))
if (length(args)) writeLines(paste(passed, failed), args[1])
quit(status = if (failed > 0) 1 else 0)
