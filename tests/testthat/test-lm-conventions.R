# A release used as an lm() user would use a fit: predict() takes what
# predict.lm() takes (a data frame, names kept) and refuses what it would
# silently ignore; update() refuses arguments it would drop; confint()
# takes indices for parm; default_mechanism() refuses a partial set of
# public inputs instead of ignoring it.

lm_release <- function() {
  set.seed(41)
  x <- runif(200)
  y <- 1 + 2 * x + rnorm(200, sd = 0.3)
  set.seed(42)
  dp_geodesic_regression(euclidean(1), x, y, epsilon = 1, center = 2, radius = 2, x_range = c(0, 1))
}

test_that("predict() of a release takes a data frame, keeps names and refuses unknown arguments", {
  rel <- lm_release()
  nd <- c(a = 0.25, b = 0.75)
  p_vec <- predict(rel, nd)
  expect_named(p_vec, c("a", "b"))
  expect_equal(predict(rel, data.frame(x = nd)), p_vec)
  expect_equal(predict(rel, data.frame(age = unname(nd))), stats::setNames(unname(p_vec), c("1", "2")))
  expect_equal(unname(p_vec), predict(rel, unname(nd)))
  ci <- predict(rel, data.frame(x = nd), interval = "confidence", level = 0.9)
  expect_equal(ci$fit, p_vec)
  expect_named(ci$radius, c("a", "b"))
  expect_equal(unname(ci$radius), predict(rel, unname(nd), interval = "confidence", level = 0.9)$radius)
  # what predict.lm() would take but a release cannot answer is an error, not ignored
  e <- tryCatch(predict(rel, nd, se.fit = TRUE), dpmanifold_error = function(e) e)
  expect_s3_class(e, "dpmanifold_error")
  expect_identical(e$arg, "se.fit")
  expect_error(predict(rel, nd, interval = "prediction"), "`interval` is \"prediction\".*spread of the residuals",
               class = "dpmanifold_error")
  expect_error(predict(rel, data.frame(a = 1, b = 2)), "`newdata`", class = "dpmanifold_error")
  expect_error(predict(rel, matrix(c(0, 1, 0.5, 0.2), 2)), "`newdata`", class = "dpmanifold_error")
  # on the sphere, a data frame and its row names as for the non-private fit
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  set.seed(43)
  x <- runif(60)
  y <- mfd_exp(S2, north, outer(x - 0.5, c(0.3, 0, 0)) + 0.02 * mfd_random_tangent(S2, north, 60))
  rs <- dp_geodesic_regression(S2, x, y, epsilon = 1, tau = 0.15, center = north, radius = 0.45, x_range = c(0, 1))
  ps <- predict(rs, data.frame(x = c(0, 1), row.names = c("lo", "hi")))
  expect_identical(rownames(ps), c("lo", "hi"))
  expect_equal(unname(ps), predict(rs, c(0, 1)))
})

test_that("predict() of a Frechet-mean release says what to use instead", {
  E <- euclidean(2)
  set.seed(44)
  rel <- dp_frechet_mean(E, matrix(rnorm(40, sd = 0.3), 20), epsilon = 1, center = c(0, 0), radius = 1)
  expect_error(predict(rel, 1), "not a regression release.*coef\\(object\\)", class = "dpmanifold_error")
})

test_that("update() refuses unnamed arguments before spending anything; evaluate = FALSE spends nothing", {
  set.seed(45)
  E <- euclidean(2)
  X <- matrix(rnorm(40, sd = 0.3), 20)
  b <- dp_budget(2)
  rel <- dp_frechet_mean(E, X, epsilon = 0.5, center = c(0, 0), radius = 1, budget = b)
  expect_error(update(rel, 0.25), "must name the arguments", class = "dpmanifold_error")
  expect_error(update(rel, epsilon = 0.25, 1), "must name the arguments", class = "dpmanifold_error")
  expect_equal(budget_spent(b)$epsilon, 0.5)
  expect_silent(cl <- update(rel, epsilon = 0.25, evaluate = FALSE))
  expect_true(is.call(cl))
  expect_identical(cl$epsilon, 0.25)
  expect_equal(budget_spent(b)$epsilon, 0.5)
})

