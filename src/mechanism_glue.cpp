// Rcpp wrappers for the Frechet mean and the samplers of the mechanisms.
// The exact samplers return their draws and a status only ("ok",
// "improper", "refused", "exhausted"); the R layer turns a status into a
// classed error. Nothing returned counts proposals, except the study hooks
// at the end (cpp_study_*), which the package never calls from a release.
#include "dpmanifold_types.h"
#include "glue_mcmc.h"

#include <dpmanifold_core/frechet_mean.hpp>

#include <dpmanifold_core/kng_exact.hpp>
#include <dpmanifold_core/laplace_exact.hpp>

namespace {

// Failure probability allowed to one exact draw (SPEC section 6: failures
// must be negligible, so that the error is not a data-dependent signal).
const double kPFail = 1e-10;

const char* plan_status(const dpm::LaplacePlan& p) {
  if (p.improper) return "improper";
  if (!p.ok()) return "refused";
  return "ok";
}

}  // namespace

// [[Rcpp::export]]
Rcpp::List cpp_frechet_mean(Rcpp::List M, MatrixXd X, VectorXd w, VectorXd x0, int max_iter,
                            double tol) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  auto r = dpm::frechet_mean(*m, X, w, x0, max_iter, tol);
  return Rcpp::List::create(Rcpp::Named("mean") = r.mean, Rcpp::Named("iterations") = r.iterations,
                            Rcpp::Named("grad_norm") = r.grad_norm,
                            Rcpp::Named("objective") = r.objective,
                            Rcpp::Named("converged") = r.converged);
  DPM_GLUE_END
}

// sigma at and above which the untruncated Riemannian Laplace law is not
// normalisable (Inf on compact and flat manifolds).
// [[Rcpp::export]]
double cpp_max_untruncated_sigma(Rcpp::List M) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  return dpm::PolarLaplace::max_sigma(*m);
  DPM_GLUE_END
}

// n exact draws of the Riemannian Laplace law around `mean`, restricted to
// B_radius(center) (radius = Inf: the untruncated law). mean_in_ball: the
// caller guarantees dist(mean, center) <= radius. p_fail: the failure
// probability the bound on proposals certifies (tests set it near 1 to
// exercise the failure path).
// [[Rcpp::export]]
Rcpp::List cpp_rlaplace_exact(Rcpp::List M, VectorXd mean, double sigma, VectorXd center,
                              double radius, int n, bool mean_in_ball, double p_fail = 1e-10) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::Ball ball(*m, center, radius);
  dpm::BallLaplace law(*m, sigma, ball, mean_in_ball);
  dpm::LaplacePlan plan = law.plan(p_fail);
  MatrixXd draws(m->ambient_dim(), n);
  if (!plan.ok()) {
    return Rcpp::List::create(Rcpp::Named("draws") = R_NilValue,
                              Rcpp::Named("status") = plan_status(plan),
                              Rcpp::Named("max_attempts") = dpm::kMaxProposals);
  }
  VectorXd y;
  for (int j = 0; j < n; ++j) {
    if (!law.draw(mean, plan, rng, y)) {
      return Rcpp::List::create(Rcpp::Named("draws") = R_NilValue, Rcpp::Named("status") = "exhausted",
                                Rcpp::Named("max_attempts") = static_cast<double>(plan.max_attempts));
    }
    draws.col(j) = y;
  }
  return Rcpp::List::create(Rcpp::Named("draws") = draws, Rcpp::Named("status") = "ok");
  DPM_GLUE_END
}

// Whether the exact sampler accepts these public parameters (a bound on
// proposals within the cap), decided without data: kind "laplace" (mean in
// the ball; radius = Inf for the untruncated law) or "kng".
// [[Rcpp::export]]
bool cpp_exact_sampler_ok(Rcpp::List M, double sigma, VectorXd center, double radius, std::string kind) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  dpm::Ball ball(*m, center, radius);
  if (kind == "kng") {
    MatrixXd none(m->ambient_dim(), 0);
    return dpm::KngExact(*m, none, sigma, ball, kPFail).ok();
  }
  return dpm::BallLaplace(*m, sigma, ball, true).plan(kPFail).ok();
  DPM_GLUE_END
}

