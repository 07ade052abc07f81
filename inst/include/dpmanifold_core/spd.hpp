// Symmetric positive-definite matrices SPD(k): one space, two metrics.
// Every matrix function goes through a symmetric eigendecomposition.
#ifndef DPMANIFOLD_SPD_HPP
#define DPMANIFOLD_SPD_HPP

#include <algorithm>
#include <memory>
#include <vector>

#include "manifold.hpp"
#include "sym_eigen.hpp"

namespace dpmanifold {

namespace spd_ops {

// k x k matrices of any size (KMax = Eigen::Dynamic, on the heap) or of a
// runtime size at most KMax (held inside the object: no heap allocation);
// the helpers below work for both.
template <int KMax>
using MatUpTo = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, KMax, KMax>;
template <class M>
using ColOf = Eigen::Matrix<double, M::RowsAtCompileTime, 1, 0, M::MaxRowsAtCompileTime, 1>;

template <class M>
struct SymEig {
  using VecType = ColOf<M>;
  VecType d;  // eigenvalues, ascending
  M U;        // orthonormal eigenvectors
};

// Even exponent e such that A / 2^e has entries of moderate size: 0 for
// entries between 2^-100 and 2^100 (then every path below is the plain one,
// bit for bit), otherwise the exponent of the largest |entry|. Scaling by a
// power of two is exact, and by an even one commutes exactly with
// Cholesky factors and square roots.
template <class M>
inline int scale_exponent(const M& A) {
  const double a = A.cwiseAbs().maxCoeff();
  if (!(a > 0.0) || !std::isfinite(a) || (a > 0x1p-100 && a < 0x1p100)) return 0;
  int e;
  std::frexp(a, &e);
  return 2 * (e / 2);
}
// A * 2^e, exactly, for any e (no overflow of 2^e itself).
template <class M>
inline M ldexp_mat(const M& A, int e) {
  return A.unaryExpr([e](double x) { return std::ldexp(x, e); });
}

// Lower Cholesky factor L of the symmetric A (its lower triangle is read);
// false when A is not positive definite. Eigen's unblocked LLT, which is
// what Eigen::LLT runs below 32 x 32 (the same bits), without the blocked
// level-3 code that LLT would compile for larger sizes.
template <class M>
inline bool cholesky_lower(const M& A, M& L) {
  L = A;
  const bool ok = Eigen::internal::llt_inplace<double, Eigen::Lower>::unblocked(L) == -1;
  L.template triangularView<Eigen::StrictlyUpper>().setZero();
  return ok;
}

template <class M>
inline SymEig<M> sym_eig(const M& A) {
  SymEig<M> e;
  const int s = scale_exponent(A);
  if (s == 0) {
    sym_eigen<M>(A, e.d, &e.U);
  } else {  // extreme entries: decompose A / 2^s, scale the eigenvalues back
    sym_eigen<M>(ldexp_mat(A, -s), e.d, &e.U);
    e.d = e.d.unaryExpr([s](double x) { return std::ldexp(x, s); });
  }
  return e;
}
template <class M>
inline typename SymEig<M>::VecType sym_eigenvalues(const M& A) {
  typename SymEig<M>::VecType d;
  const int s = scale_exponent(A);
  if (s == 0) {
    sym_eigen<M>(A, d, nullptr);
  } else {
    sym_eigen<M>(ldexp_mat(A, -s), d, nullptr);
    d = d.unaryExpr([s](double x) { return std::ldexp(x, s); });
  }
  return d;
}
template <class M, class F>
inline M sym_fun(const SymEig<M>& e, F f) {
  typename SymEig<M>::VecType fd = e.d.unaryExpr(f);
  return e.U * fd.asDiagonal() * e.U.transpose();
}
template <class M>
inline M as_mat(const Vec& v, int k) { return Eigen::Map<const M>(v.data(), k, k); }
template <class M>
inline Vec as_vec(const M& m) { return Eigen::Map<const Vec>(m.data(), m.size()); }
template <class M>
inline M symmetrize(const M& m) {
  M s = m + m.transpose();
  if (s.allFinite()) return 0.5 * s;
  // entries above half the largest double: halve first (the sum overflowed)
  return 0.5 * m + 0.5 * m.transpose();
}

// log(1 + r) / r, accurate for small r.
inline double log1p_ratio(double r) {
  return std::fabs(r) < 1e-8 ? 1.0 - r / 2.0 : std::log1p(r) / r;
}
// expm1(x) / x, accurate for small x.
inline double expm1_ratio(double x) {
  return std::fabs(x) < 1e-8 ? 1.0 + x / 2.0 : std::expm1(x) / x;
}
// (log x - log y) / (x - y) for x, y > 0, to a few eps whatever their
// ratio. log1p((x - y) / y) loses the digits of 1 + (x - y) / y = x / y when
// x << y (a relative error eps y / x: 1e-4 at 1e-12 : 1); so log1p only
// for close values (x - y exact, Sterbenz), log(x / y) otherwise.
inline double log_divdiff(double x, double y) {
  const double lo = std::min(x, y), hi = std::max(x, y);
  if (hi <= 2.0 * lo) return log1p_ratio((hi - lo) / lo) / lo;
  const double r = hi / lo;
  return (std::isfinite(r) ? std::log(r) : std::log(hi) - std::log(lo)) / (hi - lo);
}
// (exp a - exp b) / (a - b) = exp(max) expm1(-|a - b|) / -|a - b|: no
// overflow of exp(a - b) when exp(max) itself fits.
inline double exp_divdiff(double a, double b) {
  return std::exp(std::max(a, b)) * expm1_ratio(-std::fabs(a - b));
}
// Daleckii-Krein: derivative of the matrix logarithm at p = U diag(d) U^T.
template <class M>
inline M dlog(const SymEig<M>& e, const M& H) {
  const int k = static_cast<int>(e.d.size());
  M Ht = e.U.transpose() * H * e.U;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) Ht(i, j) *= log_divdiff(e.d(i), e.d(j));
  return symmetrize<M>(e.U * Ht * e.U.transpose());
}
// Derivative of the matrix exponential at X = U diag(a) U^T.
template <class M>
inline M dexp(const typename SymEig<M>::VecType& a, const M& U, const M& H) {
  const int k = static_cast<int>(a.size());
  M Ht = U.transpose() * H * U;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) Ht(i, j) *= exp_divdiff(a(i), a(j));
  return symmetrize<M>(U * Ht * U.transpose());
}
// Isotropic standard Gaussian symmetric matrix for the Frobenius product.
template <class M>
inline M random_sym(int k, Rng& rng) {
  M S = M::Zero(k, k);
  for (int j = 0; j < k; ++j) {
    S(j, j) = rng.normal();
    for (int i = j + 1; i < k; ++i) S(i, j) = S(j, i) = rng.normal() / std::sqrt(2.0);
  }
  return S;
}
// sum_i z_i E_i for the basis E of sym_basis().
template <class M>
inline M sym_from_coords(const Vec& z, int k) {
  M S(k, k);
  int idx = 0;
  for (int i = 0; i < k; ++i) S(i, i) = z(idx++);
  const double h = 1.0 / std::sqrt(2.0);
  for (int j = 0; j < k; ++j)
    for (int i = j + 1; i < k; ++i) S(i, j) = S(j, i) = h * z(idx++);
  return S;
}
// Coordinates of a symmetric W in the basis E of sym_basis() (the inverse
// of sym_from_coords): <W, E_i>_F.
template <class M>
inline Vec sym_to_coords(const M& W, int k) {
  Vec z(k * (k + 1) / 2);
  int idx = 0;
  for (int i = 0; i < k; ++i) z(idx++) = W(i, i);
  const double r = std::sqrt(2.0);
  for (int j = 0; j < k; ++j)
    for (int i = j + 1; i < k; ++i) z(idx++) = r * W(i, j);
  return z;
}
// Frobenius-orthonormal basis of Sym(k): diagonal units, then (E_ij + E_ji)/sqrt 2.
template <class M>
inline std::vector<M, Eigen::aligned_allocator<M>> sym_basis(int k) {
  std::vector<M, Eigen::aligned_allocator<M>> B;
  for (int i = 0; i < k; ++i) {
    M E = M::Zero(k, k);
    E(i, i) = 1.0;
    B.push_back(E);
  }
  for (int j = 0; j < k; ++j)
    for (int i = j + 1; i < k; ++i) {
      M E = M::Zero(k, k);
      E(i, j) = E(j, i) = 1.0 / std::sqrt(2.0);
      B.push_back(E);
    }
  return B;
}

