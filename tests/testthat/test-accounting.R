# The budget accountant, and privacy_spent() against tampered releases and
# manifolds (issue 19).

# Three records in a ball of radius 1: every release here fills the ball,
# and its low-utility warning is not what these tests are about.
local_releases <- function() {
  E <- euclidean(2)
  X <- matrix(c(0.1, -0.2, 0.3, 0.05, -0.1, 0.2), 3)
  quiet <- function(expr) suppressWarnings(expr, classes = "dpmanifold_low_utility")
  list(E = E, X = X,
       pure = function(e, ...) quiet(dp_frechet_mean(E, X, e, "laplace", center = c(0, 0), radius = 1, ...)),
       appr = function(e, d, ...) quiet(dp_frechet_mean(E, X, e, "wrapped_gaussian", delta = d, center = c(0, 0),
                                                        radius = 1, ...)),
       gdp = function(mu, ...) quiet(dp_frechet_mean(E, X, mechanism = "wrapped_gaussian", mu = mu, center = c(0, 0),
                                                     radius = 1, ...)))
}

test_that("a budget charges releases and refuses, before reading data, one that would exceed it", {
  set.seed(1)
  r <- local_releases()
  b <- dp_budget(1)
  r$pure(0.6, budget = b)
  s <- budget_spent(b)
  expect_equal(c(s$epsilon, s$left$epsilon, s$releases), c(0.6, 0.4, 1))
  # the refusal comes before the data are looked at: X is not even valid
  expect_error(dp_frechet_mean(r$E, "not data", 0.6, center = c(0, 0), radius = 1, budget = b),
               class = "dpmanifold_budget_exceeded")
  expect_equal(budget_spent(b)$epsilon, 0.6)           # nothing charged
  r$pure(0.4, budget = b)                                # exactly the rest fits
  expect_equal(budget_spent(b)$left$epsilon, 0)
  expect_error(r$pure(1e-6, budget = b), class = "dpmanifold_budget_exceeded")
  expect_output(print(b), "spent: epsilon = 1, delta = 0 in 2 release")
  # a pure budget has no delta for approximate or GDP releases
  expect_error(r$appr(0.1, 1e-6, budget = dp_budget(5)), class = "dpmanifold_budget_exceeded")
  expect_error(r$gdp(0.1, budget = dp_budget(5)), class = "dpmanifold_budget_exceeded")
})

test_that("a budget composes approximate, GDP and RDP charges by the rules of privacy_spent()", {
  set.seed(2)
  r <- local_releases()
  b <- dp_budget(3, delta = 1e-5)
  r$appr(0.5, 1e-6, budget = b)
  r$gdp(0.3, budget = b)
  s <- budget_spent(b)
  # the GDP charge converts at the delta left after the approximate one
  expect_equal(s$epsilon, 0.5 + dpm$gdp_epsilon(0.3, 1e-5 - 1e-6), tolerance = 1e-10)
  expect_equal(s$delta, 1e-5, tolerance = 1e-12)
  expect_error(r$gdp(2, budget = b), class = "dpmanifold_budget_exceeded")
  expect_equal(budget_spent(b)$epsilon, s$epsilon)
})

test_that("a budget refuses releases whose guarantee it cannot account for", {
  set.seed(3)
  r <- local_releases()
  b <- dp_budget(10)
  S2 <- sphere(2)
  Y <- rbind(c(0, 0, 1), c(0, 0.1, 1) / sqrt(1.01))
  expect_refusals_unspent(b, {
    # bounds from the data: not private, refused before the leak warning
    expect_error(dp_frechet_mean(r$E, r$X, 1, budget = b), "not private", class = "dpmanifold_budget_exceeded")
    expect_error(r$pure(1, return_nonprivate = TRUE, budget = b), class = "dpmanifold_budget_exceeded")
    expect_error(dp_frechet_mean(S2, Y, 1, "kng", center = c(0, 0, 1), radius = 0.3, sampler = "mcmc", budget = b),
                 "delta is unknown", class = "dpmanifold_budget_exceeded")
  })
  expect_error(dp_budget(-1), class = "dpmanifold_error")
  expect_error(dp_budget(1, delta = 2), class = "dpmanifold_error")
  expect_error(r$pure(1, budget = list(epsilon = 1)), "dp_budget", class = "dpmanifold_error")
})

