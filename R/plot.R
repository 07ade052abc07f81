# Base-graphics plots of manifold-valued data and of private releases.

#' @importFrom graphics axis legend lines par plot.new plot.window points polygon segments text title
#' @importFrom grDevices col2rgb dev.cur hcl.colors rgb
NULL

.dpm_plot <- new.env(parent = emptyenv())

# Colours used throughout: private releases orange, non-private blue (as in
# Kulkarni and Soto, Figure 3), data grey.
.dpm_col <- c(private = "#D55E00", nonprivate = "#0072B2", data = "grey55", center = "grey20")

# ---------------------------------------------------------------------------
# Sphere S^2: orthographic view
# ---------------------------------------------------------------------------

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

# ---------------------------------------------------------------------------
# SPD(2) as ellipses
# ---------------------------------------------------------------------------

#' Draw 2 x 2 SPD matrices as ellipses
#'
#' Draws each 2 x 2 symmetric positive-definite matrix \eqn{S = U \Lambda
#' U^T} as the ellipse \eqn{\{c + s\,U \Lambda^{1/2} (\cos t, \sin t)\}}
#' centred at `c`, whose axes are the square roots of the eigenvalues along
#' the eigenvectors (the covariance ellipse of a unit Gaussian), scaled by a
#' common factor `s`. Placed along a covariate this shows a geodesic of
#' `spd(2)`, as in Kulkarni and Soto (DP geodesic regression, Figure 8, where
#' non-private fits are blue and private ones magenta); overlay a second set
#' with `add = TRUE`. Ellipses show eigenvalues and orientation, but
#' ellipses that look alike can be far apart in the affine-invariant metric.
#'
#' @param S A 2 x 2 matrix or a 2 x 2 x n array of SPD matrices (larger
#'   matrices: the sub-block given by `which`).
#' @param centers Where to draw the ellipses: a vector of n x positions
#'   (e.g. the covariate; y is 0), or an n x 2 matrix of centres. By default
#'   1, 2, ..., n.
#' @param ... Graphical parameters for [graphics::polygon()] (`border`,
#'   `col` for the fill, `lwd`, `lty`).
#' @param scale Common scale factor of the ellipses. By default the largest
#'   ellipse fills 45% of the smallest distance between centres; with
#'   `add = TRUE` the scale of the previous call is reused so both sets are
#'   comparable.
#' @param which For k x k matrices with k > 2: the two rows/columns whose
#'   2 x 2 block is drawn (a marginal covariance).
#' @param add Add to the current plot instead of starting a new one.
#' @param labels Optional text drawn under each ellipse.
#' @param axes,xlab,ylab,main Passed to the new plot.
#' @return Invisibly, the scale used (so a later `add = TRUE` call can pass
#'   it on).
#' @seealso [eustock_covariances()], [plot.dp_release()].
#' @examples
#' P <- spd(2)
#' p <- diag(c(2, 0.5))
#' v <- matrix(c(0.5, 0.6, 0.6, -0.4), 2)
#' x <- seq(0, 1, length.out = 6)
#' path <- mfd_exp(P, p, array(outer(as.vector(v), x), c(2, 2, 6)))
#' s <- plot_spd_ellipses(path, centers = x, border = "blue", lwd = 2, xlab = "x")
#' noisy <- mfd_exp(P, p, array(outer(as.vector(1.2 * v), x), c(2, 2, 6)))
#' plot_spd_ellipses(noisy, centers = x, add = TRUE, border = "magenta", lwd = 2)
#' @export
plot_spd_ellipses <- function(S, centers = NULL, ..., scale = NULL, which = 1:2, add = FALSE, labels = NULL,
                              axes = TRUE, xlab = "", ylab = "", main = NULL) {
  check_flag(add, "add")
  if (add && !plot_is_open()) {
    abort_arg("add", "is TRUE but no plot is open; draw the first set with add = FALSE")
  }
  if (!is.numeric(S) || !(length(dim(S)) %in% 2:3) || dim(S)[1] != dim(S)[2] || any(!is.finite(S))) {
    abort_arg("S", "must be a k x k matrix or a k x k x n array of SPD matrices")
  }
  k <- dim(S)[1]
  if (length(dim(S)) == 2L) S <- array(S, c(k, k, 1L))
  ok <- is.numeric(which) && length(which) == 2L && all(which %in% seq_len(k)) && which[1] != which[2]
  if (!ok) abort_arg("which", sprintf("must be two distinct indices in 1:%d", k))
  S <- S[which, which, , drop = FALSE]
  n <- dim(S)[3]
  eig <- lapply(seq_len(n), function(i) eigen((S[, , i] + t(S[, , i])) / 2, symmetric = TRUE))
  if (any(vapply(eig, function(e) min(e$values) <= 0, logical(1)))) abort_arg("S", "must hold positive-definite matrices")
  if (is.null(centers)) centers <- seq_len(n)
  C <- if (is.null(dim(centers))) cbind(as.numeric(centers), 0) else centers
  if (!is.numeric(C) || length(dim(C)) != 2L || nrow(C) != n || ncol(C) != 2L || any(!is.finite(C))) {
    abort_arg("centers", sprintf("must be %d x positions or a %d x 2 matrix of centres", n, n))
  }
  radius <- vapply(eig, function(e) sqrt(e$values[1]), numeric(1))
  if (is.null(scale)) {
    if (add && !is.null(.dpm_plot$spd_scale)) {
      scale <- .dpm_plot$spd_scale
    } else {
      gap <- if (n > 1L) min(stats::dist(C)) else 2 * max(radius)
      if (gap <= 0) gap <- 2 * max(radius)
      scale <- 0.45 * gap / max(radius)
    }
  }
  check_positive_number(scale, "scale")
  .dpm_plot$spd_scale <- scale
  tt <- seq(0, 2 * pi, length.out = 121)
  circ <- rbind(cos(tt), sin(tt))
  shapes <- lapply(seq_len(n), function(i) {
    e <- eig[[i]]
    E <- scale * e$vectors %*% (sqrt(e$values) * circ)
    cbind(E[1, ] + C[i, 1], E[2, ] + C[i, 2])
  })
  if (!add) {
    all <- do.call(rbind, shapes)
    graphics::plot.new()
    graphics::plot.window(xlim = range(all[, 1]), ylim = range(all[, 2]) + c(if (is.null(labels)) 0 else -0.15 * diff(range(all[, 2])), 0),
                          asp = 1)
    if (axes) graphics::axis(1)
    graphics::title(main = main, xlab = xlab, ylab = ylab)
  }
  args <- list(...)
  if (is.null(args$border)) args$border <- graphics::par("fg")
  for (i in seq_len(n)) {
    do.call(graphics::polygon, c(list(shapes[[i]][, 1], shapes[[i]][, 2]), recycle_one(args, i)))
  }
  if (!is.null(labels)) {
    lab <- rep_len(as.character(labels), n)
    low <- vapply(shapes, function(s) min(s[, 2]), numeric(1))
    graphics::text(C[, 1], low, lab, pos = 1, cex = 0.8)
  }
  invisible(scale)
}

