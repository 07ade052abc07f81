# The forms of data R users hold, accepted wherever a point is expected
# (issue 20, "R's conventions"): a data.frame of coordinates (one row per
# point), a list of points (lapply(subjects, cov) on spd()), raw Kendall
# configurations (k x 2 or k x 2 x n, as the `shapes` package holds them),
# including the public centre. Each gives the same result as the package's
# own layout under the same seed, and the same validation.

S2 <- sphere(2)
north <- c(0, 0, 1)

sphere_data <- function(n) {
  set.seed(11)
  mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, n))
}

test_that("a data.frame of coordinates gives the matrix release under the same seed", {
  X <- sphere_data(40)
  set.seed(7); a <- dp_frechet_mean(S2, X, epsilon = 1, center = north, radius = pi / 8)
  set.seed(7); b <- dp_frechet_mean(S2, as.data.frame(X), epsilon = 1, center = north, radius = pi / 8)
  expect_identical(a$estimate, b$estimate)
  # named columns, a tibble-like data.frame subclass, and the centre as a one-row data.frame
  df <- structure(data.frame(x = X[, 1], y = X[, 2], z = X[, 3]), class = c("tbl_df", "tbl", "data.frame"))
  set.seed(7); c1 <- dp_frechet_mean(S2, df, epsilon = 1, center = data.frame(x = 0, y = 0, z = 1), radius = pi / 8)
  expect_identical(a$estimate, c1$estimate)
  # the non-private estimators and the geometry take it too
  expect_equal(frechet_mean(S2, as.data.frame(X))$mean, frechet_mean(S2, X)$mean)
  expect_equal(mfd_dist(S2, as.data.frame(X), north), mfd_dist(S2, X, north))
  E <- euclidean(2)
  Y <- matrix(rnorm(40, sd = 0.3), 20)
  set.seed(8); e1 <- dp_frechet_mean(E, Y, epsilon = 1, center = c(0, 0), radius = 1)
  set.seed(8); e2 <- dp_frechet_mean(E, as.data.frame(Y), epsilon = 1, center = c(0, 0), radius = 1)
  expect_identical(e1$estimate, e2$estimate)
})

test_that("a list of points gives the array release under the same seed", {
  set.seed(3)
  subjects <- replicate(12, matrix(rnorm(40), 20, 2), simplify = FALSE)
  S <- lapply(subjects, cov)
  M <- spd(2)
  set.seed(4); a <- dp_frechet_mean(M, simplify2array(S), epsilon = 1, center = diag(2), radius = 1.5)
  set.seed(4); b <- dp_frechet_mean(M, S, epsilon = 1, center = diag(2), radius = 1.5)
  expect_identical(a$estimate, b$estimate)
  expect_equal(frechet_mean(M, S)$mean, frechet_mean(M, simplify2array(S))$mean)
  # a list of vectors on a vector layout: one point per element
  X <- sphere_data(10)
  L <- lapply(seq_len(nrow(X)), function(i) X[i, ])
  expect_equal(mfd_dist(S2, L, north), mfd_dist(S2, X, north))
  # a list of one point is one point held as n = 1 (a 2 x 2 x 1 array)
  expect_equal(dim(mfd_exp(M, list(diag(2)), list(diag(c(0.1, 0))))), c(2L, 2L, 1L))
})

test_that("raw Kendall configurations are points, the public centre included", {
  K <- kendall_shape(4)
  square <- matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4)
  set.seed(5)
  cfg <- array(rnorm(4 * 2 * 20, sd = 0.05) + as.vector(square), c(4, 2, 20)) * 7 + 3
  ctr <- square * 3 + 5  # a raw configuration: not centred, not of unit size
  # (20 records at epsilon = 1 fill the ball of radius 0.3: not the point here)
  quiet <- function(expr) suppressWarnings(expr, classes = "dpmanifold_low_utility")
  # a raw centre was blamed on `footpoint` (its default): now it is the centre's shape
  set.seed(6); a <- quiet(dp_frechet_mean(K, cfg, epsilon = 1, center = ctr, radius = 0.3))
  set.seed(6); b <- quiet(dp_frechet_mean(K, as_preshape(cfg), epsilon = 1, center = as_preshape(ctr), radius = 0.3))
  expect_equal(a$estimate, b$estimate, tolerance = 1e-12)
  expect_equal(mfd_dist(K, a$bounds$center, as_preshape(ctr)), 0, tolerance = 1e-7)
  # a list of raw configurations
  set.seed(6); d <- quiet(dp_frechet_mean(K, lapply(seq_len(20), function(i) cfg[, , i]), epsilon = 1,
                                          center = ctr, radius = 0.3))
  expect_equal(d$estimate, b$estimate, tolerance = 1e-12)
  # the estimators' data, centres, footpoints and starting points; the samplers' means
  expect_equal(frechet_mean(K, cfg)$mean, frechet_mean(K, as_preshape(cfg))$mean, tolerance = 1e-8)
  # (the same shape: preshapes of a mean are defined up to rotation)
  expect_lt(mfd_dist(K, frechet_mean(K, cfg, init = ctr)$mean, frechet_mean(K, as_preshape(cfg))$mean), 1e-6)
  expect_equal(align_shapes(K, as_preshape(cfg[, , 1]), ctr), align_shapes(K, as_preshape(cfg[, , 1]), as_preshape(ctr)),
               tolerance = 1e-12)
  set.seed(12); l1 <- rriemann_laplace(K, 3, ctr, sigma = 0.1)
  set.seed(12); l2 <- rriemann_laplace(K, 3, as_preshape(ctr), sigma = 0.1)
  expect_equal(l1, l2, tolerance = 1e-12)
  set.seed(6); f <- quiet(dp_frechet_mean(K, cfg, epsilon = 1, mechanism = "laplace", center = ctr, radius = 0.3))
  expect_true(mfd_belongs(K, f$estimate))
  # the geometry primitives keep asking for preshapes (a raw matrix there is
  # more likely a mistake than a shape)
  expect_error(mfd_dist(K, ctr, as_preshape(ctr)), "`p`", class = "dpmanifold_error")
  # a degenerate configuration is still refused, naming the argument
  expect_error(dp_frechet_mean(K, cfg, epsilon = 1, center = matrix(1, 4, 2), radius = 0.3),
               class = "dpmanifold_error")
  # raw configurations are points, not tangent vectors: mfd_belongs() says so
  expect_false(mfd_belongs(K, ctr))
})

