// Geodesic regression (Fletcher 2013) and the pieces of its private
// release: energy, exact gradients through the Jacobi adjoints with optional
// residual clipping, a preconditioned Riemannian gradient descent, and the
// chain spaces of the KNG mechanisms on (p, v).
#ifndef DPMANIFOLD_REGRESSION_HPP
#define DPMANIFOLD_REGRESSION_HPP

#include <algorithm>
#include <vector>

#include "frechet_mean.hpp"
#include "jacobi.hpp"
#include "samplers.hpp"

namespace dpmanifold {

// Data (x_i, y_i) with x_i already rescaled to [0, 1]; residuals longer than
// tau are clipped to length tau inside the gradients (tau = inf: no clipping).
struct RegressionProblem {
  const Manifold& M;
  Vec x;
  Mat Y;
  double tau = std::numeric_limits<double>::infinity();
  int n() const { return static_cast<int>(x.size()); }
};

// E(p, v) = (1 / 2n) sum dist(exp_p(x_i v), y_i)^2.
inline double regression_energy(const RegressionProblem& P, const Vec& p, const Vec& v) {
  double s = 0.0;
  for (int i = 0; i < P.n(); ++i) {
    double d = P.M.dist(P.M.exp(p, P.x(i) * v), P.Y.col(i));
    s += d * d;
  }
  return s / (2.0 * P.n());
}

struct RegressionGradient {
  Vec gp, gv;        // Riemannian gradients of E at (p, v), tangent at p
  double energy = 0; // E(p, v) (with unclipped residuals)
  int clipped = 0;   // residuals longer than tau
};

// grad_p E = -(1/n) sum dExp_p^dagger eps_i, grad_v E = -(1/n) sum x_i
// dExp_v^dagger eps_i, eps_i = log_{yhat_i}(y_i) clipped to length tau.
inline RegressionGradient regression_gradient(const RegressionProblem& P, const Vec& p, const Vec& v) {
  const Manifold& M = P.M;
  RegressionGradient g;
  g.gp = Vec::Zero(p.size());
  g.gv = Vec::Zero(p.size());
  Vec ap, av;
  for (int i = 0; i < P.n(); ++i) {
    Vec xv = P.x(i) * v;
    Vec yhat = M.exp(p, xv);
    Vec eps = M.log(yhat, P.Y.col(i));
    double r = M.norm(yhat, eps);
    g.energy += r * r;
    if (r > P.tau) {
      eps *= P.tau / r;
      ++g.clipped;
    }
    adjoint_dexp_both(M, p, xv, yhat, eps, ap, av);
    g.gp -= ap;
    g.gv -= P.x(i) * av;
  }
  g.gp /= P.n();
  g.gv /= P.n();
  g.energy /= 2.0 * P.n();
  return g;
}

inline double joint_gradient_norm(const Manifold& M, const Vec& p, const RegressionGradient& g) {
  double s = M.inner(p, g.gp, g.gp) + M.inner(p, g.gv, g.gv);
  return s > 0 ? std::sqrt(s) : 0.0;
}

// Initial (p, v) from the Frechet means of the lowest and highest quarter of
// the covariate: robust on real data, exact for noise-free geodesic data.
inline void regression_init(const RegressionProblem& P, Vec& p, Vec& v) {
  const int n = P.n();
  std::vector<int> idx(n);
  for (int i = 0; i < n; ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](int a, int b) { return P.x(a) < P.x(b); });
  int m = std::max(1, n / 4);
  auto group_mean = [&](int from, double& xbar) {
    Mat G(P.Y.rows(), m);
    xbar = 0.0;
    for (int j = 0; j < m; ++j) {
      G.col(j) = P.Y.col(idx[from + j]);
      xbar += P.x(idx[from + j]);
    }
    xbar /= m;
    return frechet_mean(P.M, G, Vec::Ones(m), G.col(0), 200, 1e-12).mean;
  };
  double xl, xh;
  Vec lo = group_mean(0, xl), hi = group_mean(n - m, xh);
  if (xh - xl <= 0) throw std::invalid_argument("the covariate is constant");
  v = P.M.log(lo, hi) / (xh - xl);
  p = P.M.exp(lo, -xl * v);
  v = P.M.transport_along(lo, -xl * v, v);
}

struct RegressionFit {
  Vec p, v;
  int iterations = 0;
  double energy = 0.0, grad_norm = 0.0;
  bool converged = false;
};

