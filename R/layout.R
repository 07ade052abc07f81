# Conversion between the layouts R users hold and the ambient_dim x n matrices
# the C++ core works on; a manifold's registration (register_manifold(),
# its layout's point_dim) chooses one of the two layouts:
#   vector layout (point_dim NULL; euclidean, sphere): a vector (one point)
#     or an n x D matrix (one per row)
#   matrix layout (point_dim c(r, c); spd, kendall): an r x c matrix (one
#     point) or an r x c x n array

#' Forms of data the package accepts
#'
#' Wherever a function of the package takes points of a manifold, it takes
#' them in the layout of the manifold (see [manifolds]) and in the forms R
#' users hold:
#' * one point: a vector (`euclidean()`, `sphere()`, `hyperbolic()`) or a
#'   matrix (`spd()`, `kendall_shape()`);
#' * n points: an n x D matrix, one point per row, or a `data.frame` of
#'   numeric columns, one row per point (vector layouts); an r x c x n array
#'   (matrix layouts); or a list of points, e.g. `lapply(subjects, cov)`
#'   on `spd()`;
#' * on `kendall_shape()`, raw landmark configurations (k x 2, k x 2 x n as
#'   the `shapes` package holds them, or a list of k x 2 matrices) for the
#'   data and the public inputs (`center`, `footpoint`, `init`, the
#'   samplers' `mean`, the `target` of [align_shapes()]): they are turned
#'   into preshapes with [as_preshape()]. The geometry functions
#'   (`mfd_*()`) ask for preshapes.
#'
#' Every form is validated as the layout's own: a data.frame with a
#' non-numeric column, a list element of the wrong size or a point off the
#' manifold is refused with an error of class `dpmanifold_error` that names
#' the argument.
#'
#' @name input_forms
#' @examples
#' S2 <- sphere(2)
#' X <- mfd_exp(S2, c(0, 0, 1), 0.2 * mfd_random_tangent(S2, c(0, 0, 1), 20))
#' frechet_mean(S2, as.data.frame(X))$mean
#' covs <- lapply(1:10, function(i) cov(matrix(rnorm(60), 20)))
#' frechet_mean(spd(3), covs)$mean
#' square <- rbind(c(0, 0), c(1, 0), c(1, 1), c(0, 1))
#' shapes <- array(as.vector(square) + rnorm(1600, sd = 0.05), c(4, 2, 200))
#' dp_frechet_mean(kendall_shape(4), shapes, epsilon = 1, center = square, radius = 0.3)
NULL

is_matrix_layout <- function(M) !is.null(M$point_dim)

# The forms R users hold, turned into the layout's own (a no-op for a
# numeric vector, matrix or array):
#   a data.frame of numeric columns (vector layouts): one point per row;
#   a list of points (e.g. lapply(subjects, cov) on spd(), or the slices of
#     a `shapes` array): matrix layouts stack the r x c elements into an
#     r x c x n array, vector layouts bind the vectors as rows.
# A list always holds n points (never one point in its single form).
# A release's data come with name_records = FALSE: its errors must not say
# which record broke a rule (SPEC section 6), so a malformed element of a
# list is not numbered there.
point_form <- function(M, x, arg, call = sys.call(-1), name_records = TRUE) {
  element <- function(bad) if (name_records) sprintf("whose element %d is", which(bad)[1]) else "with an element that is"
  if (is.data.frame(x)) {
    if (is_matrix_layout(M)) {
      abort_arg(arg, sprintf("is a data.frame, but a point of %s is a %d x %d matrix: pass a %d x %d x n array or a list of matrices",
                             manifold_label(M), M$point_dim[1], M$point_dim[2], M$point_dim[1], M$point_dim[2]), call)
    }
    if (!length(x) || !nrow(x)) abort_arg(arg, "is an empty data.frame", call)
    num <- vapply(x, function(col) is.numeric(col) && is.null(dim(col)), logical(1))
    if (!all(num)) {
      abort_arg(arg, sprintf("is a data.frame whose column `%s` is not numeric (one numeric column per coordinate, one row per point)",
                             names(x)[!num][1]), call)
    }
    out <- matrix(unlist(x, use.names = FALSE), nrow(x), length(x))
    return(out)
  }
  if (is.list(x) && is.null(dim(x))) {
    if (!length(x)) abort_arg(arg, "is an empty list", call)
    num <- vapply(x, function(el) is.numeric(el) && length(el) > 0L, logical(1))
    if (!all(num)) abort_arg(arg, sprintf("is a list %s not a numeric point", element(!num)), call)
    if (is_matrix_layout(M)) {
      pd <- M$point_dim
      ok <- vapply(x, function(el) length(dim(el)) == 2L && all(dim(el) == pd), logical(1))
      if (!all(ok)) {
        abort_arg(arg, sprintf("is a list %s not a %d x %d matrix", element(!ok), pd[1], pd[2]), call)
      }
      return(array(unlist(x, use.names = FALSE), c(pd, length(x))))
    }
    D <- M$ambient_dim
    ok <- vapply(x, function(el) length(el) == D && (length(dim(el)) <= 1L || (length(dim(el)) == 2L && min(dim(el)) == 1L)),
                 logical(1))
    if (!all(ok)) abort_arg(arg, sprintf("is a list %s not a vector of length %d", element(!ok), D), call)
    return(matrix(unlist(x, use.names = FALSE), length(x), D, byrow = TRUE))
  }
  x
}

