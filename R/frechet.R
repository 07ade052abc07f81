#' Frechet mean on a manifold
#'
#' Minimises \eqn{F(x) = \sum_i w_i d(x, x_i)^2 / (2 \sum_i w_i)} by
#' Riemannian gradient descent, \eqn{x \leftarrow Exp_x(t \bar{v})} with
#' \eqn{\bar{v}} the weighted mean of \eqn{Log_x(x_i)} and \eqn{t} halved
#' until the objective decreases by the Armijo condition, so every step
#' decreases F. On flat metrics (`euclidean()`, log-Euclidean `spd()`) the
#' first unit step is the closed-form mean. Kendall data may be raw
#' configurations; they are converted with [as_preshape()].
#'
#' @param M A manifold, see [manifolds].
#' @param X Data points in the layout of `M` (n points).
#' @param weights Optional non-negative weights, one per point.
#' @param init Optional starting point (default: the data point with the
#'   smallest sum of squared distances to a subsample).
#' @param max_iter Maximum number of iterations.
#' @param tol Convergence tolerance on the Riemannian gradient norm.
#' @return An object of class `frechet_mean`: a list with `mean` (a point in
#'   the layout of `M`), `iterations`, `grad_norm`, `objective` (F at the
#'   mean), `converged`, `n` and `manifold`; on `euclidean()` also
#'   `sampling`, what lm's confidence intervals need. A warning (class
#'   `dpmanifold_not_converged`, a `dpmanifold_warning`) is raised
#'   when it did not converge. Methods (see [frechet_mean-methods]):
#'   `print`, `summary`, `coef`, `nobs` and `confint` (lm's, on
#'   `euclidean()`).
#' @references Soto et al. (2022), supplement B.1 (gradient descent for the
#'   Frechet mean); Reimherr, Bharath and Soto (2021).
#' @examples
#' S2 <- sphere(2)
#' X <- mfd_exp(S2, c(0, 0, 1), 0.3 * mfd_random_tangent(S2, c(0, 0, 1), 20))
#' fm <- frechet_mean(S2, X)
#' fm
#' coef(fm)
#' @seealso [frechet_mean-methods], [dp_frechet_mean()] for the private
#'   estimate.
#' @export
frechet_mean <- function(M, X, weights = NULL, init = NULL, max_iter = 1000, tol = 1e-10) {
  check_required(c("M", "X"))
  Xa <- as_data_points(M, X, "X")
  n <- ncol(Xa)
  w <- check_weights(weights, n)
  max_iter <- check_count(max_iter, "max_iter")
  check_positive_number(tol, "tol")
  x0 <- if (is.null(init)) default_init(M, Xa, w) else {
    I <- as_data_points(M, init, "init")
    if (ncol(I) != 1L) abort_arg("init", "must be a single point")
    I[, 1]
  }
  r <- cpp_frechet_mean(M, Xa, w, x0, max_iter, tol)
  check_representable(M, matrix(r$mean), "X", "point")
  check_representable(M, c(r$objective, r$grad_norm), "X", "number")
  if (!r$converged) {
    warn_dpm(sprintf("frechet_mean() did not converge in %d iterations (gradient norm %.3g > tol %.3g)",
                     r$iterations, r$grad_norm, tol), "dpmanifold_not_converged")
  }
  structure(list(mean = from_ambient(M, matrix(r$mean), single = TRUE),
                 iterations = r$iterations, grad_norm = r$grad_norm,
                 objective = r$objective, converged = r$converged, n = n,
                 n_weighted = sum(w > 0), manifold = M,
                 sampling = if (inherits(M, "euclidean")) mean_sampling(Xa, w, r$mean)),
            class = "frechet_mean")
}

# Data points: a manifold may accept data in a raw form (Kendall: k x 2
# configurations, turned into preshapes; its registration's prepare_data);
# everything must then lie on the manifold.
as_data_points <- function(M, X, arg, call = sys.call(-1)) {
  prep <- manifold_entry(M)$prepare_data
  if (!is.null(prep) && is.numeric(X) && all(is.finite(X))) {
    X <- tryCatch(prep(M, X), dpmanifold_error = function(e) {
      pass_interrupt(e)
      abort_arg(arg, sub("^`[^`]*` ", "", conditionMessage(e)), call)
    })
  }
  as_points(M, X, arg, call = call)
}

check_weights <- function(weights, n, call = sys.call(-1)) {
  if (is.null(weights)) return(rep(1, n))
  ok <- is.numeric(weights) && length(weights) == n && all(is.finite(weights)) && all(weights >= 0) &&
    sum(weights) > 0
  if (!ok) abort_arg("weights", sprintf("must be %d finite non-negative numbers, not all zero", n), call)
  if (!is.finite(sum(weights))) {
    abort_arg("weights", "sum beyond double precision: rescale them (only their ratios matter)", call)
  }
  as.numeric(weights)
}

# On euclidean() the mean is lm(X ~ 1, weights = w)'s coefficient: what its
# confidence intervals need, per coordinate (the weighted residual sums of
# squares, the total weight and the residual degrees of freedom: lm drops
# zero weights from them).
mean_sampling <- function(Xa, w, mean) {
  R <- Xa - mean
  list(ss = as.numeric((R^2) %*% w), sum_w = sum(w), df = sum(w > 0) - 1L)
}

# Start at the data point closest (in summed squared distance) to the others;
# a subsample keeps this O(n) for large n.
default_init <- function(M, Xa, w) {
  n <- ncol(Xa)
  idx <- if (n > 50) round(seq(1, n, length.out = 50)) else seq_len(n)
  D <- cpp_dist_matrix(M, Xa[, idx, drop = FALSE], Xa[, idx, drop = FALSE])
  Xa[, idx[which.min(rowSums(D^2))]]
}

