test_that("every manifold satisfies the laws of the interface", {
  set.seed(20261122)
  for (case in manifold_cases()) expect_manifold_laws(case)
})

test_that("Jacobi adjoints agree with finite differences of exp on every manifold", {
  set.seed(7)
  for (case in manifold_cases()) expect_jacobi_adjoints(case)
})
