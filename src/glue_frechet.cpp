// The R boundary of the Frechet mean and of the K-norm gradient (passes
// over the data on both cores: batch.hpp).
#include "dpmanifold_types.h"

#include <dpmanifold_core/frechet_mean.hpp>
#include <dpmanifold_core/samplers.hpp>

// [[Rcpp::export]]
Rcpp::List cpp_frechet_mean(Rcpp::List M, Rcpp::NumericVector X, Rcpp::NumericVector w, VectorXd x0,
                            int max_iter, double tol) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    auto r = dpm::frechet_mean(m, points_in_place(X), vector_in_place(w), x0, max_iter, tol);
    return Rcpp::List::create(Rcpp::Named("mean") = r.mean, Rcpp::Named("iterations") = r.iterations,
                              Rcpp::Named("grad_norm") = r.grad_norm,
                              Rcpp::Named("objective") = r.objective,
                              Rcpp::Named("converged") = r.converged);
  });
}

// KNG gradient (1/n) sum log_y(x_j) at each column of Y.
// [[Rcpp::export]]
MatrixXd cpp_kng_gradient(Rcpp::List M, MatrixXd Y, Rcpp::NumericVector X) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    MatrixXd out(Y.rows(), Y.cols());
    for (int j = 0; j < Y.cols(); ++j) out.col(j) = dpm::kng_gradient(m, Y.col(j), points_in_place(X));
    return out;
  });
}

// Norm of the KNG gradient at each column of Y.
// [[Rcpp::export]]
Rcpp::NumericVector cpp_kng_gradient_norm(Rcpp::List M, MatrixXd Y, Rcpp::NumericVector X) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    Rcpp::NumericVector out(Y.cols());
    for (int j = 0; j < Y.cols(); ++j)
      out[j] = m.norm(Y.col(j), dpm::kng_gradient(m, Y.col(j), points_in_place(X)));
    return out;
  });
}
