// Exact sampler of the K-norm gradient (KNG) law of the Frechet mean on a
// public ball B = B_r(center):
//   density prop. to exp(-|grad F(y)|_y / sigma) on B,
//   grad F(y) = -(1/n) sum_i log_y(x_i)  (the data x_i are in B).
//
// Rejection from a Riemannian Laplace envelope (SPEC section 3): on B,
// |grad F(y)| >= c dist(y, xbar) with c = 1 on Hadamard manifolds (F is
// 1-strongly geodesically convex) and c = h(2r, kappa_max) =
// 2r sqrt(kappa) cot(2r sqrt(kappa)) under positive curvature (Soto et al.
// 2022, Lemma 1). With xhat the Frechet mean computed here and
// g0 = |grad F(xhat)| >= c dist(xhat, xbar):
//   |grad F(y)| >= c dist(y, xhat) - g0,
// so proposals from the Laplace law of scale sigma / c around xhat,
// restricted to B, are accepted with probability
//   exp(-(|grad F(y)| - c dist(y, xhat) + g0) / sigma) <= 1.
// A squeeze avoids the n log maps for most proposals: |grad F(y)| <=
// L dist(y, xbar) <= L (dist(y, xhat) + g0 / c), where L bounds the Hessian
// of F on B (1 when kappa_min >= 0, 2r s coth(2r s) with s = sqrt(-kappa_min)
// otherwise), so a uniform below exp(-((L - c) t + (L/c + 1) g0) / sigma)
// accepts without computing the gradient.
//
// Public bound on proposals: the conditional law of t = dist(y, xhat) given
// y in B is stochastically smaller than the untruncated one (B is
// geodesically convex and contains xhat, so P(y in B | t) does not increase
// with t), so the acceptance is at least
//   exp(-(L/c + 1) g_tol / sigma) max(E_untruncated[exp(-(L - c) t / sigma)],
//                                     exp(-(L - c) 2r / sigma)),
// with g_tol the public tolerance of the Frechet mean (g0 <= g_tol).
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
    c_ = curvature_h(2.0 * r, M.kappa_max());
    if (!(c_ > 0.0)) throw std::invalid_argument("radius too large for the KNG envelope");
    const double kmin = M.kappa_min();
    if (kmin >= 0.0) {
      L_ = 1.0;
    } else {
      const double x = 2.0 * r * std::sqrt(-kmin);
      L_ = x / std::tanh(x);
    }
    g_tol_ = 1e-3 * sigma * c_ / (L_ + c_);
    proposal_.reset(new BallLaplace(M, sigma / c_, ball));
    // E[exp(-alpha t)] over the truncated proposal: at least its value under
    // the untruncated law (when proper), and at least exp(-alpha 2r) since
    // t <= 2r on the ball.
    const double alpha = (L_ - c_) / sigma;
    const double mgf = std::max(std::exp(-alpha * 2.0 * r),
                                proposal_->polar().lower_integral(std::numeric_limits<double>::infinity(), alpha));
    const double lb2 = std::exp(-(L_ / c_ + 1.0) * g_tol_ / sigma) * mgf;
    acc_lb_ = lb2;
    max_outer_ = public_attempt_bound(lb2, p_fail);
    if (max_outer_ > 0) inner_ = proposal_->plan(true, p_fail * lb2);
  }

  // False when the public bounds on proposals exceed the fixed cap (the
  // sampler then refuses before looking at the data).
  bool ok() const { return max_outer_ > 0 && inner_.ok(); }
  double acceptance_lb() const { return acc_lb_; }

  // The data's Frechet mean, to the public tolerance g_tol, kept in B.
  void prepare() {
    const int n = static_cast<int>(X_.cols());
    Vec w = Vec::Ones(n);
    FrechetResult fr = frechet_mean(M_, X_, w, ball_.center, 1000, g_tol_);
    xhat_ = fr.mean;
    const double dc = M_.dist(ball_.center, xhat_);
    if (dc > ball_.radius) xhat_ = M_.exp(ball_.center, (ball_.radius / dc) * M_.log(ball_.center, xhat_));
    g0_ = M_.norm(xhat_, kng_gradient(M_, xhat_, X_));
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
  const Manifold& M_;
  const Mat& X_;
  double sigma_;
  Ball ball_;
  double c_ = 1.0, L_ = 1.0, g_tol_ = 0.0, acc_lb_ = 0.0;
  std::unique_ptr<BallLaplace> proposal_;
  LaplacePlan inner_;
  long max_outer_ = -1;
  Vec xhat_;
  double g0_ = 0.0;
  bool prepared_ = false;
};

}  // namespace dpmanifold

#endif
