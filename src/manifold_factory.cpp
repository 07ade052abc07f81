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
