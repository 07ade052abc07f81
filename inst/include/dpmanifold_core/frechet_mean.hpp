// Weighted Frechet mean by Riemannian gradient descent with Armijo
// backtracking, so every accepted step decreases the objective. Each
// evaluation at a point is one parallel pass over the data (batch.hpp) that
// gives the objective and the gradient together: an accepted step's
// gradient is the next iteration's, so an iteration costs one pass.
#ifndef DPMANIFOLD_FRECHET_MEAN_HPP
#define DPMANIFOLD_FRECHET_MEAN_HPP

#include "batch.hpp"

namespace dpmanifold {

struct FrechetResult {
  Vec mean;
  int iterations = 0;
  double grad_norm = 0.0;
  double objective = 0.0;
  bool converged = false;
};

// The objective F(x) = sum_j w_j dist(x, x_j)^2 / (2 sum_j w_j) and the
// descent direction -grad F(x) = sum_j w_j log_x(x_j) / sum_j w_j at x.
struct FrechetState {
  Vec x, g;
  double F = 0.0;
};
inline FrechetState frechet_state(const Manifold& M, const Vec& x, const ConstPoints& X, const ConstWeights& w,
                                  double wsum) {
  FrechetSums s = frechet_sums(M, x, X, w);
  return {x, s.g / wsum, s.f / (2.0 * wsum)};
}

inline double frechet_objective(const Manifold& M, const Vec& x, const ConstPoints& X, const ConstWeights& w) {
  return frechet_state(M, x, X, w, w.sum()).F;
}
inline Vec frechet_descent_direction(const Manifold& M, const Vec& x, const ConstPoints& X, const ConstWeights& w) {
  return frechet_state(M, x, X, w, w.sum()).g;
}

// The unit step exp_x(grad) is exact on flat metrics (one iteration on R^d
// and log-Euclidean SPD: the closed form); elsewhere backtracking halves it
// until the Armijo condition F(new) <= F(x) - c t |g|^2 holds.
inline FrechetResult frechet_mean(const Manifold& M, const ConstPoints& X, const ConstWeights& w, const Vec& x0,
                                  int max_iter, double tol) {
  FrechetResult res;
  const double wsum = w.sum();
  FrechetState cur = frechet_state(M, x0, X, w, wsum);
  const double c = 1e-4;
  int it = 0;
  for (; it < max_iter; ++it) {
    poll_interrupt();
    const double gn = M.norm(cur.x, cur.g);
    res.grad_norm = gn;
    if (gn <= tol) {
      res.converged = true;
      break;
    }
    double t = 1.0;
    bool moved = false;
    while (t > 1e-12) {
      FrechetState next = frechet_state(M, M.exp(cur.x, t * cur.g), X, w, wsum);
      // Once the Armijo decrease is below the rounding error of F, comparing
      // values of F accepts or rejects at random and the gradient stalls
      // near sqrt(machine eps); there, accept a step that reduces |grad F|.
      const bool accept = c * t * gn * gn > 1e-12 * std::abs(cur.F)
                              ? next.F <= cur.F - c * t * gn * gn
                              : M.norm(next.x, next.g) < gn;
      if (accept) {
        cur = std::move(next);
        moved = true;
        break;
      }
      t *= 0.5;
    }
    if (!moved) {  // no decrease possible at machine precision: stationary
      res.converged = gn <= std::sqrt(tol);
      break;
    }
  }
  if (it == max_iter) {
    res.grad_norm = M.norm(cur.x, cur.g);
    res.converged = res.grad_norm <= tol;
  }
  res.mean = cur.x;
  res.iterations = it;
  res.objective = cur.F;
  return res;
}

}  // namespace dpmanifold

#endif
