with_null_device <- function(code) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  force(code)
}

reg_sphere_data <- function(n = 40, seed = 1) {
  set.seed(seed)
  S2 <- sphere(2)
  x <- runif(n)
  truth <- mfd_exp(S2, c(0, 0, 1), outer(x, c(0.8, 0.3, 0)))
  list(M = S2, x = x, y = mfd_exp(S2, truth, 0.05 * mfd_random_tangent(S2, truth, n)))
}


test_that("plot.geodesic_regression draws fits on every manifold and returns invisibly", {
  d <- reg_sphere_data()
  with_null_device({
    fit <- geodesic_regression(d$M, d$x, d$y)
    expect_invisible(out <- plot(fit))
    expect_identical(out, fit)
    expect_silent(plot(fit, view = c(60, 10), data = FALSE, legend = FALSE, main = "S2"))
    # The sphere plot leaves the view open for further drawing.
    expect_invisible(points_sphere(fit$coef$p, col = "red"))

    P <- spd(2)
    p <- diag(c(2, 0.5))
    truth <- mfd_exp(P, p, array(outer(c(0.5, 0.6, 0.6, -0.4), d$x), c(2, 2, length(d$x))))
    Y <- mfd_exp(P, truth, 0.1 * mfd_random_tangent(P, truth, length(d$x)))
    fitP <- geodesic_regression(P, d$x, Y)
    expect_invisible(plot(fitP))
    expect_silent(plot(fitP, at = c(0.1, 0.9), data = FALSE))
    expect_silent(plot(fitP, at = 0.5))
    expect_error(plot(fitP, at = NA_real_), class = "dpmanifold_error")

    P3 <- spd(3)
    Y3 <- mfd_exp(P3, diag(3), 0.2 * mfd_random_tangent(P3, diag(3), 30))
    fit3 <- geodesic_regression(P3, d$x[1:30], Y3)
    expect_silent(plot(fit3, which = c(1, 3)))
    expect_error(plot(fit3, which = c(1, 4)), class = "dpmanifold_error")

    cc <- with_seed(4, simulate_corpus_callosum(20, k = 20))
    fitK <- geodesic_regression(kendall_shape(20), cc$covariates$age, cc$shapes)
    expect_invisible(plot(fitK))
    expect_silent(plot(fitK, at = range(cc$covariates$age), legend = FALSE))

    E1 <- euclidean(1)
    fitE <- geodesic_regression(E1, d$x, 1 + 2 * d$x + rnorm(length(d$x), sd = 0.1))
    expect_invisible(plot(fitE))
    E3 <- euclidean(3)
    fitE3 <- geodesic_regression(E3, d$x, cbind(d$x, -d$x, d$x^2))
    op <- graphics::par("mfrow")
    expect_invisible(plot(fitE3))
    expect_identical(graphics::par("mfrow"), op)   # the panel layout is restored

    S1 <- sphere(1)
    a <- 1 + 2 * d$x
    expect_invisible(plot(geodesic_regression(S1, d$x, cbind(cos(a), sin(a)))))
    S3 <- sphere(3)
    Y4 <- mfd_exp(S3, c(0, 0, 0, 1), 0.1 * mfd_random_tangent(S3, c(0, 0, 0, 1), 20))
    # no picture of its own: the default, normal coordinates against x
    expect_silent(plot(geodesic_regression(S3, d$x[1:20], Y4)))
  })
})

test_that("plot.dp_release draws a private geodesic against the non-private one", {
  d <- reg_sphere_data(60, seed = 2)
  ctr <- mfd_exp(d$M, c(0, 0, 1), c(0.4, 0.15, 0))
  # (each release keeps its non-private fit to be drawn, and says it is not private)
  with_null_device({
    expect_warning(rel <- dp_geodesic_regression(d$M, d$x, d$y, epsilon = 2, tau = 0.2, center = ctr, radius = 0.7,
                                                 x_range = c(0, 1), return_nonprivate = TRUE),
                   class = "dpmanifold_privacy_leak")
    expect_invisible(out <- plot(rel, data = list(x = d$x, y = d$y)))
    expect_identical(out, rel)
    expect_silent(plot(rel))
    expect_error(plot(rel, data = d$y), "list\\(x = covariate", class = "dpmanifold_error")
    expect_error(plot(rel, data = list(x = d$x[-1], y = d$y)), class = "dpmanifold_error")
    # Without the non-private fit only the private geodesic is drawn.
    rel_only <- dp_geodesic_regression(d$M, d$x, d$y, epsilon = 2, tau = 0.2, center = ctr, radius = 0.7,
                                       x_range = c(0, 1))
    expect_silent(plot(rel_only, data = list(x = d$x, y = d$y)))

    P <- spd(2)
    Y <- mfd_exp(P, diag(2), 0.2 * mfd_random_tangent(P, diag(2), 40))
    expect_warning(relP <- dp_geodesic_regression(P, d$x[1:40], Y, epsilon = 5, tau = 1, center = diag(2), radius = 1.5,
                                                  x_range = c(0, 1), return_nonprivate = TRUE),
                   class = "dpmanifold_privacy_leak")
    expect_invisible(plot(relP, data = list(x = d$x[1:40], y = Y), at = c(0, 0.5, 1)))

    cc <- with_seed(5, simulate_corpus_callosum(20, k = 20))
    K <- kendall_shape(20)
    ctrK <- frechet_mean(K, cc$shapes)$mean
    expect_warning(relK <- dp_geodesic_regression(K, cc$covariates$age, cc$shapes, epsilon = 50, tau = 0.1,
                                                  center = ctrK, radius = 0.2, x_range = range(cc$covariates$age),
                                                  return_nonprivate = TRUE),
                   class = "dpmanifold_privacy_leak")
    expect_invisible(plot(relK, data = list(x = cc$covariates$age, y = cc$shapes)))
    expect_silent(plot(relK, at = 60))

    E1 <- euclidean(1)
    ye <- 1 + d$x + rnorm(60, sd = 0.1)
    expect_warning(relE <- dp_geodesic_regression(E1, d$x, ye, epsilon = 1, tau = 1, center = 1.5, radius = 2,
                                                  x_range = c(0, 1), return_nonprivate = TRUE),
                   class = "dpmanifold_privacy_leak")
    expect_invisible(plot(relE, data = list(x = d$x, y = ye)))
  })
})

test_that("plot() of a fit passes xlab (and ylab on euclidean()) on", {
  set.seed(1)
  x <- runif(20)
  fit <- geodesic_regression(euclidean(1), x, 1 + x + rnorm(20, sd = 0.1))
  e <- new.env()
  e$labs <- character()
  suppressMessages(trace("title", where = asNamespace("graphics"), print = FALSE,
                         tracer = bquote(assign("labs", c(get("labs", .(e)), xlab, ylab), envir = .(e)))))
  on.exit(suppressMessages(untrace("title", where = asNamespace("graphics"))), add = TRUE)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  # (xlab was silently dropped: the axis said "x")
  plot(fit, xlab = "age", ylab = "bp")
  expect_identical(e$labs, c("age", "bp"))
  e$labs <- character()
  plot(fit)
  expect_identical(e$labs, c("x", "y"))
})
