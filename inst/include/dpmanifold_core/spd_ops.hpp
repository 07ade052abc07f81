// Matrix functions of SPD(k) (spd.hpp): symmetric eigendecompositions,
// divided differences for the derivatives of log and exp, the
// Cholesky-based distance of a pair, the affine-invariant frame.
#ifndef DPMANIFOLD_SPD_OPS_HPP
#define DPMANIFOLD_SPD_OPS_HPP

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/SVD>

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

// A * B as a matrix of type M. From k = kPolledProduct at sizes known only
// at run time, in blocks of 64 columns with an interrupt poll after each
// (interrupt.hpp): a single product takes about a second at k = 1500, and
// every SPD operation takes several.
constexpr Eigen::Index kPolledProduct = 128;
template <class M, class DA, class DB>
inline M mul(const DA& A, const DB& B) {
  if (M::RowsAtCompileTime != Eigen::Dynamic || A.rows() < kPolledProduct) {
    M C = A * B;
    return C;
  }
  M C(A.rows(), B.cols());
  constexpr Eigen::Index w = 64;
  for (Eigen::Index j = 0; j < B.cols(); j += w) {
    const Eigen::Index b = std::min<Eigen::Index>(w, B.cols() - j);
    C.middleCols(j, b).noalias() = A * B.middleCols(j, b);
    poll_interrupt(2.0 * static_cast<double>(A.rows()) * static_cast<double>(A.cols()) * static_cast<double>(b));
  }
  return C;
}

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
  const M A = e.U * fd.asDiagonal();
  return mul<M>(A, e.U.transpose());
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
  M Ht = mul<M>(mul<M>(e.U.transpose(), H), e.U);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) Ht(i, j) *= log_divdiff(e.d(i), e.d(j));
  return symmetrize<M>(mul<M>(mul<M>(e.U, Ht), e.U.transpose()));
}
// Derivative of the matrix exponential at X = U diag(a) U^T.
template <class M>
inline M dexp(const typename SymEig<M>::VecType& a, const M& U, const M& H) {
  const int k = static_cast<int>(a.size());
  M Ht = mul<M>(mul<M>(U.transpose(), H), U);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) Ht(i, j) *= exp_divdiff(a(i), a(j));
  return symmetrize<M>(mul<M>(mul<M>(U, Ht), U.transpose()));
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
constexpr int kJacobiSvdMax = 32;
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
  // (from k = 33 one-sided Jacobi, O(sweeps k^3), cost 6.7 times Eigen's
  // eigendecomposition already at k = 300: there divide-and-conquer SVD,
  // relative accuracy eps cond(C) instead of eps, still without squaring
  // the condition as before; symmetric, as C is)
  ColOf<M> l;
  if (C.cols() <= kJacobiSvdMax) {
    l = singular_values<M>(C).array().log();
  } else {
    const Eigen::MatrixXd Cd = C;
    Eigen::BDCSVD<Eigen::MatrixXd> svd(Cd);
    Eigen::VectorXd sv = svd.singularValues();
    l = sv.array().log().matrix();
  }
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
    M A = ex == 0 ? mul<M>(ginv, X) : mul<M>(ginv, ldexp_mat(X, -ex));
    return symmetrize<M>(mul<M>(A, ginv.transpose()));
  }
  // p^-1/2 X p^-1/2 in the Cholesky frame, symmetrised
  M whiten(const M& X) const {
    int shift = 0;
    M W = whiten_split(X, shift);
    return shift == 0 ? W : ldexp_mat(W, shift);
  }
  // 2^(e + shift) g X g^T, symmetrised
  M color(const M& X, int shift = 0) const {
    M A = mul<M>(g, X);
    M C = symmetrize<M>(mul<M>(A, g.transpose()));
    return e + shift == 0 ? C : ldexp_mat(C, e + shift);
  }
  // 2^e g f(X) g^T for X = U diag(d) U^T: (g U) f(d) (g U)^T
  template <class F>
  M color_fun(const SymEig<M>& eig, F f) const {
    M W = mul<M>(g, eig.U);
    typename SymEig<M>::VecType fd = eig.d.unaryExpr(f);
    M A = W * fd.asDiagonal();
    M C = symmetrize<M>(mul<M>(A, W.transpose()));
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
    M W = mul<M>(g, eig.U);
    typename SymEig<M>::VecType fd =
        eig.d.unaryExpr([top](double x) { return std::exp(x - top); });
    M A = W * fd.asDiagonal();
    M C = symmetrize<M>(mul<M>(A, W.transpose()));
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

}  // namespace dpmanifold

#endif
