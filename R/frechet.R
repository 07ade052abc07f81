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
#'   mean) and `converged`. A warning is raised when it did not converge.
#' @references Soto et al. (2022), supplement B.1 (gradient descent for the
#'   Frechet mean); Reimherr, Bharath and Soto (2021).
#' @examples
#' S2 <- sphere(2)
#' X <- mfd_exp(S2, c(0, 0, 1), 0.3 * mfd_random_tangent(S2, c(0, 0, 1), 20))
#' fm <- frechet_mean(S2, X)
#' fm
#' @export
frechet_mean <- function(M, X, weights = NULL, init = NULL, max_iter = 1000, tol = 1e-10) {
  check_manifold(M)
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
    warning(sprintf("frechet_mean() did not converge in %d iterations (gradient norm %.3g > tol %.3g)",
                    r$iterations, r$grad_norm, tol), call. = FALSE)
  }
  structure(list(mean = from_ambient(M, matrix(r$mean), single = TRUE),
                 iterations = r$iterations, grad_norm = r$grad_norm,
                 objective = r$objective, converged = r$converged, n = n, manifold = M),
            class = "frechet_mean")
}

#' @export
print.frechet_mean <- function(x, ...) {
  check_fields(x, "frechet_mean", c("mean", "iterations", "grad_norm", "objective", "converged", "n", "manifold"))
  cat(sprintf("<frechet_mean> on %s, n = %d\n", manifold_label(x$manifold), x$n))
  cat(sprintf("  %s after %d iterations (gradient norm %.2e), objective %.6g\n",
              if (x$converged) "converged" else "NOT converged", x$iterations, x$grad_norm, x$objective))
  cat("  mean:\n")
  print(signif(x$mean, 5))
  invisible(x)
}

# Data points: Kendall data may be raw configurations; everything else must
# lie on the manifold.
as_data_points <- function(M, X, arg, call = sys.call(-1)) {
  if (inherits(M, "kendall_shape") && is.numeric(X) && length(dim(X)) %in% 2:3 && all(is.finite(X))) {
    if (dim(X)[1] == M$size && dim(X)[2] == 2L) {
      X <- tryCatch(as_preshape(X), dpmanifold_error = function(e) abort_arg(arg, sub("^`X` ", "", conditionMessage(e)), call))
    }
  }
  as_points(M, X, arg, call = call)
}

check_weights <- function(weights, n, call = sys.call(-1)) {
  if (is.null(weights)) return(rep(1, n))
  ok <- is.numeric(weights) && length(weights) == n && all(is.finite(weights)) && all(weights >= 0) &&
    is.finite(sum(weights)) && sum(weights) > 0
  if (!ok) abort_arg("weights", sprintf("must be %d finite non-negative numbers, not all zero", n), call)
  as.numeric(weights)
}

# Start at the data point closest (in summed squared distance) to the others;
# a subsample keeps this O(n) for large n.
default_init <- function(M, Xa, w) {
  n <- ncol(Xa)
  idx <- if (n > 50) round(seq(1, n, length.out = 50)) else seq_len(n)
  D <- cpp_dist_matrix(M, Xa[, idx, drop = FALSE], Xa[, idx, drop = FALSE])
  Xa[, idx[which.min(rowSums(D^2))]]
}

manifold_label <- function(M) {
  switch(M$type,
    euclidean = sprintf("R^%d", M$size),
    sphere = sprintf("S^%d", M$size),
    spd_affine_invariant = sprintf("SPD(%d), affine-invariant", M$size),
    spd_log_euclidean = sprintf("SPD(%d), log-Euclidean", M$size),
    kendall_shape = sprintf("Kendall shape space (%d landmarks)", M$size),
    hyperbolic = sprintf("H^%d", M$size))
}