test_that("releases made from a mechanism object charge the budget the same way", {
  set.seed(4)
  S2 <- sphere(2)
  m <- suppressWarnings(frechet_mechanism(S2, n = 2, epsilon = 0.7, center = c(0, 0, 1), radius = 0.3),
                             classes = "dpmanifold_low_utility")
  b <- dp_budget(1)
  Y <- rbind(c(0, 0, 1), c(0, 0.1, 1) / sqrt(1.01))
  release(m, Y, budget = b)
  expect_error(release(m, Y, budget = b), class = "dpmanifold_budget_exceeded")
})

test_that("update() on a release says it spends privacy again", {
  set.seed(5)
  r <- local_releases()
  X <- r$X; E <- r$E
  b <- dp_budget(2)
  quiet <- function(expr) suppressWarnings(expr, classes = "dpmanifold_low_utility")
  rel <- quiet(dp_frechet_mean(E, X, 0.5, center = c(0, 0), radius = 1, budget = b))
  expect_message(quiet(rel2 <- update(rel)), "charges `budget` again", class = "dpmanifold_budget_message")
  expect_s3_class(rel2, "dp_release")
  expect_equal(budget_spent(b)$epsilon, 1)
  rel3 <- quiet(dp_frechet_mean(E, X, 0.5, center = c(0, 0), radius = 1))
  expect_message(quiet(update(rel3, epsilon = 0.25)), "spends privacy again", class = "dpmanifold_budget_message")
})

test_that("the Gaussian mechanism's guarantee is stated one way", {
  E <- euclidean(2)
  X <- matrix(runif(20, -0.5, 0.5), 10)
  g <- function(...) dp_frechet_mean(E, X, mechanism = "wrapped_gaussian", center = c(0, 0), radius = 1, ...)
  expect_error(g(epsilon = 1, delta = 1e-5, alpha = 2), "`alpha` conflicts with `delta`", class = "dpmanifold_error")
  expect_error(g(epsilon = 1, delta = 1e-5, mu = 0.5), "`mu` conflicts with `delta`", class = "dpmanifold_error")
  expect_error(g(mu = 0.5, alpha = 2), "`alpha` conflicts with `mu`", class = "dpmanifold_error")
})

test_that("an input error costs no budget", {
  set.seed(9)
  fx <- cap_fixture(30)
  S2 <- fx$M; X <- fx$X
  b <- dp_budget(1)
  f <- function(...) tryCatch(dp_frechet_mean(S2, X, epsilon = 0.5, budget = b, ...), dpmanifold_error = identity)
  m <- frechet_mechanism(S2, n = 30, epsilon = 0.5, center = c(0, 0, 1), radius = 0.3)
  expect_refusals_unspent(b, {
    expect_s3_class(f(center = c(0, 0, 1), radius = 2), "dpmanifold_error")           # radius beyond r*
    expect_s3_class(f(center = c(0, 0, 2), radius = 0.3), "dpmanifold_error")         # centre off the sphere
    expect_s3_class(tryCatch(dp_frechet_mean(S2, X[, 1:2], 0.5, center = c(0, 0, 1), radius = 0.3, budget = b),
                             dpmanifold_error = identity), "dpmanifold_error")          # malformed data
    expect_s3_class(tryCatch(dp_frechet_mean(euclidean(3), X, 0.5, bounds_share = 0.2, budget = b),
                             dpmanifold_error = identity), "dpmanifold_error")          # no coarse ball
    expect_s3_class(tryCatch(release(m, X[1:10, ], budget = b), dpmanifold_error = identity), "dpmanifold_error")
  })
  expect_s3_class(release(m, X, budget = b), "dp_release")
  expect_equal(budget_spent(b)$epsilon, 0.5)
})

