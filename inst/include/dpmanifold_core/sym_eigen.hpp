// Symmetric eigendecomposition of small matrices, the cost centre of every
// SPD operation. For sizes fixed at compile time (2..6) a direct
// implementation of the textbook method, Householder tridiagonalisation and
// implicit symmetric QR steps with Wilkinson shifts (Golub and Van Loan,
// Algorithms 8.3.1 and 8.3.3), on fixed-size arrays: 1.5-2x faster than
// Eigen's SelfAdjointEigenSolver from 3x3 to 6x6 and 3x at 2x2
// (bench/small_kernels.R), whose generic code dominates at these sizes,
// with the same backward stability. Dynamic sizes use Eigen.
#ifndef DPMANIFOLD_SYM_EIGEN_HPP
#define DPMANIFOLD_SYM_EIGEN_HPP

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dpmanifold {
namespace spd_ops {

// Eigenvalues d (ascending) and, if U is not null, orthonormal eigenvectors
// (columns of *U) of the symmetric K x K matrix A. Returns false when the QR
// iteration did not converge (the caller falls back to Eigen's solver; only
// non-finite input gets there).
template <int K>
inline bool small_sym_eigen(const Eigen::Matrix<double, K, K>& A0,
                            Eigen::Matrix<double, K, 1>& d, Eigen::Matrix<double, K, K>* U) {
  static_assert(K >= 1 && K <= 8, "small_sym_eigen is meant for small fixed sizes");
  // scale to max |a_ij| = 1: no overflow or underflow in the rotations
  const double anorm = A0.cwiseAbs().maxCoeff();
  if (!std::isfinite(anorm)) return false;
  if (U) U->setIdentity();
  if (anorm == 0.0) {
    d.setZero();
    return true;
  }
  // plain arrays in the loops below: no per-access checks, easy unrolling
  double A[K][K], dd[K], e[K > 1 ? K : 2];  // e[i] couples i and i + 1
  for (int j = 0; j < K; ++j)
    for (int i = 0; i < K; ++i) A[i][j] = (0.5 / anorm) * (A0(i, j) + A0(j, i));
  e[K - 1] = 0.0;
  double* Ud = U ? U->data() : nullptr;  // column-major: U(i, j) = Ud[i + K * j]

  // Householder tridiagonalisation: A <- H A H with H = I - beta v v^T
  // zeroing A(k+2:, k); U accumulates the product of the H.
  for (int k = 0; k + 2 < K; ++k) {
    double xnorm2 = 0.0;
    for (int i = k + 2; i < K; ++i) xnorm2 += A[i][k] * A[i][k];
    const double x0 = A[k + 1][k];
    if (xnorm2 == 0.0) {
      e[k] = x0;
      continue;
    }
    const double alpha = x0 >= 0 ? -std::sqrt(x0 * x0 + xnorm2) : std::sqrt(x0 * x0 + xnorm2);
    double v[K];
    for (int i = 0; i <= k; ++i) v[i] = 0.0;
    v[k + 1] = x0 - alpha;
    for (int i = k + 2; i < K; ++i) v[i] = A[i][k];
    const double beta = 2.0 / (v[k + 1] * v[k + 1] + xnorm2);
    // p = beta A v, w = p - (beta / 2)(p . v) v, A <- A - v w^T - w v^T
    double p[K], w[K], pv = 0.0;
    for (int i = k + 1; i < K; ++i) {
      double s = 0.0;
      for (int j = k + 1; j < K; ++j) s += A[i][j] * v[j];
      p[i] = beta * s;
      pv += p[i] * v[i];
    }
    for (int i = k + 1; i < K; ++i) w[i] = p[i] - 0.5 * beta * pv * v[i];
    for (int j = k + 1; j < K; ++j)
      for (int i = k + 1; i < K; ++i) A[i][j] -= v[i] * w[j] + w[i] * v[j];
    e[k] = alpha;
    if (U) {  // U <- U H
      for (int i = 0; i < K; ++i) {
        double s = 0.0;
        for (int j = k + 1; j < K; ++j) s += Ud[i + K * j] * v[j];
        s *= beta;
        for (int j = k + 1; j < K; ++j) Ud[i + K * j] -= s * v[j];
      }
    }
  }
  for (int i = 0; i < K; ++i) dd[i] = A[i][i];
  if (K >= 2) e[K - 2] = A[K - 1][K - 2];

  // Implicit QR on the unreduced block l..m, deflating from the bottom.
  // An off-diagonal entry is negligible below eps relative to its diagonal
  // neighbours (which keeps tiny eigenvalues of graded matrices accurate)
  // or below eps^2 in absolute terms (|A| = 1 now).
  const double eps = std::numeric_limits<double>::epsilon();
  auto negligible = [&](int i) {
    const double a = std::fabs(e[i]);
    return a <= eps * (std::fabs(dd[i]) + std::fabs(dd[i + 1])) || a <= eps * eps;
  };
  int m = K - 1, iterations = 0;
  while (m > 0) {
    if (negligible(m - 1)) {
      e[m - 1] = 0.0;
      --m;
      continue;
    }
    if (++iterations > 30 * K) return false;
    int l = m - 1;
    while (l > 0 && !negligible(l - 1)) --l;
    // Wilkinson shift: the eigenvalue of the trailing 2 x 2 nearer dd[m]
    const double td = 0.5 * (dd[m - 1] - dd[m]);
    const double em = e[m - 1];
    const double mu =
        dd[m] - em * em / (td + (td >= 0 ? 1.0 : -1.0) * std::sqrt(td * td + em * em));
    double x = dd[l] - mu, z = e[l];
    for (int k = l; k < m; ++k) {
      // G = [c s; -s c] with G (x, z)^T = (r, 0)^T; T <- G T G^T on k, k + 1.
      // The 2 x 2 update needs only c^2, s^2 and cs, i.e. one division by
      // r^2; r itself (a square root, for c and s) runs alongside, off the
      // critical path from one rotation to the next.
      const double r2 = x * x + z * z;
      double c = 1.0, s = 0.0, c2 = 1.0, s2 = 0.0, cs = 0.0;
      if (r2 > 0.0) {
        const double inv2 = 1.0 / r2;
        const double r = std::sqrt(r2);
        c2 = x * x * inv2;
        s2 = z * z * inv2;
        cs = x * z * inv2;
        c = x * r * inv2;
        s = z * r * inv2;
        if (k > l) e[k - 1] = r;
      } else if (k > l) {
        e[k - 1] = 0.0;
      }
      const double dk = dd[k], dk1 = dd[k + 1], ek = e[k];
      dd[k] = c2 * dk + 2.0 * cs * ek + s2 * dk1;
      dd[k + 1] = s2 * dk - 2.0 * cs * ek + c2 * dk1;
      e[k] = cs * (dk1 - dk) + (c2 - s2) * ek;
      if (k + 1 < m) {  // the bulge at (k, k + 2) is chased next
        x = e[k];
        z = s * e[k + 1];
        e[k + 1] *= c;
      }
      if (U) {  // U <- U G^T
        double* uk = Ud + K * k;
        for (int i = 0; i < K; ++i) {
          const double a = uk[i], b = uk[i + K];
          uk[i] = c * a + s * b;
          uk[i + K] = -s * a + c * b;
        }
      }
    }
  }
  for (int i = 0; i < K; ++i) d(i) = anorm * dd[i];
  // ascending (insertion sort; K is small)
  for (int i = 1; i < K; ++i)
    for (int j = i; j > 0 && d(j - 1) > d(j); --j) {
      std::swap(d(j - 1), d(j));
      if (U) U->col(j - 1).swap(U->col(j));
    }
  return true;
}

// Eigen's solver: dynamic sizes, and the fallback of the fixed-size one.
template <class M>
inline void eigen_sym_eigen(const M& A, Eigen::Matrix<double, M::RowsAtCompileTime, 1>& d,
                            M* U) {
  Eigen::SelfAdjointEigenSolver<M> es(
      0.5 * (A + A.transpose()), U ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
  d = es.eigenvalues();
  if (U) *U = es.eigenvectors();
}

template <class M, int K = M::RowsAtCompileTime>
struct SymEigenDispatch {
  static void run(const M& A, Eigen::Matrix<double, K, 1>& d, M* U) {
    if (!small_sym_eigen<K>(A, d, U)) eigen_sym_eigen<M>(A, d, U);
  }
};
template <class M>
struct SymEigenDispatch<M, Eigen::Dynamic> {
  static void run(const M& A, Eigen::VectorXd& d, M* U) { eigen_sym_eigen<M>(A, d, U); }
};

// Eigenvalues (ascending) and, if U is not null, eigenvectors of the
// symmetric matrix A, whatever its size.
template <class M>
inline void sym_eigen(const M& A, Eigen::Matrix<double, M::RowsAtCompileTime, 1>& d, M* U) {
  SymEigenDispatch<M>::run(A, d, U);
}

}  // namespace spd_ops
}  // namespace dpmanifold

#endif
