// Weighted Frechet mean by Riemannian gradient descent with Armijo
// backtracking, so every accepted step decreases the objective.
#ifndef DPMANIFOLD_FRECHET_MEAN_HPP
#define DPMANIFOLD_FRECHET_MEAN_HPP

#include "manifold.hpp"

namespace dpmanifold {

struct FrechetResult {
  Vec mean;
  int iterations = 0;
  double grad_norm = 0.0;
  double objective = 0.0;
  bool converged = false;
};

// F(x) = sum_j w_j dist(x, x_j)^2 / (2 sum_j w_j).
inline double frechet_objective(const Manifold& M, const Vec& x, const Mat& X, const Vec& w) {
  double s = 0.0;
  auto dist_x = M.dist_from(x);
  for (int j = 0; j < X.cols(); ++j) {
    poll_interrupt();
    double d = dist_x(X.col(j));
    s += w(j) * d * d;
  }
  return s / (2.0 * w.sum());
}

// Minus the Riemannian gradient of F at x: the weighted mean of log_x(x_j).
inline Vec frechet_descent_direction(const Manifold& M, const Vec& x, const Mat& X, const Vec& w) {
  Vec g = Vec::Zero(x.size());
  for (int j = 0; j < X.cols(); ++j) {
    poll_interrupt();
    g += w(j) * M.log(x, X.col(j));
  }
  return g / w.sum();
}

// The unit step exp_x(grad) is exact on flat metrics (one iteration on R^d
// and log-Euclidean SPD: the closed form); elsewhere backtracking halves it
// until the Armijo condition F(new) <= F(x) - c t |g|^2 holds.
inline FrechetResult frechet_mean(const Manifold& M, const Mat& X, const Vec& w, const Vec& x0,
                                  int max_iter, double tol) {
  FrechetResult res;
  Vec x = x0;
  double F = frechet_objective(M, x, X, w);
  const double c = 1e-4;
  int it = 0;
  for (; it < max_iter; ++it) {
    poll_interrupt();
    Vec g = frechet_descent_direction(M, x, X, w);
    double gn = M.norm(x, g);
    res.grad_norm = gn;
    if (gn <= tol) {
      res.converged = true;
      break;
    }
    double t = 1.0;
    bool moved = false;
    while (t > 1e-12) {
      Vec y = M.exp(x, t * g);
      double Fy = frechet_objective(M, y, X, w);
      // Once the Armijo decrease is below the rounding error of F, comparing
      // values of F accepts or rejects at random and the gradient stalls
      // near sqrt(machine eps); there, accept a step that reduces |grad F|.
      bool accept = c * t * gn * gn > 1e-12 * std::abs(F)
                        ? Fy <= F - c * t * gn * gn
                        : M.norm(y, frechet_descent_direction(M, y, X, w)) < gn;
      if (accept) {
        x = y;
        F = Fy;
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
    Vec g = frechet_descent_direction(M, x, X, w);
    res.grad_norm = M.norm(x, g);
    res.converged = res.grad_norm <= tol;
  }
  res.mean = x;
  res.iterations = it;
  res.objective = F;
  return res;
}

}  // namespace dpmanifold

#endif