test_that("a record off the manifold or a bad covariate costs no budget, on every release path", {
  set.seed(10)
  fx <- cap_fixture(30)
  S2 <- fx$M; N <- fx$center; X <- fx$X; x <- fx$x
  Xbad <- X
  Xbad[7, ] <- c(2, 0, 0)                                # not a unit vector
  xbad <- replace(x, 3, NA)
  b <- dp_budget(1)
  fails <- function(expr) expect_s3_class(tryCatch(expr, dpmanifold_error = identity), "dpmanifold_error")
  reg <- function(...) dp_geodesic_regression(S2, ..., epsilon = 0.5, center = N, radius = 0.3, x_range = c(0, 1),
                                              budget = b)
  rm <- regression_mechanism(S2, 30, epsilon = 0.5, center = N, radius = 0.3, x_range = c(0, 1))
  expect_refusals_unspent(b, {
    fails(dp_frechet_mean(S2, Xbad, 0.5, center = N, radius = 0.3, budget = b))
    fails(dp_frechet_mean(S2, Xbad, 0.5, bounds_share = 0.3, budget = b))
    fails(release(frechet_mechanism(S2, n = 30, epsilon = 0.5, center = N, radius = 0.3), Xbad, budget = b))
    fails(reg(x, Xbad))
    fails(reg(xbad, X))
    fails(reg(x, Xbad, method = "energy", tau = 0.2, sampler = "exact"))
    fails(release(rm, x, Xbad, budget = b))
    fails(release(rm, xbad, X, budget = b))
  })
  # a sampler's public refusal (here: a KNG scale below what double
  # precision resolves) comes before any draw and costs nothing either
  bk <- dp_budget(1e16)
  expect_refusals_unspent(bk, expect_error(dp_frechet_mean(S2, X, 1e15, "kng", center = N, radius = 0.3, budget = bk),
                                           class = "dpmanifold_sampler_error"))
  expect_s3_class(release(rm, x, X, budget = b), "dp_release")
  expect_equal(budget_spent(b)$epsilon, 0.5)
  # the regression refuses an overspend before it reads x or y
  expect_error(dp_geodesic_regression(S2, "not x", "not y", epsilon = 0.6, center = N, radius = 0.3,
                                      x_range = c(0, 1), budget = b), class = "dpmanifold_budget_exceeded")
  expect_error(dp_geodesic_regression(S2, "not x", "not y", epsilon = 0.1, center = N, radius = 0.3, budget = b),
               "not private", class = "dpmanifold_budget_exceeded")    # x_range would come from the data
})

test_that("a mechanism edited after it was built is refused before the budget or the data", {
  set.seed(11)
  fx <- mechanism_fixture(30)
  X <- fx$X; x <- fx$x; m <- fx$m; rm <- fx$rm
  b <- dp_budget(10)
  edits <- list(function(o) { o$privacy$epsilon <- 0.01; o },      # prints less than it spends
                function(o) { o$spec$sigma <- o$spec$sigma / 100; o },   # draws less noise than it states
                function(o) { o$stages[[1]]$sensitivity <- 0; o },
                function(o) { attr(o, "build") <- NULL; o },
                function(o) { o$n <- 29L; o })
  expect_refusals_unspent(b, for (e in edits) {
    expect_error(release(e(m), X, budget = b), "`mechanism` was altered", class = "dpmanifold_error")
    expect_error(release(e(rm), x, X, budget = b), "`mechanism` was altered", class = "dpmanifold_error")
  })
  # an untouched mechanism, also one saved and read back, releases
  f <- tempfile(fileext = ".rds")
  saveRDS(list(m, rm), f)
  back <- readRDS(f)
  expect_s3_class(release(back[[1]], X, budget = b), "dp_release")
  expect_s3_class(release(back[[2]], x, X, budget = b), "dp_release")
  expect_equal(budget_spent(b)$epsilon, 2)
})

