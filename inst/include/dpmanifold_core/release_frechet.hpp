// The data work of a private Frechet mean, in one call: the data are
// validated column by column, the points that double precision does not
// hold are replaced by the public centre, every point is moved onto the
// public ball, and the mechanism's law is drawn (exact sampler, or a chain
// when the caller asked for one). The parameters are public and decoded by
// the caller; the result is a status and the estimate, nothing else about
// the data. Proofs: inst/proofs/public-ball.md, riemannian-laplace.md,
// kng.md, wrapped.md.
#ifndef DPMANIFOLD_RELEASE_FRECHET_HPP
#define DPMANIFOLD_RELEASE_FRECHET_HPP

#include <string>

#include "frechet_mean.hpp"
#include "kng_exact.hpp"
#include "laplace_exact.hpp"
#include "samplers.hpp"

namespace dpmanifold {

enum class FrechetLaw { laplace, kng, wrapped_laplace, wrapped_gaussian, none };

// Public parameters of one release.
struct FrechetReleaseSpec {
  FrechetLaw law = FrechetLaw::laplace;
  double sigma = 1.0;
  Vec center;
  double radius = 0.0;
  bool truncated = true;   // laplace: the law restricted to the ball
  Vec footpoint;           // wrapped laws
  bool chain = false;      // laplace, kng: Metropolis-Hastings (asked for)
  MCMCSettings mcmc;
  double p_fail = 1e-10;   // exact samplers: failure probability certified
  double tol = 1e-8;       // membership tolerance of the data
  bool nonprivate = false; // also return the non-private mean (studies only)
};

// Outcomes. `malformed`: the data hold something that is not a point of M
// (outside the neighbouring relation; the first reason is returned).
// `improper`, `refused`: the public parameters are beyond the sampler
// (decided without data). `exhausted`: an exact sampler reached its public
// bound on proposals (probability below p_fail).
enum class ReleaseStatus { ok, malformed, improper, refused, exhausted };

struct FrechetRelease {
  ReleaseStatus status = ReleaseStatus::ok;
  Vec estimate;
  std::string why;         // malformed: the first reason
  double max_attempts = 0; // refused / exhausted: the public bound
  Vec nonprivate_mean;     // only when spec.nonprivate
  long clipped = 0;        // only when spec.nonprivate
};

// Validates, replaces and clips the columns of X in place (SPEC section 6).
// Returns false (and the first reason) when X holds a non-point.
inline bool prepare_release_data(const Manifold& M, Mat& X, const Vec& center, double radius,
                                 double tol, std::string& why, long& moved) {
  moved = 0;
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    poll_interrupt();
    Vec p = X.col(j);
    std::string r = M.check_point(p, tol);
    if (!r.empty()) {
      if (M.check_accuracy(p, tol).empty()) {
        why = r;
        return false;
      }
      X.col(j) = center;  // a point double precision does not hold
      ++moved;
      continue;
    }
    p = M.project_point(p);
    const Vec q = M.clip_towards(center, p, radius);  // p itself when inside
    if ((q - p).squaredNorm() > 0.0) ++moved;
    X.col(j) = q;
  }
  return true;
}

inline FrechetRelease release_frechet(const Manifold& M, Mat& X, const FrechetReleaseSpec& s, Rng& rng) {
  FrechetRelease out;
  long moved = 0;
  if (!prepare_release_data(M, X, s.center, s.radius, s.tol, out.why, moved)) {
    out.status = ReleaseStatus::malformed;
    return out;
  }
  const Vec w = Vec::Ones(X.cols());
  auto mean = [&]() { return frechet_mean(M, X, w, s.center, 1000, 1e-12).mean; };
  if (s.nonprivate) {
    out.nonprivate_mean = mean();
    out.clipped = moved;
  }
  const Ball ball(M, s.center, s.radius);
  switch (s.law) {
    case FrechetLaw::none:
      return out;
    case FrechetLaw::wrapped_laplace:
    case FrechetLaw::wrapped_gaussian: {
      auto exp_coords = M.exp_coords_from(s.footpoint);
      const Vec c = M.tangent_coords(s.footpoint, M.log(s.footpoint, mean()));
      Vec work;
      out.estimate = wrapped_draw(exp_coords, c, s.sigma,
                                  s.law == FrechetLaw::wrapped_laplace ? WrappedNoise::laplace
                                                                       : WrappedNoise::gaussian,
                                  rng, work);
      return out;
    }
    case FrechetLaw::laplace: {
      const Vec xbar = mean();
      if (s.chain) {
        const Ball support(M, s.center, s.truncated ? s.radius : std::numeric_limits<double>::infinity());
        LaplaceLogTarget target(M, xbar, s.sigma);
        const Vec start = public_chain_start(M, support, s.sigma, rng);
        MCMCSettings ms = s.mcmc;
        out.estimate = metropolis_hastings(M, target, support, start, public_mcmc_step(s.sigma, M.dim()), ms, rng)
                           .draws.col(0);
      } else {
        const Ball support(M, s.truncated ? s.center : xbar,
                           s.truncated ? s.radius : std::numeric_limits<double>::infinity());
        BallLaplace law(M, s.sigma, support, true);
        const LaplacePlan plan = law.plan(s.p_fail);
        if (!plan.ok()) {
          out.status = plan.improper ? ReleaseStatus::improper : ReleaseStatus::refused;
          out.max_attempts = static_cast<double>(kMaxProposals);
          return out;
        }
        Vec y;
        if (!law.draw(xbar, plan, rng, y)) {
          out.status = ReleaseStatus::exhausted;
          out.max_attempts = static_cast<double>(plan.max_attempts);
          return out;
        }
        out.estimate = y;
      }
      // the untruncated law's draw moved onto the ball: post-processing
      if (!s.truncated) out.estimate = M.clip_towards(s.center, out.estimate, s.radius);
      return out;
    }
    case FrechetLaw::kng: {
      if (s.chain) {
        KngLogTarget target{M, X, s.sigma};
        const double c = curvature_h(2.0 * s.radius, M.kappa_max());
        const Vec start = public_chain_start(M, ball, s.sigma / c, rng);
        MCMCSettings ms = s.mcmc;
        out.estimate =
            metropolis_hastings(M, target, ball, start, public_mcmc_step(s.sigma / c, M.dim()), ms, rng).draws.col(0);
        return out;
      }
      KngExact law(M, X, s.sigma, ball, s.p_fail);
      if (!law.ok()) {
        out.status = ReleaseStatus::refused;
        out.max_attempts = static_cast<double>(kMaxProposals);
        return out;
      }
      Vec y;
      if (!law.draw(rng, y)) {
        out.status = ReleaseStatus::exhausted;
        out.max_attempts = static_cast<double>(law.max_attempts());
        return out;
      }
      out.estimate = y;
      return out;
    }
  }
  return out;
}

}  // namespace dpmanifold

#endif
