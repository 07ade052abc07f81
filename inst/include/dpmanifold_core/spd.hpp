// Symmetric positive-definite matrices SPD(k): one space, two metrics.
// Every matrix function goes through a symmetric eigendecomposition.
#ifndef DPMANIFOLD_SPD_HPP
#define DPMANIFOLD_SPD_HPP

#include <algorithm>
#include <memory>
#include <vector>

#include "manifold.hpp"
#include "spd_ops.hpp"

namespace dpmanifold {

// What both metrics share: the set, its checks, projections, random points.
// KMax bounds the size k (matrices then live on the stack: see
// src/manifolds_spd.cpp for the bound used), or is Eigen::Dynamic.
template <int KMax>
class SPDSpaceT : public Manifold {
 public:
  using M = spd_ops::MatUpTo<KMax>;
  using EigVec = typename spd_ops::SymEig<M>::VecType;

  explicit SPDSpaceT(int k) : k_(k) {
    // k^2 (the ambient dimension) must fit an int: k <= 46340
    if (k < 1 || k > 46340) throw std::invalid_argument("k must be an integer between 1 and 46340");
    if (KMax != Eigen::Dynamic && k > KMax) throw std::invalid_argument("SPD size above KMax");
  }
  int dim() const override { return k_ * (k_ + 1) / 2; }  // < 2^31 for k <= 46340
  int ambient_dim() const override { return k_ * k_; }
  double injectivity_radius() const override {
    return std::numeric_limits<double>::infinity();
  }
  // Checked at the scale of p (a power of two), so that neither tiny nor
  // huge entries overflow the norms.
  // Positive definite, but with a condition number above ~1e14 (Cholesky
  // diagonal ratio 1e-7): the matrix functions lose all accuracy.
  static constexpr const char* kSingular = "is numerically singular";
  std::string check_point(const Vec& p, double tol) const override {
    if (p.size() != static_cast<Eigen::Index>(k_) * k_) return "has the wrong dimensions";
    if (!p.allFinite()) return "is not finite";
    M P = mat(p);
    const int e = spd_ops::scale_exponent(P);
    if (e != 0) P = spd_ops::ldexp_mat(P, -e);
    if ((P - P.transpose()).norm() > tol * std::max(1.0, P.norm())) return "is not symmetric";
    M L;
    if (!spd_ops::cholesky_lower<M>(spd_ops::symmetrize<M>(P), L) || !(L.diagonal().minCoeff() > 0.0)) {
      // Scaled by the largest entry, a positive definite matrix whose
      // eigenvalues span more than the double range (diag(1e300, 1e-300))
      // loses its small ones to underflow. Unscaled, its Cholesky factor
      // (square roots of the entries' scale) still fits: then it is a
      // point of the manifold, only singular in double precision, and is
      // replaced like any such record, not refused (its value must not
      // decide whether a release errors).
      M L0;
      const M P0 = spd_ops::symmetrize<M>(mat(p));
      if (e != 0 && spd_ops::cholesky_lower<M>(P0, L0) && L0.allFinite() && L0.diagonal().minCoeff() > 0.0)
        return kSingular;
      // Rounding can also break the Cholesky test of a matrix that is
      // positive definite exactly (condition number beyond 1/eps: the
      // Fibonacci matrix [[F(n-1), F(n)], [F(n), F(n+1)]] has determinant 1
      // and fails it for some even n >= 48). The computed eigenvalues lie
      // within a small multiple of eps * |P| of the exact ones (backward
      // stability), so a least eigenvalue above -64 k eps |P| cannot tell
      // such a point from a singular one: it is singular in double
      // precision, not off the manifold, and is not refused by its value.
      const auto ev = spd_ops::sym_eigenvalues<M>(spd_ops::symmetrize<M>(P));
      const double top = ev.cwiseAbs().maxCoeff();
      if (ev.allFinite() && top > 0.0 &&
          ev.minCoeff() >= -64.0 * k_ * std::numeric_limits<double>::epsilon() * top)
        return kSingular;
      return "is not positive definite";
    }
    EigVec l = L.diagonal();
    if (l.minCoeff() < 1e-7 * l.maxCoeff()) return kSingular;
    return "";
  }
  std::string check_accuracy(const Vec& p, double tol) const override {
    return check_point(p, tol) == kSingular ? kSingular : "";
  }
  // A computed matrix is representable when finite, symmetric and positive
  // definite in floating point (however ill-conditioned).
  std::string check_result(const Vec& p) const override {
    if (!p.allFinite()) return "overflows";
    M P = mat(p);
    const int e = spd_ops::scale_exponent(P);
    if (e != 0) P = spd_ops::ldexp_mat(P, -e);
    if ((P - P.transpose()).norm() > 1e-6 * std::max(1.0, P.norm())) return "is not symmetric";
    M L;
    if (!spd_ops::cholesky_lower<M>(spd_ops::symmetrize<M>(P), L) || !(L.diagonal().minCoeff() > 0.0))
      return "is not positive definite (an eigenvalue underflowed)";
    return "";
  }
  Vec project_point(const Vec& x) const override {
    return spd_ops::as_vec(spd_ops::symmetrize<M>(mat(x)));
  }
  Vec project_tangent(const Vec&, const Vec& v) const override {
    return spd_ops::as_vec(spd_ops::symmetrize<M>(mat(v)));
  }
  // Exp of an isotropic standard Gaussian symmetric matrix, scaled by
  // 4 / sqrt(k) above k = 16: unscaled, its eigenvalues fill +-sqrt(2 k)
  // (the semicircle law), so the condition number e^(2 sqrt(2 k)) reaches
  // 1e17 at k = 200, a matrix the package refuses as numerically singular;
  // scaled, they stay within about +-5.7, as at k = 16.
  Vec random_point(Rng& rng) const override {
    M S = spd_ops::random_sym<M>(k_, rng);
    if (k_ > 16) S *= 4.0 / std::sqrt(static_cast<double>(k_));
    auto e = spd_ops::sym_eig<M>(S);
    return spd_ops::as_vec(spd_ops::sym_fun(e, [](double x) { return std::exp(x); }));
  }
  int size() const { return k_; }

