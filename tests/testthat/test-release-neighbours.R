# Regression releases under the neighbour test of helper-neighbours.R: for
# the same seed, a data set and its neighbour (one record's response moved
# to the far side of the public ball or beyond it, its covariate far outside
# the public range) give releases that differ only in the estimate: fields,
# printout, summary, warnings and errors. Every method on every manifold.

test_that("regression releases on neighbouring data differ only in the estimate", {
  set.seed(611)
  n <- 30
  x <- runif(n)
  K <- kendall_shape(4)
  zk <- as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  cases <- list(
    list(M = sphere(2), center = c(0, 0, 1), radius = 0.5, tau = 0.2, far = c(0, 0, -1)),
    list(M = spd(2), center = diag(2), radius = 1, tau = 0.3, far = diag(c(80, 0.02))),
    list(M = spd(2, "log_euclidean"), center = diag(2), radius = 1, tau = 0.3, far = diag(c(80, 0.02))),
    list(M = K, center = zk, radius = 0.3, tau = 0.1, far = as_preshape(matrix(c(0, 1, 0.5, 3, 0, 0, 2, -1), 4))),
    list(M = euclidean(2), center = c(0, 0), radius = 1, tau = 0.5, far = c(50, -50)))
  for (cs in cases) {
    M <- cs$M
    u <- mfd_random_tangent(M, cs$center)
    u <- 0.3 * cs$radius * u / mfd_norm(M, cs$center, u)
    Vs <- if (is.null(M$point_dim)) outer(x - 0.5, u) else sweep(array(u, c(dim(u), n)), 3, x - 0.5, `*`)
    Y <- mfd_exp(M, cs$center, Vs)
    Yn <- replace_record(M, Y, 2, cs$far)
    xn <- x; xn[2] <- 40
    methods <- if (inherits(M, "euclidean")) "joint" else c("joint", "tangent", "sequential")
    for (method in methods) for (smp in if (method == "joint" && !inherits(M, "euclidean")) c("exact", "mcmc") else "auto") {
      f <- function(D) dp_geodesic_regression(M, D$x, D$y, epsilon = 2, tau = cs$tau, center = cs$center,
                                              radius = cs$radius, x_range = c(0, 1), method = method,
                                              sampler = smp)
      expect_neighbours_agree(f, list(x = x, y = Y), list(x = xn, y = Yn),
                              label = paste(manifold_label(M), method, smp))
    }
  }
})
