# lm-style methods of the non-private fits (geodesic_regression() and
# frechet_mean()): confint/vcov (lm's on euclidean(), a classed error
# elsewhere), predict()'s interval and newdata, residuals() as vectors,
# coef/nobs/summary of a Frechet mean, and their help pages.

err_arg <- function(expr) {
  e <- tryCatch(expr, dpmanifold_error = function(e) e)
  expect_s3_class(e, "dpmanifold_error")
  e$arg
}

set.seed(31)
x <- runif(25, 1990, 2020)
y <- 3 + 0.05 * (x - 2000) + rnorm(25, sd = 0.3)
fit1 <- geodesic_regression(euclidean(1), x, y)
ols1 <- lm(y ~ x)

test_that("coef() is lm's; the footpoint is lm's intercept for the centred covariate", {
  mid <- mean(range(x))
  expect_equal(coef(fit1), coef(ols1), tolerance = 1e-10)
  centred <- coef(lm(y ~ I(x - mid)))
  expect_equal(fit1$coef$p, unname(centred[1]), tolerance = 1e-10)
  expect_equal(fit1$coef$v, unname(centred[2]), tolerance = 1e-10)
})

test_that("confint() and vcov() of a euclidean(1) fit are lm's", {
  expect_equal(confint(fit1), confint(ols1), tolerance = 1e-10)
  expect_equal(confint(fit1, level = 0.8), confint(ols1, level = 0.8), tolerance = 1e-10)
  expect_equal(confint(fit1, "x"), confint(ols1, "x"), tolerance = 1e-10)
  expect_equal(confint(fit1, 1), confint(ols1, 1), tolerance = 1e-10)
  expect_equal(vcov(fit1), vcov(ols1), tolerance = 1e-10)
  expect_identical(dimnames(confint(fit1)), dimnames(confint(ols1)))
  # the layout of a private release's table
  rel <- dp_geodesic_regression(euclidean(1), x, y, epsilon = 1, tau = 1, center = 3, radius = 3,
                                x_range = c(1990, 2020))
  expect_identical(dimnames(confint(fit1)), dimnames(confint(rel)))
})

test_that("confint() and vcov() of a euclidean(2) fit are lm's (mlm), in the release's layout", {
  set.seed(32)
  x2 <- runif(30, -3, 7)
  Y <- cbind(y1 = 1 + 2 * x2, y2 = -x2) + matrix(rnorm(60), 30)
  fit2 <- geodesic_regression(euclidean(2), x2, Y)
  ols2 <- lm(Y ~ x2)
  ci <- confint(fit2, level = 0.9)
  expect_equal(rownames(ci), c("y1:(Intercept)", "y1:x", "y2:(Intercept)", "y2:x"))
  expect_equal(unname(ci), unname(confint(ols2, level = 0.9)), tolerance = 1e-10)
  expect_equal(colnames(ci), c("5 %", "95 %"))
  expect_equal(unname(vcov(fit2)), unname(vcov(ols2)), tolerance = 1e-10)
  expect_equal(rownames(vcov(fit2)), rownames(ci))
  expect_equal(confint(fit2, c("y2:x", "y1:x")), confint(fit2)[c(4, 2), ])
  rel <- dp_geodesic_regression(euclidean(2), x2, Y, epsilon = 1, tau = 3, center = c(0, 0), radius = 15,
                                x_range = c(-3, 7))
  expect_identical(dimnames(confint(fit2)), dimnames(confint(rel)))
})

test_that("a clamped covariate: the intervals are lm's on the covariate the fit used", {
  xc <- c(-1, x[1:10] - 2000, 40)
  yc <- 2 + 0.1 * pmin(pmax(xc, -5), 15) + rnorm(12, sd = 0.2)
  fc <- suppressWarnings(geodesic_regression(euclidean(1), xc, yc, x_range = c(-5, 15)))
  xe <- pmin(pmax(xc, -5), 15)
  expect_equal(unname(confint(fc)), unname(confint(lm(yc ~ xe))), tolerance = 1e-10)
})

