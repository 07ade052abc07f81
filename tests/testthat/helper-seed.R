# Test-side seeding (the package itself never seeds): with_seed(seed, expr),
# shared with the study scripts, from inst/scripts/seeding.R.
local({
  f <- system.file("scripts", "seeding.R", package = "dpmanifold")
  if (!nzchar(f)) f <- file.path(testthat::test_path(), "..", "..", "inst", "scripts", "seeding.R")
  sys.source(f, envir = parent.env(environment()))
})
