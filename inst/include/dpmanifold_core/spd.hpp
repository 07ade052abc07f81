// Symmetric positive-definite matrices SPD(k): one space, two metrics.
// Every matrix function goes through a symmetric eigendecomposition.
#ifndef DPMANIFOLD_SPD_HPP
#define DPMANIFOLD_SPD_HPP

#include <memory>
#include <vector>

#include "manifold.hpp"

namespace dpmanifold {

namespace spd_ops {

struct SymEig {
  Vec d;  // eigenvalues, ascending
  Mat U;  // orthonormal eigenvectors
};

inline SymEig sym_eig(const Mat& A) {
  Eigen::SelfAdjointEigenSolver<Mat> es(0.5 * (A + A.transpose()));
  return {es.eigenvalues(), es.eigenvectors()};
}
template <class F>
inline Mat sym_fun(const SymEig& e, F f) {
  Vec fd = e.d.unaryExpr(f);
  return e.U * fd.asDiagonal() * e.U.transpose();
}
inline Mat as_mat(const Vec& v, int k) { return Eigen::Map<const Mat>(v.data(), k, k); }
inline Vec as_vec(const Mat& m) { return Eigen::Map<const Vec>(m.data(), m.size()); }
inline Mat symmetrize(const Mat& m) { return 0.5 * (m + m.transpose()); }

// log(1 + r) / r, accurate for small r.
inline double log1p_ratio(double r) {
  return std::fabs(r) < 1e-8 ? 1.0 - r / 2.0 : std::log1p(r) / r;
}
// expm1(x) / x, accurate for small x.
inline double expm1_ratio(double x) {
  return std::fabs(x) < 1e-8 ? 1.0 + x / 2.0 : std::expm1(x) / x;
}
// Daleckii-Krein: derivative of the matrix logarithm at p = U diag(d) U^T.
inline Mat dlog(const SymEig& e, const Mat& H) {
  const int k = static_cast<int>(e.d.size());
  Mat Ht = e.U.transpose() * H * e.U;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      double r = (e.d(i) - e.d(j)) / e.d(j);
      Ht(i, j) *= log1p_ratio(r) / e.d(j);
    }
  return symmetrize(e.U * Ht * e.U.transpose());
}
// Derivative of the matrix exponential at X = U diag(a) U^T.
inline Mat dexp(const Vec& a, const Mat& U, const Mat& H) {
  const int k = static_cast<int>(a.size());
  Mat Ht = U.transpose() * H * U;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) Ht(i, j) *= std::exp(a(j)) * expm1_ratio(a(i) - a(j));
  return symmetrize(U * Ht * U.transpose());
}
// Isotropic standard Gaussian symmetric matrix for the Frobenius product.
inline Mat random_sym(int k, Rng& rng) {
  Mat S(k, k);
  for (int j = 0; j < k; ++j) {
    S(j, j) = rng.normal();
    for (int i = j + 1; i < k; ++i) S(i, j) = S(j, i) = rng.normal() / std::sqrt(2.0);
  }
  return S;
}
// Frobenius-orthonormal basis of Sym(k): diagonal units, then (E_ij + E_ji)/sqrt 2.
inline std::vector<Mat> sym_basis(int k) {
  std::vector<Mat> B;
  for (int i = 0; i < k; ++i) {
    Mat E = Mat::Zero(k, k);
    E(i, i) = 1.0;
    B.push_back(E);
  }
  for (int j = 0; j < k; ++j)
    for (int i = j + 1; i < k; ++i) {
      Mat E = Mat::Zero(k, k);
      E(i, j) = E(j, i) = 1.0 / std::sqrt(2.0);
      B.push_back(E);
    }
  return B;
}

}  // namespace spd_ops

// What both metrics share: the set, its checks, projections, random points.
class SPDSpace : public Manifold {
 public:
  explicit SPDSpace(int k) : k_(k) {
    if (k < 1) throw std::invalid_argument("k must be a positive integer");
  }
  int dim() const override { return k_ * (k_ + 1) / 2; }
  int ambient_dim() const override { return k_ * k_; }
  double injectivity_radius() const override {
    return std::numeric_limits<double>::infinity();
  }
  std::string check_point(const Vec& p, double tol) const override {
    if (p.size() != k_ * k_) return "has the wrong dimensions";
    Mat P = spd_ops::as_mat(p, k_);
    if ((P - P.transpose()).norm() > tol * std::max(1.0, P.norm())) return "is not symmetric";
    Eigen::LLT<Mat> llt(spd_ops::symmetrize(P));
    if (llt.info() != Eigen::Success) return "is not positive definite";
    Vec l = Mat(llt.matrixL()).diagonal();
    if (!(l.minCoeff() > 0.0)) return "is not positive definite";
    if (l.minCoeff() < 1e-7 * l.maxCoeff()) return "is numerically singular";
    return "";
  }
  Vec project_point(const Vec& x) const override {
    return spd_ops::as_vec(spd_ops::symmetrize(spd_ops::as_mat(x, k_)));
  }
  Vec project_tangent(const Vec&, const Vec& v) const override {
    return spd_ops::as_vec(spd_ops::symmetrize(spd_ops::as_mat(v, k_)));
  }
  // Exp of an isotropic standard Gaussian symmetric matrix.
  Vec random_point(Rng& rng) const override {
    auto e = spd_ops::sym_eig(spd_ops::random_sym(k_, rng));
    return spd_ops::as_vec(spd_ops::sym_fun(e, [](double x) { return std::exp(x); }));
  }
  int size() const { return k_; }

