# TEMPORARY stand-ins (removed when the exact samplers land): the release
# layer calls these three functions.
release_laplace <- function(M, mean, sigma, center, radius, truncated = TRUE, sampler = c("exact", "mcmc"),
                            mcmc = mcmc_control()) {
  sampler <- match.arg(sampler)
  r <- if (truncated) radius else Inf
  res <- cpp_rlaplace(M, mean, sigma, center, r, mcmc_settings(mcmc, 1L), sampler == "mcmc")
  y <- res$draws[, 1]
  if (!truncated) y <- resolve_ball(M, matrix(y), from_ambient(M, matrix(center), single = TRUE), radius)$X[, 1]
  y
}
release_kng <- function(M, Xa, sigma, center, radius, sampler = c("exact", "mcmc"), mcmc = mcmc_control()) {
  sampler <- match.arg(sampler)
  flat <- if (M$kappa_max == 0 && M$kappa_min == 0) cpp_frechet_mean(M, Xa, rep(1, ncol(Xa)), center, 1000L, 1e-12)$mean
  cpp_rkng(M, Xa, sigma, center, radius, mcmc_settings(mcmc, 1L), flat, sampler == "mcmc")$draws[, 1]
}
max_untruncated_sigma <- function(M) if (identical(M$type, "spd_affine_invariant")) 0 else Inf
