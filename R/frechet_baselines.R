# Ambient ("Euclidean") baselines of the papers' comparisons
# (mechanism = "euclidean_laplace"; proof: inst/proofs/ambient-baselines.md), one method per
# manifold class: they are specific to each embedding (the ambient distance
# bound of the public ball and the way back onto the manifold differ), so a
# manifold without methods has no baseline and mechanism =
# "euclidean_laplace" is refused with a classed error. baseline_scale()
# gives the sensitivity and scale from public quantities;
# euclidean_baseline() returns list(estimate = ambient vector,
# off_manifold = TRUE when the estimate may leave the manifold).
baseline_scale <- function(M, radius, n, epsilon, align = TRUE) UseMethod("baseline_scale")
euclidean_baseline <- function(M, Xa, epsilon, ball, align) UseMethod("euclidean_baseline")

no_euclidean_baseline <- function(M, call = sys.call(-1)) {
  abort_arg("mechanism", sprintf("\"euclidean_laplace\" has no ambient baseline on %s (it needs baseline_scale() and euclidean_baseline() methods for class \"%s\"); use \"laplace\" or \"kng\"",
                                 manifold_label(M), class(M)[1]), call, class = "dpmanifold_no_baseline")
}

#' @export
baseline_scale.default <- function(M, radius, n, epsilon, align = TRUE) no_euclidean_baseline(M)

#' @export
euclidean_baseline.default <- function(M, Xa, epsilon, ball, align) no_euclidean_baseline(M)

#' @export
baseline_scale.euclidean <- function(M, radius, n, epsilon, align = TRUE) {
  Delta <- 2 * radius / n
  list(sensitivity = Delta, sigma = Delta / epsilon)
}

#' @export
euclidean_baseline.euclidean <- function(M, Xa, epsilon, ball, align) {
  s <- baseline_scale(M, ball$radius, ncol(Xa), epsilon)
  list(estimate = rowMeans(Xa) + cpp_euclidean_laplace_noise(M$dim, s$sigma, 1L)[, 1])
}

#' @export
baseline_scale.sphere <- function(M, radius, n, epsilon, align = TRUE) {
  # The Frechet mean moves by at most the Laplace sensitivity in geodesic,
  # hence also in chordal, distance.
  Delta <- frechet_sensitivity(M, radius, n, "laplace")
  list(sensitivity = Delta, sigma = Delta / epsilon)
}

#' @export
euclidean_baseline.sphere <- function(M, Xa, epsilon, ball, align) {
  n <- ncol(Xa)
  s <- baseline_scale(M, ball$radius, n, epsilon)
  xbar <- cpp_frechet_mean(M, Xa, rep(1, n), ball$center, 1000L, 1e-12)$mean
  # (only the direction is released: with u = max(1, sigma), xbar / u plus
  # noise of scale sigma / u has the same direction's law, and no huge
  # sigma (epsilon near 1e-300) overflows the sum of squares to Inf)
  u <- max(1, s$sigma)
  z <- xbar / u + cpp_euclidean_laplace_noise(M$ambient_dim, s$sigma / u, 1L)[, 1]
  list(estimate = if (sum(z^2) > 0) z / sqrt(sum(z^2)) else c(1, numeric(length(z) - 1L)))
}

#' @export
baseline_scale.spd <- function(M, radius, n, epsilon, align = TRUE) {
  # Affine-invariant: whitened data lie in the Frobenius ball of radius
  # e^r - 1 around I (Soto et al. 2022, B.3.3). Log-Euclidean: the matrix
  # logarithms lie in the Frobenius ball of radius r around Log(centre).
  rE <- if (identical(M$metric, "log_euclidean")) radius else exp(radius) - 1
  Delta <- 2 * rE / n
  list(sensitivity = Delta, sigma = Delta / epsilon)
}

# Symmetric k x k matrix from a Frobenius-isometric vech (diagonal first,
# then the lower triangle scaled by sqrt(2)).
sym_from_vech <- function(z, k) {
  N <- diag(z[seq_len(k)], k)
  N[lower.tri(N)] <- z[-seq_len(k)] / sqrt(2)
  N[upper.tri(N)] <- t(N)[upper.tri(N)]
  N
}

sym_fun <- function(A, f) {
  e <- eigen((A + t(A)) / 2, symmetric = TRUE)
  e$vectors %*% diag(f(e$values), nrow(A)) %*% t(e$vectors)
}

