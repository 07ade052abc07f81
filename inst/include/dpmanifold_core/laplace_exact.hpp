// Exact samplers of the Riemannian Laplace law  prop. to exp(-dist(mean, y) / sigma)
// w.r.t. the Riemannian volume, on the whole manifold ("untruncated") or
// restricted to a public ball B_r(center) ("truncated").
//
// Geodesic polar coordinates around the mean, y = exp_mean(t u), |u| = 1:
// the law of (t, u) has density prop. to exp(-t / sigma) t^(d-1) J(t u),
// with J the volume density in normal coordinates (manifold.hpp). Three
// cases, all written against the manifold interface:
//   flat (J = 1):           t ~ Gamma(d, sigma), u uniform;
//   radial (J = J(t)):      sphere sin^(d-1) t, Kendall sin^(2k-6) t sin(2t)/2
//                           (rank one), t < inj; t is drawn from its exact
//                           1-D law by rejection from a piecewise-exponential
//                           hat, u uniform;
//   growth (J = J(t u)):    SPD, affine-invariant metric: log J(t u) =
//                           sum_a log(sinh(t a)/(t a)) over the root values a
//                           of u; t is proposed from a piecewise-exponential
//                           hat of exp(-t/sigma) t^(d-1) B(t) with
//                           B(t) >= sup_u J(t u), u uniformly, and (t, u) is
//                           accepted with probability
//                           exp(-t/sigma) t^(d-1) J(t u) / hat(t).
// The hat: on each piece [a, b] of a grid, log of the density is bounded by
// a linear function: the tangent at the midpoint of the concave part
// (-t/sigma + sum m log s_mu(t), or -t/sigma + (d-1) log t), plus the chord
// of a convex bound of log J. For log J(t u) we use, per root value a,
// log(sinh x / x) <= A x^2 + B(A) x (x = t a; table below, verified in the
// tests), hence log J(t u) <= A Q t^2 + B(A) C t with Q >= sum a^2 and
// C >= sum a (Manifold::volume_growth_bounds). Each piece takes the member of
// the family with the smallest chord; the last, unbounded piece takes A = 0,
// B = 1, whose slope C is the exponential growth rate of the volume: the
// untruncated law is proper iff sigma < 1 / C (max_untruncated_sigma).
//
// Every rejection loop runs at most a PUBLIC number of proposals, derived
// from a public lower bound on its acceptance (LaplacePlan), so that it fails
// with probability below p_fail; the count of proposals is never returned.
#ifndef DPMANIFOLD_LAPLACE_EXACT_HPP
#define DPMANIFOLD_LAPLACE_EXACT_HPP

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "samplers.hpp"

