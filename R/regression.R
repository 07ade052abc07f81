#' Geodesic regression on a manifold
#'
#' Least-squares geodesic regression (Fletcher 2013): finds the geodesic
#' \eqn{x \mapsto Exp_p(x v)} minimising
#' \eqn{E(p, v) = (2n)^{-1}\sum_i d(Exp_p(x_i v), y_i)^2}, with the covariate
#' rescaled to \[0, 1\] by `x_range`. The gradients are exact, through the
#' adjoint Jacobi fields of exp ([mfd_dexp_adjoint()]), not the
#' parallel-transport approximation. The fit is a Riemannian Gauss-Newton
#' method on (p, v): each step solves the normal equations of the residuals
#' linearised through the Jacobi fields (on manifolds of dimension up to 32;
#' above that, the flat case's normal equations precondition the gradient),
#' with Armijo backtracking (every step decreases E); v is carried by
#' parallel transport when p moves. On flat manifolds (`euclidean()`,
#' log-Euclidean `spd()`) the first step is the closed form (ordinary least
#' squares, in log coordinates for SPD). It starts from the Frechet means of
#' the points with the lowest and highest quarter of covariate values.
#'
#' @param M A manifold, see [manifolds].
#' @param x Numeric covariate, one value per observation.
#' @param y Responses in the layout of `M` (Kendall: raw configurations are
#'   converted with [as_preshape()]).
#' @param x_range Range used to rescale `x` to \[0, 1\] (default `range(x)`);
#'   values outside are clamped.
#' @param init Optional starting point: what `coef()` of a fit returns
#'   (`list(p, v, x0)`: the footpoint `p` at `x0`, the velocity `v` per unit
#'   of x), or `list(p, v)` with the footpoint at the middle of `x_range`;
#'   on [euclidean()] also what `coef()` returns there (lm's intercept and
#'   slope: a vector of two, or a 2 x d matrix), as from `coef(lm(y ~ x))`.
#' @param max_iter,tol Iteration limit and tolerance on the gradient norm.
#' @param ... Not used: an argument given here (such as lm()'s `data`) is
#'   an error naming it (there is no formula interface).
#' @return An object of class `geodesic_regression` with `coef` (list of the
#'   footpoint `p` at `x0`, the middle of `x_range`, the velocity `v` per
#'   unit of x, and `x0`: the parametrisation of [dp_geodesic_regression()],
#'   so that the geodesic is \eqn{x \mapsto Exp_p((x - x_0) v)}), `fitted` (points in the
#'   layout of `y`), `residuals` (list of tangent vectors `vectors`, at the
#'   fitted points, and their `norms`), `energy`, `r_squared` (1 - E / the
#'   Frechet variance; `NA`, with a warning, when all responses are the same
#'   point), and convergence diagnostics. Methods (see
#'   [geodesic_regression-methods]): `print`, `summary`, `coef`, `fitted`,
#'   `residuals`, `predict`, `nobs`, `confint` and `vcov` (lm's, on
#'   `euclidean()` fits), and `plot` ([plot.geodesic_regression()]).
#'   Warnings are of class `dpmanifold_warning` and carry the call:
#'   `dpmanifold_clamped` when values of `x` lie outside `x_range`,
#'   `dpmanifold_not_converged` when `max_iter` is reached first.
#' @references Fletcher (2013), Geodesic regression and the theory of least
#'   squares on Riemannian manifolds; Kulkarni and Soto, DP geodesic
#'   regression, eq. 5-8 and appendix B.3.
#' @examples
#' S2 <- sphere(2)
#' x <- runif(30)
#' truth <- mfd_exp(S2, c(0, 0, 1), outer(x, c(0.8, 0.3, 0)))
#' y <- mfd_exp(S2, truth, 0.05 * mfd_random_tangent(S2, truth, 30))
#' fit <- geodesic_regression(S2, x, y)
#' fit
#' predict(fit, c(0, 0.5, 1))
#' @seealso [geodesic_regression-methods] for the methods of the fit,
#'   [dp_geodesic_regression()] for the private estimate.
#' @export
geodesic_regression <- function(M, x, y, x_range = NULL, init = NULL, max_iter = 1000, tol = 1e-10, ...) {
  check_required("M")
  check_no_formula(if (!missing(x)) x, "x", ..., what = "geodesic_regression()")
  check_required(c("x", "y"))
  cl <- match.call()
  Y <- as_data_points(M, y, "y")
  xs <- rescale_covariate(x, ncol(Y), x_range)
  if (xs$clamped > 0) {
    warn_dpm(sprintf("%d value(s) of `x` outside `x_range` were clamped", xs$clamped), "dpmanifold_clamped", cl)
  }
  max_iter <- check_count(max_iter, "max_iter")
  check_positive_number(tol, "tol")
  p0 <- v0 <- NULL
  if (!is.null(init)) {
    init <- regression_init(M, init)
    pm <- as_points(M, init$p, "init$p")[, 1]
    vm <- as_tangents(M, matrix(pm), init$v, "init$v")[, 1]
    # to the fit's internal parametrisation: footpoint at the lower end of
    # the range (from x0: the middle of the range unless init says), velocity
    # over the range
    w <- diff(xs$range)
    back <- (xs$range[1] - (init$x0 %||% mean(xs$range))) * vm
    p0 <- cpp_binary_op(M, "exp", matrix(pm), matrix(back))[, 1]
    v0 <- cpp_ternary_op(M, "transport_along", matrix(pm), matrix(back), matrix(vm * w))[, 1]
  }
  f <- cpp_regression_fit(M, xs$x01, Y, p0, v0, max_iter, tol)
  check_representable(M, matrix(f$p), "y", "point")
  check_representable(M, c(f$v, f$energy, f$grad_norm), "y", "number")
  if (!f$converged) {
    warn_dpm(sprintf("geodesic_regression() did not converge in %d iterations (gradient norm %.3g)",
                     f$iterations, f$grad_norm), "dpmanifold_not_converged", cl)
  }
  new_geodesic_regression(M, f$p, f$v, xs, Y, f, cl, point_names(y, ncol(Y)), response_names(M, y))
}

