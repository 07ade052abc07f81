#' Differentially private geodesic regression
#'
#' Releases the parameters (p, v) of a geodesic regression under
#' epsilon-differential privacy by the K-norm gradient (KNG) mechanism. The
#' responses are clipped to the public ball \eqn{B_r(center)}, the covariate
#' is rescaled by the public `x_range` (values outside are clamped) and every
#' residual is clipped to norm `tau` inside the gradients, so the gradient
#' sensitivities of [regression_sensitivity()] hold at every (p, v) the
#' sampler visits.
#'
#' * `method = "joint"` (default): KNG on the pair, density
#'   \eqn{\propto \exp(-\|(\nabla_p E, \nabla_v E)(p, v)\| / \sigma)} over
#'   \eqn{p \in B_R(center)}, \eqn{|v| \le V}, \eqn{R = r + \tau},
#'   \eqn{V = 2(r + \tau)}, \eqn{\Delta = \sqrt{\Delta_p^2 + \Delta_v^2}},
#'   \eqn{\sigma = 2\Delta/\epsilon}. This is epsilon-DP as stated. It is
#'   sampled by Metropolis-Hastings with proposals \eqn{p' = Exp_p(\xi)},
#'   \eqn{v' = } transport of \eqn{v + \zeta}. On `euclidean()` (DP linear
#'   regression) the gradient is affine, \eqn{\nabla = H(\beta -
#'   \hat\beta_{OLS})}, so the law is a K-norm law around the least-squares
#'   fit restricted to the domain and is drawn exactly (no clipping needed:
#'   on the domain residuals are bounded, giving \eqn{\Delta_p = (2r + V)/n},
#'   \eqn{\Delta_v = 2(r + R + V)/n}).
#' * `method = "sequential"`: the procedure of the seed paper (Kulkarni and
#'   Soto, appendix A): first \eqn{\tilde p} by KNG on \eqn{\nabla_p E} with
#'   the non-private \eqn{\hat v} carried to each p, budget `epsilon["p"]`;
#'   then \eqn{\tilde v} by KNG on \eqn{\nabla_v E} at \eqn{\tilde p},
#'   budget `epsilon["v"]`. **Its guarantee is incomplete**: the p-step's
#'   density depends on the data through the non-private \eqn{\hat v},
#'   which the fixed-v sensitivity does not cover, so it raises a
#'   [dpmanifold_privacy_leak] warning. Use it to reproduce the paper's
#'   figures, not for releases that must be DP.
#'
#' @param M A manifold, see [manifolds].
#' @param x Numeric covariate.
#' @param y Responses in the layout of `M`.
#' @param epsilon Privacy budget; for `"sequential"` a scalar (split
#'   equally) or `c(p = , v = )`.
#' @param tau Public residual bound. Missing: the largest residual norm of
#'   the non-private fit, with a [dpmanifold_privacy_leak] warning.
#' @param center,radius Public ball holding the responses (radius below
#'   [max_radius()]). Missing: taken from the data, with the warning.
#' @param x_range Public covariate range. Missing: `range(x)`, with the
#'   warning.
#' @param method `"joint"` or `"sequential"`.
#' @param p_radius,v_bound Public bounds of the sampler's domain: the
#'   footpoint is kept within `p_radius` of `center` and the shooting vector
#'   within norm `v_bound`. Defaults R = radius + tau and V = 2 (radius + tau)
#'   (Kulkarni and Soto, appendix C). Smaller values, known from the design
#'   of a study (e.g. the largest plausible change over `x_range`), keep the
#'   KNG law away from the large region where most residuals are clipped and
#'   its density is flat; larger values are refused, since the sensitivities
#'   assume them.
#' @param mcmc Sampler settings, see [mcmc_control()]. The default, 2000
#'   burn-in and 2000 further steps, gave the same distribution of released
#'   gradient norms as chains ten times longer on the sphere examples of the
#'   tests (two-sample KS p = 0.39).
#' @param return_nonprivate Also return the non-private fit.
#' @return A [dp_release] whose `estimate` is `list(p, v, x_range)`;
#'   [predict()] on it evaluates the private geodesic. Its `sensitivity` is
#'   `c(p, v, joint)` and `clipped` counts responses moved onto the ball and
#'   covariates clamped.
#' @references Kulkarni and Soto, Differentially private geodesic regression
#'   (Theorem 3.3, eq. 20/44, appendix A and C); Soto et al. (2022) for KNG.
#' @examples
#' S2 <- sphere(2)
#' x <- runif(100)
#' truth <- mfd_exp(S2, c(0, 0, 1), outer(x, c(0.5, 0.2, 0)))
#' y <- mfd_exp(S2, truth, 0.05 * mfd_random_tangent(S2, truth, 100))
#' rel <- dp_geodesic_regression(S2, x, y, epsilon = 1, tau = 0.2,
#'                               center = c(0, 0, 1), radius = 0.7, x_range = c(0, 1))
#' rel
#' predict(rel, c(0, 1))
#' @export
dp_geodesic_regression <- function(M, x, y, epsilon, tau = NULL, center = NULL, radius = NULL,
                                   x_range = NULL, method = c("joint", "sequential"),
                                   p_radius = NULL, v_bound = NULL,
                                   mcmc = mcmc_control(burnin = 2000, steps = 2000),
                                   return_nonprivate = FALSE) {
  cl <- match.call()
  check_manifold(M)
  method <- match.arg(method)
  eps <- resolve_regression_epsilon(epsilon, method)
  Y <- as_data_points(M, y, "y")
  n <- ncol(Y)
  if (is.null(x_range)) {
    if (is.numeric(x) && all(is.finite(x))) warn_privacy_leak("`x_range` (the range of x) was")
  }
  xs <- rescale_covariate(x, n, x_range)
  b <- resolve_ball(M, Y, center, radius)
  Y <- b$X
  inferred <- b$inferred
  if (is.null(x_range)) inferred <- c(inferred, "x_range")
  fit <- cpp_regression_fit(M, xs$x01, Y, NULL, NULL, 1000L, 1e-10)
  if (is.null(tau)) {
    Fit <- cpp_binary_op(M, "exp", matrix(fit$p), sweep(matrix(fit$v, length(fit$v), n), 2, xs$x01, `*`))
    tau <- max(cpp_dist(M, Fit, Y), 1e-8)
    warn_privacy_leak("`tau` (the largest residual of the non-private fit) was")
    inferred <- c(inferred, "tau")
  }
  check_positive_number(tau, "tau")
  R <- domain_bound(p_radius, b$radius + tau, "p_radius")
  V <- domain_bound(v_bound, 2 * (b$radius + tau), "v_bound")
  sens <- regression_sensitivity(M, tau, b$radius, n)

  if (method == "joint" && inherits(M, "euclidean")) {
    out <- dp_linear_regression_exact(M, xs$x01, Y, eps, b, R, V)
    sens <- out$sensitivity
  } else if (method == "joint") {
    sigma <- 2 * sens[["joint"]] / eps
    res <- cpp_regression_joint_kng(M, xs$x01, Y, tau, sigma, b$center, R, V, b$center,
                                    numeric(length(b$center)), mcmc_settings(mcmc, 1L))
    D <- length(b$center)
    out <- list(p = res$draws[seq_len(D), 1], v = res$draws[D + seq_len(D), 1], sigma = sigma,
                sampler = release_sampler("mcmc", mcmc))
  } else {
    # the p-step's density holds the non-private v-hat fixed: data the
    # fixed-v sensitivity does not cover (SPEC section 5)
    warn_privacy_leak(msg = paste("`method = \"sequential\"` holds the non-private v-hat fixed in the p-step:",
                                  "this release is NOT differentially private as stated. Use method = \"joint\"."))
    sigma <- c(p = 2 * sens[["p"]] / eps[["p"]], v = 2 * sens[["v"]] / eps[["v"]])
    rp <- cpp_regression_p_step(M, xs$x01, Y, tau, sigma[["p"]], b$center, R, fit$p, fit$v, b$center,
                                mcmc_settings(mcmc, 1L))
    p_t <- rp$draws[, 1]
    rv <- cpp_regression_v_step(M, xs$x01, Y, tau, sigma[["v"]], p_t, V, numeric(length(p_t)),
                                mcmc_settings(mcmc, 1L))
    out <- list(p = p_t, v = rv$draws[, 1], sigma = sigma, sampler = release_sampler("mcmc", mcmc))
  }
  privacy <- list(type = "pure", epsilon = sum(eps), delta = 0)
  if (method == "sequential") {
    privacy$split <- eps
    privacy$not_private <- "method = \"sequential\": the p-step uses the non-private v-hat"
  }
  nonprivate <- if (isTRUE(return_nonprivate)) {
    warn_privacy_leak(msg = "`return_nonprivate = TRUE` stores the non-private fit: this release is NOT private.")
    g <- cpp_regression_gradient(M, xs$x01, Y, out$p, out$v, tau)
    list(p = from_ambient(M, matrix(fit$p), single = TRUE), v = from_ambient(M, matrix(fit$v), single = TRUE),
         energy = fit$energy, clipped = c(y = b$clipped, x = xs$clamped),
         residuals_clipped_at_release = g$clipped)
  }
  new_dp_release(
    estimate = list(p = from_ambient(M, matrix(out$p), single = TRUE),
                    v = from_ambient(M, matrix(out$v), single = TRUE), x_range = xs$range),
    manifold = M, mechanism = "kng", statistic = "geodesic_regression", privacy = privacy,
    sensitivity = sens, sigma = out$sigma,
    bounds = list(center = from_ambient(M, matrix(b$center), single = TRUE), radius = b$radius,
                  tau = tau, R = R, v_bound = V, x_range = xs$range, inferred = inferred),
    n = n, sampler = out$sampler, nonprivate = nonprivate, call = cl, method = method)
}

