// Symmetric eigendecomposition, the cost centre of every SPD operation: a
// direct implementation of the textbook method, Householder
// tridiagonalisation and implicit symmetric QR steps with Wilkinson shifts
// (Golub and Van Loan, Algorithms 8.3.1 and 8.3.3). At sizes fixed at
// compile time it runs on constant-bound loops: 1.5-2x faster than Eigen's
// SelfAdjointEigenSolver from 3x3 to 6x6 and 3x at 2x2
// (bench/small_kernels.R), whose generic code dominates at these sizes,
// with the same backward stability. Eigen's solver is not used at all (it
// alone costs 2 s of compilation per matrix type). At sizes known only at
// run time it polls for interrupts (interrupt.hpp) once per Householder
// column and per QR sweep: one decomposition takes seconds from k = 1000.
#ifndef DPMANIFOLD_SYM_EIGEN_HPP
#define DPMANIFOLD_SYM_EIGEN_HPP

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "interrupt.hpp"

namespace dpmanifold {
namespace spd_ops {

// Eigenvalues d (ascending) and, if U is not null, orthonormal eigenvectors
// (columns of U, column-major n x n) of the symmetric n x n matrix A0
// (column-major), n = K when K is fixed at compile time, else the runtime k.
// `work` holds n (n + 5) doubles. Returns false when the input is not finite
// or the QR iteration did not converge (then d and U are NaN). One code for
// both: with K fixed, the loops have constant bounds and plain arrays, which
// is what makes the small sizes fast.
template <int K>
inline bool sym_eigen_qr(int k, const double* A0, double* d, double* Ud, double* work) {
  const int n = K > 0 ? K : k;
  auto fail = [&]() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int i = 0; i < n; ++i) d[i] = nan;
    if (Ud)
      for (int i = 0; i < n * n; ++i) Ud[i] = nan;
    return false;
  };
  // scale to max |a_ij| = 1: no overflow or underflow in the rotations
  double anorm = 0.0;
  for (int i = 0; i < n * n; ++i) anorm = std::max(anorm, std::fabs(A0[i]));
  for (int i = 0; i < n * n; ++i)
    if (!std::isfinite(A0[i])) return fail();
  if (Ud)  // U(i, j) = Ud[i + n * j]
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) Ud[i + n * j] = i == j ? 1.0 : 0.0;
  if (anorm == 0.0) {
    for (int i = 0; i < n; ++i) d[i] = 0.0;
    return true;
  }
  // A(i, j) = A[i * n + j]; e[i] couples i and i + 1
  double* A = work;
  double* dd = A + n * n;
  double* e = dd + n;
  double* v = e + n;
  double* p = v + n;
  double* w = p + n;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) A[i * n + j] = (0.5 / anorm) * (A0[i + n * j] + A0[j + n * i]);
  e[n - 1] = 0.0;

  // Householder tridiagonalisation: A <- H A H with H = I - beta v v^T
  // zeroing A(k+2:, k); U accumulates the product of the H.
  for (int c = 0; c + 2 < n; ++c) {
    if (K <= 0) poll_interrupt(4.0 * n * (n - c));
    double xnorm2 = 0.0;
    for (int i = c + 2; i < n; ++i) xnorm2 += A[i * n + c] * A[i * n + c];
    const double x0 = A[(c + 1) * n + c];
    if (xnorm2 == 0.0) {
      e[c] = x0;
      continue;
    }
    const double alpha = x0 >= 0 ? -std::sqrt(x0 * x0 + xnorm2) : std::sqrt(x0 * x0 + xnorm2);
    for (int i = 0; i <= c; ++i) v[i] = 0.0;
    v[c + 1] = x0 - alpha;
    for (int i = c + 2; i < n; ++i) v[i] = A[i * n + c];
    const double beta = 2.0 / (v[c + 1] * v[c + 1] + xnorm2);
    // p = beta A v, w = p - (beta / 2)(p . v) v, A <- A - v w^T - w v^T
    double pv = 0.0;
    for (int i = c + 1; i < n; ++i) {
      double s = 0.0;
      for (int j = c + 1; j < n; ++j) s += A[i * n + j] * v[j];
      p[i] = beta * s;
      pv += p[i] * v[i];
    }
    for (int i = c + 1; i < n; ++i) w[i] = p[i] - 0.5 * beta * pv * v[i];
    for (int j = c + 1; j < n; ++j)
      for (int i = c + 1; i < n; ++i) A[i * n + j] -= v[i] * w[j] + w[i] * v[j];
    e[c] = alpha;
    if (Ud) {  // U <- U H
      for (int i = 0; i < n; ++i) {
        double s = 0.0;
        for (int j = c + 1; j < n; ++j) s += Ud[i + n * j] * v[j];
        s *= beta;
        for (int j = c + 1; j < n; ++j) Ud[i + n * j] -= s * v[j];
      }
    }
  }
  for (int i = 0; i < n; ++i) dd[i] = A[i * n + i];
  if (n >= 2) e[n - 2] = A[(n - 1) * n + n - 2];

  // Implicit QR on the unreduced block l..m, deflating from the bottom.
  // An off-diagonal entry is negligible below eps relative to its diagonal
  // neighbours (which keeps tiny eigenvalues of graded matrices accurate)
  // or below eps^2 in absolute terms (|A| = 1 now).
  const double eps = std::numeric_limits<double>::epsilon();
  auto negligible = [&](int i) {
    const double a = std::fabs(e[i]);
    return a <= eps * (std::fabs(dd[i]) + std::fabs(dd[i + 1])) || a <= eps * eps;
  };
  int m = n - 1, iterations = 0;
  while (m > 0) {
    if (negligible(m - 1)) {
      e[m - 1] = 0.0;
      --m;
      continue;
    }
    if (++iterations > 30 * n) return fail();
    int l = m - 1;
    while (l > 0 && !negligible(l - 1)) --l;
    if (K <= 0) poll_interrupt((m - l + 1) * (Ud ? 6.0 * n : 10.0));
    // Wilkinson shift: the eigenvalue of the trailing 2 x 2 nearer dd[m]
    const double td = 0.5 * (dd[m - 1] - dd[m]);
    const double em = e[m - 1];
    const double mu =
        dd[m] - em * em / (td + (td >= 0 ? 1.0 : -1.0) * std::sqrt(td * td + em * em));
    double x = dd[l] - mu, z = e[l];
    for (int r = l; r < m; ++r) {
      // G = [c s; -s c] with G (x, z)^T = (rho, 0)^T; T <- G T G^T on r, r + 1.
      // The 2 x 2 update needs only c^2, s^2 and cs, i.e. one division by
      // rho^2; rho itself (a square root, for c and s) runs alongside, off
      // the critical path from one rotation to the next.
      const double r2 = x * x + z * z;
      double c = 1.0, s = 0.0, c2 = 1.0, s2 = 0.0, cs = 0.0;
      if (r2 > 0.0) {
        const double inv2 = 1.0 / r2;
        const double rho = std::sqrt(r2);
        c2 = x * x * inv2;
        s2 = z * z * inv2;
        cs = x * z * inv2;
        c = x * rho * inv2;
        s = z * rho * inv2;
        if (r > l) e[r - 1] = rho;
      } else if (r > l) {
        e[r - 1] = 0.0;
      }
      const double dk = dd[r], dk1 = dd[r + 1], ek = e[r];
      dd[r] = c2 * dk + 2.0 * cs * ek + s2 * dk1;
      dd[r + 1] = s2 * dk - 2.0 * cs * ek + c2 * dk1;
      e[r] = cs * (dk1 - dk) + (c2 - s2) * ek;
      if (r + 1 < m) {  // the bulge at (r, r + 2) is chased next
        x = e[r];
        z = s * e[r + 1];
        e[r + 1] *= c;
      }
      if (Ud) {  // U <- U G^T
        double* ur = Ud + n * r;
        for (int i = 0; i < n; ++i) {
          const double a = ur[i], b = ur[i + n];
          ur[i] = c * a + s * b;
          ur[i + n] = -s * a + c * b;
        }
      }
    }
  }
  for (int i = 0; i < n; ++i) d[i] = anorm * dd[i];
  // ascending (insertion sort; a few swaps at most in practice)
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && d[j - 1] > d[j]; --j) {
      std::swap(d[j - 1], d[j]);
      if (Ud)
        for (int r = 0; r < n; ++r) std::swap(Ud[r + n * (j - 1)], Ud[r + n * j]);
    }
  return true;
}

// Eigenvalues (ascending) and, if U is not null, eigenvectors of the
// symmetric matrix A, whatever its size (NaN when A is not finite).
// M may have a fixed size, a runtime size up to a fixed bound, or any size.
template <class M>
inline void sym_eigen(const M& A,
                      Eigen::Matrix<double, M::RowsAtCompileTime, 1, 0, M::MaxRowsAtCompileTime, 1>& d,
                      M* U) {
  constexpr int K = M::RowsAtCompileTime, KMax = M::MaxRowsAtCompileTime;
  const int k = static_cast<int>(A.rows());
  d.resize(k);
  if (U) U->resize(k, k);
  if (KMax > 0) {
    double work[KMax > 0 ? KMax * (KMax + 5) : 1];
    sym_eigen_qr<K>(k, A.data(), d.data(), U ? U->data() : nullptr, work);
  } else {
    std::vector<double> work(static_cast<size_t>(k) * (k + 5));
    sym_eigen_qr<K>(k, A.data(), d.data(), U ? U->data() : nullptr, work.data());
  }
}

}  // namespace spd_ops
}  // namespace dpmanifold

#endif
