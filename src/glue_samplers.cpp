// The R boundary of the samplers of the mechanisms. The exact samplers
// return their draws and a status only (status.hpp: "ok", "improper",
// "refused", "exhausted"); the R layer turns a status into a classed error.
// Nothing returned counts proposals, except the study hooks at the end
// (cpp_study_*), which the package never calls from a release.
#include "dpmanifold_types.h"
#include "glue_mcmc.h"

#include <dpmanifold_core/kng_exact.hpp>
#include <dpmanifold_core/laplace_exact.hpp>
#include <dpmanifold_core/status.hpp>

namespace {
// draws and "ok", or no draws, the status and the public bound on proposals
Rcpp::List sampler_result(dpm::Status status, const MatrixXd& draws, double max_attempts) {
  if (status == dpm::Status::ok)
    return Rcpp::List::create(Rcpp::Named("draws") = draws, Rcpp::Named("status") = "ok");
  return Rcpp::List::create(Rcpp::Named("draws") = R_NilValue,
                            Rcpp::Named("status") = dpm::status_name(status),
                            Rcpp::Named("max_attempts") = max_attempts);
}
}  // namespace

// The failure probability certified for one exact draw (status.hpp).
// [[Rcpp::export]]
double cpp_failure_probability() {
  return dpm::kFailureProbability;
}

// The public number of proposals after which a rejection loop whose
// acceptance is at least exp(log_acc_lb) fails with probability below
// p_fail, or -1 when it exceeds the fixed cap kMaxProposals (the sampler
// then refuses before reading any data): laplace_exact.hpp.
// [[Rcpp::export]]
double cpp_public_attempt_bound(double log_acc_lb, double p_fail) {
  return static_cast<double>(dpm::public_attempt_bound(std::exp(log_acc_lb), p_fail));
}

// The fixed cap on the public bound on proposals (laplace_exact.hpp).
// [[Rcpp::export]]
double cpp_max_proposals() {
  return dpm::kMaxProposals;
}

// h(s, kappa) = s sqrt(kappa) cot(s sqrt(kappa)) (kappa > 0), else 1,
// elementwise (manifold.hpp).
// [[Rcpp::export]]
Rcpp::NumericVector cpp_curvature_h(Rcpp::NumericVector s, double kappa) {
  return glue_call([&] {
    Rcpp::NumericVector out(s.size());
    for (R_xlen_t i = 0; i < s.size(); ++i) out[i] = dpm::curvature_h(s[i], kappa);
    return out;
  });
}

// log Abar(t) of the polar volume bound (laplace_exact.hpp) at t >= 0, and
// whether it is the polar volume itself (confint()).
// [[Rcpp::export]]
Rcpp::List cpp_log_polar_volume_bound(Rcpp::List M, Rcpp::NumericVector t) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    Rcpp::NumericVector out(t.size());
    bool exact = true;
    for (R_xlen_t i = 0; i < t.size(); ++i) out[i] = dpm::log_polar_volume_bound(m, t[i], &exact);
    return Rcpp::List::create(Rcpp::Named("log_A") = out, Rcpp::Named("exact") = exact);
  });
}

// The public bounds of the KNG gradient's Hessian along a geodesic from the
// Frechet mean of data in a ball of radius r, at distances s (kng_exact.hpp):
// list(phi, psi), phi nonincreasing, psi nondecreasing (confint()).
// [[Rcpp::export]]
Rcpp::List cpp_kng_public_bounds(Rcpp::List M, double radius, Rcpp::NumericVector s) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    Rcpp::NumericVector phi(s.size()), psi(s.size());
    for (R_xlen_t i = 0; i < s.size(); ++i) {
      phi[i] = dpm::kng_phi_pub(s[i], radius, m.kappa_max());
      psi[i] = dpm::kng_psi_pub(s[i], radius, m.kappa_min());
    }
    return Rcpp::List::create(Rcpp::Named("phi") = phi, Rcpp::Named("psi") = psi);
  });
}

// sigma at and above which the untruncated Riemannian Laplace law is not
// normalisable (Inf on compact and flat manifolds).
// [[Rcpp::export]]
double cpp_max_untruncated_sigma(Rcpp::List M) {
  return with_manifold(M, [&](const dpm::Manifold& m) { return dpm::PolarLaplace::max_sigma(m); });
}