# `init` of geodesic_regression(): list(p, v), or coef()'s list(p, v, x0)
# (the footpoint at x0; without x0 at the middle of the range), or on
# euclidean() what coef() (or lm's coef()) returns there: the intercept
# and the slope, two numbers or a 2 x d matrix; lm's intercept is the
# footpoint at x = 0.
regression_init <- function(M, init, call = sys.call(-1)) {
  lm_form <- sprintf("on %s also coef()'s (Intercept) and slope, %s", manifold_label(M),
                     if (M$dim == 1) "two numbers" else sprintf("a 2 x %d matrix", M$dim))
  if (inherits(M, "euclidean") && is.numeric(init)) {
    ok <- if (is.null(dim(init))) M$dim == 1 && length(init) == 2L else
      length(dim(init)) == 2L && all(dim(init) == c(2L, M$dim))
    if (!ok) abort_arg("init", sprintf("must be list(p = , v = ) or, %s", lm_form), call)
    B <- matrix(init, 2L)
    return(list(p = B[1, ], v = B[2, ], x0 = 0))
  }
  if (!is.list(init) || is.null(init$p) || is.null(init$v)) {
    abort_arg("init", paste0("must be a list with elements `p` and `v` (as coef() returns)",
                             if (inherits(M, "euclidean")) paste0(", or ", lm_form)), call)
  }
  if (!is.null(init$x0) && !(is_scalar_number(init$x0) && is.finite(init$x0))) {
    abort_arg("init$x0", "must be a single finite number (the covariate value at the footpoint `p`)", call)
  }
  init
}

