# Exact KNG sampler versus the Metropolis-Hastings chain, for the KNG
# release of the Frechet mean on S^2 (public ball r = pi/8 around the north
# pole, epsilon = 1, sigma = 2 Delta / epsilon):
#
#   Rscript bench/kng_exact.R
#
# For n = 50, 1e3, 1e5: release time with the exact sampler (Frechet mean in
# C++, rejection from a Riemannian Laplace envelope) and with the default
# chain (mcmc_control(): 5000 burn-in + 5000 steps, each step n log maps),
# and their ratio; for n = 1e6 the exact release time (target: under 2 s),
# and the peak memory of R's heap against the data's own size (linear in n,
# nothing quadratic). "Release" = clipping the data to the public ball plus
# the sampler (release_kng()), i.e. what dp_frechet_mean() does after
# validating its input. Figures are measured in this run; asserts nothing.

suppressPackageStartupMessages(library(dpmanifold))
source(file.path(dirname(sub("^--file=", "", grep("^--file=", c(commandArgs(FALSE), "--file=bench/x"), value = TRUE)[1])), "bench-utils.R"))
set.seed(1)
cat(sprintf("dpmanifold %s, R %s\n", utils::packageVersion("dpmanifold"), getRversion()))

S2 <- sphere(2)
north <- c(0, 0, 1)
r <- pi / 8
eps <- 1

# data: geodesic radius uniform on [0, 0.45] (some points outside the ball,
# so clipping does work), ambient 3 x n
make_data <- function(n) {
  th <- runif(n, 0, 0.45); ph <- runif(n, 0, 2 * pi)
  rbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
}
release <- function(Xa, sampler, mcmc = mcmc_control()) {
  b <- dpmanifold:::resolve_ball(S2, Xa, north, r)
  sigma <- 2 * frechet_sensitivity(S2, r, ncol(Xa), "kng") / eps
  dpmanifold:::release_kng(S2, b$X, sigma, north, r, sampler = sampler, mcmc = mcmc)
}
once <- function(f) { t0 <- proc.time()[["elapsed"]]; f(); proc.time()[["elapsed"]] - t0 }

cat("\nKNG release on S^2, r = pi/8, epsilon = 1: exact sampler vs default MCMC chain (5000 + 5000 steps)\n")
cat(sprintf("%8s %12s %12s %10s\n", "n", "exact (s)", "MCMC (s)", "MCMC/exact"))
for (n in c(50, 1e3, 1e5)) {
  Xa <- make_data(n)
  t_ex <- if (n < 1e5) time_it(function() release(Xa, "exact"), min_time = 0.5) else
    min(vapply(1:3, function(i) once(function() release(Xa, "exact")), numeric(1)))
  t_mc <- if (n < 1e5) time_it(function() release(Xa, "mcmc"), min_time = 1) else once(function() release(Xa, "mcmc"))
  cat(sprintf("%8.0f %12.4g %12.4g %10.0f\n", n, t_ex, t_mc, t_mc / t_ex))
}

cat("\nexact release at n = 1e6 (target < 2 s) and memory\n")
for (n in c(1e5, 1e6)) {
  Xa <- make_data(n)
  data_mb <- as.numeric(object.size(Xa)) / 2^20
  g0 <- gc(reset = TRUE)
  t_ex <- min(vapply(1:3, function(i) once(function() release(Xa, "exact")), numeric(1)))
  g <- gc()
  # growth of R's heap during the releases: "max used" minus "used" before (Mb)
  peak_mb <- sum(g[, ncol(g)]) - sum(g0[, 2])
  hwm <- tryCatch(as.numeric(sub("[^0-9]*([0-9]+).*", "\\1", grep("^VmHWM", readLines("/proc/self/status"), value = TRUE))) / 1024,
                  error = function(e) NA_real_)
  cat(sprintf("  n = %7.0f: exact release %.3f s; data %.1f Mb, R heap growth %.1f Mb (growth / data %.2f); process peak RSS so far %.0f Mb\n",
              n, t_ex, data_mb, peak_mb, peak_mb / data_mb, hwm))
  rm(Xa); invisible(gc())
}
cat("  (the C++ sampler copies the data once into Eigen and computes the Frechet mean and the\n")
cat("   KNG gradients by passes over the columns: memory O(n), time O(n) per pass)\n")