test_that("raw forms in regression: a data.frame of responses and a raw Kendall centre", {
  set.seed(21)
  x <- runif(30)
  mid <- c(0, 0, 1)
  y <- mfd_exp(S2, mid, outer(x - 0.5, c(0.3, 0, 0)) + 0.02 * mfd_random_tangent(S2, mid, 30))
  set.seed(9); a <- dp_geodesic_regression(S2, x, y, epsilon = 1, tau = 0.15, center = mid, radius = 0.45, x_range = c(0, 1))
  set.seed(9); b <- dp_geodesic_regression(S2, x, as.data.frame(y), epsilon = 1, tau = 0.15, center = mid,
                                           radius = 0.45, x_range = c(0, 1))
  expect_identical(a$estimate, b$estimate)
  # Kendall responses and centre as raw configurations
  K <- kendall_shape(4)
  square <- matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4)
  yk <- array(rnorm(4 * 2 * 30, sd = 0.02) + as.vector(square), c(4, 2, 30)) * 4 - 1
  set.seed(10); k1 <- dp_geodesic_regression(K, x, yk, epsilon = 1, tau = 0.1, center = square, radius = 0.3,
                                             x_range = c(0, 1))
  set.seed(10); k2 <- dp_geodesic_regression(K, x, as_preshape(yk), epsilon = 1, tau = 0.1, center = as_preshape(square),
                                             radius = 0.3, x_range = c(0, 1))
  expect_equal(k1$estimate, k2$estimate, tolerance = 1e-10)
})

test_that("forms that are not points are refused with the package's classed errors", {
  expect_error(mfd_dist(S2, data.frame(a = 1, b = "x", c = 2), north), "column `b` is not numeric",
               class = "dpmanifold_error")
  expect_error(mfd_dist(S2, data.frame(a = 1, b = 2), north), "`p`", class = "dpmanifold_error")
  expect_error(mfd_dist(S2, list(), north), "empty list", class = "dpmanifold_error")
  expect_error(mfd_dist(S2, list(north, "a"), north), "element 2", class = "dpmanifold_error")
  expect_error(mfd_dist(S2, list(north, c(1, 0)), north), "element 2", class = "dpmanifold_error")
  expect_error(mfd_dist(spd(2), list(diag(2), diag(3)), diag(2)), "element 2 is not a 2 x 2", class = "dpmanifold_error")
  expect_error(mfd_dist(spd(2), data.frame(a = 1:2, b = 1:2), diag(2)), "data.frame", class = "dpmanifold_error")
  expect_error(mfd_dist(S2, data.frame(a = c(1, NA), b = 0, c = 0), north), "NA", class = "dpmanifold_error")
  expect_error(mfd_dist(S2, data.frame(), north), "empty", class = "dpmanifold_error")
  # validation of the points themselves is unchanged
  expect_error(mfd_dist(S2, data.frame(a = 2, b = 0, c = 0), north), "not on the manifold", class = "dpmanifold_error")
  expect_error(suppressWarnings(dp_frechet_mean(spd(2), list(diag(2), -diag(2)), epsilon = 1, center = diag(2),
                                                     radius = 1), classes = "dpmanifold_low_utility"),
               class = "dpmanifold_error")
})