test_that("curved fits have no sampling model: a classed error naming `object`", {
  S2 <- sphere(2)
  t <- seq(0, 1, length.out = 20)
  Y <- geodesic_data(S2, c(0, 0, 1), c(0.5, 0, 0), t, noise = 0.05)
  fs <- geodesic_regression(S2, t, Y)
  expect_error(confint(fs), "no sampling model.*confint\\(\\) of dp_geodesic_regression", class = "dpmanifold_error")
  expect_identical(err_arg(confint(fs)), "object")
  expect_identical(err_arg(vcov(fs)), "object")
  expect_error(predict(fs, 0.5, interval = "confidence"), "only interval = \"none\"", class = "dpmanifold_error")
  expect_identical(err_arg(predict(fs, 0.5, interval = "prediction")), "interval")
  expect_equal(predict(fs, 0.5, interval = "none"), predict(fs, 0.5))
  # two points: no degrees of freedom
  expect_identical(err_arg(confint(geodesic_regression(euclidean(1), 1:2, c(0, 1)))), "object")
})

test_that("predict() intervals on euclidean(1) are lm's, in the release's list(fit, radius, level)", {
  nd <- c(1985, 2000, 2013)
  for (iv in c("confidence", "prediction")) {
    p <- predict(fit1, nd, interval = iv, level = 0.9)
    ref <- predict(ols1, data.frame(x = nd), interval = iv, level = 0.9)
    expect_named(p, c("fit", "radius", "level"))
    expect_equal(p$level, 0.9)
    expect_equal(p$fit - p$radius, unname(ref[, "lwr"]), tolerance = 1e-10)
    expect_equal(p$fit + p$radius, unname(ref[, "upr"]), tolerance = 1e-10)
  }
  # at the data (newdata missing)
  p <- predict(fit1, interval = "confidence")
  ref <- predict(ols1, interval = "confidence")
  expect_equal(p$fit + p$radius, unname(ref[, "upr"]), tolerance = 1e-10)
  expect_identical(predict(fit1, nd, interval = "none"), predict(fit1, nd))
  expect_identical(err_arg(predict(fit1, nd, interval = "band")), "interval")
  # nothing is swallowed by `...`
  expect_identical(err_arg(predict(fit1, nd, se.fit = TRUE)), "se.fit")
})

test_that("residuals() are the residual vectors; on euclidean(1) y - fitted, plain vectors", {
  r <- residuals(fit1)
  expect_null(dim(r))
  expect_null(dim(fitted(fit1)))
  expect_type(r, "double")
  expect_length(r, 25)
  expect_equal(r, y - fitted(fit1), tolerance = 1e-12)
  expect_equal(sum(residuals(fit1)^2), deviance(ols1), tolerance = 1e-10)
  expect_equal(unname(r), unname(residuals(ols1)), tolerance = 1e-8)
  # the field the benches read is unchanged
  expect_named(fit1$residuals, c("vectors", "norms"))
  expect_equal(fit1$residuals$norms, abs(r))
  # curved: the tangent vectors at the fitted points
  S2 <- sphere(2)
  t <- seq(0, 1, length.out = 15)
  Y <- geodesic_data(S2, c(0, 0, 1), c(0.5, 0.2, 0), t, noise = 0.1)
  fs <- geodesic_regression(S2, t, Y)
  expect_equal(residuals(fs), mfd_log(S2, fitted(fs), Y), tolerance = 1e-10)
  P <- spd(2)
  Yp <- geodesic_data(P, diag(2), diag(c(0.3, -0.2)), t, noise = 0.1)
  fp <- geodesic_regression(P, t, Yp)
  expect_equal(dim(residuals(fp)), c(2L, 2L, 15L))
  expect_equal(residuals(fp), mfd_log(P, fitted(fp), Yp), tolerance = 1e-8)
})

