# The private ball's stages (R/private_bounds.R; proof: private-bounds.md)
# against their stated laws and sensitivities, and releases on it against
# their neighbours on every manifold family that takes `bounds_share`.

# The radius stage's law given the centre it was drawn with, written from
# the proof: levels rmax step^(L:0), score -e_r |#{d_i <= level} - q n| / 2
# minus lambda per level (lambda = min(cost, q n e_r / 2 - margin) / L),
# the returned radius min(rmax, widen level). Returns the probabilities of
# the distinct radii the stage can return, in increasing order.
radius_law <- function(M, Xa, ctr, e_r, rmax) {
  b <- dpm$.private_ball
  n <- ncol(Xa)
  grid <- rmax * b$step^(b$levels:0)
  d <- mfd_dist(M, from_ambient_point(M, ctr), dpm$from_ambient(M, Xa))
  cnt <- vapply(grid, function(g) sum(d <= g), numeric(1))
  lambda <- min(b$cost, max(0, b$quantile * n * e_r / 2 - b$margin)) / b$levels
  s <- -e_r * abs(cnt - b$quantile * n) / 2 - lambda * seq_along(grid)
  p <- exp(s - max(s))
  out <- pmin(rmax, b$widen * grid)
  w <- tapply(p / sum(p), out, sum)
  list(radius = as.numeric(names(w)), prob = as.numeric(w))
}
from_ambient_point <- function(M, a) dpm$from_ambient(M, matrix(a), single = TRUE)

# Randomised probability integral transforms of draws r_k from discrete laws
# (radius, prob)_k: uniform on (0, 1) exactly when each r_k follows its law.
discrete_pit <- function(draws, laws) {
  vapply(seq_along(draws), function(k) {
    L <- laws[[k]]
    j <- match(TRUE, abs(L$radius - draws[k]) <= 1e-12 * max(1, draws[k]))
    stopifnot(!is.na(j))
    cdf <- c(0, cumsum(L$prob))
    cdf[j] + stats::runif(1) * L$prob[j]
  }, numeric(1))
}

test_that("the private radius follows its exponential-mechanism law given the centre (sphere and coarse SPD ball)", {
  set.seed(41)
  S2 <- sphere(2)
  Xs <- t(mfd_exp(S2, c(0, 0, 1), 0.2 * mfd_random_tangent(S2, c(0, 0, 1), 60)))
  P <- spd(2)
  Xp <- dpm$to_ambient(P, mfd_exp(P, diag(2), 0.3 * mfd_random_tangent(P, diag(2), 60)), "X")
  cases <- list(list(M = S2, X = Xs, center = NULL, radius = NULL, rmax = dpm$max_radius(S2) * dpm$.private_ball$top),
                list(M = P, X = Xp, center = diag(2), radius = 1.5, rmax = NULL))
  K <- 1500
  for (cs in cases) {
    eps <- 0.5; share <- 0.5
    e_r <- share * eps / 2
    draws <- numeric(K); laws <- vector("list", K); wrong <- vector("list", K)
    for (k in seq_len(K)) {
      pb <- suppressWarnings(dpm$private_ball_stages(cs$M, cs$X, eps, share, cs$center, cs$radius))
      rmax <- if (!is.null(cs$rmax)) cs$rmax else min(dpm$max_radius(cs$M) * dpm$.private_ball$top,
                               cs$radius + mfd_dist(cs$M, cs$center, from_ambient_point(cs$M, pb$center)))
      draws[k] <- pb$radius
      laws[[k]] <- radius_law(cs$M, cs$X, pb$center, e_r, rmax)
      wrong[[k]] <- radius_law(cs$M, cs$X, pb$center, 1.6 * e_r, rmax)  # a stage that spent 1.6 times its share
    }
    lab <- class(cs$M)[1]
    expect_gt(stats::ks.test(discrete_pit(draws, laws), "punif")$p.value, 1e-3, label = lab)
    # power: the same draws against the law of a stage that spends more
    expect_lt(stats::ks.test(discrete_pit(draws, wrong), "punif")$p.value, 1e-4, label = paste(lab, "(power)"))
    # the draws spread over several radii, so that the check has something to see
    expect_gt(length(unique(draws)), 3L, label = lab)
  }
})

test_that("the private centres' stated sensitivities hold for adversarial pairs and are attained", {
  set.seed(42)
  # sphere: the ambient mean of unit vectors moves by at most 2 / n (l2)
  n <- 50
  S4 <- sphere(4)
  X <- t(mfd_random_point(S4, n))
  worst <- 0
  for (k in 1:200) {
    X2 <- X
    i <- sample.int(n, 1)
    X2[, i] <- if (k == 1) -X[, i] else t(mfd_random_point(S4, 1))
    worst <- max(worst, sqrt(sum((rowMeans(X) - rowMeans(X2))^2)) * n / 2)
  }
  expect_lte(worst, 1 + 1e-12)
  expect_gt(worst, 1 - 1e-12)                   # attained by an antipodal record
  # Kendall: the mean of z z* moves by at most sqrt(2) / n in the Frobenius
  # norm, attained by a record orthogonal (as a complex vector) to the other
  K <- kendall_shape(5)
  Z <- dpm$to_ambient(K, mfd_random_point(K, n), "X")
  zz <- function(a) { z <- complex(real = a[1:5], imaginary = a[6:10]); z %*% Conj(t(z)) }
  S <- Reduce(`+`, lapply(seq_len(n), function(i) zz(Z[, i]))) / n
  worst <- 0
  for (k in 1:200) {
    i <- sample.int(n, 1)
    w <- if (k == 1) {
      z <- complex(real = Z[1:5, i], imaginary = Z[6:10, i])
      u <- c(1, -1, 0, 0, 0) + 0i                # centred
      u <- u - sum(Conj(z) * u) * z              # orthogonal to z, still centred
      u <- u / sqrt(sum(Mod(u)^2))
      c(Re(u), Im(u))
    } else dpm$to_ambient(K, mfd_random_point(K, 1), "X")[, 1]
    S2 <- S + (zz(w) - zz(Z[, i])) / n
    worst <- max(worst, sqrt(sum(Mod(S - S2)^2)) * n / sqrt(2))
  }
  expect_lte(worst, 1 + 1e-12)
  expect_gt(worst, 1 - 1e-9)
})

