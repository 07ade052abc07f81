# Pictures of the sphere S^2 (orthographic view).


#' Plot points and geodesics on the sphere
#'
#' `plot_sphere()` draws directions on \eqn{S^2} in an orthographic view (the
#' sphere seen from far away above the point `view`) with a graticule of
#' parallels and meridians; `points_sphere()` and `lines_sphere()` add points
#' and geodesic segments to it. Points on the far hemisphere are drawn
#' faintly (or not at all). This is the picture of the sphere simulations in
#' Reimherr, Bharath and Soto (2021, Figure 2) and of the sphere regression
#' in Kulkarni and Soto (DP geodesic regression, Figure 2).
#'
#' A geodesic is given either by a point `p` and an initial velocity `v`
#' (the curve \eqn{t \mapsto Exp_p(t v)} for `t` in `t_range`, e.g. a fitted
#' geodesic regression with `t_range = c(0, 1)`), or by its two end points
#' `p` and `q` (the minimising geodesic). It is sampled with [mfd_exp()].
#'
#' @param X Points on the sphere: an n x 3 matrix (one unit vector per row)
#'   or a vector of length 3; `NULL` draws the empty globe.
#' @param ... Graphical parameters for [graphics::points()] or
#'   [graphics::lines()] (`col`, `pch`, `cex`, `lwd`, `lty`, ...).
#' @param view Centre of the view as `c(latitude, longitude)` in degrees
#'   (latitude of the point \eqn{(x, y, z)} is \eqn{asin(z)}). By default the
#'   normalised mean of `X` (or the north pole), so the data face the viewer.
#' @param graticule Spacing of parallels and meridians in degrees, from 1
#'   to 90 (0 for none).
#' @param back How to draw what lies on the far hemisphere: `"faint"`
#'   (lighter colour, dotted lines) or `"hide"`.
#' @param main Plot title.
#' @param p,q,v A geodesic: start point `p` with velocity `v`, or end points
#'   `p` and `q` (vectors of length 3).
#' @param t_range Range of the geodesic parameter when `v` is given.
#' @param n Number of points the geodesic is sampled at (2 to 1e5).
#' @return `plot_sphere()` and `points_sphere()` invisibly return the
#'   projected plot coordinates (an n x 2 matrix, with a logical attribute
#'   `front`); `lines_sphere()` returns the sampled geodesic (an n x 3
#'   matrix) invisibly.
#' @seealso [plot.dp_release()], [quakes_directions()].
#' @examples
#' S2 <- sphere(2)
#' p <- c(0, 0, 1)
#' X <- mfd_exp(S2, p, 0.3 * mfd_random_tangent(S2, p, 50))
#' plot_sphere(X, view = c(60, 20), col = "grey40")
#' lines_sphere(p, v = c(0.8, 0, 0), col = "red", lwd = 2)
#' lines_sphere(c(1, 0, 0), q = c(0, 1, 0), col = "blue", lwd = 2)
#' points_sphere(p, pch = 19, col = "red")
#' @export
plot_sphere <- function(X = NULL, ..., view = NULL, graticule = 30, back = c("faint", "hide"),
                        main = NULL) {
  back <- check_choice(back)
  P <- if (is.null(X)) NULL else sphere_points(X, "X")
  if (is.null(view)) {
    m <- if (is.null(P)) c(0, 0, 1) else colMeans(P)
    if (sqrt(sum(m^2)) < 1e-8) m <- c(0, 0, 1)
    m <- m / sqrt(sum(m^2))
    view <- c(asin(max(-1, min(1, m[3]))), atan2(m[2], m[1])) * 180 / pi
  }
  ok <- is.numeric(view) && length(view) == 2L && all(is.finite(view))
  if (!ok) abort_arg("view", "must be c(latitude, longitude) in degrees")
  if (!is_scalar_number(graticule) || !(graticule == 0 || (graticule >= 1 && graticule <= 90))) {
    abort_arg("graticule", "must be 0 (no graticule) or a spacing between 1 and 90 degrees")  # 1: 540 lines
  }
  basis <- sphere_view_basis(view)
  .dpm_plot$sphere <- list(basis = basis, back = back)
  graphics::plot.new()
  # room above the globe for the legends the plot methods add top-right
  graphics::plot.window(xlim = c(-1.05, 1.05), ylim = c(-1.05, 1.6), asp = 1)
  tt <- seq(0, 2 * pi, length.out = 361)
  graphics::polygon(cos(tt), sin(tt), col = "grey97", border = NA)
  if (graticule > 0) {
    grat_col <- "grey80"
    for (lat in seq(-90 + graticule, 90 - graticule, by = graticule)) {
      lon <- seq(-180, 180, length.out = 361) * pi / 180
      sphere_draw_path(cbind(cos(lat * pi / 180) * cos(lon), cos(lat * pi / 180) * sin(lon),
                             sin(lat * pi / 180)), basis, "hide", col = grat_col, lwd = 0.7)
    }
    for (lon in seq(0, 360 - graticule, by = graticule)) {
      lat <- seq(-90, 90, length.out = 181) * pi / 180
      sphere_draw_path(cbind(cos(lat) * cos(lon * pi / 180), cos(lat) * sin(lon * pi / 180), sin(lat)),
                       basis, "hide", col = grat_col, lwd = 0.7)
    }
  }
  graphics::lines(cos(tt), sin(tt), col = "grey40")
  if (!is.null(main)) graphics::title(main = main)
  xy <- if (!is.null(P)) points_sphere(P, ...) else matrix(numeric(0), 0, 2)
  invisible(xy)
}

