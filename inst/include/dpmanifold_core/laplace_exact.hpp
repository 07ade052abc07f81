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
#include "status.hpp"

namespace dpmanifold {

namespace polar {

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

// log Abar(t) of a polar volume that dominates the manifold's in likelihood
// ratio: A(t, u) / Abar(t) is nonincreasing in t for every unit direction u,
// A(t, u) = t^(d-1) J(t u) the polar volume (confint(): inst/proofs/
// confidence-balls.md). Where J depends on |v| only (flat, constant
// curvature, rank-one spaces), Abar = A: sum over the radial Jacobi
// spectrum of m log s_mu(t) (exact). Otherwise (SPD, affine-invariant)
// Abar(t) = t^(d-1) sinh(C t) / (C t) with C >= sum a over the root values
// a(u) (Manifold::volume_growth_bounds): d/dt log J(t u) =
// sum_a (a coth(a t) - 1/t) <= C coth(C t) - 1/t, since a -> a coth(a t) - 1/t
// is convex with value 0 at a = 0, hence superadditive, and increasing.
// `exact` is set to whether Abar = A.
inline double log_polar_volume_bound(const Manifold& M, double t, bool* exact = nullptr) {
  auto spec = M.radial_jacobi_spectrum();
  if (exact) *exact = !spec.empty();
  if (!(t > 0.0)) return M.dim() == 1 ? 0.0 : -std::numeric_limits<double>::infinity();
  if (!spec.empty()) {
    double s = 0.0;
    for (const auto& e : spec)
      if (e.second > 0) s += e.second * polar::log_s(e.first, t);
    return s;
  }
  const double C = M.volume_growth_bounds().second;
  if (!std::isfinite(C)) throw std::invalid_argument("no polar volume bound on this manifold");
  return (M.dim() - 1) * std::log(t) + log_sinhc(C * t);
}

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

// Geodesic cones inside a ball. For a point m of B_r(c) (r below the
// injectivity radius), the cone {exp_m(t u): t <= T, angle(u, log_m c) <=
// alpha} lies in the ball when T = cone_length(M, r, alpha), alpha in
// [pi/3, pi/2): by Toponogov's hinge comparison with curvature kappa_min,
// dist(c, exp_m(t u)) is at most the third side of the comparison triangle
// with sides s = dist(m, c) <= r, t and angle <= alpha, which is <= r for
// all s in [0, r] when t <= 2 r cos(alpha) (kappa_min >= 0), resp.
// t <= (2/q) atanh(tanh(q r) cos(alpha)), q = sqrt(-kappa_min) (it is convex
// in s: the endpoints s = 0, s = r decide).
inline double cone_length(const Manifold& M, double r, double alpha) {
  const double kmin = M.kappa_min();
  if (kmin >= 0.0) return 2.0 * r * std::cos(alpha);
  const double q = std::sqrt(-kmin);
  return 2.0 / q * std::atanh(std::tanh(q * r) * std::cos(alpha));
}

// max over a grid of alpha of cap_fraction(d, alpha) * mass(cone_length),
// with mass(T) a lower bound of P(t <= T) (a public function).
template <class MassFn>
inline double best_cone_bound(const Manifold& M, double r, MassFn mass) {
  double best = 0.0;
  for (int j = 0; j < 24; ++j) {
    const double alpha = M_PI / 3.0 + j * (M_PI / 2.0 - M_PI / 3.0) / 24.0;
    const double cf = polar::cap_fraction(M.dim(), alpha);
    if (!(cf > best)) continue;
    best = std::max(best, cf * mass(cone_length(M, r, alpha)));
  }
  return best;
}

// A radial potential V(t), piecewise linear: V(0) = 0, slope slopes[j] on
// [knots[j], knots[j+1]) and slopes.back() beyond the last knot. The
// Riemannian Laplace law has V(t) = t / sigma; the KNG envelope has a
// concave V (kng_exact.hpp).
struct RadialPotential {
  std::vector<double> knots{0.0};
  std::vector<double> slopes;
  std::vector<double> at_knot{0.0};
  static RadialPotential linear(double rate) {
    RadialPotential v;
    v.slopes = {rate};
    return v;
  }
  // from slopes on [k_j, k_{j+1}), the last one continuing beyond
  RadialPotential() = default;
  RadialPotential(const std::vector<double>& k, const std::vector<double>& sl) : knots(k), slopes(sl) {
    at_knot.assign(knots.size(), 0.0);
    for (size_t j = 1; j < knots.size(); ++j)
      at_knot[j] = at_knot[j - 1] + slopes[j - 1] * (knots[j] - knots[j - 1]);
  }
  size_t segment(double t) const {
    size_t j = std::upper_bound(knots.begin(), knots.end(), t) - knots.begin();
    return j == 0 ? 0 : j - 1;
  }
  double value(double t) const {
    const size_t j = segment(t);
    return at_knot[j] + slopes[j] * (t - knots[j]);
  }
  double slope(double t) const { return slopes[segment(t)]; }
  double last_slope() const { return slopes.back(); }
  bool is_linear() const { return slopes.size() == 1; }
  bool is_concave() const {
    for (size_t j = 1; j < slopes.size(); ++j)
      if (slopes[j] > slopes[j - 1]) return false;
    return true;
  }
};

// ---------------------------------------------------------------------------
// The radial law  prop. to exp(-V(t)) t^(d-1) J(t u)  around any point, on
// t < min(injectivity radius, t_cap): t by its hat, u uniform.
class PolarLaplace {
 public:
  enum class Kind { flat, radial, growth };