// Riemannian gradient descent on (p, v), preconditioned by the inverse of
// the Gauss-Newton matrix of the flat case, H = [[1, mean x], [mean x,
// mean x^2]] (so one unit step is the closed form on flat manifolds), with
// Armijo backtracking so that every accepted step decreases E. When p
// moves, v is carried along by parallel transport.
inline RegressionFit fit_geodesic_regression(const RegressionProblem& P, Vec p, Vec v, int max_iter,
                                             double tol) {
  const Manifold& M = P.M;
  double m1 = P.x.mean(), m2 = P.x.squaredNorm() / P.n();
  double det = m2 - m1 * m1;
  if (!(det > 0)) throw std::invalid_argument("the covariate is constant");
  double a = m2 / det, b = -m1 / det, c = 1.0 / det;  // H^{-1}
  RegressionFit fit;
  RegressionGradient g = regression_gradient(P, p, v);
  double E = g.energy;
  int it = 0;
  double t = 1.0;
  for (; it < max_iter; ++it) {
    poll_interrupt();
    fit.grad_norm = joint_gradient_norm(M, p, g);
    if (fit.grad_norm <= tol) {
      fit.converged = true;
      break;
    }
    Vec dp = -(a * g.gp + b * g.gv), dv = -(b * g.gp + c * g.gv);
    double slope = M.inner(p, g.gp, dp) + M.inner(p, g.gv, dv);  // < 0
    if (!(slope < 0)) {  // preconditioned direction failed: plain gradient
      dp = -g.gp;
      dv = -g.gv;
      slope = -fit.grad_norm * fit.grad_norm;
    }
    t = std::min(1.0, 2.0 * t);
    bool moved = false;
    while (t > 1e-14) {
      Vec p_new = M.exp(p, t * dp);
      Vec v_new = M.transport_along(p, t * dp, v + t * dv);
      RegressionGradient g_new = regression_gradient(P, p_new, v_new);
      if (g_new.energy <= E + 1e-4 * t * slope) {
        p = p_new;
        v = v_new;
        g = g_new;
        moved = g_new.energy < E;
        E = g_new.energy;
        break;
      }
      t *= 0.5;
    }
    if (!moved) {  // stationary to machine precision
      fit.grad_norm = joint_gradient_norm(M, p, g);
      fit.converged = fit.grad_norm <= std::sqrt(tol);
      break;
    }
  }
  if (it == max_iter) {
    fit.grad_norm = joint_gradient_norm(M, p, g);
    fit.converged = fit.grad_norm <= tol;
  }
  fit.p = p;
  fit.v = v;
  fit.iterations = it;
  fit.energy = E;
  return fit;
}

// ---------------------------------------------------------------------------
// Chain spaces and targets of the private regression mechanisms.

// (p, v) with p in a ball and |v|_p <= V. Proposal: p' = exp_p(s xi),
// v' = transport along that step of (v + s zeta), symmetric because the
// transport is an isometry.
struct PairState {
  Vec p, v;
};

struct PairSpace {
  using State = PairState;
  const Manifold& M;
  Ball ball;
  double V;
  State propose(const State& x, double step, Rng& rng) const {
    Vec xi = step * M.random_tangent(x.p, rng);
    Vec zeta = step * M.random_tangent(x.p, rng);
    return {M.exp(x.p, xi), M.transport_along(x.p, xi, x.v + zeta)};
  }
  bool in_support(const State& y) const {
    return ball.contains(M, y.p) && (std::isinf(V) || M.norm(y.p, y.v) <= V);
  }
  Vec flatten(const State& x) const {
    Vec out(2 * x.p.size());
    out << x.p, x.v;
    return out;
  }
  double max_step() const {
    double len = std::min(2.0 * ball.radius, M.injectivity_radius());
    if (!std::isinf(V)) len = std::min(len, 2.0 * V);
    return std::isinf(len) ? std::numeric_limits<double>::infinity()
                           : len / std::sqrt(static_cast<double>(M.dim()));
  }
};

// Tangent vectors at a fixed p with |v|_p <= V (the v-step of the
// sequential mechanism).
struct TangentBallSpace {
  using State = Vec;
  const Manifold& M;
  Vec p;
  double V;
  State propose(const State& v, double step, Rng& rng) const {
    return v + step * M.random_tangent(p, rng);
  }
  bool in_support(const State& v) const { return std::isinf(V) || M.norm(p, v) <= V; }
  Vec flatten(const State& v) const { return v; }
  double max_step() const {
    return std::isinf(V) ? std::numeric_limits<double>::infinity()
                         : 2.0 * V / std::sqrt(static_cast<double>(M.dim()));
  }
};

// Joint KNG: -|(grad_p E, grad_v E)(p, v)| / sigma.
struct JointKngTarget {
  const RegressionProblem& P;
  double sigma;
  double operator()(const PairState& s) const {
    return -joint_gradient_norm(P.M, s.p, regression_gradient(P, s.p, s.v)) / sigma;
  }
};

// Sequential p-step of the seeds: -|grad_p E(p, v_hat carried to p)| / sigma.
struct FootpointKngTarget {
  const RegressionProblem& P;
  Vec p_hat, v_hat;
  double sigma;
  double operator()(const Vec& p) const {
    Vec v = P.M.transport(p_hat, p, v_hat);
    return -P.M.norm(p, regression_gradient(P, p, v).gp) / sigma;
  }
};

// Sequential v-step: -|grad_v E(p_tilde, v)| / sigma.
struct VelocityKngTarget {
  const RegressionProblem& P;
  Vec p;
  double sigma;
  double operator()(const Vec& v) const {
    return -P.M.norm(p, regression_gradient(P, p, v).gv) / sigma;
  }
};

}  // namespace dpmanifold

#endif
