// The R side of the Metropolis-Hastings settings and results (samplers.hpp).
#ifndef DPMANIFOLD_GLUE_MCMC_H
#define DPMANIFOLD_GLUE_MCMC_H

#include "glue.h"

#include <dpmanifold_core/samplers.hpp>

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
