// Exact sampler of the K-norm gradient (KNG) law of the Frechet mean on a
// public ball B = B_r(center):
//   density prop. to exp(-G(y) / sigma) on B, G(y) = |grad F(y)|_y,
//   grad F(y) = -(1/n) sum_i log_y(x_i)  (the data x_i are in B).
//
// Envelope (SPEC section 3, sharpened). Along the geodesic from the mean
// xbar, the Hessian of F at distance s is at least
//   phi(s) = (1/n) sum_i h(min(s + rho_i, g_i), kappa_max),
// rho_i = dist(xbar, x_i), g_i = r + dist(center, x_i) <= 2r, h(s, k) =
// s sqrt(k) cot(s sqrt(k)) (1 when k <= 0), by the Hessian comparison
// Hess(dist(., x)^2 / 2) >= h(dist(., x)) and the two triangle bounds of the
// distance; so G(y) >= Phi(dist(y, xbar)), Phi(t) = int_0^t phi. phi >= c =
// h(2r, kappa_max), the constant of Soto et al. (2022), Lemma 1, which gives
// the plain Laplace envelope of scale sigma / c; phi is much larger where the
// law lives. With xhat the Frechet mean computed here (to the public
// tolerance g_tol), g0 = |grad F(xhat)| and delta = g0 / c_D >=
// dist(xhat, xbar) (c_D = (1/n) sum h(g_i) bounds the Hessian on B), and
// since phi <= 1:  G(y) + delta >= Phi(t), t = dist(y, xhat).
//
// Sampler: rejection from the radial law prop. to exp(-Phi(t)/sigma) t^(d-1)
// J(t u) around xhat on t <= 2r (which covers B): t from the hat of
// PolarLaplace with the potential Phi/sigma, u uniform, y = exp_xhat(t u),
// kept with probability
//   [exp(-Phi(t)/sigma) t^(d-1) J(t u) / hat(t)] * 1_B(y) * exp(-(G(y) + delta - Phi(t))/sigma),
// each factor <= 1; the law of the kept y is exactly the KNG law. Phi may
// be any valid lower bound: the public one Phi_pub (below) or the data's
// (phi evaluated on the data, binned, and at least phi_pub), whichever hat
// has the smaller mass; this choice changes the running time only. A
// squeeze skips the n log maps for most proposals: G(y) <= L_D (t + delta),
// L_D = (1/n) sum H(g_i) with H(s) = s q coth(s q), q = sqrt(-kappa_min)
// (1 when kappa_min >= 0), the Hessian's upper bound. When sigma is large
// against r, the proposal is uniform on B instead (kept with probability
// exp(-G(y)/sigma) >= exp(-2r/sigma)).
//
// Public bounds (for the bound on proposals), valid for any data in B:
// mean_i rho_i^2 <= mean_i dist(center, x_i)^2 <= r^2 (xbar minimises F)
// and rho_i <= 2r. As functions of v = dist^2, s cot s and s coth s are
// concave (their series in s^2 have coefficients of one sign after the
// first; x coth x checked numerically), and (s + rho)^2 <= (1 + 1/eta) s^2
// + (1 + eta) rho^2, so
//   phi(s) >= phi_pub(s) = max_eta 3/4 h~(A) + 1/4 h~(A + U), A = (1 + 1/eta) s^2,
//                          U = 4 (1 + eta) r^2 (chord of the concave h~ at the mean),
//   psi(s) <= psi_pub(s) = min_eta H~((1 + 1/eta) s^2 + (1 + eta) r^2) (Jensen),
// both at least as good as the constants h(2r), H(2r). The acceptance per
// proposal is exp(-delta/sigma) int_B exp(-G/sigma) / (hat mass); with G <=
// Psi_pub(t) + L delta on B and the geodesic cone of best_cone_bound(), it is
// at least exp(-(L+1) delta_tol/sigma) cap_fraction(alpha)
// int_0^T(alpha) exp(-Psi_pub/sigma) t^(d-1) / (mass of the public hat).
#ifndef DPMANIFOLD_KNG_EXACT_HPP
#define DPMANIFOLD_KNG_EXACT_HPP

