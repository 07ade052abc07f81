# plot() for geodesic regressions (fits and private releases), one picture
# per manifold family.

#' Plot a geodesic regression
#'
#' Draws the data and the fitted geodesic \eqn{x \mapsto Exp_p(t(x) v)} of a
#' [geodesic_regression()] in the natural picture of its manifold:
#' * `sphere(2)`: the data and the fitted geodesic on the orthographic view
#'   of [plot_sphere()], as in Kulkarni and Soto (DP geodesic regression,
#'   Figure 2); the data are shaded by their covariate (light: low, dark:
#'   high) and the fit is marked at the lower end of `x_range` (filled) and
#'   the upper end (open). `sphere(1)`: the angle against the covariate.
#' * `spd(k)`: the 2 x 2 matrices (for k > 2 the block `which`) as ellipses
#'   ([plot_spd_ellipses()]) along the covariate axis: the data in the top
#'   row, the fitted geodesic at the covariate values `at` in the bottom row
#'   (Kulkarni and Soto, Figure 8).
#' * `kendall_shape(k)`: the fitted shapes at the covariate values `at`
#'   (by default the ends and the middle of `x_range`) overlaid, coloured
#'   from dark to light along the covariate, with the data, aligned to the
#'   middle fitted shape, in faint colours of their covariate.
#' * `euclidean(d)`: for d = 1 the scatter plot with the fitted line; for
#'   d > 1 one panel per coordinate against the covariate.
#' * any other manifold (e.g. `sphere(d)` for d > 2): the first two normal
#'   coordinates (coordinates of the log map in the basis of
#'   [mfd_tangent_basis()]) at the public centre of a release, or else at
#'   the fitted geodesic's mid-range point, against the covariate.
#'
#' The same pictures show a private regression release against the
#' non-private fit, see [plot.dp_release()].
#'
#' @param x A `geodesic_regression` object.
#' @param ... Passed on: `view`, `graticule`, `back` and `main` for the
#'   sphere ([plot_sphere()]), `which` (the 2 x 2 block) and `main` for
#'   SPD, `main` otherwise; `xlab` (the covariate's axis) where there is
#'   one (not on the sphere of dimension 2 or Kendall's space), and `ylab`
#'   (one label per coordinate) on `euclidean()`.
#' @param at Covariate values at which the fitted geodesic is drawn for SPD
#'   matrices (default: 5 equally spaced values over `x_range`) and shapes
#'   (default: the ends and the middle of `x_range`).
#' @param data Draw the data behind the fit.
#' @param legend Draw a legend.
#' @return `x`, invisibly.
#' @seealso [plot.dp_release()], [plot_sphere()], [plot_spd_ellipses()],
#'   [plot_shapes()].
#' @examples
#' S2 <- sphere(2)
#' x <- runif(60)
#' truth <- mfd_exp(S2, c(0, 0, 1), outer(x, c(0.9, 0.4, 0)))
#' y <- mfd_exp(S2, truth, 0.08 * mfd_random_tangent(S2, truth, 60))
#' plot(geodesic_regression(S2, x, y))
#'
#' P <- spd(2)
#' truth <- mfd_exp(P, diag(c(2, 0.5)), array(outer(c(0.5, 0.6, 0.6, -0.4), x), c(2, 2, 60)))
#' Y <- mfd_exp(P, truth, 0.2 * mfd_random_tangent(P, truth, 60))
#' plot(geodesic_regression(P, x, Y))
#'
#' set.seed(2)
#' cc <- simulate_corpus_callosum(40)
#' fit <- geodesic_regression(kendall_shape(50), cc$covariates$age, cc$shapes)
#' plot(fit)
#'
#' plot(geodesic_regression(euclidean(1), x, 1 + 2 * x + rnorm(60, sd = 0.2)))
#' @export
plot.geodesic_regression <- function(x, ..., at = NULL, data = TRUE, legend = TRUE) {
  check_fields(x, "geodesic_regression", c("manifold", "coef", "x_range", "x", "y"))
  check_flag(legend, "legend")
  check_flag(data, "data")
  if (!is.null(at)) regression_at(at, x$x_range, 1L)   # validated here: not every manifold's plot uses it
  dat <- if (isTRUE(data)) list(x = x$x, y = x$y) else NULL
  curve <- regression_release_curve(x$manifold, x$coef$p, x$coef$v, x$coef$x0, x$x_range)
  plot_regression_fit(x$manifold, list(fit = curve), x$x_range, dat, legend = legend,
                      at = at, ...)
  invisible(x)
}