namespace dpmanifold {

namespace polar {

// log(sinh(x) / x) for x >= 0, without overflow.
inline double log_sinhc(double x) {
  x = std::fabs(x);
  if (x < 20.0) return std::log(sinhc(x));
  return x - std::log(2.0 * x) + std::log1p(-std::exp(-2.0 * x));
}

// log s_mu(t) with s_mu(t) = sin(sqrt(mu) t)/sqrt(mu), t, or
// sinh(sqrt(-mu) t)/sqrt(-mu): concave in t for every mu. And its derivative.
inline double log_s(double mu, double t) {
  if (mu > 0) {
    const double q = std::sqrt(mu);
    return std::log(std::sin(q * t) / q);
  }
  if (mu < 0) {
    const double q = std::sqrt(-mu);
    return std::log(t) + log_sinhc(q * t);
  }
  return std::log(t);
}
inline double dlog_s(double mu, double t) {
  if (mu > 0) {
    const double q = std::sqrt(mu);
    return q / std::tan(q * t);
  }
  if (mu < 0) {
    const double q = std::sqrt(-mu);
    return q / std::tanh(q * t);
  }
  return 1.0 / t;
}

// Upper bounds log(sinh x / x) <= A x^2 + B x for all x >= 0. A = 1/6,
// B = 0 holds since sinh(x)/x = sum x^(2n)/(2n+1)! <= sum (x^2/6)^n/n!;
// A = 0, B = 1 since log(sinh x / x) has derivative coth x - 1/x < 1. The
// others: B = sup_x (log(sinh x / x) - A x^2)/x, computed to 1e-9 and
// rounded up by at least 2e-6 (test-samplers.R checks them on a grid).
struct QuadLin {
  double A, B;
};
inline const std::array<QuadLin, 25>& sinhc_bounds() {
  static const std::array<QuadLin, 25> table = {{
      {1.0 / 6.0, 0.0},   {0.16, 0.00285},  {0.15, 0.01149},  {0.14, 0.02375},
      {0.13, 0.03917},    {0.12, 0.05762},  {0.11, 0.07911},  {0.10, 0.10380},
      {0.09, 0.13193},    {0.08, 0.16388},  {0.07, 0.20021},  {0.06, 0.24173},
      {0.05, 0.28966},    {0.04, 0.34594},  {0.03, 0.41395},  {0.025, 0.45420},
      {0.02, 0.50043},    {0.015, 0.55517}, {0.01, 0.62347},  {0.007, 0.67563},
      {0.005, 0.71871},   {0.003, 0.77406}, {0.002, 0.81053}, {0.001, 0.86026},
      {0.0, 1.0},
  }};
  return table;
}

// Fraction of the unit sphere S^(d-1) within angle alpha (< pi/2) of a
// fixed direction: int_0^alpha sin^(d-2) / int_0^pi sin^(d-2).
inline double cap_fraction(int d, double alpha) {
  if (d <= 1) return 0.5;
  if (d == 2) return alpha / M_PI;
  // composite Simpson in log space (the integrand is smooth)
  auto integral = [d](double hi) {
    const int n = 4000;
    const double h = hi / n;
    double s = 0.0;
    for (int i = 0; i <= n; ++i) {
      const double th = i * h;
      const double w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
      const double sn = std::sin(th);
      if (sn > 0) s += w * std::exp((d - 2) * std::log(sn));
    }
    return s * h / 3.0;
  };
  return integral(alpha) / integral(M_PI);
}

}  // namespace polar

// Number of proposals after which a rejection loop whose acceptance is at
// least acc_lb fails with probability below p_fail; -1 when it would exceed
// the fixed cap (the sampler then refuses up front, see LaplacePlan).
constexpr double kMaxProposals = 1e7;
inline long public_attempt_bound(double acc_lb, double p_fail) {
  if (!(acc_lb > 0.0)) return -1;
  if (acc_lb >= 1.0) return 1;
  const double n = std::ceil(std::log(p_fail) / std::log1p(-acc_lb));
  if (!(n <= kMaxProposals)) return -1;
  return std::max(1L, static_cast<long>(n));
}

// ---------------------------------------------------------------------------
// The untruncated law around any mean: t by its hat, u uniform.
class PolarLaplace {
 public:
  enum class Kind { flat, radial, growth };

  PolarLaplace(const Manifold& M, double sigma) : M_(M), sigma_(sigma), d_(M.dim()) {
    if (!(sigma > 0) || !std::isfinite(sigma)) throw std::invalid_argument("sigma must be positive");
    spec_ = M.radial_jacobi_spectrum();
    T_ = M.injectivity_radius();
    growth_ = 0.0;
    if (!spec_.empty()) {
      bool flat = true;
      for (const auto& e : spec_) {
        if (e.second == 0) continue;
        if (e.first != 0.0) flat = false;
        if (e.first > 0.0) T_ = std::min(T_, M_PI / std::sqrt(e.first));
        if (e.first < 0.0) growth_ += e.second * std::sqrt(-e.first);
      }
      // flat only on an unbounded support (S^1 has no curvature term but t < pi)
      kind_ = flat && std::isinf(T_) ? Kind::flat : Kind::radial;
    } else {
      auto qc = M.volume_growth_bounds();
      if (!std::isfinite(qc.first) || !std::isfinite(qc.second))
        throw std::invalid_argument("no exact Riemannian Laplace sampler on this manifold");
      Q_ = qc.first;
      C_ = qc.second;
      growth_ = C_;
      kind_ = Kind::growth;
    }
    if (std::isinf(T_) && !(growth_ * sigma_ < 1.0)) {
      improper_ = true;
      return;
    }
    build_hat();
  }

