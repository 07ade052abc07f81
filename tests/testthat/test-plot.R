with_null_device <- function(code) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  force(code)
}

test_that("plot_sphere projects orthographically and returns invisibly", {
  with_null_device({
    X <- rbind(c(0, 0, 1), c(0, 1, 0), c(0, 0, -1), c(1, 0, 0))
    expect_invisible(xy <- plot_sphere(X, view = c(90, 0), pch = 19))
    # Seen from above the north pole: east is +y, north (screen up) is -x.
    expect_equal(unname(xy[1, ]), c(0, 0), tolerance = 1e-12)
    expect_equal(unname(xy[2, ]), c(1, 0), tolerance = 1e-12)
    expect_equal(unname(xy[4, ]), c(0, -1), tolerance = 1e-12)
    expect_equal(attr(xy, "front"), c(TRUE, TRUE, FALSE, TRUE))
    expect_invisible(points_sphere(c(0, 0, 1), col = "red"))
    expect_invisible(path <- lines_sphere(c(0, 0, 1), v = c(pi / 2, 0, 0), n = 11))
    expect_equal(dim(path), c(11L, 3L))
    expect_equal(path[11, ], c(1, 0, 0), tolerance = 1e-12)
    path2 <- lines_sphere(c(1, 0, 0), q = c(0, 1, 0), col = "blue", n = 5)
    expect_equal(path2[5, ], c(0, 1, 0), tolerance = 1e-12)
    expect_equal(unname(rowSums(path2^2)), rep(1, 5))
    # Default view faces the data; hidden points can be left out.
    expect_silent(plot_sphere(quakes_directions()$directions, pch = ".", back = "hide"))
    expect_silent(plot_sphere(graticule = 0))
  })
})

test_that("plot_sphere frames the data, draws a scale bar and keeps legends beside the picture", {
  with_null_device({
    S2 <- sphere(2)
    N <- c(0, 0, 1)
    set.seed(1)
    X <- mfd_exp(S2, N, 0.1 * mfd_random_tangent(S2, N, 30))
    plot_sphere(X)
    st <- dpmanifold:::.dpm_plot$sphere
    # the cap that holds the data fills the plot: the framed square is the
    # cap's projection, far smaller than the globe
    m <- colMeans(X) / sqrt(sum(colMeans(X)^2))
    far <- max(mfd_dist(S2, m, X))
    expect_true(st$zoomed)
    expect_lt(st$half, 0.5)
    expect_gt(st$half, sin(0.9 * far))
    usr <- par("usr")
    expect_lt(diff(usr[1:2]), 4 * st$half + 0.2)
    # an explicit extent, and the whole globe as before
    plot_sphere(X, extent = 0.3)
    expect_equal(dpmanifold:::.dpm_plot$sphere$half, sin(0.3))
    plot_sphere(X, extent = pi / 2, scale_bar = FALSE)
    expect_false(dpmanifold:::.dpm_plot$sphere$zoomed)
    # spread data are shown on the whole globe
    plot_sphere(rbind(N, -N, c(1, 0, 0)))
    expect_false(dpmanifold:::.dpm_plot$sphere$zoomed)
    # the graticule follows the zoom unless given
    expect_equal(dpmanifold:::sphere_graticule_step(pi / 2), 30)
    expect_equal(dpmanifold:::sphere_graticule_step(0.3), 5)
    expect_equal(dpmanifold:::sphere_graticule_step(0.01), 1)
    expect_silent(plot_sphere(X, graticule = 1))
    for (bad in list(0, -1, NA, 2, c(0.1, 0.2), "a")) {
      expect_error(plot_sphere(X, extent = bad), "`extent`", class = "dpmanifold_error")
    }
    expect_error(plot_sphere(X, scale_bar = NA), "`scale_bar`", class = "dpmanifold_error")
    # plot() of a release reserves room right of the picture for its legend
    rel <- suppressWarnings(dp_frechet_mean(S2, X, epsilon = 1, center = N, radius = 0.3,
                                            return_nonprivate = TRUE))
    labels <- c("public centre", "non-private", "private", "public ball")
    for (size in list(c(7, 7), c(5, 5), c(7, 4))) {
      grDevices::pdf(NULL, width = size[1], height = size[2])
      plot(rel, data = X)
      st <- dpmanifold:::.dpm_plot$sphere
      # the legend's box lies right of the framed square or above it
      box <- legend("topright", legend = labels, pch = 19, bty = "n", cex = 0.85, plot = FALSE)$rect
      expect_true(box$left >= st$half || box$top - box$h >= st$half)
      grDevices::dev.off()
    }
    # the public ball is in view
    expect_gt(st$half, sin(0.3))
    expect_error(plot(rel, data = X, back = "nope"), "`back`", class = "dpmanifold_error")
  })
})

