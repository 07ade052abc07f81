# Many tests release at small settings (few records, small epsilon, a wide
# public ball) because their subject is accounting, reproducibility, input
# forms, plots or hostile input, not utility; such releases warn, as they
# should, that the noise fills the ball (class dpmanifold_low_utility), and a
# test that deliberately keeps the non-private fit is warned that the release
# is not private (dpmanifold_privacy_leak). without_warning_class() evaluates
# expr with warnings of the given class(es) muffled and every other warning
# left to surface, so the suite's output shows only warnings nobody expected.
# (Not suppressWarnings(): a new, real warning must still be seen.)
without_warning_class <- function(expr, class) {
  withCallingHandlers(expr, warning = function(w) {
    if (inherits(w, class)) invokeRestart("muffleWarning")
  })
}
