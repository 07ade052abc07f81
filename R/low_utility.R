#' The low-utility warning
#'
#' A Frechet-mean mechanism predicts its error from public quantities only
#' (the manifold's dimension d, the law and its scale sigma; flat
#' approximation): about \eqn{d\sigma} for the Laplace-type laws,
#' \eqn{\sigma\sqrt d} for the Gaussian one. When that prediction is at
#' least the public radius, the noise fills the public ball and the release
#' is no better than releasing the public centre, which costs no privacy at
#' all: the package then signals a warning of class `dpmanifold_low_utility`
#' (from [frechet_mechanism()] and [dp_frechet_mean()]). It depends on
#' public inputs only, so it tells nothing about the data. Raise `epsilon`
#' or `n`, or tighten the radius.
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

warn_low_utility <- function(err, radius, call = sys.call(-1)) {
  if (is.finite(err$value) && err$value >= radius) {
    warning(structure(class = c("dpmanifold_low_utility", "warning", "condition"),
                      list(message = sprintf(paste("the expected error of this release (%.3g) is at least the public radius (%.3g):",
                                                   "the noise fills the ball, and releasing the public centre would do as well",
                                                   "at no privacy cost; raise epsilon or n, or tighten the radius"),
                                             err$value, radius), call = call)))
  }
  invisible(err)
}
