// Shared Rcpp glue: the frame of every exported function (errors, interrupts,
// threads), R's RNG behind the core's Rng interface, and the conversion of an
// R manifold object into a C++ manifold.
#ifndef DPMANIFOLD_GLUE_H
#define DPMANIFOLD_GLUE_H

#include <RcppEigen.h>

#include <memory>
#include <utility>

#include <dpmanifold_core/batch.hpp>
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

// R's generator; Rcpp attributes wrap every exported call in an RNGScope.
// Normal variates: the polar method of dpm::Rng on unif_rand(), so
// set.seed() and RNGkind(kind = ) reproduce them; RNGkind(normal.kind = )
// does not apply. Used on the calling thread only: the parallel passes of
// the core (batch.hpp) never draw.
class RRng : public dpm::Rng {
 public:
  double uniform() override { return R::unif_rand(); }
  double exponential() override { return R::exp_rand(); }
  double gamma(double shape, double scale) override { return R::rgamma(shape, scale); }
};

// The C++ manifold of an R manifold object (type, size): glue_geometry.cpp.
std::unique_ptr<dpm::Manifold> manifold_from_r(const Rcpp::List& M);

// Defined in glue_geometry.cpp: called inside a catch (...) block, rethrows
// what is in flight the way R should see it (see glue_call below).
[[noreturn]] void rethrow_for_r();
// Sets the number of threads of the core's parallel passes from
// options(dpmanifold.threads) (glue_geometry.cpp).
void threads_from_option();

// The frame of every exported function, written once:
//   return with_manifold(M, [&](const dpm::Manifold& m) { ... });
//   return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) { ... });
//   return glue_call([&] { ... });             // no manifold
// Any std::exception becomes dpmanifold_error with the same message
// (std::bad_alloc with a readable one); an interrupt or an expired time
// limit (dpm::Interrupted) becomes the classed R error
// dpmanifold_interrupted once the C++ frames are unwound; Rcpp's own
// signals pass through untouched.
template <class F>
auto glue_call(F&& f) -> decltype(f()) {
  try {
    threads_from_option();
    return f();
  } catch (...) {
    rethrow_for_r();
  }
}
template <class F>
auto with_manifold(const Rcpp::List& M, F&& f) -> decltype(f(std::declval<const dpm::Manifold&>())) {
  return glue_call([&] {
    const std::unique_ptr<dpm::Manifold> m = manifold_from_r(M);
    return f(*m);
  });
}
template <class F>
auto with_manifold_rng(const Rcpp::List& M, F&& f)
    -> decltype(f(std::declval<const dpm::Manifold&>(), std::declval<dpm::Rng&>())) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    RRng rng;
    return f(m, static_cast<dpm::Rng&>(rng));
  });
}

// The same frame for bodies written between two macros (older glue files):
//   Rcpp::List cpp_f(...) { DPM_GLUE_BEGIN ... DPM_GLUE_END }
#define DPM_GLUE_BEGIN \
  try {                \
    threads_from_option();
#define DPM_GLUE_END \
  }                  \
  catch (...) {      \
    rethrow_for_r(); \
  }

// The points of an R matrix of doubles (ambient_dim x n), read in place: a
// pass over 1e7 points should not begin by copying them. R's integer
// matrices arrive converted (Rcpp copies those); a vector is one column.
inline Eigen::Map<const Eigen::MatrixXd> points_in_place(const Rcpp::NumericVector& x) {
  SEXP dim = Rf_getAttrib(x, R_DimSymbol);
  if (Rf_length(dim) == 2) return Eigen::Map<const Eigen::MatrixXd>(x.begin(), INTEGER(dim)[0], INTEGER(dim)[1]);
  return Eigen::Map<const Eigen::MatrixXd>(x.begin(), x.size(), 1);
}
inline Eigen::Map<const Eigen::VectorXd> vector_in_place(const Rcpp::NumericVector& x) {
  return Eigen::Map<const Eigen::VectorXd>(x.begin(), x.size());
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
