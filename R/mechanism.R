#' Private mechanisms as objects
#'
#' A mechanism is built from public inputs only (the manifold, the number of
#' records `n`, the public bounds, the privacy notion and its parameters,
#' the options) and states its facts before it sees any data: the guarantee,
#' the share of the budget each stage spends, each stage's sensitivity and
#' scale, its sampler and the document that proves it. [release()] then
#' does the data work and returns a [dp_release] that prints from these
#' facts alone. [dp_frechet_mean()] and [dp_geodesic_regression()] build a
#' mechanism and release it in one call; build one yourself to see what a
#' release will cost and what error to expect before touching the data.
#'
#' A multi-stage mechanism is a basic composition of its stages: the total
#' epsilon (and delta) is the sum over the stages. A stage whose facts
#' depend on an earlier stage's private output (a clip level chosen
#' privately, say) states the rule here, and the release prints the values
#' that were drawn (post-processing of a private output).
#'
#' A mechanism keeps the public inputs it was built from. [release()]
#' rebuilds it from them and refuses (a classed error naming `mechanism`,
#' before the budget or the data are touched) one whose fields were edited
#' since: a release spends exactly what its mechanism prints. Invalid data
#' are refused before the budget is charged.
#'
#' The proofs are shipped with the package:
#' `system.file("proofs", package = "dpmanifold")` holds one document per
#' mechanism, named by each stage's `proof` field.
#'
#' @param x A `dp_mechanism`.
#' @param mechanism A `dp_mechanism` (from [frechet_mechanism()] or
#'   [regression_mechanism()]).
#' @param ... Data and options of the release (see the methods:
#'   [release.dp_mechanism_frechet()], [release.dp_mechanism_regression()]),
#'   or unused.
#' @return `release()`: a [dp_release].
#' @seealso [frechet_mechanism()], [regression_mechanism()], [dp_budget()].
#' @examples
#' S2 <- sphere(2)
#' north <- c(0, 0, 1)
#' m <- frechet_mechanism(S2, n = 50, epsilon = 1, center = north, radius = pi / 8)
#' m                      # what the release will cost, before any data
#' X <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 50))
#' release(m, X)
#' @name dp_mechanism
NULL

#' @rdname dp_mechanism
#' @export
release <- function(mechanism, ...) {
  check_required("mechanism")
  if (!inherits(mechanism, "dp_mechanism")) {
    abort_arg("mechanism", "must be a dp_mechanism object (from frechet_mechanism() or regression_mechanism())")
  }
  UseMethod("release")
}

# What a release() method takes, for check_no_dots(): an argument it does
# not take (epsilon, radius, ...: fixed by the mechanism) is an error naming
# it, before the budget or the data are touched, not silently ignored.
release_takes <- function(builder) {
  sprintf(paste0("release() for this mechanism, which fixes epsilon, the bounds and the options (build another ",
                 "with %s() to change them); release() takes the data, return_nonprivate and budget"), builder)
}

# The common start of every release() method: the mechanism checked to be
# what its public inputs build, the budget's check (before the data are
# read), the layout of the data (argument `arg`) and the number of records
# against the mechanism's public n. Returns the data and the charge, which
# the release makes once the data are valid, just before the draw (an input
# error costs no budget).
release_start <- function(mech, X, arg, return_nonprivate, budget, call = sys.call(-1)) {
  check_flag(return_nonprivate, "return_nonprivate", call = call)
  check_mechanism_intact(mech, call)
  charge <- mechanism_charge(mech, budget, return_nonprivate, call)
  A <- release_layout(mech$manifold, X, arg, call)
  if (ncol(A) != mech$n) {
    abort_arg(arg, sprintf("holds %d points but the mechanism was built for n = %d", ncol(A), mech$n), call)
  }
  list(data = A, charge = charge)
}

# The budget's check of a mechanism's release, now (it refuses before the
# data are read), and the charge, returned as a function the release calls
# once the data are found valid.
mechanism_charge <- function(mech, budget, return_nonprivate, call) {
  priv <- if (return_nonprivate) prospective_privacy(mech$privacy, TRUE, FALSE) else mech$privacy
  spend_budget(budget, priv, mech$statistic, charge = FALSE, call = call)
  function() spend_budget(budget, priv, mech$statistic, call = call)
}

# A mechanism releases what it prints only if every field is what its
# public inputs build: it is rebuilt from the inputs it keeps (attribute
# "build", set by new_dp_mechanism()) and must be identical. A hand-edited
# epsilon, scale, stage or plan is refused before the budget is touched.
.mechanism_builders <- c("build_frechet_mechanism", "build_regression_mechanism")