# Element i of per-ellipse graphical arguments.
recycle_one <- function(args, i) {
  for (nm in intersect(names(args), c("col", "border", "lwd", "lty", "density"))) {
    a <- args[[nm]]
    if (length(a) > 1L) args[[nm]] <- a[(i - 1L) %% length(a) + 1L]
  }
  args
}

# ---------------------------------------------------------------------------
# Planar shapes
# ---------------------------------------------------------------------------

#' Plot planar landmark shapes
#'
#' Draws landmark configurations (outlines) in the layout of the `shapes`
#' package and of [kendall_shape()]: one k x 2 matrix, a k x 2 x n array, or
#' a named list of these (one colour per element, with a legend). Several
#' shapes are overlaid, optionally after Procrustes alignment to a common
#' target so that only their shapes differ, or laid out side by side. This is
#' the picture of the corpus callosum samples, their Frechet mean and its
#' private versions in Soto et al. (2022, Figure 2; the landmark order shown
#' by a colour gradient from blue to yellow) and of Kulkarni and Soto (DP
#' geodesic regression, Figure 3, non-private blue vs private orange).
#'
#' @param X A k x 2 matrix, a k x 2 x n array, or a (named) list of them.
#' @param ... Graphical parameters for the outlines ([graphics::lines()]:
#'   `lwd`, `lty`).
#' @param aligned_to `NULL` (draw the coordinates as given), `"first"`
#'   (align every shape to the first one), or a k x 2 configuration to align
#'   to. When aligning, every configuration is first made a preshape
#'   (centred, unit size, [as_preshape()]) and rotated onto the target's
#'   preshape ([align_shapes()]).
#' @param connect Join the landmarks by lines.
#' @param closed Close the outline (join the last landmark to the first).
#' @param col Colours: one per list element (or per shape when `X` is an
#'   array). Default: a qualitative palette, or for a list with elements
#'   named `private`/`nonprivate` the package's colours.
#' @param landmarks Draw the landmarks as points.
#' @param gradient Colour the landmarks by their index, from blue to yellow,
#'   to show the labelling (as in Soto et al. 2022, Figure 2, left).
#' @param panels Draw each shape in its own cell of a grid instead of
#'   overlaying them (`ncol` columns).
#' @param ncol Number of columns of the grid when `panels = TRUE`.
#' @param legend Legend labels (default: the names of the list, if any);
#'   `FALSE` for none.
#' @param main Plot title.
#' @return Invisibly, the list of (aligned) configurations drawn.
#' @seealso [simulate_corpus_callosum()], [plot.dp_release()].
#' @examples
#' cc <- simulate_corpus_callosum(10, seed = 3)
#' plot_shapes(cc$shapes, aligned_to = "first", gradient = TRUE)
#' M <- kendall_shape(50)
#' mean_shape <- frechet_mean(M, cc$shapes)$mean
#' plot_shapes(list(subject = cc$shapes[, , 1], `Frechet mean` = mean_shape),
#'             aligned_to = mean_shape, lwd = 2)
#' plot_shapes(cc$shapes[, , 1:6], panels = TRUE, ncol = 3, aligned_to = "first")
#' @export
plot_shapes <- function(X, ..., aligned_to = NULL, connect = TRUE, closed = TRUE, col = NULL,
                        landmarks = TRUE, gradient = FALSE, panels = FALSE, ncol = NULL,
                        legend = NULL, main = NULL) {
  groups <- shape_groups(X)
  k <- nrow(groups[[1]][[1]])
  if (any(vapply(groups, function(g) any(vapply(g, nrow, integer(1)) != k), logical(1)))) {
    abort_arg("X", "must hold configurations with the same number of landmarks")
  }
  if (!is.null(aligned_to)) {
    target <- if (identical(aligned_to, "first")) groups[[1]][[1]] else aligned_to
    if (!is.numeric(target) || !identical(dim(target), c(k, 2L))) {
      abort_arg("aligned_to", sprintf("must be NULL, \"first\" or a %d x 2 configuration", k))
    }
    M <- kendall_shape(k)
    cl <- sys.call()
    t0 <- tryCatch(as_preshape(target), dpmanifold_error = function(e) {
      abort_arg("aligned_to", sub("^`X` ", "", sub(" at index 1$", "", conditionMessage(e))), call = cl)
    })
    groups <- lapply(groups, function(g) lapply(g, function(z) align_shapes(M, as_preshape(z), t0)))
  }
  ng <- length(groups)
  one_array <- ng == 1L && is.null(names(groups)) && length(groups[[1]]) > 1L
  if (is.null(col)) {
    nm <- names(groups)
    col <- if (one_array) {
      grDevices::hcl.colors(length(groups[[1]]), "Dark 3")
    } else if (!is.null(nm) && all(nm %in% c("private", "nonprivate", "non-private", "data", "center"))) {
      unname(.dpm_col[sub("non-private", "nonprivate", nm)])
    } else if (ng == 1L) {
      graphics::par("fg")
    } else {
      grDevices::hcl.colors(ng, "Dark 3")
    }
  }
  # One colour per drawn configuration.
  flat <- unlist(groups, recursive = FALSE, use.names = FALSE)
  cols <- if (one_array) rep_len(col, length(flat)) else rep(rep_len(col, ng), vapply(groups, length, integer(1)))
  if (panels) {
    nf <- length(flat)
    ncol <- if (is.null(ncol)) ceiling(sqrt(nf)) else check_count(ncol, "ncol")
    span <- max(vapply(flat, function(z) max(diff(range(z[, 1])), diff(range(z[, 2]))), numeric(1)))
    for (i in seq_len(nf)) {
      z <- flat[[i]]
      ctr <- c(mean(range(z[, 1])), mean(range(z[, 2])))
      off <- c(((i - 1L) %% ncol) * 1.15 * span, -((i - 1L) %/% ncol) * 1.15 * span)
      flat[[i]] <- sweep(z, 2L, ctr - off)
    }
  }
  all <- do.call(rbind, flat)
  graphics::plot.new()
  graphics::plot.window(xlim = range(all[, 1]), ylim = range(all[, 2]), asp = 1)
  if (!is.null(main)) graphics::title(main = main)
  lm_cols <- if (gradient) grDevices::hcl.colors(k, "viridis") else NULL
  for (i in seq_along(flat)) {
    z <- flat[[i]]
    if (connect) {
      zz <- if (closed) rbind(z, z[1, ]) else z
      graphics::lines(zz[, 1], zz[, 2], col = cols[i], ...)
    }
    if (landmarks) {
      graphics::points(z[, 1], z[, 2], pch = 19, cex = if (gradient) 0.7 else 0.45,
                       col = if (gradient) lm_cols else cols[i])
    }
  }
  leg <- if (is.null(legend)) names(groups) else if (isFALSE(legend)) NULL else as.character(legend)
  if (!is.null(leg) && !panels) {
    graphics::legend("topright", legend = leg, col = rep_len(col, length(leg)), lwd = 2, bty = "n", cex = 0.85)
  }
  invisible(if (is.null(names(groups)) && ng == 1L) groups[[1]] else groups)
}