test_that("a budget takes no delta beyond its own, and says what a refused release would total", {
  set.seed(8)
  E <- euclidean(2)
  X <- matrix(runif(20, -0.5, 0.5), 10)
  wg <- function(d, b) suppressWarnings(dp_frechet_mean(E, X, 0.3, "wrapped_gaussian", delta = d, center = c(0, 0),
                                                        radius = 1, budget = b), classes = "dpmanifold_low_utility")
  b0 <- dp_budget(1)
  expect_error(wg(1e-12, b0), "delta", class = "dpmanifold_budget_exceeded")
  expect_equal(budget_spent(b0)$delta, 0)
  b1 <- dp_budget(1, delta = 1e-6)
  expect_error(wg(1e-6 + 9e-13, b1), class = "dpmanifold_budget_exceeded")
  expect_s3_class(wg(1e-6, b1), "dp_release")
  # an RDP release is compared after conversion, and the message says so
  b2 <- dp_budget(2, delta = 1e-5)
  e <- tryCatch(dp_frechet_mean(E, X, 0.05, "wrapped_gaussian", alpha = 4, center = c(0, 0), radius = 1,
                                budget = b2), error = identity)
  expect_s3_class(e, "dpmanifold_budget_exceeded")
  expect_match(conditionMessage(e), "bringing the total to epsilon = [0-9.]+, delta = 1e-05")
})

test_that("update() reruns a call whose data are column expressions, and asks for data it does not keep", {
  set.seed(7)
  dat <- data.frame(age = runif(30))
  Y <- cbind(1 + 2 * dat$age + rnorm(30, sd = 0.1), rnorm(30, sd = 0.1))
  E <- euclidean(2)
  rel <- dp_geodesic_regression(E, dat$age, Y, epsilon = 1, tau = 0.5, center = c(2, 0), radius = 2,
                                x_range = c(0, 1))
  expect_identical(rel$call$x, quote(dat$age))
  expect_message(rel2 <- update(rel, epsilon = 2), "spends privacy again", class = "dpmanifold_budget_message")
  expect_identical(rel2$epsilon, 2)
  # do.call() embeds the values: the call keeps `<data>`, and update() says
  # which arguments to pass again instead of failing on an unknown object
  rel3 <- do.call(dp_geodesic_regression, list(E, dat$age, Y, epsilon = 1, tau = 0.5, center = c(2, 0),
                                               radius = 2, x_range = c(0, 1)))
  expect_error(update(rel3, epsilon = 2), "`object`.*x, y.*update\\(object, x = ..., y = ...\\)",
               class = "dpmanifold_error")
  expect_message(rel4 <- update(rel3, x = dat$age, y = Y, epsilon = 2), "spends privacy again",
                 class = "dpmanifold_budget_message")
  expect_s3_class(rel4, "dp_release")
})

test_that("privacy_spent() refuses releases whose privacy facts were edited", {
  set.seed(6)
  r <- local_releases()
  a <- r$pure(1)
  tamper <- function(f) { x <- a; x$privacy <- f(x$privacy); x }
  bad <- list(
    tamper(function(p) { p$type <- "foo"; p }),
    tamper(function(p) { p$epsilon <- NA; p }),
    tamper(function(p) { p$epsilon <- -5; p }),
    tamper(function(p) { p$epsilon <- "one"; p }),
    tamper(function(p) { p$delta <- 2; p }),
    tamper(function(p) { p$epsilon <- 0.1; p }),                       # the guarantee says 1
    tamper(function(p) { p$private <- NA; p }))
  for (x in bad) {
    expect_error(privacy_spent(a, x), "`..2`", class = "dpmanifold_error")
  }
  g <- r$gdp(0.5)
  g$privacy$mu <- -1
  expect_error(privacy_spent(g), "`..1`", class = "dpmanifold_invalid_release")
  # untampered releases compose as before
  expect_equal(privacy_spent(a, r$pure(0.5))$epsilon, 1.5)
})