#include <memory>

#include "frechet_mean.hpp"
#include "laplace_exact.hpp"

namespace dpmanifold {

// Upper bound of the Hessian of dist(., x)^2 / 2 at distance s on a
// manifold with curvature >= kmin: 1 when kmin >= 0, s q coth(s q) with
// q = sqrt(-kmin) otherwise.
inline double kng_hessian_upper(double s, double kmin) {
  if (kmin >= 0.0 || s == 0.0) return 1.0;
  const double x = s * std::sqrt(-kmin);
  return x / std::tanh(x);
}

// The public bounds of the header, for data in a ball of radius r: along a
// geodesic from the Frechet mean, at distance s, the Hessian of F is at
// least kng_phi_pub(s) (nonincreasing in s, at least h(2r, kmax), at most 1)
// and at most kng_psi_pub(s) (nondecreasing in s, at most H(2r)). So
// Phi_pub(t) <= |grad F(y)| <= Psi_pub(t) at distance t from the mean, with
// Phi, Psi their integrals from 0 (also used by confint(): inst/proofs/
// confidence-balls.md).
inline double kng_phi_pub(double s, double r, double kmax) {
  double best = curvature_h(2.0 * r, kmax);
  if (kmax <= 0.0) return 1.0;
  auto ht = [kmax](double v) { return curvature_h(std::sqrt(v), kmax); };  // h of v = dist^2
  const double vmax = 0.999 * M_PI * M_PI / kmax;
  for (double eta : {0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0}) {
    const double A = s > 0 ? (1.0 + 1.0 / eta) * s * s : 0.0;
    const double U = 4.0 * (1.0 + eta) * r * r;
    if (!(A + U < vmax)) continue;
    best = std::max(best, 0.75 * ht(A) + 0.25 * ht(A + U));
  }
  return std::min(best, 1.0);
}
inline double kng_psi_pub(double s, double r, double kmin) {
  if (kmin >= 0.0) return 1.0;
  double best = kng_hessian_upper(2.0 * r, kmin);
  for (double eta : {0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0}) {
    const double v = (s > 0 ? (1.0 + 1.0 / eta) * s * s : 0.0) + (1.0 + eta) * r * r;
    best = std::min(best, kng_hessian_upper(std::sqrt(v), kmin));
  }
  return best;
}

class KngExact {
 public:
  KngExact(const Manifold& M, const ConstPoints& X, double sigma, const Ball& ball, double p_fail)
      : M_(M), X_(X), sigma_(sigma), ball_(ball) {
    const double r = ball.radius;
    if (!std::isfinite(r)) throw std::invalid_argument("KNG needs a finite public radius");
    kmax_ = M.kappa_max();
    kmin_ = M.kappa_min();
    c_pub_ = curvature_h(2.0 * r, kmax_);
    if (!(c_pub_ > 0.0)) throw std::invalid_argument("radius too large for the KNG envelope");
    // The envelope's acceptance bound holds when the data's Frechet mean is
    // found to the tolerance g_tol (proportional to sigma). Its gradient is
    // computed with a rounding error of about 1e-16 r, so below
    // sigma = kSigmaResolution r that tolerance is out of reach, the
    // acceptance falls like exp(-rounding / sigma) and the loop never ended
    // (measured: sigma 1e-16 r to 1e-18 r, every manifold). Refused before
    // any data are read, like a bound on proposals beyond the cap.
    if (!(sigma >= kSigmaResolution * r)) {
      unresolved_ = true;
      return;
    }
    L_pub_ = hessian_upper(2.0 * r);
    g_tol_ = 1e-3 * sigma * c_pub_ / (L_pub_ + c_pub_);
    const double delta_tol = g_tol_ / c_pub_;
    // the public potentials on the grid s_j = 2r j / m
    for (int j = 0; j <= kGrid; ++j) grid_.push_back(2.0 * r * j / kGrid);
    std::vector<double> sphi, spsi;
    for (int j = 0; j < kGrid; ++j) {
      phi_pub_.push_back(phi_pub(grid_[j + 1]));
      sphi.push_back(phi_pub_.back() / sigma);   // lower Riemann sum: phi decreases
      spsi.push_back(psi_pub(grid_[j + 1]) / sigma);  // upper Riemann sum: psi increases
    }
    std::vector<double> knots(grid_.begin(), grid_.end() - 1);
    hat_pub_.reset(new PolarLaplace(M, RadialPotential(knots, sphi), 2.0 * r));
    PolarLaplace psi_law(M, RadialPotential(knots, spsi), 2.0 * r);
    const double logZ = hat_pub_->log_hat_mass();
    const double lbA = std::exp(-(L_pub_ + 1.0) * delta_tol / sigma) *
                       best_cone_bound(M, r, [&](double T) {
                         return std::exp(psi_law.log_mass(T, 0.0, false) - logZ);
                       });
    const double lbB = std::exp(hat_pub_->log_j_lower(r) - hat_pub_->log_j_upper(r) - 2.0 * r / sigma);
    uniform_ball_ = lbB > lbA;
    acc_lb_ = std::max(lbA, lbB);
    max_attempts_ = public_attempt_bound(acc_lb_, p_fail);
  }

