# Input validation shared by every exported function: one helper per kind of
# argument. Errors carry the class `dpmanifold_error` and name the offending
# argument; a result that double precision cannot hold raises the subclass
# `dpmanifold_not_representable`.

# In a handler that turns a package error into another: an interrupt or
# an expired time limit (dpmanifold_interrupted) is passed on as it is.
pass_interrupt <- function(e) if (inherits(e, "dpmanifold_interrupted")) stop(e)

abort_arg <- function(arg, msg, call = sys.call(-1), class = NULL) {
  cond <- structure(
    class = c(class, "dpmanifold_error", "error", "condition"),
    list(message = sprintf("`%s` %s", arg, msg), call = call, arg = arg)
  )
  stop(cond)
}

# A classed error naming a required argument the caller left out (R's own
# "argument is missing" is unclassed and comes wherever the argument is
# first read). `args`: the caller's arguments without a default that it
# does not itself test with missing(). The manifold `M` is validated here
# too (check_manifold()), as soon as it is found, so that a formula in its
# place (an lm() habit) is named as such before a later argument is missed.
check_required <- function(args, why = NULL, call = sys.call(-1)) {
  env <- parent.frame()
  for (a in args) {
    if (eval(as.call(list(as.name("missing"), as.name(a))), env)) {
      abort_arg(a, paste0("is required", if (!is.null(why)) paste0(": ", why)), call)
    }
    if (a == "M") check_manifold(get("M", envir = env), call = call)
  }
  invisible(NULL)
}

# The `...` of a function that takes none: an argument given there is an
# error naming it (a misspelt `budget` or a `tau` the mechanism fixes is
# not silently ignored). `what`: the function, and what it does take.
check_no_dots <- function(..., what, call = sys.call(-1)) {
  if (...length()) {
    nm <- names(list(...))
    arg <- if (is.null(nm) || !nzchar(nm[1])) "..." else nm[1]
    abort_arg(arg, sprintf("is not an argument of %s", what), call)
  }
  invisible(NULL)
}

# lm() habits in the fitting functions: a formula where the manifold (see
# check_manifold()) or the covariate or data go, or a `data` argument,
# named as such with what to pass instead, before a later argument is
# blamed. `...`: the caller's (which takes no other), `what`: its name
# and what it takes, as for check_no_dots().
.no_formula_interface <- paste(
  "the manifold first, then the covariate and the responses,",
  "e.g. dp_geodesic_regression(euclidean(1), dat$x, dat$y, epsilon = 1, ...)")

check_no_formula <- function(x, arg, ..., what, pass = .no_formula_interface, call = sys.call(-1)) {
  if (inherits(x, "formula")) abort_arg(arg, paste("is a formula, but there is no formula interface: pass", pass), call)
  if ("data" %in% names(list(...))) {
    abort_arg("data", sprintf("is not an argument of %s: there is no formula interface; pass %s", what, pass), call)
  }
  check_no_dots(..., what = what, call = call)
}

# The one wording of a point that is not on the manifold, for every
# function that checks points: the public tolerance and the fix, never the
# size of the deviation (a record's value); `which_txt`: the index of the
# first offending input point, where the caller reports it. `single`: the
# argument is one point ("is not on") rather than a set ("holds a point").
# (mfd_project() is the projection of an ambient vector onto a tangent
# space, not of a point onto the manifold, so the fix is said per reason;
# Kendall's reasons name as_preshape() themselves.)
abort_off_manifold <- function(M, arg, why, which_txt = "", single = FALSE, call = sys.call(-1)) {
  fix <- if (grepl("unit norm", why, fixed = TRUE)) " (divide each point by its norm)" else
    if (grepl("not symmetric", why, fixed = TRUE)) " (symmetrise each matrix: (P + t(P)) / 2)" else
    if (grepl("<x, x> = -1", why, fixed = TRUE)) " (recompute each point's first coordinate as sqrt(1 + sum(x[-1]^2)))" else ""
  abort_arg(arg, sprintf(paste("%s not on the manifold (%s, to within the tolerance %g of every function)%s: it %s;",
                               "move points that carry rounding back onto it before the call%s"),
                         if (single) "is" else "holds a point that is", manifold_label(M), .dpm_tol, which_txt,
                         why, fix), call)
}

