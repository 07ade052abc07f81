// Rcpp wrappers for geodesic regression and its private mechanisms.
#include "dpmanifold_types.h"
#include "glue_mcmc.h"

#include <dpmanifold_core/regression.hpp>

namespace {
// The clip level of the residuals: positive; Inf means no clipping.
double residual_clip(double tau) {
  if (!(tau > 0)) throw std::invalid_argument("tau must be positive (Inf: no clipping)");
  return tau;
}
// A regression problem from R's arrays, their shapes checked (Eigen's
// bounds checks are compiled out: a Y of n x D read past its end and
// crashed R when called from outside the package's validated R layer).
dpm::RegressionProblem problem(const dpm::Manifold& m, const VectorXd& x, const MatrixXd& Y,
                               double tau = std::numeric_limits<double>::infinity()) {
  if (Y.rows() != m.ambient_dim() || Y.cols() != x.size())
    throw std::invalid_argument("Y must be ambient_dim x n with n the length of the covariate");
  return dpm::RegressionProblem{m, x, Y, tau};
}
void check_pair(const dpm::Manifold& m, const VectorXd& p, const VectorXd& v) {
  if (p.size() != m.ambient_dim() || v.size() != m.ambient_dim())
    throw std::invalid_argument("p and v must have the ambient dimension");
}
}

// [[Rcpp::export]]
Rcpp::List cpp_regression_fit(Rcpp::List M, VectorXd x, MatrixXd Y,
                              Rcpp::Nullable<Rcpp::NumericVector> p0,
                              Rcpp::Nullable<Rcpp::NumericVector> v0, int max_iter, double tol) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  dpm::RegressionProblem P = problem(*m, x, Y);
  VectorXd p, v;
  if (p0.isNotNull() && v0.isNotNull()) {
    p = Rcpp::as<VectorXd>(p0.get());
    v = Rcpp::as<VectorXd>(v0.get());
  } else {
    dpm::regression_init(P, p, v);
  }
  auto f = dpm::fit_geodesic_regression(P, p, v, max_iter, tol);
  return Rcpp::List::create(Rcpp::Named("p") = f.p, Rcpp::Named("v") = f.v,
                            Rcpp::Named("iterations") = f.iterations,
                            Rcpp::Named("energy") = f.energy, Rcpp::Named("grad_norm") = f.grad_norm,
                            Rcpp::Named("converged") = f.converged);
  DPM_GLUE_END
}

// The fit's Gauss-Newton matrix at (p, v), in the coordinates of
// tangent_basis(p) (footpoint block first); for the tests.
// [[Rcpp::export]]
MatrixXd cpp_regression_gauss_newton_matrix(Rcpp::List M, VectorXd x, VectorXd p, VectorXd v) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  check_pair(*m, p, v);
  dpm::RegressionProblem P = problem(*m, x, MatrixXd::Zero(m->ambient_dim(), x.size()));
  return dpm::regression_gauss_newton_matrix(P, p, v, m->tangent_basis(p));
  DPM_GLUE_END
}

// tau = Inf: no clipping.
// [[Rcpp::export]]
Rcpp::List cpp_regression_gradient(Rcpp::List M, VectorXd x, MatrixXd Y, VectorXd p, VectorXd v,
                                   double tau) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  dpm::RegressionProblem P = problem(*m, x, Y, residual_clip(tau));
  check_pair(*m, p, v);
  auto g = dpm::regression_gradient(P, p, v);
  return Rcpp::List::create(Rcpp::Named("p") = g.gp, Rcpp::Named("v") = g.gv,
                            Rcpp::Named("energy") = g.energy, Rcpp::Named("clipped") = g.clipped);
  DPM_GLUE_END
}

// [[Rcpp::export]]
double cpp_regression_energy(Rcpp::List M, VectorXd x, MatrixXd Y, VectorXd p, VectorXd v) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  dpm::RegressionProblem P = problem(*m, x, Y);
  check_pair(*m, p, v);
  return dpm::regression_energy(P, p, v);
  DPM_GLUE_END
}

namespace {
dpm::BallPair ball_pair_from_r(const Rcpp::List& b) {
  // inner = Inf: no ball around the first stage's release
  return {Rcpp::as<double>(b["outer"]), Rcpp::as<VectorXd>(b["center"]), Rcpp::as<double>(b["inner"])};
}
dpm::RegressionDomain domain_from_r(const Rcpp::List& dom) {
  return {ball_pair_from_r(dom["a"]), ball_pair_from_r(dom["b"])};
}
}  // namespace

