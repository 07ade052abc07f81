# The manifold registry: what the R layer knows about each manifold, declared
# once per manifold with register_manifold() (the registrations of the
# package's manifolds are at the end of manifolds.R). Layouts, validation,
# printing, labels, the default mechanism, representability limits, the
# property suite (tests/testthat/helper-manifold.R) and the default plot all
# read this table; nothing else in R/ lists manifold types. The geometry
# facts (curvature bounds, injectivity radius, Hadamard) are declared by the
# C++ manifold and read through cpp_manifold_info(); R never repeats them.
#
# The file is named aaa-*.R so that it is collated first: any R file may call
# register_manifold() at top level.

.dpm_registry <- new.env(parent = emptyenv())
.dpm_registry$types <- character()

# register_manifold(): declare a manifold to the R layer.
#   type         the C++ factory's type string (factory.hpp, make_manifold);
#                stored in the manifold object as `type`
#   class        S3 class of its objects, before "manifold" (several types
#                may share one, e.g. the two SPD metrics share "spd"); the
#                per-manifold S3 methods (plots, Euclidean baselines)
#                dispatch on it
#   constructor  name of the exported R constructor, e.g. "sphere" (messages)
#   size_arg     name of the constructor's size argument, e.g. "d" or "k"
#   layout       function(k) list(dim, ambient_dim, point_dim): intrinsic and
#                ambient dimension for size k, and point_dim = NULL for
#                vector layouts (a point is a vector, n points an n x D
#                matrix) or c(r, c) for matrix layouts (a point is an r x c
#                matrix, n points an r x c x n array; r * c = ambient_dim).
#                Must accept k = NA (returns NA dimensions).
#   min_size     smallest size the constructor accepts
#   max_size     largest size; by default derived from `layout`: the largest
#                k whose ambient dimension still fits R's integers
#   fields       named list of constant extra fields of the object (SPD:
#                metric); checked by check_manifold()
#   label        function(M) the long name printed by print(M)
#   short_label  function(M) the short name used in messages and printouts
#   default_mechanism  dp_frechet_mean()'s preferred mechanism ("laplace" or
#                "kng"; "kng" falls back to "laplace" where its exact sampler
#                does not run)
#   max_distance largest distance from a centre whose points stay
#                representable in double precision (non-compact manifolds)
#   prepare_data NULL or function(M, X) turning data in a raw form into
#                points (Kendall: configurations into preshapes); applied by
#                the estimators before membership is checked; called
#                with degenerate = "zero" on a release's data, where a raw
#                record that gives no point must become one that the C++
#                check_accuracy() flags (replaced by the public centre)
#   checks       property-suite parameters: list(sizes, tol, radius,
#                lengths); missing entries get defaults from the geometry
register_manifold <- function(type, class, constructor, size_arg, layout,
                              min_size = 1, max_size = NULL,
                              fields = list(), label, short_label = label,
                              default_mechanism = c("laplace", "kng"),
                              max_distance = 1e100, prepare_data = NULL,
                              checks = list()) {
  stopifnot(is.character(type), length(type) == 1L, nzchar(type),
            is.character(class), length(class) >= 1L,
            is.function(layout), is.function(label), is.function(short_label),
            is.list(fields), is.null(prepare_data) || is.function(prepare_data),
            is.numeric(max_distance), max_distance > 0)
  default_mechanism <- match.arg(default_mechanism)
  if (is.null(max_size)) max_size <- largest_size(layout, min_size)
  entry <- list(type = type, class = class, constructor = constructor, size_arg = size_arg,
                layout = layout, min_size = min_size, max_size = max_size, fields = fields,
                label = label, short_label = short_label, default_mechanism = default_mechanism,
                max_distance = max_distance, prepare_data = prepare_data, checks = checks)
  assign(type, entry, envir = .dpm_registry)
  .dpm_registry$types <- union(.dpm_registry$types, type)
  invisible(entry)
}