// Riemannian Laplace by Metropolis-Hastings on B_radius(center) (radius =
// Inf: the whole manifold), started at public_chain_start(), with the public
// step of public_mcmc_step() unless the settings give one.
// [[Rcpp::export]]
Rcpp::List cpp_rlaplace_mcmc(Rcpp::List M, VectorXd mean, double sigma, VectorXd center,
                             double radius, Rcpp::List mcmc) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::Ball ball(*m, center, radius);
  dpm::MCMCSettings s = mcmc_from_r(mcmc);
  dpm::LaplaceLogTarget target(*m, mean, sigma);
  const VectorXd start = dpm::public_chain_start(*m, ball, sigma, rng);
  auto r = dpm::metropolis_hastings(*m, target, ball, start, dpm::public_mcmc_step(sigma, m->dim()),
                                    s, rng);
  return mcmc_to_r(r, s);
  DPM_GLUE_END
}

// n exact draws of the KNG law of the data X on B_radius(center).
// [[Rcpp::export]]
Rcpp::List cpp_rkng_exact(Rcpp::List M, MatrixXd X, double sigma, VectorXd center, double radius,
                          int n) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::Ball ball(*m, center, radius);
  dpm::KngExact law(*m, X, sigma, ball, kPFail);
  if (!law.ok()) {
    return Rcpp::List::create(Rcpp::Named("draws") = R_NilValue, Rcpp::Named("status") = "refused",
                              Rcpp::Named("max_attempts") = dpm::kMaxProposals);
  }
  MatrixXd draws(m->ambient_dim(), n);
  VectorXd y;
  for (int j = 0; j < n; ++j) {
    if (!law.draw(rng, y)) {
      return Rcpp::List::create(Rcpp::Named("draws") = R_NilValue, Rcpp::Named("status") = "exhausted",
                                Rcpp::Named("max_attempts") = static_cast<double>(law.max_attempts()));
    }
    draws.col(j) = y;
  }
  return Rcpp::List::create(Rcpp::Named("draws") = draws, Rcpp::Named("status") = "ok");
  DPM_GLUE_END
}

// KNG by Metropolis-Hastings on the ball, started at public_chain_start(); the
// step is public: public_mcmc_step(sigma / c, d), c = h(2r, kappa_max), the
// scale of the Laplace law that envelopes the KNG law.
// [[Rcpp::export]]
Rcpp::List cpp_rkng_mcmc(Rcpp::List M, MatrixXd X, double sigma, VectorXd center, double radius,
                         Rcpp::List mcmc) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::Ball ball(*m, center, radius);
  dpm::MCMCSettings s = mcmc_from_r(mcmc);
  dpm::KngLogTarget target{*m, X, sigma};
  const double c = dpm::curvature_h(2.0 * radius, m->kappa_max());
  const VectorXd start = dpm::public_chain_start(*m, ball, sigma / c, rng);
  auto r = dpm::metropolis_hastings(*m, target, ball, start,
                                    dpm::public_mcmc_step(sigma / c, m->dim()), s, rng);
  return mcmc_to_r(r, s);
  DPM_GLUE_END
}

// Wrapped Laplace / Gaussian around log_{footpoint}(mean), written straight
// into R's memory (batches of draws are large).
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_rwrapped(Rcpp::List M, VectorXd mean, double sigma, VectorXd footpoint,
                                 int n, std::string kind) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  auto exp_coords = m->exp_coords_from(footpoint);
  VectorXd c = m->tangent_coords(footpoint, m->log(footpoint, mean));
  dpm::WrappedNoise k = kind == "laplace" ? dpm::WrappedNoise::laplace : dpm::WrappedNoise::gaussian;
  Rcpp::NumericMatrix out(m->ambient_dim(), n);
  Eigen::Map<MatrixXd> draws(out.begin(), m->ambient_dim(), n);
  VectorXd work;
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt();
    draws.col(j) = dpm::wrapped_draw(exp_coords, c, sigma, k, rng, work);
  }
  return out;
  DPM_GLUE_END
}

