#' The low-utility warning
#'
#' A Frechet-mean mechanism predicts its error from public quantities only
#' (the manifold's dimension d, the law and its scale sigma; flat
#' approximation): about \eqn{d\sigma} for the Laplace-type laws,
#' \eqn{\sigma\sqrt d} for the Gaussian one. When that prediction is at
#' least the public radius, the noise fills the public ball and the release
#' is no better than releasing the public centre, which costs no privacy at
#' all: the package then signals a warning of class `dpmanifold_low_utility`
#' (from [frechet_mechanism()] and [dp_frechet_mean()]). A regression
#' mechanism ([regression_mechanism()], [dp_geodesic_regression()], methods
#' `"gauss_newton"` and `"tangent"`) predicts the root mean square shift of
#' its line over an even design and weighs it against the public domain's,
#' \eqn{\sqrt{R^2 + V^2/12}} for `p_radius` R and `v_bound` V: the most the
#' public centre with zero velocity can be off; where the refining round
#' clips at a privately chosen level the prediction is a range over the
#' levels it may choose, and the warning weighs the range's lower end. Both
#' depend on public
#' inputs only, so they tell nothing about the data. Raise `epsilon` or
#' `n`, or tighten the radius (or the domain).
#'
#' @name dpmanifold_low_utility
#' @examples
#' S2 <- sphere(2)
#' note <- function(w) {
#'   message("warned: ", conditionMessage(w))
#'   invokeRestart("muffleWarning")
#' }
#' m <- withCallingHandlers(
#'   frechet_mechanism(S2, n = 10, epsilon = 0.1, center = c(0, 0, 1), radius = 0.3),
#'   dpmanifold_low_utility = note)
#' m$expected_error
NULL

# Public prediction of the distance between a Frechet-mean release and the
# non-private mean (flat approximation): E|nu| for noise of density
# exp(-|nu| / sigma) in R^d is d sigma; for N(0, sigma^2 I_d) about
# sigma sqrt(d); a law restricted to the ball cannot exceed its diameter.
frechet_expected_error <- function(M, mechanism, sigma, radius) {
  d <- M$dim
  v <- if (mechanism == "wrapped_gaussian") sigma * sqrt(d) else d * sigma
  list(value = v, what = "mean distance to the non-private mean, flat approximation")
}

# The warning itself, for every rule that reads public inputs only.
signal_low_utility <- function(message, call) {
  warning(structure(class = c("dpmanifold_low_utility", "warning", "condition"),
                    list(message = message, call = call)))
}

# (scale: the public size the error is weighed against, and its name; the
# regression weighs a line's shift against the public domain's)
warn_low_utility <- function(err, radius, call = sys.call(-1), scale = "the public radius",
                             fills = "the noise fills the ball", tighten = "the radius") {
  if (is.finite(err$value) && err$value >= radius) {
    signal_low_utility(sprintf(paste("the expected error of this release (%.3g) is at least %s (%.3g):",
                                     "%s, and releasing the public centre would do as well",
                                     "at no privacy cost; raise epsilon or n, or tighten %s"),
                               err$value, scale, radius, fills, tighten), call)
  }
  invisible(err)
}

# Public prediction of a regression release's error: the root mean square
# shift of its line from the non-private fit over an even design, from the
# plan's error model (NULL for the chain methods, which have none). The
# public centre with v = 0 is off by at most sqrt(R^2 + V^2 / 12) over such
# a design, R and V the domain's bounds on the footpoint and the velocity.
# Where the refining round clips at a privately chosen level the model
# gives a range, `lower` (the grid's lowest level) to `value` (its top):
# the level is the residuals' quantile, which no public input tells.
regression_expected_error <- function(plan) {
  v <- plan$spec$expected_error
  if (is.null(v)) return(NULL)
  what <- "root mean square shift of the line over an even design, public error model"
  lo <- plan$spec$expected_error_low
  if (is.null(lo)) return(list(value = v, what = what))
  list(value = v, lower = lo,
       what = paste0(what, "; the privately chosen clip level decides where in the range"))
}
# The regression's warning weighs the lower end of the range: it says the
# public centre would do as well only when every clip level agrees.
warn_low_utility_regression <- function(err, R0, V0, call) {
  warn_low_utility(list(value = if (is.null(err$lower)) err$value else err$lower), sqrt(R0^2 + V0^2 / 12),
                   call = call, scale = "the public domain's", fills = "the noise fills the domain",
                   tighten = "the domain (radius, p_radius, v_bound)")
}