regression_labels <- c(fit = "fitted geodesic", nonprivate = "non-private", private = "private")
regression_cols <- c(fit = .dpm_col[["nonprivate"]], nonprivate = .dpm_col[["nonprivate"]],
                     private = .dpm_col[["private"]])

# The data of a regression plot: NULL or list(x, y) with y in the layout of
# M (Kendall: preshapes).
regression_plot_data <- function(M, data, x_range, call = sys.call(-1)) {
  if (is.null(data)) return(NULL)
  if (!is.list(data) || is.null(data$x) || is.null(data$y)) {
    abort_arg("data", "must be list(x = covariate, y = responses) for a regression release", call)
  }
  Y <- as_data_points(M, data$y, "data$y", call = call)
  xx <- data$x
  if (!is.numeric(xx) || length(xx) != ncol(Y) || any(!is.finite(xx))) {
    abort_arg("data", sprintf("must have a finite numeric `x` with one value per response (%d)", ncol(Y)), call)
  }
  list(x = as.numeric(xx), y = from_ambient(M, Y))
}

fmt_num <- function(x) vapply(x, function(a) format(signif(a, 3)), character(1))

# Covariate values at which a geodesic is drawn.
regression_at <- function(at, x_range, n, call = sys.call(-1)) {
  if (is.null(at)) return(seq(x_range[1], x_range[2], length.out = n))
  if (!is.numeric(at) || !length(at) || any(!is.finite(at))) abort_arg("at", "must be finite covariate values", call)
  sort(unique(as.numeric(at)))
}

# Grey shade of each covariate value: light at the lower end of the range,
# dark at the upper end.
covariate_greys <- function(x, x_range, alpha = 0.8) {
  t <- pmin(pmax((x - x_range[1]) / diff(x_range), 0), 1)
  g <- 0.78 - 0.6 * t
  grDevices::rgb(g, g, g, alpha)
}

regression_legend <- function(curves, legend, pos = "topright", lwd = 2.5, extra = NULL, extra_col = NULL,
                              extra_lty = NULL, extra_pch = NULL) {
  if (!legend) return(invisible())
  nm <- names(curves)
  graphics::legend(pos, legend = c(unname(regression_labels[nm]), extra),
                   col = c(unname(regression_cols[nm]), extra_col),
                   lwd = c(rep(lwd, length(nm)), ifelse(is.na(extra_lty %||% rep(NA, length(extra))), NA, 1)),
                   lty = c(rep(1, length(nm)), extra_lty %||% rep(NA, length(extra))),
                   pch = c(rep(NA, length(nm)), extra_pch), bty = "n", cex = 0.85)
}

plot_regression_fit <- function(M, curves, x_range, data, legend, ...) UseMethod("plot_regression_fit")

# The default picture, for any manifold: the first two normal coordinates
# (see normal_coords()) at a reference point (the public centre of a
# release, else the fitted geodesic at mid-range) against the covariate, one
# panel each, with the data and the fitted geodesics.
#' @export
plot_regression_fit.default <- function(M, curves, x_range, data, legend, ..., at = NULL, main = NULL,
                                        bounds = NULL, xlab = "x") {
  ref <- if (!is.null(bounds$center)) to_ambient(M, bounds$center, "bounds$center")[, 1] else
    to_ambient(M, predict_geodesic(M, curves[[1]]$p, curves[[1]]$v, x_range, mean(x_range)), "p")[, 1]
  xs <- seq(x_range[1], x_range[2], length.out = 60)
  coords <- lapply(curves, function(cv) {
    first_two(normal_coords(M, ref, to_ambient(M, predict_geodesic(M, cv$p, cv$v, x_range, xs), "p")))
  })
  Y <- if (is.null(data)) NULL else first_two(normal_coords(M, ref, to_ambient(M, data$y, "data$y")))
  k <- min(2L, M$dim)
  if (k > 1L) {
    op <- graphics::par(mfrow = c(1L, 2L), mar = c(4, 4, 2, 1))
    on.exit(graphics::par(op))
  }
  for (j in seq_len(k)) {
    yl <- range(c(unlist(lapply(coords, function(L) L[, j])), Y[, j]))
    if (j == 1L && legend) yl <- ylim_with_legend(yl, length(curves))
    graphics::plot(range(c(xs, data$x)), yl, type = "n", xlab = xlab,
                   ylab = sprintf("normal coordinate %d%s", j, if (M$dim > 2L) sprintf(" (of %d)", M$dim) else ""),
                   main = if (j == 1L) main %||% manifold_label(M))
    if (!is.null(Y)) graphics::points(data$x, Y[, j], pch = 16, col = .dpm_col["data"], cex = 0.7)
    for (nm in names(curves)) graphics::lines(xs, coords[[nm]][, j], col = regression_cols[[nm]], lwd = 2.5)
    if (j == 1L) regression_legend(curves, legend, pos = free_corner(coords[[1]][, 1]))
  }
}

