// Thin Rcpp wrappers over the manifold interface. Inputs are validated in R;
// points and tangent vectors arrive as ambient_dim x n matrices. Every loop
// over points polls for interrupts; every body is wrapped so that a C++
// exception reaches R as a dpmanifold_error (glue.h).
#include "dpmanifold_types.h"

#include <dpmanifold_core/factory.hpp>
#include <dpmanifold_core/jacobi.hpp>
#include <dpmanifold_core/kendall.hpp>

std::unique_ptr<dpm::Manifold> manifold_from_r(const Rcpp::List& M) {
  std::string type = Rcpp::as<std::string>(M["type"]);
  int size = Rcpp::as<int>(M["size"]);
  return dpm::make_manifold(type, size);
}

// Long loops of the core poll for interrupts through this checker (a pending
// Ctrl-C or an expired setTimeLimit() makes Rcpp throw, and the exported
// call ends with R's interrupt condition). Installed when the library loads.
namespace {
void r_check_interrupt() { Rcpp::checkUserInterrupt(); }
const bool interrupt_checker_installed = (dpm::set_interrupt_checker(&r_check_interrupt), true);
}  // namespace


// [[Rcpp::export]]
Rcpp::List cpp_manifold_info(Rcpp::List M) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  return Rcpp::List::create(
      Rcpp::Named("name") = m->name(), Rcpp::Named("dim") = m->dim(),
      Rcpp::Named("ambient_dim") = m->ambient_dim(),
      Rcpp::Named("kappa_min") = m->kappa_min(), Rcpp::Named("kappa_max") = m->kappa_max(),
      Rcpp::Named("injectivity_radius") = m->injectivity_radius(),
      Rcpp::Named("hadamard") = m->is_hadamard());
  DPM_GLUE_END
}

// Reasons ("" when fine) for each column.
// [[Rcpp::export]]
Rcpp::CharacterVector cpp_check_points(Rcpp::List M, MatrixXd P, double tol) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  Rcpp::CharacterVector out(P.cols());
  for (int j = 0; j < P.cols(); ++j) {
    dpm::poll_interrupt();
    out[j] = m->check_point(P.col(j), tol);
  }
  return out;
  DPM_GLUE_END
}

// Reasons ("" when fine) why each column, a computed point, is not
// representable (Manifold::check_result).
// [[Rcpp::export]]
Rcpp::CharacterVector cpp_check_results(Rcpp::List M, MatrixXd P) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  Rcpp::CharacterVector out(P.cols());
  for (int j = 0; j < P.cols(); ++j) {
    dpm::poll_interrupt();
    out[j] = m->check_result(P.col(j));
  }
  return out;
  DPM_GLUE_END
}

// [[Rcpp::export]]
Rcpp::CharacterVector cpp_check_tangents(Rcpp::List M, MatrixXd P, MatrixXd V, double tol) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  int n = recycled_count(P, V);
  Rcpp::CharacterVector out(n);
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt();
    out[j] = m->check_tangent(col_recycled(P, j), col_recycled(V, j), tol);
  }
  return out;
  DPM_GLUE_END
}

namespace {
enum class BinaryOp { exp, log, project };
BinaryOp binary_op(const std::string& op) {
  if (op == "exp") return BinaryOp::exp;
  if (op == "log") return BinaryOp::log;
  if (op == "project") return BinaryOp::project;
  throw std::invalid_argument("unknown operation " + op);
}
enum class TernaryOp { transport, transport_along, dexp_p, dexp_v, adjoint_dexp_p, adjoint_dexp_v };
TernaryOp ternary_op(const std::string& op) {
  if (op == "transport") return TernaryOp::transport;
  if (op == "transport_along") return TernaryOp::transport_along;
  if (op == "dexp_p") return TernaryOp::dexp_p;
  if (op == "dexp_v") return TernaryOp::dexp_v;
  if (op == "adjoint_dexp_p") return TernaryOp::adjoint_dexp_p;
  if (op == "adjoint_dexp_v") return TernaryOp::adjoint_dexp_v;
  throw std::invalid_argument("unknown operation " + op);
}
}  // namespace

// Binary operations returning a vector: op is one of exp, log, project.
// [[Rcpp::export]]
MatrixXd cpp_binary_op(Rcpp::List M, std::string op, MatrixXd A, MatrixXd B) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  const BinaryOp which = binary_op(op);
  int n = recycled_count(A, B);
  MatrixXd out(m->ambient_dim(), n);
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt();
    VectorXd a = col_recycled(A, j), b = col_recycled(B, j);
    switch (which) {
      case BinaryOp::exp: out.col(j) = m->exp(a, b); break;
      case BinaryOp::log: out.col(j) = m->log(a, b); break;
      case BinaryOp::project: out.col(j) = m->project_tangent(a, b); break;
    }
  }
  return out;
  DPM_GLUE_END
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_dist(Rcpp::List M, MatrixXd P, MatrixXd Q) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  int n = recycled_count(P, Q);
  Rcpp::NumericVector out(n);
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt();
    out[j] = m->dist(col_recycled(P, j), col_recycled(Q, j));
  }
  return out;
  DPM_GLUE_END
}