test_that("legends get room beside the picture instead of covering it", {
  # the legend's box (drawn at "topright") lies outside the box of the data
  legend_clear <- function(data_x, data_y, labels) {
    box <- graphics::legend("topright", legend = labels, lwd = 2, bty = "n", cex = 0.85, plot = FALSE)$rect
    box$left >= max(data_x) || box$top - box$h >= max(data_y)
  }
  for (size in list(c(5, 5), c(7, 4), c(4, 7))) {
    grDevices::pdf(NULL, width = size[1], height = size[2])
    cc <- with_seed(1, simulate_corpus_callosum(4, k = 20))
    out <- plot_shapes(list(a = cc$shapes[, , 1:2], bb = cc$shapes[, , 3:4]), aligned_to = "first")
    xy <- do.call(rbind, unlist(out, recursive = FALSE))
    expect_true(legend_clear(xy[, 1], xy[, 2], c("a", "bb")))
    E2 <- euclidean(2)
    X <- matrix(rnorm(60), ncol = 2)
    rel <- suppressWarnings(dp_frechet_mean(E2, X, epsilon = 1, center = c(0, 0), radius = 3,
                                            return_nonprivate = TRUE))
    plot(rel, data = X)
    expect_true(legend_clear(c(X[, 1], 3), c(X[, 2], 3), c("public centre", "non-private", "private", "public ball")))
    grDevices::dev.off()
  }
  # lwd and lty per group
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot_shapes(list(a = cc$shapes[, , 1], b = cc$shapes[, , 2]), lwd = c(1, 3), lty = c(1, 2)))
})

test_that("sphere plotting helpers validate their input", {
  with_null_device({
    expect_error(plot_sphere(matrix(1, 2, 3)), "unit vectors", class = "dpmanifold_error")
    expect_error(plot_sphere(c(0, 1)), class = "dpmanifold_error")
    expect_error(plot_sphere(c(0, 0, 1), view = 1), class = "dpmanifold_error")
    plot_sphere()
    expect_error(lines_sphere(c(0, 0, 1)), class = "dpmanifold_error")
    expect_error(lines_sphere(c(0, 0, 1), v = c(1, 0, 0), q = c(1, 0, 0)), class = "dpmanifold_error")
    expect_silent(points_sphere(c(0, 0, 1)))
    # another plot on the device is no sphere plot: points_sphere() drew on
    # it with the old projection
    plot(1:10)
    expect_error(points_sphere(c(0, 0, 1)), "no sphere plot is open", class = "dpmanifold_error")
    plot_sphere()
  })
  # nor is another device (it gave R's unclassed "plot.new has not been called yet")
  with_null_device(expect_error(lines_sphere(c(0, 0, 1), c(1, 0, 0)), "no sphere plot is open", class = "dpmanifold_error"))
})

