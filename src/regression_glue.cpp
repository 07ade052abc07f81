// Rcpp wrappers for geodesic regression and its private mechanisms.
#include "dpmanifold_types.h"

namespace {
double tau_or_inf(double tau) { return tau > 0 ? tau : std::numeric_limits<double>::infinity(); }
}

// [[Rcpp::export]]
Rcpp::List cpp_regression_fit(Rcpp::List M, VectorXd x, MatrixXd Y,
                              Rcpp::Nullable<Rcpp::NumericVector> p0,
                              Rcpp::Nullable<Rcpp::NumericVector> v0, int max_iter, double tol) {
  auto m = manifold_from_r(M);
  dpm::RegressionProblem P{*m, x, Y};
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
}

// tau <= 0 means no clipping.
// [[Rcpp::export]]
Rcpp::List cpp_regression_gradient(Rcpp::List M, VectorXd x, MatrixXd Y, VectorXd p, VectorXd v,
                                   double tau) {
  auto m = manifold_from_r(M);
  dpm::RegressionProblem P{*m, x, Y, tau_or_inf(tau)};
  auto g = dpm::regression_gradient(P, p, v);
  return Rcpp::List::create(Rcpp::Named("p") = g.gp, Rcpp::Named("v") = g.gv,
                            Rcpp::Named("energy") = g.energy, Rcpp::Named("clipped") = g.clipped);
}

// [[Rcpp::export]]
double cpp_regression_energy(Rcpp::List M, VectorXd x, MatrixXd Y, VectorXd p, VectorXd v) {
  auto m = manifold_from_r(M);
  dpm::RegressionProblem P{*m, x, Y};
  return dpm::regression_energy(P, p, v);
}

// Joint KNG on (p, v): draws are columns (p; v).
// [[Rcpp::export]]
Rcpp::List cpp_regression_joint_kng(Rcpp::List M, VectorXd x, MatrixXd Y, double tau, double sigma,
                                    VectorXd center, double R, double V, VectorXd p0, VectorXd v0,
                                    Rcpp::List mcmc) {
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::RegressionProblem P{*m, x, Y, tau_or_inf(tau)};
  dpm::PairSpace space{*m, dpm::Ball(*m, center, R), V};
  dpm::JointKngTarget target{P, sigma};
  dpm::MCMCSettings s = mcmc_from_r(mcmc);
  auto r = dpm::run_metropolis(space, target, dpm::PairState{p0, v0}, sigma, s, rng);
  return mcmc_to_r(r, s);
}

// Sequential p-step (v_hat carried to each p by transport).
// [[Rcpp::export]]
Rcpp::List cpp_regression_p_step(Rcpp::List M, VectorXd x, MatrixXd Y, double tau, double sigma,
                                 VectorXd center, double R, VectorXd p_hat, VectorXd v_hat,
                                 VectorXd p0, Rcpp::List mcmc) {
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::RegressionProblem P{*m, x, Y, tau_or_inf(tau)};
  dpm::FootpointKngTarget target{P, p_hat, v_hat, sigma};
  dpm::MCMCSettings s = mcmc_from_r(mcmc);
  auto r = dpm::run_metropolis(dpm::PointSpace{*m, dpm::Ball(*m, center, R)}, target, p0, sigma, s, rng);
  return mcmc_to_r(r, s);
}

// Sequential v-step at a fixed footpoint.
// [[Rcpp::export]]
Rcpp::List cpp_regression_v_step(Rcpp::List M, VectorXd x, MatrixXd Y, double tau, double sigma,
                                 VectorXd p, double V, VectorXd v0, Rcpp::List mcmc) {
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::RegressionProblem P{*m, x, Y, tau_or_inf(tau)};
  dpm::VelocityKngTarget target{P, p, sigma};
  dpm::MCMCSettings s = mcmc_from_r(mcmc);
  auto r = dpm::run_metropolis(dpm::TangentBallSpace{*m, p, V}, target, v0, sigma, s, rng);
  return mcmc_to_r(r, s);
}
