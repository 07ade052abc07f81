# dpmanifold quick start: geometry on three manifolds.
library(dpmanifold)
set.seed(1)

S2 <- sphere(2)
print(S2)
north <- c(0, 0, 1)
X <- mfd_exp(S2, north, mfd_random_tangent(S2, north, 5) * 0.3)
cat("distances from the north pole:", round(mfd_dist(S2, north, X), 3), "\n")

P <- spd(2)
cat("affine-invariant distance diag(1,1) -> diag(e,1):", mfd_dist(P, diag(2), diag(c(exp(1), 1))), "\n")

K <- kendall_shape(3)
tri <- rbind(c(0, 0), c(1, 0), c(0.3, 0.8))
cat("shape distance of a triangle to its rotated, scaled copy:",
    signif(mfd_dist(K, as_preshape(tri), as_preshape(2 * tri %*% matrix(c(0, 1, -1, 0), 2))), 3), "\n")