test_that("confint() of a geodesic release takes parm by index, as lm's", {
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  set.seed(46)
  x <- runif(60)
  y <- mfd_exp(S2, north, outer(x - 0.5, c(0.3, 0, 0)) + 0.02 * mfd_random_tangent(S2, north, 60))
  rs <- dp_geodesic_regression(S2, x, y, epsilon = 1, tau = 0.15, center = north, radius = 0.45, x_range = c(0, 1))
  expect_identical(confint(rs, 2), confint(rs, "v"))
  expect_identical(confint(rs, 1:2), confint(rs))
  expect_null(confint(rs, 1)$v)
  expect_error(confint(rs, 3), "`parm`", class = "dpmanifold_error")
})

test_that("default_mechanism() refuses some public inputs without the others", {
  S2 <- sphere(2)
  expect_identical(default_mechanism(S2, n = 200, epsilon = 1, center = c(0, 0, 1), radius = 0.7), "kng")
  e <- tryCatch(default_mechanism(S2, n = 200, epsilon = 1, radius = 0.7), dpmanifold_error = function(e) e)
  expect_s3_class(e, "dpmanifold_error")
  expect_identical(e$arg, "center")
  expect_error(default_mechanism(S2, radius = 0.7), "`n` is missing", class = "dpmanifold_error")
  expect_identical(default_mechanism(S2), "laplace")
})

test_that("release() refuses arguments its mechanism fixes instead of ignoring them", {
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  set.seed(47)
  X <- mfd_exp(S2, north, 0.1 * mfd_random_tangent(S2, north, 30))
  b <- dp_budget(2)
  m <- frechet_mechanism(S2, n = 30, epsilon = 1, center = north, radius = 0.4)
  e <- tryCatch(release(m, X, epsilon = 2, budget = b), dpmanifold_error = function(e) e)
  expect_s3_class(e, "dpmanifold_error")
  expect_identical(e$arg, "epsilon")
  expect_match(conditionMessage(e), "frechet_mechanism()", fixed = TRUE)
  expect_equal(budget_spent(b)$epsilon, 0)
  x <- runif(30)
  rm <- regression_mechanism(S2, n = 30, epsilon = 1, center = north, radius = 0.4, x_range = c(0, 1))
  expect_error(release(rm, x, X, tau = 0.1), "`tau` is not an argument of release\\(\\).*regression_mechanism\\(\\)",
               class = "dpmanifold_error")
  expect_s3_class(release(m, X, budget = b), "dp_release")
})

test_that("print() of a linear release shows coef() as lm's; summary() labels its bounds row", {
  rel <- lm_release()
  out <- capture.output(print(rel))
  i <- grep("intercept (at x = 0) and slope", out, fixed = TRUE)
  expect_length(i, 1L)
  expect_false(any(grepl("[,1]", out, fixed = TRUE)))
  expect_match(out[i + 1L], "(Intercept)", fixed = TRUE)
  tab <- summary(rel)$table
  expect_match(tab["bounds", "value"], "radius 2, .*v_bound 4")
  expect_false("radius" %in% rownames(tab))
})

test_that("summary() names the mechanism that made the estimate: the net's draw, or the rounds", {
  set.seed(21)
  S5 <- sphere(5)
  c5 <- c(rep(0, 5), 1)
  x <- runif(200)
  y <- mfd_exp(S5, c5, outer(x - 0.5, c(0.3, 0.2, 0, 0, 0.1, 0)))
  y <- mfd_exp(S5, y, 0.03 * mfd_random_tangent(S5, y, 200))
  # (S^5, n 200, epsilon 1: the net's draw is the release, no round follows)
  net <- dp_geodesic_regression(S5, x, y, epsilon = 1, tau = 0.15, center = c5, radius = 0.4, x_range = c(0, 1))
  expect_false(any(grepl("^(refine|moments)", vapply(net$stages, `[[`, "", "name"))))
  expect_identical(summary(net)$table["mechanism", "value"], "exponential mechanism over a public net of geodesics")
  S2 <- sphere(2)
  y2 <- mfd_exp(S2, c(0, 0, 1), outer(x - 0.5, c(0.3, 0.1, 0)))
  y2 <- mfd_exp(S2, y2, 0.03 * mfd_random_tangent(S2, y2, 200))
  rounds <- dp_geodesic_regression(S2, x, y2, epsilon = 1, tau = 0.15, center = c(0, 0, 1), radius = 0.4, x_range = c(0, 1))
  expect_true(any(grepl("^refine", vapply(rounds$stages, `[[`, "", "name"))))
  expect_identical(summary(rounds)$table["mechanism", "value"],
                   "exact Gauss-Newton rounds of perturbed sufficient statistics")
})