# A classed warning carrying the user's call: `class` a subclass (e.g.
# "dpmanifold_not_converged", "dpmanifold_clamped") before
# "dpmanifold_warning".
warn_dpm <- function(msg, class = NULL, call = sys.call(-1)) {
  warning(structure(class = c(class, "dpmanifold_warning", "warning", "condition"),
                    list(message = msg, call = call)))
}

# Largest whole number R holds as an integer; counts beyond it would become NA.
.dpm_int_max <- .Machine$integer.max

# Default membership tolerance: data read from files carry rounding, so we
# accept points within 1e-6 of the manifold and then project them exactly.
.dpm_tol <- 1e-6

# (no dim: a 1 x 1 matrix is refused, not recycled against vectors)
is_scalar_number <- function(x) is.numeric(x) && length(x) == 1L && is.null(dim(x)) && !is.na(x)

# --- manifolds -------------------------------------------------------------

# The layout facts every manifold object must carry, recomputed from its type
# and size through the registry (aaa-registry.R): a hand-edited or truncated
# object is refused before it reaches C++.
# The geometry facts of the C++ core for a manifold type and size, cached.
.manifold_facts_cache <- new.env(parent = emptyenv())
manifold_facts <- function(type, size) {
  key <- paste(type, size)
  f <- .manifold_facts_cache[[key]]
  if (is.null(f)) {
    f <- cpp_manifold_info(list(type = type, size = size))[c("name", "dim", "ambient_dim", "kappa_min", "kappa_max",
                                                            "injectivity_radius", "hadamard")]
    assign(key, f, envir = .manifold_facts_cache)
  }
  f
}

check_manifold <- function(M, arg = "M", call = sys.call(-1)) {
  ctors <- paste0(manifold_constructors(), "()")
  ctors <- paste(paste(ctors[-length(ctors)], collapse = ", "), "or", ctors[length(ctors)])
  # an lm() habit: say what to pass instead
  if (inherits(M, "formula")) check_no_formula(M, arg, what = "", call = call)
  if (!inherits(M, "manifold")) {
    abort_arg(arg, "must be a manifold object, e.g. sphere(2), spd(3) or kendall_shape(5)", call)
  }
  bad <- function(what) {
    abort_arg(arg, sprintf("is a malformed manifold object (%s); create it with %s", what, ctors), call)
  }
  if (!is.list(M)) bad("not a list")
  e <- manifold_entry(M)
  if (is.null(e)) bad("unknown `type`")
  k <- M$size
  if (!(is_scalar_number(k) && k == round(k) && k >= e$min_size && k <= e$max_size)) bad("invalid `size`")
  lay <- e$layout(k)
  for (f in c("dim", "ambient_dim")) {
    if (!(is_scalar_number(M[[f]]) && M[[f]] == lay[[f]])) bad(sprintf("`%s` does not match its size", f))
  }
  for (f in c("kappa_min", "kappa_max", "injectivity_radius")) {
    if (!is_scalar_number(M[[f]])) bad(sprintf("`%s` is missing", f))
  }
  if (!(is.logical(M$hadamard) && length(M$hadamard) == 1L && !is.na(M$hadamard))) bad("`hadamard` is missing")
  # the geometry facts must be the core's own: a hand-edited curvature
  # bound would change the noise of a release
  info <- manifold_facts(M$type, k)
  for (f in names(info)) {
    if (!identical(unname(M[[f]]), unname(info[[f]]))) bad(sprintf("`%s` is not the %s of %s", f, f, info$name))
  }
  if (!is.null(lay$point_dim)) {
    if (!(is.numeric(M$point_dim) && length(M$point_dim) == 2L && all(M$point_dim == lay$point_dim))) bad("`point_dim` does not match its size")
  } else if (!is.null(M$point_dim)) {
    bad("`point_dim` must be NULL for vector layouts")
  }
  for (f in names(e$fields)) {
    if (!identical(M[[f]], e$fields[[f]])) bad(sprintf("`%s` does not match its type", f))
  }
  invisible(M)
}

# --- numbers ----------------------------------------------------------------

check_finite_numeric <- function(x, arg, call = sys.call(-1)) {
  if (!is.numeric(x) || length(x) == 0L) abort_arg(arg, "must be a non-empty numeric vector, matrix or array", call)
  if (any(!is.finite(x))) abort_arg(arg, "contains NA, NaN or Inf values", call)
  invisible(x)
}