check_mechanism_intact <- function(mech, call = sys.call(-1)) {
  b <- attr(mech, "build")
  altered <- function() {
    abort_arg("mechanism", paste("was altered after it was built: its facts no longer match the public inputs",
                                 "it was built from; build it again with frechet_mechanism() or regression_mechanism()"),
              call)
  }
  if (!is.list(b) || !is.character(b$fun) || length(b$fun) != 1L || !b$fun %in% .mechanism_builders ||
      !is.list(b$args)) {
    altered()
  }
  quiet <- function(w) invokeRestart("muffleWarning")
  fresh <- tryCatch(withCallingHandlers({
    if (!mechanism_inputs_valid(b)) NULL else do.call(get(b$fun, envir = asNamespace("dpmanifold")), b$args)
  }, dpmanifold_low_utility = quiet, dpmanifold_privacy_leak = quiet), error = function(e) NULL)
  if (is.null(fresh) || !identical(fresh, mech)) altered()
  invisible(mech)
}

# The inputs a mechanism keeps must be what the public constructors
# validate (frechet_mechanism(), regression_mechanism()): the builders trust
# their inputs, so a mechanism rebuilt by the builder from edited inputs
# (a Laplace law at epsilon = 1 labelled mu-GDP, say) is its own rebuild.
# The options are validated again and must come back unchanged; so must the
# kept centre and footpoint (the points the noise is centred and drawn at).
mechanism_inputs_valid <- function(b) {
  a <- b$args
  if (!is.list(a) || !is.list(a$opts) || !is.list(a$ball)) return(FALSE)
  check_manifold(a$M)
  if (!identical(a$n, check_count(a$n, "n"))) return(FALSE)
  check_radius(a$M, a$ball$radius)
  if (length(a$inferred) || length(a$ball$inferred)) return(FALSE)
  M <- a$M
  if (!kept_point_valid(M, a$ball$center, function(p) public_ball(M, NULL, p, a$ball$radius)$center)) return(FALSE)
  if (!is.null(a$footpoint) && !kept_point_valid(M, a$footpoint, function(p) as_points(M, p, "footpoint")[, 1])) {
    return(FALSE)
  }
  o <- a$opts
  if (b$fun == "build_frechet_mechanism") {
    p <- o$privacy
    if (!is.list(p) || !is.character(p$type) || length(p$type) != 1L) return(FALSE)
    again <- frechet_options(a$M, if (identical(p$type, "gdp")) NULL else p$epsilon, o$mechanism,
                             if (identical(p$type, "approximate")) p$delta, p$mu, p$alpha, o$truncated, o$align,
                             o$sampler, o$mcmc, o$seed_scale)
  } else {
    again <- regression_options(a$M, o$epsilon, o$method, o$tau, o$p_radius, o$v_bound, o$localise, o$weight,
                                o$sampler, o$mcmc)
    check_x_range(a$x_range)
  }
  identical(again, o)
}

# A kept point (ambient vector) is what the constructors keep: validated as
# they validate it (`validate`, from the user's layout: on the manifold,
# finite) and unchanged by that validation up to rounding (it projects a
# point within tolerance onto the manifold; one projected already moves by
# an ulp or so, measured 2.2e-16 on every manifold).
kept_point_valid <- function(M, p, validate) {
  if (!is.numeric(p) || !is.null(dim(p)) || length(p) != M$ambient_dim) return(FALSE)
  again <- validate(from_ambient(M, matrix(p), single = TRUE))
  max(abs(again - p)) <= 1e-12 * max(1, abs(p))
}

# A stage of a mechanism: its public facts. `epsilon` (and `delta`, `mu`,
# `alpha` through `privacy`) is this stage's share of the budget.
# `detail`: what exactly runs, in words (e.g. "untruncated law, draw moved
# onto the ball"), printed after the mechanism's name.
dp_stage <- function(name, mechanism, epsilon = NA_real_, sensitivity = NULL, sigma = NULL,
                     sampler = list(kind = "exact"), domain = NULL, proof = NULL, privacy = NULL,
                     detail = NULL) {
  if (is.null(privacy)) privacy <- list(type = "pure", epsilon = epsilon, delta = 0)
  structure(list(name = name, mechanism = mechanism, privacy = privacy,
                 sensitivity = sensitivity, sigma = sigma, sampler = sampler,
                 domain = domain, proof = proof, detail = detail),
            class = "dp_stage")
}

