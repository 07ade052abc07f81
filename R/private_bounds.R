# Private bounds (dp_frechet_mean(bounds_share = )): the public ball chosen
# privately with a declared share of epsilon, in two stages, then the mean
# on that ball with the rest (basic composition). Proof:
# inst/proofs/private-bounds.md.
#
#   centre: sphere: the ambient mean of the unit vectors with K-norm
#           (l2 Laplace) noise, normalised (sensitivity 2 / n); Kendall: the
#           top eigenvector of the mean of z z* (z the complex preshape)
#           with K-norm noise in the Frobenius norm (sensitivity sqrt(2) / n),
#           the full Procrustes mean's private analogue; other manifolds: the
#           default private Frechet mean on a coarse public ball (`center`,
#           `radius`, required there).
#   radius: the exponential mechanism over a public grid of radii up to the
#           largest the manifold allows, score minus the distance of the
#           count of records within the radius from .private_ball$quantile n
#           (sensitivity 1) and a public base measure that favours smaller
#           radii, widened by a public factor (post-processing).
#           A quantile below 1 keeps the scores of the radii beyond the data
#           (all records inside) low: with 0.98 they were within e^-1 of the
#           best at n epsilon_r = 100 and the largest radius won too often.
#           The base measure decays linearly in the level; its total cost
#           across the grid is min(cost, q n epsilon_r / 2 - margin) (at
#           least 0): it never outweighs the count term's range
#           (q n epsilon_r / 2) minus a public margin, so where n epsilon_r
#           is small the draw leans to the larger radii (a loose ball that
#           holds the data) instead of collapsing to the grid's smallest,
#           which a fixed cost of 19.2 nats did below n epsilon_r = 43
#           (margin = -Inf gives that former rule back; bench/private_bounds.R
#           compares the two).

.private_ball <- list(quantile = 0.9, widen = 1.25, levels = 96L, step = 2^(-1 / 16), cost = 19.2, margin = 6,
                      top = 0.9, center_share = 0.5)

