// Geodesic regression (Fletcher 2013) and the pieces of its private
// release: energy, exact gradients through the Jacobi adjoints with optional
// residual clipping, a preconditioned Riemannian gradient descent, and the
// chain spaces of the KNG mechanisms on (p, v).
#ifndef DPMANIFOLD_REGRESSION_HPP
#define DPMANIFOLD_REGRESSION_HPP

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "frechet_mean.hpp"
#include "jacobi.hpp"
#include "samplers.hpp"
#include "status.hpp"

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

// sum min(dist(exp_p(x_i v), y_i)^2, clip2), a batch pass: on both cores,
// per-chunk sums added in chunk order (the same result for any number of
// threads), and polled with its real cost (a chain step of the energy law
// is one such pass: a serial loop read the clock only every 64 steps, 8 s
// late at n = 1e6).
inline double regression_squared_residual_sum(const RegressionProblem& P, const Vec& p, const Vec& v,
                                              double clip2) {
  const Manifold& M = P.M;
  const Eigen::Index n = P.n();
  const double cost = 2.0 * M.point_cost();
  const Eigen::Index chunk = chunk_size(cost), nc = (n + chunk - 1) / chunk;
  std::vector<double> part(std::max<Eigen::Index>(nc, 1), 0.0);
  for_chunks(n, chunk, cost, [&](Eigen::Index c, Eigen::Index b, Eigen::Index e) {
    double s = 0.0;
    for (Eigen::Index i = b; i < e; ++i) {
      const double d = M.dist(M.exp(p, P.x(i) * v), P.Y.col(i));
      s += std::min(d * d, clip2);
    }
    part[c] = s;
  });
  double s = 0.0;
  for (double q : part) s += q;
  return s;
}

// E(p, v) = (1 / 2n) sum dist(exp_p(x_i v), y_i)^2.
inline double regression_energy(const RegressionProblem& P, const Vec& p, const Vec& v) {
  return regression_squared_residual_sum(P, p, v, std::numeric_limits<double>::infinity()) / (2.0 * P.n());
}

struct RegressionGradient {
  Vec gp, gv;        // Riemannian gradients of E at (p, v), tangent at p
  double energy = 0; // E(p, v) (with unclipped residuals)
  int clipped = 0;   // residuals longer than tau
};