  // The Riemannian Laplace law of scale sigma.
  PolarLaplace(const Manifold& M, double sigma, double t_cap = std::numeric_limits<double>::infinity())
      : PolarLaplace(M, RadialPotential::linear(1.0 / check_sigma(sigma)), t_cap) {
    sigma_ = sigma;
  }

  PolarLaplace(const Manifold& M, const RadialPotential& V,
               double t_cap = std::numeric_limits<double>::infinity())
      : M_(M), V_(V), d_(M.dim()) {
    spec_ = M.radial_jacobi_spectrum();
    T_ = std::min(M.injectivity_radius(), t_cap);
    growth_ = 0.0;
    if (!spec_.empty()) {
      bool flat = true;
      for (const auto& e : spec_) {
        if (e.second == 0) continue;
        if (e.first != 0.0) flat = false;
        if (e.first > 0.0) T_ = std::min(T_, M_PI / std::sqrt(e.first));
        if (e.first < 0.0) growth_ += e.second * std::sqrt(-e.first);
      }
      // Gamma radii only for the Laplace potential on an unbounded support
      kind_ = flat && std::isinf(T_) && V.is_linear() ? Kind::flat : Kind::radial;
    } else {
      auto qc = M.volume_growth_bounds();
      if (!std::isfinite(qc.first) || !std::isfinite(qc.second))
        throw std::invalid_argument("no exact Riemannian Laplace sampler on this manifold");
      Q_ = qc.first;
      C_ = qc.second;
      growth_ = C_;
      kind_ = Kind::growth;
    }
    if (V.is_linear()) sigma_ = 1.0 / V.last_slope();
    if (std::isinf(T_) && !(growth_ < V.last_slope())) {
      improper_ = true;
      return;
    }
    build_hat();
  }

  // sigma >= this makes the untruncated Laplace law improper (Inf when never).
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
  const RadialPotential& potential() const { return V_; }
  const Manifold& manifold() const { return M_; }
  double support() const { return T_; }

  // A radius from the hat, with the log of the hat there (for callers that
  // run their own acceptance test, kng_exact.hpp).
  double draw_radius(Rng& rng, double& loghat) const { return draw_hat(rng, loghat); }
  // log of exp(-V(t)) t^(d-1) J: exact (radial, flat), with J(t u) for the
  // unit tangent vector u at p (growth).
  double log_density(const Vec& p, double t, const Vec& u) const {
    double l = f(t) - V_.value(t);
    if (kind_ == Kind::growth) l += M_.log_volume_density(p, t * u);
    return l;
  }
  bool direction_dependent() const { return kind_ == Kind::growth; }
  // radial part only (kind != growth)
  double log_density_radial(double t) const { return f(t) - V_.value(t); }

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
      if (!(std::log(rng.uniform()) <= f(t) - V_.value(t) - loghat)) return false;
      y = M_.exp(mean, t * random_unit_tangent(M_, mean, rng));
      return true;
    }
    Vec v = t * random_unit_tangent(M_, mean, rng);
    if (!(std::log(rng.uniform()) <= f(t) - V_.value(t) + M_.log_volume_density(mean, v) - loghat))
      return false;
    y = M_.exp(mean, v);
    return true;
  }

