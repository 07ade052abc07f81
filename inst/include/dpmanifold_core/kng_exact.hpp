// Exact sampler of the K-norm gradient (KNG) law of the Frechet mean on a
// public ball B = B_r(center):
//   density prop. to exp(-|grad F(y)|_y / sigma) on B,
//   grad F(y) = -(1/n) sum_i log_y(x_i)  (the data x_i are in B).
//
// Rejection from a Riemannian Laplace envelope (SPEC section 3). On B the
// Hessian of F is at least c and at most L, so |grad F(y)| >= c dist(y, xbar)
// and |grad F(y)| <= L dist(y, xbar). The public constants are those of
// Soto et al. (2022), Lemma 1: c = h(2r, kappa_max) (1 on Hadamard
// manifolds, F being 1-strongly geodesically convex), h(s, k) =
// s sqrt(k) cot(s sqrt(k)), and L = H(2r) with H(s) = 1 when
// kappa_min >= 0, else s q coth(s q), q = sqrt(-kappa_min). The sampler
// uses the sharper constants of the data at hand, with g_i = r +
// dist(center, x_i) <= 2r,
//   c_D = (1/n) sum_i h(g_i, kappa_max) in [c, h(r, kappa_max)],
//   L_D = (1/n) sum_i H(g_i) <= L,
// from the Hessian comparison h(dist) <= Hess(dist(., x_i)^2/2) <= H(dist)
// and dist(z, x_i) <= g_i for z in B: the envelope depends on the data, the
// law it produces does not.
// With xhat the Frechet mean computed here and g0 = |grad F(xhat)| >=
// c_D dist(xhat, xbar):
//   |grad F(y)| >= c_D dist(y, xhat) - g0,
// so proposals from the Laplace law of scale sigma / c_D around xhat,
// restricted to B, are accepted with probability
//   exp(-(|grad F(y)| - c_D dist(y, xhat) + g0) / sigma) <= 1.
// A squeeze avoids the n log maps for most proposals: |grad F(y)| <=
// L_D (dist(y, xhat) + g0 / c_D), so a uniform below
// exp(-((L_D - c_D) t + (L_D/c_D + 1) g0) / sigma) accepts at once.
//
// Public bound on proposals: the conditional law of t = dist(y, xhat) given
// y in B is stochastically smaller than the untruncated one (B is
// geodesically convex and contains xhat, so P(y in B | t) does not increase
// with t), so the acceptance is at least
//   exp(-(L/c + 1) g_tol / sigma) max(E_untruncated[exp(-(L - c) t / sigma)],
//                                     exp(-(L - c) 2r / sigma)),
// computed with the public c and L (it increases with c and decreases with
// L), with g_tol the public tolerance of the Frechet mean (g0 <= g_tol). The
// inner Laplace sampler's plan holds for every scale in
// [sigma / h(r, kappa_max), sigma / c].
#ifndef DPMANIFOLD_KNG_EXACT_HPP
#define DPMANIFOLD_KNG_EXACT_HPP

#include <memory>

#include "frechet_mean.hpp"
#include "laplace_exact.hpp"

namespace dpmanifold {

// h(s, kappa) = s sqrt(kappa) cot(s sqrt(kappa)) for kappa > 0, else 1.
inline double curvature_h(double s, double kappa) {
  if (kappa <= 0.0 || s == 0.0) return 1.0;
  const double a = s * std::sqrt(kappa);
  return a / std::tan(a);
}

class KngExact {
 public:
  KngExact(const Manifold& M, const Mat& X, double sigma, const Ball& ball, double p_fail)
      : M_(M), X_(X), sigma_(sigma), ball_(ball) {
    const double r = ball.radius;
    if (!std::isfinite(r)) throw std::invalid_argument("KNG needs a finite public radius");
    c_pub_ = curvature_h(2.0 * r, M.kappa_max());
    c_max_ = curvature_h(r, M.kappa_max());
    if (!(c_pub_ > 0.0)) throw std::invalid_argument("radius too large for the KNG envelope");
    L_pub_ = hessian_upper(2.0 * r);
    g_tol_ = 1e-3 * sigma * c_pub_ / (L_pub_ + c_pub_);
    PolarLaplace worst(M, sigma / c_pub_);
    const double alpha = (L_pub_ - c_pub_) / sigma;
    const double mgf = std::max(std::exp(-alpha * 2.0 * r),
                                worst.lower_integral(std::numeric_limits<double>::infinity(), alpha));
    acc_lb_ = std::exp(-(L_pub_ / c_pub_ + 1.0) * g_tol_ / sigma) * mgf;
    max_outer_ = public_attempt_bound(acc_lb_, p_fail);
    if (max_outer_ > 0)
      inner_ = BallLaplace::plan_for(M, r, worst, sigma / c_max_, true, p_fail * acc_lb_);
  }

