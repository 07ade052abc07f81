# The passes over data of the C++ core (batch.hpp): the same bits whatever
# the number of threads, a checked thread option, and interrupts that
# arrive as classed errors.

with_threads <- function(k, expr) {
  old <- options(dpmanifold.threads = k)
  on.exit(options(old))
  expr
}

test_that("passes over data give the same bits on one thread and on two", {
  set.seed(11)
  # sizes that cut the data into many chunks (20-4096 points each), with
  # rounds of at least kParallelMinWork (batch.hpp: below it a round runs
  # on the calling thread, and the comparison would see one thread twice)
  cases <- list(list(M = sphere(2), n = 40000), list(M = kendall_shape(6), n = 16000),
                list(M = spd(3), n = 3000), list(M = spd(3, "log_euclidean"), n = 3000),
                list(M = spd(8), n = 300), list(M = hyperbolic(3), n = 25000),
                list(M = euclidean(4), n = 2e5))
  for (cs in cases) {
    M <- cs$M
    X <- mfd_random_point(M, cs$n)
    center <- mfd_random_point(M, 1)
    y <- mfd_random_point(M, 1)
    Y3 <- mfd_random_point(M, 3)
    passes <- function() suppressWarnings(list(
      mean = frechet_mean(M, X, max_iter = 20), grad = kng_gradient(M, y, X),
      clip = clip_to_ball(M, X, center, 0.3), dist = mfd_dist_matrix(M, Y3, X),
      dist_from = mfd_dist(M, y, X), log_from = mfd_log(M, y, X)))
    expect_identical(with_threads(2, passes()), with_threads(1, passes()), label = M$type)
  }
})

test_that("mfd_log() and mfd_dist() from one point (a batch pass) agree with the pairwise maps", {
  # one point against many runs the batch kernels of the passes over data;
  # a recycled pair of equal counts runs the pointwise maps
  set.seed(18)
  for (cs in manifold_cases()) {
    M <- cs$M
    p <- mfd_random_point(M, 1)
    X <- mfd_random_point(M, 40)
    P <- if (is.null(M$point_dim)) {
      if (is.null(dim(X))) rep(p, 40) else matrix(p, 40, length(p), byrow = TRUE)
    } else {
      array(p, c(dim(p), 40))
    }
    lab <- cs$M$type
    expect_equal(mfd_dist(M, p, X), mfd_dist(M, P, X), tolerance = 1e-12, label = lab)
    expect_equal(mfd_log(M, p, X), mfd_log(M, P, X), tolerance = 1e-12, label = lab)
  }
})

test_that("a release drawn with set.seed() is the same on one thread and on two", {
  set.seed(12)
  X <- mfd_random_point(sphere(2), 30000)
  draw <- function(k) with_threads(k, {
    set.seed(5)
    suppressWarnings(dp_frechet_mean(sphere(2), X, epsilon = 1, center = c(0, 0, 1), radius = 0.7))$estimate
  })
  expect_identical(draw(2), draw(1))
})

# expr evaluated in a forked child (parallel::mcparallel): its result list,
# or NULL when the child has not finished within 30 s (it is then killed).
in_forked_child <- function(expr) {
  job <- parallel::mcparallel(expr)
  res <- parallel::mccollect(job, wait = FALSE, timeout = 30)
  if (is.null(res)) {
    tools::pskill(job$pid, tools::SIGKILL)
    parallel::mccollect(job, wait = FALSE)
  }
  res
}

test_that("a process forked after a parallel pass (parallel::mcparallel) finishes its own passes", {
  skip_on_os("windows")
  set.seed(13)
  X <- mfd_random_point(sphere(2), 100000)
  # a pass on two threads in the parent starts the OpenMP runtime's pool,
  # which does not survive fork(); the child must not wait on it
  m0 <- with_threads(2, suppressWarnings(frechet_mean(sphere(2), X, max_iter = 20))$mean)
  res <- with_threads(2, in_forked_child(suppressWarnings(frechet_mean(sphere(2), X, max_iter = 20))$mean))
  expect_false(is.null(res), label = "the forked child finished")
  # on one thread in the child: the same bits as the parent's two
  expect_identical(res[[1]], m0)
})

