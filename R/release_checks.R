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
  if (!is.numeric(newdata)) abort_arg("newdata", "must be finite numeric covariate values", call)
  check_alloc(length(newdata), M$ambient_dim, "newdata", call)   # before is.finite() allocates
  if (any(!is.finite(newdata))) abort_arg("newdata", "must be finite numeric covariate values", call)
  as.numeric(newdata)
}

# The geodesic x -> Exp_P((x - x0) V) at the values s of x, as ambient
# columns; results beyond double precision are refused naming `newdata`.
release_geodesic_at <- function(M, g, s, call = sys.call(-1)) {
  if (!length(s)) return(matrix(numeric(0), M$ambient_dim, 0L))
  t <- s - g$x0
  Vt <- check_representable(M, g$V[, 1] * rep(t, each = nrow(g$V)), "newdata", "tangent", call)
  dim(Vt) <- c(nrow(g$V), length(t))
  check_representable(M, cpp_binary_op(M, "exp", g$P, Vt), "newdata", "point", call)
}
