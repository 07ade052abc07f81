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

#include "interrupt.hpp"

namespace dpmanifold {

class ComplementBasis {
 public:
  explicit ComplementBasis(const Eigen::MatrixXd& A)
      : qr_(A), D_(static_cast<int>(A.rows())), m_(static_cast<int>(A.cols())) {}

  int size() const { return D_ - m_; }

  // Coordinates of v in the basis (the component of v along A is dropped).
  Eigen::VectorXd coords(const Eigen::VectorXd& v) const {
    Eigen::VectorXd w = qr_.householderQ().adjoint() * v;
    return w.tail(D_ - m_);
  }
  // sum_i z_i b_i.
  Eigen::VectorXd from_coords(const Eigen::VectorXd& z) const {
    Eigen::VectorXd w(D_);
    w.head(m_).setZero();
    w.tail(D_ - m_) = z;
    return qr_.householderQ() * w;
  }
  // The basis as a D x (D - m) matrix, one column at a time.
  Eigen::MatrixXd basis() const {
    Eigen::MatrixXd B(D_, D_ - m_);
    Eigen::VectorXd w(D_);
    for (int j = 0; j < D_ - m_; ++j) {
      poll_interrupt();
      w.setZero();
      w(m_ + j) = 1.0;
      B.col(j) = qr_.householderQ() * w;
    }
    return B;
  }

 private:
  Eigen::HouseholderQR<Eigen::MatrixXd> qr_;
  int D_, m_;
};

}  // namespace dpmanifold

#endif
