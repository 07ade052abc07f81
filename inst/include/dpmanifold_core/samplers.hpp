// Samplers for the privacy mechanisms, written once against the manifold
// interface: the shared pieces (support ball, uniform directions, K-norm
// noise), the exact wrapped (tangent-space) laws, and a random-walk
// Metropolis-Hastings sampler used only when a caller asks for MCMC. The
// exact Riemannian Laplace and KNG samplers are in laplace_exact.hpp and
// kng_exact.hpp.
#ifndef DPMANIFOLD_SAMPLERS_HPP
#define DPMANIFOLD_SAMPLERS_HPP

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "batch.hpp"
#include "manifold.hpp"

namespace dpmanifold {

// Support of the restricted mechanisms: the closed geodesic ball B_r(center).
struct Ball {
  Vec center;
  double radius;
  std::function<double(const Vec&)> dist_to_center;  // prepared at the centre
  Ball(const Manifold& M, const Vec& c, double r)
      : center(c), radius(r), dist_to_center(M.dist_from(c)) {}
  bool contains(const Manifold&, const Vec& y) const {
    return std::isinf(radius) || dist_to_center(y) <= radius;
  }
};

// Unit tangent vector at p, uniformly distributed on the unit sphere of T_p.
inline Vec random_unit_tangent(const Manifold& M, const Vec& p, Rng& rng) {
  for (;;) {
    poll_interrupt();
    Vec u = M.random_tangent(p, rng);
    double n = M.norm(p, u);
    if (n > 1e-300) return u / n;
  }
}

// K-norm (l2) Laplace noise in R^d with density prop. to exp(-|z| / sigma):
// radius Gamma(d, sigma), direction uniform. Written into z (length d), so
// loops of draws need not allocate.
inline void euclidean_laplace_noise(Vec& z, double sigma, Rng& rng) {
  const int d = static_cast<int>(z.size());
  double n2 = 0.0;
  do {
    for (int i = 0; i < d; ++i) z(i) = rng.normal();
    n2 = z.squaredNorm();
  } while (n2 <= 0.0);
  z *= rng.gamma(d, sigma) / std::sqrt(n2);
}

// K-norm noise for a sum of points of the 3-simplex (in R^4) under
// replace-one: the changes fill K = {y: sum y = 0, sum |y| <= 2}, the
// difference body of the simplex; density prop. to exp(-|y|_K / scale) on
// the hyperplane is a Gamma(4, scale) radius times a uniform point of K,
// drawn by rejection from the cube [-1, 1]^3 that holds K (acceptance 5/12,
// a public constant). Written into y (length 4).
inline void simplex_difference_noise(Vec& y, double scale, Rng& rng) {
  double a = 0.0;
  do {
    y(0) = 2.0 * rng.uniform() - 1.0;
    y(1) = 2.0 * rng.uniform() - 1.0;
    y(2) = 2.0 * rng.uniform() - 1.0;
    y(3) = -(y(0) + y(1) + y(2));
    a = std::fabs(y(0)) + std::fabs(y(1)) + std::fabs(y(2)) + std::fabs(y(3));
  } while (a > 2.0);
  y *= rng.gamma(4.0, scale);
}

// Index drawn with probability prop. to exp(score_j): a finite exponential
// mechanism (scores already multiplied by epsilon / (2 sensitivity)); one
// uniform, inverse CDF.
inline int draw_index(const std::vector<double>& score, Rng& rng) {
  const double top = *std::max_element(score.begin(), score.end());
  std::vector<double> cum(score.size());
  double s = 0.0;
  for (std::size_t j = 0; j < score.size(); ++j) cum[j] = (s += std::exp(score[j] - top));
  const double u = rng.uniform() * s;
  for (std::size_t j = 0; j < cum.size(); ++j)
    if (u < cum[j]) return static_cast<int>(j);
  return static_cast<int>(cum.size()) - 1;
}

// A private quantile over a public grid: the index of a level of the
// increasing grid drawn with probability prop. to
// exp(-epsilon |#{x_i <= g_j} - q n| / 2 + log_weight_j) (log_weight
// empty: a uniform base measure). Replacing one x_i moves every count by at
// most 1: the exponential mechanism with sensitivity 1. The counts come
// from a histogram over the grid (bin j holds the values in
// (g_{j-1}, g_j]), one binary search per value.
inline int draw_quantile_level(const double* x, std::size_t n, const std::vector<double>& grid, double quantile,
                               double epsilon, const std::vector<double>& log_weight, Rng& rng) {
  const std::size_t levels = grid.size();
  std::vector<double> below(levels + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    below[static_cast<std::size_t>(std::lower_bound(grid.begin(), grid.end(), x[i]) - grid.begin())] += 1.0;
  }
  const double nd = static_cast<double>(n);
  std::vector<double> score(levels);
  double cnt = 0.0;
  for (std::size_t j = 0; j < levels; ++j) {
    cnt += below[j];
    score[j] = -epsilon * std::fabs(cnt - quantile * nd) / 2.0;
    if (j < log_weight.size()) score[j] += log_weight[j];
  }
  return draw_index(score, rng);
}

// Laplace(0, scale): an exponential length with a fair sign.
inline double laplace_draw(double scale, Rng& rng) {
  const double e = rng.exponential() * scale;
  return rng.uniform() < 0.5 ? -e : e;
}

// Laplace(0, scale) in each coordinate of z.
inline void laplace_noise(Vec& z, double scale, Rng& rng) {
  for (Eigen::Index i = 0; i < z.size(); ++i) z(i) = laplace_draw(scale, rng);
}

// ---------------------------------------------------------------------------
// Wrapped mechanisms (Hadamard manifolds), 003 Algorithm 1: perturb the
// coordinates of log_{p0}(mean) in an orthonormal basis of T_{p0}, map back
// with exp_{p0} (exp_coords = M.exp_coords_from(p0), center_coords =
// M.tangent_coords(p0, log_{p0}(mean)), both prepared once).
enum class WrappedNoise { laplace, gaussian };

// `work` is scratch space (resized as needed), so that a loop of draws
// allocates nothing but its results.
inline Vec wrapped_draw(const std::function<Vec(const Vec&)>& exp_coords,
                        const Vec& center_coords, double sigma, WrappedNoise kind, Rng& rng,
                        Vec& work) {
  const int d = static_cast<int>(center_coords.size());
  work.resize(d);
  if (kind == WrappedNoise::laplace) {
    euclidean_laplace_noise(work, sigma, rng);
  } else {
    for (int i = 0; i < d; ++i) work(i) = sigma * rng.normal();
  }
  work += center_coords;
  return exp_coords(work);
}

// ---------------------------------------------------------------------------
// Random-walk Metropolis-Hastings, written once over a "chain space" that
// says how to propose, what the support is and how to record a state:
//   PointSpace: a point of M in a ball, y = exp_x(step * xi);
//   PairSpace (regression.hpp): a footpoint and a shooting vector.
// xi is an isotropic standard Gaussian tangent vector. On the symmetric
// spaces of this package these proposals are symmetric w.r.t. the volume
// measure, so the acceptance ratio is the target ratio. Proposals outside the
// support are rejected.
//
// The chain is NOT adaptive: its step is s.step when given, otherwise the
// caller's scale_hint, which the caller computes from public quantities
// (sigma, the radius of the support, the dimension), capped by the
// support's max_step(). A step tuned on the data's target would itself be a
// release (SPEC section 3). Nothing about the chain's path (acceptance,
// moves) is returned.
struct MCMCSettings {
  int burnin = 5000;
  int thin = 5000;       // steps between retained draws (after burn-in)
  int n_draws = 1;
  double step = 0.0;     // 0 means "the caller's public scale hint"
  bool keep_chain = false;
};

struct MCMCResult {
  Mat draws;  // flat states, one column per retained draw
  Mat chain;  // every post-burn-in state, only if keep_chain
};

// A log target that declares `static constexpr bool cheap = true` costs
// about as much as the support check (one distance); it is then evaluated
// first, and only proposals that pass the Metropolis test pay for the
// support check. Expensive targets (KNG: n log maps) go after the check.
template <class T, class = void>
struct evaluate_target_first : std::false_type {};
template <class T>
struct evaluate_target_first<T, decltype((void)T::cheap, void())>
    : std::integral_constant<bool, T::cheap> {};

template <class Space, class LogTarget>
MCMCResult run_metropolis(const Space& space, const LogTarget& log_target,
                          const typename Space::State& x0, double scale_hint,
                          const MCMCSettings& s, Rng& rng) {
  MCMCResult res;
  const double max_step = space.max_step();
  double step = s.step > 0 ? s.step : scale_hint;
  step = std::min(std::max(step, 1e-12), max_step);

  typename Space::State x = x0;
  double lx = log_target(x);
  // accept iff the proposal is in the support and passes the Metropolis
  // test; the order of the two checks does not change the chain's law
  const bool target_first = evaluate_target_first<LogTarget>::value;
  auto mh_step = [&]() {
    typename Space::State y = space.propose(x, step, rng);
    if (!target_first && !space.in_support(y)) return;
    double ly = log_target(y);
    if (!(std::log(rng.uniform()) < ly - lx)) return;
    if (target_first && !space.in_support(y)) return;
    x = y;
    lx = ly;
  };

  for (int i = 0; i < s.burnin; ++i) {
    poll_interrupt();
    mh_step();
  }
  const long total = static_cast<long>(s.thin) * s.n_draws;
  const int D = static_cast<int>(space.flatten(x).size());
  res.draws.resize(D, s.n_draws);
  if (s.keep_chain) res.chain.resize(D, total);
  for (long i = 0; i < total; ++i) {
    poll_interrupt();
    mh_step();
    if (s.keep_chain) res.chain.col(i) = space.flatten(x);
    if ((i + 1) % s.thin == 0) res.draws.col((i + 1) / s.thin - 1) = space.flatten(x);
  }
  return res;
}

// Public default step of the random walk for a Laplace-type target of scale
// sigma in dimension d: the Gaussian random walk's rule of thumb
// 2.38 / sqrt(d) times the target's coordinate spread sigma sqrt(d + 1).
// The support's max_step() caps it.
inline double public_mcmc_step(double sigma, int d) {
  return 2.38 * sigma * std::sqrt((d + 1.0) / d);
}

// A point of M restricted to a ball.
struct PointSpace {
  using State = Vec;
  const Manifold& M;
  Ball ball;
  State propose(const State& x, double step, Rng& rng) const { return M.random_step(x, step, rng); }
  bool in_support(const State& y) const { return ball.contains(M, y); }
  Vec flatten(const State& x) const { return x; }
  // Where the ball binds (sigma large against the radius, e.g. KNG in many
  // dimensions), the target is close to uniform on the ball, and a random
  // walk on the uniform d-ball of radius R mixes with the per-coordinate
  // step 2.38 R / sqrt(d (d + 2)) (coordinate spread R / sqrt(d + 2)). A
  // longer cap (the old 2R / sqrt(d): proposals of length 2R) leaves a
  // chain in d = 96 at its start. R is public: the radius, or half the
  // injectivity radius.
  double max_step() const {
    double R = std::min(ball.radius, 0.5 * M.injectivity_radius());
    if (std::isinf(R)) return std::numeric_limits<double>::infinity();
    const double d = static_cast<double>(M.dim());
    return 2.38 * R / std::sqrt(d * (d + 2.0));
  }
};

// Public starting point of a chain for a Laplace-type target of scale sigma
// whose mode is near the public centre: a point at distance
// min((d - 1) sigma, 0.9 R) in a uniform direction (R the ball's radius, or
// half the injectivity radius). In many dimensions such a target has a
// cusp at its mode and its mass on a shell of radius about (d - 1) sigma; a
// random walk started at the mode, with a step sized for the shell, is
// rejected forever (Kendall(50), d = 96: the chain never left the centre).
// Depends on sigma, the ball and d only.
inline Vec public_chain_start(const Manifold& M, const Ball& ball, double sigma, Rng& rng) {
  const int d = M.dim();
  const double R = std::min(ball.radius, 0.5 * M.injectivity_radius());
  double rho = (d - 1.0) * sigma;
  if (std::isfinite(R)) rho = std::min(rho, 0.9 * R);
  if (!(rho > 0.0) || !std::isfinite(rho)) return ball.center;
  Vec u = M.random_tangent(ball.center, rng);
  const double len = M.norm(ball.center, u);
  if (!(len > 0.0)) return ball.center;
  return M.exp(ball.center, (rho / len) * u);
}

template <class LogTarget>
MCMCResult metropolis_hastings(const Manifold& M, const LogTarget& log_target, const Ball& ball,
                               const Vec& x0, double scale_hint, const MCMCSettings& s, Rng& rng) {
  return run_metropolis(PointSpace{M, ball}, log_target, x0, scale_hint, s, rng);
}

// ---------------------------------------------------------------------------
// Log targets (up to their normalising constants).

// Riemannian Laplace: -dist(mean, y) / sigma.
struct LaplaceLogTarget {
  static constexpr bool cheap = true;
  std::function<double(const Vec&)> dist_to_mean;
  double sigma;
  LaplaceLogTarget(const Manifold& M, const Vec& mean, double s)
      : dist_to_mean(M.dist_from(mean)), sigma(s) {}
  double operator()(const Vec& y) const { return -dist_to_mean(y) / sigma; }
};

// K-norm gradient of the Frechet objective: (1/n) sum_j log_y(x_j) is minus
// the gradient of F at y (one parallel pass, batch.hpp).
inline Vec kng_gradient(const Manifold& M, const Vec& y, const ConstPoints& X) {
  return frechet_sums(M, y, X, Vec()).g / static_cast<double>(X.cols());
}

struct KngLogTarget {
  const Manifold& M;
  ConstPoints X;  // a view of the caller's data
  double sigma;
  double operator()(const Vec& y) const { return -M.norm(y, kng_gradient(M, y, X)) / sigma; }
};

}  // namespace dpmanifold

#endif