test_that("a manifold whose geometry facts were edited is refused everywhere", {
  M <- hyperbolic(2)
  M$kappa_min <- 0                               # would lower the regression noise
  expect_error(mfd_dist(M, c(1, 0, 0), c(1, 0, 0)), "kappa_min", class = "dpmanifold_error")
  expect_error(dp_frechet_mean(M, rbind(c(1, 0, 0), c(1, 0, 0)), 1, center = c(1, 0, 0), radius = 1), "`M`",
               class = "dpmanifold_error")
  S <- sphere(2); S$kappa_max <- 0.5
  expect_error(max_radius(S), "kappa_max", class = "dpmanifold_error")
  S <- sphere(2); S$injectivity_radius <- 10
  expect_error(frechet_sensitivity(S, 0.3, 10), "injectivity_radius", class = "dpmanifold_error")
})

test_that("release() refuses an argument it does not know (a misspelt budget is not ignored)", {
  # release(m, X, budgte = b) used to release without charging b
  set.seed(12)
  fx <- mechanism_fixture(30)
  X <- fx$X; x <- fx$x; m <- fx$m; rm <- fx$rm
  b <- dp_budget(10)
  expect_refusals_unspent(b, {
    expect_error(release(m, X, budgte = b), "`budgte` is not an argument of release\\(\\)", class = "dpmanifold_error")
    expect_error(release(rm, x, X, budgte = b), "`budgte`", class = "dpmanifold_error")
    expect_error(release(m, X, FALSE, b, 3), "`...`", class = "dpmanifold_error")
  })
  expect_s3_class(release(m, X, budget = b), "dp_release")
  expect_equal(budget_spent(b)$epsilon, 1)
})

test_that("a mechanism rebuilt from forged inputs is refused: what it keeps must be valid public inputs", {
  # the builder run on edited inputs gives a mechanism identical to its own
  # rebuild: a Laplace law drawn at epsilon = 1 but labelled 1e-6-GDP was
  # charged mu = 1e-6 and released
  set.seed(13)
  fx <- mechanism_fixture(30)
  X <- fx$X; x <- fx$x; m <- fx$m; rm <- fx$rm
  b <- dp_budget(10, delta = 1e-3)
  forged <- list(
    forge_mechanism(m, function(a) { a$opts$privacy <- list(type = "gdp", mu = 1e-6, epsilon = 1, delta = 0); a }),
    forge_mechanism(m, function(a) { a$opts$seed_scale <- NA; a }),
    forge_mechanism(m, function(a) { a$opts$align <- "x"; a }))
  rf <- forge_mechanism(rm, function(a) { a$x_range <- c(1, 0); a })
  expect_refusals_unspent(b, {
    for (f in forged) expect_error(release(f, X, budget = b), "`mechanism` was altered", class = "dpmanifold_error")
    expect_error(release(rf, x, X, budget = b), "`mechanism` was altered", class = "dpmanifold_error")
  })
  # a mechanism from the constructors still releases
  expect_s3_class(release(m, X, budget = b), "dp_release")
  expect_s3_class(release(rm, x, X, budget = b), "dp_release")
})

