# Pictures of the sphere S^2 (orthographic view).


#' Plot points and geodesics on the sphere
#'
#' `plot_sphere()` draws directions on \eqn{S^2} in an orthographic view (the
#' sphere seen from far away above the point `view`) with a graticule of
#' parallels and meridians; `points_sphere()` and `lines_sphere()` add points
#' and geodesic segments to it. This is the picture of the sphere
#' simulations in Reimherr, Bharath and Soto (2021, Figure 2) and of the
#' sphere regression in Kulkarni and Soto (DP geodesic regression, Figure 2).
#'
#' **Framing and scale.** By default the view is zoomed onto the data: the
#' cap of geodesic radius `extent` around `view` that holds every point of
#' `X` (with a margin) fills the plotting region. Data spread over more than
#' about a third of the sphere (`extent` above 1 radian) are shown on the
#' whole globe, where points on the far hemisphere are drawn faintly (or not
#' at all, `back = "hide"`); a zoomed view shows the near side only. A scale
#' bar under the picture gives a geodesic length in radians (and degrees);
#' it is exact at the centre of the view (the orthographic view shortens
#' distances towards its rim, by the factor \eqn{\cos\theta} in the radial
#' direction at angle \eqn{\theta} from the centre). The graticule spacing
#' is chosen to suit the zoom unless given.
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
#'   to 90 (0 for none). By default 1, 2, 5, 10, 15 or 30 degrees, so that
#'   a few lines cross the view.
#' @param back How to draw what lies on the far hemisphere of the whole
#'   globe: `"faint"` (lighter colour, dotted lines) or `"hide"`.
#' @param main Plot title.
#' @param extent Geodesic radius (radians, in (0, pi/2]) of the cap around
#'   `view` that fills the plot; `pi / 2` shows the whole globe (the
#'   picture of earlier versions). By default the smallest cap that holds
#'   `X`, with a margin, or the whole globe when that cap is wider than 1
#'   radian.
#' @param scale_bar Draw a scale bar (geodesic length at the centre of the
#'   view) under the picture.
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
#' plot_sphere(X, col = "grey40")           # zoomed onto the data, with a scale bar
#' lines_sphere(p, v = c(0.3, 0, 0), col = "red", lwd = 2)
#' points_sphere(p, pch = 19, col = "red")
#' # the whole globe, seen from 60 degrees north
#' plot_sphere(X, view = c(60, 20), extent = pi / 2, col = "grey40")
#' lines_sphere(c(1, 0, 0), q = c(0, 1, 0), col = "blue", lwd = 2)
#' # earthquakes near Fiji: a cap of about 0.3 radians
#' plot_sphere(quakes_directions()$directions, pch = ".", col = "grey30")
#' @export
plot_sphere <- function(X = NULL, ..., view = NULL, graticule = NULL, back = c("faint", "hide"),
                        main = NULL, extent = NULL, scale_bar = TRUE) {
  back <- check_choice(back)
  P <- if (is.null(X)) NULL else sphere_points(X, "X")
  sphere_canvas(P, view = view, graticule = graticule, back = back, main = main, extent = extent,
                scale_bar = scale_bar)
  xy <- if (!is.null(P)) points_sphere(P, ...) else matrix(numeric(0), 0, 2)
  invisible(xy)
}

# The view of plot_sphere() without the data: chooses the view centre, the
# zoom (`extent`) and the graticule, sets up the window and draws the globe,
# graticule and scale bar. `frame` holds further points (rows) that the
# automatic zoom keeps in view (a public ball, fitted curves);
# `legend` holds the labels of a legend the caller draws at "topright"
# (with cex 0.85): room is reserved for it right of the picture, so that it
# never covers the data.
sphere_canvas <- function(P, view = NULL, graticule = NULL, back = "faint", main = NULL, extent = NULL,
                          scale_bar = TRUE, frame = NULL, legend = NULL) {
  if (is.null(view)) {
    m <- if (is.null(P)) c(0, 0, 1) else colMeans(P)
    if (sqrt(sum(m^2)) < 1e-8) m <- c(0, 0, 1)
    m <- m / sqrt(sum(m^2))
    view <- c(asin(max(-1, min(1, m[3]))), atan2(m[2], m[1])) * 180 / pi
  }
  ok <- is.numeric(view) && length(view) == 2L && all(is.finite(view))
  if (!ok) abort_arg("view", "must be c(latitude, longitude) in degrees", call = sys.call(-1))
  if (!is.null(graticule) &&
        (!is_scalar_number(graticule) || !(graticule == 0 || (graticule >= 1 && graticule <= 90)))) {
    # at most 540 lines (1 degree)
    abort_arg("graticule", "must be 0 (no graticule) or a spacing between 1 and 90 degrees", call = sys.call(-1))
  }
  if (!is.null(extent) && (!is_scalar_number(extent) || !(extent > 0 && extent <= pi / 2))) {
    abort_arg("extent", "must be a geodesic radius in radians, above 0 and at most pi / 2 (the whole globe)",
              call = sys.call(-1))
  }
  check_flag(scale_bar, "scale_bar")
  basis <- sphere_view_basis(view)
  if (is.null(extent)) extent <- sphere_auto_extent(rbind(P, frame), basis[, "c"])
  zoomed <- extent < pi / 2
  h <- if (zoomed) sin(extent) else 1.05     # half-width of the framed square
  if (is.null(graticule)) graticule <- sphere_graticule_step(extent)
  .dpm_plot$sphere <- list(basis = basis, back = if (zoomed) "hide" else back, zoomed = zoomed, half = h)
  graphics::plot.new()
  # Reserve room (in inches) beside the framed square for a legend and
  # under it for the scale bar; asp = 1 then fixes the units per inch.
  # The legend goes right of the picture or above it, whichever leaves the
  # larger picture.
  pin <- graphics::par("pin")
  leg <- legend_size_in(legend)
  bar_in <- if (scale_bar) 0.32 else 0
  side <- max(0.5, min(pin[2] - bar_in, pin[1] - leg[1]))      # inches of the square, legend right
  above <- max(0.5, min(pin[2] - bar_in - leg[2], pin[1]))       # legend above
  right <- side >= above
  per_in <- 2 * h / if (right) side else above
  graphics::plot.window(xlim = c(-h, h + if (right) leg[1] * per_in else 0),
                        ylim = c(-h - bar_in * per_in, h + if (right) 0 else leg[2] * per_in), asp = 1)
  usr <- graphics::par("usr")
  # (the device and the user coordinates that later points_sphere() and
  # lines_sphere() calls must still find: another device, or another plot
  # on this one, is no sphere plot)
  .dpm_plot$sphere$device <- grDevices::dev.cur()
  .dpm_plot$sphere$usr <- usr
  graphics::clip(-h, h, -h, h)
  tt <- seq(0, 2 * pi, length.out = 361)
  graphics::polygon(cos(tt), sin(tt), col = "grey97", border = NA)
  if (graticule > 0) sphere_graticule(basis, view, graticule, extent)
  graphics::lines(cos(tt), sin(tt), col = "grey40")
  graphics::clip(usr[1], usr[2], usr[3], usr[4])
  if (zoomed) graphics::rect(-h, -h, h, h, border = "grey60")
  if (scale_bar) sphere_scale_bar(h, bar_in * per_in, graticule)
  if (!is.null(main)) graphics::title(main = main)
  invisible(extent)
}

