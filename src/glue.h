// Shared Rcpp glue: R's RNG behind the core's Rng interface, and the
// conversion of an R manifold object into a C++ manifold.
#ifndef DPMANIFOLD_GLUE_H
#define DPMANIFOLD_GLUE_H

#include <RcppEigen.h>

#include <memory>

#include <dpmanifold_core/manifold.hpp>

namespace dpm = dpmanifold;

// Errors of the core reach R as conditions of class "dpmanifold_error": Rcpp
// turns a C++ exception into an R error whose first class is the demangled
// name of the exception's type, so this type lives in the global namespace
// under exactly that name. (Input is validated in R first; this is the net
// under what slips through, and under allocations beyond the machine.)
class dpmanifold_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Wrap the body of every exported glue function:
//   Rcpp::List cpp_f(...) { DPM_GLUE_BEGIN ... DPM_GLUE_END }
// Any std::exception becomes dpmanifold_error with the same message
// (std::bad_alloc with a readable one); R's interrupt (Rcpp's
// InterruptedException, not a std::exception) passes through untouched.
#define DPM_GLUE_BEGIN try {
#define DPM_GLUE_END                                                                  \
  }                                                                                   \
  catch (const dpmanifold_error&) {                                                   \
    throw;                                                                            \
  }                                                                                   \
  catch (const std::bad_alloc&) {                                                     \
    throw dpmanifold_error("not enough memory for the result of this call");          \
  }                                                                                   \
  catch (const std::exception& dpm_ex) {                                              \
    throw dpmanifold_error(dpm_ex.what());                                            \
  }

// R's generator; Rcpp attributes wrap every exported call in an RNGScope.
// Normal variates: the polar method of dpm::Rng on unif_rand(), so
// set.seed() and RNGkind(kind = ) reproduce them; RNGkind(normal.kind = )
// does not apply.
class RRng : public dpm::Rng {
 public:
  double uniform() override { return R::unif_rand(); }
  double exponential() override { return R::exp_rand(); }
  double gamma(double shape, double scale) override { return R::rgamma(shape, scale); }
};

// The C++ manifold of an R manifold object (type, size): manifold_glue.cpp.
std::unique_ptr<dpm::Manifold> manifold_from_r(const Rcpp::List& M);

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