# Returns a D x n matrix with attribute "single" (TRUE when x was one point
# in its single-point form).
to_ambient <- function(M, x, arg, call = sys.call(-1)) {
  x <- point_form(M, x, arg, call)
  check_finite_numeric(x, arg, call)
  if (length(dim(x)) == 1L) x <- as.vector(x)
  D <- M$ambient_dim
  if (is_matrix_layout(M)) {
    pd <- M$point_dim
    dx <- dim(x)
    if (length(dx) == 2L && all(dx == pd)) {
      out <- matrix(as.vector(x), D, 1L)
      single <- TRUE
    } else if (length(dx) == 3L && all(dx[1:2] == pd)) {
      out <- matrix(as.vector(x), D, dx[3])
      single <- FALSE
    } else {
      abort_arg(arg, sprintf("must be a %d x %d matrix or a %d x %d x n array", pd[1], pd[2], pd[1], pd[2]), call)
    }
  } else {
    if (is.null(dim(x)) && D == 1L) {
      # on the real line a vector can only be n points
      out <- matrix(as.vector(x), 1L, length(x))
      single <- length(x) == 1L
    } else if (is.null(dim(x))) {
      if (length(x) != D) abort_arg(arg, sprintf("must have length %d (or be a matrix with %d columns, one point per row)", D, D), call)
      out <- matrix(as.vector(x), D, 1L)
      single <- TRUE
    } else if (length(dim(x)) == 2L && ncol(x) == D) {
      out <- t(unname(x))
      storage.mode(out) <- "double"
      single <- FALSE
    } else {
      abort_arg(arg, sprintf("must be a vector of length %d or a matrix with %d columns (one point per row)", D, D), call)
    }
  }
  storage.mode(out) <- "double"
  attr(out, "single") <- single
  out
}

from_ambient <- function(M, X, single = FALSE) {
  n <- ncol(X)
  D <- nrow(X)
  attributes(X) <- NULL  # a plain vector, reshaped below without a copy
  if (is_matrix_layout(M)) {
    dim(X) <- if (single && n == 1L) M$point_dim else c(M$point_dim, n)
    return(X)
  }
  if ((single && n == 1L) || D == 1L) return(X)  # one point, or the real line
  dim(X) <- c(D, n)
  t(X)
}

# The names of the n points of data `y` as given (a vector's names on the
# real line, the row names of points in rows, the third names of an array),
# or NULL; name_points() puts them (and the coordinates' names on
# euclidean(d), response_names()) on points in the layout of M
# (from_ambient()), as lm's fitted() and residuals() carry the data's.
point_names <- function(y, n) {
  d <- dim(y)
  nm <- if (is.null(d)) names(y) else if (length(d) == 2L) rownames(y) else if (length(d) == 3L) dimnames(y)[[3]]
  if (length(nm) == n) nm
}
name_points <- function(P, nm, resp = NULL) {
  d <- dim(P)
  if (is.null(d)) {
    if (!is.null(nm)) names(P) <- nm
  } else if (length(d) == 2L) {
    if (!is.null(nm) || !is.null(resp)) dimnames(P) <- list(nm, resp)
  } else if (!is.null(nm)) {
    dimnames(P) <- list(NULL, NULL, nm)
  }
  P
}

