# Speed of the passes over data (issue 18, "speed at the machine's limit"):
#
#   1. The Frechet mean of the package (cpp_frechet_mean: gradient descent,
#      one parallel pass per iteration) against a plain C++ loop compiled
#      here that computes the same log maps (the same formulas, written
#      straight for one manifold: no virtual calls, no chunks, no threads)
#      for the same number of iterations, on one thread; then the package
#      on two threads against one (the same result to the bit).
#      S^2 at n = 1e6, SPD(3) (affine-invariant) at n = 2e5, Kendall(8) at
#      n = 5e5.
#   2. A private Frechet mean at n = 1e7 on S^2 through the public API
#      (dp_frechet_mean), with where its time goes.
#
#   Rscript bench/frechet_speed.R
#
# Needs a C++ compiler (Rcpp::sourceCpp). Times are the fastest of three
# runs; ratios are measured in this run. Timings taken while other
# processes compile are noisy. Asserts nothing.

suppressPackageStartupMessages(library(dpmanifold))

code <- '
// [[Rcpp::depends(RcppEigen)]]
#include <RcppEigen.h>
#include <cmath>
using Eigen::Matrix3d;

// S^2 (any D): g += log_x(q) = (theta / s) (q - <x, q> x), theta = 2 atan2(|x - q|, |x + q|)
static void add_sphere_log(const double* x, const double* q, int D, double* g, double* w) {
  double a = 0, b = 0, dot = 0, s2 = 0;
  for (int i = 0; i < D; ++i) { a += (x[i] - q[i]) * (x[i] - q[i]); b += (x[i] + q[i]) * (x[i] + q[i]); dot += x[i] * q[i]; }
  const double theta = 2 * std::atan2(std::sqrt(a), std::sqrt(b));
  for (int i = 0; i < D; ++i) { w[i] = q[i] - dot * x[i]; s2 += w[i] * w[i]; }
  const double r = theta / std::sqrt(s2);
  for (int i = 0; i < D; ++i) g[i] += w[i] * r;
}
// x <- exp_x(g / n)
static void sphere_step(std::vector<double>& x, std::vector<double>& g, int n) {
  const int D = x.size();
  double L2 = 0;
  for (int i = 0; i < D; ++i) { g[i] /= n; L2 += g[i] * g[i]; }
  const double L = std::sqrt(L2), c = std::cos(L), sc = L > 0 ? std::sin(L) / L : 1.0;
  double nn = 0;
  for (int i = 0; i < D; ++i) { x[i] = c * x[i] + sc * g[i]; nn += x[i] * x[i]; }
  for (int i = 0; i < D; ++i) x[i] /= std::sqrt(nn);
}

// [[Rcpp::export]]
Rcpp::NumericVector plain_sphere(Rcpp::NumericMatrix X, Rcpp::NumericVector x0, int iterations) {
  const int D = X.nrow(), n = X.ncol();
  std::vector<double> x(x0.begin(), x0.end()), g(D), w(D);
  for (int it = 0; it < iterations; ++it) {
    std::fill(g.begin(), g.end(), 0.0);
    for (int j = 0; j < n; ++j) add_sphere_log(x.data(), &X[static_cast<size_t>(D) * j], D, g.data(), w.data());
    sphere_step(x, g, n);
  }
  return Rcpp::NumericVector(x.begin(), x.end());
}

// Kendall shapes of k landmarks (x coordinates, then y): align q to x, then the sphere log.
// [[Rcpp::export]]
Rcpp::NumericVector plain_kendall(Rcpp::NumericMatrix X, Rcpp::NumericVector x0, int iterations) {
  const int D = X.nrow(), k = D / 2, n = X.ncol();
  std::vector<double> x(x0.begin(), x0.end()), g(D), w(D), qa(D);
  for (int it = 0; it < iterations; ++it) {
    std::fill(g.begin(), g.end(), 0.0);
    for (int j = 0; j < n; ++j) {
      const double* q = &X[static_cast<size_t>(D) * j];
      double re = 0, im = 0;
      for (int i = 0; i < k; ++i) { re += x[i] * q[i] + x[k + i] * q[k + i]; im += x[i] * q[k + i] - x[k + i] * q[i]; }
      const double phi = std::atan2(im, re), c = std::cos(phi), s = std::sin(phi);
      for (int i = 0; i < k; ++i) { qa[i] = c * q[i] + s * q[k + i]; qa[k + i] = c * q[k + i] - s * q[i]; }
      add_sphere_log(x.data(), qa.data(), D, g.data(), w.data());
    }
    sphere_step(x, g, n);
  }
  return Rcpp::NumericVector(x.begin(), x.end());
}

