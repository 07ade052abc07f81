// Thin Rcpp wrappers over the manifold interface. Inputs are validated in R;
// points and tangent vectors arrive as ambient_dim x n matrices.
#include "dpmanifold_types.h"

using Eigen::MatrixXd;
using Eigen::VectorXd;

// [[Rcpp::export]]
Rcpp::List cpp_manifold_info(Rcpp::List M) {
  auto m = manifold_from_r(M);
  return Rcpp::List::create(
      Rcpp::Named("name") = m->name(), Rcpp::Named("dim") = m->dim(),
      Rcpp::Named("ambient_dim") = m->ambient_dim(),
      Rcpp::Named("kappa_min") = m->kappa_min(), Rcpp::Named("kappa_max") = m->kappa_max(),
      Rcpp::Named("injectivity_radius") = m->injectivity_radius(),
      Rcpp::Named("hadamard") = m->is_hadamard());
}

// Reasons ("" when fine) for each column.
// [[Rcpp::export]]
Rcpp::CharacterVector cpp_check_points(Rcpp::List M, MatrixXd P, double tol) {
  auto m = manifold_from_r(M);
  Rcpp::CharacterVector out(P.cols());
  for (int j = 0; j < P.cols(); ++j) out[j] = m->check_point(P.col(j), tol);
  return out;
}

// [[Rcpp::export]]
Rcpp::CharacterVector cpp_check_tangents(Rcpp::List M, MatrixXd P, MatrixXd V, double tol) {
  auto m = manifold_from_r(M);
  int n = recycled_count(P, V);
  Rcpp::CharacterVector out(n);
  for (int j = 0; j < n; ++j) out[j] = m->check_tangent(col_recycled(P, j), col_recycled(V, j), tol);
  return out;
}

// Binary operations returning a vector: op is one of exp, log, project,
// transport_along.
// [[Rcpp::export]]
MatrixXd cpp_binary_op(Rcpp::List M, std::string op, MatrixXd A, MatrixXd B) {
  auto m = manifold_from_r(M);
  int n = recycled_count(A, B);
  MatrixXd out(m->ambient_dim(), n);
  for (int j = 0; j < n; ++j) {
    VectorXd a = col_recycled(A, j), b = col_recycled(B, j);
    if (op == "exp") out.col(j) = m->exp(a, b);
    else if (op == "log") out.col(j) = m->log(a, b);
    else if (op == "project") out.col(j) = m->project_tangent(a, b);
    else throw std::invalid_argument("unknown operation " + op);
  }
  return out;
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_dist(Rcpp::List M, MatrixXd P, MatrixXd Q) {
  auto m = manifold_from_r(M);
  int n = recycled_count(P, Q);
  Rcpp::NumericVector out(n);
  for (int j = 0; j < n; ++j) out[j] = m->dist(col_recycled(P, j), col_recycled(Q, j));
  return out;
}

// Pairwise distance matrix between the columns of P and of Q.
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_dist_matrix(Rcpp::List M, MatrixXd P, MatrixXd Q) {
  auto m = manifold_from_r(M);
  Rcpp::NumericMatrix out(P.cols(), Q.cols());
  for (int i = 0; i < P.cols(); ++i)
    for (int j = 0; j < Q.cols(); ++j) out(i, j) = m->dist(P.col(i), Q.col(j));
  return out;
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_inner(Rcpp::List M, MatrixXd P, MatrixXd U, MatrixXd V) {
  auto m = manifold_from_r(M);
  int n = std::max(recycled_count(P, U), recycled_count(P, V));
  recycled_count(U, V);
  Rcpp::NumericVector out(n);
  for (int j = 0; j < n; ++j)
    out[j] = m->inner(col_recycled(P, j), col_recycled(U, j), col_recycled(V, j));
  return out;
}

// op: transport (p to q), transport_along (p along v), dexp_p, dexp_v,
// adjoint_dexp_p, adjoint_dexp_v (p, v, w).
// [[Rcpp::export]]
MatrixXd cpp_ternary_op(Rcpp::List M, std::string op, MatrixXd A, MatrixXd B, MatrixXd C) {
  auto m = manifold_from_r(M);
  int n = std::max(recycled_count(A, B), recycled_count(A, C));
  recycled_count(B, C);
  MatrixXd out(m->ambient_dim(), n);
  for (int j = 0; j < n; ++j) {
    VectorXd a = col_recycled(A, j), b = col_recycled(B, j), c = col_recycled(C, j);
    if (op == "transport") out.col(j) = m->transport(a, b, c);
    else if (op == "transport_along") out.col(j) = m->transport_along(a, b, c);
    else if (op == "dexp_p") out.col(j) = dpm::dexp_p(*m, a, b, c);
    else if (op == "dexp_v") out.col(j) = dpm::dexp_v(*m, a, b, c);
    else if (op == "adjoint_dexp_p") out.col(j) = dpm::adjoint_dexp_p(*m, a, b, c);
    else if (op == "adjoint_dexp_v") out.col(j) = dpm::adjoint_dexp_v(*m, a, b, c);
    else throw std::invalid_argument("unknown operation " + op);
  }
  return out;
}

// [[Rcpp::export]]
MatrixXd cpp_tangent_basis(Rcpp::List M, VectorXd p) {
  return manifold_from_r(M)->tangent_basis(p);
}

// [[Rcpp::export]]
MatrixXd cpp_random_point(Rcpp::List M, int n) {
  auto m = manifold_from_r(M);
  RRng rng;
  MatrixXd out(m->ambient_dim(), n);
  for (int j = 0; j < n; ++j) out.col(j) = m->random_point(rng);
  return out;
}

// [[Rcpp::export]]
MatrixXd cpp_random_tangent(Rcpp::List M, MatrixXd P, int n) {
  auto m = manifold_from_r(M);
  RRng rng;
  MatrixXd out(m->ambient_dim(), n);
  for (int j = 0; j < n; ++j) out.col(j) = m->random_tangent(col_recycled(P, j), rng);
  return out;
}

// Optimal rotation of each column of Z onto z.
// [[Rcpp::export]]
MatrixXd cpp_kendall_align(Rcpp::List M, VectorXd z, MatrixXd Z) {
  MatrixXd out(Z.rows(), Z.cols());
  for (int j = 0; j < Z.cols(); ++j) out.col(j) = dpm::kendall_ops::align(z, Z.col(j));
  return out;
}

// Check membership and project exactly in one pass (the R layer errors on
// the first reason given).
// [[Rcpp::export]]
Rcpp::List cpp_validate_points(Rcpp::List M, MatrixXd P, double tol) {
  auto m = manifold_from_r(M);
  Rcpp::CharacterVector why(P.cols());
  bool ok = true;
  for (int j = 0; j < P.cols(); ++j) {
    VectorXd p = P.col(j);
    std::string r = m->check_point(p, tol);
    if (!r.empty()) {
      why[j] = r;
      ok = false;
    } else if (ok) {
      P.col(j) = m->project_point(p);
    }
  }
  return Rcpp::List::create(Rcpp::Named("points") = P, Rcpp::Named("why") = why,
                            Rcpp::Named("ok") = ok);
}
