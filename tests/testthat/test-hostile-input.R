# Hostile input (issue 11): a table of bad calls across the exported
# functions. Each must end in an error of the given class (default
# `dpmanifold_error`; `dpmanifold_not_representable` where a result would
# leave double precision) whose message names the responsible argument in
# backquotes. Every call runs in this process, under a time limit, so a
# crash, a hang or an unclassed error fails the test.
#
# Rows marked `pending = "<owner>"` exercise code owned by another branch
# (samplers, regression, the lead's release code) whose fix was not merged
# when this table was written: they state the CORRECT behaviour and fail
# until that fix lands. Check them after merging.

hostile_env <- environment()
S2 <- sphere(2)
N <- c(0, 0, 1)
E1 <- c(1, 0, 0)
E2 <- c(0, 1, 0)
R3 <- euclidean(3)
P2 <- spd(2)
LE2 <- spd(2, "log_euclidean")
I2 <- diag(2)
K4 <- kendall_shape(4)
z4 <- as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4, 2))
Xs <- rbind(N, c(0, 0.1, 1) / sqrt(1.01), c(0.1, 0, 1) / sqrt(1.01))
Xp <- array(c(I2, diag(c(1.2, 0.9)), diag(c(0.8, 1.1))), c(2, 2, 3))
x3 <- c(0, 0.5, 1)
bad_manifold <- structure(list(type = "sphere", size = 2L), class = "manifold")
edited_dim <- S2
edited_dim$dim <- 5L
torus <- S2
torus$type <- "torus"
huge_size <- S2
huge_size$size <- 3e9
fit <- suppressWarnings(geodesic_regression(S2, x3, Xs))
fit_e <- geodesic_regression(euclidean(1), x3, c(1, 2, 3.1))
rel <- suppressWarnings(dp_frechet_mean(R3, matrix(c(0.1, 0.2, 0, 0, 0.1, 0.2, 0.3, 0, 0), 3), 1,
                                             center = c(0, 0, 0), radius = 1), classes = "dpmanifold_low_utility")
rel_no_manifold <- rel
rel_no_manifold$manifold <- "sphere"
empty_release <- structure(list(), class = "dp_release")
reg_args <- list(M = S2, x = x3, y = Xs, epsilon = 1, tau = 0.2, center = N, radius = 0.7,
                 x_range = c(0, 1))
dp_reg <- function(...) do.call(dp_geodesic_regression, utils::modifyList(reg_args, list(...)))

# One row: the call, the argument(s) the message may name, the class.
h <- function(expr, arg, class = "dpmanifold_error", pending = NA_character_) {
  list(expr = substitute(expr), arg = arg, class = class, pending = pending)
}
NR <- "dpmanifold_not_representable"

