# plot() for private releases (a Frechet mean; regressions dispatch to
# plot_regression.R), one picture per manifold family.

#' Plot a private release
#'
#' Draws the natural picture of a [dp_release] on its manifold: the private
#' estimate (orange), the non-private estimate if the release holds one
#' (`return_nonprivate = TRUE`; blue) and the public centre of the bounds
#' (grey), optionally over the data. The public centre is what could be
#' released at no privacy cost: a release that lies farther from the
#' non-private estimate than the centre does is no better than the centre
#' (see [dpmanifold_low_utility]). The legend is drawn beside the picture,
#' not over it.
#' * `sphere(2)`: orthographic view with the public ball's boundary
#'   ([plot_sphere()], zoomed onto the ball and the data, with a scale bar),
#'   as in Reimherr, Bharath and Soto (2021, Figure 2); `sphere(1)`: the
#'   unit circle.
#' * `spd(k)`: the matrices as ellipses overlaid at one place (for k > 2 the
#'   block `which`), as in Kulkarni and Soto (Figure 8).
#' * `kendall_shape(k)`: the outlines, aligned to the non-private mean (or
#'   the centre), the public centre dashed, as in Soto et al. (2022,
#'   Figure 2).
#' * `euclidean(d)`: the points (first two coordinates) with the ball.
#' * any other manifold (e.g. `sphere(d)` for d > 2): normal coordinates at
#'   the public centre, i.e. the first two coordinates of \eqn{Log_c(q)} in
#'   the orthonormal basis of [mfd_tangent_basis()], in which the public
#'   ball is exactly the disc of radius `radius`.
#'
#'
#' For geodesic-regression releases ([dp_geodesic_regression()]) the
#' private geodesic (orange) is drawn against the non-private one (blue,
#' when the release holds it), in the pictures of
#' [plot.geodesic_regression()]: on the sphere the two curves, for SPD
#' matrices their ellipses at a few covariate values, for shapes one panel
#' per covariate value, in the Euclidean case the lines. Pass the data as
#' `data = list(x = covariate, y = responses)`.
#'
#' Other statistics have no picture: a message is shown and nothing is
#' drawn.
#'
#' @param x A `dp_release`.
#' @param data Optional data in the layout of the manifold, drawn in grey
#'   behind the estimates (for studies: a plot of the data is not private).
#'   For regression releases a list `list(x = , y = )` of the covariate and
#'   the responses.
#' @param ... Passed to the underlying plotting function (e.g. `view` for
#'   the sphere, `which` for SPD; for regression releases also `at`, see
#'   [plot.geodesic_regression()]).
#' @param legend Draw a legend.
#' @return `x`, invisibly.
#' @examples
#' S2 <- sphere(2)
#' north <- c(0, 0, 1)
#' X <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 50))
#' rel <- dp_frechet_mean(S2, X, epsilon = 1, center = north, radius = pi / 8,
#'                        return_nonprivate = TRUE)
#' plot(rel, data = X)
#' set.seed(1)
#' cc <- simulate_corpus_callosum(400)
#' M <- kendall_shape(50)
#' # the public centre: a template from a separate pilot sample, not from cc
#' pilot <- simulate_corpus_callosum(20)
#' ctr <- frechet_mean(M, pilot$shapes)$mean
#' rel2 <- dp_frechet_mean(M, cc$shapes, epsilon = 2, center = ctr, radius = 0.3,
#'                         return_nonprivate = TRUE)
#' plot(rel2)
#' # A private geodesic regression against the non-private fit
#' x <- runif(100)
#' truth <- mfd_exp(S2, north, outer(x, c(0.6, 0.3, 0)))
#' y <- mfd_exp(S2, truth, 0.05 * mfd_random_tangent(S2, truth, 100))
#' mid <- mfd_exp(S2, north, c(0.3, 0.15, 0))
#' rel3 <- dp_geodesic_regression(S2, x, y, epsilon = 2, tau = 0.2, center = mid,
#'                                radius = 0.6, x_range = c(0, 1),
#'                                return_nonprivate = TRUE)
#' plot(rel3, data = list(x = x, y = y))
#' @export
plot.dp_release <- function(x, data = NULL, ..., legend = TRUE) {
  data <- check_release_plot(x, data)
  check_flag(legend, "legend")
  if (identical(x$statistic, "frechet_mean")) {
    plot_release_mean(x$manifold, x, data, legend = legend, ...)
  } else if (identical(x$statistic, "geodesic_regression") && is.numeric(x$estimate$x_range)) {
    M <- x$manifold
    # releases keep p at x0 (mid-range) and v per unit of x; the curves are
    # drawn in geodesic_regression()'s parametrisation
    est <- x$estimate
    x0 <- est$x0 %||% est$x_range[1]
    curve_of <- function(pv) if (is.null(est$x0)) pv[c("p", "v")] else
      regression_release_curve(M, pv$p, pv$v, x0, est$x_range)
    curves <- list(private = curve_of(est))
    if (!is.null(x$nonprivate$p)) curves <- c(list(nonprivate = curve_of(x$nonprivate)), curves)
    dat <- regression_plot_data(M, data, x$estimate$x_range)
    plot_regression_fit(M, curves, x$estimate$x_range, dat, legend = legend, bounds = x$bounds, ...)
  } else if (identical(x$statistic, "geodesic_regression")) {
    message("plot(): this geodesic_regression release has no covariate range (estimate$x_range); nothing drawn")
  } else {
    message(sprintf("plot() is not available for dp_release objects with statistic \"%s\"; nothing drawn",
                    x$statistic %||% "unknown"))
  }
  invisible(x)
}

