# Validation of the parts of a regression release that predict() evaluates
# (issue 20, hostile groups 1 and 2): check_release() checks the object's
# shape; here the estimate must be a geodesic of the release's manifold in
# its public domain, so that a tampered object (NA x0, a footpoint off the
# manifold, a velocity that is not tangent, a manifold swapped for another)
# is refused instead of extrapolated into garbage.

# Returns list(P, V, x0) (ambient footpoint and velocity per unit of x) or
# raises a classed error naming the field of `arg`.
release_regression_geodesic <- function(object, arg = "object", call = sys.call(-1)) {
  M <- object$manifold
  est <- object$estimate
  field <- function(f) paste0(arg, "$estimate$", f)
  x0 <- est$x0
  if (!(is.numeric(x0) && length(x0) == 1L && is.finite(x0))) abort_arg(field("x0"), "must be one finite number", call)
  P <- as_points(M, est$p, field("p"), call = call)
  if (ncol(P) != 1L) abort_arg(field("p"), "must be a single point", call)
  V <- as_tangents(M, P, est$v, field("v"), call = call)
  if (ncol(V) != 1L) abort_arg(field("v"), "must be a single tangent vector", call)
  # the public domain of the release: footpoint within p_radius of the
  # centre, velocity over the x range of norm at most v_bound
  b <- object$bounds
  if (is.list(b) && !is.null(b$center)) {
    C <- as_points(M, b$center, paste0(arg, "$bounds$center"), call = call)
    R0 <- b$p_radius %||% b$radius
    if (is_scalar_number(R0) && R0 > 0 && ncol(C) == 1L) {
      d <- cpp_dist(M, C, P)
      if (!(d <= R0 * (1 + 1e-6) + 1e-9)) {
        abort_arg(field("p"), sprintf("lies %.4g from the public centre, outside the release's domain (p_radius = %.4g): the release was altered or its manifold swapped",
                                      d, R0), call)
      }
    }
    if (is_scalar_number(b$v_bound) && b$v_bound > 0) {
      len <- sqrt(max(cpp_inner(M, P, V, V), 0)) * diff(est$x_range)
      if (!(len <= b$v_bound * (1 + 1e-6) + 1e-9)) {
        abort_arg(field("v"), sprintf("has length %.4g over the x range, above the release's v_bound = %.4g: the release was altered or its manifold swapped",
                                      len, b$v_bound), call)
      }
    }
  }
  list(P = P, V = V, x0 = as.numeric(x0))
}

# Covariate values at which to evaluate a release: finite numbers (possibly
# none); the result's size is checked before anything is allocated.
release_newdata <- function(M, newdata, call = sys.call(-1)) {
  newdata <- na_as_double(newdata)
  if (!is.numeric(newdata)) abort_arg("newdata", "must be numeric covariate values (finite or NA)", call)
  check_alloc(length(newdata), M$ambient_dim, "newdata", call)   # before is.infinite() allocates
  if (any(is.infinite(newdata))) abort_arg("newdata", "must be numeric covariate values (finite or NA)", call)
  as.numeric(newdata)
}

# A bare NA (or all-NA logical vector) is a missing covariate value, as
# lm's predict() reads it: NA_real_ with the same names and dim.
na_as_double <- function(x) {
  if (is.logical(x) && !is.object(x) && all(is.na(x))) storage.mode(x) <- "double"
  x
}

# The geodesic at covariate values with NA among them (predict()'s
# na.pass, as lm's): `at(s)` for the finite values, NA points elsewhere
# (ambient columns).
at_values_or_na <- function(M, s, at) {
  ok <- !is.na(s)
  if (all(ok)) return(at(s))
  out <- matrix(NA_real_, M$ambient_dim, length(s))
  if (any(ok)) out[, ok] <- at(s[ok])
  out
}

# The geodesic x -> Exp_P((x - x0) V) at the values s of x, as ambient
# columns; results beyond double precision are refused naming `newdata`.
release_geodesic_at <- function(M, g, s, call = sys.call(-1)) {
  if (!length(s)) return(matrix(numeric(0), M$ambient_dim, 0L))
  if (anyNA(s)) return(at_values_or_na(M, s, function(s) release_geodesic_at(M, g, s, call)))
  t <- s - g$x0
  Vt <- check_representable(M, g$V[, 1] * rep(t, each = nrow(g$V)), "newdata", "tangent", call)
  dim(Vt) <- c(nrow(g$V), length(t))
  check_representable(M, cpp_binary_op(M, "exp", g$P, Vt), "newdata", "output", call)
}

# The numbers summary() formats: sensitivity and sigma (named numbers,
# positive; Inf allowed), n (a count). A tampered field is a classed error
# naming it instead of sprintf()'s "invalid format".
check_release_numbers <- function(object, arg = "object", call = sys.call(-1)) {
  for (f in c("sensitivity", "sigma")) {
    v <- object[[f]]
    if (!is.null(v) && !(is.numeric(v) && length(v) >= 1L && !anyNA(v) && all(v >= 0))) {
      abort_arg(paste0(arg, "$", f), "must hold non-negative numbers (the release was altered)", call)
    }
  }
  n <- object$n
  if (!is.null(n) && !(is_scalar_number(n) && is.finite(n) && n >= 1 && n == round(n))) {
    abort_arg(paste0(arg, "$n"), "must be a whole number >= 1 (the release was altered)", call)
  }
  invisible(object)
}

# What plot.dp_release() draws, validated before any drawing: the release
# (check_release()), its estimate, public centre and radius and non-private
# reference, each blamed by its field, and the user's `data` (points of the
# release's manifold for a Frechet mean, list(x, y) for a regression, checked
# by regression_plot_data()). Returns `data`, projected onto the manifold for
# a Frechet-mean release.
check_release_plot <- function(x, data, arg = "x", call = sys.call(-1)) {
  check_release(x, arg, call)
  M <- x$manifold
  b <- x$bounds
  if (!is.null(b) && !is.list(b)) abort_arg(paste0(arg, "$bounds"), "must be a list (the release was altered)", call)
  if (!is.null(b$center)) {
    C <- as_points(M, b$center, paste0(arg, "$bounds$center"), call = call)
    if (ncol(C) != 1L) abort_arg(paste0(arg, "$bounds$center"), "must be a single point", call)
  }
  if (!is.null(b$radius) && !(is_scalar_number(b$radius) && b$radius > 0)) {
    abort_arg(paste0(arg, "$bounds$radius"), "must be a single positive number (the release was altered)", call)
  }
  np <- x$nonprivate
  if (identical(x$statistic, "frechet_mean")) {
    as_points(M, x$estimate, paste0(arg, "$estimate"), call = call)
    if (!is.null(np$frechet_mean)) as_points(M, np$frechet_mean, paste0(arg, "$nonprivate$frechet_mean"), call = call)
    if (!is.null(data)) data <- from_ambient(M, as_data_points(M, data, "data", call = call))
  } else if (identical(x$statistic, "geodesic_regression") && !is.null(x$estimate$x0)) {
    release_regression_geodesic(x, arg, call)
    if (!is.null(np$p)) {
      P <- as_points(M, np$p, paste0(arg, "$nonprivate$p"), call = call)
      as_tangents(M, P, np$v, paste0(arg, "$nonprivate$v"), call = call)
    }
  }
  data
}