  // sigma >= this makes the untruncated law improper (Inf when never).
  static double max_sigma(const Manifold& M) {
    auto spec = M.radial_jacobi_spectrum();
    double g = 0.0;
    if (!spec.empty()) {
      for (const auto& e : spec)
        if (e.first < 0.0) g += e.second * std::sqrt(-e.first);
    } else {
      g = M.volume_growth_bounds().second;
    }
    if (!std::isinf(M.injectivity_radius()) || !(g > 0.0))
      return std::numeric_limits<double>::infinity();
    return 1.0 / g;
  }

  bool improper() const { return improper_; }
  Kind kind() const { return kind_; }
  double sigma() const { return sigma_; }
  const Manifold& manifold() const { return M_; }

  // One proposal around `mean`: true (and y) when accepted.
  bool propose(const Vec& mean, Rng& rng, Vec& y) const {
    if (kind_ == Kind::flat) {
      const double t = rng.gamma(d_, sigma_);
      y = M_.exp(mean, t * random_unit_tangent(M_, mean, rng));
      return true;
    }
    double loghat;
    const double t = draw_hat(rng, loghat);
    if (kind_ == Kind::radial) {
      if (!(std::log(rng.uniform()) <= f(t) - loghat)) return false;
      y = M_.exp(mean, t * random_unit_tangent(M_, mean, rng));
      return true;
    }
    Vec v = t * random_unit_tangent(M_, mean, rng);
    if (!(std::log(rng.uniform()) <= f(t) + M_.log_volume_density(mean, v) - loghat)) return false;
    y = M_.exp(mean, v);
    return true;
  }

  // Public lower bound of int_0^T exp(f(t) - alpha t) dt / Z_hat, where
  // exp(f) is exp(-t/sigma) times the polar volume (radial, flat) or times
  // t^(d-1) (growth; J >= 1 there). It bounds from below
  //   alpha = 0, T = inf:  the acceptance of propose();
  //   alpha = 0:           P(t <= T) under the untruncated law;
  //   T = inf:             E[exp(-alpha t)] under the untruncated law.
  // (Gauss-Legendre on the pieces of the hat; the unbounded last piece is
  // left out, which only lowers the value.)
  double lower_integral(double T, double alpha) const {
    static const double x16[8] = {0.0950125098376374, 0.2816035507792589, 0.4580167776572274,
                                  0.6178762444026438, 0.7554044083550030, 0.8656312023878318,
                                  0.9445750230732326, 0.9894009349916499};
    static const double w16[8] = {0.1894506104550685, 0.1826034150449236, 0.1691565193950025,
                                  0.1495959888165767, 0.1246289712555339, 0.0951585116824928,
                                  0.0622535239386479, 0.0271524594117541};
    double s = 0.0;
    for (const auto& p : pieces_) {
      if (!std::isfinite(p.w)) continue;
      const double a = p.a, b = std::min(p.a + p.w, T);
      if (!(b > a)) continue;
      const double h = 0.5 * (b - a), c = 0.5 * (a + b);
      for (int i = 0; i < 8; ++i)
        for (int sgn = -1; sgn <= 1; sgn += 2) {
          const double t = c + sgn * h * x16[i];
          if (!(t > 0.0) || !(t < T_)) continue;
          const double e = f(t) - alpha * t - logZ_;
          if (std::isfinite(e)) s += w16[i] * h * std::exp(e);
        }
    }
    return s * (1.0 - 1e-6);
  }
  double acceptance_lb() const { return kind_ == Kind::flat ? 1.0 : lower_integral(inf(), 0.0); }

  // Bounds of log J on the ball of radius r around any point (the
  // uniform-on-ball proposal of BallLaplace).
  double log_j_upper(double r) const {
    if (kind_ == Kind::growth) return gmin(r);
    double s = 0.0;
    for (const auto& e : spec_)
      if (e.first < 0.0) s += e.second * polar::log_sinhc(std::sqrt(-e.first) * r);
    return s;
  }
  double log_j_lower(double r) const {
    if (kind_ == Kind::growth) return 0.0;
    double s = 0.0;
    for (const auto& e : spec_)
      if (e.first > 0.0) {
        const double x = std::sqrt(e.first) * std::min(r, T_);
        s += e.second * (x < M_PI ? std::log(sinc(x)) : -inf());
      }
    return s;
  }
  // log J(t u) for a unit tangent vector u at p.
  double log_j(const Vec& p, double t, const Vec& u) const {
    if (kind_ == Kind::growth) return M_.log_volume_density(p, t * u);
    double s = 0.0;
    for (const auto& e : spec_) {
      if (e.second == 0 || e.first == 0.0) continue;
      const double x = std::sqrt(std::fabs(e.first)) * t;
      s += e.second * (e.first > 0 ? std::log(sinc(x)) : polar::log_sinhc(x));
    }
    return s;
  }