  // log of int_0^T exp(log A(t) - V(t) - alpha t) dt, A the polar volume
  // (radial, flat; for growth t^(d-1), a lower bound since J >= 1), by
  // Gauss-Legendre on the pieces of the hat: the unbounded last piece is
  // left out (a lower bound). upper = true: for growth with the bound
  // exp(gmin(t)) of J, plus the hat's mass beyond the pieces, and a margin
  // for the quadrature error (an upper bound).
  double log_mass(double T, double alpha, bool upper) const {
    static const double x16[8] = {0.0950125098376374, 0.2816035507792589, 0.4580167776572274,
                                  0.6178762444026438, 0.7554044083550030, 0.8656312023878318,
                                  0.9445750230732326, 0.9894009349916499};
    static const double w16[8] = {0.1894506104550685, 0.1826034150449236, 0.1691565193950025,
                                  0.1495959888165767, 0.1246289712555339, 0.0951585116824928,
                                  0.0622535239386479, 0.0271524594117541};
    if (improper_) return upper ? inf() : -inf();
    double s = 0.0, extra = 0.0;
    for (const auto& p : pieces_) {
      const double a = p.a;
      if (!(T > a)) continue;
      if (!std::isfinite(p.w) || p.tail) {
        if (upper) extra += std::exp(p.logmass - logZref_);
        continue;
      }
      const double b = std::min(p.a + p.w, T);
      const double h = 0.5 * (b - a), c = 0.5 * (a + b);
      for (int i = 0; i < 8; ++i)
        for (int sgn = -1; sgn <= 1; sgn += 2) {
          const double t = c + sgn * h * x16[i];
          if (!(t > 0.0) || !(t < T_)) continue;
          double e = f(t) - V_.value(t) - alpha * t - logZref_;
          if (upper) e += gmin(t);
          if (std::isfinite(e)) s += w16[i] * h * std::exp(e);
        }
    }
    if (upper) return logZref_ + std::log(s * (1.0 + 1e-6) + extra);
    return logZref_ + std::log(s * (1.0 - 1e-6));
  }
  // log of the hat's total mass (an upper bound of the law's mass; exact for
  // the flat Laplace law).
  double log_hat_mass() const { return logZ_; }
  // Public lower bound of the acceptance of propose().
  double acceptance_lb() const {
    if (improper_) return 0.0;
    return kind_ == Kind::flat ? 1.0 : std::exp(log_mass(inf(), 0.0, false) - logZ_);
  }
  // Lower bound of P(t <= T) under the law.
  double cdf_lb(double T) const {
    if (improper_) return 0.0;
    return std::min(1.0, std::exp(log_mass(T, 0.0, false) - logZ_));
  }

  // Bounds of log J on the ball of radius r around any point (the
  // uniform-on-ball proposals).
  double log_j_upper(double r) const {
    if (kind_ == Kind::growth) return gmin(r);
    double s = 0.0;
    for (const auto& e : spec_)
      if (e.first < 0.0) s += e.second * log_sinhc(std::sqrt(-e.first) * r);
    return s;
  }
  double log_j_lower(double r) const {
    if (kind_ == Kind::growth) return 0.0;
    double s = 0.0;
    for (const auto& e : spec_)
      if (e.first > 0.0 && e.second > 0) {
        const double x = std::sqrt(e.first) * r;
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
      s += e.second * (e.first > 0 ? std::log(sinc(x)) : log_sinhc(x));
    }
    return s;
  }

 private:
  struct Piece {
    double a, w;          // [a, a + w), w may be inf for the last piece
    double alpha, beta;   // log hat(t) = alpha + beta (t - a)
    double logmass;
    bool tail;
  };
  static double inf() { return std::numeric_limits<double>::infinity(); }
  static double check_sigma(double sigma) {
    if (!(sigma > 0) || !std::isfinite(sigma)) throw std::invalid_argument("sigma must be positive");
    return sigma;
  }