hostile_calls <- list(
  # --- manifold constructors: sizes ---------------------------------------
  h(sphere(0), "d"),
  h(sphere(-1), "d"),
  h(sphere(1.5), "d"),
  h(sphere(NA), "d"),
  h(sphere(Inf), "d"),
  h(sphere(2^31), "d"),
  h(sphere("2"), "d"),
  h(sphere(c(2, 3)), "d"),
  h(sphere(NULL), "d"),
  h(euclidean(0), "d"),
  h(euclidean(1e10), "d"),
  h(euclidean(NaN), "d"),
  h(spd(0), "k"),
  h(spd(46341), "k"),                       # k^2 overflows an int (defect 4)
  h(spd(1e6), "k"),
  h(spd(2, metric = "frobenius"), "metric"),
  h(spd(2, metric = NA), "metric"),
  h(spd(2, metric = 1), "metric"),
  h(spd(2, metric = c("log_euclidean", "affine_invariant")), "metric"),
  h(spd(2, metric = ""), "metric"),
  h(kendall_shape(2), "k"),
  h(kendall_shape(2^30), "k"),
  h(kendall_shape(-Inf), "k"),
  # --- manifold objects --------------------------------------------------
  h(mfd_dist(list(), N, E1), "M"),
  h(mfd_dist(NULL, N, E1), "M"),
  h(mfd_dist("sphere", N, E1), "M"),
  h(mfd_dist(bad_manifold, N, E1), "M"),
  h(mfd_dist(edited_dim, N, E1), "M"),
  h(mfd_dist(torus, N, E1), "M"),
  h(mfd_exp(huge_size, N, E1), "M"),
  h(max_radius(list()), "M"),
  h(max_radius("x"), "M"),
  h(print(bad_manifold), "x"),
  h(frechet_sensitivity(torus, 0.1, 10), "M"),
  # --- points ------------------------------------------------------------
  h(mfd_dist(S2, c(1, NA, 0), E1), "p"),
  h(mfd_dist(S2, c(1, 0), E1), "p"),
  h(mfd_dist(S2, N, c(0, 0, 2)), "q"),
  h(mfd_dist(S2, "a", E1), "p"),
  h(mfd_dist(S2, numeric(0), E1), "p"),
  h(mfd_dist(S2, c(NaN, 0, 0), E1), "p"),
  h(mfd_dist(S2, N, matrix(1, 2, 4)), "q"),
  h(mfd_dist(S2, list(1, 0, 0), E1), "p"),
  h(mfd_dist(S2, complex(real = c(1, 0, 0)), E1), "p"),
  h(mfd_dist(S2, c(TRUE, FALSE, FALSE), E1), "p"),
  h(mfd_log(S2, N, c(Inf, 0, 0)), "q"),
  h(mfd_log(S2, rbind(N, N), rbind(E1, E1, E2)), "q"),
  h(mfd_exp(S2, c(0, 0, 2), E1), "p"),
  h(mfd_dist(P2, matrix(c(1, 0.5, 0, 1), 2), I2), "p"),
  h(mfd_dist(P2, diag(c(1, -1)), I2), "p"),
  h(mfd_dist(P2, diag(c(1, 0)), I2), "p"),
  h(mfd_dist(P2, diag(c(1, 1e-20)), I2), "p"),
  h(mfd_dist(P2, diag(3), I2), "p"),
  h(mfd_dist(P2, I2, array(I2, c(2, 2, 2, 2))), "q"),
  h(mfd_dist(P2, 1e300 * matrix(c(1, 1, -1, 1), 2), I2), "p"),   # not symmetric at any scale
  h(mfd_dist(K4, matrix(1:8, 4, 2), z4), "p"),
  h(mfd_dist(K4, z4, matrix(1:6, 3, 2)), "q"),
  h(mfd_dist_matrix(S2, rbind(N, c(0, 0, 2))), "X"),
  h(mfd_dist_matrix(S2, N, c(1, 1, 1)), "Y"),
  h(mfd_belongs(S2, c(1, NA, 0)), "p"),
  h(mfd_belongs(S2, N, tol = 0), "tol"),
  h(mfd_belongs(S2, N, tol = NA), "tol"),
  h(mfd_belongs(S2, N, tol = c(1, 2)), "tol"),
  # --- tangent vectors and recycling --------------------------------------
  h(mfd_exp(S2, N, c(1, 1, 1)), "v"),
  h(mfd_exp(S2, N, c(1e200, 0, 1e200)), "v"),    # the tangent check's scale overflowed (defect 8)
  h(mfd_exp(S2, N, c(NA, 0, 0)), "v"),
  h(mfd_exp(S2, N, c(1, 0)), "v"),
  h(mfd_exp(P2, I2, matrix(c(0, 1, 0, 0), 2)), "v"),
  h(mfd_exp(K4, z4, z4), "v"),
  h(mfd_inner(S2, N, E1, c(1, 1, 1)), "v"),
  h(mfd_inner(S2, N, rbind(E1, E1), rbind(E1, E1, E2)), "v"),
  h(mfd_norm(S2, N, c(0, 0, 1)), "v"),
  h(mfd_transport(S2, N, rbind(E1, E2, N), rbind(E1, E2)), "v"),     # 1, 3 and 2 points
  h(mfd_transport(S2, rbind(N, N), rbind(E1, E2, N), E1), c("p", "q")),
  h(mfd_transport(S2, N, E1, c(0, 0, 1)), "v"),
  h(mfd_dexp(S2, N, rbind(E1, E2), rbind(E1, E1, E2)), c("v", "u")),
  h(mfd_dexp(S2, N, E1, E2, wrt = "q"), "wrt"),
  h(mfd_dexp(S2, N, E1, E2, wrt = NA), "wrt"),
  h(mfd_dexp(S2, N, E1, E2, wrt = c("v", "p")), "wrt"),
  h(mfd_dexp(S2, N, E1, c(1, 1, 1)), "u"),
  h(mfd_dexp_adjoint(S2, N, E1, E2, wrt = "x"), "wrt"),
  h(mfd_dexp_adjoint(S2, N, E1, c(1, 1, 1)), "w"),
  h(mfd_dexp_adjoint(S2, N, rbind(E1, E2), rbind(E2, E2, E2)), c("v", "w")),
  h(mfd_project(S2, N, c(NA, 1, 1)), "v"),
  h(mfd_project(S2, rbind(N, N), rbind(E1, E1, E1)), "v"),
  # --- results beyond double precision (defects 3 and 8) -----------------
  h(mfd_exp(P2, I2, diag(c(1000, 1))), "v", NR),
  h(mfd_exp(P2, I2, diag(c(-1000, 1))), "v", NR),
  h(mfd_exp(LE2, I2, diag(c(1000, 1))), "v", NR),
  h(mfd_exp(LE2, I2, diag(c(-1000, 1))), "v", NR),
  h(mfd_exp(R3, c(1e308, 0, 0), c(1e308, 0, 0)), "v", NR),
  h(mfd_log(R3, c(1e308, 0, 0), c(-1e308, 0, 0)), "q", NR),
  h(mfd_dist(R3, c(1e308, 0, 0), c(-1e308, 0, 0)), "q", NR),
  h(mfd_inner(R3, c(0, 0, 0), c(1e200, 0, 0), c(1e200, 0, 0)), "v", NR),
  h(mfd_dist_matrix(R3, rbind(c(1e308, 0, 0)), rbind(c(-1e308, 0, 0))), "Y", NR),
  h(mfd_transport(P2, I2, 1e200 * I2, diag(c(1e300, 1))), "v", NR),
  # --- counts (defect 2) -------------------------------------------------
  h(mfd_random_point(S2, 0), "n"),
  h(mfd_random_point(S2, 3e9), "n"),
  h(mfd_random_point(S2, Inf), "n"),
  h(mfd_random_point(S2, NA), "n"),
  h(mfd_random_point(S2, 1.5), "n"),
  h(mfd_random_point(S2, -1), "n"),
  h(mfd_random_point(S2, "3"), "n"),
  h(mfd_random_point(S2, 1e9), "n"),          # 3e9 values: more than one result holds
  h(mfd_random_point(S2, c(1, 2)), "n"),
  h(mfd_random_tangent(S2, N, 0), "n"),
  h(mfd_random_tangent(S2, rbind(N, N), 3), "n"),
  h(mfd_random_tangent(S2, c(0, 0, 2)), "p"),
  h(mfd_random_tangent(S2, N, 2^31), "n"),
  h(mfd_tangent_basis(S2, rbind(N, N)), "p"),
  h(mfd_tangent_basis(spd(1000), diag(1000)), "M"),
  # --- Kendall configurations ---------------------------------------------
  h(as_preshape(matrix(1, 4, 2)), "X"),
  h(as_preshape(matrix(1:12, 4, 3)), "X"),
  h(as_preshape(matrix(1:4, 2, 2)), "X"),
  h(as_preshape(c(1, 2, 3)), "X"),
  h(as_preshape(matrix(c(1, NA, 3, 4, 5, 6), 3)), "X"),
  h(as_preshape("a"), "X"),
  h(as_preshape(array(c(rep(1, 6), 1:6), c(3, 2, 2))), "X"),
  h(as_preshape(matrix(c(0, 1, 0, 0, 0, 1), 3) * 1e-13 + 1e6), "X"),   # equal up to rounding
  h(as_preshape(matrix(0, 3, 2)), "X"),
  h(align_shapes(S2, z4, z4), "M"),
  h(align_shapes(K4, z4, rbind(z4, z4)), "target"),
  h(align_shapes(K4, matrix(1:8, 4, 2), z4), "X"),
  h(align_shapes(K4, z4, array(z4, c(4, 2, 2))), "target"),
  # --- Frechet mean ------------------------------------------------------
  h(frechet_mean(S2, Xs, max_iter = 1e10), "max_iter"),
  h(frechet_mean(S2, Xs, max_iter = Inf), "max_iter"),
  h(frechet_mean(S2, Xs, max_iter = 0), "max_iter"),
  h(frechet_mean(S2, Xs, tol = 0), "tol"),
  h(frechet_mean(S2, Xs, tol = -1), "tol"),
  h(frechet_mean(S2, Xs, tol = NA), "tol"),
  h(frechet_mean(S2, Xs, weights = c(-1, 1, 1)), "weights"),
  h(frechet_mean(S2, Xs, weights = c(0, 0, 0)), "weights"),
  h(frechet_mean(S2, Xs, weights = c(1, NA, 1)), "weights"),
  h(frechet_mean(S2, Xs, weights = c(1e308, 1e308, 1e308)), "weights"),
  h(frechet_mean(S2, Xs, weights = 1:2), "weights"),
  h(frechet_mean(S2, Xs, init = c(0, 0, 2)), "init"),
  h(frechet_mean(S2, Xs, init = rbind(N, N)), "init"),
  h(frechet_mean(S2, Xs * 2), "X"),
  h(frechet_mean(S2, "x"), "X"),
  h(frechet_mean(list(), Xs), "M"),
  h(frechet_mean(R3, rbind(c(1e308, 1e308, 0), c(-1e308, -1e308, 0))), "X", NR),
  h(frechet_mean(K4, array(1, c(4, 2, 3))), "X"),
  h(print(structure(list(), class = "frechet_mean")), "x"),
  # --- sensitivities -----------------------------------------------------
  h(frechet_sensitivity(S2, 0.5, Inf), "n"),
  h(frechet_sensitivity(S2, 0.5, 0), "n"),
  h(frechet_sensitivity(S2, 0.5, NA), "n"),
  h(frechet_sensitivity(S2, 0.5, 2.5), "n"),
  h(frechet_sensitivity(S2, 0.5, 10, mechanism = "gauss"), "mechanism"),
  h(frechet_sensitivity(S2, 0.5, 10, mechanism = NA), "mechanism"),
  h(frechet_sensitivity(S2, pi / 4, 10), "radius"),
  h(frechet_sensitivity(S2, -1, 10), "radius"),
  h(frechet_sensitivity(S2, Inf, 10), "radius"),
  h(frechet_sensitivity(S2, 0.5, 10, "wrapped"), "M"),
  h(frechet_sensitivity(P2, 1.7e308, 0.5, "wrapped"), "n"),
  h(frechet_sensitivity(P2, 1.7e308, 1, "wrapped"), "radius", NR),
  h(regression_sensitivity(S2, 0.1, 0.5, Inf), "n"),
  h(regression_sensitivity(S2, 0.1, 0.5, 2^31), "n"),
  h(regression_sensitivity(S2, 0, 0.5, 10), "tau"),
  h(regression_sensitivity(S2, 0.1, NA, 10), "radius"),
  h(regression_sensitivity(P2, 1e3, 1e3, 10), "radius", NR),
  h(regression_sensitivity(list(), 0.1, 0.5, 10), "M"),
  h(calibrate_analytic_gaussian(0, 1e-5, 1), "epsilon"),
  h(calibrate_analytic_gaussian(Inf, 1e-5, 1), "epsilon"),
  h(calibrate_analytic_gaussian(c(1, 2), 1e-5, 1), "epsilon"),
  h(calibrate_analytic_gaussian(1, 0, 1), "delta"),
  h(calibrate_analytic_gaussian(1, 1, 1), "delta"),
  h(calibrate_analytic_gaussian(1, NA, 1), "delta"),
  h(calibrate_analytic_gaussian(1, 1e-5, -1), "sensitivity"),
  h(calibrate_analytic_gaussian(1, 1e-5, 1e308), "sensitivity", NR),
  # --- geodesic regression -----------------------------------------------
  h(geodesic_regression(S2, 1:2, Xs), "x"),
  h(geodesic_regression(S2, c(1, 1, 1), Xs), "x"),
  h(geodesic_regression(S2, c(1, NA, 3), Xs), "x"),
  h(geodesic_regression(S2, c("a", "b", "c"), Xs), "x"),
  h(geodesic_regression(S2, 1:3, Xs * 2), "y"),
  h(geodesic_regression(S2, 1:3, Xs, x_range = c(3, 1)), "x_range"),
  h(geodesic_regression(S2, 1:3, Xs, x_range = c(-1e308, 1e308)), "x_range", NR),
  h(geodesic_regression(S2, c(-1e308, 0, 1e308), Xs), "x", NR),
  h(geodesic_regression(S2, 1:3, Xs, max_iter = 1e10), "max_iter"),
  h(geodesic_regression(S2, 1:3, Xs, tol = 0), "tol"),
  h(geodesic_regression(S2, 1:3, Xs, init = list(p = N)), "init"),
  h(geodesic_regression(S2, 1:3, Xs, init = list(p = c(0, 0, 2), v = E1)), "init$p"),
  h(geodesic_regression(S2, 1:3, Xs, init = list(p = N, v = N)), "init$v"),
  h(geodesic_regression(S2, 1, N), "y"),
  h(predict(fit, TRUE), "newdata"),
  h(predict(fit, "a"), "newdata"),
  h(predict(fit, data.frame(a = 1, b = 2)), "newdata"),
  h(predict(fit, data.frame(x = "a")), "newdata"),
  h(predict(fit, matrix(1:4, 2)), "newdata"),
  h(predict(fit, 1, interval = "confidence"), "interval"),
  h(predict(fit_e, 1, interval = "wide"), "interval"),
  h(predict(fit_e, 1, se.fit = TRUE), "se.fit"),
  h(predict(fit_e, 1, interval = "confidence", level = 2), "level"),
  h(confint(fit), "object"),
  h(vcov(fit), "object"),
  h(confint(geodesic_regression(euclidean(1), 1:4, c(1, 2, 2, 4)), parm = "slope"), "parm"),
  h(confint(frechet_mean(S2, Xs)), "object"),
  h(confint(frechet_mean(R3, t(Xs)), level = 1), "level"),
  h(confint(frechet_mean(R3, t(Xs), weights = c(1, 0, 0))), "object"),
  h(residuals(structure(list(), class = "geodesic_regression")), "object"),
  h(coef(structure(list(), class = "frechet_mean")), "object"),
  h(predict(fit_e, 1e308), "newdata", NR),
  h(print(structure(list(), class = "geodesic_regression")), "x"),
  h(summary(structure(list(n = 1), class = "geodesic_regression")), "object"),
  h(predict(structure(list(), class = "geodesic_regression"), 1), "object"),
  # --- sampler settings and samplers --------------------------------------
  h(mcmc_control(burnin = 1e10), "burnin"),
  h(mcmc_control(burnin = -1), "burnin"),
  h(mcmc_control(steps = Inf), "steps"),
  h(mcmc_control(steps = 0), "steps"),
  h(mcmc_control(thin = 2^31), "thin"),
  h(mcmc_control(step = -1), "step"),
  h(mcmc_control(step = Inf), "step"),
  # (target_acceptance is gone: chains are not tuned on the data's target)
  h(mcmc_control(keep_chain = NA), "keep_chain"),
  h(mcmc_control(keep_chain = "yes"), "keep_chain"),
  h(mcmc_control(step = "a"), "step"),
  h(rriemann_laplace(S2, 0, N, 0.1, radius = 0.5), "n"),
  h(rriemann_laplace(S2, 3e9, N, 0.1, radius = 0.5), "n"),
  h(rriemann_laplace(S2, 1, N, 0, radius = 0.5), "sigma"),
  h(rriemann_laplace(S2, 1, N, NA, radius = 0.5), "sigma"),
  h(rriemann_laplace(S2, 1, N, 0.1, radius = -1), "radius"),
  h(rriemann_laplace(S2, 1, N, 0.1, radius = 1), "radius"),
  h(rriemann_laplace(S2, 1, c(0, 0, 2), 0.1, radius = 0.5), "mean"),
  h(rriemann_laplace(S2, 1, N, 0.1, center = c(0, 0, 2), radius = 0.5), "center"),
  h(rriemann_laplace(S2, 1, N, 0.1, radius = 0.5, method = "auto"), "method"),
  h(rriemann_laplace(S2, 1, N, 0.1, radius = 0.5, mcmc = list()), "mcmc"),
  h(rriemann_laplace(S2, 1, N, 0.1, radius = 0.5, mcmc = mcmc_control(burnin = 1e10)), "burnin"),
  # the exact sampler's rejection bound (defect 5): a classed error naming
  # the real cause, quickly
  h(rriemann_laplace(sphere(1), 1, c(1, 0), 1e-3, center = c(-1, 0), radius = 0.1),
    c("sigma", "mean", "center", "radius")),
  h(rkng(S2, 1, Xs, 0.1, N, 0.5, method = "auto"), "method"),
  h(rkng(S2, 1, Xs * 2, 0.1, N, 0.5), "X"),
  h(rkng(S2, 1, Xs, -1, N, 0.5), "sigma"),
  h(rkng(S2, 1, Xs, 0.1, N, 2), "radius"),
  h(rkng(S2, 2^31, Xs, 0.1, N, 0.5), "n"),
  h(rwrapped_laplace(S2, 1, N, 0.1), "M"),
  h(rwrapped_laplace(P2, 1, I2, 1e300), "sigma", NR),
  h(rwrapped_gaussian(P2, 0, I2, 0.1), "n"),
  h(rwrapped_gaussian(P2, 1, I2, 0.1, footpoint = diag(c(1, -1))), "footpoint"),
  h(rwrapped_gaussian(P2, 1, diag(c(1, -1)), 0.1), "mean"),
  h(rwrapped_gaussian(P2, 1, I2, Inf), "sigma"),
  h(dkng(S2, N, Xs, 0), "sigma"),
  h(dkng(S2, c(0, 0, 2), Xs, 1), "y"),
  h(dkng(S2, N, Xs * 2, 1), "X"),
  h(driemann_laplace(S2, N, c(0, 0, 2), 1), "mean"),
  h(driemann_laplace(S2, c(0, 0, 2), N, 1), "y"),
  h(driemann_laplace(S2, N, N, -1), "sigma"),
  h(kng_gradient(S2, c(0, 0, 2), Xs), "y"),
  h(kng_gradient(S2, N, "a"), "X"),
  # --- private Frechet means ---------------------------------------------
  h(dp_frechet_mean(S2, Xs, 0, center = N, radius = 0.5), "epsilon"),
  h(dp_frechet_mean(S2, Xs, NA, center = N, radius = 0.5), "epsilon"),
  h(dp_frechet_mean(S2, Xs, Inf, center = N, radius = 0.5), "epsilon"),
  h(dp_frechet_mean(S2, Xs, 1, mechanism = "gauss", center = N, radius = 0.5), "mechanism"),
  h(dp_frechet_mean(S2, Xs, 1, center = N, radius = 2), "radius"),
  h(dp_frechet_mean(S2, Xs, 1, center = c(0, 0, 2), radius = 0.5), "center"),
  h(dp_frechet_mean(S2, Xs, 1, center = rbind(N, N), radius = 0.5), "center"),
  h(dp_frechet_mean(S2, Xs, 1, "wrapped_laplace", center = N, radius = 0.5), "mechanism"),
  h(dp_frechet_mean(P2, Xp, 1, "wrapped_gaussian", center = I2, radius = 1), "delta"),
  h(dp_frechet_mean(P2, Xp, 1, "wrapped_gaussian", center = I2, radius = 1, delta = 1), "delta"),
  h(dp_frechet_mean(P2, Xp, 1, "wrapped_gaussian", center = I2, radius = 1, alpha = 1), "alpha"),
  h(dp_frechet_mean(P2, Xp, 1, "wrapped_gaussian", center = I2, radius = 1, mu = -1), "mu"),
  h(dp_frechet_mean(P2, Xp, 1, "wrapped_laplace", center = I2, radius = 1e5), "radius", NR),
  h(dp_frechet_mean(P2, Xp, 1e-6, "wrapped_laplace", center = I2, radius = 50), "epsilon", NR),
  h(dp_frechet_mean(S2, Xs, 1, center = N, radius = 0.5, sampler = "gibbs"), "sampler"),
  h(dp_frechet_mean(S2, Xs, 1, center = N, radius = 0.5, truncated = NA), "truncated"),
  h(dp_frechet_mean(S2, Xs, 1, "wrapped_laplace", center = N, radius = 0.5, sampler = "mcmc"), "mechanism"),
  h(dp_frechet_mean(P2, Xp, 1, "wrapped_laplace", center = I2, radius = 1, sampler = "mcmc"), "sampler"),
  h(dp_frechet_mean(P2, Xp, 1, "wrapped_laplace", center = I2, radius = 1, seed_scale = TRUE), "seed_scale"),
  h(dp_frechet_mean(P2, Xp, 100, "laplace", center = I2, radius = 1e-3, truncated = FALSE, mcmc = list()), "mcmc"),
  h(dp_frechet_mean(spd(3), array(diag(3), c(3, 3, 2)), 0.01, "laplace", center = diag(3), radius = 1,
                    truncated = FALSE), "truncated"),
  h(dp_frechet_mean(S2, Xs, 1, center = N, radius = 0.5, return_nonprivate = "yes"), "return_nonprivate"),
  h(dp_frechet_mean(S2, Xs, 1, center = N, radius = 0.5, mcmc = mcmc_control(steps = 1e10)), "steps"),
  h(dp_frechet_mean(list(), Xs, 1), "M"),
  h(dp_frechet_mean(S2, Xs, 1, center = N, radius = 5e-324), "radius"),
  h(dp_frechet_mean(S2, Xs, 1, center = N, radius = 0.5, delta = 2), "delta"),
  h(dp_frechet_mean(S2, Xs * 2, 1, center = N, radius = 0.5), "X"),
  # --- private geodesic regression ---------------------------------------
  h(dp_reg(epsilon = 0), "epsilon"),
  h(dp_reg(method = "exact"), "method"),
  h(dp_reg(tau = -1), "tau"),
  h(dp_reg(tau = Inf), "tau"),
  h(dp_reg(radius = 1), "radius"),
  h(dp_reg(x_range = c(1, 0)), "x_range"),
  h(dp_reg(v_bound = -1), "v_bound"),
  h(dp_reg(p_radius = -1), "p_radius"),
  h(dp_reg(mcmc = mcmc_control(burnin = Inf)), "burnin"),
  h(dp_reg(y = Xs * 2), "y"),
  # --- release objects ---------------------------------------------------
  h(privacy_spent(), "..."),
  h(privacy_spent(rel, list()), c("...", "..2")),
  h(privacy_spent(empty_release), c("...", "..1")),
  h(privacy_spent(rel, rel, delta = 1.5), "delta"),
  h(print(empty_release), "x"),
  h(summary(empty_release), "object"),
  h(plot(empty_release), "x"),
  h(plot(rel_no_manifold), "x"),
  h(plot(rel, legend = NA), "legend"),
  h(predict(rel, 0.5), "object"),
  h(predict(empty_release, 1), "object"),
  h(coef(empty_release), "object"),
  # --- clipping to public balls ------------------------------------------
  h(clip_to_ball(S2, Xs, N, 2), "radius"),
  h(clip_to_ball(S2, Xs, c(0, 0, 2), 0.5), "center"),
  h(clip_to_ball(S2, Xs, N, -1), "radius"),
  h(clip_to_ball(S2, Xs * 2, N, 0.5), "X"),
  h(clip_to_ball(list(), Xs, N, 0.5), "M"),
  # --- plots (a null device is open; see below for add = TRUE) -----------
  h(plot_sphere(matrix(1, 2, 3)), "X"),
  h(plot_sphere(N, back = "hidden"), "back"),
  h(plot_sphere(N, view = c(NA, 1)), "view"),
  h(plot_sphere(N, graticule = -1), "graticule"),
  h(lines_sphere(N), "v"),
  h(lines_sphere(N, v = E1, t_range = c(0, Inf)), "t_range"),
  h(points_sphere(c(0, 0, 2)), "X"),
  h(plot_spd_ellipses(diag(c(1, -1))), "S"),
  h(plot_spd_ellipses(I2, which = c(1, 1)), "which"),
  h(plot_spd_ellipses(I2, scale = -1), "scale"),
  h(plot_spd_ellipses(I2, add = NA), "add"),
  h(plot_shapes(matrix(1:6, 3), aligned_to = matrix(1, 3, 2)), "aligned_to"),
  h(plot_shapes(matrix(1:6, 3), aligned_to = diag(2)), "aligned_to"),
  h(plot_shapes(list()), "X"),
  h(plot_shapes(matrix(c(1, NA, 3, 4, 5, 6), 3)), "X"),
  h(plot(fit, at = NA_real_), "at"),
  h(plot(fit, legend = NA), "legend"),
  # --- data sets -----------------------------------------------------------
  h(simulate_corpus_callosum(0), "n"),
  h(simulate_corpus_callosum(3e9), "n"),
  h(simulate_corpus_callosum(2e9), "n"),
  h(simulate_corpus_callosum(5, k = 4), "k"),
  h(simulate_corpus_callosum(5, noise = -1), "noise"),
  h(simulate_corpus_callosum(5, noise = 1e308), "noise", NR),
  h(simulate_corpus_callosum(5, age = 1:3), "age"),
  h(simulate_corpus_callosum(5, variability = 1e308), "variability", NR),
  h(simulate_corpus_callosum(5, age_range = c(90, 55)), "age_range"),
  h(eustock_covariances(window = 3), "window"),
  h(eustock_covariances(window = 1e10), "window"),
  h(eustock_covariances(step = 0), "step"),
  h(eustock_covariances(indices = "NIKKEI"), "indices"),
  h(eustock_covariances(indices = c(1, 1)), "indices")
)

