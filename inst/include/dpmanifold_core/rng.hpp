// Random-number interface of the C++ core. The R glue implements it with R's
// own generator (unif_rand, exp_rand, rgamma; normals by the polar method on
// unif_rand, see src/glue.h) so set.seed() reproduces every release; the
// headers never create a generator of their own.
#ifndef DPMANIFOLD_RNG_HPP
#define DPMANIFOLD_RNG_HPP

#include <cmath>

namespace dpmanifold {

class Rng {
 public:
  virtual ~Rng() = default;
  virtual double uniform() = 0;      // U(0, 1), never exactly 0 or 1
  virtual double normal() = 0;       // N(0, 1)
  virtual double exponential() = 0;  // Exp(1)
  virtual double gamma(double shape, double scale) = 0;
};

}  // namespace dpmanifold

#endif
