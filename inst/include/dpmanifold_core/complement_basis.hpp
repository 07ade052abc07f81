// Orthonormal basis of the orthogonal complement of a few vectors in R^D,
// without ever forming a D x D matrix.
//
// The tangent space of the sphere at p is the complement of p; Kendall's
// horizontal space at z is the complement of {1_x, 1_y, z, iz}. With
// A = [a_1 ... a_m] (independent columns, m << D) and its Householder QR
// factorisation A = Q R, Q = H_1 ... H_m, the first m columns of Q span A
// and the last D - m are an orthonormal basis of the complement. Q is kept
// as m reflections, so coordinates (Q^T v, last D - m entries) and their
// inverse cost O(m D); the explicit basis costs O(m D^2), its size.
#ifndef DPMANIFOLD_COMPLEMENT_BASIS_HPP
#define DPMANIFOLD_COMPLEMENT_BASIS_HPP

#include <Eigen/Dense>

#include <cmath>
#include <limits>

#include "interrupt.hpp"

namespace dpmanifold {

class ComplementBasis {
 public:
  // Householder QR of A (Eigen's conventions: H_k = I - tau_k u_k u_k^T,
  // u_k = (0, ..., 0, 1, essential), beta = -sign(a_kk) |column|), in plain
  // loops: for m <= 4 columns the reflections are O(m D) and need none of
  // the blocked machinery of Eigen's HouseholderQR.
  explicit ComplementBasis(const Eigen::MatrixXd& A)
      : u_(A), tau_(A.cols()), D_(static_cast<int>(A.rows())), m_(static_cast<int>(A.cols())) {
    for (int k = 0; k < m_; ++k) {
      double* col = u_.col(k).data();
      double tail = 0.0;
      for (int i = k + 1; i < D_; ++i) tail += col[i] * col[i];
      const double c0 = col[k];
      if (tail <= std::numeric_limits<double>::min()) {
        tau_(k) = 0.0;
        for (int i = k + 1; i < D_; ++i) col[i] = 0.0;
      } else {
        double beta = std::sqrt(c0 * c0 + tail);
        if (c0 >= 0.0) beta = -beta;
        for (int i = k + 1; i < D_; ++i) col[i] /= c0 - beta;
        tau_(k) = (beta - c0) / beta;
      }
      col[k] = 1.0;
      for (int j = k + 1; j < m_; ++j) reflect(u_.col(j).data(), k);
    }
  }

  int size() const { return D_ - m_; }

  // Coordinates of v in the basis (the component of v along A is dropped).
  Eigen::VectorXd coords(const Eigen::VectorXd& v) const {
    Eigen::VectorXd w = v;
    for (int k = 0; k < m_; ++k) reflect(w.data(), k);  // Q^T v = H_(m-1) ... H_0 v
    return w.tail(D_ - m_);
  }
  // sum_i z_i b_i.
  Eigen::VectorXd from_coords(const Eigen::VectorXd& z) const {
    Eigen::VectorXd w(D_);
    w.head(m_).setZero();
    w.tail(D_ - m_) = z;
    for (int k = m_ - 1; k >= 0; --k) reflect(w.data(), k);  // Q w = H_0 ... H_(m-1) w
    return w;
  }
  // The basis as a D x (D - m) matrix, one column at a time.
  Eigen::MatrixXd basis() const {
    Eigen::MatrixXd B = Eigen::MatrixXd::Zero(D_, D_ - m_);
    for (int j = 0; j < D_ - m_; ++j) {
      poll_interrupt(4.0 * m_ * D_);
      B(m_ + j, j) = 1.0;
      for (int k = m_ - 1; k >= 0; --k) reflect(B.col(j).data(), k);
    }
    return B;
  }

 private:
  // w <- H_k w (w of length D)
  void reflect(double* w, int k) const {
    const double* u = u_.col(k).data();
    double s = 0.0;
    for (int i = k; i < D_; ++i) s += u[i] * w[i];
    s *= tau_(k);
    for (int i = k; i < D_; ++i) w[i] -= s * u[i];
  }
  Eigen::MatrixXd u_;  // column k: u_k from row k on (1 at row k)
  Eigen::VectorXd tau_;
  int D_, m_;
};

}  // namespace dpmanifold

#endif