# A list (one element per group) of lists of k x 2 matrices.
shape_groups <- function(X) {
  as_list <- function(a, arg) {
    if (!is.numeric(a) || any(!is.finite(a))) abort_arg(arg, "must be numeric landmark coordinates without NA")
    d <- dim(a)
    if (length(d) == 2L && d[2] == 2L) return(list(unname(a)))
    if (length(d) == 3L && d[2] == 2L) return(lapply(seq_len(d[3]), function(i) unname(a[, , i])))
    abort_arg(arg, "must be a k x 2 matrix or a k x 2 x n array (or a list of them)")
  }
  if (is.list(X)) {
    if (!length(X)) abort_arg("X", "must not be an empty list")
    out <- lapply(seq_along(X), function(i) as_list(X[[i]], sprintf("X[[%d]]", i)))
    names(out) <- names(X)
    return(out)
  }
  list(as_list(X, "X"))
}

# ---------------------------------------------------------------------------
# plot() for private releases
# ---------------------------------------------------------------------------

#' Plot a private release
#'
#' Draws the natural picture of a [dp_release] on its manifold: the private
#' estimate (orange), the non-private estimate if the release holds one
#' (`return_nonprivate = TRUE`; blue) and the public centre of the bounds
#' (grey), optionally over the data.
#' * `sphere(2)`: orthographic view with the public ball's boundary
#'   ([plot_sphere()]), as in Reimherr, Bharath and Soto (2021, Figure 2);
#'   `sphere(1)`: the unit circle.
#' * `spd(k)`: the matrices as ellipses overlaid at one place (for k > 2 the
#'   block `which`), as in Kulkarni and Soto (Figure 8).
#' * `kendall_shape(k)`: the outlines, aligned to the non-private mean (or
#'   the centre), as in Soto et al. (2022, Figure 2).
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
#'                        mcmc = mcmc_control(burnin = 500, steps = 500),
#'                        return_nonprivate = TRUE)
#' plot(rel, data = X)
#' cc <- simulate_corpus_callosum(40, seed = 1)
#' M <- kendall_shape(50)
#' ctr <- frechet_mean(M, cc$shapes)$mean  # in practice a public template
#' rel2 <- dp_frechet_mean(M, cc$shapes, epsilon = 1, center = ctr, radius = 0.3,
#'                         mcmc = mcmc_control(burnin = 500, steps = 500),
#'                         return_nonprivate = TRUE)
#' plot(rel2)
#' # A private geodesic regression against the non-private fit
#' x <- runif(100)
#' truth <- mfd_exp(S2, north, outer(x, c(0.6, 0.3, 0)))
#' y <- mfd_exp(S2, truth, 0.05 * mfd_random_tangent(S2, truth, 100))
#' mid <- mfd_exp(S2, north, c(0.3, 0.15, 0))
#' rel3 <- dp_geodesic_regression(S2, x, y, epsilon = 2, tau = 0.2, center = mid,
#'                                radius = 0.6, x_range = c(0, 1),
#'                                mcmc = mcmc_control(burnin = 500, steps = 500),
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

