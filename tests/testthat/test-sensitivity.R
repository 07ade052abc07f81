# Sensitivity bounds, checked on random and adversarial neighbouring data
# sets inside the public ball (replace-one neighbours), in the spirit of
# 000 appendix G: the ratio observed / theoretical bound must never exceed 1.
# The ratio distributions are printed (message) and, when the environment
# variable DPMANIFOLD_SENSITIVITY_REPORT names a file, appended to it.

sens_scale <- function(M, V, s) {
  if (is.null(M$point_dim)) return(V * s)
  if (length(dim(V)) == 2L) return(V * s)
  sweep(V, 3, s, `*`)
}

# n points of B_r(m0): uniform radius fraction^(1/d), or all on the boundary.
sens_ball_sample <- function(M, m0, n, r, boundary = FALSE) {
  V <- mfd_random_tangent(M, m0, n)
  len <- if (boundary) rep(r, n) else r * stats::runif(n)^(1 / M$dim)
  V <- sens_scale(M, V, len / mfd_norm(M, m0, V))
  X <- mfd_exp(M, m0, V)
  if (n == 1L && !is.null(M$point_dim)) X <- array(X, c(M$point_dim, 1L))
  if (n == 1L && is.null(M$point_dim)) X <- matrix(X, 1L)
  X
}

sens_bind <- function(M, ...) {
  L <- list(...)
  if (length(L) == 1L && is.list(L[[1]])) L <- L[[1]]
  if (is.null(M$point_dim)) return(do.call(rbind, L))
  n <- sum(vapply(L, function(a) if (length(dim(a)) == 3L) dim(a)[3] else 1L, integer(1)))
  array(unlist(L), c(M$point_dim, n))
}

sens_replace <- function(M, X, i, x) {
  if (is.null(M$point_dim)) X[i, ] <- x else X[, , i] <- x
  X
}

# One neighbouring pair (D, D') of size n in B_r(m0):
#   "interior": uniform-ish data, one point replaced by a fresh one;
#   "boundary": all data and the replacement on the boundary sphere;
#   "adversarial": all data at one boundary point p, one copy replaced by the
#     reflected boundary point (the pair that attains 2r/n when flat).
sens_pair <- function(M, m0, n, r, kind) {
  if (kind == "adversarial") {
    u <- tangent_of_length(M, m0, r)
    p <- mfd_exp(M, m0, u)
    D <- sens_bind(M, lapply(seq_len(n), function(i) p))
    x_new <- mfd_exp(M, m0, -u)
  } else {
    D <- sens_ball_sample(M, m0, n, r, boundary = kind == "boundary")
    x_new <- slice_point(M, sens_ball_sample(M, m0, 1L, r, boundary = kind == "boundary"), 1)
  }
  list(D = D, D2 = sens_replace(M, D, 1L, x_new))
}

sens_cases <- list(
  "sphere(2)" = list(M = sphere(2), r = pi / 8),
  "sphere(2) " = list(M = sphere(2), r = 0.7),
  "spd(2) AI" = list(M = spd(2), r = 1.2),
  "spd(2) LE" = list(M = spd(2, "log_euclidean"), r = 1.2),
  "kendall_shape(4)" = list(M = kendall_shape(4), r = 0.35),
  "euclidean(3)" = list(M = euclidean(3), r = 1.5),
  "hyperbolic(2)" = list(M = hyperbolic(2), r = 1.5)
)

sens_summary <- function(ratio) {
  q <- stats::quantile(ratio, c(0.5, 0.9, 0.99), names = FALSE)
  sprintf("max %.4f | median %.4f | q90 %.4f | q99 %.4f", max(ratio), q[1], q[2], q[3])
}

sens_report <- function(lines) {
  message(paste(lines, collapse = "\n"))
  f <- Sys.getenv("DPMANIFOLD_SENSITIVITY_REPORT")
  if (nzchar(f)) cat(lines, file = f, sep = "\n", append = TRUE)
}

