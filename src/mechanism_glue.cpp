// Rcpp wrappers for the Frechet mean and the samplers of the mechanisms.
#include "dpmanifold_types.h"

// [[Rcpp::export]]
Rcpp::List cpp_frechet_mean(Rcpp::List M, MatrixXd X, VectorXd w, VectorXd x0, int max_iter,
                            double tol) {
  auto m = manifold_from_r(M);
  auto r = dpm::frechet_mean(*m, X, w, x0, max_iter, tol);
  return Rcpp::List::create(Rcpp::Named("mean") = r.mean, Rcpp::Named("iterations") = r.iterations,
                            Rcpp::Named("grad_norm") = r.grad_norm,
                            Rcpp::Named("objective") = r.objective,
                            Rcpp::Named("converged") = r.converged);
}

// Riemannian Laplace restricted to B_radius(center): exact where the
// curvature is constant and non-negative, Metropolis-Hastings elsewhere.
// [[Rcpp::export]]
Rcpp::List cpp_rlaplace(Rcpp::List M, VectorXd mean, double sigma, VectorXd center, double radius,
                        Rcpp::List mcmc, bool force_mcmc) {
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::Ball ball(*m, center, radius);
  dpm::MCMCSettings s = mcmc_from_r(mcmc);
  if (!force_mcmc && dpm::has_exact_laplace(*m)) {
    dpm::ExactStats st;
    MatrixXd draws(m->ambient_dim(), s.n_draws);
    for (int j = 0; j < s.n_draws; ++j) draws.col(j) = dpm::exact_laplace(*m, mean, sigma, ball, rng, st);
    return Rcpp::List::create(Rcpp::Named("draws") = draws, Rcpp::Named("method") = "exact",
                              Rcpp::Named("attempts") = static_cast<double>(st.attempts));
  }
  dpm::LaplaceLogTarget target(*m, mean, sigma);
  auto r = dpm::metropolis_hastings(*m, target, ball, center, sigma, s, rng);
  return mcmc_to_r(r, s);
}

// KNG for the Frechet mean on B_radius(center). On flat manifolds the KNG
// density is the Riemannian Laplace around the Frechet mean (passed as
// flat_mean), which is sampled exactly.
// [[Rcpp::export]]
Rcpp::List cpp_rkng(Rcpp::List M, MatrixXd X, double sigma, VectorXd center, double radius,
                    Rcpp::List mcmc, Rcpp::Nullable<Rcpp::NumericVector> flat_mean, bool force_mcmc) {
  auto m = manifold_from_r(M);
  RRng rng;
  dpm::Ball ball(*m, center, radius);
  dpm::MCMCSettings s = mcmc_from_r(mcmc);
  if (!force_mcmc && m->constant_curvature() == 0.0 && flat_mean.isNotNull()) {
    VectorXd mean = Rcpp::as<VectorXd>(flat_mean.get());
    dpm::ExactStats st;
    MatrixXd draws(m->ambient_dim(), s.n_draws);
    for (int j = 0; j < s.n_draws; ++j) draws.col(j) = dpm::exact_laplace(*m, mean, sigma, ball, rng, st);
    return Rcpp::List::create(Rcpp::Named("draws") = draws, Rcpp::Named("method") = "exact",
                              Rcpp::Named("attempts") = static_cast<double>(st.attempts));
  }
  dpm::KngLogTarget target{*m, X, sigma};
  auto r = dpm::metropolis_hastings(*m, target, ball, center, sigma, s, rng);
  return mcmc_to_r(r, s);
}

// Wrapped Laplace / Gaussian around log_{footpoint}(mean), written straight
// into R's memory (batches of draws are large).
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_rwrapped(Rcpp::List M, VectorXd mean, double sigma, VectorXd footpoint,
                                 int n, std::string kind) {
  auto m = manifold_from_r(M);
  RRng rng;
  auto exp_coords = m->exp_coords_from(footpoint);
  VectorXd c = m->tangent_coords(footpoint, m->log(footpoint, mean));
  dpm::WrappedNoise k = kind == "laplace" ? dpm::WrappedNoise::laplace : dpm::WrappedNoise::gaussian;
  Rcpp::NumericMatrix out(m->ambient_dim(), n);
  Eigen::Map<MatrixXd> draws(out.begin(), m->ambient_dim(), n);
  VectorXd work;
  for (int j = 0; j < n; ++j) draws.col(j) = dpm::wrapped_draw(exp_coords, c, sigma, k, rng, work);
  return out;
}

// K-norm noise in R^d (rows: draws).
// [[Rcpp::export]]
MatrixXd cpp_euclidean_laplace_noise(int d, double sigma, int n) {
  RRng rng;
  MatrixXd out(d, n);
  VectorXd z(d);
  for (int j = 0; j < n; ++j) {
    dpm::euclidean_laplace_noise(z, sigma, rng);
    out.col(j) = z;
  }
  return out;
}

// KNG gradient (1/n) sum log_y(x_j) at each column of Y.
// [[Rcpp::export]]
MatrixXd cpp_kng_gradient(Rcpp::List M, MatrixXd Y, MatrixXd X) {
  auto m = manifold_from_r(M);
  MatrixXd out(Y.rows(), Y.cols());
  for (int j = 0; j < Y.cols(); ++j) out.col(j) = dpm::kng_gradient(*m, Y.col(j), X);
  return out;
}

// Norm of the KNG gradient at each column of Y.
// [[Rcpp::export]]
Rcpp::NumericVector cpp_kng_gradient_norm(Rcpp::List M, MatrixXd Y, MatrixXd X) {
  auto m = manifold_from_r(M);
  Rcpp::NumericVector out(Y.cols());
  for (int j = 0; j < Y.cols(); ++j) out[j] = m->norm(Y.col(j), dpm::kng_gradient(*m, Y.col(j), X));
  return out;
}