# The smallest cap around the view centre `cvec` that holds the points, with
# a margin; the whole globe (pi / 2) once that cap is wider than 1 radian.
sphere_auto_extent <- function(P, cvec) {
  if (is.null(P) || !nrow(P)) return(pi / 2)
  th <- max(acos(pmin(1, pmax(-1, P %*% cvec))))
  th <- max(1.1 * th + 0.005, 0.02)
  if (th > 1) pi / 2 else th
}

# A round graticule step (degrees) that puts a few lines across the view.
sphere_graticule_step <- function(extent) {
  steps <- c(1, 2, 5, 10, 15, 30)
  want <- 2 * extent * 180 / pi / 6          # about six lines across the view
  max(steps[steps <= want], 1)
}

# Parallels and meridians every `step` degrees, sampled over the part of the
# sphere the view shows (the whole sphere, or the cap that covers the
# framed square).
sphere_graticule <- function(basis, view, step, extent) {
  col <- "grey80"
  lat_rng <- c(-90, 90)
  lon_rng <- c(-180, 180)
  if (extent < pi / 2) {
    rho <- asin(min(1, sqrt(2) * sin(extent))) * 180 / pi + step   # the square's corners, and a line more
    lat_rng <- c(max(-90, view[1] - rho), min(90, view[1] + rho))
    if (abs(view[1]) + rho < 90) {
      dlon <- asin(min(1, sin(rho * pi / 180) / cos(view[1] * pi / 180))) * 180 / pi + step
      lon_rng <- view[2] + c(-1, 1) * min(180, dlon)
    }
  }
  on_grid <- function(rng, lo, hi) {
    g <- seq(ceiling(rng[1] / step), floor(rng[2] / step)) * step
    g[g > lo & g < hi]
  }
  to_xyz <- function(lat, lon) {
    lat <- lat * pi / 180
    lon <- lon * pi / 180
    cbind(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
  }
  lon_s <- seq(lon_rng[1], lon_rng[2], length.out = 361)
  for (lat in on_grid(lat_rng, -90, 90)) sphere_draw_path(to_xyz(lat, lon_s), basis, "hide", col = col, lwd = 0.7)
  lat_s <- seq(lat_rng[1], lat_rng[2], length.out = 181)
  meridians <- if (diff(lon_rng) >= 360) seq(0, 360 - step, by = step) else on_grid(lon_rng, -Inf, Inf)
  for (lon in meridians) sphere_draw_path(to_xyz(lat_s, lon), basis, "hide", col = col, lwd = 0.7)
}

# A bar of a round geodesic length (exact at the centre of the view, where
# the orthographic view is a local isometry) under the framed square.
sphere_scale_bar <- function(h, room, graticule) {
  target <- 0.4 * h
  cand <- c(1, 2, 5) * rep(10^(-3:0), each = 3)
  len <- max(cand[cand <= target], cand[1])
  y <- -h - 0.55 * room
  x0 <- -h
  graphics::segments(x0, y, x0 + len, y, lwd = 2, lend = 1, xpd = NA)
  graphics::segments(c(x0, x0 + len), y - 0.12 * room, c(x0, x0 + len), y + 0.12 * room, lwd = 1, xpd = NA)
  deg <- format(signif(len * 180 / pi, 2))
  lab <- if (graticule > 0) {
    bquote("  " * .(format(len)) ~ "rad (" * .(deg) * degree * "), grid" ~ .(format(graticule)) * degree)
  } else {
    bquote("  " * .(format(len)) ~ "rad (" * .(deg) * degree * ")")
  }
  graphics::text(x0 + len, y, lab, adj = c(0, 0.5), cex = 0.75, xpd = NA)
}

#' @rdname plot_sphere
#' @export
points_sphere <- function(X, ...) {
  check_required("X")
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
  check_required("p")
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
  open <- !is.null(st) && plot_is_open() && identical(st$device, grDevices::dev.cur()) &&
    isTRUE(all.equal(graphics::par("usr"), st$usr))
  if (!open) {
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