# `charge`: the budget's charge of the whole release (or NULL), made just
# before the first draw, once every public input of the centre stage is
# found valid (its mechanism built, its exact sampler not refused).
private_ball_stages <- function(M, Xa, epsilon, share, center, radius, charge = NULL, call = sys.call(-1)) {
  n <- ncol(Xa)
  e_c <- share * epsilon / 2
  e_r <- share * epsilon / 2
  # (the largest radius: a public share of r*, where the sensitivity of the
  # mean stays moderate: it grows without bound as the radius nears r*)
  rmax <- max_radius(M) * .private_ball$top
  compact_centre <- is.null(center) && inherits(M, c("sphere", "kendall_shape"))
  check_private_ball_scales(M, n, epsilon, share, compact_centre, call)
  if (compact_centre && !is.null(charge)) charge()
  if (is.null(center) && inherits(M, "sphere")) {
    s <- 2 / (n * e_c)
    # (only the direction counts: a scale above 1 draws unit noise around
    # mean / s, the same law, which double precision holds for any s; the
    # sum of squares of a huge noise overflowed and gave the zero vector)
    u <- max(1, s)
    m <- rowMeans(Xa) / u + rwrapped_laplace(euclidean(nrow(Xa)), 1, numeric(nrow(Xa)), min(1, s))
    ctr <- if (sum(m^2) > 0) m / sqrt(sum(m^2)) else c(1, numeric(nrow(Xa) - 1))
    st <- dp_stage("center", "knorm", epsilon = e_c, sensitivity = 2 / n, sigma = s, proof = "private-bounds",
                   detail = "ambient mean of the unit vectors, normalised")
  } else if (is.null(center) && inherits(M, "kendall_shape")) {
    s <- sqrt(2) / (n * e_c)
    ctr <- private_procrustes_center(M, Xa, s)
    st <- dp_stage("center", "knorm", epsilon = e_c, sensitivity = sqrt(2) / n, sigma = s, proof = "private-bounds",
                   detail = "top eigenvector of the mean of z z*, Frobenius norm")
  } else {
    # a coarse public ball (required off the sphere and Kendall's space,
    # used there too when given; center and radius validated before the
    # budget's charge: check_bounds_share())
    coarse <- public_ball(M, NULL, center, radius, call = call)
    mech <- build_frechet_mechanism(M, n, list(mechanism = NULL, privacy = list(type = "pure", epsilon = e_c, delta = 0),
                                               truncated = NULL, align = TRUE, sampler = "exact", mcmc = mcmc_control(),
                                               seed_scale = FALSE),
                                    coarse, call = call)
    ctr <- to_ambient(M, release_frechet_points(mech, Xa, call = call, charge = charge)$estimate, "center")[, 1]
    rmax <- min(rmax, radius + cpp_dist(M, matrix(coarse$center), matrix(ctr)))
    st <- mech$stages[[1]]
    st$name <- "center"
    st$detail <- paste(c(st$detail[nzchar(st$detail)], "on the coarse public ball"), collapse = ", ")
  }
  private_ball_warn(M, n, e_c, e_r, rmax, is.null(center), call)
  grid <- rmax * .private_ball$step^(.private_ball$levels:0)
  d <- cpp_dist(M, matrix(ctr), Xa)
  # a record double precision does not hold (its distance may be NaN: a
  # hyperbolic point whose Minkowski form overflows) is replaced by the
  # centre, as clip_points() does in the release: a record-wise map, so the
  # count keeps sensitivity 1 (a NaN made every count NA and the draw went
  # to the largest radius); any other NaN counts as outside every radius
  bad <- attr(Xa, "unrepresentable")
  if (!is.null(bad)) d[bad] <- 0
  cnt <- vapply(grid, function(g) sum(d <= g, na.rm = TRUE), numeric(1))
  # score: sensitivity 1; plus a public base measure decaying linearly in
  # the level, so that the radii beyond every record (all tied) do not
  # outweigh the quantile; its total cost stays `margin` below the count
  # term's range q n e_r / 2 (public)
  lambda <- private_ball_cost(n, e_r) / .private_ball$levels
  score <- -e_r * abs(cnt - .private_ball$quantile * n) / 2 - lambda * seq_along(grid)
  r <- grid[cpp_draw_index(score)]
  r <- min(rmax, .private_ball$widen * r)
  sr <- dp_stage("radius", "exponential_grid", epsilon = e_r, sensitivity = 1, sigma = 2 / e_r, proof = "private-bounds",
                 detail = sprintf("%g-quantile of the distances on a grid of %d radii, times %g",
                                 .private_ball$quantile, length(grid), .private_ball$widen))
  list(center = ctr, radius = r, stages = list(st, sr))
}

# Public check of the private stages' scales: the centre stage's K-norm
# scale must not underflow (a huge epsilon) and the radius stage's scores
# (up to n epsilon_r / 2) must stay finite. Before the charge.
check_private_ball_scales <- function(M, n, epsilon, share, compact_centre, call = sys.call(-1)) {
  e_c <- share * epsilon / 2
  s <- (if (inherits(M, "sphere")) 2 else sqrt(2)) / (n * e_c)
  if ((compact_centre && !(s >= .Machine$double.xmin)) || !is.finite(n * epsilon)) {
    abort_arg("epsilon", sprintf(paste("is %g: with `bounds_share` = %g and n = %d the private stages' scales are not",
                                       "representable in double precision; use an epsilon of a more ordinary size"),
                                 epsilon, share, as.integer(n)), call, class = "dpmanifold_not_representable")
  }
  invisible(TRUE)
}

# A public point of a compact space, for the public checks on the largest
# private ball (the checks do not depend on the centre).
private_ball_public_point <- function(M) {
  if (inherits(M, "kendall_shape")) {
    k <- M$ambient_dim / 2
    x <- seq_len(k) - (k + 1) / 2
    return(c(x / sqrt(sum(x^2)), numeric(k)))
  }
  c(1, numeric(M$ambient_dim - 1))
}

# The stage that runs on the private ball (`expr`: its mechanism's build):
# its low-utility warning weighs the error against the ball the private
# stages drew (post-processing of their output), not a public one, and
# there is no public centre to release instead: it says so.
on_private_ball <- function(expr, call) {
  withCallingHandlers(expr, dpmanifold_low_utility = function(w) {
    msg <- sub("at least the public radius", "at least the radius chosen by the private stages", conditionMessage(w))
    msg <- sub("at least the public domain's", "at least the domain's, on the ball chosen by the private stages", msg)
    msg <- sub(": the noise fills the (ball|domain), and releasing the public centre would do as well at no privacy cost; raise epsilon or n, or tighten .*$",
               ": the noise fills the \\1; raise epsilon or n, or the share left to this stage (1 - bounds_share)", msg)
    signal_low_utility(msg, call)
    invokeRestart("muffleWarning")
  })
}

