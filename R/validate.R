# Input validation shared by every exported function. Errors carry the class
# `dpmanifold_error` and name the offending argument.

abort_arg <- function(arg, msg, call = sys.call(-1)) {
  cond <- structure(
    class = c("dpmanifold_error", "error", "condition"),
    list(message = sprintf("`%s` %s", arg, msg), call = call)
  )
  stop(cond)
}

check_manifold <- function(M, arg = "M") {
  if (!inherits(M, "manifold")) {
    abort_arg(arg, "must be a manifold object, e.g. sphere(2), spd(3) or kendall_shape(5)",
              call = sys.call(-1))
  }
  invisible(M)
}

check_finite_numeric <- function(x, arg, call = sys.call(-1)) {
  if (!is.numeric(x) || length(x) == 0L) abort_arg(arg, "must be a non-empty numeric vector, matrix or array", call)
  if (any(!is.finite(x))) abort_arg(arg, "contains NA, NaN or Inf values", call)
  invisible(x)
}

check_positive_number <- function(x, arg, allow_inf = FALSE, call = sys.call(-1)) {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && x > 0 && (allow_inf || is.finite(x))
  if (!ok) abort_arg(arg, "must be a single positive finite number", call)
  invisible(x)
}

check_epsilon <- function(epsilon, arg = "epsilon", call = sys.call(-1)) {
  check_positive_number(epsilon, arg, call = call)
}

check_delta <- function(delta, arg = "delta", call = sys.call(-1)) {
  ok <- is.numeric(delta) && length(delta) == 1L && !is.na(delta) && delta > 0 && delta < 1
  if (!ok) abort_arg(arg, "must be a single number strictly between 0 and 1", call)
  invisible(delta)
}

check_count <- function(n, arg, min = 1L, call = sys.call(-1)) {
  ok <- is.numeric(n) && length(n) == 1L && !is.na(n) && n >= min && n == round(n)
  if (!ok) abort_arg(arg, sprintf("must be a whole number >= %d", min), call)
  as.integer(n)
}

# Default membership tolerance: data read from files carry rounding, so we
# accept points within 1e-6 of the manifold and then project them exactly.
.dpm_tol <- 1e-6

# Sample sizes: whole numbers >= 1, vectorised (sensitivities over several n).
check_sizes <- function(n, arg = "n", call = sys.call(-1)) {
  ok <- is.numeric(n) && length(n) >= 1L && all(!is.na(n)) && all(n >= 1) && all(n == round(n))
  if (!ok) abort_arg(arg, "must be whole numbers >= 1", call)
  as.numeric(n)
}

# A classed match.arg(): `value` must be one of `choices` (the default
# vector of choices, as in match.arg, picks the first).
choose_arg <- function(value, choices, arg, call = sys.call(-1)) {
  if (identical(value, choices)) return(choices[1])
  ok <- is.character(value) && length(value) == 1L && !is.na(value) && value %in% choices
  if (!ok) abort_arg(arg, sprintf("must be one of %s", paste(sprintf("\"%s\"", choices), collapse = ", ")), call)
  value
}

check_flag <- function(x, arg, call = sys.call(-1)) {
  if (!(is.logical(x) && length(x) == 1L && !is.na(x))) abort_arg(arg, "must be TRUE or FALSE", call)
  invisible(x)
}
