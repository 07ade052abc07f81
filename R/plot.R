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

