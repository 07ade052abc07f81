library(testthat)
library(dpmanifold)

test_check("dpmanifold")