# Evaluate one row with a time limit (a hang fails the row instead of the
# run); warnings on the way to the error are not what is tested here.
run_hostile_row <- function(row, limit = 5) {
  setTimeLimit(elapsed = limit, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
  suppressWarnings(eval(row$expr, envir = hostile_env))
}

# One expectation per row; a row that errs otherwise (or not at all) fails
# with what it did, and the loop goes on.
expect_hostile <- function(row) {
  escaped <- gsub("([][{}()+*^$|\\\\?.])", "\\\\\\1", row$arg)
  pattern <- paste0("`(", paste(escaped, collapse = "|"), ")`")
  label <- paste(deparse(row$expr, width.cutoff = 500L), collapse = " ")
  if (!is.na(row$pending)) label <- sprintf("%s [pending: %s]", label, row$pending)
  cnd <- tryCatch({
    run_hostile_row(row)
    NULL
  }, error = function(e) e, interrupt = function(e) {
    structure(list(message = "interrupted (time limit: a hang)"), class = c("interrupt", "condition"))
  })
  ok <- inherits(cnd, row$class) && grepl(pattern, conditionMessage(cnd))
  got <- if (is.null(cnd)) "no error" else
    sprintf("<%s> %s", paste(class(cnd), collapse = "/"), conditionMessage(cnd))
  expect(ok, sprintf("%s\n  expected <%s> naming %s\n  got %s", label, row$class, pattern, got))
}

test_that("the hostile-input table has at least 200 calls", {
  expect_gte(length(hostile_calls), 200L)
  tab <- data.frame(call = vapply(hostile_calls, function(r) paste(deparse(r$expr), collapse = " "), ""),
                    class = vapply(hostile_calls, `[[`, "", "class"),
                    pending = vapply(hostile_calls, `[[`, "", "pending"))
  expect_false(anyDuplicated(tab$call) > 0)
})

test_that("every hostile call is a classed error naming its argument", {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  for (row in hostile_calls) expect_hostile(row)
})

test_that("adding to a plot that does not exist is refused", {
  while (grDevices::dev.cur() > 1L) grDevices::dev.off()
  expect_hostile(h(plot_spd_ellipses(I2, add = TRUE), "add"))
})

test_that("read_corpus_callosum refuses bad paths and columns", {
  skip_if_not_installed("R.matlab")
  for (row in list(h(read_corpus_callosum(123), "path"),
                   h(read_corpus_callosum(file.path(tempdir(), "no-such-dir")), "path"),
                   h(read_corpus_callosum(tempdir(), age_col = 0), "age_col"),
                   h(read_corpus_callosum(tempdir(), diagnosis_col = 2^31), "diagnosis_col"))) {
    expect_hostile(row)
  }
})

test_that("C++ exceptions reach R as dpmanifold_error", {
  expect_error(dpm$cpp_manifold_info(list(type = "torus", size = 2L)), "unknown manifold",
               class = "dpmanifold_error")
  expect_error(dpm$cpp_dist(S2, matrix(1, 3, 2), matrix(1, 3, 3)), "numbers of points differ",
               class = "dpmanifold_error")
  expect_error(dpm$cpp_manifold_info(list(type = "spd_affine_invariant", size = 46341L)),
               "46340", class = "dpmanifold_error")
  expect_error(dpm$cpp_binary_op(S2, "cube", matrix(N), matrix(N)), "unknown operation",
               class = "dpmanifold_error")
})

# --- the fixes behind the table, checked on values ---------------------------

test_that("extreme magnitudes give correct finite results (defect 8)", {
  # affine-invariant distance between 1e300 I and 1e-300 I: sqrt(2) log(1e600)
  expect_equal(mfd_dist(P2, 1e300 * I2, 1e-300 * I2), sqrt(2) * 600 * log(10), tolerance = 1e-12)
  fm <- frechet_mean(P2, array(c(1e300 * I2, 1e-300 * I2), c(2, 2, 2)))
  expect_equal(fm$mean, I2, tolerance = 1e-10)
  expect_true(is.finite(fm$objective))
  # scale invariance of the affine-invariant geometry at 1e250
  A <- matrix(c(2, 0.5, 0.5, 1), 2)
  B <- matrix(c(1, -0.3, -0.3, 3), 2)
  expect_equal(mfd_dist(P2, 1e250 * A, 1e250 * B), mfd_dist(P2, A, B), tolerance = 1e-12)
  expect_equal(mfd_log(P2, 1e-250 * A, 1e-250 * B) * 1e250, mfd_log(P2, A, B), tolerance = 1e-12)
  expect_equal(mfd_exp(P2, 1e250 * A, 1e250 * B) / 1e250, mfd_exp(P2, A, B), tolerance = 1e-12)
  # exp of a large but representable whitened vector: e^720 overflows alone
  big <- mfd_exp(P2, 1e-300 * I2, diag(c(720, 0)) * 1e-300)
  expect_equal(log(big[1, 1]), 720 - 300 * log(10), tolerance = 1e-12)
  # Euclidean distance and clipping beyond 1e154
  expect_equal(mfd_dist(euclidean(2), c(1e200, 0), c(-1e200, 0)), 2e200)
  cl <- clip_to_ball(euclidean(2), c(1e300, 1e300), c(0, 0), 1)
  expect_equal(as.vector(cl), c(1, 1) / sqrt(2))
  cl2 <- clip_to_ball(euclidean(2), c(1e308, 1e308), c(-1e308, -1e308), 1e307)
  expect_true(all(is.finite(cl2)))
  expect_equal(as.vector(cl2), -1e308 + 1e307 / sqrt(2) * c(1, 1), tolerance = 1e-12)
  # a long tangent vector on the sphere: exp stays on the sphere
  y <- mfd_exp(S2, N, c(1e200, 0, 0))
  expect_equal(sum(y^2), 1, tolerance = 1e-12)
  expect_equal(mfd_norm(R3, c(0, 0, 0), c(1e300, 1e300, 1e300)), sqrt(3) * 1e300, tolerance = 1e-12)
  # Kendall preshapes of huge and tiny coordinates (defects 8 and 9)
  tri <- matrix(c(0, 1, 0, 0, 0, 1), 3)
  z <- as_preshape(tri)
  expect_equal(as_preshape(tri * 1e300), z, tolerance = 1e-14)
  expect_equal(as_preshape(tri * 1e-13), z, tolerance = 1e-14)
  expect_equal(as_preshape(tri * 1e-300), z, tolerance = 1e-14)
})

test_that("the analytic Gaussian calibration is scale-free and finite for any epsilon", {
  s1 <- calibrate_analytic_gaussian(1, 1e-5, 1)
  expect_equal(calibrate_analytic_gaussian(1, 1e-5, 1e300) / 1e300, s1, tolerance = 1e-10)
  expect_equal(calibrate_analytic_gaussian(1, 1e-5, 1e-300) * 1e300, s1, tolerance = 1e-10)
  cond <- function(eps, delta, s) {
    a <- 1 / (2 * s); b <- eps * s
    stats::pnorm(a - b) - exp(eps + stats::pnorm(-a - b, log.p = TRUE))
  }
  for (eps in c(1e-3, 1, 50, 710, 1e4)) {
    s <- calibrate_analytic_gaussian(eps, 1e-6, 1)
    expect_true(is.finite(s) && s > 0, label = paste("epsilon", eps))
    expect_lte(cond(eps, 1e-6, s), 1e-6)                   # (epsilon, delta)-DP
    expect_gt(cond(eps, 1e-6, s * (1 - 1e-6)), 1e-6)       # and the smallest such sigma
  }
})

test_that("counts at the edge of the integer range are handled, not wrapped", {
  expect_identical(dpm$check_count(2^31 - 1, "n"), .Machine$integer.max)
  expect_error(dpm$check_count(2^31, "n"), "`n`", class = "dpmanifold_error")
  m <- mcmc_control(burnin = 2^31 - 1)
  expect_identical(m$burnin, .Machine$integer.max)
  s <- spd(46340)
  expect_true(is.integer(s$ambient_dim) && s$ambient_dim == 46340^2)
  expect_true(is.integer(s$dim) && s$dim == 46340 * 46341 / 2)
  k <- kendall_shape(2^30 - 1)
  expect_true(is.integer(k$ambient_dim) && k$ambient_dim == 2 * (2^30 - 1))
})

test_that("match.arg's replacement names the argument and keeps partial matching", {
  expect_identical(spd(2, metric = "log")$metric, "log_euclidean")
  expect_identical(spd(2)$metric, "affine_invariant")
  f <- function(which = c("alpha", "beta")) dpm$check_choice(which)
  expect_identical(f(), "alpha")
  expect_identical(f("be"), "beta")
  expect_error(f("gamma"), "`which` is \"gamma\" but must be one of \"alpha\", \"beta\"",
               class = "dpmanifold_error")
  expect_error(f(c("beta", "alpha")), "`which`", class = "dpmanifold_error")
})

test_that("R^2 of constant responses is NA with a warning, not NaN (defect 10)", {
  Y <- rbind(N, N, N)
  expect_warning(fit0 <- geodesic_regression(S2, 1:3, Y), "R\\^2 is undefined", class = "dpmanifold_warning")
  expect_true(is.na(fit0$r_squared) && !is.nan(fit0$r_squared))
  expect_output(print(fit0), "R\\^2 NA")
})

test_that("tangent coordinates are O(D) and agree with the basis (defect 7)", {
  set.seed(11)
  cases <- list(list(M = sphere(40), tol = 1e-12), list(M = kendall_shape(12), tol = 1e-12),
                list(M = euclidean(7), tol = 1e-12), list(M = spd(3, "log_euclidean"), tol = 1e-9),
                list(M = spd(3), tol = 1e-9))
  for (cs in cases) {
    M <- cs$M
    p <- mfd_random_point(M)
    B <- mfd_tangent_basis(M, p)   # one basis vector per row, or per slice
    Bm <- if (is.null(M$point_dim)) t(B) else matrix(B, M$ambient_dim)
    expect_equal(dim(Bm), c(M$ambient_dim, M$dim))
    P <- matrix(as.vector(p))
    G <- outer(seq_len(M$dim), seq_len(M$dim), Vectorize(function(i, j) {
      dpm$cpp_inner(M, P, Bm[, i, drop = FALSE], Bm[, j, drop = FALSE])
    }))
    expect_equal(G, diag(M$dim), tolerance = cs$tol, label = M$name)
    why <- dpm$cpp_check_tangents(M, P, Bm, 1e-9)
    expect_true(all(!nzchar(why)), label = M$name)
    v <- mfd_random_tangent(M, p)
    z <- dpm$cpp_tangent_coords(M, P, matrix(as.vector(v)))
    expect_equal(as.vector(Bm %*% z), as.vector(v), tolerance = cs$tol, label = M$name)
  }
  # sizes where a D x D basis would not fit a test: still instant
  big <- sphere(2e5)
  p <- c(1, rep(0, 2e5))
  v <- c(0, stats::rnorm(2e5))
  z <- dpm$cpp_tangent_coords(big, matrix(p), matrix(v))
  expect_equal(sum(z^2), sum(v^2), tolerance = 1e-12)
  draws <- rwrapped_gaussian(euclidean(2e5), 2, rep(0, 2e5), 1)
  expect_equal(dim(draws), c(2L, 2e5))
})

test_that("a long Metropolis-Hastings chain stops under setTimeLimit (defect 1)", {
  z <- as_preshape(matrix(c(0, 1, 1.2, 0.1, 0, 0, 1, 0.9, 0.5, 0.3), 5, 2))
  t0 <- proc.time()[["elapsed"]]
  res <- tryCatch({
    setTimeLimit(elapsed = 1, transient = TRUE)
    rriemann_laplace(kendall_shape(5), 1, z, 0.1, radius = 0.3, method = "mcmc",
                     mcmc = mcmc_control(burnin = 0, steps = 1e9))
  }, error = function(e) e, interrupt = function(e) e, finally = setTimeLimit(elapsed = Inf))
  elapsed <- proc.time()[["elapsed"]] - t0
  expect_true(inherits(res, "condition"))
  expect_lt(elapsed, 5)
})

test_that("a long distance matrix stops under setTimeLimit", {
  set.seed(3)
  X <- mfd_random_point(spd(6), 1500)
  t0 <- proc.time()[["elapsed"]]
  res <- tryCatch({
    setTimeLimit(elapsed = 0.5, transient = TRUE)
    mfd_dist_matrix(spd(6), X)
  }, error = function(e) e, interrupt = function(e) e, finally = setTimeLimit(elapsed = Inf))
  elapsed <- proc.time()[["elapsed"]] - t0
  expect_true(inherits(res, "condition"))
  expect_lt(elapsed, 4)
})

# --- issue 20: hostile groups 1-9 ------------------------------------------------

# A small regression release on each of four manifolds (public bounds).
issue20_releases <- local({
  set.seed(20)
  xs <- seq(0, 1, length.out = 12)
  mk <- function(M, center, radius, Y) {
    dp_geodesic_regression(M, xs, Y, epsilon = 2, tau = 0.3, center = center, radius = radius, x_range = c(0, 1))
  }
  H2 <- hyperbolic(2)
  o <- c(1, 0, 0)
  list(sphere = mk(S2, N, 0.7, mfd_exp(S2, N, outer(xs, c(0.3, 0, 0)))),
       euclidean = mk(euclidean(2), c(0, 0), 1, cbind(xs, 0.5 * xs)),
       spd = mk(P2, I2, 1, mfd_exp(P2, I2, array(outer(as.vector(diag(c(0.3, 0))), xs), c(2, 2, 12)))),
       hyperbolic = mk(H2, o, 1, mfd_exp(H2, o, outer(xs, c(0, 0.4, 0)))))
})

test_that("predict() of a release on no covariate values is an empty result, not a crash (group 1)", {
  for (nm in names(issue20_releases)) {
    r <- issue20_releases[[nm]]
    M <- r$manifold
    out <- predict(r, numeric(0))
    expected_dim <- if (is.null(M$point_dim)) c(0L, M$ambient_dim) else c(M$point_dim, 0L)
    expect_identical(dim(out), as.integer(expected_dim), label = nm)
    one <- predict(r, 0.3)
    expect_true(all(is.finite(one)), label = nm)
    expect_true(all(mfd_belongs(M, one, 1e-8)), label = nm)
  }
  # the C++ operations on an empty set of points return nothing (they read
  # column 0 of an empty matrix before)
  expect_identical(dim(dpm$cpp_binary_op(S2, "exp", matrix(N), matrix(0, 3, 0))), c(3L, 0L))
  expect_identical(dim(dpm$cpp_ternary_op(S2, "transport", matrix(N), matrix(0, 3, 0), matrix(E1))),
                   c(3L, 0L))
  expect_length(dpm$cpp_dist(S2, matrix(0, 3, 0), matrix(N)), 0L)
})

test_that("predict() of a release checks its estimate and the size of newdata (group 2)", {
  r <- issue20_releases$sphere
  tamper <- function(field, value) {
    r2 <- r
    r2$estimate[[field]] <- value
    r2
  }
  rows <- list(
    h(predict(r_x0, 0.5), "object$estimate$x0"),
    h(predict(r_p, 0.5), "object$estimate$p"),
    h(predict(r_v, 0.5), "object$estimate$v"),
    h(predict(r_swap, 0.5), "object$estimate$p"),
    h(predict(r_far, 0.5), "object$estimate$p"),
    h(predict(r, seq_len(1e9)), "newdata"),
    h(predict(r, c(0.5, Inf)), "newdata"),
    h(predict(r), "newdata"),
    h(predict(issue20_releases$spd, 1e6), "newdata", NR),
    h(predict(issue20_releases$hyperbolic, 1e6), "newdata", NR),
    h(predict(r_e_fast, 1.7e308), "newdata", NR))
  # a release whose velocity makes the far prediction overflow (|v| within
  # the public v_bound)
  r_e_fast <- issue20_releases$euclidean
  r_e_fast$estimate$v <- c(1.4, 1.4)
  assign("r_e_fast", r_e_fast, envir = hostile_env)
  r_swap <- r
  r_swap$manifold <- hyperbolic(2)
  r_far <- tamper("p", E1)          # on the sphere, but outside the public domain
  r_far$estimate$v <- c(0, 0, 0)
  vars <- list(r = r, r_x0 = tamper("x0", NA_real_), r_p = tamper("p", c(0, 0, 2)), r_v = tamper("v", c(0, 0, 1)),
               r_far = r_far, r_swap = r_swap)
  for (nm in names(vars)) assign(nm, vars[[nm]], envir = hostile_env)
  t0 <- proc.time()[["elapsed"]]
  for (row in rows) expect_hostile(row)
  expect_lt(proc.time()[["elapsed"]] - t0, 5)   # seq_len(1e9) is refused before anything is allocated
})

test_that("sizes are checked before anything is allocated (group 3)", {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  plot_sphere(N)
  big <- "dpmanifold_too_large"
  rows <- list(
    h(rwrapped_gaussian(euclidean(2), 1e9, c(0, 0), 1), "n", big),
    h(rwrapped_laplace(euclidean(2), 2e8, c(0, 0), 1), "n", big),
    h(mfd_random_point(euclidean(2), 5e8), "n", big),
    h(mfd_random_tangent(S2, N, 5e8), "n", big),
    h(rriemann_laplace(S2, 5e8, N, 0.1, radius = 0.5), "n", big),
    h(mfd_tangent_basis(hyperbolic(20000), c(1, numeric(20000))), "M", big),
    h(lines_sphere(N, v = E1, n = 1e9), "n"),
    h(plot_sphere(N, graticule = 1e-4), "graticule"),
    h(plot_sphere(N, graticule = 0.5), "graticule"),
    h(plot_sphere(N, graticule = 200), "graticule"),
    h(plot_sphere(N, graticule = NA), "graticule"))
  t0 <- proc.time()[["elapsed"]]
  for (row in rows) expect_hostile(row)
  expect_lt(proc.time()[["elapsed"]] - t0, 5)
  # the budget is an option: a small one refuses small results too
  withr_budget <- options(dpmanifold.max_bytes = 1000)
  on.exit(options(withr_budget), add = TRUE)
  expect_error(mfd_random_point(S2, 100), "`n`.*memory budget", class = "dpmanifold_too_large")
  # a kept chain is a result too (steps = 1e7 kept 229 MB unchecked); a
  # release keeps none, so the same settings release within the budget
  expect_error(rriemann_laplace(S2, 1, N, 0.1, radius = 0.5, method = "mcmc",
                                mcmc = mcmc_control(burnin = 0, steps = 1e7, keep_chain = TRUE)),
               "`mcmc`.*memory budget", class = "dpmanifold_too_large")
  expect_error(rkng(S2, 1, rbind(N, N), 0.1, N, 0.5, method = "mcmc",
                    mcmc = mcmc_control(burnin = 0, steps = 1e7, keep_chain = TRUE)),
               "`mcmc`.*memory budget", class = "dpmanifold_too_large")
  expect_s3_class(suppressWarnings(dp_frechet_mean(S2, rbind(N, N), 1, "kng", center = N, radius = 0.5,
                                                        sampler = "mcmc",
                                                        mcmc = mcmc_control(burnin = 0, steps = 1000, keep_chain = TRUE)),
                                        classes = "dpmanifold_low_utility"), "dp_release")
  options(withr_budget)
  expect_equal(dim(mfd_random_point(S2, 100)), c(100L, 3L))
  # the coarsest and finest graticules draw in well under a second
  expect_lt(system.time(plot_sphere(N, graticule = 1))[["elapsed"]], 2)
  expect_silent(plot_sphere(N, graticule = 90))
})

test_that("random hyperbolic points are points the package accepts; near-improper Laplace laws are refused (group 4)", {
  set.seed(4)
  for (d in c(2, 16, 17, 1000, 6e5)) {
    H <- hyperbolic(d)
    X <- mfd_random_point(H, 2)
    expect_true(all(is.finite(X)), label = paste("d =", d))
    expect_true(all(X[, 1] < 1e12), label = paste("d =", d))
    expect_true(all(mfd_belongs(H, X)), label = paste("d =", d))
    dd <- mfd_dist(H, X[1, ], X[2, ])
    expect_true(is.finite(dd) && dd > 0, label = paste("d =", d))
  }
  # the law is unchanged for d <= 16 (set.seed() reproducibility)
  set.seed(1); a <- mfd_random_point(hyperbolic(3), 4)
  set.seed(1); b <- t(dpm$cpp_random_point(hyperbolic(3), 4L))
  expect_identical(a, b)
  H5 <- hyperbolic(5)
  o5 <- c(1, numeric(5))
  rows <- list(h(rriemann_laplace(H5, 2, o5, sigma = 0.2499), "sigma"),
               h(rriemann_laplace(spd(2), 5, I2, sigma = 1.414), "sigma"),
               h(rriemann_laplace(spd(3), 5, diag(3), sigma = 0.707), "sigma"))
  assign("H5", H5, envir = hostile_env)
  assign("o5", o5, envir = hostile_env)
  t0 <- proc.time()[["elapsed"]]
  for (row in rows) expect_hostile(row)
  expect_lt(proc.time()[["elapsed"]] - t0, 5)
  # farther from the limit the law is sampled, with finite draws only
  y <- rriemann_laplace(H5, 200, o5, sigma = 0.2)
  expect_false(anyNA(y))
  expect_true(all(mfd_belongs(H5, y)))
  expect_false(dpm$untruncated_tail_ok(H5, 0.2499, o5))
  expect_true(dpm$untruncated_tail_ok(H5, 0.2, o5))
})

test_that("half-plane coordinates are accurate on both sides; bad half-plane input is refused (group 5)", {
  for (t in c(1, 5, 20, 28)) {
    below <- c(cosh(t), 0, -sinh(t))       # x2 < 0: v = e^-t (x0 + x2 cancelled)
    above <- c(cosh(t), 0, sinh(t))        # x2 > 0: v = e^t (x0 - x2 would cancel)
    expect_equal(hyperbolic_to_halfplane(below), c(0, exp(-t)), tolerance = 1e-13, label = paste("t =", t))
    expect_equal(hyperbolic_to_halfplane(above), c(0, exp(t)), tolerance = 1e-13, label = paste("t =", t))
    side <- c(cosh(t), sinh(t) * cos(2), sinh(t) * sin(2))
    z <- hyperbolic_to_halfplane(side)
    expect_equal(mfd_dist(hyperbolic(2), halfplane_to_hyperbolic(z), c(1, 0, 0)), t, tolerance = 1e-10)
    expect_true(all(is.finite(z)) && z[2] > 0)
  }
  rows <- list(h(halfplane_to_hyperbolic(complex(0)), "z"),
               h(halfplane_to_hyperbolic(matrix(c(1i, 2i), 1)), "z"),
               h(halfplane_to_hyperbolic(complex(real = 0, imaginary = -1)), "z"),
               h(halfplane_to_hyperbolic(numeric(0)), "z"))
  for (row in rows) expect_hostile(row)
  expect_error(halfplane_to_hyperbolic(matrix(c(1i, 2i), 1)), "complex vector", class = "dpmanifold_error")
  expect_equal(nrow(halfplane_to_hyperbolic(c(1i, 2i))), 2L)
})

test_that("hyperbolic_embedding() is linear in the number of nodes (group 6)", {
  star <- c(NA, rep(1, 4e4 - 1))
  elapsed <- system.time(e <- hyperbolic_embedding(star))[["elapsed"]]
  expect_lt(elapsed, 3)                # 41 s with a copying queue
  expect_identical(dim(e$points), c(4e4L, 3L))
  expect_identical(e$depth, c(0L, rep(1L, 4e4 - 1)))
  expect_equal(mfd_dist(hyperbolic(2), e$points[2:5, ], e$points[1, ]), rep(1, 4), tolerance = 1e-10)
  # a deep path and a binary tree are placed breadth first as before
  path <- c(NA, seq_len(199))
  ep <- hyperbolic_embedding(path, tau = 0.02)
  expect_identical(ep$depth, 0:199)
  hc <- stats::hclust(stats::as.dist(eurodist))
  eh <- hyperbolic_embedding(hc)
  expect_identical(eh$depth[eh$root], 0L)
  expect_true(all(eh$depth[!is.na(eh$parent)] == eh$depth[eh$parent[!is.na(eh$parent)]] + 1L))
})

test_that("missing arguments, tampered releases and plot data name the argument (group 8)", {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  r <- issue20_releases$sphere
  hyp <- issue20_releases$hyperbolic
  fm <- rel
  fm_h <- suppressWarnings(dp_frechet_mean(hyperbolic(2), rbind(c(1, 0, 0), c(cosh(0.1), sinh(0.1), 0)), 1,
                                                center = c(1, 0, 0), radius = 0.5), classes = "dpmanifold_low_utility")
  r_sigma <- r
  r_sigma$sigma <- "a"
  r_sens <- r
  r_sens$sensitivity <- NA
  r_n <- r
  r_n$n <- -1
  hyp_center <- hyp
  hyp_center$bounds$center <- c(2, 0, 0)
  fm_center <- fm_h
  fm_center$bounds$center <- "a"
  fm_radius <- fm
  fm_radius$bounds$radius <- -1
  far <- rbind(N, -N)
  vars <- list(r = r, hyp = hyp, fm = fm, fm_h = fm_h, r_sigma = r_sigma, r_sens = r_sens, r_n = r_n,
               hyp_center = hyp_center, fm_center = fm_center, fm_radius = fm_radius, far = far)
  for (nm in names(vars)) assign(nm, vars[[nm]], envir = hostile_env)
  rows <- list(
    h(clip_to_ball(S2, Xs, N), "radius"),
    h(clip_to_ball(S2, Xs, radius = 0.5), "center"),
    h(rkng(S2, 1, Xs, 0.1, N), "radius"),
    h(rkng(S2, 1, Xs, 0.1, radius = 0.5), "center"),
    h(summary(r_sigma), "object$sigma"),
    h(summary(r_sens), "object$sensitivity"),
    h(summary(r_n), "object$n"),
    h(mfd_dist_matrix(S2, matrix(1, 2, 5)), "X"),
    h(mfd_dist_matrix(S2, far[rep(1:2, 1e4), ]), "X", "dpmanifold_too_large"),   # 3.2 GB
    h(mfd_dist_matrix(S2, far[rep(1:2, 1e4), ], far[rep(1:2, 1e4), ]), "Y", "dpmanifold_too_large"),
    h(plot(fm_h, data = "bad"), "data"),
    h(plot(fm_h, data = matrix(1, 2, 7)), "data"),
    h(plot(fm, data = list(1, 2)), "data"),
    h(plot(P2_rel <- dp_frechet_mean(P2, Xp, 1, center = I2, radius = 1), data = "bad"), "data"),
    h(plot(hyp, data = "bad"), "data"),
    h(plot(hyp_center), "x$bounds$center"),
    h(plot(fm_center), "x$bounds$center"),
    h(plot(fm_radius), "x$bounds$radius"),
    h(predict(hyp_center, 0.5), "object$bounds$center"))
  for (row in rows) expect_hostile(row)
  # no device, or a device with no plot yet: add = TRUE is refused
  expect_hostile(h(plot_spd_ellipses(I2, add = TRUE), "add"))
  plot(1)
  expect_silent(plot_spd_ellipses(I2, add = TRUE))
})

test_that("simulate_corpus_callosum() is fast, stops under a time limit and keeps its law (group 9)", {
  # a time limit arrives as R's own error within a block of subjects; it was
  # caught and reported as "`noise` is too large" before
  t0 <- proc.time()[["elapsed"]]
  res <- tryCatch({
    setTimeLimit(elapsed = 1, transient = TRUE)
    simulate_corpus_callosum(1e6)
  }, error = function(e) e, interrupt = function(e) e, finally = setTimeLimit(elapsed = Inf))
  expect_true(inherits(res, "condition"))
  expect_false(inherits(res, "dpmanifold_not_representable"))
  # the 1e6 subjects take about 100 s: stopping well before shows the limit
  # arrived (loose, as another job may hold the cores; speed is benched, not
  # asserted here)
  expect_lt(proc.time()[["elapsed"]] - t0, 15)
  cc <- with_seed(1, simulate_corpus_callosum(5000))
  expect_identical(dim(cc$shapes), c(50L, 2L, 5000L))
  expect_true(all(is.finite(cc$shapes)))
  # the same law and random stream as the subject-by-subject loop: values
  # of that loop (commit 56b5140), across block boundaries
  expect_equal(as.vector(with_seed(1, simulate_corpus_callosum(50))$shapes[c(1, 25), , c(1, 50)]),
               c(95.69609806, 29.1458499381, 65.8673997929, 61.6923067289, 99.2005729459,
                 38.3155323641, 60.3918974538, 60.5148857546), tolerance = 1e-9)
  expect_equal(as.vector(with_seed(2, simulate_corpus_callosum(600, k = 13, age_effect = 0.2))$shapes[c(1, 7), , c(1, 300, 600)]),
               c(100.6879628703, 29.077225829, 57.9756567563, 63.2100498698, 95.2572263641, 41.3755277617,
                 62.6487374441, 57.084098862, 105.8615575568, 43.0374496991, 54.9660064943, 60.0475015441),
               tolerance = 1e-9)
  # sizes beyond the memory budget are refused before anything is drawn
  expect_hostile(h(simulate_corpus_callosum(1e7), "n", "dpmanifold_too_large"))   # 7.5 GB
  expect_hostile(h(simulate_corpus_callosum(5, noise = 1e308), "noise", NR))
})