 private:
  struct Piece {
    double a, w;          // [a, a + w), w may be inf for the last piece
    double alpha, beta;   // log hat(t) = alpha + beta (t - a)
    double logmass;
  };
  static double inf() { return std::numeric_limits<double>::infinity(); }

  // concave part of the log density (including -t/sigma)
  double f(double t) const {
    if (kind_ == Kind::growth || kind_ == Kind::flat) return -t / sigma_ + (d_ - 1) * std::log(t);
    double s = -t / sigma_;
    for (const auto& e : spec_)
      if (e.second) s += e.second * polar::log_s(e.first, t);
    return s;
  }
  double fprime(double t) const {
    if (kind_ == Kind::growth || kind_ == Kind::flat) return -1.0 / sigma_ + (d_ - 1) / t;
    double s = -1.0 / sigma_;
    for (const auto& e : spec_)
      if (e.second) s += e.second * polar::dlog_s(e.first, t);
    return s;
  }
  double gA(int i, double t) const {
    const auto& b = polar::sinhc_bounds()[i];
    return b.A * Q_ * t * t + b.B * C_ * t;
  }
  // best bound of sup_u log J(t u) in the family (0 unless growth)
  double gmin(double t) const {
    if (kind_ != Kind::growth) return 0.0;
    double g = inf();
    for (int i = 0; i < static_cast<int>(polar::sinhc_bounds().size()); ++i) g = std::min(g, gA(i, t));
    return g;
  }

  void add_piece(double a, double w, double alpha, double beta) {
    Piece p{a, w, alpha, beta, 0.0};
    double lm;
    if (std::isinf(w)) {
      lm = alpha - std::log(-beta);
    } else if (std::fabs(beta * w) < 1e-10) {
      lm = alpha + std::log(w);
    } else if (beta > 0) {
      lm = alpha + beta * w + std::log1p(-std::exp(-beta * w)) - std::log(beta);
    } else {
      lm = alpha + std::log(-std::expm1(beta * w)) - std::log(-beta);
    }
    p.logmass = lm;
    pieces_.push_back(p);
  }

  void build_hat() {
    // 1. how far the law reaches: scan a geometric grid for the maximum of
    // the bound of the log density, then go on until the density (and, for
    // an unbounded support, the last piece's bound) is below max - 50 and
    // that piece's slope is negative.
    const double tail_growth = kind_ == Kind::growth ? C_ : 0.0;
    double t = std::min(sigma_, T_ / 4.0) * 1e-3;
    double lmax = -inf(), t_hi = T_;
    bool found = false;
    for (int it = 0; it < 100000; ++it, t *= 1.01) {
      poll_interrupt();
      if (!(t < T_)) break;
      const double l = f(t) + gmin(t);
      if (l > lmax) lmax = l;
      const double ltail = f(t) + tail_growth * t;
      const double slope = fprime(t) + tail_growth;
      if (l < lmax - 50.0 && ltail < lmax - 50.0 && slope < 0.0) {
        t_hi = t;
        found = true;
        break;
      }
    }
    if (!found && std::isinf(T_)) throw std::runtime_error("Riemannian Laplace: hat construction failed");
    // 2. pieces of equal width on [0, t_hi], and the rest [t_hi, T)
    const int N = 128;
    const double w = t_hi / N;
    const int nb = static_cast<int>(polar::sinhc_bounds().size());
    for (int i = 0; i < N; ++i) {
      const double a = i * w, b = a + w, m = a + 0.5 * w;
      double ga = 0.0, gb = 0.0;
      if (kind_ == Kind::growth) {
        int best = 0;
        double bestv = inf();
        for (int j = 0; j < nb; ++j) {
          const double v = gA(j, a) + gA(j, b);
          if (v < bestv) {
            bestv = v;
            best = j;
          }
        }
        ga = gA(best, a);
        gb = gA(best, b);
      }
      const double fm = f(m), fp = fprime(m);
      add_piece(a, w, fm + fp * (a - m) + ga, fp + (gb - ga) / w);
    }
    if (t_hi < T_) {
      add_piece(t_hi, T_ - t_hi, f(t_hi) + tail_growth * t_hi, fprime(t_hi) + tail_growth);
    }
    // 3. normalise
    double mx = -inf();
    for (const auto& p : pieces_) mx = std::max(mx, p.logmass);
    double s = 0.0;
    cum_.clear();
    for (const auto& p : pieces_) {
      s += std::exp(p.logmass - mx);
      cum_.push_back(s);
    }
    for (auto& c : cum_) c /= s;
    cum_.back() = 1.0;
    logZ_ = mx + std::log(s);
    if (kind_ == Kind::flat) logZ_ = std::lgamma(static_cast<double>(d_)) + d_ * std::log(sigma_);
  }