 protected:
  // a flat point or tangent vector as a k x k matrix
  M mat(const Vec& v) const { return spd_ops::as_mat<M>(v, k_); }
  // The batch kernels run f(MK()) with MK the matrices of size at most
  // kSmall held inside the objects (no heap allocation per point) when k is
  // that small, and `otherwise()` (the per-point defaults of Manifold, on
  // the dynamic matrices, where the O(k^3) work dwarfs the allocations)
  // when it is larger: one instantiation of the kernels, not two.
  static constexpr int kSmall = 6;
  template <class F, class G>
  void small_or(F&& f, G&& otherwise) const {
    if (k_ <= kSmall)
      f(spd_ops::MatUpTo<kSmall>());
    else
      otherwise();
  }
  // the j-th column of a block as a k x k matrix, without copying
  template <class MK>
  Eigen::Map<const MK> col_mat(const ConstPoints& Q, Eigen::Index j) const {
    return Eigen::Map<const MK>(Q.col(j).data(), k_, k_);
  }
  int k_;

 public:
  // a log or exp: about two eigendecompositions and six products of k x k
  double point_cost() const override {
    const double k = k_;
    return 40.0 * k * k * k + 100.0;
  }
  // One point: the metric's batch kernel where it has one (k <= kSmall), so
  // that a point is clipped the same way alone and in a pass over data.
  Vec clip_towards(const Vec& c, const Vec& x, double r) const override {
    if (k_ > kSmall) return Manifold::clip_towards(c, x, r);
    Vec out(x.size());
    this->clip_block(c, r, x, out);
    return out;
  }

 protected:
  // Column j of X copied to `out` when it is in the ball (d <= r); true
  // then. The clip kernels' common first step.
  template <class MK>
  bool keep_inside(double d, double r, const ConstPoints& X, Eigen::Index j, Eigen::Map<Mat>& out) const {
    if (d > r) return false;
    if (out.data() != X.col(j).data()) out = col_mat<MK>(X, j);
    return true;
  }
};
using SPDSpace = SPDSpaceT<Eigen::Dynamic>;

// The batch kernels both metrics share, written once over the metric's
// LogFrom<MK> (MK: the batch matrix type): LogFrom<MK>(p) prepares the
// footpoint, and its operator()(q, L) writes log_p(q) into L and returns
// dist(p, q).
template <int KMax, class Metric>
class SPDMetricT : public SPDSpaceT<KMax> {
  using Base = SPDSpaceT<KMax>;

