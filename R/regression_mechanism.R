#' A private geodesic-regression mechanism, built from public inputs
#'
#' Builds the mechanism [dp_geodesic_regression()] runs, from public inputs
#' only, so that its guarantee, its stages and their scales can be read
#' before any data are touched; [release()] then fits it to `x` and `y`.
#' The default `method = "gauss_newton"` is exact epsilon-DP on every
#' manifold (see [dp_geodesic_regression()] for what each method
#' guarantees; the proofs are in
#' `system.file("proofs", "regression-gauss-newton.md", package = "dpmanifold")`).
#'
#' @inheritParams dp_geodesic_regression
#' @param n Number of records (public).
#' @param tau Public upper limit on residual norms: optional for
#'   `"gauss_newton"` and `"tangent"`, required for the other methods (a
#'   mechanism never reads data to choose it).
#' @param x_range Public covariate range (two increasing numbers); required.
#' @param center,radius Public ball holding the responses; required.
#' @return A `dp_mechanism` of subclass `dp_mechanism_regression`; use
#'   [release()] with `x` and `y`.
#' @seealso [dp_geodesic_regression()], [dp_mechanism], [dp_budget()].
#' @examples
#' S2 <- sphere(2)
#' mid <- c(0, 0, 1)
#' m <- regression_mechanism(S2, n = 500, epsilon = 1, tau = 0.15, center = mid,
#'                           radius = 0.45, x_range = c(0, 1))
#' m
#' x <- runif(500)
#' truth <- mfd_exp(S2, mid, outer(x - 0.5, c(0.5, 0.2, 0)))
#' y <- mfd_exp(S2, truth, 0.03 * mfd_random_tangent(S2, truth, 500))
#' release(m, x, y)
#' @export
regression_mechanism <- function(M, n, epsilon, tau = NULL, center, radius, x_range,
                                 method = c("gauss_newton", "auto", "tangent", "energy", "linearised", "joint",
                                            "sequential"),
                                 p_radius = NULL, v_bound = NULL, localise = 0.1, weight = NULL,
                                 sampler = c("auto", "exact", "mcmc"), mcmc = NULL) {
  check_required(c("M", "n"))
  n <- check_count(n, "n")
  check_required(c("center", "radius", "x_range"), why = "a mechanism is built from public bounds only")
  ball <- public_ball(M, NULL, center, radius)
  check_x_range(x_range)
  # (classed errors for a bad choice, and "auto" as in dp_geodesic_regression())
  method <- check_choice(method, c("gauss_newton", "auto", "tangent", "energy", "linearised", "joint", "sequential"),
                         "method")
  if (method == "auto") method <- "gauss_newton"
  opts <- regression_options(M, if (missing(epsilon)) NULL else epsilon, method, tau, p_radius, v_bound,
                             localise, weight, check_choice(sampler, c("auto", "exact", "mcmc"), "sampler"), mcmc)
  build_regression_mechanism(M, n, opts, ball, as.numeric(x_range))
}

# The options of a regression release, validated (public inputs).
regression_options <- function(M, epsilon, method, tau, p_radius, v_bound, localise, weight, sampler, mcmc,
                               call = sys.call(-1)) {
  method <- check_choice(method, c("gauss_newton", "tangent", "energy", "linearised", "joint", "sequential"),
                         "method", call = call)
  sampler <- check_choice(sampler, c("auto", "exact", "mcmc"), "sampler", call = call)
  eps <- resolve_regression_epsilon(epsilon, method, call = call)
  check_share(localise, call = call)
  if (!is.null(weight)) check_positive_number(weight, "weight", call = call)
  if (!is.null(tau)) check_positive_number(tau, "tau", call = call)
  if (!is.null(mcmc) && !inherits(mcmc, "mcmc_control")) abort_arg("mcmc", "must come from mcmc_control()", call)
  flat <- inherits(M, "euclidean")
  exact_only <- method %in% c("gauss_newton", "tangent") || flat
  if (exact_only && sampler == "mcmc") {
    abort_arg("sampler", sprintf("\"mcmc\" does not apply: method = \"%s\"%s is always drawn exactly", method,
                                 if (flat) " on euclidean()" else ""), call)
  }
  if (method %in% c("energy", "linearised") && !flat && sampler == "exact") {
    abort_arg("sampler", sprintf("\"exact\" does not apply to method = \"%s\" (drawn by a chain); use \"auto\" or \"mcmc\"", method), call)
  }
  if (flat && !method %in% c("gauss_newton", "tangent", "sequential")) method <- "tangent"
  # Options of other methods are refused, not ignored: a user who tunes a
  # chain that does not run should hear so.
  runs <- sprintf("method = \"%s\"%s", method, if (flat) " on euclidean()" else "")
  if (!is.null(mcmc) && method %in% c("gauss_newton", "tangent")) {
    abort_arg("mcmc", sprintf("does not apply: %s runs no chain", runs), call)
  }
  if (method != "joint") {
    if (!is.null(weight)) abort_arg("weight", sprintf("is an option of method = \"joint\"; %s does not use it", runs), call)
    if (!identical(localise, 0.1)) {
      abort_arg("localise", sprintf("is an option of method = \"joint\"; %s does not use it", runs), call)
    }
  }
  list(epsilon = eps, method = method, tau = tau, p_radius = p_radius, v_bound = v_bound, localise = localise,
       weight = weight, sampler = sampler, mcmc = mcmc)
}