test_that("a release's error for a malformed element of a list does not say which record it is", {
  # (SPEC section 6: errors do not name records; the fits and geometry
  # functions keep the index, which helps a user find the element)
  set.seed(5)
  Y <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 10))
  L <- lapply(1:10, function(i) Y[i, ])
  x <- runif(10)
  S <- mfd_exp(spd(2), diag(2), 0.2 * mfd_random_tangent(spd(2), diag(2), 10))
  LS <- lapply(1:10, function(i) S[, , i])
  msgs <- lapply(c(3, 7), function(i) {
    bad <- L
    bad[[i]] <- "a"
    short <- L
    short[[i]] <- c(1, 0)
    nas <- LS
    nas[[i]] <- matrix("a", 2, 2)
    wrong <- LS
    wrong[[i]] <- diag(3)
    vapply(list(function() dp_frechet_mean(S2, bad, 1, center = north, radius = 0.5),
                function() dp_geodesic_regression(S2, x, bad, 1, tau = 0.2, center = north, radius = 0.5,
                                                  x_range = c(0, 1)),
                function() dp_frechet_mean(S2, short, 1, center = north, radius = 0.5),
                function() dp_frechet_mean(spd(2), nas, 1, center = diag(2), radius = 1),
                function() dp_frechet_mean(spd(2), wrong, 1, center = diag(2), radius = 1)),
           function(f) tryCatch({
             f()
             "no error"
           }, dpmanifold_error = conditionMessage), "")
  })
  expect_identical(msgs[[1]], msgs[[2]])
  expect_false(any(grepl("element [0-9]", msgs[[1]])), label = paste(msgs[[1]], collapse = " | "))
  expect_true(all(grepl("with an element that is not", msgs[[1]])), label = paste(msgs[[1]], collapse = " | "))
  expect_error(mfd_dist(S2, list(north, "a"), north), "element 2", class = "dpmanifold_error")
})

test_that("points off the manifold are refused with the tolerance and the fix, in one wording", {
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  set.seed(3)
  X <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 100))
  Xr <- round(X, 5)    # data read from a file with 5 digits: off by more than 1e-6
  x <- runif(100)
  msg <- "not on the manifold \\(S\\^2, to within the tolerance 1e-06 of every function\\).*divide each point by its norm"
  expect_error(dp_frechet_mean(S2, Xr, epsilon = 1, center = north, radius = 0.5), paste0("`X` holds a point that is ", msg),
               class = "dpmanifold_error")
  expect_error(dp_frechet_mean(S2, Xr, epsilon = 1), msg, class = "dpmanifold_error")
  expect_error(geodesic_regression(S2, x, Xr), paste0("`y` holds a point that is ", msg, ".*"), class = "dpmanifold_error")
  expect_error(dp_geodesic_regression(S2, x, Xr, epsilon = 1, center = north, radius = 0.5, x_range = c(0, 1)),
               msg, class = "dpmanifold_error")
  expect_error(mfd_dist(S2, Xr[1, ], north), paste0("`p` is ", msg), class = "dpmanifold_error")
  expect_error(mfd_dist(spd(2), matrix(c(1, 0.5, 0, 1), 2), diag(2)), "tolerance 1e-06.*\\(symmetrise",
               class = "dpmanifold_error")
  # (a release's message names no record's deviation: it is the same for any
  # off-manifold record)
  e1 <- tryCatch(dp_frechet_mean(S2, Xr, epsilon = 1, center = north, radius = 0.5), error = conditionMessage)
  e2 <- tryCatch(dp_frechet_mean(S2, 2 * X, epsilon = 1, center = north, radius = 0.5), error = conditionMessage)
  expect_identical(e1, e2)
  # the fix works
  expect_s3_class(dp_frechet_mean(S2, Xr / sqrt(rowSums(Xr^2)), epsilon = 1, center = north, radius = 0.5), "dp_release")
})

test_that("a data frame of one numeric column is a covariate, as it is newdata", {
  set.seed(9)
  df <- bp_frame(60)
  E1 <- euclidean(1)
  fit <- geodesic_regression(E1, df$age, df$bp)
  # (refused as "`x` must be a numeric vector")
  expect_equal(coef(geodesic_regression(E1, df["age"], df$bp)), coef(fit))
  expect_equal(coef(geodesic_regression(E1, df[, "age", drop = FALSE], df$bp)), coef(fit))
  set.seed(1); r1 <- dp_geodesic_regression(E1, df$age, df$bp, epsilon = 1, center = 130, radius = 40, x_range = c(20, 80))
  set.seed(1); r2 <- dp_geodesic_regression(E1, df["age"], df$bp, epsilon = 1, center = 130, radius = 40, x_range = c(20, 80))
  expect_equal(coef(r2), coef(r1))
  expect_error(geodesic_regression(E1, df, df$bp), "`x` must be a numeric vector \\(or a data frame of one numeric column\\)",
               class = "dpmanifold_error")
  expect_error(geodesic_regression(E1, data.frame(a = letters[1:60]), df$bp), "`x` must be a numeric vector",
               class = "dpmanifold_error")
})
