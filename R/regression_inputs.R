# Inputs of a private regression: the covariate map, the budget, the public
# domain, and the non-private fit used by studies.

# The covariate: numeric, finite, one value per response. Rescaled by the
# public range to t in [-1/2, 1/2] (clamped). A constant covariate is valid.
private_covariate <- function(x, n, x_range, call = sys.call(-1)) {
  x <- covariate_values(x, call)
  if (length(x) != n) abort_arg("x", sprintf("has length %d but `y` has %d points", length(x), n), call)
  if (any(!is.finite(x))) abort_arg("x", "contains NA, NaN or Inf values", call)
  if (n < 2L) abort_arg("y", "must hold at least 2 points", call)
  inferred <- character()
  if (is.null(x_range)) {
    warn_privacy_leak("`x_range` (the range of x) was", call)
    x_range <- range(x)
    if (!(x_range[2] > x_range[1])) {
      abort_arg("x_range", "is required: it cannot be taken from a constant covariate", call)
    }
    inferred <- "x_range"
  }
  check_x_range(x_range, call)
  x_range <- as.numeric(x_range)
  t <- (x - mean(x_range)) / diff(x_range)
  clamped <- sum(t < -0.5 | t > 0.5)
  list(t = pmin(pmax(t, -0.5), 0.5), range = x_range, clamped = clamped, inferred = inferred)
}

check_share <- function(share, call = sys.call(-1)) {
  ok <- is.numeric(share) && length(share) == 1L && !is.na(share) && share >= 0 && share < 1
  if (!ok) abort_arg("localise", "must be a number in [0, 1): the share of epsilon spent on the first stage", call)
  invisible(share)
}

domain_radius <- function(value, default, arg, M, call = sys.call(-1)) {
  if (is.null(value)) return(default)
  check_positive_number(value, arg, call = call)
  if (is.finite(M$injectivity_radius) && value >= M$injectivity_radius / 2) {
    abort_arg(arg, sprintf("is %.4g but must be below half the injectivity radius (%.4g) of %s",
                           value, M$injectivity_radius / 2, manifold_label(M)), call)
  }
  value
}

# Public check that every point the law can reach is representable: the
# fitted curve stays within p_radius + v_bound / 2 of the centre.
check_regression_representable <- function(M, radius, R0, V0, p_radius, v_bound, call = sys.call(-1)) {
  lim <- max_representable_distance(M)
  if (R0 + V0 / 2 + radius > lim) {
    arg <- if (!is.null(v_bound) && V0 / 2 >= R0) "v_bound" else if (!is.null(p_radius)) "p_radius" else "radius"
    abort_arg(arg, sprintf("gives a domain reaching %.4g from the centre (radius + p_radius + v_bound/2); points that far are not representable in double precision on %s (at most %g)",
                           R0 + V0 / 2 + radius, manifold_label(M), lim), call)
  }
  invisible(TRUE)
}

# Public check of the one-call methods ("gauss_newton", "tangent"): their
# C++ core squares and multiplies the stages' noise scales (the variances of
# the combination and of the public error model), so an extreme scale gave
# a NaN velocity and error model, silently (S^2: epsilon 1e200 or 1e-200;
# R^2: epsilon 1e-20 with radius 1e80). A scale beyond 1e100 is also wider
# than any point double precision holds on a Hadamard manifold (1e100).
# Refused before any data are read, from public quantities only.
.regression_scale_range <- c(1e-150, 1e100)

check_regression_scales <- function(M, stages, blame = function() "epsilon", call = sys.call(-1)) {
  sig <- unlist(lapply(stages, function(st) st$sigma))
  # (an infinite scale, Delta / epsilon overflowed, is out of range too: it
  # gave a NaN velocity)
  sig <- sig[!is.na(sig)]
  if (!length(sig)) return(invisible(TRUE))
  if (min(sig) < .regression_scale_range[1] || max(sig) > .regression_scale_range[2]) {
    arg <- blame()
    abort_arg(arg, sprintf(paste("gives noise scales from %.3g to %.3g on %s, outside the range this method",
                                 "computes with in double precision (%g to %g); use %s of a more ordinary size"),
                           min(sig), max(sig), manifold_label(M), .regression_scale_range[1],
                           .regression_scale_range[2],
                           if (arg == "epsilon") "an epsilon (or radius)" else sprintf("a `%s`", arg)),
              call, class = "dpmanifold_not_representable")
  }
  invisible(TRUE)
}

resolve_regression_epsilon <- function(epsilon, method, call = sys.call(-1)) {
  if (is.null(epsilon)) abort_arg("epsilon", "is required", call)
  if (method != "sequential") {
    check_epsilon(epsilon, call = call)
    return(epsilon)
  }
  if (length(epsilon) == 1L) {
    check_epsilon(epsilon, call = call)
    return(c(p = epsilon / 2, v = epsilon / 2))
  }
  ok <- is.numeric(epsilon) && length(epsilon) == 2 && all(is.finite(epsilon)) && all(epsilon > 0) &&
    setequal(names(epsilon), c("p", "v"))
  if (!ok) abort_arg("epsilon", "must be a positive number or c(p = , v = ) with positive entries", call)
  epsilon[c("p", "v")]
}

# Non-private fit with the centred covariate (p at mid-range, v the change
# over the range), its residual norms.
regression_fit_centred <- function(M, t, Y, call = sys.call(-1)) {
  # (re-signalled from the one handler: a sibling handler of the same
  # tryCatch would catch it)
  f <- tryCatch(cpp_regression_fit(M, t, Y, NULL, NULL, 1000L, 1e-10), error = function(e) {
    pass_interrupt(e)
    abort_arg("x", sprintf("gives no non-private fit (%s)", conditionMessage(e)), call)
  })
  Fit <- cpp_binary_op(M, "exp", matrix(f$p), sweep(matrix(f$v, length(f$v), ncol(Y)), 2, t, `*`))
  f$residual_norms <- cpp_dist(M, Fit, Y)
  f
}

# ---------------------------------------------------------------------------
# Sensitivities (derivations in the documentation above)

# Per-record operator bounds of the clipped joint gradient: J_p bounds
# |d_pExp^dagger|, J_v |d_vExp^dagger| at |t v| <= V / 2.
# tau_e = min(tau, r + R + V/2): no residual on the domain (footpoint within
# R of the centre, velocity at most V over the range, data in B_r) is
# longer than r + R + V/2, so a huge tau is harmless.
residual_bound <- function(tau, r, R, V) min(tau, r + R + V / 2)