# The points of a Frechet-mean release, labelled, in drawing order.
release_points <- function(x) {
  pts <- list(center = x$bounds$center, nonprivate = x$nonprivate$frechet_mean, private = x$estimate)
  pts[!vapply(pts, is.null, logical(1))]
}

release_labels <- c(center = "public centre", nonprivate = "non-private", private = "private",
                    ball = "public ball")

release_legend <- function(which, legend, pch = NULL, lwd = NULL, lty = NULL, pos = "topright") {
  if (!legend) return(invisible())
  col <- .dpm_col[ifelse(which == "ball", "center", which)]
  # only the symbols given (a NULL lty or lwd would still draw lines)
  sym <- list(pch = pch, lwd = lwd, lty = lty)
  do.call(graphics::legend, c(list(pos, legend = unname(release_labels[which]), col = unname(col), bty = "n",
                                   cex = 0.85), sym[!vapply(sym, is.null, logical(1))]))
}

# The legend of a picture with points (the centre a cross) and the public
# ball (dashed), and its labels (NULL when no legend is drawn).
release_legend_labels <- function(which, legend) if (legend) unname(release_labels[c(which, "ball")])

release_legend_ball <- function(which, legend) {
  release_legend(c(which, "ball"), legend, pch = c(ifelse(which == "center", 3, 19), NA),
                 lty = c(rep(NA, length(which)), 2))
}

plot_release_mean <- function(M, x, data, legend, ...) UseMethod("plot_release_mean")

# The default picture, for any manifold: normal coordinates at the public
# centre c, i.e. the first two coordinates of Log_c(q) in the orthonormal
# tangent basis at c (mfd_tangent_basis()). The public ball is then exactly
# the disc of radius r (Log_c is a radial isometry inside the injectivity
# radius), and the first two coordinates of a point in the ball stay in the
# disc.
normal_coords <- function(M, center, Q) {
  C <- matrix(center, ncol = 1L)
  cpp_tangent_coords(M, C, cpp_binary_op(M, "log", C, Q))
}

# Coordinates 1 and 2 (0 when the manifold is one-dimensional) as n x 2.
first_two <- function(Z) cbind(Z[1, ], if (nrow(Z) > 1L) Z[2, ] else 0)

#' @export
plot_release_mean.default <- function(M, x, data, legend, ...) {
  pts <- release_points(x)
  ctr <- to_ambient(M, x$bounds$center, "x$bounds$center")[, 1]
  P <- first_two(normal_coords(M, ctr, do.call(cbind, lapply(pts, function(p) to_ambient(M, p, "x")))))
  D <- if (is.null(data)) NULL else first_two(normal_coords(M, ctr, as_data_points(M, data, "data")))
  r <- x$bounds$radius
  lim <- rbind(P, D, c(-r, -r), c(r, r))
  lim <- limits_with_legend(range(lim[, 1]), range(lim[, 2]), release_legend_labels(names(pts), legend))
  args <- list(...)
  lab <- if (M$dim > 2L) sprintf(" (of %d)", M$dim) else ""
  base <- list(x = lim$xlim, y = lim$ylim, type = "n", asp = 1,
               xlab = paste0("normal coordinate 1 at the public centre", lab),
               ylab = if (M$dim > 1L) paste0("normal coordinate 2", lab) else "",
               main = manifold_label(M))
  do.call(graphics::plot, c(base[setdiff(names(base), names(args))], args))
  if (!is.null(D)) graphics::points(D, col = .dpm_col["data"], pch = 16, cex = 0.6)
  if (M$dim > 1L) {
    tt <- seq(0, 2 * pi, length.out = 181)
    graphics::lines(r * cos(tt), r * sin(tt), col = .dpm_col["center"], lty = 2)
  } else {
    graphics::segments(-r, 0, r, 0, col = .dpm_col["center"], lty = 2)
  }
  graphics::points(P, pch = ifelse(names(pts) == "center", 3, 19), col = .dpm_col[names(pts)], cex = 1.3)
  release_legend_ball(names(pts), legend)
}

