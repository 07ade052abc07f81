# dpmanifold quick start: a private Frechet mean and a private geodesic
# regression on the sphere, with public bounds.
library(dpmanifold)
set.seed(1)

S2 <- sphere(2)
north <- c(0, 0, 1)

# 200 directions around a mean 0.22 from the north pole. The public ball
# (radius pi/8 around the pole) comes from knowledge of the domain, not
# from these data; here it holds almost all of them (a point outside would
# be moved onto it).
m0 <- mfd_exp(S2, north, c(0.2, 0.1, 0))
X <- mfd_exp(S2, m0, 0.05 * mfd_random_tangent(S2, m0, 200))
rel <- dp_frechet_mean(S2, X, epsilon = 1, center = north, radius = pi / 8)
print(rel)
# For reference only (not private): how far the release is from the
# non-private mean, and how far the public centre is.
m_hat <- frechet_mean(S2, X)$mean
cat("distance private -> non-private mean:",
    signif(mfd_dist(S2, rel$estimate, m_hat), 3),
    "(public centre:", signif(mfd_dist(S2, north, m_hat), 3), ")\n\n")

# A direction drifting with a covariate (e.g. time), 400 observations
x <- runif(400, 2000, 2020)
truth <- mfd_exp(S2, north, outer((x - 2010) / 20, c(0.5, 0.2, 0)))
y <- mfd_exp(S2, truth, 0.05 * mfd_random_tangent(S2, truth, 400))
fit <- geodesic_regression(S2, x, y, x_range = c(2000, 2020))
print(fit)
reg <- dp_geodesic_regression(S2, x, y, epsilon = 1, tau = 0.2, center = north,
                              radius = 0.7, x_range = c(2000, 2020))
print(reg)
# the default is exact epsilon-DP: its stages and budgets print with it
cat("private prediction for 2020:", signif(predict(reg, 2020), 4), "\n")
# For reference only (not private): how far it is from the non-private
# fit's prediction, and how far the public centre (all a release without
# data could say) is.
cat("distance private -> non-private prediction for 2020:",
    signif(mfd_dist(S2, predict(reg, 2020), predict(fit, 2020)), 3),
    "(public centre:", signif(mfd_dist(S2, north, predict(fit, 2020)), 3), ")\n")