check_x_range <- function(x_range, call = sys.call(-1)) {
  ok <- is.numeric(x_range) && length(x_range) == 2 && all(is.finite(x_range)) && x_range[2] > x_range[1] &&
    is.finite(diff(x_range))
  if (!ok) abort_arg("x_range", "must be two finite increasing numbers", call)
  invisible(x_range)
}

# The mechanism for validated public inputs: ball = list(center = ambient
# vector, radius); inferred: names of bounds taken from the data.
build_regression_mechanism <- function(M, n, opts, ball, x_range, inferred = character(), call = sys.call(-1)) {
  r <- ball$radius
  dom <- regression_domain(M, n, opts, r, call = call)
  R0 <- dom$R0
  V0 <- dom$V0
  plan <- dom$plan
  method <- opts$method
  bounds <- list(center = from_ambient(M, matrix(ball$center), single = TRUE), radius = r, tau = opts$tau,
                 p_radius = R0, v_bound = V0, x_range = x_range, inferred = inferred)
  base <- list(center = ball$center, radius = r, R0 = R0, V0 = V0, x_range = x_range)
  if (!is.null(plan$spec$cpp)) plan$spec$cpp[c("center", "R0", "V0")] <- list(ball$center, R0, V0)
  if (!is.null(plan$spec$scale)) plan$spec$cpp <- scaled_cpp_spec(plan$spec, ball$center, R0, V0)
  err <- regression_expected_error(plan)
  if (!is.null(err)) warn_low_utility_regression(err, R0, V0, call)
  not_private <- if (method == "sequential") "method = \"sequential\": the p-step uses the non-private v-hat" else character()
  privacy <- list(type = "pure", epsilon = sum(opts$epsilon), delta = 0)
  new_dp_mechanism("geodesic_regression", M, n, privacy, bounds, plan$stages, method = method,
                   not_private = not_private, spec = c(base, list(opts = opts), plan$spec), expected_error = err,
                   subclass = "dp_mechanism_regression",
                   build = list(fun = "build_regression_mechanism",
                                args = list(M = M, n = n, opts = opts, ball = ball, x_range = x_range,
                                            inferred = inferred)))
}

# The public domain and plan of a regression on a ball of radius r (the
# centre plays no part): p_radius, v_bound and tau checked, the domain's
# representability and the stages' noise scales. Its refusals grow with r
# (representability) or shrink with it (scales below range), so the
# private-bounds path runs it on the largest and the smallest ball its
# stages may choose, before the budget is charged (on_private_ball_range()).
regression_domain <- function(M, n, opts, r, call = sys.call(-1)) {
  if (!(r >= .Machine$double.xmin)) {
    # (a subnormal radius: the localisation net's spacing underflows to 0)
    abort_arg("radius", sprintf("is %.4g: too small for double precision (the noise scale underflows)", r), call,
              class = "dpmanifold_not_representable")
  }
  R0 <- domain_radius(opts$p_radius, r, "p_radius", M, call = call)
  V0 <- if (is.null(opts$v_bound)) 2 * r else check_positive_number(opts$v_bound, "v_bound", call = call)
  check_regression_representable(M, r, R0, V0, opts$p_radius, opts$v_bound, call = call)
  method <- opts$method
  if (is.null(opts$tau) && !method %in% c("gauss_newton", "tangent")) {
    abort_arg("tau", sprintf("is required for method = \"%s\" (the public bound on residual norms)", method), call)
  }
  plan <- switch(method,
    gauss_newton = scaled_gauss_newton_plan(M, n, opts$epsilon, r, opts$tau, R0, V0,
                                            check = function(st) isTRUE(check_regression_scales(M, st, call = call))),
    tangent = tangent_plan(M, n, opts$epsilon, r),
    legacy_plan(M, n, opts, r, R0, V0))
  if (method %in% c("gauss_newton", "tangent")) {
    # (the argument named: the domain's own when the default domain's
    # scales would be in range)
    blame <- function() {
      if (is.null(opts$p_radius) && is.null(opts$v_bound)) return("epsilon")
      def <- switch(method, gauss_newton = gauss_newton_plan(M, n, opts$epsilon, r, opts$tau, r, 2 * r),
                    tangent = tangent_plan(M, n, opts$epsilon, r))
      ok <- tryCatch(check_regression_scales(M, def$stages), dpmanifold_error = function(e) FALSE)
      if (isFALSE(ok)) "epsilon" else if (!is.null(opts$v_bound)) "v_bound" else "p_radius"
    }
    check_regression_scales(M, plan$stages, blame = blame, call = call)
  }
  list(R0 = R0, V0 = V0, plan = plan)
}