# The largest radius private_ball_stages() may return, from public inputs:
# a share of r*, and on a coarse public ball (radius `radius`) at most twice
# its radius (the centre stage's draw stays in the coarse ball).
private_ball_max_radius <- function(M, radius) {
  min(max_radius(M) * .private_ball$top, if (is.null(radius)) Inf else 2 * radius)
}

# The smallest: `widen` times the grid's lowest level, step^levels (1/64)
# of a largest radius that is at least min(top r*, radius) (on a coarse
# ball the largest is radius plus the centre's distance from the coarse
# centre).
private_ball_min_radius <- function(M, radius) {
  b <- .private_ball
  b$widen * b$step^b$levels * min(max_radius(M) * b$top, if (is.null(radius)) Inf else radius)
}

# The public checks of the stage that runs on the private ball, before the
# budget is charged: `build(r)` builds (or checks the domain of) that stage
# on a ball of radius r, and runs on the largest and the smallest radius
# private_ball_stages() may return. Its failures grow monotonically with
# the radius (the exact samplers' refusal, the noise's representability)
# or shrink with it (the noise scale's underflow), so the two ends cover
# every radius between (the samplers' refusal measured monotone on a grid
# of 200 radii from 0.01 to 8: H^2, H^5, SPD(2), SPD(3), S^5, Kendall(5),
# n 20-200, epsilon 0.3-3, both laws). An error says on which ball it was
# found, and how its radius follows from the user's `radius`; the
# low-utility warnings of that stage come with its release. A coarse
# radius whose double overflows (2 x 1e308) is refused as such: the checks
# on a ball of radius Inf spoke of "radius Inf", a value the user never
# gave.
on_private_ball_range <- function(build, M, radius = NULL, call = sys.call(-1)) {
  r_up <- private_ball_max_radius(M, radius)
  twice <- !is.null(radius) && r_up == 2 * radius
  if (!is.finite(r_up) && twice) {
    abort_arg("radius", sprintf("is %.4g: the largest ball `bounds_share` may choose has twice that radius, which is not representable in double precision",
                                radius), call, class = "dpmanifold_not_representable")
  }
  r_lo <- private_ball_min_radius(M, radius)
  ends <- list(list(r = r_up, which = "largest", how = if (twice) sprintf(", twice `radius` (%.4g)", radius) else ""),
               list(r = r_lo, which = "smallest", how = sprintf(", %.4g times %s", .private_ball$widen * .private_ball$step^.private_ball$levels,
                                                                 if (!is.null(radius) && radius < max_radius(M) * .private_ball$top) "`radius`" else "the largest")))
  for (end in ends) {
    tryCatch(withCallingHandlers(build(end$r), dpmanifold_low_utility = function(w) invokeRestart("muffleWarning")),
             dpmanifold_error = function(e) {
               e$message <- sprintf("%s (checked on the %s ball `bounds_share` may choose, of radius %.4g%s)",
                                    conditionMessage(e), end$which, end$r, end$how)
               stop(e)
             })
  }
  invisible(TRUE)
}

# The base measure's total cost across the grid (public: n and epsilon_r).
private_ball_cost <- function(n, e_r) {
  b <- .private_ball
  min(b$cost, max(0, b$quantile * n * e_r / 2 - b$margin))
}

