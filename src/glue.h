// Shared Rcpp glue: R's RNG behind the core's Rng interface, and the
// conversion of an R manifold object into a C++ manifold.
#ifndef DPMANIFOLD_GLUE_H
#define DPMANIFOLD_GLUE_H

#include <RcppEigen.h>

#include <dpmanifold_core/factory.hpp>
#include <dpmanifold_core/jacobi.hpp>

namespace dpm = dpmanifold;

// R's generator; Rcpp attributes wrap every exported call in an RNGScope.
class RRng : public dpm::Rng {
 public:
  double uniform() override { return R::unif_rand(); }
  double normal() override { return R::norm_rand(); }
  double exponential() override { return R::exp_rand(); }
  double gamma(double shape, double scale) override { return R::rgamma(shape, scale); }
};

inline std::unique_ptr<dpm::Manifold> manifold_from_r(const Rcpp::List& M) {
  std::string type = Rcpp::as<std::string>(M["type"]);
  int size = Rcpp::as<int>(M["size"]);
  return dpm::make_manifold(type, size);
}

// Column j of an ambient x n matrix, recycling a single column.
inline Eigen::VectorXd col_recycled(const Eigen::MatrixXd& X, int j) {
  return X.col(X.cols() == 1 ? 0 : j);
}

inline int recycled_count(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
  if (A.cols() != B.cols() && A.cols() != 1 && B.cols() != 1)
    throw std::invalid_argument("numbers of points differ and neither is 1");
  return std::max(A.cols(), B.cols());
}

#endif