  // False when the public bound on proposals exceeds the fixed cap (the
  // sampler then refuses before looking at the data).
  bool ok() const { return max_attempts_ > 0; }
  Status status() const { return ok() ? Status::ok : unresolved_ ? Status::unresolved : Status::refused; }
  // sigma / radius below which the sampler refuses (see the constructor)
  static constexpr double kSigmaResolution = 1e-13;
  double acceptance_lb() const { return acc_lb_; }
  // the public bound on proposals per draw (when ok())
  long max_attempts() const { return max_attempts_; }

  // The data's Frechet mean (to the public tolerance g_tol, kept in B) and
  // the data's envelope.
  void prepare() {
    const int n = static_cast<int>(X_.cols());
    const double r = ball_.radius;
    std::vector<double> g(n);
    dist_from(M_, ball_.center, X_, g.data());  // one parallel pass
    double cs = 0.0, ls = 0.0;
    for (int i = 0; i < n; ++i) {
      poll_interrupt(50.0);
      g[i] = r + std::min(g[i], r);
      cs += curvature_h(g[i], kmax_);
      ls += hessian_upper(g[i]);
    }
    const double c_D = std::max(cs / n, c_pub_);
    L_D_ = std::min(ls / n, L_pub_);
    Vec w = Vec::Ones(n);
    FrechetResult fr = frechet_mean(M_, X_, w, ball_.center, 1000, g_tol_);
    xhat_ = fr.mean;
    const double dc = M_.dist(ball_.center, xhat_);
    if (dc > r) xhat_ = M_.exp(ball_.center, (r / dc) * M_.log(ball_.center, xhat_));
    g0_ = M_.norm(xhat_, kng_gradient(M_, xhat_, X_));
    delta_ = g0_ / c_D;
    hat_ = hat_pub_.get();
    if (kmax_ > 0.0 && !uniform_ball_) {
      // phi on the data: (rho_i + delta, g_i) binned, upper bin edges
      const int nr = 64, ng = 32;
      const double rho_max = 2.0 * r + delta_, wr = rho_max / nr, wg = r / ng;
      std::vector<double> cnt(nr * ng, 0.0);
      std::vector<double> rho(n);
      dist_from(M_, xhat_, X_, rho.data());  // one parallel pass
      for (int i = 0; i < n; ++i) {
        const double rd = rho[i] + delta_;
        const int a = std::min(nr - 1, std::max(0, static_cast<int>(rd / wr)));
        const int b = std::min(ng - 1, std::max(0, static_cast<int>((g[i] - r) / wg)));
        cnt[a * ng + b] += 1.0;
      }
      std::vector<double> sl;
      for (int j = 0; j < kGrid; ++j) {
        const double sj = grid_[j + 1];
        double acc = 0.0;
        for (int a = 0; a < nr; ++a)
          for (int b = 0; b < ng; ++b) {
            const double c = cnt[a * ng + b];
            if (c == 0.0) continue;
            acc += c * curvature_h(std::min(sj + (a + 1) * wr, r + (b + 1) * wg), kmax_);
          }
        sl.push_back(std::max(acc / n, phi_pub_[j]) / sigma_);
      }
      std::vector<double> knots(grid_.begin(), grid_.end() - 1);
      hat_D_.reset(new PolarLaplace(M_, RadialPotential(knots, sl), 2.0 * r));
      if (hat_D_->log_hat_mass() <= hat_pub_->log_hat_mass()) hat_ = hat_D_.get();
    }
    prepared_ = true;
  }