  // concave part of the log density: log of the polar volume (radial,
  // flat) or log t^(d-1) (growth)
  double f(double t) const {
    if (kind_ != Kind::radial) return (d_ - 1) * std::log(t);
    double s = 0.0;
    for (const auto& e : spec_)
      if (e.second) s += e.second * polar::log_s(e.first, t);
    return s;
  }
  double fprime(double t) const {
    if (kind_ != Kind::radial) return (d_ - 1) / t;
    double s = 0.0;
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

  void add_piece(double a, double w, double alpha, double beta, bool tail) {
    Piece p{a, w, alpha, beta, 0.0, tail};
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

  // Upper bound of log J on [a, b] by a chord (growth), the family member
  // with the smallest chord; 0 otherwise.
  void chord_j(double a, double b, double& ga, double& gb) const {
    ga = gb = 0.0;
    if (kind_ != Kind::growth) return;
    const int nb = static_cast<int>(polar::sinhc_bounds().size());
    double bestv = inf();
    for (int j = 0; j < nb; ++j) {
      const double v = gA(j, a) + gA(j, b);
      if (v < bestv) {
        bestv = v;
        ga = gA(j, a);
        gb = gA(j, b);
      }
    }
  }

  void build_hat() {
    // The hat: on each piece [a, b], the tangent of the concave part f at
    // the midpoint, plus the chord of the convex part -V (V concave) and of
    // the bound of log J. (A convex V gives no valid hat; such laws are only
    // integrated, never sampled: see sampleable().)
    // 1. how far the law reaches: scan a geometric grid for the maximum of
    // the bound of the log density, then go on until it (and, for an
    // unbounded support, the last piece's bound) is below max - 50 and that
    // piece's slope is negative.
    const double tail_growth = kind_ == Kind::growth ? C_ : 0.0;
    double t = std::min(1.0 / V_.slope(0.0), T_ / 4.0) * 1e-3;
    double lmax = -inf(), t_hi = T_;
    bool found = false;
    for (int it = 0; it < 100000; ++it, t *= 1.01) {
      poll_interrupt();
      if (!(t < T_)) break;
      const double l = f(t) - V_.value(t) + gmin(t);
      if (l > lmax) lmax = l;
      const double ltail = f(t) - V_.value(t) + tail_growth * t;
      const double slope = fprime(t) - V_.slope(t) + tail_growth;
      // (an unbounded last piece needs V linear there: beyond V's last knot)
      if (l < lmax - 50.0 && ltail < lmax - 50.0 && slope < 0.0 &&
          (std::isfinite(T_) || t >= V_.knots.back())) {
        t_hi = t;
        found = true;
        break;
      }
    }
    if (!found && std::isinf(T_)) throw std::runtime_error("Riemannian Laplace: hat construction failed");
    // 2. pieces of equal width on [0, t_hi] (knots of V added), and the rest
    std::vector<double> cuts;
    const int N = 128;
    for (int i = 0; i <= N; ++i) cuts.push_back(t_hi * i / N);
    for (double k : V_.knots)
      if (k > 0.0 && k < t_hi) cuts.push_back(k);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      const double a = cuts[i], b = cuts[i + 1], w = b - a;
      if (!(w > 0)) continue;
      const double m = a + 0.5 * w;
      double ga, gb;
      chord_j(a, b, ga, gb);
      ga -= V_.value(a);
      gb -= V_.value(b);
      const double fm = f(m), fp = fprime(m);
      add_piece(a, w, fm + fp * (a - m) + ga, fp + (gb - ga) / w, false);
    }
    if (t_hi < T_) {
      // tangent of f at t_hi, the bound C t of log J, and -V: its last slope
      // when unbounded (linear there), else its chord over [t_hi, T)
      const double vs = std::isinf(T_) ? V_.last_slope() : (V_.value(T_) - V_.value(t_hi)) / (T_ - t_hi);
      add_piece(t_hi, T_ - t_hi, f(t_hi) - V_.value(t_hi) + tail_growth * t_hi,
                fprime(t_hi) - vs + tail_growth, true);
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
    logZref_ = logZ_;
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
  RadialPotential V_;
  double sigma_ = 0.0;  // the Laplace scale when V is linear
  int d_;
  Kind kind_ = Kind::flat;
  std::vector<std::pair<double, int>> spec_;
  double Q_ = 0.0, C_ = 0.0, T_ = 0.0, growth_ = 0.0;
  bool improper_ = false;
  std::vector<Piece> pieces_;
  std::vector<double> cum_;
  double logZ_ = 0.0, logZref_ = 0.0;
};

// ---------------------------------------------------------------------------
// The Riemannian Laplace law restricted to a ball, by one of two proposals:
//   around_mean:  the law around the mean (radius capped at 2r when the mean
//                 is in the ball, which then contains the whole ball), kept
//                 when it falls in the ball; acceptance per proposal >=
//                 cap_fraction(d, alpha) P(t <= T(alpha)) / (hat's
//                 inefficiency) for a mean in the ball, since the geodesic
//                 cone of half-angle alpha and length T(alpha) =
//                 cone_length() from the mean towards the centre lies in the
//                 ball (best alpha on a grid);
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
  Status status() const { return improper ? Status::improper : ok() ? Status::ok : Status::refused; }
};

class BallLaplace {
 public:
  // mean_in_ball: the caller guarantees dist(mean, center) <= radius for
  // every mean it will pass (all release paths: the data, hence their mean,
  // are in the ball).
  BallLaplace(const Manifold& M, double sigma, const Ball& ball, bool mean_in_ball)
      : M_(M), ball_(ball), sigma_(sigma), mean_in_ball_(mean_in_ball),
        polar_(M, sigma, mean_in_ball && std::isfinite(ball.radius)
                             ? 2.0 * ball.radius
                             : std::numeric_limits<double>::infinity()) {}

  const PolarLaplace& polar() const { return polar_; }

  // The proposal plan, computed once per law and failure probability (its
  // acceptance bounds integrate the hat: a few milliseconds) and reused by
  // every draw of the release.
  const LaplacePlan& plan(double p_fail) const {
    if (!(planned_ && planned_p_fail_ == p_fail)) {
      plan_ = make_plan(p_fail);
      planned_p_fail_ = p_fail;
      planned_ = true;
    }
    return plan_;
  }

 private:
  LaplacePlan make_plan(double p_fail) const {
    LaplacePlan pl;
    const double r = ball_.radius;
    if (std::isinf(r)) {
      pl.regime = LaplacePlan::Regime::untruncated;
      if (polar_.improper()) {
        pl.improper = true;
        return pl;
      }
      pl.acc_lb = polar_.acceptance_lb();
    } else {
      double lbA = 0.0;
      if (mean_in_ball_ && !polar_.improper()) {
        // per proposal: (law's mass in the cone) / (hat's mass)
        lbA = best_cone_bound(M_, r, [this](double T) {
          return std::exp(polar_.log_mass(T, 0.0, false) - polar_.log_hat_mass());
        });
      }
      const double lbB = std::exp(polar_.log_j_lower(r) - polar_.log_j_upper(r) - 2.0 * r / sigma_);
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

 public:
  // One exact draw around `mean`; false only when the plan refused the
  // public parameters. Once the plan is ok the loop runs until a proposal
  // is accepted: its public acceptance bound makes the expected number of
  // proposals at most 1 / acc_lb, and stopping at a cap would make the
  // release fail with a data-dependent probability (a delta; see
  // inst/proofs/exact-samplers.md). It polls for interrupts.
  // `proposals`, when given, accumulates the number of proposals (for
  // studies of the acceptance only; never released).
  bool draw(const Vec& mean, const LaplacePlan& pl, Rng& rng, Vec& y,
            long* proposals = nullptr) const {
    if (!pl.ok()) return false;
    if (pl.regime != LaplacePlan::Regime::uniform_ball) {
      for (;;) {
        poll_interrupt();
        if (proposals) ++*proposals;
        if (!polar_.propose(mean, rng, y)) continue;
        if (pl.regime == LaplacePlan::Regime::untruncated || ball_.contains(M_, y)) return true;
      }
    }
    const double r = ball_.radius;
    const double dmin = std::max(0.0, M_.dist(mean, ball_.center) - r);
    auto dist_to_mean = M_.dist_from(mean);
    for (;;) {
      poll_interrupt();
      if (proposals) ++*proposals;
      if (!uniform_on_ball(M_, polar_, ball_, rng, y)) continue;
      if (std::log(rng.uniform()) <= -(dist_to_mean(y) - dmin) / sigma_) return true;
    }
  }

  // One proposal of the uniform law on the ball (polar coordinates around
  // the centre, kept with probability J / sup J): true and y when kept.
  static bool uniform_on_ball(const Manifold& M, const PolarLaplace& polar, const Ball& ball, Rng& rng,
                              Vec& y) {
    const double r = ball.radius;
    const double t = r * std::pow(rng.uniform(), 1.0 / M.dim());
    Vec u = random_unit_tangent(M, ball.center, rng);
    if (!(std::log(rng.uniform()) <= polar.log_j(ball.center, t, u) - polar.log_j_upper(r))) return false;
    y = M.exp(ball.center, t * u);
    return true;
  }

 private:
  const Manifold& M_;
  Ball ball_;
  double sigma_;
  bool mean_in_ball_;
  PolarLaplace polar_;
  mutable LaplacePlan plan_;
  mutable double planned_p_fail_ = 0.0;
  mutable bool planned_ = false;
};

}  // namespace dpmanifold

#endif