// SPD(3), affine-invariant: x = g g^T (Cholesky), log_x(q) = g Log(g^-1 q g^-T) g^T,
// exp_x(v) = g Exp(g^-1 v g^-T) g^T; fixed-size Eigen throughout.
static Matrix3d sym_fun3(const Matrix3d& A, double (*f)(double)) {
  Eigen::SelfAdjointEigenSolver<Matrix3d> es(A);
  const Eigen::Vector3d d = es.eigenvalues().unaryExpr(f);
  return es.eigenvectors() * d.asDiagonal() * es.eigenvectors().transpose();
}
static double log_(double v) { return std::log(v); }
static double exp_(double v) { return std::exp(v); }
// [[Rcpp::export]]
Rcpp::NumericVector plain_spd3(Rcpp::NumericMatrix X, Rcpp::NumericVector x0, int iterations) {
  const int n = X.ncol();
  Matrix3d x = Eigen::Map<const Matrix3d>(&x0[0]);
  for (int it = 0; it < iterations; ++it) {
    const Matrix3d gc = Eigen::LLT<Matrix3d>(x).matrixL(), gi = gc.inverse();
    Matrix3d G = Matrix3d::Zero();
    for (int j = 0; j < n; ++j) {
      const Matrix3d q = Eigen::Map<const Matrix3d>(&X[static_cast<size_t>(9) * j]);
      const Matrix3d W = gi * q * gi.transpose();
      G += gc * sym_fun3(0.5 * (W + W.transpose()), log_) * gc.transpose();
    }
    G /= n;
    const Matrix3d V = gi * G * gi.transpose();
    x = gc * sym_fun3(0.5 * (V + V.transpose()), exp_) * gc.transpose();
  }
  return Rcpp::NumericVector(x.data(), x.data() + 9);
}
'
Rcpp::sourceCpp(code = code, verbose = FALSE)

best_of <- function(f, times = 3) min(vapply(seq_len(times), function(i) system.time(f())[["elapsed"]], 0))
set.seed(1)

# points within angle 0.5 of the north pole / at distance <= 0.5 from I / shapes near a template
sphere_data <- function(M, n) {
  th <- stats::runif(n, 0, 0.5); ph <- stats::runif(n, 0, 2 * pi)
  rbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
}
near <- function(M, n, center, spread) {
  P <- matrix(center, length(center), n)
  V <- dpmanifold:::cpp_random_tangent(M, P, n)
  V <- sweep(V, 2, stats::runif(n, 0, spread) / sqrt(colSums(V^2)), `*`)
  dpmanifold:::cpp_binary_op(M, "exp", matrix(center), V)
}
kc <- as.numeric(dpmanifold:::to_ambient(kendall_shape(8), as_preshape(cbind(cos(2 * pi * (1:8) / 8), sin(2 * pi * (1:8) / 8))), "z"))
cases <- list(
  list(name = "sphere(2)", M = sphere(2), n = 1e6, X = function(n) sphere_data(sphere(2), n),
       x0 = c(0.3, 0.1, sqrt(1 - 0.1)), plain = plain_sphere),
  list(name = "spd(3)", M = spd(3), n = 2e5, X = function(n) near(spd(3), n, as.numeric(diag(3)), 0.5),
       x0 = as.numeric(diag(c(1.3, 0.8, 1))), plain = plain_spd3),
  list(name = "kendall_shape(8)", M = kendall_shape(8), n = 5e5, X = function(n) near(kendall_shape(8), n, kc, 0.3),
       x0 = kc, plain = plain_kendall)
)