 protected:
  int k_;
};

// Affine-invariant metric <u, v>_p = tr(p^-1 u p^-1 v): Hadamard, K in [-1/2, 0].
//
// For any g with p = g g^T, X -> g X g^T is an isometry taking I to p, so
// exp_p(v) = g Exp(g^-1 v g^-T) g^T, log_p(q) = g Log(g^-1 q g^-T) g^T,
// dist(p, q) = |Log(g^-1 q g^-T)|_F and the transport along exp_p(t v) is
// w -> E w E^T with E = g Exp(g^-1 v g^-T / 2) g^-1. We take g the Cholesky
// factor (a triangular solve instead of a second eigendecomposition for
// p^1/2); the results are the same as with g = p^1/2.
class SPDAffineInvariant : public SPDSpace {
 public:
  using SPDSpace::SPDSpace;
  std::string name() const override { return "spd_affine_invariant"; }
  double kappa_min() const override { return -0.5; }
  double kappa_max() const override { return 0.0; }

  Vec exp(const Vec& p, const Vec& v) const override {
    Frame g(p, k_);
    Mat X = spd_ops::sym_fun(spd_ops::sym_eig(g.whiten(spd_ops::as_mat(v, k_))),
                             [](double x) { return std::exp(x); });
    return spd_ops::as_vec(g.color(X));
  }
  Vec log(const Vec& p, const Vec& q) const override {
    Frame g(p, k_);
    Mat X = spd_ops::sym_fun(spd_ops::sym_eig(g.whiten(spd_ops::as_mat(q, k_))),
                             [](double x) { return std::log(x); });
    return spd_ops::as_vec(g.color(X));
  }
  double dist(const Vec& p, const Vec& q) const override {
    return Frame(p, k_).dist_to(spd_ops::as_mat(q, k_));
  }
  std::function<double(const Vec&)> dist_from(const Vec& p) const override {
    auto g = std::make_shared<Frame>(p, k_);
    int k = k_;
    return [g, k](const Vec& q) { return g->dist_to(spd_ops::as_mat(q, k)); };
  }
  double inner(const Vec& p, const Vec& u, const Vec& v) const override {
    Frame g(p, k_);
    return g.whiten(spd_ops::as_mat(u, k_)).cwiseProduct(g.whiten(spd_ops::as_mat(v, k_))).sum();
  }
  Vec transport_along(const Vec& p, const Vec& v, const Vec& w) const override {
    Frame g(p, k_);
    Mat H = spd_ops::sym_fun(spd_ops::sym_eig(g.whiten(spd_ops::as_mat(v, k_))),
                             [](double x) { return std::exp(0.5 * x); });
    // E w E^T = g H (g^-1 w g^-T) H g^T
    return spd_ops::as_vec(g.color(H * g.whiten(spd_ops::as_mat(w, k_)) * H));
  }
  // In whitened coordinates V = U diag(lambda) U^T, the component of w along
  // U E_ij U^T has curvature eigenvalue -(lambda_i - lambda_j)^2 / (4 L^2).
  Vec jacobi_apply(const Vec& p, const Vec& v, const Vec& w,
                   const SpectralFn& f) const override {
    Frame g(p, k_);
    auto e = spd_ops::sym_eig(g.whiten(spd_ops::as_mat(v, k_)));
    double L = e.d.norm();
    Mat Wt = e.U.transpose() * g.whiten(spd_ops::as_mat(w, k_)) * e.U;
    for (int j = 0; j < k_; ++j)
      for (int i = 0; i < k_; ++i) {
        double gap = e.d(i) - e.d(j);
        double mu = L > 0 ? -gap * gap / (4.0 * L * L) : 0.0;
        Wt(i, j) *= f(mu, L);
      }
    return spd_ops::as_vec(g.color(e.U * Wt * e.U.transpose()));
  }
  Mat tangent_basis(const Vec& p) const override {
    Frame g(p, k_);
    auto B = spd_ops::sym_basis(k_);
    Mat out(k_ * k_, B.size());
    for (size_t i = 0; i < B.size(); ++i) out.col(i) = spd_ops::as_vec(g.color(B[i]));
    return out;
  }
  Vec random_tangent(const Vec& p, Rng& rng) const override {
    return spd_ops::as_vec(Frame(p, k_).color(spd_ops::random_sym(k_, rng)));
  }
  // xi = g Z g^T whitens back to Z, so exp_x(s xi) = g Exp(s Z) g^T.
  Vec random_step(const Vec& x, double step, Rng& rng) const override {
    Frame g(x, k_);
    Mat Z = step * spd_ops::random_sym(k_, rng);
    return spd_ops::as_vec(
        g.color(spd_ops::sym_fun(spd_ops::sym_eig(Z), [](double t) { return std::exp(t); })));
  }