// Inverse of the lower triangular g: forward substitution, column by column.
template <class M>
inline M lower_inverse(const M& g) {
  const int k = static_cast<int>(g.rows());
  M ginv = M::Zero(k, k);
  for (int j = 0; j < k; ++j) {
    ginv(j, j) = 1.0 / g(j, j);
    for (int i = j + 1; i < k; ++i) {
      double s = 0.0;
      for (int l = j; l < i; ++l) s += g(i, l) * ginv(l, j);
      ginv(i, j) = -s / g(i, i);
    }
  }
  return ginv;
}
// A B for lower triangular A and B, in a fixed order of operations (the
// same bits whichever matrix type holds them).
template <class M>
inline M lower_product(const M& A, const M& B) {
  const int k = static_cast<int>(A.rows());
  M C = M::Zero(k, k);
  for (int j = 0; j < k; ++j)
    for (int i = j; i < k; ++i) {
      double s = 0.0;
      for (int l = j; l <= i; ++l) s += A(i, l) * B(l, j);
      C(i, j) = s;
    }
  return C;
}
// Singular values of A, ascending: one-sided (Hestenes) Jacobi, which
// orthogonalises the columns by plane rotations. Each small singular value
// comes out with a small relative error when A is a well-conditioned matrix
// times a diagonal scaling (Demmel and Veselic 1992), and never squares the
// condition number as an eigendecomposition of A^T A would.
template <class M>
inline ColOf<M> singular_values(M A) {
  const int k = static_cast<int>(A.cols());
  ColOf<M> s(k);
  if (!A.allFinite()) return s.setConstant(std::numeric_limits<double>::quiet_NaN());
  const double tol = std::numeric_limits<double>::epsilon();
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (int i = 0; i + 1 < k; ++i)
      for (int j = i + 1; j < k; ++j) {
        double a = 0.0, b = 0.0, c = 0.0;  // plain loops: the same bits for every matrix type
        for (int r = 0; r < k; ++r) {
          a += A(r, i) * A(r, i);
          b += A(r, j) * A(r, j);
          c += A(r, i) * A(r, j);
        }
        if (!(std::fabs(c) > tol * std::sqrt(a) * std::sqrt(b))) continue;
        rotated = true;
        const double z = (b - a) / (2.0 * c);
        const double t = std::fabs(z) > 1e150 ? 0.5 / z
                                               : std::copysign(1.0, z) / (std::fabs(z) + std::sqrt(1.0 + z * z));
        const double cs = 1.0 / std::sqrt(1.0 + t * t), sn = cs * t;
        for (int r = 0; r < k; ++r) {
          const double x = A(r, i), y = A(r, j);
          A(r, i) = cs * x - sn * y;
          A(r, j) = sn * x + cs * y;
        }
      }
    if (!rotated) break;
  }
  for (int i = 0; i < k; ++i) {
    double a = 0.0;
    for (int r = 0; r < k; ++r) a += A(r, i) * A(r, i);
    s(i) = std::sqrt(a);
  }
  std::sort(s.data(), s.data() + k);
  return s;
}
// True when the factor 2^ea a a^T should whiten 2^eb b b^T rather than the
// other way round: the better conditioned one (Cholesky diagonal ratio),
// ties broken by the entries. A function of the unordered pair, so that
// dist(p, q) and dist(q, p) run the same arithmetic.
template <class M>
inline bool whitens_first(const M& a, int ea, const M& b, int eb) {
  const double ra = a.diagonal().minCoeff() / a.diagonal().maxCoeff();
  const double rb = b.diagonal().minCoeff() / b.diagonal().maxCoeff();
  if (ra != rb) return ra > rb;
  if (ea != eb) return ea < eb;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (a.data()[i] != b.data()[i]) return a.data()[i] < b.data()[i];
  return true;
}
// Affine-invariant distance between 2^ea a a^T and 2^eb b b^T (a, b lower
// triangular; ainv the inverse of a, or null: then computed if needed).
// The log-eigenvalues of the pencil are 2 log sigma_i(a^-1 b) + (eb - ea)
// log 2. An eigendecomposition of the whitened a^-1 b b^T a^-T resolves its
// small eigenvalues only to eps times its largest (at condition 1e10 a
// false NaN, or 17% off): the singular values of the factor a^-1 b span the
// square root of that range, and one-sided Jacobi finds the small ones to
// a small relative error. Which factor whitens is chosen from the pair
// (whitens_first), so that dist(p, q) == dist(q, p) bit for bit.
template <class M>
inline double pair_dist(const M& a, const M* ainv, int ea, const M& b, int eb) {
  const bool fwd = whitens_first<M>(a, ea, b, eb);
  const M C = fwd ? lower_product<M>(ainv ? *ainv : lower_inverse<M>(a), b)
                  : lower_product<M>(lower_inverse<M>(b), a);
  ColOf<M> l = singular_values<M>(C).array().log();
  l = 2.0 * l.array() + (fwd ? eb - ea : ea - eb) * M_LN2;
  return robust_norm(l);
}