// Coordinates of log_{m0}(y_i) in the orthonormal basis tangent_basis(m0):
// a d x n matrix.
// [[Rcpp::export]]
Eigen::MatrixXd cpp_chart_coords(Rcpp::List M, VectorXd m0, MatrixXd Y) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  MatrixXd B = m->tangent_basis(m0);
  MatrixXd out(B.cols(), Y.cols());
  for (int i = 0; i < Y.cols(); ++i) {
    dpm::poll_interrupt();
    VectorXd l = m->log(m0, Y.col(i));
    for (int j = 0; j < B.cols(); ++j) out(j, i) = m->inner(m0, B.col(j), l);
  }
  return out;
  DPM_GLUE_END
}

// (p, v) of chart coordinates x = (a, b): columns of X (2d x k) -> list of
// ambient matrices P and V (D x k).
// [[Rcpp::export]]
Rcpp::List cpp_chart_points(Rcpp::List M, VectorXd m0, MatrixXd X) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  dpm::RegressionChart chart{*m, m0, m->tangent_basis(m0)};
  MatrixXd P(m0.size(), X.cols()), V(m0.size(), X.cols());
  for (int i = 0; i < X.cols(); ++i) {
    dpm::PairState s = chart.point(X.col(i));
    P.col(i) = s.p;
    V.col(i) = s.v;
  }
  return Rcpp::List::create(Rcpp::Named("p") = P, Rcpp::Named("v") = V);
  DPM_GLUE_END
}

// Exact linear KNG in R^d (responses Z, d x n, in a ball around 0).
// [[Rcpp::export]]
Eigen::VectorXd cpp_linear_kng_exact(VectorXd t, MatrixXd Z, double sigma, double w,
                                     Rcpp::List domain, double max_attempts) {
  DPM_GLUE_BEGIN
  RRng rng;
  dpm::LinearStats S(t, Z);
  // (past its public limit the sampler throws SamplerStopped: the one
  // failure protocol, a classed R error with the status)
  return dpm::linear_kng_exact(S, domain_from_r(domain), sigma, w, rng, max_attempts);
  DPM_GLUE_END
}

// Joint KNG of geodesic regression in chart coordinates at m0. `kind`:
// "exact" (uniform proposals on the domain, accepted with the KNG density;
// n_draws independent draws) or "mcmc" (random walk with public step and
// per-coordinate scale from x0, `steps` steps per retained draw). Returns
// the chart coordinates (2d x n_draws) and, when asked, the whole chain.
// [[Rcpp::export]]
Rcpp::List cpp_regression_chart_kng(Rcpp::List M, VectorXd t, MatrixXd Y, double tau, double sigma,
                                    double w, VectorXd m0, Rcpp::List domain, std::string kind,
                                    VectorXd x0, double step, VectorXd scale, double jump,
                                    double jump_prob, int steps, int n_draws, double max_attempts,
                                    bool keep_chain) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::RegressionProblem P = problem(*m, t, Y, residual_clip(tau));
  dpm::RegressionChart chart{*m, m0, m->tangent_basis(m0)};
  dpm::RegressionDomain dom = domain_from_r(domain);
  dpm::ChartKngTarget target{P, chart, sigma, w};
  const int D = static_cast<int>(x0.size());
  MatrixXd draws(D, n_draws);
  Rcpp::List out;
  if (kind == "exact") {
    for (int j = 0; j < n_draws; ++j)
      draws.col(j) = dpm::exact_uniform_rejection(dom, D, target, rng, max_attempts);
    out["draws"] = draws;
    return out;
  }
  // A fixed, public step and no burn-in phase inside run_metropolis: the
  // chain is steps * n_draws steps long from x0 (the caller's burn-in is the
  // first retained draw's share), whatever the sampler's adaptation policy.
  dpm::ChartSpace space{dom, scale, jump, jump_prob};
  dpm::MCMCSettings s;
  s.burnin = 0;
  s.thin = steps;
  s.n_draws = n_draws;
  s.step = step;
  s.keep_chain = keep_chain;
  auto r = dpm::run_metropolis(space, target, x0, step, s, rng);
  out["draws"] = r.draws;
  if (keep_chain) out["chain"] = r.chain;
  return out;
  DPM_GLUE_END
}

