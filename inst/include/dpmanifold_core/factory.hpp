// The one place a manifold is chosen by name.
#ifndef DPMANIFOLD_FACTORY_HPP
#define DPMANIFOLD_FACTORY_HPP

#include <memory>

#include "euclidean.hpp"
#include "hyperbolic.hpp"
#include "kendall.hpp"
#include "sphere.hpp"
#include "spd.hpp"

namespace dpmanifold {

// An SPD metric with k fixed at compile time for small k (no heap allocation
// inside the matrix algebra), Eigen::Dynamic otherwise.
template <template <int> class SPD>
inline std::unique_ptr<Manifold> make_spd(int k) {
  switch (k) {
    case 2: return std::unique_ptr<Manifold>(new SPD<2>(k));
    case 3: return std::unique_ptr<Manifold>(new SPD<3>(k));
    case 4: return std::unique_ptr<Manifold>(new SPD<4>(k));
    case 5: return std::unique_ptr<Manifold>(new SPD<5>(k));
    case 6: return std::unique_ptr<Manifold>(new SPD<6>(k));
    default: return std::unique_ptr<Manifold>(new SPD<Eigen::Dynamic>(k));
  }
}

inline std::unique_ptr<Manifold> make_manifold(const std::string& type, int size) {
  if (type == "euclidean") return std::unique_ptr<Manifold>(new Euclidean(size));
  if (type == "sphere") return std::unique_ptr<Manifold>(new Sphere(size));
  if (type == "spd_affine_invariant") return make_spd<SPDAffineInvariantT>(size);
  if (type == "spd_log_euclidean") return make_spd<SPDLogEuclideanT>(size);
  if (type == "kendall_shape") return std::unique_ptr<Manifold>(new KendallShape(size));
  if (type == "hyperbolic") return std::unique_ptr<Manifold>(new Hyperbolic(size));
  throw std::invalid_argument("unknown manifold type '" + type + "'");
}

}  // namespace dpmanifold

#endif