#' @export
euclidean_baseline.spd <- function(M, Xa, epsilon, ball, align) {
  n <- ncol(Xa)
  k <- M$size
  s <- baseline_scale(M, ball$radius, n, epsilon)
  N <- sym_from_vech(cpp_euclidean_laplace_noise(M$dim, s$sigma, 1L)[, 1], k)
  if (identical(M$metric, "log_euclidean")) {
    L <- matrix(rowMeans(vapply(seq_len(n), function(i) as.vector(sym_fun(matrix(Xa[, i], k), log)),
                                numeric(k * k))), k)
    return(list(estimate = as.vector(sym_fun(L + N, exp)), off_manifold = TRUE))
  }
  C <- matrix(ball$center, k)
  Ch <- sym_fun(C, sqrt)
  Cih <- sym_fun(C, function(l) 1 / sqrt(l))
  W <- vapply(seq_len(n), function(i) as.vector(Cih %*% matrix(Xa[, i], k) %*% Cih), numeric(k * k))
  Wbar <- matrix(rowMeans(matrix(W, k * k)), k)
  est <- Ch %*% (Wbar + N) %*% Ch
  # may leave the SPD cone: the baseline's known weakness (post-processing
  # of the release, so checking it reveals nothing more)
  list(estimate = as.vector((est + t(est)) / 2), off_manifold = TRUE)
}

#' @export
baseline_scale.hyperbolic <- function(M, radius, n, epsilon, align = TRUE) {
  # In the frame of the public centre (the Lorentz boost taking it to the
  # origin, an isometry) the ball is {(cosh t, sinh t u): t <= r, |u| = 1}.
  # Two of its points are at squared ambient distance
  # cosh 2t + cosh 2s - 2 cosh(t - s) <= 2 cosh 2r - 2 = (2 sinh r)^2
  # (increasing in t and s), attained by opposite boundary points: the
  # ambient diameter is 2 sinh r, and the mean moves by at most that / n.
  Delta <- 2 * sinh(radius) / n
  list(sensitivity = Delta, sigma = Delta / epsilon)
}

# Lorentz boost taking the origin to c (inverse = TRUE: c to the origin),
# applied to the columns of X.
hyperbolic_boost <- function(c, X, inverse = FALSE) {
  cs <- if (inverse) -c[-1] else c[-1]
  a <- colSums(cs * X[-1, , drop = FALSE])
  rbind(c[1] * X[1, ] + a, X[-1, , drop = FALSE] + outer(cs, X[1, ] + a / (1 + c[1])))
}

#' @export
euclidean_baseline.hyperbolic <- function(M, Xa, epsilon, ball, align) {
  # K-norm Laplace on the ambient mean of the data in the centre's frame,
  # brought back to the sheet (Minkowski normalisation when the noisy mean
  # is future-timelike, else the sheet point over its spatial part: both
  # post-processing), then back to the centre.
  n <- ncol(Xa)
  s <- baseline_scale(M, ball$radius, n, epsilon)
  z <- rowMeans(hyperbolic_boost(ball$center, Xa, inverse = TRUE)) +
    cpp_euclidean_laplace_noise(M$ambient_dim, s$sigma, 1L)[, 1]
  q <- z[1]^2 - sum(z[-1]^2)
  z <- if (z[1] > 0 && q > 0) z / sqrt(q) else c(sqrt(1 + sum(z[-1]^2)), z[-1])
  list(estimate = as.vector(hyperbolic_boost(ball$center, matrix(z))))
}

#' @export
baseline_scale.kendall_shape <- function(M, radius, n, epsilon, align = TRUE) {
  # Replacing one preshape moves each coordinate of the mean by at most
  # (the coordinate's range over the data) / n. Aligned to the centre, a
  # preshape is within the chordal distance 2 sin(r/2) of it, so a
  # coordinate ranges over 2 * 2 sin(r/2); unaligned, a coordinate of a
  # unit vector lies in [-1, 1]: a range of 2 (never more, aligned or not).
  # The budget is split over the 2k coordinates (per-coordinate Laplace).
  spread <- if (isTRUE(align)) min(4 * sin(radius / 2), 2) else 2
  Delta <- spread / n
  list(sensitivity = Delta, sigma = Delta / (epsilon / (2 * M$size)))
}

#' @export
euclidean_baseline.kendall_shape <- function(M, Xa, epsilon, ball, align) {
  n <- ncol(Xa)
  k <- M$size
  s <- baseline_scale(M, ball$radius, n, epsilon, align)
  Z <- if (isTRUE(align)) cpp_kendall_align(M, ball$center, Xa) else Xa
  noisy <- rowMeans(Z) + cpp_noise("laplace", 2L * k, s$sigma)
  list(estimate = as.vector(as_preshape(matrix(noisy, k, 2))))
}
