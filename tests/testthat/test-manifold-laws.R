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

test_that("the complement-basis exp_coords_from (sphere, Kendall) maps N(0, sigma^2 I) coordinates to wrapped draws", {
  # The wrapped sampler of the C++ glue draws exp_p0(Log_p0(mean) + sigma
  # sum_i z_i b_i) through exp_coords_from(p0) (rwrapped_gaussian() itself
  # is for Hadamard manifolds only, so the glue is called directly); read
  # back in mfd_tangent_basis(p0), the coordinates
  # must be N(0, sigma^2 I): mean within 5 standard errors sigma / sqrt(N),
  # covariance within 5 standard errors (sigma^2 sqrt(2 / N) on the diagonal,
  # sigma^2 / sqrt(N) off it). Lengths stay far inside the injectivity radius.
  set.seed(2026)
  N <- 2000
  sigma <- 0.1
  for (M in list(sphere(3), kendall_shape(4))) {
    p0 <- mfd_random_point(M)
    mean <- random_near(M, p0, 0.3)
    amb <- function(x) as.vector(dpm$to_ambient(M, x, "x"))
    Y <- dpm$from_ambient(M, dpm$cpp_rwrapped(M, amb(mean), sigma, amb(p0), N, "gaussian"), FALSE)
    B <- mfd_tangent_basis(M, p0)
    c0 <- mfd_log(M, p0, mean)
    V <- mfd_log(M, p0, Y)
    V <- if (is.null(M$point_dim)) sweep(V, 2, c0) else sweep(V, 1:2, c0)
    C <- vapply(seq_len(M$dim), function(i) mfd_inner(M, p0, V, slice_point(M, B, i)), numeric(N))
    d <- M$dim
    expect_lt(max(abs(colMeans(C))), 5 * sigma / sqrt(N), label = M$name)
    se <- sigma^2 * ifelse(diag(d) == 1, sqrt(2 / N), 1 / sqrt(N))
    expect_true(all(abs(cov(C) - sigma^2 * diag(d)) < 5 * se), label = paste(M$name, "covariance"))
  }
})
