# The small kernels under every SPD sampler step, against the alternatives
# they replaced, compiled from the package's installed headers:
#   - symmetric eigendecomposition, k = 2..6: dpmanifold's fixed-size solver
#     (sym_eigen.hpp) vs Eigen's SelfAdjointEigenSolver, with and without
#     eigenvectors;
#   - whitening g^-1 X g^-T at 5x5: two dense products with a kept g^-1
#     (spd.hpp) vs two triangular solves;
#   - 15 standard normals (one SPD(5) tangent vector): the polar method on
#     R's uniforms (rng.hpp) vs R's norm_rand() (inversion).
#
#   Rscript bench/small_kernels.R
#
# Needs a C++ compiler (Rcpp::sourceCpp). Nanoseconds per call, fastest of
# 7 interleaved rounds; ratios measured in this run. Asserts nothing.

suppressPackageStartupMessages(library(dpmanifold))
inc <- system.file("include", package = "dpmanifold")
code <- '
// [[Rcpp::depends(RcppEigen)]]
#include <RcppEigen.h>
#include <chrono>
#include <dpmanifold.hpp>
namespace dpm = dpmanifold;

struct UnifRng : dpm::Rng {
  double uniform() override { return R::unif_rand(); }
  double exponential() override { return R::exp_rand(); }
  double gamma(double a, double s) override { return R::rgamma(a, s); }
};

// ns per call of f(i), fastest of `rounds` rounds of n calls
template <class F> double ns(F f, int n, int rounds = 7) {
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) f(i);
    std::chrono::duration<double> el = std::chrono::steady_clock::now() - t0;
    best = std::min(best, el.count() / n * 1e9);
  }
  return best;
}

template <int K> Rcpp::NumericVector eig_row(dpm::Rng& rng, double& sink) {
  using M = Eigen::Matrix<double, K, K>;
  using V = Eigen::Matrix<double, K, 1>;
  std::vector<M, Eigen::aligned_allocator<M>> A(64);
  for (auto& a : A) a = dpm::spd_ops::random_sym<M>(K, rng);
  const int n = 20000;
  double pf = ns([&](int i) { V d; M U; dpm::spd_ops::small_sym_eigen<K>(A[i & 63], d, &U); sink += U(0, 0); }, n);
  double ef = ns([&](int i) { Eigen::SelfAdjointEigenSolver<M> es(A[i & 63]); sink += es.eigenvectors()(0, 0); }, n);
  double pv = ns([&](int i) { V d; dpm::spd_ops::small_sym_eigen<K>(A[i & 63], d, nullptr); sink += d(0); }, n);
  double ev = ns([&](int i) { Eigen::SelfAdjointEigenSolver<M> es(A[i & 63], Eigen::EigenvaluesOnly); sink += es.eigenvalues()(0); }, n);
  return Rcpp::NumericVector::create(K, pf, ef, pv, ev);
}

// [[Rcpp::export]]
Rcpp::List small_kernels() {
  double sink = 0;
  UnifRng rng;
  Rcpp::NumericMatrix eig(5, 5);
  Rcpp::NumericVector r;
  r = eig_row<2>(rng, sink); for (int j = 0; j < 5; ++j) eig(0, j) = r[j];
  r = eig_row<3>(rng, sink); for (int j = 0; j < 5; ++j) eig(1, j) = r[j];
  r = eig_row<4>(rng, sink); for (int j = 0; j < 5; ++j) eig(2, j) = r[j];
  r = eig_row<5>(rng, sink); for (int j = 0; j < 5; ++j) eig(3, j) = r[j];
  r = eig_row<6>(rng, sink); for (int j = 0; j < 5; ++j) eig(4, j) = r[j];

  using M5 = Eigen::Matrix<double, 5, 5>;
  M5 X = dpm::spd_ops::random_sym<M5>(5, rng), P = X * X.transpose() + M5::Identity();
  M5 g = Eigen::LLT<M5>(P).matrixL(), gi = g.inverse();
  double dense = ns([&](int) { M5 A = gi * X; M5 B = A * gi.transpose(); sink += B(0, 0); X(0, 0) += 1e-12; }, 100000);
  double tri = ns([&](int) { auto L = g.triangularView<Eigen::Lower>(); M5 A = L.solve(X); M5 B = L.solve(A.transpose()); sink += B(0, 0); X(0, 0) += 1e-12; }, 100000);

  double polar = ns([&](int) { for (int j = 0; j < 15; ++j) sink += rng.normal(); }, 20000);
  double inversion = ns([&](int) { for (int j = 0; j < 15; ++j) sink += R::norm_rand(); }, 20000);
  return Rcpp::List::create(Rcpp::Named("eig") = eig,
                            Rcpp::Named("whiten") = Rcpp::NumericVector::create(dense, tri),
                            Rcpp::Named("normals") = Rcpp::NumericVector::create(polar, inversion),
                            Rcpp::Named("sink") = sink * 0);
}
'
old <- Sys.getenv("PKG_CPPFLAGS")
Sys.setenv(PKG_CPPFLAGS = paste(old, sprintf("-I\"%s\"", inc)))
Rcpp::sourceCpp(code = code, verbose = FALSE)
Sys.setenv(PKG_CPPFLAGS = old)
set.seed(1)
res <- small_kernels()

cat(sprintf("dpmanifold %s, R %s; ns per call, fastest of 7 rounds\n\n", utils::packageVersion("dpmanifold"), getRversion()))
e <- res$eig
cat("symmetric eigendecomposition (random symmetric k x k)\n")
cat(sprintf("  %-3s %22s %22s %14s %22s %22s %14s\n", "k", "dpmanifold vectors", "Eigen vectors", "Eigen/dpm",
            "dpmanifold values", "Eigen values", "Eigen/dpm"))
for (i in seq_len(nrow(e))) {
  cat(sprintf("  %-3d %22.0f %22.0f %13.2fx %22.0f %22.0f %13.2fx\n",
              as.integer(e[i, 1]), e[i, 2], e[i, 3], e[i, 3] / e[i, 2], e[i, 4], e[i, 5], e[i, 5] / e[i, 4]))
}
w <- res$whiten
cat(sprintf("\nwhitening g^-1 X g^-T at 5x5: dense products with kept g^-1 %.0f ns, triangular solves %.0f ns, ratio %.2fx\n",
            w[1], w[2], w[2] / w[1]))
nr <- res$normals
cat(sprintf("15 standard normals: polar method on unif_rand %.0f ns, R's norm_rand (inversion) %.0f ns, ratio %.2fx\n",
            nr[1], nr[2], nr[2] / nr[1]))