test_that("plot_spd_ellipses draws SPD(2) paths and reuses its scale when adding", {
  with_null_device({
    P <- spd(2)
    x <- seq(0, 1, length.out = 5)
    v <- matrix(c(0.5, 0.6, 0.6, -0.4), 2)
    path <- mfd_exp(P, diag(c(2, 0.5)), array(outer(as.vector(v), x), c(2, 2, 5)))
    expect_invisible(s <- plot_spd_ellipses(path, centers = x, border = "blue", labels = round(x, 2)))
    expect_true(is.numeric(s) && s > 0)
    # The largest ellipse spans 45% of the spacing.
    rmax <- max(apply(path, 3, function(S) sqrt(max(eigen(S)$values))))
    expect_equal(s * rmax, 0.45 * 0.25)
    expect_equal(plot_spd_ellipses(path, centers = x, add = TRUE, border = "magenta"), s)
    expect_equal(plot_spd_ellipses(diag(2), scale = 2), 2)
    eu <- eustock_covariances(step = 200)
    expect_invisible(plot_spd_ellipses(eu$covariances, centers = eu$covariates$time, which = c(1, 4)))
    expect_error(plot_spd_ellipses(eu$covariances, which = c(1, 5)), class = "dpmanifold_error")
    expect_error(plot_spd_ellipses(diag(c(1, -1))), "positive-definite", class = "dpmanifold_error")
    expect_error(plot_spd_ellipses(path, centers = 1:2), class = "dpmanifold_error")
  })
})

test_that("plot_shapes overlays, aligns and lays out shapes", {
  with_null_device({
    cc <- with_seed(1, simulate_corpus_callosum(6, k = 30))
    expect_invisible(out <- plot_shapes(cc$shapes))
    expect_equal(length(out), 6L)
    expect_equal(out[[2]], cc$shapes[, , 2])
    al <- plot_shapes(cc$shapes, aligned_to = "first", gradient = TRUE)
    M <- kendall_shape(30)
    # Aligned preshapes: same shapes, rotated onto the first.
    expect_equal(sum(al[[3]]^2), 1)
    expect_equal(mfd_dist(M, al[[3]], as_preshape(cc$shapes[, , 3])), 0, tolerance = 1e-6)
    expect_equal(unname(mfd_dist(M, al[[1]], al[[3]])), sqrt(sum((al[[1]] - al[[3]])^2)) * 0 +
                   mfd_dist(M, as_preshape(cc$shapes[, , 1]), as_preshape(cc$shapes[, , 3])), tolerance = 1e-6)
    grp <- plot_shapes(list(young = cc$shapes[, , 1:3], old = cc$shapes[, , 4:6]), aligned_to = cc$shapes[, , 1],
                       lwd = 2, main = "two groups")
    expect_named(grp, c("young", "old"))
    expect_length(grp$old, 3L)
    expect_invisible(plot_shapes(cc$shapes, panels = TRUE, ncol = 3, landmarks = FALSE))
    expect_invisible(plot_shapes(cc$shapes[, , 1], connect = FALSE, legend = FALSE))
    expect_error(plot_shapes(list(cc$shapes[, , 1], cc$shapes[1:10, , 2])), "same number", class = "dpmanifold_error")
    expect_error(plot_shapes(matrix(1:9, 3)), class = "dpmanifold_error")
    expect_error(plot_shapes(cc$shapes, aligned_to = diag(2)), class = "dpmanifold_error")
  })
})