# "Riemannian Laplace (untruncated law, draw moved onto the ball)".
stage_label <- function(s) {
  lab <- mechanism_label(s$mechanism)
  if (length(s$detail) && any(nzchar(s$detail))) lab <- sprintf("%s (%s)", lab, paste(s$detail, collapse = ", "))
  lab
}

# The mechanism object (see ?dp_mechanism). `bounds` holds the public bounds
# in the user's layout and `inferred` names any taken from the data (which
# voids the guarantee); `spec` holds the decoded public parameters the
# release passes to C++; `expected_error` a public prediction of the
# release's error (a number and what it measures) or NULL.
new_dp_mechanism <- function(statistic, manifold, n, privacy, bounds, stages, method,
                             not_private = character(), spec = list(), expected_error = NULL,
                             subclass = NULL, build = NULL) {
  names(stages) <- vapply(stages, function(s) s$name, character(1))
  reasons <- as.character(not_private)
  if (length(bounds$inferred)) {
    reasons <- c(reasons, sprintf("%s taken from the data", paste(bounds$inferred, collapse = " and ")))
  }
  privacy$not_private <- unique(reasons)
  privacy$private <- !length(privacy$not_private)
  privacy$delta_unknown <- any(vapply(stages, function(s) identical(s$sampler$kind, "mcmc"), logical(1)))
  if (length(stages) > 1L) {
    privacy$split <- vapply(stages, function(s) as.numeric(s$privacy$epsilon), numeric(1))
  }
  privacy$guarantee <- guarantee_label(privacy)
  structure(list(statistic = statistic, manifold = manifold, n = n, privacy = privacy,
                 bounds = bounds, stages = stages, method = method, spec = spec,
                 expected_error = expected_error),
            class = c(subclass, "dp_mechanism"), build = build)
}

# Flattened facts of the stages, named as releases have always named them:
# a stage with one value is named by the stage, a stage with several by
# their own names.
stage_values <- function(stages, field) {
  out <- lapply(stages, function(s) {
    v <- s[[field]]
    if (is.null(v)) return(NULL)
    if (length(v) == 1L && length(stages) > 1L) stats::setNames(v, s$name) else v
  })
  unlist(unname(out))
}

# The sampler a release reports: "mcmc" (with its public settings) when any
# stage runs a chain, otherwise "exact".
mechanism_sampler <- function(stages) {
  for (s in stages) if (identical(s$sampler$kind, "mcmc")) return(s$sampler)
  list(kind = "exact")
}

#' @rdname dp_mechanism
#' @export
print.dp_mechanism <- function(x, ...) {
  cat(sprintf("<dp_mechanism> %s of %d points on %s (nothing released yet)\n",
              gsub("_", " ", x$statistic), as.integer(x$n), manifold_label(x$manifold)))
  cat(sprintf("  guarantee: %s\n", x$privacy$guarantee))
  print_stages(x$stages)
  b <- x$bounds
  pub <- intersect(names(b), c("radius", "tau", "p_radius", "v_bound"))
  if (length(pub)) cat(sprintf("  public bounds: %s\n", format_named(unlist(b[pub]))))
  if (!is.null(x$expected_error)) {
    e <- x$expected_error
    cat(sprintf("  expected error: %s (%s)\n",
                if (is.null(e$lower)) sprintf("%.4g", e$value) else sprintf("%.4g to %.4g", e$lower, e$value), e$what))
  }
  cat("  release(<mechanism>, <data>) draws the release\n")
  invisible(x)
}

#' @rdname dp_mechanism
#' @param object A `dp_mechanism`.
#' @details `nobs()` of a mechanism is its public `n`. A mechanism holds no
#'   estimate, so `coef()`, `vcov()`, `confint()`, `predict()`, `fitted()`,
#'   `residuals()` and `plot()` refuse it with an error of class
#'   `dpmanifold_error` that points to [release()]; call them on the
#'   release.
#' @export
nobs.dp_mechanism <- function(object, ...) as.integer(object$n)

#' @rdname dp_mechanism
#' @details `summary()` of a mechanism returns it: its facts are public and
#'   its printout shows them all.
#' @export
summary.dp_mechanism <- function(object, ...) object