test_that("options(dpmanifold.threads) must be a whole number", {
  X <- mfd_random_point(sphere(2), 10)
  for (bad in list(0, -1, 1.5, "2", NA_real_, c(1, 2))) {
    expect_error(with_threads(bad, frechet_mean(sphere(2), X)), class = "dpmanifold_error")
  }
  expect_silent(with_threads(NULL, frechet_mean(sphere(2), X)))
})

# The condition that ends `expr` under a time limit of `limit` seconds, and
# the seconds it took.
time_limited <- function(expr, limit) {
  t0 <- proc.time()[["elapsed"]]
  res <- tryCatch({
    setTimeLimit(elapsed = limit, transient = TRUE)
    expr
  }, error = function(e) e, finally = setTimeLimit(elapsed = Inf))
  list(condition = res, seconds = proc.time()[["elapsed"]] - t0)
}

test_that("setTimeLimit() stops a long C++ call with an error of class dpmanifold_interrupted", {
  skip_on_cran()
  # a chain of 1e9 steps on S^2 (minutes): only the time limit ends it
  r <- time_limited(rriemann_laplace(sphere(2), 1, c(0, 0, 1), 0.1, radius = 0.5, method = "mcmc",
                                     mcmc = mcmc_control(burnin = 0, steps = 1e9)), 1)
  expect_s3_class(r$condition, "dpmanifold_interrupted")
  expect_s3_class(r$condition, "dpmanifold_error")
  expect_s3_class(r$condition, "error")
  expect_lt(r$seconds, 20)
})

test_that("a forked child runs Eigen's matrix products on its own thread (no OpenMP region of Eigen's)", {
  skip_on_os("windows")
  # Eigen parallelised its products with OpenMP outside batch.hpp (and the
  # thread option): after a product in the parent, frechet_mean() on
  # spd(60) in a forked child spun forever inside GOMP_parallel
  M <- spd(60)
  set.seed(14)
  X <- mfd_exp(M, diag(60), 0.05 * mfd_random_tangent(M, diag(60), 5))
  m0 <- frechet_mean(M, X)$mean
  res <- in_forked_child(frechet_mean(M, X)$mean)
  expect_false(is.null(res), label = "the forked child finished")
  expect_identical(res[[1]], m0)
})

test_that("the energy law's chain stops at a time limit within a few of its steps", {
  skip_on_cran()
  # each step is a pass over n = 1e6 residuals (0.12 s on one thread): a
  # serial loss read the clock every 64 steps and stopped 12 s after a 1 s limit
  set.seed(15)
  S2 <- sphere(2)
  x <- runif(1e6)
  Y <- mfd_random_point(S2, 1e6)
  r <- with_threads(1, time_limited(dp_geodesic_regression(S2, x, Y, epsilon = 1, method = "energy", center = c(0, 0, 1),
                                                           radius = 0.5, x_range = c(0, 1), tau = 1), 1))
  expect_s3_class(r$condition, "dpmanifold_interrupted")
  expect_lt(r$seconds, 6)
})

test_that("a time limit stops one large SPD operation inside its eigendecomposition and products", {
  skip_on_cran()
  # one point of spd(1200) is seconds of O(k^3) work (the eigendecomposition
  # and the products of the frame); a limit was honoured only between points:
  # mfd_random_point(spd(1500), 1) ran 16 s past a 1 s limit
  set.seed(16)
  r <- time_limited(mfd_random_point(spd(1200), 1), 0.3)
  expect_s3_class(r$condition, "dpmanifold_interrupted")
  expect_lt(r$seconds, 2.5)
  M <- spd(600, metric = "log_euclidean")
  X <- mfd_random_point(M, 2)
  r <- time_limited(for (i in 1:50) mfd_log(M, X[, , 1], X[, , 2]), 0.3)
  expect_s3_class(r$condition, "dpmanifold_interrupted")
  expect_lt(r$seconds, 2.5)
})

test_that("setTimeLimit() stops a parallel pass over data with an error", {
  skip_on_cran()
  set.seed(13)
  X <- mfd_random_point(spd(6), 3000)
  # 9e6 distances on SPD(6) per call: seconds on any machine of today
  r <- time_limited(for (i in 1:100) mfd_dist_matrix(spd(6), X), 0.5)
  expect_s3_class(r$condition, "error")
  expect_lt(r$seconds, 20)
})