  // False when the public bounds on proposals exceed the fixed cap (the
  // sampler then refuses before looking at the data).
  bool ok() const { return max_outer_ > 0 && inner_.ok(); }
  double acceptance_lb() const { return acc_lb_; }

  // The data's Frechet mean (to the public tolerance g_tol, kept in B) and
  // the data's envelope constants.
  void prepare() {
    const int n = static_cast<int>(X_.cols());
    const double r = ball_.radius;
    double cs = 0.0, ls = 0.0;
    for (int i = 0; i < n; ++i) {
      poll_interrupt();
      const double g = r + std::min(ball_.dist_to_center(X_.col(i)), r);
      cs += curvature_h(g, M_.kappa_max());
      ls += hessian_upper(g);
    }
    c_ = std::min(std::max(cs / n, c_pub_), c_max_);
    L_ = std::min(ls / n, L_pub_);
    Vec w = Vec::Ones(n);
    FrechetResult fr = frechet_mean(M_, X_, w, ball_.center, 1000, g_tol_);
    xhat_ = fr.mean;
    const double dc = M_.dist(ball_.center, xhat_);
    if (dc > r) xhat_ = M_.exp(ball_.center, (r / dc) * M_.log(ball_.center, xhat_));
    g0_ = M_.norm(xhat_, kng_gradient(M_, xhat_, X_));
    proposal_.reset(new BallLaplace(M_, sigma_ / c_, ball_));
    prepared_ = true;
  }

  // One exact draw; false when a public bound on proposals was reached.
  // `outer`/`inner`, when given, accumulate the numbers of envelope draws
  // and of Laplace proposals (acceptance studies only; never released).
  bool draw(Rng& rng, Vec& y, long* outer = nullptr, long* inner = nullptr) {
    if (!ok()) return false;
    if (!prepared_) prepare();
    for (long i = 0; i < max_outer_; ++i) {
      poll_interrupt();
      if (!proposal_->draw(xhat_, inner_, rng, y, inner)) return false;
      if (outer) ++*outer;
      const double t = M_.dist(xhat_, y);
      const double lu = std::log(rng.uniform());
      if (lu <= -((L_ - c_) * t + (L_ / c_ + 1.0) * g0_) / sigma_) return true;
      const double G = M_.norm(y, kng_gradient(M_, y, X_));
      if (lu <= -(G - c_ * t + g0_) / sigma_) return true;
    }
    return false;
  }

 private:
  // Upper bound of the Hessian of dist(., x)^2 / 2 at distance s:
  // 1 when kappa_min >= 0, s q coth(s q) with q = sqrt(-kappa_min) otherwise.
  double hessian_upper(double s) const {
    const double kmin = M_.kappa_min();
    if (kmin >= 0.0 || s == 0.0) return 1.0;
    const double x = s * std::sqrt(-kmin);
    return x / std::tanh(x);
  }

  const Manifold& M_;
  const Mat& X_;
  double sigma_;
  Ball ball_;
  double c_pub_ = 1.0, c_max_ = 1.0, L_pub_ = 1.0, g_tol_ = 0.0, acc_lb_ = 0.0;
  double c_ = 1.0, L_ = 1.0;
  std::unique_ptr<BallLaplace> proposal_;
  LaplacePlan inner_;
  long max_outer_ = -1;
  Vec xhat_;
  double g0_ = 0.0;
  bool prepared_ = false;
};

}  // namespace dpmanifold

#endif