  // t from the hat, with log hat(t) (unnormalised)
  double draw_hat(Rng& rng, double& loghat) const {
    const double u = rng.uniform();
    size_t i = std::upper_bound(cum_.begin(), cum_.end(), u) - cum_.begin();
    if (i >= pieces_.size()) i = pieces_.size() - 1;
    const Piece& p = pieces_[i];
    const double v = rng.uniform();
    double s;
    if (std::isinf(p.w)) {
      s = std::log(v) / p.beta;  // beta < 0
    } else if (std::fabs(p.beta * p.w) < 1e-10) {
      s = v * p.w;
    } else if (p.beta > 0) {
      s = p.w + std::log(std::exp(-p.beta * p.w) + v * (-std::expm1(-p.beta * p.w))) / p.beta;
    } else {
      s = std::log1p(v * std::expm1(p.beta * p.w)) / p.beta;
    }
    if (!std::isinf(p.w)) s = std::min(std::max(s, 0.0), p.w);
    loghat = p.alpha + p.beta * s;
    return p.a + s;
  }

  const Manifold& M_;
  double sigma_;
  int d_;
  Kind kind_ = Kind::flat;
  std::vector<std::pair<double, int>> spec_;
  double Q_ = 0.0, C_ = 0.0, T_ = 0.0, growth_ = 0.0;
  bool improper_ = false;
  std::vector<Piece> pieces_;
  std::vector<double> cum_;
  double logZ_ = 0.0;
};

// ---------------------------------------------------------------------------
// The Riemannian Laplace law restricted to a ball, by one of two proposals:
//   around_mean:  the untruncated law around the mean, kept when it falls in
//                 the ball; acceptance >= cap_fraction(d, pi/3) P(t <= T0)
//                 for a mean in the ball, since the geodesic cone of
//                 half-angle pi/3 and length T0 from the mean towards the
//                 centre lies in the ball (Toponogov's hinge comparison with
//                 curvature kappa_min: T0 = r when kappa_min >= 0, else
//                 T0 = (2/s) atanh(tanh(s r)/2), s = sqrt(-kappa_min));
//   uniform_ball: uniform on the ball (t = r U^(1/d) around the centre, kept
//                 with probability J(t u)/sup J), then kept with probability
//                 exp(-(dist(mean, y) - dmin)/sigma), dmin = max(0,
//                 dist(mean, center) - r); acceptance >=
//                 inf J / sup J * exp(-2r / sigma) for any mean.
// The plan takes the proposal with the larger public bound. With
// radius = Inf the law is the untruncated one.
struct LaplacePlan {
  enum class Regime { untruncated, around_mean, uniform_ball };
  Regime regime = Regime::untruncated;
  double acc_lb = 0.0;      // public lower bound of the acceptance per proposal
  long max_attempts = -1;   // public bound on proposals; -1: refused
  bool improper = false;    // untruncated law not normalisable (sigma too large)
  bool ok() const { return !improper && max_attempts > 0; }
};

class BallLaplace {
 public:
  BallLaplace(const Manifold& M, double sigma, const Ball& ball)
      : M_(M), ball_(ball), polar_(M, sigma), sigma_(sigma) {}