// n exact draws of the Riemannian Laplace law around `mean`, restricted to
// B_radius(center) (radius = Inf: the untruncated law). mean_in_ball: the
// caller guarantees dist(mean, center) <= radius. p_fail: the failure
// probability the bound on proposals certifies (cpp_failure_probability();
// tests set it near 1 to exercise the failure path). One plan for all draws.
// [[Rcpp::export]]
Rcpp::List cpp_rlaplace_exact(Rcpp::List M, VectorXd mean, double sigma, VectorXd center,
                              double radius, int n, bool mean_in_ball, double p_fail) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    dpm::Ball ball(m, center, radius);
    dpm::BallLaplace law(m, sigma, ball, mean_in_ball);
    const dpm::LaplacePlan plan = law.plan(p_fail);
    MatrixXd draws(m.ambient_dim(), n);
    if (!plan.ok()) return sampler_result(plan.status(), draws, dpm::kMaxProposals);
    VectorXd y;
    for (int j = 0; j < n; ++j) {
      if (!law.draw(mean, plan, rng, y))
        return sampler_result(dpm::Status::exhausted, draws, static_cast<double>(plan.max_attempts));
      draws.col(j) = y;
    }
    return sampler_result(dpm::Status::ok, draws, 0.0);
  });
}

// Whether the exact sampler accepts these public parameters (a bound on
// proposals within the cap), decided without data: kind "laplace" (mean in
// the ball; radius = Inf for the untruncated law) or "kng".
// [[Rcpp::export]]
bool cpp_exact_sampler_ok(Rcpp::List M, double sigma, VectorXd center, double radius, std::string kind) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    dpm::Ball ball(m, center, radius);
    if (kind == "kng") {
      MatrixXd none(m.ambient_dim(), 0);
      return dpm::KngExact(m, none, sigma, ball, dpm::kFailureProbability).ok();
    }
    return dpm::BallLaplace(m, sigma, ball, true).plan(dpm::kFailureProbability).ok();
  });
}

// Riemannian Laplace by Metropolis-Hastings on B_radius(center) (radius =
// Inf: the whole manifold), started at public_chain_start(), with the public
// step of public_mcmc_step() unless the settings give one.
// [[Rcpp::export]]
Rcpp::List cpp_rlaplace_mcmc(Rcpp::List M, VectorXd mean, double sigma, VectorXd center,
                             double radius, Rcpp::List mcmc) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    dpm::Ball ball(m, center, radius);
    dpm::MCMCSettings s = mcmc_from_r(mcmc);
    dpm::LaplaceLogTarget target(m, mean, sigma);
    const VectorXd start = dpm::public_chain_start(m, ball, sigma, rng);
    auto r = dpm::metropolis_hastings(m, target, ball, start, dpm::public_mcmc_step(sigma, m.dim()), s, rng);
    return mcmc_to_r(r, s);
  });
}

// n exact draws of the KNG law of the data X on B_radius(center).
// [[Rcpp::export]]
Rcpp::List cpp_rkng_exact(Rcpp::List M, Rcpp::NumericVector X, double sigma, VectorXd center,
                          double radius, int n) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    dpm::Ball ball(m, center, radius);
    dpm::KngExact law(m, points_in_place(X), sigma, ball, dpm::kFailureProbability);
    MatrixXd draws(m.ambient_dim(), n);
    if (!law.ok()) return sampler_result(law.status(), draws, dpm::kMaxProposals);
    VectorXd y;
    for (int j = 0; j < n; ++j) {
      if (!law.draw(rng, y))
        return sampler_result(dpm::Status::exhausted, draws, static_cast<double>(law.max_attempts()));
      draws.col(j) = y;
    }
    return sampler_result(dpm::Status::ok, draws, 0.0);
  });
}

// KNG by Metropolis-Hastings on the ball, started at public_chain_start(); the
// step is public: public_mcmc_step(sigma / c, d), c = h(2r, kappa_max), the
// scale of the Laplace law that envelopes the KNG law.
// [[Rcpp::export]]
Rcpp::List cpp_rkng_mcmc(Rcpp::List M, Rcpp::NumericVector X, double sigma, VectorXd center,
                         double radius, Rcpp::List mcmc) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    dpm::Ball ball(m, center, radius);
    dpm::MCMCSettings s = mcmc_from_r(mcmc);
    const auto Xd = points_in_place(X);
    dpm::KngLogTarget target{m, Xd, sigma};
    const double c = dpm::curvature_h(2.0 * radius, m.kappa_max());
    const VectorXd start = dpm::public_chain_start(m, ball, sigma / c, rng);
    auto r = dpm::metropolis_hastings(m, target, ball, start, dpm::public_mcmc_step(sigma / c, m.dim()), s, rng);
    return mcmc_to_r(r, s);
  });
}

// Wrapped Laplace / Gaussian around log_{footpoint}(mean), written straight
// into R's memory (batches of draws are large).
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_rwrapped(Rcpp::List M, VectorXd mean, double sigma, VectorXd footpoint,
                                 int n, std::string kind) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    auto exp_coords = m.exp_coords_from(footpoint);
    VectorXd c = m.tangent_coords(footpoint, m.log(footpoint, mean));
    dpm::WrappedNoise k = kind == "laplace" ? dpm::WrappedNoise::laplace : dpm::WrappedNoise::gaussian;
    Rcpp::NumericMatrix out(m.ambient_dim(), n);
    Eigen::Map<MatrixXd> draws(out.begin(), m.ambient_dim(), n);
    VectorXd work;
    for (int j = 0; j < n; ++j) {
      dpm::poll_interrupt(m.point_cost());
      draws.col(j) = dpm::wrapped_draw(exp_coords, c, sigma, k, rng, work);
    }
    return out;
  });
}

