# Speed of the Frechet-mean mechanisms against plain-R implementations of
# the same algorithms.
#
#   Rscript bench/frechet_mechanisms.R
#
# (a) exponential-wrapped Laplace / Gaussian draws on SPD(5) (003 Algorithm 1)
# (b) Riemannian Laplace by Metropolis-Hastings on SPD(5), 10000 steps
#     (003 Table 1 reports 1.54 s in R for d = 15), and the exact sampler
# (c) KNG Metropolis-Hastings on S^2: log-map evaluations per second inside
#     the chain next to the raw log-map throughput of the manifold.
#     (bench/kng_exact.R compares the exact KNG sampler with the chain.)
# Prints figures and ratios measured in this run (each contender's fastest
# of several interleaved rounds, see time_min()); asserts nothing.

suppressPackageStartupMessages(library(dpmanifold))
# bench-utils.R sits beside this script (run as `Rscript bench/<name>.R`)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", c(commandArgs(FALSE), "--file=bench/x"), value = TRUE)[1])), "bench-utils.R"))
set.seed(1)


# affine-invariant geometry in plain R (eigen-based)
ai_exp <- function(p, v) {
  e <- eigen(p, symmetric = TRUE)
  ph <- e$vectors %*% (sqrt(e$values) * t(e$vectors)); pih <- e$vectors %*% (1 / sqrt(e$values) * t(e$vectors))
  ph %*% sym_fun(pih %*% v %*% pih, exp) %*% ph
}
ai_log <- function(p, q) {
  e <- eigen(p, symmetric = TRUE)
  ph <- e$vectors %*% (sqrt(e$values) * t(e$vectors)); pih <- e$vectors %*% (1 / sqrt(e$values) * t(e$vectors))
  ph %*% sym_fun(pih %*% q %*% pih, log) %*% ph
}
# orthonormal basis of T_p SPD(k) under tr(p^-1 u p^-1 v): p^1/2 E p^1/2 for
# an orthonormal basis E of the symmetric matrices
ai_basis <- function(p) {
  k <- nrow(p)
  ph <- sym_fun(p, sqrt)
  out <- list()
  for (i in seq_len(k)) for (j in i:k) {
    E <- matrix(0, k, k)
    if (i == j) E[i, i] <- 1 else E[i, j] <- E[j, i] <- 1 / sqrt(2)
    out[[length(out) + 1L]] <- ph %*% E %*% ph
  }
  out
}

k <- 5
P5 <- spd(k)
d <- P5$dim
cat(sprintf("dpmanifold %s, R %s\n\n", utils::packageVersion("dpmanifold"), getRversion()))

# ------------------------------------------------------------------ (a)
p0 <- diag(k)
xbar <- mfd_exp(P5, p0, 0.5 * mfd_random_tangent(P5, p0))
sigma <- 0.1
# 003 Algorithm 1: v = Log_{p0}(xbar); z ~ noise in orthonormal coordinates;
# release Exp_{p0}(v + sum z_i B_i)
plain_wrapped <- function(n, kind) {
  B <- ai_basis(p0)
  v <- ai_log(p0, xbar)
  out <- array(0, c(k, k, n))
  for (j in seq_len(n)) {
    if (kind == "laplace") {
      u <- rnorm(d); z <- rgamma(1, d, scale = sigma) * u / sqrt(sum(u^2))
    } else {
      z <- rnorm(d, sd = sigma)
    }
    w <- v
    for (i in seq_len(d)) w <- w + z[i] * B[[i]]
    out[, , j] <- ai_exp(p0, w)
  }
  out
}
cat("(a) exponential-wrapped draws on SPD(5), affine-invariant (003 Algorithm 1)\n")
n_big <- 1000
fs <- list()
for (kind in c("laplace", "gaussian")) local({
  rfun <- if (kind == "laplace") rwrapped_laplace else rwrapped_gaussian
  kd <- kind
  fs[[paste0(kind, "_pkg1")]] <<- function() rfun(P5, 1, xbar, sigma, footpoint = p0)
  fs[[paste0(kind, "_pkgN")]] <<- function() rfun(P5, n_big, xbar, sigma, footpoint = p0)
  fs[[paste0(kind, "_pl1")]] <<- function() plain_wrapped(1, kd)
  fs[[paste0(kind, "_plN")]] <<- function() plain_wrapped(200, kd)
})
tt <- time_min(fs, rounds = 7)
for (kind in c("laplace", "gaussian")) {
  t_pkg1 <- tt[[paste0(kind, "_pkg1")]]; t_pkgN <- tt[[paste0(kind, "_pkgN")]] / n_big
  t_pl1 <- tt[[paste0(kind, "_pl1")]]; t_plN <- tt[[paste0(kind, "_plN")]] / 200
  cat(sprintf("  %-8s one release per call: package %8.1f us, plain R %8.1f us, ratio %6.1fx\n",
              kind, 1e6 * t_pkg1, 1e6 * t_pl1, t_pl1 / t_pkg1))
  cat(sprintf("  %-8s per draw in batches:   package %8.2f us, plain R %8.1f us, ratio %6.1fx (basis and Log computed once in both)\n",
              kind, 1e6 * t_pkgN, 1e6 * t_plN, t_plN / t_pkgN))
}
X <- mfd_exp(P5, p0, 0.3 * mfd_random_tangent(P5, p0, 40))
t_rel <- time_it(function() dp_frechet_mean(P5, X, 1, "wrapped_laplace", center = p0, radius = 1.5))
cat(sprintf("  full dp_frechet_mean(\"wrapped_laplace\") release, n = 40 (includes the Frechet mean): %.2f ms (003 Table 1: 4.06 ms in R, d = 15)\n\n",
            1e3 * t_rel))