domain_bound <- function(value, default, arg, call = sys.call(-1)) {
  if (is.null(value)) return(default)
  check_positive_number(value, arg, call = call)
  if (value > default * (1 + 1e-12)) {
    abort_arg(arg, sprintf("is %.4g but may not exceed %.4g (the sensitivities assume the default domain)", value, default), call)
  }
  value
}

resolve_regression_epsilon <- function(epsilon, method, call = sys.call(-1)) {
  if (missing(epsilon) || is.null(epsilon)) abort_arg("epsilon", "is required", call)
  if (method == "joint") {
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

# Exact joint KNG for linear regression: grad E = (H x I)(beta - beta_ols)
# with H = [[1, m1], [m1, m2]], so beta = beta_ols + (H^-1 x I) u with u a
# K-norm draw in R^(2d), rejected outside the domain.
dp_linear_regression_exact <- function(M, x01, Y, epsilon, b, R, V) {
  n <- ncol(Y); d <- nrow(Y)
  X <- cbind(1, x01)
  beta <- solve(crossprod(X), crossprod(X, t(Y)))   # 2 x d: rows p, v
  m1 <- mean(x01); m2 <- mean(x01^2)
  Hinv <- solve(matrix(c(1, m1, m1, m2), 2))
  dp <- (2 * b$radius + V) / n
  dv <- 2 * (b$radius + R + V) / n
  sens <- c(p = dp, v = dv, joint = sqrt(dp^2 + dv^2))
  sigma <- 2 * sens[["joint"]] / epsilon
  attempts <- 0
  repeat {
    attempts <- attempts + 1
    if (attempts > 1e6) stop("exact linear-regression sampler: too many rejections", call. = FALSE)
    u <- matrix(cpp_euclidean_laplace_noise(2L * d, sigma, 1L)[, 1], 2, byrow = TRUE)
    draw <- beta + Hinv %*% u
    if (sqrt(sum((draw[1, ] - b$center)^2)) <= R && sqrt(sum(draw[2, ]^2)) <= V) break
  }
  list(p = draw[1, ], v = draw[2, ], sigma = sigma, sensitivity = sens, sampler = list(kind = "exact"))
}

#' @rdname dp_release
#' @param newdata Covariate values at which to evaluate a private geodesic.
#' @export
predict.dp_release <- function(object, newdata, ...) {
  if (object$statistic != "geodesic_regression") abort_arg("object", "is not a regression release")
  est <- object$estimate
  predict_geodesic(object$manifold, est$p, est$v, est$x_range, newdata)
}

#' @rdname dp_release
#' @export
coef.dp_release <- function(object, ...) {
  if (object$statistic == "geodesic_regression") object$estimate[c("p", "v")] else object$estimate
}

print_estimate <- function(x) {
  cat(sprintf("  private footpoint p (at x = %g):\n", x$estimate$x_range[1]))
  print(signif(x$estimate$p, 5))
  cat("  private shooting vector v (change over the x range):\n")
  print(signif(x$estimate$v, 5))
  invisible(NULL)
}