release_labels <- c(center = "public centre", nonprivate = "non-private", private = "private")

release_legend <- function(which, legend, pch = NULL, lwd = NULL, lty = NULL) {
  if (!legend) return(invisible())
  graphics::legend("topright", legend = release_labels[which], col = .dpm_col[which], pch = pch, lwd = lwd,
                   lty = lty, bty = "n", cex = 0.85)
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
  args <- list(...)
  lab <- if (M$dim > 2L) sprintf(" (of %d)", M$dim) else ""
  base <- list(x = lim, type = "n", asp = 1, xlab = paste0("normal coordinate 1 at the public centre", lab),
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
  release_legend(names(pts), legend, pch = ifelse(names(pts) == "center", 3, 19))
}

#' @export
plot_release_mean.sphere <- function(M, x, data, legend, ...) {
  pts <- release_points(x)
  if (M$size == 1L) {
    tt <- seq(0, 2 * pi, length.out = 361)
    graphics::plot(cos(tt), sin(tt), type = "l", asp = 1, col = "grey40", axes = FALSE, xlab = "", ylab = "", ...)
    if (!is.null(data)) graphics::points(mfd_to_rows(M, data), col = .dpm_col["data"], pch = 16, cex = 0.6)
    ctr <- x$bounds$center
    a0 <- atan2(ctr[2], ctr[1])
    arc <- seq(a0 - x$bounds$radius, a0 + x$bounds$radius, length.out = 100)
    graphics::lines(cos(arc), sin(arc), col = .dpm_col["center"], lwd = 3)
    for (nm in names(pts)) graphics::points(pts[[nm]][1], pts[[nm]][2], pch = 19, col = .dpm_col[nm], cex = 1.3)
    release_legend(names(pts), legend, pch = 19)
    return(invisible())
  }
  if (M$size != 2L) return(NextMethod())   # S^d, d > 2: normal coordinates
  ctr <- x$bounds$center
  args <- list(...)
  if (is.null(args$view)) args$view <- c(asin(max(-1, min(1, ctr[3]))), atan2(ctr[2], ctr[1])) * 180 / pi
  do.call(plot_sphere, c(list(X = data, col = .dpm_col["data"], pch = 16, cex = 0.7), args))
  # Boundary of the public ball: the circle of geodesic radius r around
  # the centre.
  S2 <- sphere(2)
  B <- mfd_tangent_basis(S2, ctr)
  tt <- seq(0, 2 * pi, length.out = 181)
  V <- x$bounds$radius * (outer(cos(tt), B[1, ]) + outer(sin(tt), B[2, ]))
  circle <- mfd_exp(S2, ctr, V)
  sphere_draw_path(circle, .dpm_plot$sphere$basis, .dpm_plot$sphere$back, col = .dpm_col["center"], lty = 2)
  for (nm in names(pts)) points_sphere(pts[[nm]], pch = if (nm == "center") 3 else 19, col = .dpm_col[nm], cex = 1.3)
  release_legend(names(pts), legend, pch = ifelse(names(pts) == "center", 3, 19))
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
  if (!is.null(D)) {
    plot_spd_ellipses(D, centers = matrix(0, dim(D)[3], 2), scale = s, which = which,
                      border = faint_col(.dpm_col["data"], 0.6), axes = FALSE, main = ttl, ...)
  }
  first <- is.null(D)
  for (i in seq_along(pts)) {
    plot_spd_ellipses(pts[[i]], centers = matrix(0, 1, 2), scale = s, which = which, add = !first,
                      border = .dpm_col[names(pts)[i]], lwd = if (names(pts)[i] == "center") 1.5 else 2.5,
                      lty = if (names(pts)[i] == "center") 2 else 1, axes = FALSE, main = if (first) ttl, ...)
    first <- FALSE
  }
  release_legend(names(pts), legend, lwd = 2, lty = ifelse(names(pts) == "center", 2, 1))
}

#' @export
plot_release_mean.kendall_shape <- function(M, x, data, legend, ...) {
  pts <- release_points(x)
  target <- if (!is.null(x$nonprivate$frechet_mean)) x$nonprivate$frechet_mean else x$bounds$center
  shp <- pts[rev(names(pts))]
  shp <- shp[names(shp) != "center" | is.null(x$nonprivate$frechet_mean)]
  if (!is.null(data)) {
    Z <- align_shapes(M, as_data_preshapes(M, data), as_preshape(target))
    shp <- c(list(data = Z), shp)
  }
  col <- unname(.dpm_col[names(shp)])
  names(shp) <- ifelse(names(shp) %in% names(release_labels), release_labels[names(shp)], names(shp))
  plot_shapes(shp, aligned_to = target, col = col, legend = if (legend) names(shp) else FALSE, lwd = 2, ...)
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
  graphics::plot(lim, type = "n", asp = 1, xlab = if (M$size > 1L) "coordinate 1" else "x",
                 ylab = if (M$size > 1L) "coordinate 2" else "", ...)
  if (!is.null(D)) graphics::points(D, col = .dpm_col["data"], pch = 16, cex = 0.6)
  tt <- seq(0, 2 * pi, length.out = 181)
  if (M$size == 2L) {
    graphics::lines(ctr[1] + r * cos(tt), ctr[2] + r * sin(tt), col = .dpm_col["center"], lty = 2)
  } else {
    graphics::segments(ctr[1] - r, 0, ctr[1] + r, 0, col = .dpm_col["center"], lty = 2)
  }
  graphics::points(P, pch = ifelse(names(pts) == "center", 3, 19), col = .dpm_col[names(pts)], cex = 1.3)
  release_legend(names(pts), legend, pch = ifelse(names(pts) == "center", 3, 19))
}

mfd_to_rows <- function(M, data) if (is.null(dim(data))) matrix(data, 1L) else data

as_data_preshapes <- function(M, data) {
  if (length(dim(data)) == 2L) data <- array(data, c(dim(data), 1L))
  as_preshape(data)
}

# ---------------------------------------------------------------------------
# plot() for geodesic regressions (fits and private releases)
# ---------------------------------------------------------------------------

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
#'   SPD, `main` otherwise.
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
#' cc <- simulate_corpus_callosum(40, seed = 2)
#' fit <- geodesic_regression(kendall_shape(50), cc$covariates$age, cc$shapes)
#' plot(fit)
#'
#' plot(geodesic_regression(euclidean(1), x, 1 + 2 * x + rnorm(60, sd = 0.2)))
#' @export
plot.geodesic_regression <- function(x, ..., at = NULL, data = TRUE, legend = TRUE) {
  check_fields(x, "geodesic_regression", c("manifold", "coef", "x_range", "x", "y"))
  check_flag(legend, "legend")
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
                   lwd = c(rep(lwd, length(nm)), rep(NA, length(extra))),
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
                                        bounds = NULL) {
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
    graphics::plot(range(c(xs, data$x)), yl, type = "n", xlab = "x",
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
  args <- list(...)
  if (is.null(args$view)) {
    mid <- predict_geodesic(M, curves[[1]]$p, curves[[1]]$v, x_range, mean(x_range))
    args$view <- c(asin(max(-1, min(1, mid[3]))), atan2(mid[2], mid[1])) * 180 / pi
  }
  Y <- if (is.null(data)) NULL else data$y
  dcol <- if (is.null(data)) NULL else covariate_greys(data$x, x_range)
  do.call(plot_sphere, c(list(X = Y, col = dcol, pch = 16, cex = 0.7), args))
  st <- .dpm_plot$sphere
  if (!is.null(bounds)) {
    S2 <- sphere(2)
    B <- mfd_tangent_basis(S2, bounds$center)
    tt <- seq(0, 2 * pi, length.out = 181)
    circle <- mfd_exp(S2, bounds$center, bounds$radius * (outer(cos(tt), B[1, ]) + outer(sin(tt), B[2, ])))
    sphere_draw_path(circle, st$basis, st$back, col = .dpm_col["center"], lty = 2)
    points_sphere(bounds$center, pch = 3, col = .dpm_col["center"], cex = 1.2)
  }
  for (nm in names(curves)) {
    cv <- curves[[nm]]
    lines_sphere(cv$p, v = cv$v, t_range = c(0, 1), col = regression_cols[[nm]], lwd = 2.5)
    ends <- predict_geodesic(M, cv$p, cv$v, x_range, x_range)
    points_sphere(ends, pch = c(19, 21), bg = "white", col = regression_cols[[nm]], cex = 1.3, lwd = 2)
  }
  ext <- c(sprintf("x = %s", fmt_num(x_range)), if (!is.null(data)) "data (darker: larger x)",
           if (!is.null(bounds)) "public ball")
  regression_legend(curves, legend, extra = ext,
                    extra_col = c(.dpm_col["center"], .dpm_col["center"], if (!is.null(data)) "grey45",
                                  if (!is.null(bounds)) .dpm_col["center"]),
                    extra_pch = c(19, 21, if (!is.null(data)) 16, if (!is.null(bounds)) 3))
}

# S^1: the angle of the data and of the fits against the covariate.
plot_regression_circle <- function(M, curves, x_range, data, legend, ..., main = NULL) {
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
  graphics::plot(range(c(xs, data$x)), range(c(unlist(paths), dy)), type = "n", xlab = "x",
                 ylab = "angle (radians)", main = main)
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
                                    bounds = NULL) {
  k <- M$size
  if (k < 2L) return(NextMethod())   # spd(1): normal coordinates
  ok <- is.numeric(which) && length(which) == 2L && all(which %in% seq_len(k)) && which[1] != which[2]
  if (!ok) abort_arg("which", sprintf("must be two distinct indices in 1:%d", k))
  at <- regression_at(at, x_range, 5L)
  fits <- lapply(curves, function(cv) {
    S <- predict_geodesic(M, cv$p, cv$v, x_range, at)
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
  graphics::plot.window(xlim = xlim, ylim = ylim, asp = 1)
  graphics::axis(1)
  ttl <- main %||% if (k > 2L) sprintf("rows/columns %d and %d", which[1], which[2])
  graphics::title(main = ttl, xlab = "x")
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
    S <- predict_geodesic(M, cv$p, cv$v, x_range, at)
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
    graphics::plot.window(xlim = range(xy[, 1]), ylim = range(xy[, 2]), asp = 1)
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
  graphics::plot.window(xlim = range(xy[, 1]), ylim = range(xy[, 2]) - c(0.12 * span, 0), asp = 1)
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
                                          bounds = NULL) {
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
    graphics::plot(range(c(xs, data$x)), yl, type = "n", xlab = "x", ylab = if (d > 1L) sprintf("coordinate %d", j) else "y",
                   main = if (j == 1L) main)
    if (!is.null(Y)) graphics::points(data$x, Y[, j], pch = 16, col = .dpm_col["data"], cex = 0.7)
    for (nm in names(curves)) graphics::lines(xs, lines_y[[nm]][, j], col = regression_cols[[nm]], lwd = 2.5)
    if (j == 1L) regression_legend(curves, legend, pos = free_corner(lines_y[[1]][, 1]))
  }
}