test_that("predict() takes a one-column data frame or a column `x`, and keeps names as lm", {
  nd <- c(a = 1995, b = 2005)
  expect_equal(predict(fit1, data.frame(year = unname(nd))), stats::setNames(predict(fit1, unname(nd)), c("1", "2")))
  expect_equal(predict(fit1, data.frame(x = unname(nd), other = c("u", "v"))),
               predict(ols1, data.frame(x = unname(nd))), tolerance = 1e-10)
  expect_named(predict(fit1, nd), c("a", "b"))
  expect_equal(predict(fit1, nd), predict(ols1, data.frame(x = nd, row.names = names(nd))), tolerance = 1e-10)
  expect_named(predict(fit1, data.frame(x = 2000, row.names = "y2k")), "y2k")
  e <- tryCatch(predict(fit1, data.frame(a = 1, b = 2)), dpmanifold_error = function(e) e)
  expect_identical(e$arg, "newdata")
  expect_match(conditionMessage(e), "data frame with columns `a`, `b`.*one numeric column or a numeric column named `x`")
  expect_identical(err_arg(predict(fit1, data.frame(x = "2000"))), "newdata")
  # a plain list of columns, as lm's predict() takes it
  expect_equal(predict(fit1, list(x = unname(nd))), predict(ols1, list(x = unname(nd))), tolerance = 1e-10,
               ignore_attr = TRUE)
  expect_identical(err_arg(predict(fit1, list(x = 1:2, z = 1:3))), "newdata")
  # vector layouts: row names
  S2 <- sphere(2)
  t <- seq(0, 1, length.out = 12)
  fs <- geodesic_regression(S2, t, geodesic_data(S2, c(0, 0, 1), c(0.5, 0, 0), t, noise = 0.05))
  ps <- predict(fs, c(lo = 0.1, hi = 0.9))
  expect_equal(rownames(ps), c("lo", "hi"))
  expect_equal(unname(ps), predict(fs, c(0.1, 0.9)))
})

test_that("predict() on no covariate values is empty, in the shape a release gives", {
  set.seed(33)
  t <- seq(0, 1, length.out = 40)
  cases <- list(
    list(M = euclidean(1), y = 1 + t + rnorm(40, sd = 0.1), center = 1.5, radius = 2),
    list(M = euclidean(2), y = cbind(t, -t) + rnorm(80, sd = 0.1), center = c(0.5, -0.5), radius = 2),
    list(M = sphere(2), y = geodesic_data(sphere(2), c(0, 0, 1), c(0.3, 0, 0), t, noise = 0.05),
         center = c(0, 0, 1), radius = 0.5),
    list(M = spd(2), y = geodesic_data(spd(2), diag(2), diag(c(0.3, -0.2)), t, noise = 0.05),
         center = diag(2), radius = 1))
  for (cs in cases) {
    f <- geodesic_regression(cs$M, t, cs$y)
    rel <- dp_geodesic_regression(cs$M, t, cs$y, epsilon = 1, tau = 0.5, center = cs$center, radius = cs$radius,
                                  x_range = c(0, 1))
    expect_identical(predict(f, numeric(0)), predict(rel, numeric(0)), label = cs$M$name)
    expect_identical(unname(predict(f, data.frame(x = numeric(0)))), predict(rel, numeric(0)), label = cs$M$name)
  }
})

test_that("frechet_mean() has nobs, coef (the mean in the layout) and summary", {
  P <- spd(2)
  X <- mfd_exp(P, diag(2), 0.2 * mfd_random_tangent(P, diag(2), 12))
  fm <- frechet_mean(P, X)
  expect_identical(nobs(fm), 12L)
  expect_identical(coef(fm), fm$mean)
  expect_equal(dim(coef(fm)), c(2L, 2L))
  s <- summary(fm)
  expect_s3_class(s, "summary.frechet_mean")
  expect_equal(s$rms_distance, sqrt(mean(mfd_dist(P, fm$mean, X)^2)), tolerance = 1e-8)
  expect_output(print(s), "Frechet mean on .*n = 12")
  expect_output(print(s), "root mean squared distance")
  expect_identical(err_arg(confint(fm)), "object")
})

test_that("confint() of a euclidean Frechet mean is lm's, weights included", {
  set.seed(34)
  z <- rnorm(15, 2)
  f1 <- frechet_mean(euclidean(1), z)
  ci <- confint(f1, level = 0.9)
  expect_equal(unname(ci), unname(confint(lm(z ~ 1), level = 0.9)), tolerance = 1e-10)
  expect_equal(dimnames(ci), list("mean[1]", c("5 %", "95 %")))
  X <- matrix(rnorm(60), 20)
  w <- c(0, runif(19, 0.5, 2))
  f3 <- frechet_mean(euclidean(3), X, weights = w)
  ref <- t(vapply(1:3, function(j) confint(lm(X[, j] ~ 1, weights = w))[1, ], numeric(2)))
  expect_equal(unname(confint(f3)), unname(ref), tolerance = 1e-10)
  expect_equal(confint(f3, "mean[2]"), confint(f3)[2, , drop = FALSE])
  expect_identical(err_arg(confint(f3, "mean[4]")), "parm")
})