 protected:
  using Base::k_;

 public:
  using Base::Base;
  void frechet_block(const Vec& p, const ConstPoints& Q, const double* w, Vec& g,
                     double& f) const override {
    this->small_or([&](auto tag) {
      using MK = decltype(tag);
      const typename Metric::template LogFrom<MK> log_p(spd_ops::as_mat<MK>(p, k_));
      Eigen::Map<Mat> G(g.data(), k_, k_);
      MK L;
      for (Eigen::Index j = 0; j < Q.cols(); ++j) {
        const double d = log_p(this->template col_mat<MK>(Q, j), L), wj = w ? w[j] : 1.0;
        G += wj * L;
        f += wj * d * d;
      }
    }, [&] { Manifold::frechet_block(p, Q, w, g, f); });
  }
  void log_block(const Vec& p, const ConstPoints& Q, OutPoints out) const override {
    this->small_or([&](auto tag) {
      using MK = decltype(tag);
      const typename Metric::template LogFrom<MK> log_p(spd_ops::as_mat<MK>(p, k_));
      MK L;
      for (Eigen::Index j = 0; j < Q.cols(); ++j) {
        log_p(this->template col_mat<MK>(Q, j), L);
        Eigen::Map<Mat>(out.col(j).data(), k_, k_) = L;
      }
    }, [&] { Manifold::log_block(p, Q, out); });
  }
};

// Affine-invariant metric <u, v>_p = tr(p^-1 u p^-1 v): Hadamard, K in [-1/2, 0].
//
// For any g with p = g g^T, X -> g X g^T is an isometry taking I to p, so
// exp_p(v) = g Exp(g^-1 v g^-T) g^T, log_p(q) = g Log(g^-1 q g^-T) g^T,
// dist(p, q) = |Log(g^-1 q g^-T)|_F and the transport along exp_p(t v) is
// w -> E w E^T with E = g Exp(g^-1 v g^-T / 2) g^-1. We take g the Cholesky
// factor (a triangular solve instead of a second eigendecomposition for
// p^1/2); the results are the same as with g = p^1/2.
template <int KMax>
class SPDAffineInvariantT : public SPDMetricT<KMax, SPDAffineInvariantT<KMax>> {
  using Base = SPDMetricT<KMax, SPDAffineInvariantT<KMax>>;
  friend Base;
  using typename Base::M;
  using Base::k_;
  using Base::mat;
  using Frame = spd_ops::AIFrame<M>;

  // log_F(Q) into L (F the frame at p), returning dist(p, Q): the logarithm
  // of g^-1 Q g^-T = 2^s W is Log W + s log 2 I (no under- or overflow when
  // p and Q are far apart in scale).
  template <class MK, class Q>
  static double log_at(const spd_ops::AIFrame<MK>& F, const Q& q, MK& L) {
    int s = 0;
    const auto e = spd_ops::sym_eig<MK>(F.whiten_split(q, s));
    const double shift = s * M_LN2;
    L = F.color_fun(e, [shift](double x) { return std::log(x) + shift; });
    spd_ops::ColOf<MK> l = e.d.array().log();
    if (s != 0) l.array() += shift;
    return robust_norm(l);
  }
  template <class MK>
  struct LogFrom {
    spd_ops::AIFrame<MK> F;
    explicit LogFrom(const MK& p) : F(p) {}
    template <class Q>
    double operator()(const Q& q, MK& L) const { return log_at(F, q, L); }
  };

 public:
  using Base::Base;
  std::string name() const override { return "spd_affine_invariant"; }
  double kappa_min() const override { return -0.5; }
  double kappa_max() const override { return 0.0; }