check_positive_number <- function(x, arg, allow_inf = FALSE, call = sys.call(-1)) {
  ok <- is_scalar_number(x) && x > 0 && (allow_inf || is.finite(x))
  if (!ok) {
    abort_arg(arg, if (allow_inf) "must be a single positive number (Inf allowed)" else
      "must be a single positive finite number", call)
  }
  invisible(x)
}

# A number strictly between 0 and 1 (delta, acceptance rates).
check_probability <- function(x, arg, call = sys.call(-1)) {
  ok <- is_scalar_number(x) && x > 0 && x < 1
  if (!ok) abort_arg(arg, "must be a single number strictly between 0 and 1", call)
  invisible(x)
}

check_epsilon <- function(epsilon, arg = "epsilon", call = sys.call(-1)) {
  check_positive_number(epsilon, arg, call = call)
}

check_delta <- function(delta, arg = "delta", call = sys.call(-1)) {
  check_probability(delta, arg, call = call)
}

# A single TRUE or FALSE.
check_flag <- function(x, arg, call = sys.call(-1)) {
  if (!(is.logical(x) && length(x) == 1L && !is.na(x))) abort_arg(arg, "must be TRUE or FALSE", call)
  invisible(x)
}

# --- counts and sizes ------------------------------------------------------

# A whole number in [min, max] (max at most .Machine$integer.max: beyond it
# R's integers cannot hold the count), returned as an integer.
check_count <- function(n, arg, min = 1L, max = .dpm_int_max, call = sys.call(-1)) {
  ok <- is_scalar_number(n) && is.finite(n) && n == round(n) && n >= min && n <= max
  if (!ok) abort_arg(arg, sprintf("must be a whole number >= %d and <= %d", as.integer(min), as.integer(max)), call)
  as.integer(n)
}

# Sample sizes: whole numbers >= 1, vectorised (sensitivities over several
# n); finite and exactly representable (below 2^53).
check_sizes <- function(n, arg = "n", call = sys.call(-1)) {
  ok <- is.numeric(n) && length(n) >= 1L && all(is.finite(n)) && all(n >= 1) && all(n == round(n)) &&
    all(n <= 2^53)
  if (!ok) abort_arg(arg, "must be finite whole numbers >= 1", call)
  as.numeric(n)
}

# Number of values (n results of `per` numbers each) a call would create:
# refused before any allocation when R could not index it (more than
# 2^31 - 1 values per column-major block handed to C++).
check_output_size <- function(n, per, arg, call = sys.call(-1)) {
  if (as.numeric(n) * as.numeric(per) > .dpm_int_max) {
    abort_arg(arg, sprintf("asks for %.4g values (%s x %s), more than one result can hold (%d)",
                           as.numeric(n) * per, format(n), format(per), .dpm_int_max), call)
  }
  invisible(n)
}

# --- choices -----------------------------------------------------------------

# A classed replacement for match.arg() that names the argument. With
# `choices` missing they are read from the calling function's formals, as
# match.arg() does; the default (the whole vector of choices) selects the
# first; otherwise one string, matched exactly or by unique prefix.
check_choice <- function(x, choices, arg = deparse(substitute(x)), call = sys.call(-1)) {
  if (missing(choices)) {
    fn <- sys.function(sys.parent())
    choices <- eval(formals(fn)[[arg]], envir = parent.frame())
  }
  if (identical(x, choices)) return(choices[[1L]])
  listing <- paste0("\"", choices, "\"", collapse = ", ")
  if (!(is.character(x) && length(x) == 1L && !is.na(x) && nzchar(x))) {
    abort_arg(arg, sprintf("must be one string, one of %s", listing), call)
  }
  i <- pmatch(x, choices)
  if (is.na(i)) abort_arg(arg, sprintf("is \"%s\" but must be one of %s", x, listing), call)
  choices[[i]]
}

# --- release objects ---------------------------------------------------------

