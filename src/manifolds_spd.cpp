// SPD(k) with its two metrics, compiled once (no R here; the factory in
// factory.hpp calls these constructors). One class per metric, of any size:
// the classes with k fixed at compile time (2..6) cost 4-5 s of compilation
// each; what they bought (1.3-1.7x per point at k = 3) the batch kernels
// buy for the passes over data (bench/small_kernels.R).
#include <dpmanifold_core/factory.hpp>
#include <dpmanifold_core/spd.hpp>

namespace dpmanifold {
std::unique_ptr<Manifold> make_spd_affine_invariant(int k) {
  return std::unique_ptr<Manifold>(new SPDAffineInvariant(k));
}
std::unique_ptr<Manifold> make_spd_log_euclidean(int k) {
  return std::unique_ptr<Manifold>(new SPDLogEuclidean(k));
}
}  // namespace dpmanifold