#' @export
plot_regression_fit.sphere <- function(M, curves, x_range, data, legend, ..., at = NULL, bounds = NULL) {
  if (M$size == 1L) return(plot_regression_circle(M, curves, x_range, data, legend, ...))
  if (M$size != 2L) return(NextMethod())   # S^d, d > 2: normal coordinates
  mid <- predict_geodesic(M, curves[[1]]$p, curves[[1]]$v, x_range, mean(x_range))
  args <- sphere_view_args(list(...), mid)
  Y <- if (is.null(data)) NULL else data$y
  dcol <- if (is.null(data)) NULL else covariate_greys(data$x, x_range)
  paths <- lapply(curves, function(cv) predict_geodesic(M, cv$p, cv$v, x_range,
                                                        seq(x_range[1], x_range[2], length.out = 100)))
  circle <- if (!is.null(bounds)) sphere_ball_circle(bounds$center, bounds$radius)
  ext <- c(sprintf("x = %s", fmt_num(x_range)), if (!is.null(data)) "data (darker: larger x)",
           if (!is.null(bounds)) c("public centre", "public ball"))
  leg <- c(unname(regression_labels[names(curves)]), ext)
  do.call(sphere_canvas, c(list(P = Y, frame = rbind(circle, do.call(rbind, paths)), legend = if (legend) leg),
                           args$view))
  st <- .dpm_plot$sphere
  if (!is.null(Y)) do.call(points_sphere, c(list(Y, col = dcol, pch = 16, cex = 0.7), args$points))
  if (!is.null(bounds)) {
    sphere_draw_path(circle, st$basis, st$back, col = .dpm_col["center"], lty = 2)
    points_sphere(bounds$center, pch = 3, col = .dpm_col["center"], cex = 1.2)
  }
  for (nm in names(curves)) {
    sphere_draw_path(paths[[nm]], st$basis, st$back, col = regression_cols[[nm]], lwd = 2.5)
    ends <- paths[[nm]][c(1L, nrow(paths[[nm]])), , drop = FALSE]
    points_sphere(ends, pch = c(19, 21), bg = "white", col = regression_cols[[nm]], cex = 1.3, lwd = 2)
  }
  regression_legend(curves, legend, extra = ext,
                    extra_col = c(.dpm_col["center"], .dpm_col["center"], if (!is.null(data)) "grey45",
                                  if (!is.null(bounds)) rep(.dpm_col["center"], 2)),
                    extra_pch = c(19, 21, if (!is.null(data)) 16, if (!is.null(bounds)) c(3, NA)),
                    extra_lty = c(NA, NA, if (!is.null(data)) NA, if (!is.null(bounds)) c(NA, 2)))
}

# S^1: the angle of the data and of the fits against the covariate.
plot_regression_circle <- function(M, curves, x_range, data, legend, ..., main = NULL, xlab = "x") {
  xs <- seq(x_range[1], x_range[2], length.out = 200)
  paths <- lapply(curves, function(cv) {
    P <- predict_geodesic(M, cv$p, cv$v, x_range, xs)
    unwrap_angle(atan2(P[, 2], P[, 1]))
  })
  ref <- paths[[1]][100]
  dy <- if (is.null(data)) NULL else {
    a <- atan2(data$y[, 2], data$y[, 1])
    ref + ((a - ref + pi) %% (2 * pi)) - pi
  }
  yl <- range(c(unlist(paths), dy))
  if (legend) yl <- ylim_with_legend(yl, length(curves))
  graphics::plot(range(c(xs, data$x)), yl, type = "n", xlab = xlab, ylab = "angle (radians)", main = main)
  if (!is.null(dy)) graphics::points(data$x, dy, pch = 16, col = .dpm_col["data"], cex = 0.7)
  for (nm in names(curves)) graphics::lines(xs, paths[[nm]], col = regression_cols[[nm]], lwd = 2.5)
  regression_legend(curves, legend, pos = free_corner(paths[[1]]))
}

# The top corner a rising (falling) line leaves free.
free_corner <- function(y) if (y[length(y)] >= y[1]) "topleft" else "topright"