#' @rdname plot_sphere
#' @export
points_sphere <- function(X, ...) {
  P <- sphere_points(X, "X")
  st <- sphere_state()
  pr <- sphere_project(P, st$basis)
  args <- list(...)
  front <- pr$front
  if (any(!front) && st$back == "faint") {
    bargs <- args
    bargs$col <- faint_col(args$col %||% graphics::par("col"))
    do.call(graphics::points, c(list(pr$xy[!front, 1], pr$xy[!front, 2]), recycle_args(bargs, !front)))
  }
  if (any(front)) do.call(graphics::points, c(list(pr$xy[front, 1], pr$xy[front, 2]), recycle_args(args, front)))
  xy <- pr$xy
  attr(xy, "front") <- front
  invisible(xy)
}

#' @rdname plot_sphere
#' @export
lines_sphere <- function(p, v = NULL, q = NULL, ..., t_range = c(0, 1), n = 100) {
  S2 <- sphere(2)
  if (is.null(v) == is.null(q)) abort_arg("v", "give exactly one of `v` (a velocity at `p`) or `q` (an end point)")
  n <- check_count(n, "n", min = 2L, max = 1e5)   # points along one drawn curve
  if (is.null(v)) {
    v <- mfd_log(S2, p, q)
    t_range <- c(0, 1)
  }
  ok <- is.numeric(t_range) && length(t_range) == 2L && all(is.finite(t_range))
  if (!ok) abort_arg("t_range", "must be two finite numbers")
  v <- as.numeric(v)
  if (length(v) != 3L) abort_arg("v", "must be a tangent vector of length 3")
  tt <- seq(t_range[1], t_range[2], length.out = n)
  path <- mfd_exp(S2, p, outer(tt, v))
  st <- sphere_state()
  sphere_draw_path(path, st$basis, st$back, ...)
  invisible(path)
}

sphere_state <- function() {
  st <- .dpm_plot$sphere
  if (is.null(st) || grDevices::dev.cur() == 1L) {
    stop(structure(class = c("dpmanifold_error", "error", "condition"),
                   list(message = "no sphere plot is open: call plot_sphere() first", call = sys.call(-1))))
  }
  st
}

sphere_points <- function(X, arg) {
  if (is.null(dim(X)) && length(X) == 3L) X <- matrix(X, 1L)
  if (!is.numeric(X) || length(dim(X)) != 2L || ncol(X) != 3L || any(!is.finite(X))) {
    abort_arg(arg, "must be points on sphere(2): an n x 3 matrix (one unit vector per row) or a vector of length 3")
  }
  nr <- sqrt(rowSums(X^2))
  if (any(abs(nr - 1) > 1e-6)) abort_arg(arg, "must hold unit vectors (points on sphere(2))")
  unname(X / nr)
}

# Orthonormal frame of the view: e (east, screen x), u (north, screen y),
# c (towards the viewer).
sphere_view_basis <- function(view) {
  la <- view[1] * pi / 180
  lo <- view[2] * pi / 180
  cvec <- c(cos(la) * cos(lo), cos(la) * sin(lo), sin(la))
  e <- c(-sin(lo), cos(lo), 0)
  u <- c(-sin(la) * cos(lo), -sin(la) * sin(lo), cos(la))
  cbind(e = e, u = u, c = cvec)
}

sphere_project <- function(P, basis) {
  Y <- P %*% basis
  list(xy = Y[, 1:2, drop = FALSE], front = Y[, 3] >= 0)
}

sphere_draw_path <- function(path, basis, back, ...) {
  pr <- sphere_project(path, basis)
  x <- pr$xy[, 1]
  y <- pr$xy[, 2]
  args <- list(...)
  fx <- x
  fy <- y
  fx[!pr$front] <- NA
  fy[!pr$front] <- NA
  if (back == "faint" && any(!pr$front)) {
    bx <- x
    by <- y
    bx[pr$front] <- NA
    by[pr$front] <- NA
    bargs <- args
    bargs$col <- faint_col(args$col %||% graphics::par("col"))
    bargs$lty <- 3
    do.call(graphics::lines, c(list(bx, by), bargs))
  }
  do.call(graphics::lines, c(list(fx, fy), args))
}

faint_col <- function(col, alpha = 0.3) {
  rgb <- grDevices::col2rgb(col, alpha = TRUE) / 255
  grDevices::rgb(rgb[1, ], rgb[2, ], rgb[3, ], alpha * rgb[4, ])
}

# Subset per-point graphical arguments (col, pch, cex, bg) to the points
# drawn.
recycle_args <- function(args, keep) {
  n <- length(keep)
  for (nm in intersect(names(args), c("col", "pch", "cex", "bg", "lwd"))) {
    a <- args[[nm]]
    if (length(a) > 1L) args[[nm]] <- rep_len(a, n)[keep]
  }
  args
}

