# Public bounds and clipping (SPEC section 6). A point outside B_r(center)
# is moved to the boundary along the geodesic from the centre, which keeps
# the mechanisms DP for any data. Bounds taken from the data raise the
# classed privacy-leak warning.

#' The privacy-leak warning
#'
#' Every function of the package that looks at the data to choose a bound
#' (a centre, a radius, a residual bound or a covariate range the caller did
#' not give) signals a warning of class `dpmanifold_privacy_leak`: the
#' result is then *not* differentially private. Catch or silence it
#' deliberately, e.g. with
#' `withCallingHandlers(expr, dpmanifold_privacy_leak = function(w) invokeRestart("muffleWarning"))`.
#'
#' @name dpmanifold_privacy_leak
#' @examples
#' S2 <- sphere(2)
#' X <- mfd_exp(S2, c(0, 0, 1), 0.2 * mfd_random_tangent(S2, c(0, 0, 1), 30))
#' tryCatch(dp_frechet_mean(S2, X, epsilon = 1),
#'          dpmanifold_privacy_leak = function(w) conditionMessage(w))
NULL

warn_privacy_leak <- function(what, call = sys.call(-1), msg = NULL) {
  if (is.null(msg)) {
    msg <- sprintf("%s taken from the data: this release is NOT differentially private. Pass it as a public input.", what)
  }
  warning(structure(class = c("dpmanifold_privacy_leak", "warning", "condition"),
                    list(message = msg, call = call)))
}

# The data of a release (SPEC section 6). The layout and form of `X` are
# checked: a data set holding something that is not a point of M is refused,
# without naming or counting records. A point that double precision does not
# hold accurately (SPD: condition number above ~1e14; hyperbolic: farther
# than 28.3 from the origin) is still a point of M and must not be refused
# for its value: it is flagged (attribute "unrepresentable") and
# clip_points() replaces it by the public centre, a fixed public map like
# the clip itself.
as_release_data <- function(M, X, arg, call = sys.call(-1)) {
  validate_release_points(M, release_layout(M, X, arg, call), arg, call)
}

# The same for data already in ambient layout (A: one column per record).
validate_release_points <- function(M, A, arg, call = sys.call(-1)) {
  res <- cpp_validate_data(M, A, .dpm_tol)
  if (any(res$status == 1L)) {
    abort_off_manifold(M, arg, res$why, call = call)
  }
  out <- res$points
  bad <- res$status == 2L
  if (any(bad)) attr(out, "unrepresentable") <- bad
  out
}

# The layout step of a release's data (no validation: the release call
# validates in C++): raw Kendall configurations become preshapes (a
# degenerate one the zero vector, replaced by the centre there), the user's
# layout an ambient matrix with one column per record.
release_layout <- function(M, X, arg, call = sys.call(-1)) {
  X <- point_form(M, X, arg, call, name_records = FALSE)  # a data.frame or a list of points (layout.R)
  prep <- manifold_entry(M)$prepare_data
  if (!is.null(prep) && is.numeric(X) && all(is.finite(X))) {
    X <- tryCatch(prep(M, X, degenerate = "zero"), dpmanifold_error = function(e) {
      pass_interrupt(e)
      abort_arg(arg, sub("^`[^`]*` ", "", conditionMessage(e)), call)
    })
  }
  to_ambient(M, X, arg, call)
}

# The public ball of a release: the given centre (ambient vector) and
# radius, or, where one is missing, taken from the data with the classed
# privacy-leak warning. Returns list(center, radius, inferred).
public_ball <- function(M, Xa, center, radius, call = sys.call(-1)) {
  inferred <- character()
  # (Xa = NULL: a mechanism built from public inputs only)
  if (is.null(Xa) && (is.null(center) || is.null(radius))) {
    abort_arg(if (is.null(center)) "center" else "radius", "is required: a mechanism is built from public bounds only", call)
  }
  if (is.null(center) || is.null(radius)) {
    # (a bound from the data: already not private; points double precision
    # does not hold are left out of it)
    bad <- attr(Xa, "unrepresentable")
    if (!is.null(bad)) Xa <- Xa[, !bad, drop = FALSE]
    if (!ncol(Xa)) abort_arg("center", "is required: no point of the data is representable enough to infer it", call)
  }
  if (is.null(center)) {
    center_vec <- cpp_frechet_mean(M, Xa, rep(1, ncol(Xa)), default_init(M, Xa, rep(1, ncol(Xa))), 1000L, 1e-10)$mean
    warn_privacy_leak("`center` (the data's Frechet mean) was", call)
    inferred <- c(inferred, "center")
  } else {
    C <- as_data_points(M, center, "center", call = call)
    if (ncol(C) != 1L) abort_arg("center", "must be a single point", call)
    center_vec <- C[, 1]
  }
  if (is.null(radius)) {
    radius <- max(cpp_dist(M, matrix(center_vec), Xa))
    rstar <- max_radius(M)
    if (radius >= rstar) radius <- rstar * (1 - 1e-6)
    if (radius <= 0) radius <- 1e-8
    warn_privacy_leak("`radius` (the largest distance from the centre) was", call)
    inferred <- c(inferred, "radius")
  }
  check_radius(M, radius, call = call)
  check_radius_resolved(M, center_vec, radius, call)
  list(center = center_vec, radius = radius, inferred = inferred)
}