# (nm, resp: the names of the responses and of their coordinates on
# euclidean(d), which coef(), fitted() and residuals() carry as lm's do)
new_geodesic_regression <- function(M, p, v, xs, Y, f, call, nm = NULL, resp = NULL) {
  n <- ncol(Y)
  Fit <- cpp_binary_op(M, "exp", matrix(p), sweep(matrix(v, length(v), n), 2, xs$x01, `*`))
  R <- cpp_binary_op(M, "log", Fit, Y)
  norms <- sqrt(pmax(cpp_inner(M, Fit, R, R), 0))
  fm <- cpp_frechet_mean(M, Y, rep(1, n), Y[, 1], 1000L, 1e-10)
  check_representable(M, c(norms, fm$objective), "y", "number")
  # R^2 = 1 - E / (Frechet variance) is undefined (0 / 0) when all responses
  # coincide: NA, with a warning, instead of a silent NaN.
  r_squared <- if (fm$objective > 0) 1 - f$energy / fm$objective else {
    warn_dpm("all responses `y` are the same point: R^2 is undefined (NA)", call = call)
    NA_real_
  }
  # (the velocity per unit of x: a range of width 1e-300 made a finite
  # velocity over it Inf per unit, silently)
  cf <- midrange_coef(M, p, v, xs$range)
  if (!is.null(resp)) names(cf$p) <- names(cf$v) <- resp
  check_representable(M, unlist(cf$v), if (is.null(call[["x_range"]])) "x" else "x_range", "tangent", call)
  structure(list(
    coef = cf,
    fitted = name_points(from_ambient(M, Fit), nm, resp),
    residuals = list(vectors = name_points(from_ambient(M, R), nm, resp), norms = norms),
    x = xs$x, x_range = xs$range, y = from_ambient(M, Y), n = n,
    energy = f$energy, r_squared = r_squared, frechet_variance = fm$objective,
    iterations = f$iterations, grad_norm = f$grad_norm, converged = f$converged,
    manifold = M, call = call), class = "geodesic_regression")
}

# The fit's geodesic (footpoint p at the lower end of the range, v the
# change over it) in the parametrisation of coef(): footpoint at the middle
# of the range, velocity per unit of x, and x0.
midrange_coef <- function(M, p, v, x_range) {
  half <- matrix(v / 2)
  pm <- cpp_binary_op(M, "exp", matrix(p), half)
  vm <- cpp_ternary_op(M, "transport_along", matrix(p), half, matrix(v)) / diff(x_range)
  list(p = from_ambient(M, pm, single = TRUE), v = from_ambient(M, vm, single = TRUE), x0 = mean(x_range))
}

# The covariate as a numeric vector: a numeric vector or one-row/column
# matrix, or a data frame (tibble) of one numeric column, df["age"], as
# predict()'s newdata takes it.
covariate_values <- function(x, call = sys.call(-1)) {
  if (is.data.frame(x) && length(x) == 1L && is.numeric(x[[1L]])) x <- x[[1L]]
  if (!is.numeric(x) || !is.null(dim(x)) && length(dim(x)) > 1 && min(dim(x)) > 1) {
    abort_arg("x", "must be a numeric vector (or a data frame of one numeric column)", call)
  }
  as.numeric(x)
}

rescale_covariate <- function(x, n, x_range, call = sys.call(-1)) {
  x <- covariate_values(x, call)
  x <- as.numeric(x)
  if (length(x) != n) abort_arg("x", sprintf("has length %d but `y` has %d points", length(x), n), call)
  if (any(!is.finite(x))) abort_arg("x", "contains NA, NaN or Inf values", call)
  if (n < 2L) abort_arg("y", "must hold at least 2 points", call)
  if (diff(range(x)) <= 0) abort_arg("x", "is constant: no regression possible", call)
  is_default_range <- is.null(x_range)
  if (is_default_range) x_range <- range(x)
  ok <- is.numeric(x_range) && length(x_range) == 2 && all(is.finite(x_range)) && x_range[2] > x_range[1]
  if (!ok) abort_arg("x_range", "must be two finite increasing numbers", call)
  if (!is.finite(x_range[2] - x_range[1])) {
    abort_arg(if (is_default_range) "x" else "x_range",
              "spans a range wider than double precision holds (the rescaled covariate is not representable)",
              call, class = "dpmanifold_not_representable")
  }
  x01 <- (x - x_range[1]) / (x_range[2] - x_range[1])
  clamped <- sum(x01 < 0 | x01 > 1)
  x01 <- pmin(pmax(x01, 0), 1)
  if (diff(range(x01)) <= 0) abort_arg("x", "is constant (after clamping to `x_range`): no regression possible", call)
  list(x = x, x01 = x01, range = x_range, clamped = clamped)
}

