# Planar landmark shapes.

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
#' @param ... Graphical parameters for the outlines ([graphics::lines()]);
#'   `lwd` and `lty` may give one value per list element (or per shape of
#'   one array), like `col`.
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
#'   `FALSE` for none. The legend is drawn beside the shapes (room is
#'   reserved for it right of them or above them), not over them.
#' @param main Plot title.
#' @return Invisibly, the list of (aligned) configurations drawn.
#' @seealso [simulate_corpus_callosum()], [plot.dp_release()].
#' @examples
#' set.seed(3)
#' cc <- simulate_corpus_callosum(10)
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
  check_required("X")
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
  leg <- if (is.null(legend)) names(groups) else if (isFALSE(legend)) NULL else as.character(legend)
  if (panels) leg <- NULL
  graphics::plot.new()
  lim <- limits_with_legend(range(all[, 1]), range(all[, 2]), leg)
  graphics::plot.window(xlim = lim$xlim, ylim = lim$ylim, asp = 1)
  if (!is.null(main)) graphics::title(main = main)
  lm_cols <- if (gradient) grDevices::hcl.colors(k, "viridis") else NULL
  # lwd and lty: one per group (or per shape of one array), like col
  args <- list(...)
  per_shape <- function(a) if (one_array) rep_len(a, length(flat)) else
    rep(rep_len(a, ng), vapply(groups, length, integer(1)))
  lwds <- per_shape(args$lwd %||% graphics::par("lwd"))
  ltys <- per_shape(args$lty %||% graphics::par("lty"))
  args$lwd <- args$lty <- NULL
  for (i in seq_along(flat)) {
    z <- flat[[i]]
    if (connect) {
      zz <- if (closed) rbind(z, z[1, ]) else z
      do.call(graphics::lines, c(list(zz[, 1], zz[, 2], col = cols[i], lwd = lwds[i], lty = ltys[i]), args))
    }
    if (landmarks) {
      graphics::points(z[, 1], z[, 2], pch = 19, cex = if (gradient) 0.7 else 0.45,
                       col = if (gradient) lm_cols else cols[i])
    }
  }
  if (!is.null(leg)) {
    graphics::legend("topright", legend = leg, col = rep_len(col, length(leg)),
                     lwd = pmax(rep_len(per_group(list(...)$lwd, ng, 2), length(leg)), 1.5),
                     lty = rep_len(per_group(list(...)$lty, ng), length(leg)), bty = "n", cex = 0.85)
  }
  invisible(if (is.null(names(groups)) && ng == 1L) groups[[1]] else groups)
}

# A graphical parameter given per group (recycled), or the device's.
per_group <- function(a, ng, default = 1) rep_len(if (is.null(a)) default else a, ng)

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