  Vec exp(const Vec& p, const Vec& v) const override {
    Frame g(mat(p));
    return spd_ops::as_vec(g.color_exp(spd_ops::sym_eig<M>(g.whiten(mat(v)))));
  }
  // log_p(q) = g Log(g^-1 q g^-T) g^T with g^-1 q g^-T = 2^s W: the
  // logarithm of 2^s W is Log W + s log 2 I (no under- or overflow when p
  // and q are far apart in scale).
  Vec log(const Vec& p, const Vec& q) const override {
    M L;
    log_at(Frame(mat(p)), mat(q), L);
    return spd_ops::as_vec(L);
  }
  double dist(const Vec& p, const Vec& q) const override {
    return Frame(mat(p)).dist_to(mat(q));
  }
  std::function<double(const Vec&)> dist_from(const Vec& p) const override {
    std::shared_ptr<Frame> g(new Frame(mat(p)));
    int k = k_;
    return [g, k](const Vec& q) { return g->dist_to(spd_ops::as_mat<M>(q, k)); };
  }
  double inner(const Vec& p, const Vec& u, const Vec& v) const override {
    Frame g(mat(p));
    int su = 0, sv = 0;
    M A = g.whiten_split(mat(u), su), B = g.whiten_split(mat(v), sv);
    double r = A.cwiseProduct(B).sum();
    return su + sv == 0 ? r : std::ldexp(r, su + sv);
  }
  Vec transport_along(const Vec& p, const Vec& v, const Vec& w) const override {
    Frame g(mat(p));
    M H = spd_ops::sym_fun(spd_ops::sym_eig<M>(g.whiten(mat(v))),
                           [](double x) { return std::exp(0.5 * x); });
    // E w E^T = g H (g^-1 w g^-T) H g^T
    int sw = 0;
    M Ww = g.whiten_split(mat(w), sw);
    return spd_ops::as_vec(g.color(H * Ww * H, sw));
  }
  // In whitened coordinates V = U diag(lambda) U^T, the component of w along
  // U E_ij U^T has curvature eigenvalue -(lambda_i - lambda_j)^2 / (4 L^2).
  Vec jacobi_apply(const Vec& p, const Vec& v, const Vec& w,
                   const SpectralFn& f) const override {
    Frame g(mat(p));
    auto e = spd_ops::sym_eig<M>(g.whiten(mat(v)));
    double L = robust_norm(Vec(e.d));
    int sw = 0;
    M Wt = spd_ops::mul<M>(spd_ops::mul<M>(e.U.transpose(), g.whiten_split(mat(w), sw)), e.U);
    for (int j = 0; j < k_; ++j)
      for (int i = 0; i < k_; ++i) {
        double gap = e.d(i) - e.d(j);
        double mu = L > 0 ? -gap * gap / (4.0 * L * L) : 0.0;
        Wt(i, j) *= f(mu, L);
      }
    return spd_ops::as_vec(g.color(spd_ops::mul<M>(spd_ops::mul<M>(e.U, Wt), e.U.transpose()), sw));
  }
  // Batch kernels: one frame at p per block; per point a whitening, an
  // eigendecomposition and a colouring, in the batch matrix type.
  void dist_block(const Vec& p, const ConstPoints& Q, double* d) const override {
    this->small_or([&](auto tag) {
      using MK = decltype(tag);
      const spd_ops::AIFrame<MK> F(spd_ops::as_mat<MK>(p, k_));
      for (Eigen::Index j = 0; j < Q.cols(); ++j) d[j] = F.dist_to(this->template col_mat<MK>(Q, j));
    }, [&] { Manifold::dist_block(p, Q, d); });
  }
  // exp_c((r / d) log_c(x)): in the frame at c, log_c(x) whitens to
  // U diag(log w + s log 2) U^T, so the clipped point is the colouring of
  // U diag((r / d)(log w + s log 2)) U^T (one eigendecomposition per point).
  Eigen::Index clip_block(const Vec& c, double r, const ConstPoints& X, OutPoints out) const override {
    Eigen::Index moved = 0;
    this->small_or([&](auto tag) {
      using MK = decltype(tag);
      const spd_ops::AIFrame<MK> F(spd_ops::as_mat<MK>(c, k_));
      for (Eigen::Index j = 0; j < X.cols(); ++j) {
        int s = 0;
        auto e = spd_ops::sym_eig<MK>(F.whiten_split(this->template col_mat<MK>(X, j), s));
        e.d = e.d.array().log() + s * M_LN2;
        const double d = robust_norm(e.d);
        Eigen::Map<Mat> o(out.col(j).data(), k_, k_);
        if (this->template keep_inside<MK>(d, r, X, j, o)) continue;
        e.d *= r / d;
        o = F.color_exp(e);
        ++moved;
      }
    }, [&] { moved = Manifold::clip_block(c, r, X, out); });
    return moved;
  }