// p = 2^e g g^T with g lower triangular (Cholesky factor of p / 2^e, e
// even and 0 unless p's entries are extreme: see scale_exponent); g^-1 is
// kept, so that whitening and colouring are two small dense products each
// (Eigen's triangular kernels cost more at these sizes:
// bench/small_kernels.R). The power of two is carried separately, so that
// matrices of very different scales (1e300 I and 1e-300 I) whiten without
// under- or overflow.
template <class M>
struct AIFrame {
  EIGEN_MAKE_ALIGNED_OPERATOR_NEW
  M g, ginv;
  int e = 0;
  // with_inverse = false when only color() will be used
  explicit AIFrame(const M& p, bool with_inverse = true) : e(scale_exponent(p)) {
    cholesky_lower<M>(e == 0 ? p : ldexp_mat(p, -e), g);
    if (with_inverse) ginv = lower_inverse(g);
  }
  // g^-1 X g^-T / 2^e = 2^shift * (returned matrix), symmetrised, with X
  // brought to moderate size first.
  M whiten_split(const M& X, int& shift) const {
    const int ex = scale_exponent(X);
    shift = ex - e;
    M A = ginv * (ex == 0 ? X : ldexp_mat(X, -ex));
    return symmetrize<M>(A * ginv.transpose());
  }
  // p^-1/2 X p^-1/2 in the Cholesky frame, symmetrised
  M whiten(const M& X) const {
    int shift = 0;
    M W = whiten_split(X, shift);
    return shift == 0 ? W : ldexp_mat(W, shift);
  }
  // 2^(e + shift) g X g^T, symmetrised
  M color(const M& X, int shift = 0) const {
    M A = g * X;
    M C = symmetrize<M>(A * g.transpose());
    return e + shift == 0 ? C : ldexp_mat(C, e + shift);
  }
  // 2^e g f(X) g^T for X = U diag(d) U^T: (g U) f(d) (g U)^T
  template <class F>
  M color_fun(const SymEig<M>& eig, F f) const {
    M W = g * eig.U;
    typename SymEig<M>::VecType fd = eig.d.unaryExpr(f);
    M A = W * fd.asDiagonal();
    M C = symmetrize<M>(A * W.transpose());
    return e == 0 ? C : ldexp_mat(C, e);
  }
  // 2^e g Exp(X) g^T. When exp of the largest eigenvalue would overflow
  // (or 2^e is not 1) the largest is factored out and recombined with 2^e
  // in the exponent: the result overflows only if it is beyond double
  // precision itself.
  M color_exp(const SymEig<M>& eig) const {
    const double top = eig.d.maxCoeff();
    if (e == 0 && top <= 700.0) return color_fun(eig, [](double x) { return std::exp(x); });
    if (!std::isfinite(top)) return color_fun(eig, [](double x) { return std::exp(x); });
    M W = g * eig.U;
    typename SymEig<M>::VecType fd =
        eig.d.unaryExpr([top](double x) { return std::exp(x - top); });
    M A = W * fd.asDiagonal();
    M C = symmetrize<M>(A * W.transpose());
    // scale 2^e e^top = 2^n e^r with n integer
    const double log2_scale = e + top / M_LN2;
    if (!(std::fabs(log2_scale) < 1e6)) return C * (log2_scale > 0 ? HUGE_VAL : 0.0);
    const int n = static_cast<int>(std::floor(log2_scale));
    return ldexp_mat<M>(C * std::exp((log2_scale - n) * M_LN2), n);
  }
  // |Log(g^-1 Q g^-T)|_F with the scales of p and Q taken apart, from the
  // Cholesky factors of both (pair_dist: symmetric in p and Q).
  double dist_to(const M& Q) const {
    const int eq = scale_exponent(Q);
    M h;
    cholesky_lower<M>(eq == 0 ? Q : ldexp_mat(Q, -eq), h);
    return pair_dist<M>(g, &ginv, e, h, eq);
  }
};

}  // namespace spd_ops

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
  // Exp of an isotropic standard Gaussian symmetric matrix.
  Vec random_point(Rng& rng) const override {
    auto e = spd_ops::sym_eig<M>(spd_ops::random_sym<M>(k_, rng));
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
    M Wt = e.U.transpose() * g.whiten_split(mat(w), sw) * e.U;
    for (int j = 0; j < k_; ++j)
      for (int i = 0; i < k_; ++i) {
        double gap = e.d(i) - e.d(j);
        double mu = L > 0 ? -gap * gap / (4.0 * L * L) : 0.0;
        Wt(i, j) *= f(mu, L);
      }
    return spd_ops::as_vec(g.color(e.U * Wt * e.U.transpose(), sw));
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
      L = e.U * a.asDiagonal() * e.U.transpose();
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
