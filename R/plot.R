# Base-graphics plots of manifold-valued data and of private releases: the
# shared imports, state and colours. The pictures, by family: plot_sphere.R,
# plot_spd.R, plot_shapes.R, plot_release.R (plot() of a private mean),
# plot_regression.R (plot() of fits and regression releases).

#' @importFrom graphics axis legend lines par plot.new plot.window points polygon segments text title
#' @importFrom grDevices col2rgb dev.cur hcl.colors rgb
NULL

.dpm_plot <- new.env(parent = emptyenv())

# Colours used throughout: private releases orange, non-private blue (as in
# Kulkarni and Soto, Figure 3), data grey.
.dpm_col <- c(private = "#D55E00", nonprivate = "#0072B2", data = "grey55", center = "grey20")


# --- room for legends --------------------------------------------------------
# Legends are drawn at "topright" (cex 0.85, bty "n") in room reserved for
# them beside the picture, so that they never cover data.

# Width and height in inches of a legend with these labels; estimated from
# the character size when no plot is open yet.
legend_size_in <- function(labels, cex = 0.85) {
  if (!length(labels)) return(c(0, 0))
  # legend(): height (n + 1) character heights, width the text plus about
  # 3.5 character widths for the symbol and spacing; 10% to spare, for the
  # 4% the axes add on each side
  cin <- graphics::par("cin") * cex
  h <- (length(labels) + 1) * cin[2]
  tw <- if (plot_is_open()) max(graphics::strwidth(labels, units = "inches", cex = cex)) else
    max(nchar(labels)) * 0.6 * cin[1]
  1.1 * c(tw + 4 * cin[1], h)
}

# Limits of an asp = 1 picture spanning xlim x ylim, widened right of it or
# above it (whichever shrinks the picture less in the current plot region)
# to hold a legend with these labels.
limits_with_legend <- function(xlim, ylim, labels, cex = 0.85) {
  sz <- legend_size_in(labels, cex)
  if (sz[1] == 0) return(list(xlim = xlim, ylim = ylim))
  pin <- graphics::par("pin")
  dx <- diff(xlim)
  dy <- diff(ylim)
  right <- min(max(0.2 * pin[1], pin[1] - sz[1]) / dx, pin[2] / dy)   # inches per unit
  top <- min(pin[1] / dx, max(0.2 * pin[2], pin[2] - sz[2]) / dy)
  if (right >= top) list(xlim = c(xlim[1], xlim[2] + sz[1] / right), ylim = ylim) else
    list(xlim = xlim, ylim = c(ylim[1], ylim[2] + sz[2] / top))
}

# ylim of a plot without fixed aspect, raised so that a legend of n lines
# fits above the data.
ylim_with_legend <- function(ylim, n, cex = 0.85) {
  if (!n) return(ylim)
  pin <- graphics::par("pin")
  lh <- legend_size_in(rep("x", n), cex)[2]
  c(ylim[1], ylim[2] + diff(ylim) * lh / max(0.3 * pin[2], pin[2] - lh))
}