#' @rdname regression_mechanism
#' @param mechanism A mechanism from `regression_mechanism()`.
#' @param x,y Covariate and responses of the `n` records.
#' @param return_nonprivate,budget See [dp_geodesic_regression()].
#' @param ... Not used: other arguments (`epsilon`, `tau`, ...) are
#'   refused, the mechanism fixes them.
#' @export
release.dp_mechanism_regression <- function(mechanism, x, y, return_nonprivate = FALSE, budget = NULL, ...) {
  # (matched to the method's formals, so that the data of release(m, X), given by
  # position, are named and public_call() leaves them out of the release)
  cl <- match.call(release.dp_mechanism_regression, sys.call(-1))
  check_required(c("x", "y"), call = cl)
  check_no_dots(..., what = release_takes("regression_mechanism"), call = cl)
  st <- release_start(mechanism, y, "y", return_nonprivate, budget, call = cl)
  cv <- private_covariate(x, mechanism$n, mechanism$spec$x_range, call = cl)
  release_regression_data(mechanism, cv, st$data, return_nonprivate, call = cl, charge = st$charge,
                          resp = response_names(mechanism$manifold, y))
}

# The data work of a regression release (Ya: the responses in ambient
# layout, not yet validated; cv: the public covariate map's output).
# `charge`: the budget's charge (or NULL), made once the data are found
# valid, before anything of the draw is returned; `resp`: the responses'
# names on euclidean(d) (response_names()), put on the estimate.
release_regression_data <- function(mech, cv, Ya, return_nonprivate = FALSE, call = NULL, charge = NULL, resp = NULL) {
  M <- mech$manifold
  s <- mech$spec
  if (mech$method %in% c("gauss_newton", "tangent")) {
    res <- cpp_release_regression(M, Ya, cv$t, s$cpp, isTRUE(return_nonprivate))
    if (res$status == "malformed") {
      abort_off_manifold(M, "y", res$why, call = call)
    }
    if (!is.null(charge)) charge()
    scaled <- NULL
    if (!is.null(res$scale_level)) {
      # (the scale stage drew a level: the release ran that level's plan)
      scaled <- scale_drawn(mech, res$scale_level)
      mech <- scaled_mechanism(mech, res$scale_level)
    }
    drawn <- gauss_newton_drawn(mech, res$clip)
    if (!is.null(scaled)) drawn <- c(list(plan = scaled$plan), drawn["stages"][lengths(drawn["stages"]) > 0],
                                     list(bounds = c(scaled$bounds, drawn$bounds)))
    out <- list(p = res$p, v = res$v, drawn = drawn, uncertainty = res$uncertainty)
    Y <- NULL
  } else {
    Y <- clip_points(M, validate_release_points(M, Ya, "y", call), s$center, s$radius, call)
    if (!is.null(charge)) charge()
    out <- legacy_release(mech, cv$t, Y)
  }
  p <- as.numeric(check_representable(M, matrix(out$p), "radius", "point", call))
  width <- diff(s$x_range)
  nonprivate <- NULL
  if (isTRUE(return_nonprivate)) {
    warn_privacy_leak(msg = "`return_nonprivate = TRUE` stores the non-private fit and clipped counts: this release is NOT private.",
                      call = call)
    if (is.null(Y)) Y <- clip_points(M, validate_release_points(M, Ya, "y", call), s$center, s$radius, call)
    nonprivate <- regression_nonprivate(M, cv, Y, p, out$v, width)
  }
  est <- list(p = from_ambient(M, matrix(p), single = TRUE), v = from_ambient(M, matrix(out$v / width), single = TRUE),
              x0 = mean(s$x_range), x_range = s$x_range)
  if (!is.null(resp)) names(est$p) <- names(est$v) <- resp
  # the public error model (released statistics and public constants only)
  if (!is.null(out$uncertainty)) est$uncertainty <- out$uncertainty
  release_object(mech, est,
                 drawn = out$drawn, nonprivate = nonprivate, call = call, method = mech$method)
}

# Non-private facts for studies (return_nonprivate = TRUE only).
regression_nonprivate <- function(M, cv, Y, p, v, width) {
  f <- tryCatch(regression_fit_centred(M, cv$t, Y), dpmanifold_error = function(e) {
    pass_interrupt(e)
    NULL
  })
  out <- list(clipped = c(y = attr(Y, "clipped") %||% 0, x = cv$clamped))
  if (is.null(f)) return(out)
  c(list(p = from_ambient(M, matrix(f$p), single = TRUE), v = from_ambient(M, matrix(f$v / width), single = TRUE),
         energy = f$energy, energy_at_release = cpp_regression_energy(M, cv$t, Y, p, v)), out)
}