test_that("a mechanism whose kept centre or footpoint is not a point of the manifold is refused before the budget", {
  # the builder trusts its inputs: rebuilt from a centre off the sphere the
  # mechanism was its own rebuild and released (the regression: estimate
  # p = (0, 0, 1), v = 0), from c(NaN, 0, 0) the regression was charged
  # and then failed, the Frechet mean's release never returned
  set.seed(14)
  fx <- mechanism_fixture(30)
  S2 <- fx$M; N <- fx$center; X <- fx$X; x <- fx$x; m <- fx$m; rm <- fx$rm
  b <- dp_budget(10)
  altered <- "`mechanism` was altered"
  expect_refusals_unspent(b, {
    for (bad in list(c(0, 0, 2), c(0.6, 0, 0.8) * (1 + 1e-7), c(Inf, 0, 0), c(NaN, 0, 0))) {
      rc <- forge_mechanism(rm, function(a) { a$ball$center <- bad; a })
      expect_error(release(rc, x, X, budget = b), altered, class = "dpmanifold_error")
      ff <- forge_mechanism(m, function(a) { a$footpoint <- bad; a })
      expect_error(release(ff, X, budget = b), altered, class = "dpmanifold_error")
      fc <- forge_mechanism(m, function(a) { a$ball$center <- bad; a })
      expect_error(release(fc, X, budget = b), altered, class = "dpmanifold_error")
      # (an edit of the printed centre alone: not the mechanism's rebuild)
      m2 <- m
      m2$bounds$center <- bad
      expect_error(release(m2, X, budget = b), altered, class = "dpmanifold_error")
    }
    # a centre in another layout (a 1 x 3 matrix) or of the wrong length
    for (bad in list(matrix(N, 1), c(0, 1))) {
      expect_error(release(forge_mechanism(rm, function(a) { a$ball$center <- bad; a }), x, X, budget = b), altered,
                   class = "dpmanifold_error")
    }
  })
  # the genuine mechanisms, and one without a footpoint, still release
  expect_s3_class(release(m, X, budget = b), "dp_release")
  expect_s3_class(release(rm, x, X, budget = b), "dp_release")
  m0 <- frechet_mechanism(S2, n = 30, epsilon = 1, center = N, radius = 0.3, footpoint = NULL)
  expect_s3_class(release(m0, X, budget = b), "dp_release")
})

test_that("Gaussian DP converts to (epsilon, delta) at any mu, and the budget's tolerance is a few ulps", {
  E <- euclidean(1)
  set.seed(1)
  X <- matrix(rnorm(50, sd = 0.3))
  g <- dp_frechet_mean(E, X, mechanism = "wrapped_gaussian", mu = 20, center = 0, radius = 1)
  # mu = 28.3 composed: epsilon near 520, where exp(epsilon) * Phi(.) was Inf * 0 = NaN
  s <- privacy_spent(g, g, delta = 1e-5)
  expect_equal(s$mu, sqrt(800))
  expect_true(is.finite(s$epsilon) && s$epsilon > 500)
  expect_lte(dpm$gdp_delta(s$epsilon, s$mu), 1e-5)
  expect_gt(dpm$gdp_delta(s$epsilon * (1 - 1e-6), s$mu), 1e-5)
  b <- dp_budget(epsilon = 1e4, delta = 1e-5)
  for (i in 1:2) expect_s3_class(dp_frechet_mean(E, X, mechanism = "wrapped_gaussian", mu = 20, center = 0, radius = 1, budget = b),
                                 "dp_release")
  b <- dp_budget(epsilon = 100, delta = 1e-5)
  expect_error(dp_frechet_mean(E, X, mechanism = "wrapped_gaussian", mu = 20, center = 0, radius = 1, budget = b),
               class = "dpmanifold_budget_exceeded")
  # a mu whose square overflows composes to itself, and its epsilon is beyond any double
  h <- dp_frechet_mean(E, X, mechanism = "wrapped_gaussian", mu = 1e200, center = 0, radius = 1)
  s <- privacy_spent(h, delta = 1e-5)
  expect_equal(s$mu, 1e200)
  expect_equal(s$epsilon, Inf)
  # 3 x 0.1 fits 0.3 and 10 x 0.1 fits 1, but 1 + 1e-12 does not fit 1
  b <- dp_budget(0.3)
  for (i in 1:3) dp_frechet_mean(E, X, 0.1, center = 0, radius = 1, budget = b)
  b <- dp_budget(1)
  for (i in 1:10) dp_frechet_mean(E, X, 0.1, center = 0, radius = 1, budget = b)
  b <- dp_budget(1)
  dp_frechet_mean(E, X, 1, center = 0, radius = 1, budget = b)
  expect_error(dp_frechet_mean(E, X, 1e-12, center = 0, radius = 1, budget = b), class = "dpmanifold_budget_exceeded")
})
