// Umbrella header of the dpmanifold C++ core, for packages that use
// LinkingTo: dpmanifold. The headers live in dpmanifold_core/ because
// R CMD build drops every directory whose name ends in "old" (so a
// directory called "dpmanifold" never reaches the tarball). The factory's
// constructors (factory.hpp) are defined by the host, one line each (the
// package: src/manifolds_*.cpp).
#ifndef DPMANIFOLD_HPP
#define DPMANIFOLD_HPP
#include "dpmanifold_core/factory.hpp"
#include "dpmanifold_core/euclidean.hpp"
#include "dpmanifold_core/sphere.hpp"
#include "dpmanifold_core/hyperbolic.hpp"
#include "dpmanifold_core/kendall.hpp"
#include "dpmanifold_core/spd.hpp"
#include "dpmanifold_core/batch.hpp"
#include "dpmanifold_core/status.hpp"
#include "dpmanifold_core/jacobi.hpp"
#include "dpmanifold_core/frechet_mean.hpp"
#include "dpmanifold_core/samplers.hpp"
#include "dpmanifold_core/laplace_exact.hpp"
#include "dpmanifold_core/kng_exact.hpp"
#include "dpmanifold_core/regression.hpp"
#include "dpmanifold_core/release_frechet.hpp"
#endif
