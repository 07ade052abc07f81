// Random-number interface of the C++ core. The R glue implements it with R's
// own generator (unif_rand, exp_rand, rgamma; normals by the polar method
// below on unif_rand) so set.seed() reproduces every release; the headers
// never create a generator of their own.
#ifndef DPMANIFOLD_RNG_HPP
#define DPMANIFOLD_RNG_HPP

#include <cmath>

namespace dpmanifold {

class Rng {
 public:
  virtual ~Rng() = default;
  virtual double uniform() = 0;      // U(0, 1), never exactly 0 or 1
  virtual double exponential() = 0;  // Exp(1)
  virtual double gamma(double shape, double scale) = 0;
  // N(0, 1) by Marsaglia's polar method on uniform(), in pairs (the second
  // of a pair is kept for the next call): half the cost of R's inversion
  // (bench/small_kernels.R), and reproduced by whatever seeds uniform().
  // The tails reach |z| ~ 9 with 32-bit uniforms (inversion: ~8.3).
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }

 private:
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace dpmanifold

#endif