test_that("the methods have help pages, linked from the fitting functions", {
  man <- test_path("..", "..", "man")
  skip_if_not(dir.exists(man), "no man/ directory next to the tests")
  aliases <- unlist(lapply(list.files(man, "\\.Rd$", full.names = TRUE), function(f) {
    rd <- tools::parse_Rd(f)
    vapply(rd[vapply(rd, attr, "", "Rd_tag") == "\\alias"], function(a) as.character(a[[1]]), "")
  }))
  wanted <- c(paste0(c("predict", "coef", "residuals", "fitted", "summary", "print", "confint", "vcov"),
                     ".geodesic_regression"),
              paste0(c("coef", "nobs", "summary", "print", "confint"), ".frechet_mean"))
  expect_true(all(wanted %in% aliases), label = paste(setdiff(wanted, aliases), collapse = ", "))
  expect_match(paste(readLines(file.path(man, "geodesic_regression.Rd")), collapse = "\n"),
               "link\\{geodesic_regression-methods\\}")
  expect_match(paste(readLines(file.path(man, "frechet_mean.Rd")), collapse = "\n"), "link\\{frechet_mean-methods\\}")
})

test_that("a fit whose velocity per unit of x overflows is refused, naming the covariate; plot() of a Frechet mean points elsewhere", {
  # a covariate span of 2e-300: the velocity over it is finite, per unit of x Inf (printed silently, vcov NaN)
  expect_identical(err_arg(geodesic_regression(euclidean(1), c(0, 1e-300, 2e-300), c(0, 1e10, 2e10))), "x")
  expect_error(geodesic_regression(euclidean(1), c(0, 1e-300, 2e-300), c(0, 1e10, 2e10), x_range = c(0, 2e-300)),
               "^`x_range`", class = "dpmanifold_not_representable")
  fm <- frechet_mean(euclidean(2), cbind(c(1, 2, 3), c(0, 1, 0)))
  expect_error(plot(fm), "^`x` is a non-private Frechet mean.*plot_sphere", class = "dpmanifold_error")
})

test_that("dp_frechet_mean(return_nonprivate = TRUE) warns with the user's call", {
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  set.seed(4)
  X <- mfd_exp(S2, north, 0.2 * mfd_random_tangent(S2, north, 50))
  # (the warning named release_frechet_points(mech, Xa, ...), an internal)
  w <- tryCatch(dp_frechet_mean(S2, X, epsilon = 1, center = north, radius = 0.5, return_nonprivate = TRUE),
                dpmanifold_privacy_leak = function(w) w)
  expect_s3_class(w, "dpmanifold_privacy_leak")
  expect_identical(as.character(conditionCall(w)[[1]]), "dp_frechet_mean")
  m <- frechet_mechanism(S2, 50, 1, center = north, radius = 0.5)
  w <- tryCatch(release(m, X, return_nonprivate = TRUE), dpmanifold_privacy_leak = function(w) w)
  expect_match(as.character(conditionCall(w)[[1]]), "^release")
})

test_that("geodesic_regression() and frechet_mean() warn with the package's classes and the user's call", {
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  set.seed(5)
  x <- runif(40)
  truth <- mfd_exp(S2, north, outer(x - 0.5, c(0.6, 0.2, 0)))
  Y <- mfd_exp(S2, truth, 0.05 * mfd_random_tangent(S2, truth, 40))
  # (both were plain simpleWarnings without a call)
  w <- tryCatch(geodesic_regression(S2, x, Y, x_range = c(0.2, 0.8)), warning = function(w) w)
  expect_s3_class(w, c("dpmanifold_clamped", "dpmanifold_warning"))
  expect_match(conditionMessage(w), "clamped")
  expect_identical(as.character(conditionCall(w)[[1]]), "geodesic_regression")
  w <- tryCatch(geodesic_regression(S2, x, Y, max_iter = 1), warning = function(w) w)
  expect_s3_class(w, c("dpmanifold_not_converged", "dpmanifold_warning"))
  expect_identical(as.character(conditionCall(w)[[1]]), "geodesic_regression")
  w <- tryCatch(frechet_mean(S2, Y, init = c(1, 0, 0), max_iter = 1), warning = function(w) w)
  expect_s3_class(w, c("dpmanifold_not_converged", "dpmanifold_warning"))
  expect_identical(as.character(conditionCall(w)[[1]]), "frechet_mean")
})