unwrap_angle <- function(a) {
  d <- diff(a)
  a + c(0, cumsum(-2 * pi * round(d / (2 * pi))))
}

#' @export
plot_regression_fit.spd <- function(M, curves, x_range, data, legend, ..., at = NULL, which = 1:2, main = NULL,
                                    bounds = NULL, xlab = "x") {
  k <- M$size
  if (k < 2L) return(NextMethod())   # spd(1): normal coordinates
  ok <- is.numeric(which) && length(which) == 2L && all(which %in% seq_len(k)) && which[1] != which[2]
  if (!ok) abort_arg("which", sprintf("must be two distinct indices in 1:%d", k))
  at <- regression_at(at, x_range, 5L)
  fits <- lapply(curves, function(cv) {
    S <- predict_geodesic(M, cv$p, cv$v, x_range, at, arg = "at")
    if (length(dim(S)) == 2L) S <- array(S, c(k, k, 1L))
    S[which, which, , drop = FALSE]
  })
  D <- if (is.null(data)) NULL else data$y[which, which, , drop = FALSE]
  rad <- function(A) apply(A, 3, function(S) sqrt(max(eigen((S + t(S)) / 2, symmetric = TRUE, only.values = TRUE)$values)))
  rmax <- max(unlist(lapply(fits, rad)), if (!is.null(D)) rad(D))
  span <- diff(range(c(at, x_range, data$x)))
  gap <- if (length(at) > 1L) min(diff(at)) else span / 4
  scale <- 0.45 * gap / rmax
  h <- 2.4 * rmax * scale
  rows <- if (is.null(D)) 0 else c(0, h)
  xlim <- range(c(at, data$x)) + c(-1, 1) * rmax * scale
  ylim <- range(rows) + c(-1.25, 1.1) * rmax * scale
  graphics::plot.new()
  lim <- limits_with_legend(xlim, ylim, if (legend) regression_labels[names(curves)])
  graphics::plot.window(xlim = lim$xlim, ylim = lim$ylim, asp = 1)
  graphics::axis(1, at = pretty(xlim))
  ttl <- main %||% if (k > 2L) sprintf("rows/columns %d and %d", which[1], which[2])
  graphics::title(main = ttl, xlab = xlab)
  if (!is.null(D)) {
    plot_spd_ellipses(D, centers = cbind(data$x, h), scale = scale, add = TRUE,
                      border = covariate_greys(data$x, x_range, 0.7))
    graphics::text(xlim[1], h + 1.05 * rmax * scale, "data", adj = c(0, 0), cex = 0.8, col = "grey30")
    graphics::text(xlim[1], 1.05 * rmax * scale, "fit", adj = c(0, 0), cex = 0.8, col = "grey30")
  }
  for (nm in names(fits)) {
    plot_spd_ellipses(fits[[nm]], centers = cbind(at, 0), scale = scale, add = TRUE, border = regression_cols[[nm]],
                      lwd = 2.5)
  }
  graphics::segments(at, -1.2 * rmax * scale, at, -1.05 * rmax * scale, col = "grey40")
  regression_legend(curves, legend)
}