# The largest size k >= min_size whose ambient dimension layout(k)$ambient_dim
# fits R's integers (layouts grow with k): found by bisection.
largest_size <- function(layout, min_size) {
  fits <- function(k) layout(k)$ambient_dim <= .Machine$integer.max
  lo <- as.numeric(min_size)
  hi <- as.numeric(.Machine$integer.max)
  if (fits(hi)) return(hi)
  while (hi - lo > 1) {
    mid <- floor((lo + hi) / 2)
    if (fits(mid)) lo <- mid else hi <- mid
  }
  lo
}

# Registered types, in registration order.
registered_manifolds <- function() .dpm_registry$types

# The registry entry of a type (NULL when unknown), or of a manifold object.
manifold_entry <- function(x) {
  type <- if (is.list(x)) x$type else x
  if (!(is.character(type) && length(type) == 1L && !is.na(type) &&
        type %in% .dpm_registry$types)) return(NULL)
  get(type, envir = .dpm_registry)
}

# Layout of `type` at size k: list(dim, ambient_dim, point_dim, min, max).
manifold_layout <- function(type, k) {
  e <- manifold_entry(type)
  c(e$layout(k), list(min = e$min_size, max = e$max_size))
}

# Sizes: whole numbers from the manifold's minimum up to the largest size
# whose ambient dimension still fits R's integers.
check_size <- function(x, arg, type, call = sys.call(-1)) {
  e <- manifold_entry(type)
  check_count(x, arg, min = e$min_size, max = e$max_size, call = call)
}

# A manifold object of a registered type: the size is validated (named by
# the constructor's argument), the C++ manifold reports its geometry.
new_manifold <- function(type, size, call = sys.call(-1)) {
  e <- manifold_entry(type)
  size <- check_size(size, e$size_arg, type, call = call)
  M <- list(type = type, size = size)
  info <- cpp_manifold_info(M)
  M <- c(M, info[c("name", "dim", "ambient_dim", "kappa_min", "kappa_max",
                   "injectivity_radius", "hadamard")],
         list(point_dim = if (!is.null(pd <- e$layout(size)$point_dim)) as.integer(pd)),
         e$fields)
  structure(M, class = c(e$class, "manifold"))
}

# Constructor names, for messages ("euclidean(), sphere(), ...").
manifold_constructors <- function() {
  unique(vapply(registered_manifolds(), function(t) manifold_entry(t)$constructor, character(1)))
}

# "spd() or euclidean()": the constructors of the registered Hadamard
# manifolds (as the C++ core reports them at a small size), for messages.
hadamard_constructors <- function() {
  had <- vapply(registered_manifolds(), function(t) {
    e <- manifold_entry(t)
    isTRUE(cpp_manifold_info(list(type = t, size = max(e$min_size, 2L)))$hadamard)
  }, logical(1))
  ctors <- paste0(unique(vapply(registered_manifolds()[had], function(t) manifold_entry(t)$constructor, character(1))), "()")
  if (length(ctors) < 2L) return(ctors)
  paste(paste(ctors[-length(ctors)], collapse = ", "), "or", ctors[length(ctors)])
}

# Long and short names of a manifold.
manifold_long_label <- function(M) manifold_entry(M)$label(M)
manifold_label <- function(M) manifold_entry(M)$short_label(M)

# Parameters of the shared property suite for each registered manifold:
# a list of cases list(M, tol, radius, lengths), one per declared size.
# Defaults: tolerance 1e-10; geodesic balls of 0.95 times the injectivity
# radius (at most 3); geodesic lengths for the Jacobi checks 0.1, 0.3 and
# 0.8 times that radius.
manifold_property_cases <- function() {
  out <- list()
  for (type in registered_manifolds()) {
    e <- manifold_entry(type)
    ck <- e$checks
    for (k in ck$sizes %||% max(e$min_size, 3)) {
      M <- new_manifold(type, k)
      radius <- ck$radius %||% min(0.95 * M$injectivity_radius, 3)
      out[[sprintf("%s_%d", type, k)]] <- list(
        M = M, tol = ck$tol %||% 1e-10, radius = radius,
        lengths = ck$lengths %||% (c(0.1, 0.3, 0.8) * radius))
    }
  }
  out
}