test_that("plot.dp_release draws Frechet-mean releases on every manifold and returns invisibly", {
  set.seed(1)
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  X <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 30))
  # (the releases that keep their non-private mean, to be drawn, say they are not private)
  expect_warning(r_s2 <- dp_frechet_mean(S2, X, epsilon = 1, center = north, radius = pi / 8, return_nonprivate = TRUE),
                 class = "dpmanifold_privacy_leak")
  S1 <- sphere(1)
  Y1 <- mfd_exp(S1, c(1, 0), 0.2 * mfd_random_tangent(S1, c(1, 0), 20))
  r_s1 <- dp_frechet_mean(S1, Y1, epsilon = 1, center = c(1, 0), radius = 0.5)
  P <- spd(2)
  Y <- mfd_exp(P, diag(2), 0.3 * mfd_random_tangent(P, diag(2), 20))
  expect_warning(r_spd <- dp_frechet_mean(P, Y, epsilon = 1, mechanism = "wrapped_laplace", center = diag(2),
                                          radius = 1.5, return_nonprivate = TRUE),
                 class = "dpmanifold_privacy_leak")
  P3 <- spd(3)
  Y3 <- mfd_exp(P3, diag(3), 0.3 * mfd_random_tangent(P3, diag(3), 20))
  r_spd3 <- dp_frechet_mean(P3, Y3, epsilon = 1, mechanism = "wrapped_laplace", center = diag(3), radius = 1.5)
  cc <- with_seed(1, simulate_corpus_callosum(20, k = 20))
  K <- kendall_shape(20)
  ctr <- frechet_mean(K, cc$shapes)$mean
  # (20 shapes in Kendall(20) fill the ball of radius 0.3: not the point here)
  expect_warning(r_k <- suppressWarnings(dp_frechet_mean(K, cc$shapes, epsilon = 5, center = ctr, radius = 0.3,
                                                              return_nonprivate = TRUE), classes = "dpmanifold_low_utility"),
                 class = "dpmanifold_privacy_leak")
  E <- euclidean(2)
  Z <- matrix(rnorm(40, sd = 0.3), 20)
  expect_warning(r_e <- dp_frechet_mean(E, Z, epsilon = 1, center = c(0, 0), radius = 1, return_nonprivate = TRUE),
                 class = "dpmanifold_privacy_leak")
  r_e1 <- dp_frechet_mean(euclidean(1), matrix(Z[, 1]), epsilon = 1, center = 0, radius = 1)
  S4 <- sphere(4)
  r_s4 <- suppressWarnings(dp_frechet_mean(S4, mfd_random_point(S4, 10), epsilon = 1))

  with_null_device({
    expect_invisible(out <- plot(r_s2, data = X))
    expect_identical(out, r_s2)
    expect_invisible(plot(r_s2, view = c(45, 10), legend = FALSE))
    expect_invisible(plot(r_s1, data = Y1))
    expect_invisible(plot(r_spd, data = Y))
    expect_invisible(plot(r_spd))
    expect_invisible(plot(r_spd3, which = c(1, 3)))
    expect_invisible(plot(r_k, data = cc$shapes))
    expect_invisible(plot(r_k))
    expect_invisible(plot(r_e, data = Z))
    expect_invisible(plot(r_e1))
    expect_silent(plot(r_s4))   # no picture of its own: normal coordinates
    # a statistic without a picture gets a message, not an error
    other <- r_s2
    other$statistic <- "frechet_variance"
    expect_message(out <- plot(other), "frechet_variance")
    expect_identical(out, other)
  })
})

test_that("a manifold without plot methods of its own gets the default pictures", {
  # the S3 class drops "sphere"/"spd": every per-manifold method is bypassed
  set.seed(5)
  for (M0 in list(sphere(2), spd(2), euclidean(1))) {
    M <- M0
    class(M) <- "manifold"
    ctr <- mfd_random_point(M)
    X <- mfd_exp(M, ctr, 0.2 * mfd_random_tangent(M, ctr, 30))
    expect_warning(rel <- dp_frechet_mean(M, X, epsilon = 2, mechanism = "laplace", center = ctr, radius = 0.5,
                                          return_nonprivate = TRUE), class = "dpmanifold_privacy_leak")
    expect_identical(rel$manifold, M)
    expect_error(dp_frechet_mean(M, X, epsilon = 2, mechanism = "euclidean_laplace", center = ctr, radius = 0.5),
                 "no ambient baseline", class = "dpmanifold_no_baseline")
    x <- seq(0, 1, length.out = 30)
    fit <- geodesic_regression(M, x, X)
    with_null_device({
      expect_silent(plot(rel, data = X))
      expect_silent(plot(rel, legend = FALSE))
      expect_silent(plot(fit))
    })
    # the public ball is the disc of radius r in normal coordinates at the centre
    Z <- normal_coords(M, to_ambient(M, ctr, "c")[, 1], to_ambient(M, X, "X"))
    expect_equal(sqrt(colSums(Z^2)), mfd_dist(M, ctr, X), tolerance = 1e-8)
  }
})
