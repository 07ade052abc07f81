test_that("constructors reject bad sizes", {
  expect_error(sphere(0), "`d`")
  expect_error(sphere(NA), "`d`")
  expect_error(spd(2.5), "`k`")
  expect_error(kendall_shape(2), "`k` must be a whole number >= 3")
  expect_error(spd(2, metric = "frobenius"), "`metric` is \"frobenius\" but must be one of", class = "dpmanifold_error")
})

test_that("geometry functions name the bad argument", {
  S <- sphere(2)
  expect_error(mfd_dist(list(), c(1, 0, 0), c(0, 1, 0)), class = "dpmanifold_error")
  expect_error(mfd_dist(list(), c(1, 0, 0), c(0, 1, 0)), "`M` must be a manifold")
  expect_error(mfd_dist(S, c(1, 0), c(0, 1, 0)), "`p` must have length 3")
  expect_error(mfd_dist(S, c(1, 0, 0), matrix(1, 2, 4)), "`q` must be a vector of length 3")
  expect_error(mfd_dist(S, c(1, NA, 0), c(0, 1, 0)), "`p` contains NA")
  expect_error(mfd_dist(S, c(1, Inf, 0), c(0, 1, 0)), "`p` contains NA, NaN or Inf")
  expect_error(mfd_dist(S, c(1, 1, 0), c(0, 1, 0)), "`p` is not on the manifold \\(S\\^2, .*\\): it does not have unit norm")
  expect_error(mfd_dist(S, "a", c(0, 1, 0)), "`p` must be a non-empty numeric")
  expect_error(mfd_exp(S, c(1, 0, 0), c(1, 1, 0)), "`v` is not a tangent vector")
  X <- rbind(c(1, 0, 0), c(0, 2, 0))
  expect_error(mfd_dist(S, c(1, 0, 0), X), "point 2")
  expect_error(mfd_log(S, X, rbind(X, X, X)[1:3, ] / c(1, 2, 1)), "`p`")
  expect_error(mfd_random_point(S, 0), "`n`")
  expect_error(mfd_belongs(S, c(1, 0, 0), tol = -1), "`tol`")

  P <- spd(2)
  expect_error(mfd_dist(P, matrix(c(1, 0.5, 0, 1), 2), diag(2)), "`p` is not on the manifold \\(.*\\): it is not symmetric")
  expect_error(mfd_dist(P, diag(c(1, -1)), diag(2)), "`p` is not on the manifold \\(.*\\): it is not positive definite")
  expect_error(mfd_dist(P, diag(3), diag(2)), "`p` must be a 2 x 2 matrix")
  expect_error(mfd_dist(P, diag(2), array(diag(2), c(2, 2, 2)) + c(0, 1, 0, 0)), "`q`")

  K <- kendall_shape(4)
  expect_error(as_preshape(matrix(1, 4, 2)), "`X` contains a degenerate shape")
  expect_error(as_preshape(matrix(1, 4, 3)), "`X` must be a k x 2 matrix")
  expect_error(mfd_dist(K, matrix(1:8, 4, 2), as_preshape(matrix(1:8, 4, 2))), "not centred")
  expect_error(align_shapes(sphere(2), 1, 1), "`M` must be a kendall_shape")
})

test_that("C++ exceptions become classed R errors, not crashes", {
  expect_error(dpm$cpp_manifold_info(list(type = "torus", size = 2L)), "unknown manifold",
               class = "dpmanifold_error")
  expect_error(dpm$cpp_dist(sphere(2), matrix(1, 3, 2), matrix(1, 3, 3)), "numbers of points differ",
               class = "dpmanifold_error")
})

test_that("errors carry the argument's name as a field", {
  e <- tryCatch(mfd_random_point(sphere(2), 2^31), dpmanifold_error = function(e) e)
  expect_identical(e$arg, "n")
  e <- tryCatch(mfd_exp(spd(2), diag(2), diag(c(800, 0))), dpmanifold_error = function(e) e)
  expect_s3_class(e, "dpmanifold_not_representable")
  expect_identical(e$arg, "v")
})