# A ball whose radius double precision cannot resolve at its centre (SPD
# at scale 1 below about 1e-16: every point of it rounds to the centre)
# gives the samplers nothing to draw from, and an exact one never
# accepts; refused, from public inputs. Two fixed tangent directions (no
# random numbers: the release's stream stays as set.seed() left it) must
# reach at least half the radius from it. (Only small radii, below 1e-6:
# large ones are the other checks' business, and far out a distance that
# double precision cannot hold is not a ball that rounds to its centre.)
check_radius_resolved <- function(M, center, radius, call = sys.call(-1)) {
  if (!(radius < 1e-6)) return(invisible(radius))
  D <- M$ambient_dim
  C <- matrix(center, D, 2L)
  U <- cpp_binary_op(M, "project", C, cbind(rep(1, D), rep_len(c(1, -1), D)))
  len <- sqrt(pmax(cpp_inner(M, C, U, U), 0))
  use <- is.finite(len) & len > 1e-8 * max(abs(U))
  if (!any(use)) return(invisible(radius))
  V <- sweep(U[, use, drop = FALSE], 2L, radius / len[use], `*`)
  if (!all(is.finite(V))) return(invisible(radius))
  d <- tryCatch(cpp_dist(M, C[, use, drop = FALSE], cpp_binary_op(M, "exp", C[, use, drop = FALSE], V)),
                error = function(e) {
                  pass_interrupt(e)
                  NULL
                })
  if (any(d < radius / 2, na.rm = TRUE)) {
    abort_arg("radius", sprintf(paste0(
      "is %.3g, below what double precision resolves around `center` on %s: points of the ball round to ",
      "the centre. Give a larger radius"), radius, manifold_label(M)), call, class = "dpmanifold_not_representable")
  }
  invisible(radius)
}

# The one clip of the package: points (ambient columns) outside
# B_radius(center) moved onto its boundary along the geodesic from the
# centre, in C++ (robust to distances beyond double precision). The count of
# moved points is attribute "clipped" (for clip_to_ball() and studies only:
# a release never stores it).
clip_points <- function(M, Xa, center, radius, call = sys.call(-1)) {
  bad <- attr(Xa, "unrepresentable")
  if (!is.null(bad)) {
    Xa[, bad] <- center
    attr(Xa, "unrepresentable") <- NULL
  }
  out <- cpp_dist(M, matrix(center), Xa) > radius
  if (any(out)) {
    Xa[, out] <- check_representable(M, cpp_clip_to_ball(M, center, Xa[, out, drop = FALSE], radius),
                                     "radius", "point", call)
  }
  structure(Xa, clipped = sum(out) + sum(bad))
}

# Public ball and clipped data: list(X, center, radius, clipped, inferred).
resolve_ball <- function(M, Xa, center, radius, call = sys.call(-1)) {
  b <- public_ball(M, Xa, center, radius, call)
  X <- clip_points(M, Xa, b$center, b$radius, call)
  c(list(X = X, clipped = attr(X, "clipped")), b)
}


#' Clip data to a public geodesic ball
#'
#' Moves each point farther than `radius` from `center` to the boundary of
#' the ball along the geodesic from the centre; points inside are unchanged.
#' This is how every private mechanism of the package enforces its public
#' bounds, so the sensitivity holds for any data.
#'
#' @inheritParams frechet_mean
#' @param center Public centre of the ball (a point of `M`).
#' @param radius Public radius, below [max_radius()].
#' @return The clipped points, with attribute `clipped` (how many moved).
#' @examples
#' S2 <- sphere(2)
#' X <- rbind(c(0, 0, 1), c(1, 0, 0))
#' clip_to_ball(S2, X, c(0, 0, 1), pi / 8)
#' @export
clip_to_ball <- function(M, X, center, radius) {
  check_required(c("M", "X"))
  check_required(c("center", "radius"), why = "the public ball (a point of `M` and a radius) to clip to")
  Xa <- as_data_points(M, X, "X")
  b <- resolve_ball(M, Xa, center, radius)
  structure(from_ambient(M, b$X, attr(Xa, "single")), clipped = b$clipped)
}
