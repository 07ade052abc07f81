# SPD(2) matrices drawn as ellipses.

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
  check_required("S")
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