  Mat tangent_basis(const Vec& p) const override {
    Frame g(mat(p), false);
    auto B = spd_ops::sym_basis<M>(k_);
    Mat out(k_ * k_, B.size());
    for (size_t i = 0; i < B.size(); ++i) {
      poll_interrupt();
      out.col(i) = spd_ops::as_vec(g.color(B[i]));
    }
    return out;
  }
  // tangent_basis(p) is g E_i g^T: coordinates are those of the whitened
  // vector in the basis E of Sym(k).
  Vec tangent_coords(const Vec& p, const Vec& v) const override {
    return spd_ops::sym_to_coords<M>(Frame(mat(p)).whiten(mat(v)), k_);
  }
  // tangent_basis(p) is g E_i g^T: the coordinates build a whitened vector.
  std::function<Vec(const Vec&)> exp_coords_from(const Vec& p) const override {
    std::shared_ptr<Frame> g(new Frame(mat(p), false));
    int k = k_;
    return [g, k](const Vec& z) {
      return spd_ops::as_vec(g->color_exp(spd_ops::sym_eig<M>(spd_ops::sym_from_coords<M>(z, k))));
    };
  }
  Vec random_tangent(const Vec& p, Rng& rng) const override {
    return spd_ops::as_vec(Frame(mat(p), false).color(spd_ops::random_sym<M>(k_, rng)));
  }
  // xi = g Z g^T whitens back to Z, so exp_x(s xi) = g Exp(s Z) g^T.
  Vec random_step(const Vec& x, double step, Rng& rng) const override {
    Frame g(mat(x), false);
    M Z = step * spd_ops::random_sym<M>(k_, rng);
    return spd_ops::as_vec(g.color_exp(spd_ops::sym_eig<M>(Z)));
  }

 public:
  // Symmetric space of non-compact type and rank k. In whitened coordinates
  // v = U diag(lambda) U^T the root values are a_ij = |lambda_i - lambda_j|/2
  // (i < j), so J(v) = prod sinh(a_ij)/a_ij. For a unit v,
  // sum a_ij^2 = (k - tr(v)^2)/4 <= k/4, and sum a_ij = <w, lambda>/2 with
  // w = (k-1, k-3, ..., 1-k) for sorted lambda, at most |w|/2 =
  // sqrt(k (k^2 - 1)/3)/2 (attained at lambda = w/|w|).
  std::pair<double, double> volume_growth_bounds() const override {
    const double k = k_;
    return {k / 4.0, 0.5 * std::sqrt(k * (k * k - 1.0) / 3.0)};
  }
  std::vector<std::pair<double, int>> radial_jacobi_spectrum() const override {
    if (k_ == 1) return {{0.0, 0}};  // SPD(1) is a line
    return {};
  }
  double log_volume_density(const Vec& p, const Vec& v) const override {
    auto lam = spd_ops::sym_eigenvalues<M>(Frame(mat(p)).whiten(mat(v)));
    double out = 0.0;
    for (int i = 0; i < k_; ++i)
      for (int j = i + 1; j < k_; ++j) {
        const double a = 0.5 * std::fabs(lam(i) - lam(j));
        out += log_sinhc(a);
      }
    return out;
  }
};
using SPDAffineInvariant = SPDAffineInvariantT<Eigen::Dynamic>;

// Log-Euclidean metric: the pull-back of the Frobenius product by the matrix
// logarithm. Flat (K = 0); in log coordinates every operation is Euclidean.
template <int KMax>
class SPDLogEuclideanT : public SPDMetricT<KMax, SPDLogEuclideanT<KMax>> {
  using Base = SPDMetricT<KMax, SPDLogEuclideanT<KMax>>;
  friend Base;
  using typename Base::M;
  using typename Base::EigVec;
  using Base::k_;
  using Base::mat;

