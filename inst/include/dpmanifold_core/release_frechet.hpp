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

#include "batch.hpp"
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
  double p_fail = kFailureProbability;  // exact samplers: the refusal rule
  double tol = 1e-8;       // membership tolerance of the data
  bool nonprivate = false; // also return the non-private mean (studies only)
};


struct FrechetRelease {
  Status status = Status::ok;
  Vec estimate;
  std::string why;         // malformed: the first reason
  double max_attempts = 0; // refused: the public cap
  Vec nonprivate_mean;     // only when spec.nonprivate
  long clipped = 0;        // only when spec.nonprivate
};

inline FrechetRelease release_frechet(const Manifold& M, Mat& X, const FrechetReleaseSpec& s, Rng& rng) {
  FrechetRelease out;
  // validation, replacement of the points double precision does not hold,
  // and the clip, on both cores (batch.hpp; inst/proofs/public-ball.md)
  long moved = 0;
  if (prepare_points(M, X, s.center, s.radius, s.tol, out.why, moved) >= 0) {
    out.status = Status::malformed;
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
          out.status = plan.improper ? Status::improper : Status::refused;
          out.max_attempts = static_cast<double>(kMaxProposals);
          return out;
        }
        Vec y;
        law.draw(xbar, plan, rng, y);  // runs until accepted once the plan is ok
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
        out.status = law.status();
        out.max_attempts = static_cast<double>(kMaxProposals);
        return out;
      }
      Vec y;
      law.draw(rng, y);  // runs until accepted once ok()
      out.estimate = y;
      return out;
    }
  }
  return out;
}

}  // namespace dpmanifold

#endif