// Pairwise distance matrix between the columns of P and of Q (distances
// from each column of P measured by the manifold's prepared dist_from).
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_dist_matrix(Rcpp::List M, MatrixXd P, MatrixXd Q) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  Rcpp::NumericMatrix out(P.cols(), Q.cols());
  for (int i = 0; i < P.cols(); ++i) {
    auto from = m->dist_from(P.col(i));
    for (int j = 0; j < Q.cols(); ++j) {
      dpm::poll_interrupt();
      out(i, j) = from(Q.col(j));
    }
  }
  return out;
  DPM_GLUE_END
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_inner(Rcpp::List M, MatrixXd P, MatrixXd U, MatrixXd V) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  int n = std::max(recycled_count(P, U), recycled_count(P, V));
  recycled_count(U, V);
  Rcpp::NumericVector out(n);
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt();
    out[j] = m->inner(col_recycled(P, j), col_recycled(U, j), col_recycled(V, j));
  }
  return out;
  DPM_GLUE_END
}

// op: transport (p to q), transport_along (p along v), dexp_p, dexp_v,
// adjoint_dexp_p, adjoint_dexp_v (p, v, w).
// [[Rcpp::export]]
MatrixXd cpp_ternary_op(Rcpp::List M, std::string op, MatrixXd A, MatrixXd B, MatrixXd C) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  const TernaryOp which = ternary_op(op);
  int n = std::max(recycled_count(A, B), recycled_count(A, C));
  recycled_count(B, C);
  MatrixXd out(m->ambient_dim(), n);
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt();
    VectorXd a = col_recycled(A, j), b = col_recycled(B, j), c = col_recycled(C, j);
    switch (which) {
      case TernaryOp::transport: out.col(j) = m->transport(a, b, c); break;
      case TernaryOp::transport_along: out.col(j) = m->transport_along(a, b, c); break;
      case TernaryOp::dexp_p: out.col(j) = dpm::dexp_p(*m, a, b, c); break;
      case TernaryOp::dexp_v: out.col(j) = dpm::dexp_v(*m, a, b, c); break;
      case TernaryOp::adjoint_dexp_p: out.col(j) = dpm::adjoint_dexp_p(*m, a, b, c); break;
      case TernaryOp::adjoint_dexp_v: out.col(j) = dpm::adjoint_dexp_v(*m, a, b, c); break;
    }
  }
  return out;
  DPM_GLUE_END
}

// [[Rcpp::export]]
MatrixXd cpp_tangent_basis(Rcpp::List M, VectorXd p) {
  DPM_GLUE_BEGIN
  return manifold_from_r(M)->tangent_basis(p);
  DPM_GLUE_END
}

// Coordinates of each column of V (tangent at the recycled columns of P) in
// tangent_basis(p), and the inverse map (coordinates to tangent vectors).
// [[Rcpp::export]]
MatrixXd cpp_tangent_coords(Rcpp::List M, MatrixXd P, MatrixXd V) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  int n = recycled_count(P, V);
  MatrixXd out(m->dim(), n);
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt();
    out.col(j) = m->tangent_coords(col_recycled(P, j), col_recycled(V, j));
  }
  return out;
  DPM_GLUE_END
}

// [[Rcpp::export]]
MatrixXd cpp_random_point(Rcpp::List M, int n) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  MatrixXd out(m->ambient_dim(), n);
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt();
    out.col(j) = m->random_point(rng);
  }
  return out;
  DPM_GLUE_END
}

// [[Rcpp::export]]
MatrixXd cpp_random_tangent(Rcpp::List M, MatrixXd P, int n) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  RRng rng;
  MatrixXd out(m->ambient_dim(), n);
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt();
    out.col(j) = m->random_tangent(col_recycled(P, j), rng);
  }
  return out;
  DPM_GLUE_END
}

// Each column of X moved onto the closed ball B_radius(center) along the
// geodesic from the centre (columns inside are returned unchanged).
// [[Rcpp::export]]
MatrixXd cpp_clip_to_ball(Rcpp::List M, VectorXd center, MatrixXd X, double radius) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  MatrixXd out(X.rows(), X.cols());
  for (int j = 0; j < X.cols(); ++j) {
    dpm::poll_interrupt();
    out.col(j) = m->clip_towards(center, X.col(j), radius);
  }
  return out;
  DPM_GLUE_END
}

// Optimal rotation of each column of Z onto z.
// [[Rcpp::export]]
MatrixXd cpp_kendall_align(Rcpp::List M, VectorXd z, MatrixXd Z) {
  DPM_GLUE_BEGIN
  MatrixXd out(Z.rows(), Z.cols());
  for (int j = 0; j < Z.cols(); ++j) {
    dpm::poll_interrupt();
    out.col(j) = dpm::kendall_ops::align(z, Z.col(j));
  }
  return out;
  DPM_GLUE_END
}

// Check membership and project exactly in one pass (the R layer errors on
// the first reason given).
// [[Rcpp::export]]
Rcpp::List cpp_validate_points(Rcpp::List M, MatrixXd P, double tol) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  Rcpp::CharacterVector why(P.cols());
  bool ok = true;
  for (int j = 0; j < P.cols(); ++j) {
    dpm::poll_interrupt();
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
  DPM_GLUE_END
}