 private:
  // p = g g^T with g lower triangular (Cholesky).
  struct Frame {
    Mat g;
    Frame(const Vec& p, int k) : g(Eigen::LLT<Mat>(spd_ops::as_mat(p, k)).matrixL()) {}
    // g^-1 X g^-T, symmetrised
    Mat whiten(const Mat& X) const {
      auto L = g.triangularView<Eigen::Lower>();
      Mat A = L.solve(X);
      Mat B = L.solve(A.transpose());
      return spd_ops::symmetrize(B);
    }
    // g X g^T, symmetrised
    Mat color(const Mat& X) const {
      auto L = g.triangularView<Eigen::Lower>();
      Mat A = L * X;
      Mat B = L * A.transpose();
      return spd_ops::symmetrize(B);
    }
    double dist_to(const Mat& Q) const {
      Eigen::SelfAdjointEigenSolver<Mat> es(whiten(Q), Eigen::EigenvaluesOnly);
      return es.eigenvalues().array().log().matrix().norm();
    }
  };
};

// Log-Euclidean metric: the pull-back of the Frobenius product by the matrix
// logarithm. Flat (K = 0); in log coordinates every operation is Euclidean.
class SPDLogEuclidean : public SPDSpace {
 public:
  using SPDSpace::SPDSpace;
  std::string name() const override { return "spd_log_euclidean"; }
  double kappa_min() const override { return 0.0; }
  double kappa_max() const override { return 0.0; }
  double constant_curvature() const override { return 0.0; }

  Mat mat_log(const Vec& p) const {
    return spd_ops::sym_fun(spd_ops::sym_eig(spd_ops::as_mat(p, k_)),
                            [](double x) { return std::log(x); });
  }
  Vec exp(const Vec& p, const Vec& v) const override {
    auto e = spd_ops::sym_eig(spd_ops::as_mat(p, k_));
    Mat X = spd_ops::sym_fun(e, [](double x) { return std::log(x); }) +
            spd_ops::dlog(e, spd_ops::as_mat(v, k_));
    return spd_ops::as_vec(
        spd_ops::sym_fun(spd_ops::sym_eig(X), [](double x) { return std::exp(x); }));
  }
  Vec log(const Vec& p, const Vec& q) const override {
    auto e = spd_ops::sym_eig(spd_ops::as_mat(p, k_));
    Vec a = e.d.array().log();
    Mat H = mat_log(q) - e.U * a.asDiagonal() * e.U.transpose();
    return spd_ops::as_vec(spd_ops::dexp(a, e.U, H));
  }
  double dist(const Vec& p, const Vec& q) const override {
    return (mat_log(p) - mat_log(q)).norm();
  }
  double inner(const Vec& p, const Vec& u, const Vec& v) const override {
    auto e = spd_ops::sym_eig(spd_ops::as_mat(p, k_));
    Mat A = spd_ops::dlog(e, spd_ops::as_mat(u, k_));
    Mat B = spd_ops::dlog(e, spd_ops::as_mat(v, k_));
    return A.cwiseProduct(B).sum();
  }
  Vec transport_along(const Vec& p, const Vec& v, const Vec& w) const override {
    auto ep = spd_ops::sym_eig(spd_ops::as_mat(p, k_));
    Mat H = spd_ops::dlog(ep, spd_ops::as_mat(w, k_));
    auto eq = spd_ops::sym_eig(spd_ops::as_mat(exp(p, v), k_));
    return spd_ops::as_vec(spd_ops::dexp(eq.d.array().log(), eq.U, H));
  }
  Vec jacobi_apply(const Vec& p, const Vec& v, const Vec& w,
                   const SpectralFn& f) const override {
    return f(0.0, norm(p, v)) * w;
  }
  Mat tangent_basis(const Vec& p) const override {
    auto e = spd_ops::sym_eig(spd_ops::as_mat(p, k_));
    Vec a = e.d.array().log();
    auto B = spd_ops::sym_basis(k_);
    Mat out(k_ * k_, B.size());
    for (size_t i = 0; i < B.size(); ++i) out.col(i) = spd_ops::as_vec(spd_ops::dexp(a, e.U, B[i]));
    return out;
  }
  Vec random_tangent(const Vec& p, Rng& rng) const override {
    auto e = spd_ops::sym_eig(spd_ops::as_mat(p, k_));
    return spd_ops::as_vec(
        spd_ops::dexp(e.d.array().log(), e.U, spd_ops::random_sym(k_, rng)));
  }
};

}  // namespace dpmanifold

#endif