cat(sprintf("dpmanifold %s, R %s, %d cores; seconds are the fastest of 3 runs\n\n",
            utils::packageVersion("dpmanifold"), getRversion(), parallel::detectCores()))
cat(sprintf("%-18s %8s %5s %10s %10s %10s %10s %10s %s\n", "manifold", "n", "iter", "plain 1t",
            "pkg 1t", "pkg 2t", "pkg1/plain", "1t/2t", "same bits"))
for (cs in cases) {
  X <- cs$X(cs$n)
  w <- rep(1, cs$n)
  fm <- function(th) {
    options(dpmanifold.threads = th)
    dpmanifold:::cpp_frechet_mean(cs$M, X, w, cs$x0, 1000L, 1e-10)
  }
  r1 <- fm(1); r2 <- fm(2)
  it <- r1$iterations
  t_plain <- best_of(function() cs$plain(X, cs$x0, it))
  t1 <- best_of(function() fm(1))
  t2 <- best_of(function() fm(2))
  cat(sprintf("%-18s %8.0f %5d %10.3f %10.3f %10.3f %9.2fx %9.2fx %s\n", cs$name, cs$n, it, t_plain, t1, t2,
              t1 / t_plain, t1 / t2, identical(r1$mean, r2$mean)))
}
cat("plain 1t: the plain loop, `iter` iterations of n log maps and one exp (one thread);\n")
cat("pkg: cpp_frechet_mean to tolerance 1e-10 (its `iter` iterations + one initial pass, plus any backtracking)\n\n")

# 2. A private Frechet mean at n = 1e7 through the public API.
n <- 1e7
S2 <- sphere(2)
Xa <- sphere_data(S2, n)
X <- t(Xa)  # the user's layout: one point per row
options(dpmanifold.threads = 2)
t_all <- best_of(function() dp_frechet_mean(S2, X, epsilon = 1, mechanism = "laplace", center = c(0, 0, 1), radius = 0.6))
# the default at this radius is KNG (chosen by expected error from public
# inputs: h(1.2, 1) = 0.47 < 1/2), which costs a few more passes
t_default <- best_of(function() dp_frechet_mean(S2, X, epsilon = 1, center = c(0, 0, 1), radius = 0.6))
t_layout <- best_of(function() dpmanifold:::to_ambient(S2, X, "X"))
spec <- list(law = "laplace", sigma = 0.01, center = c(0, 0, 1), radius = 0.6, truncated = FALSE,
             footpoint = c(0, 0, 1), chain = FALSE, mcmc = NULL, p_fail = 1e-10, tol = 1e-8, nonprivate = FALSE)
t_release <- best_of(function() dpmanifold:::cpp_release_frechet(S2, Xa, spec))
spec$law <- "none"
t_prepare <- best_of(function() dpmanifold:::cpp_release_frechet(S2, Xa, spec))
t_clip <- best_of(function() dpmanifold:::cpp_clip_to_ball(S2, c(0, 0, 1), Xa, 0.6))
t_mean <- best_of(function() dpmanifold:::cpp_frechet_mean(S2, Xa, rep(1, n), c(0, 0, 1), 1000L, 1e-12))
cat(sprintf("dp_frechet_mean(sphere(2), n = 1e7, epsilon = 1, mechanism = \"laplace\"), two threads: %.2f s\n", t_all))
cat(sprintf("  (the default at radius 0.6, KNG, more accurate there: %.2f s)\n", t_default))
cat(sprintf("  R layout (to_ambient: transpose, finiteness)    %.2f s\n", t_layout))
cat(sprintf("  cpp_release_frechet (one call into C++)         %.2f s\n", t_release))
cat(sprintf("    of which data preparation (validate, clip)    %.2f s  (parallel clip alone: %.2f s)\n", t_prepare, t_clip))
cat(sprintf("    Frechet mean to 1e-12 (cpp_frechet_mean)      %.2f s\n", t_mean))