// K-norm noise in R^d (rows: draws).
// [[Rcpp::export]]
MatrixXd cpp_euclidean_laplace_noise(int d, double sigma, int n) {
  DPM_GLUE_BEGIN
  RRng rng;
  MatrixXd out(d, n);
  VectorXd z(d);
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt();
    dpm::euclidean_laplace_noise(z, sigma, rng);
    out.col(j) = z;
  }
  return out;
  DPM_GLUE_END
}

// KNG gradient (1/n) sum log_y(x_j) at each column of Y.
// [[Rcpp::export]]
MatrixXd cpp_kng_gradient(Rcpp::List M, MatrixXd Y, MatrixXd X) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  MatrixXd out(Y.rows(), Y.cols());
  for (int j = 0; j < Y.cols(); ++j) {
    dpm::poll_interrupt();
    out.col(j) = dpm::kng_gradient(*m, Y.col(j), X);
  }
  return out;
  DPM_GLUE_END
}

// Norm of the KNG gradient at each column of Y.
// [[Rcpp::export]]
Rcpp::NumericVector cpp_kng_gradient_norm(Rcpp::List M, MatrixXd Y, MatrixXd X) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  Rcpp::NumericVector out(Y.cols());
  for (int j = 0; j < Y.cols(); ++j) {
    dpm::poll_interrupt();
    out[j] = m->norm(Y.col(j), dpm::kng_gradient(*m, Y.col(j), X));
  }
  return out;
  DPM_GLUE_END
}

// log J(v) at p: the volume density in normal coordinates (tests).
// [[Rcpp::export]]
Rcpp::NumericVector cpp_log_volume_density(Rcpp::List M, VectorXd p, MatrixXd V) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  Rcpp::NumericVector out(V.cols());
  for (int j = 0; j < V.cols(); ++j) out[j] = m->log_volume_density(p, V.col(j));
  return out;
  DPM_GLUE_END
}

// The table of bounds log(sinh x / x) <= A x^2 + B x (tests check it).
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_sinhc_bound_table() {
  DPM_GLUE_BEGIN
  const auto& t = dpm::polar::sinhc_bounds();
  Rcpp::NumericMatrix out(t.size(), 2);
  for (size_t i = 0; i < t.size(); ++i) {
    out(i, 0) = t[i].A;
    out(i, 1) = t[i].B;
  }
  return out;
  DPM_GLUE_END
}

// ---------------------------------------------------------------------------
// Study hooks (bench/ and the extended tests only; never part of a release):
// the public lower bound of the acceptance and the measured acceptance of
// the exact samplers.

// [[Rcpp::export]]
Rcpp::List cpp_study_laplace_acceptance(Rcpp::List M, VectorXd mean, double sigma, VectorXd center,
                                        double radius, int n, bool mean_in_ball) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::Ball ball(*m, center, radius);
  dpm::BallLaplace law(*m, sigma, ball, mean_in_ball);
  dpm::LaplacePlan plan = law.plan(kPFail);
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
      Rcpp::Named("status") = plan_status(plan), Rcpp::Named("regime") = regime,
      Rcpp::Named("acceptance_lb") = plan.acc_lb,
      Rcpp::Named("max_attempts") = static_cast<double>(plan.max_attempts),
      Rcpp::Named("acceptance") = done > 0 ? done / static_cast<double>(proposals) : NA_REAL);
  DPM_GLUE_END
}

// [[Rcpp::export]]
Rcpp::List cpp_study_kng_acceptance(Rcpp::List M, MatrixXd X, double sigma, VectorXd center,
                                    double radius, int n) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::Ball ball(*m, center, radius);
  dpm::KngExact law(*m, X, sigma, ball, kPFail);
  long proposals = 0;
  int done = 0;
  VectorXd y;
  if (law.ok())
    for (; done < n; ++done)
      if (!law.draw(rng, y, &proposals)) break;
  return Rcpp::List::create(
      Rcpp::Named("ok") = law.ok(), Rcpp::Named("acceptance_lb") = law.acceptance_lb(),
      Rcpp::Named("acceptance") = done > 0 ? done / static_cast<double>(proposals) : NA_REAL);
  DPM_GLUE_END
}