# A dp_release as built by new_dp_release(): the fields print(), summary(),
# plot() and privacy_spent() read.
check_release <- function(x, arg = "x", call = sys.call(-1)) {
  if (!inherits(x, "dp_release")) abort_arg(arg, "must be a dp_release object (returned by dp_frechet_mean() or dp_geodesic_regression())", call)
  bad <- function(what) abort_arg(arg, sprintf("is a malformed dp_release object (%s)", what), call)
  if (!is.list(x)) bad("not a list")
  for (f in c("estimate", "manifold", "mechanism", "statistic", "privacy")) {
    if (is.null(x[[f]])) bad(sprintf("no `%s`", f))
  }
  if (!(is.character(x$statistic) && length(x$statistic) == 1L && !is.na(x$statistic))) bad("invalid `statistic`")
  if (!(is.character(x$mechanism) && length(x$mechanism) == 1L && !is.na(x$mechanism))) bad("invalid `mechanism`")
  p <- x$privacy
  if (!(is.list(p) && is.character(p$type) && length(p$type) == 1L && !is.na(p$type))) bad("invalid `privacy`")
  for (f in c("sensitivity", "sigma")) {
    v <- x[[f]]
    if (!is.null(v) && !(is.numeric(v) && length(v) && !anyNA(v) && all(v >= 0))) {
      abort_arg(paste0(arg, "$", f), "must hold non-negative numbers: the release was altered after it was made", call)
    }
  }
  if (!is.null(x$n) && !(is_scalar_number(x$n) && x$n >= 1 && x$n == round(x$n))) {
    abort_arg(paste0(arg, "$n"), "must be a positive whole number: the release was altered after it was made", call)
  }
  if (!inherits(x$manifold, "manifold")) bad("no manifold")
  tryCatch(check_manifold(x$manifold, "manifold"), dpmanifold_error = function(e) bad("malformed manifold"))
  if (x$statistic == "geodesic_regression") {
    e <- x$estimate
    if (!(is.list(e) && !is.null(e$p) && !is.null(e$v) && is.numeric(e$x_range) && length(e$x_range) == 2L &&
          all(is.finite(e$x_range)) && e$x_range[2] > e$x_range[1])) bad("invalid regression `estimate`")
    check_finite_numeric(e$p, paste0(arg, "$estimate$p"), call)
    check_finite_numeric(e$v, paste0(arg, "$estimate$v"), call)
  } else if (x$statistic == "frechet_mean") {
    check_finite_numeric(x$estimate, paste0(arg, "$estimate"), call)
  }
  invisible(x)
}

# --- other objects of the package ---------------------------------------------

# An object of class `cls` with the listed fields (print and summary methods
# of frechet_mean and geodesic_regression objects), and a valid manifold.
check_fields <- function(x, cls, fields, arg = "x", call = sys.call(-1)) {
  if (!inherits(x, cls) || !is.list(x)) abort_arg(arg, sprintf("must be a %s object", cls), call)
  missing <- fields[!fields %in% names(x) | vapply(fields, function(f) is.null(x[[f]]), logical(1))]
  if (length(missing)) abort_arg(arg, sprintf("is a malformed %s object (no `%s`)", cls, missing[1]), call)
  if ("manifold" %in% fields) {
    tryCatch(check_manifold(x$manifold, "manifold"),
             dpmanifold_error = function(e) abort_arg(arg, sprintf("is a malformed %s object (invalid `manifold`)", cls), call))
  }
  invisible(x)
}

# --- results -----------------------------------------------------------------

# A result of the geometry (ambient D x n matrix, or numbers) that double
# precision could not hold: Inf/NaN, or a point that rounding pushed off the
# manifold (an SPD matrix whose eigenvalues under- or overflowed). `arg` is
# the input whose size caused it. Returns X visibly, so that a function may
# end with it. kind "output": a point handed back to the caller (mfd_exp()),
# which must also be one the functions accept as input (hyperbolic: x0 <= 1e12).
check_representable <- function(M, X, arg, kind = c("point", "tangent", "number", "output"), call = sys.call(-1)) {
  kind <- kind[1L]
  why <- if (any(!is.finite(X))) {
    "overflows"
  } else if (kind %in% c("point", "output")) {
    r <- if (kind == "output") cpp_check_outputs(M, X) else cpp_check_results(M, X)
    if (any(nzchar(r))) r[nzchar(r)][1L] else ""
  } else {
    ""
  }
  if (nzchar(why)) {
    abort_arg(arg, sprintf("is too large or too small in magnitude: the result is not representable in double precision (it %s)", why),
              call, class = "dpmanifold_not_representable")
  }
  X
}
