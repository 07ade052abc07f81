// The one place a manifold is chosen by name.
//
// Each family's constructor is declared here and defined once, out of line,
// in its own translation unit (the package: src/manifolds_space_forms.cpp,
// src/manifolds_spd.cpp), so that no compiler process instantiates every
// manifold class. A host that uses the headers alone defines them the same
// way (one line each).
#ifndef DPMANIFOLD_FACTORY_HPP
#define DPMANIFOLD_FACTORY_HPP

#include <memory>
#include <stdexcept>
#include <string>

#include "manifold.hpp"

namespace dpmanifold {

std::unique_ptr<Manifold> make_euclidean(int d);
std::unique_ptr<Manifold> make_sphere(int d);
std::unique_ptr<Manifold> make_hyperbolic(int d);
std::unique_ptr<Manifold> make_kendall_shape(int k);
std::unique_ptr<Manifold> make_spd_affine_invariant(int k);
std::unique_ptr<Manifold> make_spd_log_euclidean(int k);

inline std::unique_ptr<Manifold> make_manifold(const std::string& type, int size) {
  if (type == "euclidean") return make_euclidean(size);
  if (type == "sphere") return make_sphere(size);
  if (type == "spd_affine_invariant") return make_spd_affine_invariant(size);
  if (type == "spd_log_euclidean") return make_spd_log_euclidean(size);
  if (type == "kendall_shape") return make_kendall_shape(size);
  if (type == "hyperbolic") return make_hyperbolic(size);
  throw std::invalid_argument("unknown manifold type '" + type + "'");
}

}  // namespace dpmanifold

#endif