// grad_p E = -(1/n) sum dExp_p^dagger eps_i, grad_v E = -(1/n) sum x_i
// dExp_v^dagger eps_i, eps_i = log_{yhat_i}(y_i) clipped to length tau.
// On both cores: per-chunk partial sums combined in chunk order (batch.hpp),
// so the result does not depend on the number of threads.
inline RegressionGradient regression_gradient(const RegressionProblem& P, const Vec& p, const Vec& v) {
  const Manifold& M = P.M;
  const Eigen::Index n = P.n(), D = p.size();
  const double cost = 8.0 * M.point_cost();
  const Eigen::Index chunk = chunk_size(cost), nc = (n + chunk - 1) / chunk;
  std::vector<Vec> gp(nc, Vec::Zero(D)), gv(nc, Vec::Zero(D));
  std::vector<double> en(nc, 0.0);
  std::vector<int> cl(nc, 0);
  for_chunks(n, chunk, cost, [&](Eigen::Index c, Eigen::Index b, Eigen::Index e) {
    Vec ap, av;
    for (Eigen::Index i = b; i < e; ++i) {
      const Vec xv = P.x(i) * v;
      const Vec yhat = M.exp(p, xv);
      Vec eps = M.log(yhat, P.Y.col(i));
      const double r = M.norm(yhat, eps);
      en[c] += r * r;
      if (r > P.tau) {
        eps *= P.tau / r;
        ++cl[c];
      }
      adjoint_dexp_both(M, p, xv, yhat, eps, ap, av);
      gp[c] -= ap;
      gv[c] -= P.x(i) * av;
    }
  });
  RegressionGradient g;
  g.gp = Vec::Zero(D);
  g.gv = Vec::Zero(D);
  for (Eigen::Index c = 0; c < nc; ++c) {  // chunk order
    g.gp += gp[c];
    g.gv += gv[c];
    g.energy += en[c];
    g.clipped += cl[c];
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

// The Gauss-Newton matrix (1/n) sum_i A_i^T A_i of the residuals'
// linearisation A_i(dp, dv) = dExp_p(x_i v)[dp] + x_i dExp_v(x_i v)[dv], in
// the orthonormal basis B of T_p M (B = tangent_basis(p)). Both
// differentials are parallel transport after the Jacobi scalings C_p, C_v at
// p (jacobi.hpp), and transport is an isometry, so A_i^T A_i =
// [C_p, x_i C_v]^T [C_p, x_i C_v]. On a symmetric space the scalings of
// every record share the eigenbasis of the curvature operator along v (its
// normalised eigenvalues mu do not depend on x_i; only the length x_i |v|
// does), so sum_i C_p(x_i v)^2 is the one operator whose spectral function
// is sum_i f_p(mu, x_i |v|)^2, and likewise for the other two blocks: three
// jacobi_apply() per basis vector and O(n) per distinct eigenvalue, not d
// of them per record (SPD(7), n = 1e4: 43 s a fit by records). Coordinates
// are read with the dual basis (B*)_kj = <b_j, e_k>_p. On flat manifolds
// this is the flat case's [[1, mean x], [mean x, mean x^2]] (x) I.
inline Mat regression_gauss_newton_matrix(const RegressionProblem& P, const Vec& p, const Vec& v, const Mat& B) {
  const Manifold& M = P.M;
  const Eigen::Index D = B.rows(), d = B.cols(), n = P.n();
  Mat dual(D, d);
  for (Eigen::Index k = 0; k < D; ++k) {
    Vec e = Vec::Zero(D);
    e(k) = 1.0;
    for (Eigen::Index j = 0; j < d; ++j) dual(k, j) = M.inner(p, B.col(j), e);
  }
  // the summed spectral function of block `which` (0: C_p^2, 1: x C_p C_v,
  // 2: x^2 C_v^2), memoised per (mu, L): the manifold computes the same
  // eigenvalues for every basis vector
  const auto summed = [&](int which) {
    auto memo = std::make_shared<std::vector<std::array<double, 3>>>();
    return SpectralFn([&P, memo, which, n](double mu, double L) {
      for (const auto& m : *memo)
        if (m[0] == mu && m[1] == L) return m[2];
      poll_interrupt(static_cast<double>(n));
      double s = 0.0;
      for (Eigen::Index i = 0; i < n; ++i) {
        const double xi = P.x(i);
        const double cp = jacobi_scale_p(mu, xi * L), cv = jacobi_scale_v(mu, xi * L);
        s += which == 0 ? cp * cp : which == 1 ? xi * cp * cv : xi * xi * cv * cv;
      }
      s /= static_cast<double>(n);
      memo->push_back({mu, L, s});
      return s;
    });
  };
  const SpectralFn fpp = summed(0), fpv = summed(1), fvv = summed(2);
  Mat Jpp(D, d), Jpv(D, d), Jvv(D, d);
  for (Eigen::Index j = 0; j < d; ++j) {
    Jpp.col(j) = M.jacobi_apply(p, v, B.col(j), fpp);
    Jpv.col(j) = M.jacobi_apply(p, v, B.col(j), fpv);
    Jvv.col(j) = M.jacobi_apply(p, v, B.col(j), fvv);
  }
  Mat H(2 * d, 2 * d);
  H.topLeftCorner(d, d) = dual.transpose() * Jpp;
  H.topRightCorner(d, d) = dual.transpose() * Jpv;
  H.bottomRightCorner(d, d) = dual.transpose() * Jvv;
  H.bottomLeftCorner(d, d) = H.topRightCorner(d, d).transpose();
  return (H + H.transpose()) / 2.0;
}

struct RegressionFit {
  Vec p, v;
  int iterations = 0;
  double energy = 0.0, grad_norm = 0.0;
  bool converged = false;
};

// Riemannian Gauss-Newton on (p, v) with Armijo backtracking, so that every
// accepted step decreases E. The step solves the curved Gauss-Newton system
// (regression_gauss_newton_matrix) where the manifold is curved and its
// dimension is at most gn_max_dim; otherwise, or if that system fails to give
// a descent direction, the flat case's H = [[1, mean x], [mean x, mean x^2]]
// (one unit step is the closed form on flat manifolds); plain gradient as the
// last resort. The flat preconditioner alone converges linearly where the
// curvature along the geodesic is strong (SPD(3), |v| near 3: up to 800
// iterations at n = 1000). It stops when the gradient norm is below tol,
// or when the step's predicted decrease (-slope) is below 1e-15 E, which
// rounding would hide: a line search there runs down to t = 1e-14 for
// nothing. When p moves, v is carried along by parallel transport.
inline RegressionFit fit_geodesic_regression(const RegressionProblem& P, Vec p, Vec v, int max_iter,
                                             double tol, int gn_max_dim = 32) {
  const Manifold& M = P.M;
  double m1 = P.x.mean(), m2 = P.x.squaredNorm() / P.n();
  double det = m2 - m1 * m1;
  if (!(det > 0)) throw std::invalid_argument("the covariate is constant");
  double a = m2 / det, b = -m1 / det, c = 1.0 / det;  // H^{-1}
  const bool curved = !(M.kappa_min() == 0 && M.kappa_max() == 0) && M.dim() <= gn_max_dim;
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
    Vec dp, dv;
    double slope = 0.0;
    if (curved) {
      const Mat B = M.tangent_basis(p);
      const Eigen::Index d = B.cols();
      const Mat H = regression_gauss_newton_matrix(P, p, v, B);
      Vec gc(2 * d);
      for (Eigen::Index j = 0; j < d; ++j) {
        gc(j) = M.inner(p, B.col(j), g.gp);
        gc(d + j) = M.inner(p, B.col(j), g.gv);
      }
      Eigen::LDLT<Mat> ldlt(H);
      if (ldlt.info() == Eigen::Success && ldlt.isPositive()) {
        const Vec step = ldlt.solve(-gc);
        if (step.allFinite()) {
          dp = B * step.head(d);
          dv = B * step.tail(d);
          slope = gc.dot(step);
        }
      }
    }
    if (!(slope < 0)) {  // the flat case's Gauss-Newton matrix
      dp = -(a * g.gp + b * g.gv);
      dv = -(b * g.gp + c * g.gv);
      slope = M.inner(p, g.gp, dp) + M.inner(p, g.gv, dv);
    }
    if (!(slope < 0)) {  // preconditioned direction failed: plain gradient
      dp = -g.gp;
      dv = -g.gv;
      slope = -fit.grad_norm * fit.grad_norm;
    }
    if (-slope <= 1e-15 * E) {  // the step's predicted decrease is rounding
      fit.converged = fit.grad_norm <= std::sqrt(tol);
      break;
    }
    t = std::min(1.0, 2.0 * t);
    bool moved = false;
    // (the first trial is a gradient pass, which a Gauss-Newton step almost
    // always keeps; further trials read the energy alone)
    bool first = true;
    while (t > 1e-14) {
      Vec p_new = M.exp(p, t * dp);
      Vec v_new = M.transport_along(p, t * dp, v + t * dv);
      RegressionGradient g_new;
      if (first) g_new = regression_gradient(P, p_new, v_new);
      const double E_new = first ? g_new.energy : regression_energy(P, p_new, v_new);
      first = false;
      if (E_new <= E + 1e-4 * t * slope) {
        if (g_new.gp.size() == 0) g_new = regression_gradient(P, p_new, v_new);
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

// ---------------------------------------------------------------------------
// The private joint release (SPEC section 5). The covariate is centred
// (x_i in [-1/2, 1/2], the footpoint p sits at the middle of the public
// range) and the KNG law is
//   f(p, v) prop. to exp(-|(grad_p E, w grad_v E)(p, v)| / sigma)
// on a public domain, with residuals clipped to length tau inside the
// gradients and w a public weight. Its sensitivity is derived in
// R/dp_regression.R (joint_sensitivity()).
//
// Parameters are written in one chart of normal coordinates at the public
// centre m0: x = (a, b) in R^d x R^d stands for
//   p = exp_{m0}(B a),  v = transport of (B b) from m0 to p along that geodesic,
// with B an orthonormal basis of T_{m0}M. Then |a| = d(m0, p) (inside the
// injectivity radius) and |b| = |v|_p, so the public domain "d(m0, p) <= R,
// |v| <= V" is a product of two Euclidean balls, and the base measure of the
// law is Lebesgue measure in (a, b): public, and a random walk in the chart
// is symmetric with respect to it.

inline double weighted_joint_norm(const Manifold& M, const Vec& p, const RegressionGradient& g,
                                  double w) {
  double s = M.inner(p, g.gp, g.gp) + w * w * M.inner(p, g.gv, g.gv);
  return s > 0 ? std::sqrt(s) : 0.0;
}

// A footpoint and a shooting vector (tangent at p).
struct PairState {
  Vec p, v;
};

struct RegressionChart {
  const Manifold& M;
  Vec m0;
  Mat B;  // ambient x d, orthonormal at m0
  int d() const { return static_cast<int>(B.cols()); }
  PairState point(const Vec& x) const {
    const int k = d();
    Vec a = B * x.head(k);
    return {M.exp(m0, a), M.transport_along(m0, a, B * x.tail(k))};
  }
};

// Support of a block: |z| <= outer and |z - c| <= inner (a ball around the
// first stage's release, intersected with the public ball around 0).
struct BallPair {
  double outer;
  Vec c;
  double inner;
  bool contains(const Vec& z) const {
    return z.norm() <= outer && (std::isinf(inner) || (z - c).norm() <= inner);
  }
  // Uniform draw: uniform in the smaller ball, rejected outside the other.
  // The acceptance is public (it depends on the radii and centres, which are
  // public or released); the caller bounds the attempts.
  bool draw(Vec& z, Rng& rng) const {
    const int k = static_cast<int>(c.size());
    const bool around_c = !std::isinf(inner) && inner < outer;
    const double rad = around_c ? inner : outer;
    double n2 = 0.0;
    do {
      for (int i = 0; i < k; ++i) z(i) = rng.normal();
      n2 = z.squaredNorm();
    } while (n2 <= 0.0);
    z *= rad * std::pow(rng.uniform(), 1.0 / k) / std::sqrt(n2);
    if (around_c) z += c;
    return contains(z);
  }
};

struct RegressionDomain {
  BallPair a, b;
  bool contains(const Vec& x) const {
    const int k = static_cast<int>(x.size() / 2);
    return a.contains(x.head(k)) && b.contains(x.tail(k));
  }
  bool draw(Vec& x, Rng& rng) const {
    const int k = static_cast<int>(x.size() / 2);
    Vec za(k), zb(k);
    if (!a.draw(za, rng) || !b.draw(zb, rng)) return false;
    x << za, zb;
    return true;
  }
};

// Log target of the joint KNG in chart coordinates.
struct ChartKngTarget {
  const RegressionProblem& P;
  const RegressionChart& chart;
  double sigma, w;
  double operator()(const Vec& x) const {
    PairState s = chart.point(x);
    return -weighted_joint_norm(P.M, s.p, regression_gradient(P, s.p, s.v), w) / sigma;
  }
};

// Clipped squared loss u(p, v) = sum_i min(d(exp_p(x_i v), y_i)^2, tau^2) / 2:
// each record contributes a value in [0, tau^2 / 2], so replacing one record
// changes u by at most tau^2 / 2 at every (p, v).
inline double regression_clipped_loss(const RegressionProblem& P, const Vec& p, const Vec& v) {
  return regression_squared_residual_sum(P, p, v, P.tau * P.tau) / 2.0;
}

// Log target of the exponential mechanism on the clipped loss in chart
// coordinates: -u(p, v) / T (T = tau^2 / epsilon for epsilon-DP).
struct ChartLossTarget {
  const RegressionProblem& P;
  const RegressionChart& chart;
  double T;
  double operator()(const Vec& x) const {
    PairState s = chart.point(x);
    return -regression_clipped_loss(P, s.p, s.v) / T;
  }
};

// Random-walk chain space in the chart: y = x + s * diag(scale) * N(0, I)
// with s = step, or s = step * jump with probability jump_prob (long moves
// cross the wide low region of the law where most residuals are clipped;
// short ones explore its peak). A mixture of symmetric kernels is symmetric
// w.r.t. Lebesgue measure. step, jump and `scale` are public (the scale
// shapes the proposal by the Gauss-Newton matrix of the public design, see
// R/dp_regression.R), so nothing about the data enters the proposal.
struct ChartSpace {
  using State = Vec;
  const RegressionDomain& domain;
  Vec scale;
  double jump = 1.0, jump_prob = 0.0;
  State propose(const State& x, double step, Rng& rng) const {
    if (jump_prob > 0 && rng.uniform() < jump_prob) step *= jump;
    Vec y(x.size());
    for (int i = 0; i < x.size(); ++i) y(i) = x(i) + step * scale(i) * rng.normal();
    return y;
  }
  bool in_support(const State& y) const { return domain.contains(y); }
  Vec flatten(const State& x) const { return x; }
  double max_step() const { return std::numeric_limits<double>::infinity(); }
};

// Exact draw from exp(-g(x) / sigma) on the domain, for a log target
// lt(x) = -g(x) / sigma with 0 <= g <= g_max: propose uniformly on the domain
// and accept with probability exp(lt(x)) <= 1. The acceptance is at least
// exp(-g_max / sigma), a public number, from which the caller sets
// max_attempts; past it the draw fails with an error that names the public
// cause (never a count).
template <class LogTarget>
Vec exact_uniform_rejection(const RegressionDomain& dom, int dim, const LogTarget& lt, Rng& rng,
                            double max_attempts) {
  Vec x(dim);
  for (double k = 0; k < max_attempts; k += 1.0) {
    poll_interrupt();
    if (!dom.draw(x, rng)) continue;
    if (std::log(rng.uniform()) < lt(x)) return x;
  }
  throw SamplerStopped(Status::exhausted, max_attempts);
}

// ---------------------------------------------------------------------------
// Linear regression in R^d (the Euclidean case and the tangent-space method):
// responses z_i in a ball of radius r around 0, covariates t_i in [-1/2, 1/2].
// The KNG gradient is affine in (p, v) (no clipping: on the domain every
// residual is bounded), G(p, v) = -(mean(z - p - t v), w mean(t (z - p - t v))),
// so the sufficient statistics give it in O(d).
struct LinearStats {
  double n = 0, st = 0, stt = 0;
  Vec sz, stz;
  LinearStats(const Vec& t, const Mat& Z)
      : n(static_cast<double>(t.size())), sz(Vec::Zero(Z.rows())), stz(Vec::Zero(Z.rows())) {
    for (int i = 0; i < t.size(); ++i) {
      st += t(i);
      stt += t(i) * t(i);
      sz += Z.col(i);
      stz += t(i) * Z.col(i);
    }
  }
  double gradient_norm(const Vec& x, double w) const {
    const int k = static_cast<int>(sz.size());
    Vec p = x.head(k), v = x.tail(k);
    Vec gp = (sz - n * p - st * v) / n;
    Vec gv = (stz - st * p - stt * v) / n;
    return std::sqrt(gp.squaredNorm() + w * w * gv.squaredNorm());
  }
};

// Exact draw of the linear KNG law restricted to the domain. Two exact
// rejection samplers take turns and the first acceptance is returned (each
// accepted draw has the target law whatever happened before, so the first
// of either does too):
//  A. when the design matrix H = [[1, m1], [m1, m2]] is invertible, the law
//     on the whole space is beta_ols + ((W H)^-1 x I) u with u a K-norm
//     Laplace vector in R^2d (|u| ~ Gamma(2d, sigma), direction uniform);
//     draws outside the domain are rejected;
//  B. uniform on the domain, accepted with probability exp(-|G| / sigma),
//     which works for any design (a constant covariate makes H singular).
// The number of attempts depends on the data and is never returned. A's
// acceptance (the law's mass in the domain) has no public lower bound; B's
// is at least the domain's public fraction times exp(-G_max / sigma), which
// the caller turns into a public plan before reading the data
// (linear_exact_plan() in R/regression_chains.R) and then passes
// max_attempts = Inf: the loop runs until it accepts (the one failure
// protocol, inst/proofs/exact-samplers.md).
inline Vec linear_kng_exact(const LinearStats& S, const RegressionDomain& dom, double sigma,
                            double w, Rng& rng, double max_attempts) {
  const int k = static_cast<int>(S.sz.size());
  const double m1 = S.st / S.n, m2 = S.stt / S.n, det = m2 - m1 * m1;
  const bool use_a = det > 1e-10;
  Vec beta_p, beta_v;
  double ia = 0, ib = 0, ic = 0, id = 0;  // (W H)^-1 = [[ia, ib], [ic, id]]
  if (use_a) {
    Vec zbar = S.sz / S.n, tzbar = S.stz / S.n;
    // H (p; v) = (zbar; tzbar)
    beta_p = (m2 * zbar - m1 * tzbar) / det;
    beta_v = (-m1 * zbar + tzbar) / det;
    // W H = [[1, m1], [w m1, w m2]], det = w det
    ia = w * m2 / (w * det);
    ib = -m1 / (w * det);
    ic = -w * m1 / (w * det);
    id = 1.0 / (w * det);
  }
  Vec x(2 * k), u(2 * k);
  for (double att = 0; att < max_attempts; att += 1.0) {
    poll_interrupt();
    if (use_a) {
      euclidean_laplace_noise(u, sigma, rng);
      x.head(k) = beta_p + ia * u.head(k) + ib * u.tail(k);
      x.tail(k) = beta_v + ic * u.head(k) + id * u.tail(k);
      if (dom.contains(x)) return x;
    }
    if (dom.draw(x, rng) && std::log(rng.uniform()) < -S.gradient_norm(x, w) / sigma) return x;
  }
  throw SamplerStopped(Status::exhausted, max_attempts);
}

// Second stage of the linearised release (method = "linearised"): at a
// released geodesic (p0, v0) (v0 over the centred range), record i gives
// the residual log_{q_i}(y_i), q_i = exp_{p0}(t_i v0), clipped to norm tau
// and transported back to p0 along the geodesic; returned in the
// coordinates of the orthonormal basis B of T_{p0}M (d x n). Each column
// depends on record i and the released (p0, v0) only, and has norm <= tau.
inline Mat linearised_residuals(const Manifold& M, const Vec& t, const Mat& Y, const Vec& p0,
                                const Vec& v0, double tau, const Mat& B) {
  const int n = static_cast<int>(t.size());
  Mat out(B.cols(), n);
  for (int i = 0; i < n; ++i) {
    poll_interrupt();
    Vec u = t(i) * v0;
    Vec q = M.exp(p0, u);
    Vec r = M.log(q, Y.col(i));
    double nr = M.norm(q, r);
    if (nr > tau) r *= tau / nr;
    // the geodesic's velocity at q is the transport of u; go back along -u
    Vec back = -M.transport_along(p0, u, u);
    Vec w = M.transport_along(q, back, r);
    for (int j = 0; j < B.cols(); ++j) out(j, i) = M.inner(p0, B.col(j), w);
  }
  return out;
}

}  // namespace dpmanifold


#endif