// The noise laws of the sufficient-statistics releases drawn in R's layer
// (the regression methods on request), one call per draw: kind "knorm"
// (K-norm l2 in R^d, radius Gamma(d, scale)), "laplace" (d independent
// Laplace variables), "simplex_difference" (d = 4, samplers.hpp).
// [[Rcpp::export]]
VectorXd cpp_noise(std::string kind, int d, double scale) {
  return glue_call([&] {
    RRng rng;
    VectorXd z(d);
    if (kind == "knorm") {
      dpm::euclidean_laplace_noise(z, scale, rng);
    } else if (kind == "laplace") {
      dpm::laplace_noise(z, scale, rng);
    } else if (kind == "simplex_difference" && d == 4) {
      dpm::simplex_difference_noise(z, scale, rng);
    } else {
      throw std::invalid_argument("unknown noise kind '" + kind + "'");
    }
    return z;
  });
}

// A finite exponential mechanism: index (1-based) drawn with probability
// prop. to exp(score_j) (scores already scaled by epsilon / (2 sensitivity)).
// [[Rcpp::export]]
int cpp_draw_index(std::vector<double> score) {
  return glue_call([&] {
    if (score.empty()) throw std::invalid_argument("no candidates");
    RRng rng;
    return dpm::draw_index(score, rng) + 1;
  });
}

// K-norm noise in R^d (rows: draws).
// [[Rcpp::export]]
MatrixXd cpp_euclidean_laplace_noise(int d, double sigma, int n) {
  return glue_call([&] {
    RRng rng;
    MatrixXd out(d, n);
    VectorXd z(d);
    for (int j = 0; j < n; ++j) {
      dpm::poll_interrupt(10.0 * d);
      dpm::euclidean_laplace_noise(z, sigma, rng);
      out.col(j) = z;
    }
    return out;
  });
}

// The table of bounds log(sinh x / x) <= A x^2 + B x (tests check it).
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_sinhc_bound_table() {
  return glue_call([&] {
    const auto& t = dpm::polar::sinhc_bounds();
    Rcpp::NumericMatrix out(t.size(), 2);
    for (size_t i = 0; i < t.size(); ++i) {
      out(i, 0) = t[i].A;
      out(i, 1) = t[i].B;
    }
    return out;
  });
}

// ---------------------------------------------------------------------------
// Study hooks (bench/ and the extended tests only; never part of a release):
// the public lower bound of the acceptance and the measured acceptance of
// the exact samplers.

// [[Rcpp::export]]
Rcpp::List cpp_study_laplace_acceptance(Rcpp::List M, VectorXd mean, double sigma, VectorXd center,
                                        double radius, int n, bool mean_in_ball) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    dpm::Ball ball(m, center, radius);
    dpm::BallLaplace law(m, sigma, ball, mean_in_ball);
    const dpm::LaplacePlan plan = law.plan(dpm::kFailureProbability);
    const char* regime = plan.regime == dpm::LaplacePlan::Regime::untruncated   ? "untruncated"
                         : plan.regime == dpm::LaplacePlan::Regime::around_mean ? "around_mean"
                                                                                : "uniform_ball";
    long proposals = 0;
    int done = 0;
    VectorXd y;
    if (plan.ok())
      for (; done < n; ++done)
        if (!law.draw(mean, plan, rng, y, &proposals)) break;
    return Rcpp::List::create(
        Rcpp::Named("status") = dpm::status_name(plan.status()), Rcpp::Named("regime") = regime,
        Rcpp::Named("acceptance_lb") = plan.acc_lb,
        Rcpp::Named("max_attempts") = static_cast<double>(plan.max_attempts),
        Rcpp::Named("acceptance") = done > 0 ? done / static_cast<double>(proposals) : NA_REAL);
  });
}

// [[Rcpp::export]]
Rcpp::List cpp_study_kng_acceptance(Rcpp::List M, MatrixXd X, double sigma, VectorXd center,
                                    double radius, int n) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    dpm::Ball ball(m, center, radius);
    dpm::KngExact law(m, X, sigma, ball, dpm::kFailureProbability);
    long proposals = 0;
    int done = 0;
    VectorXd y;
    if (law.ok())
      for (; done < n; ++done)
        if (!law.draw(rng, y, &proposals)) break;
    return Rcpp::List::create(
        Rcpp::Named("ok") = law.ok(), Rcpp::Named("acceptance_lb") = law.acceptance_lb(),
        Rcpp::Named("acceptance") = done > 0 ? done / static_cast<double>(proposals) : NA_REAL);
  });
}
