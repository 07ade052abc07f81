test_that("every manifold satisfies the laws of the interface", {
  set.seed(20261122)
  for (case in manifold_cases()) expect_manifold_laws(case)
})

test_that("Jacobi adjoints agree with finite differences of exp on every manifold", {
  set.seed(7)
  for (case in manifold_cases()) expect_jacobi_adjoints(case)
})

test_that("the registry covers every manifold and the C++ factory builds each registered type", {
  cases <- manifold_cases()
  types <- registered_manifolds()
  expect_setequal(unique(vapply(cases, function(cs) cs$M$type, character(1))), types)
  for (type in types) {
    e <- manifold_entry(type)
    M <- new_manifold(type, max(e$min_size, 3))
    expect_s3_class(M, c(e$class, "manifold"), exact = TRUE)
    expect_identical(check_manifold(M), M)
    # geometry facts come from C++; the layout from the registration agrees
    lay <- manifold_layout(type, M$size)
    expect_equal(c(M$dim, M$ambient_dim), c(lay$dim, lay$ambient_dim), label = type)
    expect_equal(prod(M$point_dim %||% M$ambient_dim), M$ambient_dim, label = type)
    expect_true(nzchar(manifold_label(M)) && nzchar(manifold_long_label(M)))
    expect_output(print(M), "<manifold>")
    expect_true(default_mechanism(M) %in% c("laplace", "kng"))
    # points round-trip through the layout
    X <- mfd_random_point(M, 3)
    expect_equal(from_ambient(M, to_ambient(M, X, "X")), X)
  }
  # messages list the Hadamard manifolds from the registry and the C++ facts
  expect_identical(hadamard_constructors(), "euclidean(), spd() or hyperbolic()")
  expect_error(new_manifold("sphere", 0), class = "dpmanifold_error")
  bad <- sphere(2)
  bad$type <- "no_such_manifold"
  expect_error(check_manifold(bad), "unknown `type`", class = "dpmanifold_error")
  bad <- spd(2)
  bad$metric <- "log_euclidean"
  expect_error(check_manifold(bad), "`metric` does not match", class = "dpmanifold_error")
})
