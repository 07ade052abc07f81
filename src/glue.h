// Shared Rcpp glue: R's RNG behind the core's Rng interface, and the
// conversion of an R manifold object into a C++ manifold.
#ifndef DPMANIFOLD_GLUE_H
#define DPMANIFOLD_GLUE_H

#include <RcppEigen.h>

#include <memory>

#include <dpmanifold_core/kendall.hpp>
#include <dpmanifold_core/manifold.hpp>
#include <dpmanifold_core/jacobi.hpp>
#include <dpmanifold_core/frechet_mean.hpp>
#include <dpmanifold_core/samplers.hpp>
#include <dpmanifold_core/regression.hpp>

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

// Defined in manifold_factory.cpp, the only translation unit that includes
// factory.hpp (so the size-specialised SPD classes are compiled once).
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

inline dpm::MCMCSettings mcmc_from_r(const Rcpp::List& s) {
  dpm::MCMCSettings out;
  out.burnin = Rcpp::as<int>(s["burnin"]);
  out.thin = Rcpp::as<int>(s["thin"]);
  out.n_draws = Rcpp::as<int>(s["n_draws"]);
  out.step = Rcpp::as<double>(s["step"]);
  out.keep_chain = Rcpp::as<bool>(s["keep_chain"]);
  return out;
}

// Draws and the chain's public settings only: nothing about its path
// (acceptance, moves) leaves the sampler (SPEC section 6).
inline Rcpp::List mcmc_to_r(const dpm::MCMCResult& r, const dpm::MCMCSettings& s) {
  Rcpp::List out = Rcpp::List::create(
      Rcpp::Named("draws") = r.draws, Rcpp::Named("method") = "metropolis_hastings",
      Rcpp::Named("burnin") = s.burnin,
      Rcpp::Named("steps") = static_cast<double>(s.thin) * s.n_draws);
  if (s.keep_chain) out["chain"] = r.chain;
  return out;
}
#endif