test_that("regression_mechanism() takes method = \"auto\" as its help says, and refuses a bad choice by class", {
  S2 <- sphere(2)
  mk <- function(...) regression_mechanism(S2, n = 100, epsilon = 1, center = c(0, 0, 1), radius = 0.4,
                                           x_range = c(0, 1), ...)
  expect_identical(mk(method = "auto")$method, mk()$method)
  expect_identical(mk(method = "auto")$method, "gauss_newton")
  expect_error(mk(method = "bogus"), "`method` is \"bogus\"", class = "dpmanifold_error")
  expect_error(mk(sampler = "bogus"), "`sampler` is \"bogus\"", class = "dpmanifold_error")
})

test_that("tidy(conf.int = TRUE) of a release is refused, not ignored", {
  skip_if_not_installed("generics")
  rel <- lm_release()
  expect_error(generics::tidy(rel, conf.int = TRUE), "`conf.int`.*confint", class = "dpmanifold_error")
  expect_named(generics::tidy(rel), c("term", "estimate"))
  expect_named(generics::tidy(rel, conf.int = FALSE), c("term", "estimate"))
})

test_that("a formula in place of the manifold says there is no formula interface", {
  x <- runif(10)
  y <- 1 + x
  expect_error(dp_geodesic_regression(y ~ x, epsilon = 1), "`M` is a formula.*no formula interface",
               class = "dpmanifold_error")
  expect_error(geodesic_regression(y ~ x), "`M` is a formula", class = "dpmanifold_error")
  expect_error(dp_geodesic_regression(list(), x, y, epsilon = 1), "`M` must be a manifold object",
               class = "dpmanifold_error")
})

test_that("a formula in place of x, or a data argument, says there is no formula interface", {
  df <- bp_frame(20, noise = 0)
  # (lm() habits: `data` was R's "unused argument", a formula in `x` blamed `y`)
  expect_error(dp_geodesic_regression(bp ~ age, data = df, epsilon = 1), "`M` is a formula.*no formula interface",
               class = "dpmanifold_error")
  expect_error(dp_geodesic_regression(euclidean(1), bp ~ age, df, epsilon = 1),
               "`x` is a formula.*no formula interface", class = "dpmanifold_error")
  expect_error(dp_geodesic_regression(euclidean(1), bp ~ age, data = df, epsilon = 1),
               "`x` is a formula.*no formula interface", class = "dpmanifold_error")
  expect_error(dp_geodesic_regression(euclidean(1), df$age, df$bp, data = df, epsilon = 1),
               "`data` is not an argument.*no formula interface", class = "dpmanifold_error")
  expect_error(geodesic_regression(bp ~ age, data = df), "`M` is a formula.*no formula interface",
               class = "dpmanifold_error")
  expect_error(geodesic_regression(euclidean(1), bp ~ age, df), "`x` is a formula.*no formula interface",
               class = "dpmanifold_error")
  expect_error(geodesic_regression(euclidean(1), df$age, df$bp, data = df),
               "`data` is not an argument.*no formula interface", class = "dpmanifold_error")
  expect_error(dp_frechet_mean(euclidean(1), ~ bp, data = df, epsilon = 1),
               "`X` is a formula.*no formula interface", class = "dpmanifold_error")
  expect_error(dp_frechet_mean(euclidean(1), df$bp, data = df, epsilon = 1),
               "`data` is not an argument.*no formula interface", class = "dpmanifold_error")
  # any other stray argument is named too, not silently dropped
  expect_error(geodesic_regression(euclidean(1), df$age, df$bp, maxit = 5), "`maxit` is not an argument",
               class = "dpmanifold_error")
})

test_that("NA covariates in newdata give NA predictions, as predict.lm()'s na.pass", {
  rel <- lm_release()
  at <- c(0.1, NA, 0.5)
  p <- predict(rel, at)
  expect_true(is.na(p[2]))
  expect_equal(p[-2], predict(rel, at[-2]))
  ci <- predict(rel, data.frame(x = at), interval = "confidence")
  expect_true(is.na(ci$radius[2]) && all(is.finite(ci$radius[-2])))
  set.seed(44)
  x <- runif(60)
  fit <- geodesic_regression(euclidean(1), x, 1 + x + rnorm(60, sd = 0.2))
  pi <- predict(fit, c(0, NaN), interval = "prediction")
  expect_true(is.na(pi$fit[2]) && is.na(pi$radius[2]) && is.finite(pi$radius[1]))
  # on a curved manifold: an NA point in the layout of M
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  y <- mfd_exp(S2, north, outer(x - 0.5, c(0.3, 0, 0)) + 0.02 * mfd_random_tangent(S2, north, 60))
  ps <- predict(geodesic_regression(S2, x, y), c(0.2, NA, 0.8))
  expect_identical(dim(ps), c(3L, 3L))
  expect_true(all(is.na(ps[2, ])) && all(is.finite(ps[-2, ])))
  # an infinite covariate is still refused
  expect_error(predict(rel, c(0.5, Inf)), "`newdata`", class = "dpmanifold_error")
})

