// The one place a manifold is chosen by name.
#ifndef DPMANIFOLD_FACTORY_HPP
#define DPMANIFOLD_FACTORY_HPP

#include <memory>

#include "euclidean.hpp"
#include "kendall.hpp"
#include "sphere.hpp"
#include "spd.hpp"

namespace dpmanifold {

inline std::unique_ptr<Manifold> make_manifold(const std::string& type, int size) {
  if (type == "euclidean") return std::unique_ptr<Manifold>(new Euclidean(size));
  if (type == "sphere") return std::unique_ptr<Manifold>(new Sphere(size));
  if (type == "spd_affine_invariant") return std::unique_ptr<Manifold>(new SPDAffineInvariant(size));
  if (type == "spd_log_euclidean") return std::unique_ptr<Manifold>(new SPDLogEuclidean(size));
  if (type == "kendall_shape") return std::unique_ptr<Manifold>(new KendallShape(size));
  throw std::invalid_argument("unknown manifold type '" + type + "'");
}

}  // namespace dpmanifold

#endif