#' @export
plot_release_mean.sphere <- function(M, x, data, legend, ...) {
  pts <- release_points(x)
  if (M$size == 1L) {
    tt <- seq(0, 2 * pi, length.out = 361)
    lim <- limits_with_legend(c(-1, 1), c(-1, 1), release_legend_labels(names(pts), legend))
    graphics::plot(lim$xlim, lim$ylim, type = "n", asp = 1, axes = FALSE, xlab = "", ylab = "", ...)
    graphics::lines(cos(tt), sin(tt), col = "grey40")
    if (!is.null(data)) graphics::points(mfd_to_rows(M, data), col = .dpm_col["data"], pch = 16, cex = 0.6)
    ctr <- x$bounds$center
    a0 <- atan2(ctr[2], ctr[1])
    arc <- seq(a0 - x$bounds$radius, a0 + x$bounds$radius, length.out = 100)
    graphics::lines(cos(arc), sin(arc), col = .dpm_col["center"], lwd = 3)
    for (nm in names(pts)) graphics::points(pts[[nm]][1], pts[[nm]][2], pch = 19, col = .dpm_col[nm], cex = 1.3)
    release_legend(c(names(pts), "ball"), legend, pch = c(rep(19, length(pts)), NA),
                   lwd = c(rep(NA, length(pts)), 3), lty = c(rep(NA, length(pts)), 1))
    return(invisible())
  }
  if (M$size != 2L) return(NextMethod())   # S^d, d > 2: normal coordinates
  ctr <- x$bounds$center
  circle <- sphere_ball_circle(ctr, x$bounds$radius)
  args <- sphere_view_args(list(...), ctr)
  P <- if (is.null(data)) NULL else sphere_points(data, "data")
  leg <- release_legend_labels(names(pts), legend)
  do.call(sphere_canvas, c(list(P = P, frame = rbind(circle, do.call(rbind, pts)), legend = leg),
                           args$view))
  if (!is.null(P)) do.call(points_sphere, c(list(P, col = .dpm_col["data"], pch = 16, cex = 0.7), args$points))
  sphere_draw_path(circle, .dpm_plot$sphere$basis, .dpm_plot$sphere$back, col = .dpm_col["center"], lty = 2)
  for (nm in names(pts)) points_sphere(pts[[nm]], pch = if (nm == "center") 3 else 19, col = .dpm_col[nm], cex = 1.3)
  release_legend_ball(names(pts), legend)
}

# The boundary of the ball of geodesic radius r around ctr on S^2.
sphere_ball_circle <- function(ctr, r) {
  S2 <- sphere(2)
  B <- mfd_tangent_basis(S2, ctr)
  tt <- seq(0, 2 * pi, length.out = 181)
  mfd_exp(S2, ctr, r * (outer(cos(tt), B[1, ]) + outer(sin(tt), B[2, ])))
}

# `...` of a sphere picture split into the arguments of the view
# (sphere_canvas(); centred on `ctr` unless `view` is given) and graphical
# parameters for the data points.
sphere_view_args <- function(args, ctr, call = sys.call(-1)) {
  view_names <- c("view", "graticule", "back", "main", "extent", "scale_bar")
  va <- args[intersect(names(args), view_names)]
  if (is.null(va$view)) va$view <- c(asin(max(-1, min(1, ctr[3]))), atan2(ctr[2], ctr[1])) * 180 / pi
  if (!is.null(va$back)) va$back <- check_choice(va$back, c("faint", "hide"), "back", call = call)
  list(view = va, points = args[setdiff(names(args), view_names)])
}