test_that("names of the responses and of their coordinates are kept, as lm() keeps them", {
  set.seed(45)
  x <- runif(200)
  Y <- cbind(u = 1 + 2 * x, w = -1 + 0.5 * x) + matrix(rnorm(400, sd = 0.2), 200)
  rownames(Y) <- paste0("obs", 1:200)
  ref <- coef(lm(Y ~ x))
  fit <- geodesic_regression(euclidean(2), x, Y, x_range = c(0, 1))
  expect_identical(dimnames(coef(fit)), list(c("(Intercept)", "x"), c("u", "w")))
  expect_equal(unname(coef(fit)), unname(ref), tolerance = 1e-8)
  expect_identical(dimnames(fitted(fit)), list(rownames(Y), c("u", "w")))
  expect_identical(dimnames(residuals(fit)), list(rownames(Y), c("u", "w")))
  expect_identical(rownames(vcov(fit)), c("u:(Intercept)", "u:x", "w:(Intercept)", "w:x"))
  expect_identical(colnames(predict(fit, c(0, 1))), c("u", "w"))
  set.seed(46)
  rel <- dp_geodesic_regression(euclidean(2), x, Y, epsilon = 2, center = c(2, -0.75), radius = 2, x_range = c(0, 1))
  expect_identical(colnames(coef(rel)), c("u", "w"))
  expect_identical(rownames(confint(rel)), c("u:(Intercept)", "u:x", "w:(Intercept)", "w:x"))
  expect_identical(rownames(vcov(rel)), rownames(confint(rel)))
  expect_identical(colnames(predict(rel, c(0, 1))), c("u", "w"))
  # the same release without names: the same numbers, lm's y1, y2 labels
  set.seed(46)
  rel0 <- dp_geodesic_regression(euclidean(2), x, unname(Y), epsilon = 2, center = c(2, -0.75), radius = 2,
                                 x_range = c(0, 1))
  expect_equal(unname(coef(rel0)), unname(coef(rel)))
  expect_identical(rownames(confint(rel0))[1], "y1:(Intercept)")
  # one response: the names of the vector
  y <- stats::setNames(Y[, 1], rownames(Y))
  expect_identical(names(fitted(geodesic_regression(euclidean(1), x, y))), rownames(Y))
})

test_that("errors of privacy_spent() and confint() report the user's call, not an internal one", {
  E <- euclidean(2)
  set.seed(47)
  X <- matrix(rnorm(40, sd = 0.3), 20)
  r <- dp_frechet_mean(E, X, epsilon = 1, center = c(0, 0), radius = 1)
  g <- dp_frechet_mean(E, X, mu = 1, mechanism = "wrapped_gaussian", center = c(0, 0), radius = 1)
  e <- tryCatch(privacy_spent(r, g), dpmanifold_error = function(e) e)
  expect_identical(e$arg, "delta")
  expect_identical(as.character(conditionCall(e)[[1]]), "privacy_spent")
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  rr <- dp_frechet_mean(S2, mfd_exp(S2, north, 0.1 * mfd_random_tangent(S2, north, 20)), epsilon = 1,
                        mechanism = "euclidean_laplace", center = north, radius = 0.3)
  e <- tryCatch(confint(rr), dpmanifold_error = function(e) e)
  expect_match(as.character(conditionCall(e)[[1]]), "^confint")
})