# ------------------------------------------------------------------ (b)
steps <- 10000
eta <- xbar
sig_l <- 0.2
radius <- 2
# the package: burn-in 5000 + 5000 steps, public step (not tuned)
ctrl <- mcmc_control(burnin = steps / 2, steps = steps / 2)
# plain R: the same chain (isotropic tangent proposal exp_x(s xi), rejection
# outside B_r(p0), target -d(eta, y)/sigma, the public step
# s = 2.38 sigma sqrt((d + 1)/d) capped at 2r/sqrt(d))
plain_mh <- function(steps) {
  eih <- sym_fun(eta, function(x) 1 / sqrt(x))
  dist_eta <- function(y) sqrt(sum(log(eigen(eih %*% y %*% eih, symmetric = TRUE, only.values = TRUE)$values)^2))
  dist_p0 <- function(y) sqrt(sum(log(eigen(y, symmetric = TRUE, only.values = TRUE)$values)^2))  # p0 = I
  x <- p0; lx <- -dist_eta(x) / sig_l; s <- min(2.38 * sig_l * sqrt((d + 1) / d), 2 * radius / sqrt(d))
  for (i in seq_len(steps)) {
    S <- matrix(0, k, k)
    S[upper.tri(S)] <- rnorm(k * (k - 1) / 2) / sqrt(2)
    S <- S + t(S); diag(S) <- rnorm(k)
    xh <- sym_fun(x, sqrt)
    y <- ai_exp(x, s * xh %*% S %*% xh)
    if (dist_p0(y) <= radius) {
      ly <- -dist_eta(y) / sig_l
      if (log(runif(1)) < ly - lx) { x <- y; lx <- ly }
    }
  }
  x
}
tt <- time_min(list(
  pkg = function() rriemann_laplace(P5, 1, eta, sig_l, center = p0, radius = radius, mcmc = ctrl, method = "mcmc"),
  plain = function() plain_mh(steps),
  exact = function() rriemann_laplace(P5, 1, eta, sig_l, center = p0, radius = radius)), rounds = 3, min_time = 1)
t_pkg <- tt[["pkg"]]; t_pl <- tt[["plain"]]; t_ex <- tt[["exact"]]
cat(sprintf("(b) Riemannian Laplace Metropolis-Hastings on SPD(5), %d steps: package %.1f ms, plain R %.0f ms, ratio %.1fx (003 Table 1: 1.54 s in R)\n",
            steps, 1e3 * t_pkg, 1e3 * t_pl, t_pl / t_pkg))
cat(sprintf("    exact sampler (truncated law, one draw): %.3f ms, %.0fx faster than the package's chain\n\n",
            1e3 * t_ex, t_pkg / t_ex))

# ------------------------------------------------------------------ (c)
S2 <- sphere(2)
north <- c(0, 0, 1)
n <- 50
th <- runif(n, 0, pi / 8); ph <- runif(n, 0, 2 * pi)
Xs <- cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
sig_k <- 2 * frechet_sensitivity(S2, pi / 8, n, "kng")
ctrl <- mcmc_control(burnin = 10000, steps = 10000)
Xs <- clip_to_ball(S2, Xs, north, pi / 8)
t_chain <- time_it(function() rkng(S2, 1, Xs, sig_k, north, pi / 8, mcmc = ctrl, method = "mcmc"), min_time = 1)
# every proposal inside the ball costs n log maps (KNG gradient); the initial
# state one more evaluation
logs_chain <- n * (20000 + 1)
rate_chain <- logs_chain / t_chain
Nraw <- 1e5
A <- t(mfd_random_point(S2, Nraw)); B <- t(mfd_exp(S2, t(A), 0.3 * mfd_random_tangent(S2, t(A), Nraw)))
t_raw <- time_it(function() dpmanifold:::cpp_binary_op(S2, "log", A, B))
t_api <- time_it(function() mfd_log(S2, t(A), t(B)))
cat(sprintf("(c) KNG Metropolis-Hastings on S^2, n = %d, %d steps: %.1f ms, %.3g log maps/s inside the chain (upper bound: proposals outside the ball skip the target)\n",
            n, 20000, 1e3 * t_chain, rate_chain))
cat(sprintf("    raw log-map throughput: cpp_binary_op %.3g /s, vectorised mfd_log %.3g /s; chain / raw = %.2f, chain / mfd_log = %.2f\n",
            Nraw / t_raw, Nraw / t_api, rate_chain / (Nraw / t_raw), rate_chain / (Nraw / t_api)))