// Clipped squared loss sum_i min(d_i^2, tau^2) / 2 at (p, v).
// [[Rcpp::export]]
double cpp_regression_clipped_loss(Rcpp::List M, VectorXd t, MatrixXd Y, VectorXd p, VectorXd v,
                                   double tau) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  dpm::RegressionProblem P = problem(*m, t, Y, tau);
  check_pair(*m, p, v);
  return dpm::regression_clipped_loss(P, p, v);
  DPM_GLUE_END
}

// Exponential mechanism on the clipped loss in chart coordinates at m0,
// drawn by a random-walk chain from x0 through a public schedule of levels:
// level k targets exp(-u_k / temps[k]) with clip taus[k], for steps[k] steps
// of size step_sizes[k] (scaled per coordinate by `scale`); the last level
// is the released law. Returns the final state (2d).
// [[Rcpp::export]]
Eigen::VectorXd cpp_regression_chart_em(Rcpp::List M, VectorXd t, MatrixXd Y, VectorXd taus,
                                        VectorXd temps, Rcpp::IntegerVector steps,
                                        VectorXd step_sizes, VectorXd m0, Rcpp::List domain,
                                        VectorXd x0, VectorXd scale, double jump,
                                        double jump_prob) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::RegressionChart chart{*m, m0, m->tangent_basis(m0)};
  dpm::RegressionDomain dom = domain_from_r(domain);
  dpm::ChartSpace space{dom, scale, jump, jump_prob};
  VectorXd x = x0;
  for (int k = 0; k < taus.size(); ++k) {
    dpm::RegressionProblem P = problem(*m, t, Y, taus(k));
    dpm::ChartLossTarget target{P, chart, temps(k)};
    dpm::MCMCSettings s;
    s.burnin = 0;
    s.thin = steps[k];
    s.n_draws = 1;
    s.step = step_sizes(k);
    s.keep_chain = false;
    auto r = dpm::run_metropolis(space, target, x, step_sizes(k), s, rng);
    x = r.draws.col(0);
  }
  return x;
  DPM_GLUE_END
}

// Sequential p-step (v_hat carried to each p by transport).
// [[Rcpp::export]]
Rcpp::List cpp_regression_p_step(Rcpp::List M, VectorXd x, MatrixXd Y, double tau, double sigma,
                                 VectorXd center, double R, VectorXd p_hat, VectorXd v_hat,
                                 VectorXd p0, Rcpp::List mcmc) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::RegressionProblem P = problem(*m, x, Y, residual_clip(tau));
  dpm::FootpointKngTarget target{P, p_hat, v_hat, sigma};
  dpm::MCMCSettings s = mcmc_from_r(mcmc);
  auto r = dpm::run_metropolis(dpm::PointSpace{*m, dpm::Ball(*m, center, R)}, target, p0, sigma, s, rng);
  return mcmc_to_r(r, s);
  DPM_GLUE_END
}

// Sequential v-step at a fixed footpoint.
// [[Rcpp::export]]
Rcpp::List cpp_regression_v_step(Rcpp::List M, VectorXd x, MatrixXd Y, double tau, double sigma,
                                 VectorXd p, double V, VectorXd v0, Rcpp::List mcmc) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::RegressionProblem P = problem(*m, x, Y, residual_clip(tau));
  dpm::VelocityKngTarget target{P, p, sigma};
  dpm::MCMCSettings s = mcmc_from_r(mcmc);
  auto r = dpm::run_metropolis(dpm::TangentBallSpace{*m, p, V}, target, v0, sigma, s, rng);
  return mcmc_to_r(r, s);
  DPM_GLUE_END
}

// Coordinates of the clipped, transported residuals of the linearised
// release at (p0, v0) in the basis tangent_basis(p0): a d x n matrix.
// [[Rcpp::export]]
Eigen::MatrixXd cpp_linearised_residuals(Rcpp::List M, VectorXd t, MatrixXd Y, VectorXd p0, VectorXd v0,
                                         double tau) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  return dpm::linearised_residuals(*m, t, Y, p0, v0, tau, m->tangent_basis(p0));
  DPM_GLUE_END
}

