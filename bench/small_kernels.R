# The small kernels under every SPD sampler step, against the alternatives
# they replaced, compiled from the package's installed headers:
#   - symmetric eigendecomposition, k = 2..6: dpmanifold's fixed-size solver
#     (sym_eigen.hpp) vs Eigen's SelfAdjointEigenSolver, with and without
#     eigenvectors;
#   - whitening g^-1 X g^-T at 5x5: two dense products with a kept g^-1
#     (spd.hpp) vs two triangular solves;
#   - per-point exp / log / dist of SPD(k), k = 2..6: the class the package
#     compiles (any k) vs the class with k bounded at compile time (what a
#     size-specialised class, 4-5 s of compilation each, would buy);
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
  double pf = ns([&](int i) { V d; M U; dpm::spd_ops::sym_eigen<M>(A[i & 63], d, &U); sink += U(0, 0); }, n);
  double ef = ns([&](int i) { Eigen::SelfAdjointEigenSolver<M> es(A[i & 63]); sink += es.eigenvectors()(0, 0); }, n);
  double pv = ns([&](int i) { V d; dpm::spd_ops::sym_eigen<M>(A[i & 63], d, nullptr); sink += d(0); }, n);
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

  // per-point SPD(k) operations of the class the package compiles (any size,
  // on the heap) against the same class with k bounded at compile time
  // (matrices on the stack): what a size-specialised class would buy
  Rcpp::NumericMatrix cls(4, 7);
  auto cls_row = [&](int row, int k, const dpm::Manifold& dyn, const dpm::Manifold& small) {
    dpm::Vec p = dyn.random_point(rng), v = 0.3 * dyn.random_tangent(p, rng), q = dyn.exp(p, v);
    cls(row, 0) = k;
    cls(row, 1) = ns([&](int) { sink += dyn.exp(p, v)(0); }, 20000);
    cls(row, 2) = ns([&](int) { sink += small.exp(p, v)(0); }, 20000);
    cls(row, 3) = ns([&](int) { sink += dyn.log(p, q)(0); }, 20000);
    cls(row, 4) = ns([&](int) { sink += small.log(p, q)(0); }, 20000);
    cls(row, 5) = ns([&](int) { sink += dyn.dist(p, q); }, 20000);
    cls(row, 6) = ns([&](int) { sink += small.dist(p, q); }, 20000);
  };
  cls_row(0, 2, dpm::SPDAffineInvariant(2), dpm::SPDAffineInvariantT<2>(2));
  cls_row(1, 3, dpm::SPDAffineInvariant(3), dpm::SPDAffineInvariantT<3>(3));
  cls_row(2, 5, dpm::SPDAffineInvariant(5), dpm::SPDAffineInvariantT<5>(5));
  cls_row(3, 6, dpm::SPDAffineInvariant(6), dpm::SPDAffineInvariantT<6>(6));

  double polar = ns([&](int) { for (int j = 0; j < 15; ++j) sink += rng.normal(); }, 20000);
  double inversion = ns([&](int) { for (int j = 0; j < 15; ++j) sink += R::norm_rand(); }, 20000);
  return Rcpp::List::create(Rcpp::Named("eig") = eig,
                            Rcpp::Named("whiten") = Rcpp::NumericVector::create(dense, tri),
                            Rcpp::Named("normals") = Rcpp::NumericVector::create(polar, inversion),
                            Rcpp::Named("classes") = cls,
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
cl <- res$classes
cat("\nper-point SPD(k) affine-invariant operations: the package's class (any k, heap) vs the class with k bounded at compile time (stack)\n")
cat(sprintf("  %-3s %14s %14s %14s %14s %14s %14s\n", "k", "exp any-k", "exp bounded", "log any-k", "log bounded", "dist any-k", "dist bounded"))
for (i in seq_len(nrow(cl))) cat(sprintf("  %-3d %14.0f %14.0f %14.0f %14.0f %14.0f %14.0f\n", as.integer(cl[i, 1]), cl[i, 2], cl[i, 3], cl[i, 4], cl[i, 5], cl[i, 6], cl[i, 7]))
cat("(the passes over data use the bounded matrices for k <= 6 whatever the class: bench/frechet_speed.R)\n")
nr <- res$normals
cat(sprintf("15 standard normals: polar method on unif_rand %.0f ns, R's norm_rand (inversion) %.0f ns, ratio %.2fx\n",
            nr[1], nr[2], nr[2] / nr[1]))