#' @export
plot_regression_fit.kendall_shape <- function(M, curves, x_range, data, legend, ..., at = NULL, main = NULL,
                                              bounds = NULL) {
  at <- regression_at(at, x_range, 3L)
  k <- M$size
  na <- length(at)
  fits <- lapply(curves, function(cv) {
    S <- predict_geodesic(M, cv$p, cv$v, x_range, at, arg = "at")
    if (length(dim(S)) == 2L) S <- array(S, c(k, 2L, 1L))
    S
  })
  target <- fits[[1]][, , ceiling(na / 2)]
  fits <- lapply(fits, function(S) array(align_shapes(M, S, target), dim(S)))
  D <- if (is.null(data)) NULL else align_shapes(M, data$y, target)
  if (!is.null(D) && length(dim(D)) == 2L) D <- array(D, c(k, 2L, 1L))
  closed_path <- function(z) rbind(z, z[1, ])
  if (length(curves) == 1L) {
    # One fit: overlay the shapes at the covariate values, coloured along x.
    pal <- grDevices::hcl.colors(256, "Viridis", rev = FALSE)[1:215]
    colx <- function(x) pal[1L + floor(214 * pmin(pmax((x - x_range[1]) / diff(x_range), 0), 1))]
    xy <- rbind(do.call(rbind, lapply(seq_len(na), function(j) fits[[1]][, , j])),
                if (!is.null(D)) do.call(rbind, lapply(seq_len(dim(D)[3]), function(i) D[, , i])))
    graphics::plot.new()
    lim <- limits_with_legend(range(xy[, 1]), range(xy[, 2]), if (legend) sprintf("fit at x = %s", fmt_num(at)))
    graphics::plot.window(xlim = lim$xlim, ylim = lim$ylim, asp = 1)
    graphics::title(main = main)
    if (!is.null(D)) {
      dc <- faint_col(colx(data$x), 0.25)
      for (i in seq_len(dim(D)[3])) graphics::lines(closed_path(D[, , i]), col = dc[i], lwd = 0.8)
    }
    fc <- colx(at)
    for (j in seq_len(na)) {
      z <- fits[[1]][, , j]
      graphics::lines(closed_path(z), col = fc[j], lwd = 2.5)
      graphics::points(z, col = fc[j], pch = 19, cex = 0.5)
    }
    if (legend) {
      graphics::legend("topright", legend = sprintf("fit at x = %s", fmt_num(at)), col = fc, lwd = 2.5,
                       bty = "n", cex = 0.85)
    }
    return(invisible())
  }
  # Several fits (private vs non-private): one panel per covariate value,
  # with the data whose covariate is nearest to it.
  span <- max(vapply(fits, function(S) max(apply(S, 3, function(z) diff(range(z[, 1])))), numeric(1)))
  off <- 1.25 * span * (seq_len(na) - 1)
  near <- if (is.null(D)) NULL else apply(abs(outer(data$x, at, `-`)), 1, which.min)
  shift <- function(z, j) cbind(z[, 1] + off[j], z[, 2])
  xy <- do.call(rbind, c(lapply(fits, function(S) do.call(rbind, lapply(seq_len(na), function(j) shift(S[, , j], j)))),
                         if (!is.null(D)) lapply(seq_len(dim(D)[3]), function(i) shift(D[, , i], near[i]))))
  graphics::plot.new()
  lim <- limits_with_legend(range(xy[, 1]), range(xy[, 2]) - c(0.12 * span, 0),
                            if (legend) regression_labels[names(curves)])
  graphics::plot.window(xlim = lim$xlim, ylim = lim$ylim, asp = 1)
  graphics::title(main = main)
  if (!is.null(D)) {
    for (i in seq_len(dim(D)[3])) {
      graphics::lines(closed_path(shift(D[, , i], near[i])), col = faint_col(.dpm_col["data"], 0.35), lwd = 0.8)
    }
  }
  for (nm in names(fits)) {
    for (j in seq_len(na)) {
      z <- shift(fits[[nm]][, , j], j)
      graphics::lines(closed_path(z), col = regression_cols[[nm]], lwd = 2.5)
      graphics::points(z, col = regression_cols[[nm]], pch = 19, cex = 0.5)
    }
  }
  graphics::text(off, min(xy[, 2]) - 0.06 * span, sprintf("x = %s", fmt_num(at)), cex = 0.85)
  regression_legend(curves, legend)
}

#' @export
plot_regression_fit.euclidean <- function(M, curves, x_range, data, legend, ..., at = NULL, main = NULL,
                                          bounds = NULL, xlab = "x", ylab = NULL) {
  d <- M$size
  xs <- x_range
  lines_y <- lapply(curves, function(cv) matrix(predict_geodesic(M, cv$p, cv$v, x_range, xs), 2L, d))
  Y <- if (is.null(data)) NULL else matrix(data$y, ncol = d)
  if (d > 1L) {
    op <- graphics::par(mfrow = grDevices::n2mfrow(d), mar = c(4, 4, 2, 1))
    on.exit(graphics::par(op))
  }
  for (j in seq_len(d)) {
    yl <- range(c(unlist(lapply(lines_y, function(L) L[, j])), Y[, j]))
    if (j == 1L && legend) yl <- ylim_with_legend(yl, length(curves))
    graphics::plot(range(c(xs, data$x)), yl, type = "n", xlab = xlab,
                   ylab = if (!is.null(ylab)) rep_len(ylab, d)[j] else if (d > 1L) sprintf("coordinate %d", j) else "y",
                   main = if (j == 1L) main)
    if (!is.null(Y)) graphics::points(data$x, Y[, j], pch = 16, col = .dpm_col["data"], cex = 0.7)
    for (nm in names(curves)) graphics::lines(xs, lines_y[[nm]][, j], col = regression_cols[[nm]], lwd = 2.5)
    if (j == 1L) regression_legend(curves, legend, pos = free_corner(lines_y[[1]][, 1]))
  }
}