test_that("geodesic_regression() takes what coef() returns as init, on euclidean() too", {
  set.seed(8)
  df <- bp_frame(40)
  E1 <- euclidean(1)
  fit <- geodesic_regression(E1, df$age, df$bp)
  # (coef() there is lm's (Intercept) and slope: refused as "not a list")
  f2 <- geodesic_regression(E1, df$age, df$bp, init = coef(fit))
  expect_equal(coef(f2), coef(fit), tolerance = 1e-8)
  expect_equal(coef(geodesic_regression(E1, df$age, df$bp, init = coef(lm(bp ~ age, df)), max_iter = 1)),
               coef(lm(bp ~ age, df)), tolerance = 1e-8, ignore_attr = TRUE)
  # the intercept is at x = 0, whatever x_range the fit uses
  f3 <- geodesic_regression(E1, df$age, df$bp, x_range = c(0, 100), init = coef(fit))
  expect_equal(coef(f3), coef(fit), tolerance = 1e-8)
  E2 <- euclidean(2)
  Y2 <- cbind(df$bp, 2 * df$bp)
  fit2 <- geodesic_regression(E2, df$age, Y2)
  expect_equal(coef(geodesic_regression(E2, df$age, Y2, init = coef(fit2))), coef(fit2), tolerance = 1e-8)
  expect_error(geodesic_regression(E1, df$age, df$bp, init = 1:3), "`init` must be list.*two numbers",
               class = "dpmanifold_error")
  expect_error(geodesic_regression(E2, df$age, Y2, init = c(1, 2)), "`init` must be list.*2 x 2 matrix",
               class = "dpmanifold_error")
  # on a curved manifold coef()'s x0 is honoured (a fit over another range)
  S2 <- sphere(2)
  x <- runif(30)
  truth <- mfd_exp(S2, c(0, 0, 1), outer(x, c(0.8, 0.3, 0)))
  Y <- mfd_exp(S2, truth, 0.02 * mfd_random_tangent(S2, truth, 30))
  fs <- geodesic_regression(S2, x, Y, x_range = c(0, 2))
  fs2 <- geodesic_regression(S2, x, Y, init = coef(fs))
  expect_equal(coef(fs2), coef(geodesic_regression(S2, x, Y)), tolerance = 1e-6)
  expect_error(geodesic_regression(S2, x, Y, init = list(p = c(0, 0, 1), v = c(0, 0, 0), x0 = NA)), "`init\\$x0`",
               class = "dpmanifold_error")
})

test_that("a bare NA in newdata is a missing covariate, as predict.lm() reads it", {
  rel <- lm_release()
  expect_identical(predict(rel, NA), NA_real_)
  expect_identical(predict(rel, c(a = NA)), c(a = NA_real_))
  set.seed(44)
  x <- runif(60)
  fit <- geodesic_regression(euclidean(1), x, 1 + x + rnorm(60, sd = 0.2))
  expect_identical(unname(predict(fit, NA)), NA_real_)
  expect_error(predict(fit, TRUE), "`newdata`", class = "dpmanifold_error")
  expect_error(predict(rel, c(NA, TRUE)), "`newdata`", class = "dpmanifold_error")
})

test_that("deviance(), sigma() and df.residual() of a fit are lm's on euclidean(); curved fits say why not", {
  set.seed(45)
  x <- runif(40)
  Y <- cbind(1 + 2 * x, -x) + matrix(rnorm(80, sd = 0.3), 40)
  for (k in 1:2) {
    y <- if (k == 1) Y[, 1] else Y
    fit <- geodesic_regression(euclidean(k), x, y)
    ref <- lm(y ~ x)
    expect_equal(unname(deviance(fit)), unname(deviance(ref)), tolerance = 1e-10)
    expect_equal(unname(sigma(fit)), unname(sigma(ref)), tolerance = 1e-10)
    expect_identical(df.residual(fit), df.residual(ref))
  }
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  y <- mfd_exp(S2, north, outer(x - 0.5, c(0.3, 0, 0)) + 0.02 * mfd_random_tangent(S2, north, 40))
  fs <- geodesic_regression(S2, x, y)
  expect_equal(deviance(fs), 2 * nobs(fs) * fs$energy, tolerance = 1e-12)
  expect_error(sigma(fs), "`object`.*no sampling model", class = "dpmanifold_error")
  expect_error(df.residual(fs), "`object`.*no sampling model", class = "dpmanifold_error")
})

test_that("nobs() of a weighted Frechet mean leaves out zero weights, as lm's", {
  set.seed(46)
  X <- matrix(rnorm(40), 20)
  w <- c(runif(2), rep(0, 18))
  expect_identical(nobs(frechet_mean(euclidean(2), X, weights = w)), nobs(lm(X[, 1] ~ 1, weights = w)))
  expect_identical(nobs(frechet_mean(euclidean(2), X)), 20L)
})

test_that("predict() of a fit refuses a result above the memory budget, as a release's does", {
  set.seed(47)
  x <- runif(20)
  fit <- geodesic_regression(euclidean(3), x, matrix(rnorm(60), 20))
  old <- options(dpmanifold.max_bytes = 1000)
  on.exit(options(old), add = TRUE)
  expect_error(predict(fit, runif(100)), "`newdata`.*memory budget", class = "dpmanifold_too_large")
  expect_identical(dim(predict(fit, runif(10))), c(10L, 3L))
})