#' @export
plot_release_mean.spd <- function(M, x, data, legend, ..., which = 1:2) {
  pts <- release_points(x)
  if (M$size < 2L) return(NextMethod())   # spd(1): normal coordinates
  S <- array(unlist(pts), c(M$size, M$size, length(pts)))
  D <- if (is.null(data)) NULL else if (length(dim(data)) == 2L) array(data, c(dim(data), 1L)) else data
  all <- if (is.null(D)) S else array(c(D, S), c(M$size, M$size, dim(D)[3] + length(pts)))
  sub <- all[which, which, , drop = FALSE]
  s <- 1 / max(apply(sub, 3, function(A) sqrt(max(eigen(A, symmetric = TRUE, only.values = TRUE)$values))))
  ttl <- if (M$size > 2L) sprintf("rows/columns %d and %d", which[1], which[2]) else NULL
  # every ellipse fits in the unit square once scaled by s
  graphics::plot.new()
  lim <- limits_with_legend(c(-1, 1), c(-1, 1), if (legend) release_labels[names(pts)])
  graphics::plot.window(xlim = lim$xlim, ylim = lim$ylim, asp = 1)
  args <- list(...)
  graphics::title(main = args$main %||% ttl)
  args$main <- NULL
  if (!is.null(D)) {
    do.call(plot_spd_ellipses, c(list(D, centers = matrix(0, dim(D)[3], 2), scale = s, which = which, add = TRUE,
                                      border = faint_col(.dpm_col["data"], 0.6)), args))
  }
  for (i in seq_along(pts)) {
    do.call(plot_spd_ellipses, c(list(pts[[i]], centers = matrix(0, 1, 2), scale = s, which = which, add = TRUE,
                                      border = .dpm_col[names(pts)[i]],
                                      lwd = if (names(pts)[i] == "center") 1.5 else 2.5,
                                      lty = if (names(pts)[i] == "center") 2 else 1), args))
  }
  release_legend(names(pts), legend, lwd = 2, lty = ifelse(names(pts) == "center", 2, 1))
}

#' @export
plot_release_mean.kendall_shape <- function(M, x, data, legend, ...) {
  pts <- release_points(x)
  target <- if (!is.null(x$nonprivate$frechet_mean)) x$nonprivate$frechet_mean else x$bounds$center
  # the public centre (dashed) is what one could release at no privacy cost
  shp <- pts[c("private", "nonprivate", "center")[c("private", "nonprivate", "center") %in% names(pts)]]
  if (!is.null(data)) {
    Z <- align_shapes(M, as_data_preshapes(M, data), as_preshape(target))
    shp <- c(list(data = Z), shp)
  }
  col <- unname(.dpm_col[names(shp)])
  lwd <- ifelse(names(shp) == "data", 1, ifelse(names(shp) == "center", 1.5, 2))
  lty <- ifelse(names(shp) == "center", 2, 1)
  names(shp) <- ifelse(names(shp) %in% names(release_labels), release_labels[names(shp)], names(shp))
  plot_shapes(shp, aligned_to = target, col = col, legend = if (legend) names(shp) else FALSE, lwd = lwd,
              lty = lty, ...)
}

#' @export
plot_release_mean.euclidean <- function(M, x, data, legend, ...) {
  pts <- release_points(x)
  P <- do.call(rbind, lapply(pts, function(p) rep_len(c(p, 0), max(2L, length(p)))[1:2]))
  D <- if (is.null(data)) NULL else {
    d <- if (is.null(dim(data))) matrix(data, ncol = M$size) else data
    cbind(d[, 1], if (M$size > 1L) d[, 2] else 0)
  }
  ctr <- P[1, ]
  r <- x$bounds$radius
  lim <- rbind(P, D, ctr - r, ctr + r)
  lim <- limits_with_legend(range(lim[, 1]), range(lim[, 2]), release_legend_labels(names(pts), legend))
  graphics::plot(lim$xlim, lim$ylim, type = "n", asp = 1, xlab = if (M$size > 1L) "coordinate 1" else "x",
                 ylab = if (M$size > 1L) "coordinate 2" else "", ...)
  if (!is.null(D)) graphics::points(D, col = .dpm_col["data"], pch = 16, cex = 0.6)
  tt <- seq(0, 2 * pi, length.out = 181)
  if (M$size == 2L) {
    graphics::lines(ctr[1] + r * cos(tt), ctr[2] + r * sin(tt), col = .dpm_col["center"], lty = 2)
  } else {
    graphics::segments(ctr[1] - r, 0, ctr[1] + r, 0, col = .dpm_col["center"], lty = 2)
  }
  graphics::points(P, pch = ifelse(names(pts) == "center", 3, 19), col = .dpm_col[names(pts)], cex = 1.3)
  release_legend_ball(names(pts), legend)
}

mfd_to_rows <- function(M, data) if (is.null(dim(data))) matrix(data, 1L) else data

as_data_preshapes <- function(M, data) {
  if (length(dim(data)) == 2L) data <- array(data, c(dim(data), 1L))
  as_preshape(data)
}