test_that("Frechet means of neighbouring data sets move by at most the Laplace sensitivity, and KNG gradients by at most the KNG sensitivity", {
  set.seed(201)
  kinds <- c("interior", "boundary", "adversarial")
  sizes <- c(2L, 3L, 5L, 10L, 25L)
  reps <- 6L
  lines <- "observed / bound over neighbouring data sets (replace one point):"
  for (nm in names(sens_cases)) {
    M <- sens_cases[[nm]]$M
    r <- sens_cases[[nm]]$r
    m0 <- mfd_random_point(M)
    ratio_lap <- ratio_kng <- numeric()
    max_d0 <- 0
    for (kind in kinds) for (n in sizes) for (rep in seq_len(reps)) {
      pr <- sens_pair(M, m0, n, r, kind)
      max_d0 <- max(max_d0, mfd_dist(M, m0, pr$D), mfd_dist(M, m0, pr$D2))
      f1 <- frechet_mean(M, pr$D, tol = 1e-12)
      f2 <- frechet_mean(M, pr$D2, tol = 1e-12)
      ratio_lap <- c(ratio_lap, mfd_dist(M, f1$mean, f2$mean) / frechet_sensitivity(M, r, n, "laplace"))
      # evaluation points: random points of the ball, its boundary, the centre,
      # the data, the two Frechet means
      Y <- sens_bind(M, sens_ball_sample(M, m0, 15L, r), sens_ball_sample(M, m0, 10L, r, TRUE),
                     m0, pr$D2, slice_point(M, pr$D, 1), f1$mean, f2$mean)
      G <- kng_gradient(M, Y, pr$D) - kng_gradient(M, Y, pr$D2)
      ratio_kng <- c(ratio_kng, max(mfd_norm(M, Y, G)) / frechet_sensitivity(M, r, n, "kng"))
    }
    # every data point was in the closed ball
    expect_lte(max_d0, r * (1 + 1e-12), label = paste(nm, "largest distance to the centre"))
    # Frechet means are computed to a gradient of 1e-12: allow 1e-6 relative;
    # the KNG gradients are closed-form sums: allow rounding only.
    expect_lte(max(ratio_lap), 1 + 1e-6, label = paste(nm, "max Laplace ratio"))
    expect_lte(max(ratio_kng), 1 + 1e-9, label = paste(nm, "max KNG ratio"))
    # the study is informative: the adversarial pairs come close to the bound
    # (the Laplace bound has the factor 1/h, loose at large r on the sphere)
    expect_gt(max(ratio_lap), 0.1, label = paste(nm, "max Laplace ratio"))
    expect_gt(max(ratio_kng), 0.5, label = paste(nm, "max KNG ratio"))
    lines <- c(lines,
               sprintf("  %-17s r = %.3g  Laplace: %s", nm, r, sens_summary(ratio_lap)),
               sprintf("  %-17s %s  KNG:     %s", "", strrep(" ", nchar(sprintf("r = %.3g", r))), sens_summary(ratio_kng)))
  }
  sens_report(lines)
})

test_that("the sensitivities have the closed forms of SPEC section 3", {
  r <- 0.5; n <- 40
  h <- 2 * r / tan(2 * r)   # h(2r, 1) on the sphere
  expect_equal(frechet_sensitivity(sphere(2), r, n, "laplace"), 2 * r * (2 - h) / (n * h))
  expect_equal(frechet_sensitivity(sphere(2), r, n, "kng"), 2 * r * (2 - h) / n)
  hk <- 1.2 / tan(1.2)   # h(2r, kappa_max = 4) on Kendall with r = 0.3
  expect_equal(frechet_sensitivity(kendall_shape(5), 0.3, n, "kng"), 2 * 0.3 * (2 - hk) / n)
  expect_equal(frechet_sensitivity(kendall_shape(5), 0.3, n, "laplace"), 2 * 0.3 * (2 - hk) / (n * hk))
  for (M in list(spd(3), spd(3, "log_euclidean"), euclidean(2), hyperbolic(3))) {
    expect_equal(frechet_sensitivity(M, 2, n, "laplace"), 2 * 2 / n)
    expect_equal(frechet_sensitivity(M, 2, n, "kng"), 2 * 2 / n)
    expect_equal(frechet_sensitivity(M, 2, n, "wrapped"), 2 * 2 / n)
  }
  # positive curvature inflates the Laplace bound beyond the KNG bound
  expect_gt(frechet_sensitivity(sphere(2), r, n, "laplace"), frechet_sensitivity(sphere(2), r, n, "kng"))
  expect_equal(max_radius(sphere(2)), pi / 4)
  expect_equal(max_radius(kendall_shape(4)), pi / 8)
  expect_equal(max_radius(spd(2)), Inf)
  expect_error(frechet_sensitivity(sphere(2), pi / 4, n), class = "dpmanifold_error")
  expect_error(frechet_sensitivity(sphere(2), r, n, "wrapped"), class = "dpmanifold_error")
})