# The names of the response coordinates on euclidean(d), d > 1: the column
# names of a matrix `y` (the variables' names, public like the data's
# form; all of them, or lm's y1, y2, ...), which coef(), vcov(), confint()
# and predict() carry as lm's do.
response_names <- function(M, y) {
  nm <- if (inherits(M, "euclidean") && M$ambient_dim > 1L && is.matrix(y)) colnames(y)
  if (length(nm) == M$ambient_dim && !anyNA(nm) && all(nzchar(nm))) nm
}

is_single <- function(...) all(vapply(list(...), function(a) isTRUE(attr(a, "single")), logical(1)))

n_points <- function(X) ncol(X)

# Public inputs of the estimators and mechanisms that are points of M. A
# manifold that accepts data in a raw form (Kendall: k x 2 configurations,
# its registration's prepare_data) takes them in that form too, as it takes
# the data (as_data_points(), release_layout()). The geometry primitives
# (mfd_*(): p, q, X, Y) keep asking for points of M as such.
.raw_point_args <- c("center", "footpoint", "mean", "init", "target")

# Points: convert, check membership within tol, then project exactly. For
# the arguments above, input that is not on the manifold as given is
# prepared from its raw form and checked again (points already on it are
# left exactly as they are).
as_points <- function(M, x, arg, tol = .dpm_tol, call = sys.call(-1)) {
  x <- point_form(M, x, arg, call)
  X <- to_ambient(M, x, arg, call)
  single <- attr(X, "single")
  res <- cpp_validate_points(M, X, tol)
  prep <- manifold_entry(M)$prepare_data
  if (!res$ok && !is.null(prep) && arg %in% .raw_point_args) {
    x2 <- tryCatch(prep(M, x), dpmanifold_error = function(e) NULL)
    if (!is.null(x2)) {
      X2 <- to_ambient(M, x2, arg, call)
      res2 <- cpp_validate_points(M, X2, tol)
      if (res2$ok) res <- res2
    }
  }
  if (!res$ok) {
    why <- res$why
    bad <- which(nzchar(why))
    which_txt <- if (ncol(X) == 1L) "" else sprintf(" (point %d%s)", bad[1],
                                                    if (length(bad) > 1) sprintf(" and %d more", length(bad) - 1) else "")
    abort_off_manifold(M, arg, why[bad[1]], which_txt, single = ncol(X) == 1L, call = call)
  }
  X <- res$points
  attr(X, "single") <- single
  X
}

# Tangent vectors at the columns of P (recycled).
as_tangents <- function(M, P, v, arg, tol = .dpm_tol, call = sys.call(-1)) {
  V <- to_ambient(M, v, arg, call)
  single <- attr(V, "single")
  check_recycle(P, V, arg, call)
  why <- cpp_check_tangents(M, P, V, tol)
  bad <- which(nzchar(why))
  if (length(bad)) abort_arg(arg, sprintf("%s (vector %d); use mfd_project() to project it", why[bad[1]], bad[1]), call)
  attr(V, "single") <- single
  V
}

# Arguments holding n points or vectors each (ambient matrices, named):
# each must hold 1 (recycled) or the same number n. Names the first that
# does not; returns n.
check_recycle_all <- function(args, call = sys.call(-1)) {
  counts <- vapply(args, ncol, integer(1))
  n <- max(counts)
  bad <- which(counts != 1L & counts != n)
  if (length(bad)) {
    other <- names(args)[which(counts == n)[1]]
    abort_arg(names(args)[bad[1]], sprintf("has %d points/vectors but `%s` has %d (each argument holds 1, which is recycled, or the same number)",
                                           counts[bad[1]], other, n), call)
  }
  n
}

check_recycle <- function(A, B, arg, call = sys.call(-1)) {
  if (ncol(A) != ncol(B) && ncol(A) != 1L && ncol(B) != 1L) {
    abort_arg(arg, sprintf("has %d points/vectors but %d were expected (or 1, which is recycled)",
                           ncol(B), ncol(A)), call)
  }
}