 public:
  using Base::Base;
  std::string name() const override { return "spd_log_euclidean"; }
  double kappa_min() const override { return 0.0; }
  double kappa_max() const override { return 0.0; }
  double constant_curvature() const override { return 0.0; }

  M mat_log(const Vec& p) const {
    return spd_ops::sym_fun(spd_ops::sym_eig<M>(mat(p)), [](double x) { return std::log(x); });
  }
  Vec exp(const Vec& p, const Vec& v) const override {
    auto e = spd_ops::sym_eig<M>(mat(p));
    M X = spd_ops::sym_fun(e, [](double x) { return std::log(x); }) + spd_ops::dlog(e, mat(v));
    return spd_ops::as_vec(
        spd_ops::sym_fun(spd_ops::sym_eig<M>(X), [](double x) { return std::exp(x); }));
  }
  Vec log(const Vec& p, const Vec& q) const override {
    const LogFrom<M> log_p(mat(p));
    M L;
    log_p(mat(q), L);
    return spd_ops::as_vec(L);
  }
  double dist(const Vec& p, const Vec& q) const override {
    return (mat_log(p) - mat_log(q)).norm();
  }

  // Batch kernels: one eigendecomposition of p per block, one of each point.
  void dist_block(const Vec& p, const ConstPoints& Q, double* d) const override {
    this->small_or([&](auto tag) {
      using MK = decltype(tag);
      const MK Lp = spd_ops::sym_fun(spd_ops::sym_eig<MK>(spd_ops::as_mat<MK>(p, k_)),
                                     [](double x) { return std::log(x); });
      for (Eigen::Index j = 0; j < Q.cols(); ++j) d[j] = (Lp - LogFrom<MK>::mat_log(this->template col_mat<MK>(Q, j))).norm();
    }, [&] { Manifold::dist_block(p, Q, d); });
  }
  // exp_c((r / d) log_c(x)) = Exp(Log c + (r / d)(Log x - Log c)) (dlog
  // inverts dExp): one eigendecomposition of x, one of the result.
  Eigen::Index clip_block(const Vec& c, double r, const ConstPoints& X, OutPoints out) const override {
    Eigen::Index moved = 0;
    this->small_or([&](auto tag) {
      using MK = decltype(tag);
      const MK Lc = spd_ops::sym_fun(spd_ops::sym_eig<MK>(spd_ops::as_mat<MK>(c, k_)),
                                     [](double x) { return std::log(x); });
      for (Eigen::Index j = 0; j < X.cols(); ++j) {
        const MK H = LogFrom<MK>::mat_log(this->template col_mat<MK>(X, j)) - Lc;
        const double d = H.norm();
        Eigen::Map<Mat> o(out.col(j).data(), k_, k_);
        if (this->template keep_inside<MK>(d, r, X, j, o)) continue;
        const MK Y = Lc + (r / d) * H;
        o = spd_ops::sym_fun(spd_ops::sym_eig<MK>(Y), [](double x) { return std::exp(x); });
        ++moved;
      }
    }, [&] { moved = Manifold::clip_block(c, r, X, out); });
    return moved;
  }

 private:
  // p's eigendecomposition and logarithm, for maps from p.
  template <class MK>
  struct LogFrom {
    spd_ops::SymEig<MK> e;
    spd_ops::ColOf<MK> a;  // log eigenvalues
    MK L;                  // Log p
    explicit LogFrom(const MK& p) : e(spd_ops::sym_eig<MK>(p)) {
      a = e.d.array().log();
      const MK A = e.U * a.asDiagonal();
      L = spd_ops::mul<MK>(A, e.U.transpose());
    }
    static MK mat_log(const MK& q) {
      return spd_ops::sym_fun(spd_ops::sym_eig<MK>(q), [](double x) { return std::log(x); });
    }
    // log_p(q) = dExp_{Log p}(Log q - Log p) into out; returns
    // dist(p, q) = |Log q - Log p|_F.
    double operator()(const MK& q, MK& out) const {
      const MK H = mat_log(q) - L;
      out = spd_ops::dexp<MK>(a, e.U, H);
      return H.norm();
    }
  };