#' Sensitivities of a private geodesic regression
#'
#' The sensitivities each stage of [dp_geodesic_regression()] uses, for
#' responses in a public ball of radius `radius`, residual limit `tau` and
#' the default domain (`p_radius = radius`, `v_bound = 2 * radius`), by
#' method: `"gauss_newton"` (the default) and `"tangent"`: the scale stage
#' (1, where it runs; the stages after it are listed at the clip bound
#' `tau`, the largest it may choose), the design sums
#' (weighted l1 sensitivity 1), the localising stage (the exponential
#' mechanism over a net: 1 per block of coordinates netted; or the moments
#' at the centre: `2 r`, after its own clip stage once
#' \eqn{n\epsilon_1 \ge 90}) and the moments of the refining round (twice its clip level: here its upper limit;
#' the release prints the level it drew), the clip stage (1);
#' `"energy"`: \eqn{\tau_e^2/2} of the clipped energy; `"linearised"`: the
#' energy law's, then the design and moments (`2 tau_e`); `"joint"`: the
#' weighted KNG gradient (with the curvature factors of the Jacobi fields
#' on negatively curved spaces); `"sequential"`: the seed paper's p and v
#' gradients. \eqn{\tau_e = \min(\tau, 3r)} (no residual on the default
#' domain is longer). Derivations: `system.file("proofs",
#' package = "dpmanifold")`, files `regression-gauss-newton.md` and
#' `regression-methods.md`.
#'
#' @param M A manifold.
#' @param tau Public upper limit on residual norms.
#' @param radius Public radius of the ball holding the responses.
#' @param n Number of records.
#' @param method One of the methods of [dp_geodesic_regression()].
#' @param epsilon The budget (the default's stages depend on it through
#'   the public rules that shape them).
#' @return A named numeric vector, one entry per stage.
#' @examples
#' regression_sensitivity(sphere(2), tau = 0.3, radius = 0.5, n = 1000)
#' regression_sensitivity(spd(2), tau = 0.3, radius = 0.5, n = 100, method = "joint")
#' @export
regression_sensitivity <- function(M, tau, radius, n, method = c("gauss_newton", "tangent", "energy", "linearised",
                                                                   "joint", "sequential"),
                                   epsilon = 1) {
  check_required(c("M", "tau", "radius", "n"))
  check_positive_number(tau, "tau")
  check_positive_number(radius, "radius")
  n <- check_count(n, "n")
  method <- check_choice(method, c("gauss_newton", "tangent", "energy", "linearised", "joint", "sequential"),
                         "method")
  check_epsilon(epsilon)
  if (3 * radius > max_representable_distance(M)) {
    abort_arg("radius", sprintf("is %.4g: the default domain reaches %.4g from the centre, beyond what double precision holds on %s",
                                radius, 3 * radius, manifold_label(M)), class = "dpmanifold_not_representable")
  }
  if (method %in% c("gauss_newton", "tangent")) {
    check_radius(M, radius)
    plan <- if (method == "tangent") tangent_plan(M, n, epsilon, radius) else
      scaled_gauss_newton_plan(M, n, epsilon, radius, tau, radius, 2 * radius)
    return(stats::setNames(vapply(plan$stages, function(s) s$sensitivity, numeric(1)),
                           vapply(plan$stages, function(s) s$name, "")))
  }
  tau_e <- residual_bound(tau, radius, radius, 2 * radius)
  out <- switch(method,
    energy = c(energy = tau_e^2 / 2),
    linearised = c(energy = tau_e^2 / 2, design = 1, moments = 2 * tau_e),
    joint = joint_sensitivity(M, tau_e, joint_weight(M, 2 * radius), 2 * radius, n)[c("joint", "p", "v")],
    sequential = {
      J <- jacobi_bounds(M, 2 * radius)
      c(p = 2 * tau_e * J[["p"]] / n, v = tau_e * J[["v"]] / n)
    })
  check_representable(M, out, if (radius >= tau) "radius" else "tau", "number")
}