# A mechanism has no estimate yet: the model methods an R user tries on it
# refuse with one classed error instead of R's "no applicable method" (or
# a silent NULL from the default coef()). `arg`: the method's argument
# (plot()'s generic calls it x).
mechanism_no_estimate <- function(what, arg = "object") {
  refuse <- function(mech, ...) {
    abort_arg(arg, sprintf("is a dp_mechanism: it holds no estimate until release(<mechanism>, <data>) draws one; call %s() on the release",
                           what), sys.call())
  }
  names(formals(refuse))[1] <- arg
  refuse
}

#' @rdname dp_mechanism
#' @export
coef.dp_mechanism <- mechanism_no_estimate("coef")
#' @rdname dp_mechanism
#' @export
vcov.dp_mechanism <- mechanism_no_estimate("vcov")
#' @rdname dp_mechanism
#' @export
confint.dp_mechanism <- mechanism_no_estimate("confint")
#' @rdname dp_mechanism
#' @export
predict.dp_mechanism <- mechanism_no_estimate("predict")
#' @rdname dp_mechanism
#' @export
fitted.dp_mechanism <- mechanism_no_estimate("fitted")
#' @rdname dp_mechanism
#' @export
residuals.dp_mechanism <- mechanism_no_estimate("residuals")
#' @rdname dp_mechanism
#' @export
plot.dp_mechanism <- mechanism_no_estimate("plot", "x")

print_stages <- function(stages) {
  for (i in seq_along(stages)) {
    s <- stages[[i]]
    cat(sprintf("  stage %d, %s: %s; %s; sensitivity %s, sigma %s; %s\n", i, s$name,
                stage_label(s), notion_parameters(s$privacy),
                format_named(s$sensitivity), format_named(s$sigma), sampler_label(s$sampler)))
  }
  invisible(NULL)
}

# The dp_release of a mechanism: its facts, the estimate and the facts that
# an earlier private stage fixed (`drawn`: named lists of sensitivity /
# sigma / bounds entries that replace the mechanism's). Those are private
# outputs like the estimate (post-processing of a DP draw, free to differ
# between neighbours); the release lists them in `private_draws`.
release_object <- function(mech, estimate, drawn = list(), nonprivate = NULL, call = NULL, ...) {
  if (length(drawn)) {
    rel <- release_object(mech, estimate, list(), nonprivate, call, ..., private_draws = drawn)
    return(with_private_draws(rel, drawn))
  }
  stages <- mech$stages
  bounds <- mech$bounds[!vapply(mech$bounds, is.null, logical(1))]
  privacy <- privacy_parameters(mech$privacy, "split")
  privacy$not_private <- mech$privacy$not_private
  new_dp_release(
    estimate = estimate, manifold = mech$manifold, mechanism = mech$method,
    statistic = mech$statistic, privacy = privacy,
    sensitivity = stage_values(stages, "sensitivity"), sigma = stage_values(stages, "sigma"),
    bounds = bounds, n = mech$n, sampler = mechanism_sampler(stages), nonprivate = nonprivate,
    call = call, stages = unname(lapply(stages, stage_public)), ...)
}

# A release with the values an earlier private stage drew written into its
# stages, sensitivity, sigma and bounds (one home for where they go: the
# neighbour tests swap them between releases with this too).
with_private_draws <- function(rel, drawn) {
  if (!is.null(drawn$plan)) {
    # (a stage chose the plan of the stages after it, regression's scale
    # stage: the stages, their shares and the bounds they drew are the plan's)
    for (k in names(rel$private_draws$bounds)) rel$bounds[[k]] <- NULL
    rel$stages <- drawn$plan$stages
    rel$privacy$split <- drawn$plan$split
  }
  names_of <- vapply(rel$stages, function(s) s$name, "")
  for (nm in names(drawn$stages)) {
    vals <- drawn$stages[[nm]]
    j <- match(nm, names_of)
    rel$stages[[j]][names(vals)] <- vals
  }
  rel$sensitivity <- stage_values(rel$stages, "sensitivity")
  rel$sigma <- stage_values(rel$stages, "sigma")
  for (k in names(drawn$bounds)) rel$bounds[[k]] <- drawn$bounds[[k]]
  rel$private_draws <- drawn
  rel
}

# The notion and its parameters of a privacy list (and `extra` fields),
# without the fields it does not have.
privacy_parameters <- function(p, extra = character()) {
  p[intersect(c("type", "epsilon", "delta", "mu", "alpha", extra), names(p))]
}

# What a release keeps of a stage: its public facts (not the C++ spec).
stage_public <- function(s) {
  out <- unclass(s)[c("name", "mechanism", "detail", "privacy", "sensitivity", "sigma", "sampler", "proof")]
  out[!vapply(out, is.null, logical(1))]
}