 public:
  double inner(const Vec& p, const Vec& u, const Vec& v) const override {
    auto e = spd_ops::sym_eig<M>(mat(p));
    M A = spd_ops::dlog(e, mat(u));
    M B = spd_ops::dlog(e, mat(v));
    return A.cwiseProduct(B).sum();
  }
  // Identity in log coordinates: w -> dExp_{Log q}(dlog_p(w)). The
  // endpoint enters through Log q, taken from q itself (transport) or from
  // Log p + dlog_p(v) (transport_along), never through a round trip
  // q -> log_p(q) -> exp_p: near a singular q that round trip moves its
  // small eigenvalues by eps / lambda_min relative (1e-3 at condition 1e12),
  // and the transported vector, whose norm at q weighs its components by
  // up to 1 / lambda_min, with them (norm 3.13 came out 3078).
  // What remains is the representation of the result: a dense tangent at q
  // holds its component along a small eigenvalue lambda to eps |w| / lambda
  // only, so the norm is preserved to ~eps cond(q) (1e-4 at cond 1e12).
  Vec transport(const Vec& p, const Vec& q, const Vec& w) const override {
    M H = spd_ops::dlog(spd_ops::sym_eig<M>(mat(p)), mat(w));
    auto eq = spd_ops::sym_eig<M>(mat(q));
    return spd_ops::as_vec(spd_ops::dexp<M>(eq.d.array().log(), eq.U, H));
  }
  Vec transport_along(const Vec& p, const Vec& v, const Vec& w) const override {
    auto ep = spd_ops::sym_eig<M>(mat(p));
    M H = spd_ops::dlog(ep, mat(w));
    M X = spd_ops::sym_fun(ep, [](double x) { return std::log(x); }) + spd_ops::dlog(ep, mat(v));
    auto ex = spd_ops::sym_eig<M>(spd_ops::symmetrize<M>(X));  // X = Log exp_p(v)
    return spd_ops::as_vec(spd_ops::dexp<M>(ex.d, ex.U, H));
  }
  Vec jacobi_apply(const Vec& p, const Vec& v, const Vec& w,
                   const SpectralFn& f) const override {
    return f(0.0, this->norm(p, v)) * w;
  }
  Mat tangent_basis(const Vec& p) const override {
    auto e = spd_ops::sym_eig<M>(mat(p));
    EigVec a = e.d.array().log();
    auto B = spd_ops::sym_basis<M>(k_);
    Mat out(k_ * k_, B.size());
    for (size_t i = 0; i < B.size(); ++i) {
      poll_interrupt();
      out.col(i) = spd_ops::as_vec(spd_ops::dexp<M>(a, e.U, B[i]));
    }
    return out;
  }
  // tangent_basis(p) is dExp_{Log p}(E_i) and dlog inverts dExp, so the
  // coordinates of v are those of dlog_p(v) in the basis E of Sym(k), and
  // exp_p(sum z_i b_i) = Exp(Log p + sum z_i E_i): O(k^3), no basis built.
  Vec tangent_coords(const Vec& p, const Vec& v) const override {
    return spd_ops::sym_to_coords<M>(spd_ops::dlog(spd_ops::sym_eig<M>(mat(p)), mat(v)), k_);
  }
  std::function<Vec(const Vec&)> exp_coords_from(const Vec& p) const override {
    std::shared_ptr<M> L(new M(mat_log(p)));
    int k = k_;
    return [L, k](const Vec& z) {
      M X = *L + spd_ops::sym_from_coords<M>(z, k);
      return spd_ops::as_vec(
          spd_ops::sym_fun(spd_ops::sym_eig<M>(X), [](double x) { return std::exp(x); }));
    };
  }
  Vec random_tangent(const Vec& p, Rng& rng) const override {
    auto e = spd_ops::sym_eig<M>(mat(p));
    return spd_ops::as_vec(
        spd_ops::dexp<M>(e.d.array().log(), e.U, spd_ops::random_sym<M>(k_, rng)));
  }

  // Flat: polar volume t^(d-1).
  std::vector<std::pair<double, int>> radial_jacobi_spectrum() const override {
    return {{0.0, this->dim() - 1}};
  }
};
using SPDLogEuclidean = SPDLogEuclideanT<Eigen::Dynamic>;

}  // namespace dpmanifold

#endif