# The low-utility warning of the private ball, from public inputs only.
# Radius stage: below n e_r = 2 (margin + log(levels + 1)) / q (23.5) the
# count term's range no longer exceeds the grid's entropy plus the margin:
# the draw is about uniform over the radii above the data. Sphere without a
# public ball: the centre's predicted error (d + 1) sigma_c (the K-norm
# noise in R^(d+1)) reaches center_share (1/2) x the largest radius, so even
# the largest ball around it may miss the data. Measured (bench/
# private_bounds.R: S^2 caps of radius 0.3, share 0.2, epsilon 1): at
# n e_r = 15, 20, 25, 35 the chosen ball missed the data mean in 12%, 5%,
# 3%, 0 of releases, the error was 12, 10, 4.3, 3.4 times the known ball's;
# S^4 (60 data sets): 25: 8%, 11x; 35: 0, 5.7x. (A coarse public ball: its centre stage
# signals on its own, against the coarse radius.)
private_ball_warn <- function(M, n, e_c, e_r, rmax, sphere_centre, call) {
  b <- .private_ball
  need <- 2 * (b$margin + log(b$levels + 1)) / b$quantile
  if (n * e_r < need) {
    signal_low_utility(sprintf(paste(
      "`bounds_share` leaves the radius stage n epsilon = %.3g, below the %.3g its grid needs: the private",
      "radius is drawn about uniformly from the radii above the data, often the largest; raise epsilon, n or",
      "bounds_share, or give a public ball"), n * e_r, need), call)
  } else if (sphere_centre && inherits(M, "sphere") && (M$dim + 1) * 2 / (n * e_c) >= b$center_share * rmax) {
    signal_low_utility(sprintf(paste(
      "`bounds_share` leaves the centre stage an expected error of %.3g, at least %g times the largest",
      "radius the private ball may take (%.3g): the ball may miss the data; raise epsilon, n or",
      "bounds_share, or give a public ball"), (M$dim + 1) * 2 / (n * e_c), b$center_share, rmax), call)
  }
}

# Kendall: z_i the complex preshapes (centred, unit norm); S = mean z z* plus
# Hermitian K-norm noise (real dimension k^2, Frobenius norm); the centre is
# the top eigenvector of S, centred and normalised.
private_procrustes_center <- function(M, Xa, s) {
  k <- nrow(Xa) / 2
  Z <- matrix(complex(real = Xa[seq_len(k), ], imaginary = Xa[k + seq_len(k), ]), k)
  # (the top eigenvector of S + N is that of S / u + N / u: a scale above
  # 1 draws unit noise, so that any s is held)
  u <- max(1, s)
  S <- Z %*% Conj(t(Z)) / ncol(Z) / u
  nu <- rwrapped_laplace(euclidean(k * k), 1, numeric(k * k), min(1, s))
  N <- matrix(0 + 0i, k, k)
  N[cbind(seq_len(k), seq_len(k))] <- nu[seq_len(k)]
  up <- which(upper.tri(N), arr.ind = TRUE)
  m <- nrow(up)
  vals <- complex(real = nu[k + seq_len(m)], imaginary = nu[k + m + seq_len(m)]) / sqrt(2)
  N[up] <- vals
  N[up[, 2:1]] <- Conj(vals)
  u <- eigen(S + N, symmetric = TRUE)$vectors[, 1]
  u <- u - mean(u)
  u <- u / sqrt(sum(Mod(u)^2))
  c(Re(u), Im(u))
}

# The mechanism of a release with private bounds: the two stages, then the
# mean's mechanism on the ball they chose; the privacy is the whole budget.
compose_private_bounds <- function(mech, pb, privacy) {
  b <- mech$bounds
  b$private_bounds <- TRUE
  new_dp_mechanism(mech$statistic, mech$manifold, mech$n, privacy, b, c(pb$stages, mech$stages),
                   method = mech$method, not_private = mech$privacy$not_private, spec = mech$spec,
                   expected_error = mech$expected_error, subclass = class(mech)[1])
}

# `bounds_share` and the coarse public ball that goes with it, validated
# before the budget is checked (public inputs only). A coarse ball is both
# `center` and `radius`: required off the sphere and Kendall's space,
# optional there, never half given.
check_bounds_share <- function(M, share, center, radius, call = sys.call(-1)) {
  ok <- is_scalar_number(share) && share > 0 && share < 1
  if (!ok) abort_arg("bounds_share", "must be a number in (0, 1): the share of epsilon spent on the bounds", call)
  if (xor(is.null(center), is.null(radius))) {
    abort_arg(if (is.null(center)) "center" else "radius",
              sprintf("is required with `%s` and `bounds_share`: together they give a coarse public ball that holds the data",
                      if (is.null(center)) "radius" else "center"), call)
  }
  if (!inherits(M, c("sphere", "kendall_shape")) && is.null(center)) {
    abort_arg("center",
              sprintf("is required with `bounds_share` on %s (not compact): give a coarse public ball that holds the data; the release then chooses a tighter one privately",
                      manifold_label(M)), call)
  }
  if (!is.null(center)) public_ball(M, NULL, center, radius, call = call)
  invisible(share)
}
