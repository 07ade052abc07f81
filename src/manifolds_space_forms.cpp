// The manifolds whose geometry is the sphere's or flat, compiled once:
// Euclidean space, the sphere, hyperbolic space and Kendall's shape space
// (no R here; the factory in factory.hpp calls these constructors).
#include <dpmanifold_core/euclidean.hpp>
#include <dpmanifold_core/factory.hpp>
#include <dpmanifold_core/hyperbolic.hpp>
#include <dpmanifold_core/kendall.hpp>
#include <dpmanifold_core/sphere.hpp>

namespace dpmanifold {
std::unique_ptr<Manifold> make_euclidean(int d) { return std::unique_ptr<Manifold>(new Euclidean(d)); }
std::unique_ptr<Manifold> make_sphere(int d) { return std::unique_ptr<Manifold>(new Sphere(d)); }
std::unique_ptr<Manifold> make_hyperbolic(int d) { return std::unique_ptr<Manifold>(new Hyperbolic(d)); }
std::unique_ptr<Manifold> make_kendall_shape(int k) { return std::unique_ptr<Manifold>(new KendallShape(k)); }
}  // namespace dpmanifold
