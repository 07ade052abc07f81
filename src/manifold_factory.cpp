// The R boundary of the manifold factory: an R manifold object (type, size)
// becomes a C++ manifold. Kept in its own translation unit because
// factory.hpp instantiates every size-specialised SPD class.
#include "glue.h"

#include <dpmanifold_core/factory.hpp>

std::unique_ptr<dpm::Manifold> manifold_from_r(const Rcpp::List& M) {
  std::string type = Rcpp::as<std::string>(M["type"]);
  int size = Rcpp::as<int>(M["size"]);
  return dpm::make_manifold(type, size);
}

// Long loops of the core poll for interrupts through this checker (a pending
// Ctrl-C or an expired setTimeLimit() makes Rcpp throw, and the exported
// call ends with R's interrupt condition). Installed when the library loads.
namespace {
void r_check_interrupt() { Rcpp::checkUserInterrupt(); }
const bool interrupt_checker_installed = (dpm::set_interrupt_checker(&r_check_interrupt), true);
}  // namespace