  const PolarLaplace& polar() const { return polar_; }

  // mean_in_ball: the caller guarantees dist(mean, center) <= radius (all
  // release paths: the data, hence their mean, are in the ball).
  LaplacePlan plan(bool mean_in_ball, double p_fail) const {
    return plan_for(M_, ball_.radius, polar_, sigma_, mean_in_ball, p_fail);
  }

  // A plan valid for every scale in [sigma_lo, sigma_hi], where `worst` is
  // the polar law at sigma_hi: the around-mean bound decreases with sigma,
  // the uniform-on-ball bound increases (used by the KNG sampler, whose
  // envelope scale depends on the data within public limits).
  static LaplacePlan plan_for(const Manifold& M, double r, const PolarLaplace& worst,
                              double sigma_lo, bool mean_in_ball, double p_fail) {
    LaplacePlan pl;
    if (std::isinf(r)) {
      pl.regime = LaplacePlan::Regime::untruncated;
      if (worst.improper()) {
        pl.improper = true;
        return pl;
      }
      pl.acc_lb = worst.acceptance_lb();
    } else {
      double lbA = 0.0;
      if (mean_in_ball && !worst.improper()) {
        const double kmin = M.kappa_min();
        const double T0 = kmin >= 0 ? r
                                    : 2.0 / std::sqrt(-kmin) *
                                          std::atanh(0.5 * std::tanh(std::sqrt(-kmin) * r));
        lbA = polar::cap_fraction(M.dim(), M_PI / 3.0) * worst.lower_integral(T0, 0.0);
      }
      const double lbB = std::exp(worst.log_j_lower(r) - worst.log_j_upper(r) - 2.0 * r / sigma_lo);
      if (lbA >= lbB) {
        pl.regime = LaplacePlan::Regime::around_mean;
        pl.acc_lb = lbA;
      } else {
        pl.regime = LaplacePlan::Regime::uniform_ball;
        pl.acc_lb = lbB;
      }
    }
    pl.max_attempts = public_attempt_bound(pl.acc_lb, p_fail);
    // The untruncated law's acceptance is the same for every mean (the
    // spaces are homogeneous), so its number of proposals reveals nothing
    // about the data: when the public bound is too loose to certify p_fail
    // within the cap, the fixed cap applies.
    if (pl.regime == LaplacePlan::Regime::untruncated && pl.max_attempts < 0 && pl.acc_lb > 0)
      pl.max_attempts = static_cast<long>(kMaxProposals);
    return pl;
  }

  // One exact draw around `mean`; false when the plan's bound on proposals
  // was reached. `proposals`, when given, accumulates the number of
  // proposals (for studies of the acceptance only; never released).
  bool draw(const Vec& mean, const LaplacePlan& pl, Rng& rng, Vec& y,
            long* proposals = nullptr) const {
    if (!pl.ok()) return false;
    if (pl.regime != LaplacePlan::Regime::uniform_ball) {
      for (long i = 0; i < pl.max_attempts; ++i) {
        poll_interrupt();
        if (proposals) ++*proposals;
        if (!polar_.propose(mean, rng, y)) continue;
        if (pl.regime == LaplacePlan::Regime::untruncated || ball_.contains(M_, y)) return true;
      }
      return false;
    }
    const double r = ball_.radius;
    const int d = M_.dim();
    const double dmin = std::max(0.0, M_.dist(mean, ball_.center) - r);
    const double lju = polar_.log_j_upper(r);
    auto dist_to_mean = M_.dist_from(mean);
    for (long i = 0; i < pl.max_attempts; ++i) {
      poll_interrupt();
      if (proposals) ++*proposals;
      const double t = r * std::pow(rng.uniform(), 1.0 / d);
      Vec u = random_unit_tangent(M_, ball_.center, rng);
      if (!(std::log(rng.uniform()) <= polar_.log_j(ball_.center, t, u) - lju)) continue;
      y = M_.exp(ball_.center, t * u);
      if (std::log(rng.uniform()) <= -(dist_to_mean(y) - dmin) / sigma_) return true;
    }
    return false;
  }

 private:
  const Manifold& M_;
  Ball ball_;
  PolarLaplace polar_;
  double sigma_;
};

}  // namespace dpmanifold

#endif