  // One exact draw; false only when the public parameters were refused
  // (ok() is false). Otherwise the loop runs until a proposal is accepted
  // (expected proposals at most 1 / acceptance_lb(); no cap, so no failure
  // with a data-dependent probability: inst/proofs/exact-samplers.md).
  // `proposals`, when given, accumulates the number of proposals
  // (acceptance studies only; never released).
  bool draw(Rng& rng, Vec& y, long* proposals = nullptr) {
    if (!ok()) return false;
    if (!prepared_) prepare();
    const PolarLaplace& P = *hat_;
    for (;;) {
      poll_interrupt();
      if (proposals) ++*proposals;
      if (uniform_ball_) {
        if (!BallLaplace::uniform_on_ball(M_, P, ball_, rng, y)) continue;
        const double t = M_.dist(xhat_, y);
        const double lu = std::log(rng.uniform());
        if (lu <= -L_D_ * (t + delta_) / sigma_) return true;
        if (lu <= -gradient_norm(y) / sigma_) return true;
        continue;
      }
      double loghat;
      const double t = P.draw_radius(rng, loghat);
      Vec u;
      double la;
      if (P.direction_dependent()) {
        u = random_unit_tangent(M_, xhat_, rng);
        la = P.log_density(xhat_, t, u) - loghat;
      } else {
        la = P.log_density_radial(t) - loghat;
      }
      if (!(std::log(rng.uniform()) <= la)) continue;
      if (!P.direction_dependent()) u = random_unit_tangent(M_, xhat_, rng);
      y = M_.exp(xhat_, t * u);
      if (!ball_.contains(M_, y)) continue;
      const double Vt = P.potential().value(t);  // Phi(t) / sigma
      const double lu = std::log(rng.uniform());
      if (lu <= Vt - (L_D_ * (t + delta_) + delta_) / sigma_) return true;
      if (lu <= Vt - (gradient_norm(y) + delta_) / sigma_) return true;
    }
  }

 private:
  static constexpr int kGrid = 64;

  double gradient_norm(const Vec& y) const { return M_.norm(y, kng_gradient(M_, y, X_)); }

  double hessian_upper(double s) const { return kng_hessian_upper(s, kmin_); }
  double phi_pub(double s) const { return kng_phi_pub(s, ball_.radius, kmax_); }
  double psi_pub(double s) const { return kng_psi_pub(s, ball_.radius, kmin_); }

  const Manifold& M_;
  ConstPoints X_;  // a view of the caller's data (a matrix or a map: never a temporary)
  double sigma_;
  Ball ball_;
  double kmax_ = 0.0, kmin_ = 0.0;
  double c_pub_ = 1.0, L_pub_ = 1.0, g_tol_ = 0.0, acc_lb_ = 0.0;
  std::vector<double> grid_, phi_pub_;
  std::unique_ptr<PolarLaplace> hat_pub_, hat_D_;
  const PolarLaplace* hat_ = nullptr;
  bool uniform_ball_ = false;
  long max_attempts_ = -1;
  bool unresolved_ = false;
  Vec xhat_;
  double g0_ = 0.0, delta_ = 0.0, L_D_ = 1.0;
  bool prepared_ = false;
};

}  // namespace dpmanifold

#endif
