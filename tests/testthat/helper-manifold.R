# One property checker for every manifold: the laws of the interface, with
# per-manifold tolerances. Used by test-manifold-laws.R.

manifold_cases <- function() {
  list(
    euclidean = list(M = euclidean(3), tol = 1e-10, radius = 3, lengths = c(0.5, 2, 5)),
    sphere2 = list(M = sphere(2), tol = 1e-10, radius = 0.95 * pi, lengths = c(0.3, 1, 2.5)),
    sphere5 = list(M = sphere(5), tol = 1e-10, radius = 0.95 * pi, lengths = c(0.3, 1, 2.5)),
    spd_ai = list(M = spd(3), tol = 1e-9, radius = 2.5, lengths = c(0.3, 1, 2)),
    spd_le = list(M = spd(3, "log_euclidean"), tol = 1e-9, radius = 2.5, lengths = c(0.3, 1, 2)),
    kendall3 = list(M = kendall_shape(3), tol = 1e-10, radius = 0.95 * pi / 2, lengths = c(0.2, 0.7, 1.4)),
    kendall6 = list(M = kendall_shape(6), tol = 1e-10, radius = 0.95 * pi / 2, lengths = c(0.2, 0.7, 1.4)),
    hyperbolic2 = list(M = hyperbolic(2), tol = 1e-9, radius = 3, lengths = c(0.3, 1, 2.5)),
    hyperbolic5 = list(M = hyperbolic(5), tol = 1e-9, radius = 3, lengths = c(0.3, 1, 2.5))
  )
}

# Unit tangent vector at p in a random direction, scaled to length len.
tangent_of_length <- function(M, p, len) {
  v <- mfd_random_tangent(M, p)
  v * (len / mfd_norm(M, p, v))
}

# A random point at geodesic distance <= radius from p.
random_near <- function(M, p, radius) {
  mfd_exp(M, p, tangent_of_length(M, p, stats::runif(1, 0.05, 1) * radius))
}

max_abs <- function(x) max(abs(x))

# Central finite differences of exp, read in the tangent space at y = exp_p(v).
fd_dexp <- function(M, p, v, u, wrt, h = 1e-5) {
  y <- mfd_exp(M, p, v)
  shoot <- function(s) {
    if (wrt == "v") return(mfd_exp(M, p, v + s * u))
    ps <- mfd_exp(M, p, s * u)
    mfd_exp(M, ps, mfd_transport(M, p, ps, v))
  }
  (mfd_log(M, y, shoot(h)) - mfd_log(M, y, shoot(-h))) / (2 * h)
}

expect_manifold_laws <- function(case, n = 6) {
  M <- case$M
  tol <- case$tol
  for (i in seq_len(n)) {
    p <- mfd_random_point(M)
    q <- random_near(M, p, case$radius)
    v <- mfd_log(M, p, q)
    # exp o log, log(p, p) = 0
    expect_lt(mfd_dist(M, mfd_exp(M, p, v), q), tol * 10)
    expect_lt(mfd_norm(M, p, mfd_log(M, p, p)), tol)
    # dist = |log| = dist(q, p)
    d <- mfd_dist(M, p, q)
    expect_lt(abs(d - mfd_norm(M, p, v)), tol * max(1, d))
    expect_lt(abs(d - mfd_dist(M, q, p)), tol * max(1, d))
    expect_lt(abs(d - mfd_norm(M, q, mfd_log(M, q, p))), tol * max(1, d))
    # results of log and transport are tangent
    expect_lt(max_abs(mfd_project(M, p, v) - v), tol * max(1, d))
    a <- mfd_random_tangent(M, p)
    b <- mfd_random_tangent(M, p)
    ta <- mfd_transport(M, p, q, a)
    tb <- mfd_transport(M, p, q, b)
    expect_lt(max_abs(mfd_project(M, q, ta) - ta), tol * 10)
    # transport is an isometry, and transporting back returns the vector
    expect_lt(abs(mfd_inner(M, q, ta, tb) - mfd_inner(M, p, a, b)), tol * 10 * (1 + abs(mfd_inner(M, p, a, b))))
    expect_lt(abs(mfd_norm(M, q, ta) - mfd_norm(M, p, a)), tol * 10 * mfd_norm(M, p, a))
    expect_lt(max_abs(mfd_transport(M, q, p, ta) - a), tol * 100 * max(1, max_abs(a)))
    # velocity of the geodesic is transported onto the velocity at q
    expect_lt(max_abs(mfd_transport(M, p, q, v) + mfd_log(M, q, p)), tol * 100 * max(1, d))
    # orthonormal tangent basis
    B <- mfd_tangent_basis(M, p)
    G <- outer(seq_len(M$dim), seq_len(M$dim), Vectorize(function(r, s) {
      mfd_inner(M, p, slice_point(M, B, r), slice_point(M, B, s))
    }))
    expect_lt(max_abs(G - diag(M$dim)), tol * 10)
  }
  invisible(TRUE)
}

# The r-th point of a set of points in the layout of M.
slice_point <- function(M, X, r) {
  if (is.null(M$point_dim)) X[r, ] else X[, , r]
}

expect_jacobi_adjoints <- function(case, reps = 2) {
  M <- case$M
  for (L in case$lengths) for (i in seq_len(reps)) {
    p <- mfd_random_point(M)
    v <- tangent_of_length(M, p, L)
    y <- mfd_exp(M, p, v)
    u <- mfd_random_tangent(M, p)
    w <- mfd_random_tangent(M, y)
    for (wrt in c("p", "v")) {
      J_fd <- fd_dexp(M, p, v, u, wrt)
      J <- mfd_dexp(M, p, v, u, wrt)
      scale <- max(1, max_abs(J_fd))
      expect_lt(max_abs(J - J_fd) / scale, 1e-6, label = sprintf("%s dexp_%s at L=%g", M$name, wrt, L))
      # adjoint: <adj(w), u>_p = <w, dexp(u)>_y
      adj <- mfd_dexp_adjoint(M, p, v, w, wrt)
      lhs <- mfd_inner(M, p, adj, u)
      rhs <- mfd_inner(M, y, w, J_fd)
      expect_lt(abs(lhs - rhs) / max(1, abs(rhs)), 1e-6, label = sprintf("%s adjoint_%s at L=%g", M$name, wrt, L))
    }
  }
}