# Neighbours of a release on a private ball: the centre and radius are
# private outputs, and the stages after them are scaled by the radius. On
# the sphere and Kendall's space (centre drawn in closed form) the same seed
# often draws the same radius for both: there every field, printout,
# warning and error must be identical once the private outputs (estimate,
# draws, centre) are swapped. On a coarse public ball (SPD) the grid of
# radii itself scales with the private centre's distance from the coarse
# one, so no two radii coincide: there the fields that follow from the
# radius (the domain, scales, clip levels) are set aside and the rest, with
# every condition, must be identical.
expect_private_ball_neighbours_agree <- function(f, D, D2, label, seeds = 1:20, coarse = FALSE) {
  swap <- function(x, y) {
    x <- with_private_outputs_of(x, y)
    x$bounds$center <- y$bounds$center
    x
  }
  public_part <- function(r) {
    r <- unclass(r)
    r[c("estimate", "private_draws", "sensitivity", "sigma")] <- NULL
    r$bounds[c("center", "radius", "p_radius", "v_bound", "clip")] <- NULL
    r$stages <- lapply(r$stages, function(st) { st[c("sensitivity", "sigma", "detail")] <- NULL; st })
    r
  }
  for (s in seeds) {
    set.seed(s); a <- run_recording(function() f(D))
    set.seed(s); b <- run_recording(function() f(D2))
    failed <- inherits(a$value, "recorded_error") || inherits(b$value, "recorded_error")
    if (coarse && !failed) {
      expect_identical(a$conditions, b$conditions, label = paste(label, "(conditions)"))
      expect_identical(lapply(a$value$private_draws, names), lapply(b$value$private_draws, names),
                       label = paste(label, "(private draws)"))
      expect_identical(public_part(a$value), public_part(b$value), label = label)
      return(invisible(s))
    }
    if (!failed && !identical(a$value$bounds$radius, b$value$bounds$radius)) next
    expect_recorded_agree(a, b, label, swap)
    return(invisible(s))
  }
  fail(paste(label, ": no seed drew the same radius for both"))
}

test_that("releases on a private ball agree with their neighbours but for the private outputs (SPD, Kendall)", {
  set.seed(43)
  n <- 300
  x <- runif(n)
  P <- spd(2)
  B <- matrix(c(0.4, 0.1, 0.1, -0.2), 2)
  Yp <- mfd_exp(P, diag(2), array(vapply(x - 0.5, function(t) t * B, B), c(2, 2, n)) +
                  0.05 * mfd_random_tangent(P, diag(2), n))
  xn <- x; xn[3] <- -50
  Ypn <- replace_record(P, Yp, 3, diag(c(1e6, 1e-6)))
  fp <- function(D) dp_geodesic_regression(P, D$x, D$y, epsilon = 2, x_range = c(0, 1), bounds_share = 0.3,
                                           center = diag(2), radius = 2)
  expect_private_ball_neighbours_agree(fp, list(x = x, y = Yp), list(x = xn, y = Ypn), "SPD(2) regression",
                                       seeds = 1:3, coarse = TRUE)
  fpm <- function(D) dp_frechet_mean(P, D$y, epsilon = 2, bounds_share = 0.3, center = diag(2), radius = 2)
  expect_private_ball_neighbours_agree(fpm, list(y = Yp), list(y = Ypn), "SPD(2) Frechet mean",
                                       seeds = 1:3, coarse = TRUE)
  K <- kendall_shape(4)
  pk <- as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  Yk <- mfd_exp(K, pk, 0.05 * mfd_random_tangent(K, pk, n))
  Ykn <- replace_record(K, Yk, 3, as_preshape(matrix(c(0, 1, 0, 0, 0, 0, 0, 0), 4)))
  fk <- function(D) dp_geodesic_regression(K, D$x, D$y, epsilon = 2, x_range = c(0, 1), bounds_share = 0.3)
  expect_private_ball_neighbours_agree(fk, list(x = x, y = Yk), list(x = xn, y = Ykn), "Kendall(4) regression")
  fm <- function(D) dp_frechet_mean(K, D$y, epsilon = 2, bounds_share = 0.3)
  expect_private_ball_neighbours_agree(fm, list(y = Yk), list(y = Ykn), "Kendall(4) Frechet mean")
})
