// The R boundary of the geometry: the manifold factory, the frame's error,
// interrupt and thread handling (glue.h), and thin wrappers over the
// manifold interface. Inputs are validated in R; points and tangent vectors
// arrive as ambient_dim x n matrices.
#include "dpmanifold_types.h"

#include <dpmanifold_core/batch.hpp>
#include <dpmanifold_core/factory.hpp>
#include <dpmanifold_core/jacobi.hpp>
#include <dpmanifold_core/kendall.hpp>
#include <dpmanifold_core/status.hpp>

#include <vector>

#ifndef _WIN32
#include <pthread.h>
#endif

namespace {
// The number of results of an operation on the (recycled) columns of A and
// B: 0 when either holds no column (an empty input gives an empty result;
// recycling "one" column of an empty matrix would read past its end).
inline int recycled_count_or_empty(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
  if (A.cols() == 0 || B.cols() == 0) return 0;
  return recycled_count(A, B);
}
inline int recycled_count_or_empty(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::MatrixXd& C) {
  if (A.cols() == 0 || B.cols() == 0 || C.cols() == 0) return 0;
  recycled_count(B, C);
  return std::max(recycled_count(A, B), recycled_count(A, C));
}
}  // namespace

std::unique_ptr<dpm::Manifold> manifold_from_r(const Rcpp::List& M) {
  std::string type = Rcpp::as<std::string>(M["type"]);
  int size = Rcpp::as<int>(M["size"]);
  return dpm::make_manifold(type, size);
}

namespace {
// An R condition object: message, call = NULL, classes, extra fields.
Rcpp::List r_condition(const std::string& message, const std::vector<std::string>& classes,
                       Rcpp::List fields = Rcpp::List()) {
  Rcpp::List cond = Rcpp::List::create(Rcpp::Named("message") = message, Rcpp::Named("call") = R_NilValue);
  if (fields.size() > 0) {
    Rcpp::CharacterVector names = fields.names();
    for (R_xlen_t i = 0; i < fields.size(); ++i) cond[Rcpp::as<std::string>(names[i])] = fields[i];
  }
  cond.attr("class") = Rcpp::wrap(classes);
  return cond;
}
// Signals the R error `cond` from C++ through R's unwind protection: R's
// jump becomes a C++ exception that unwinds the C++ frames (destructors
// run) up to the .Call entry, where Rcpp continues R's jump; no longjmp
// crosses a C++ frame.
[[noreturn]] void stop_with(const Rcpp::List& cond) {
  Rcpp::Shield<SEXP> call(Rf_lang2(Rf_install("stop"), cond));
  Rcpp::unwindProtect([&]() -> SEXP { return Rf_eval(call, R_BaseEnv); });
  throw std::logic_error("stop() returned");  // not reached
}
}  // namespace

void rethrow_for_r() {
  try {
    throw;
  } catch (const dpmanifold_error&) {
    throw;
  } catch (const dpm::Interrupted&) {
    stop_with(r_condition(
        "the computation was interrupted (a user interrupt, or the time limit of setTimeLimit())",
        {"dpmanifold_interrupted", "dpmanifold_error", "error", "condition"}));
  } catch (const dpm::SamplerStopped& e) {
    stop_with(r_condition(std::string("exact sampler: ") + dpm::status_name(e.status),
                          {"dpmanifold_sampler_status", "dpmanifold_error", "error", "condition"},
                          Rcpp::List::create(Rcpp::Named("status") = dpm::status_name(e.status),
                                             Rcpp::Named("max_attempts") = e.max_attempts)));
  } catch (const std::bad_alloc&) {
    throw dpmanifold_error("not enough memory for the result of this call");
  } catch (const std::exception& e) {
    throw dpmanifold_error(e.what());
  }
  // anything else (Rcpp's own interrupt and long-jump signals) passes through
}

// The OpenMP runtime's thread pool does not survive fork(): a child of
// parallel::mclapply() that enters a parallel region after its parent ran
// one waits forever on the pool's lock. A forked child runs every pass on
// its calling thread (the result is the same to the bit, batch.hpp).
namespace {
bool in_forked_child = false;
#ifndef _WIN32
void note_forked_child() { in_forked_child = true; }
const bool fork_handler_installed = (pthread_atfork(nullptr, nullptr, &note_forked_child), true);
#endif
}  // namespace

void threads_from_option() {
  SEXP opt = Rf_GetOption1(Rf_install("dpmanifold.threads"));
  int k = dpm::default_threads();
  if (!Rf_isNull(opt)) {
    const double x = Rf_length(opt) == 1 && (Rf_isReal(opt) || Rf_isInteger(opt)) ? Rf_asReal(opt) : NA_REAL;
    if (!(x >= 1.0 && x <= 1024.0 && x == std::floor(x)))
      throw dpmanifold_error("options(dpmanifold.threads = ) must be a whole number between 1 and 1024");
    k = static_cast<int>(x);
  }
  dpm::set_threads(in_forked_child ? 1 : k);
}

// Long loops of the core poll for interrupts through this checker, installed
// when the library loads. R_CheckUserInterrupt() runs in a top-level
// context (a pending Ctrl-C lands there) under an error catcher (an expired
// setTimeLimit() is an R error, caught without being printed): either way
// no R jump crosses the C++ frames, and the checker throws dpm::Interrupted,
// which the glue frame turns into the classed R error
// "dpmanifold_interrupted" once the C++ frames are unwound.
namespace {
SEXP check_user_interrupt(void*) {
  R_CheckUserInterrupt();
  return R_NilValue;
}
SEXP note_error(SEXP, void* hit) {
  *static_cast<bool*>(hit) = true;
  return R_NilValue;
}
void check_at_top_level(void* hit) { R_tryCatchError(check_user_interrupt, nullptr, note_error, hit); }
void r_check_interrupt() {
  bool hit = false;
  if (R_ToplevelExec(check_at_top_level, &hit) == FALSE || hit) throw dpm::Interrupted();
}
const bool interrupt_checker_installed = (dpm::set_interrupt_checker(&r_check_interrupt), true);
}  // namespace

// [[Rcpp::export]]
Rcpp::List cpp_manifold_info(Rcpp::List M) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    return Rcpp::List::create(
        Rcpp::Named("name") = m.name(), Rcpp::Named("dim") = m.dim(),
        Rcpp::Named("ambient_dim") = m.ambient_dim(), Rcpp::Named("kappa_min") = m.kappa_min(),
        Rcpp::Named("kappa_max") = m.kappa_max(),
        Rcpp::Named("injectivity_radius") = m.injectivity_radius(),
        Rcpp::Named("hadamard") = m.is_hadamard());
  });
}

namespace {
// One string per point (or recycled pair), "" when fine.
template <class F>
Rcpp::CharacterVector reasons(int n, double cost, F reason) {
  Rcpp::CharacterVector out(n);
  for (int j = 0; j < n; ++j) {
    dpm::poll_interrupt(cost);
    out[j] = reason(j);
  }
  return out;
}
}  // namespace

// Reasons ("" when fine) for each column.
// [[Rcpp::export]]
Rcpp::CharacterVector cpp_check_points(Rcpp::List M, MatrixXd P, double tol) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    return reasons(P.cols(), m.point_cost(), [&](int j) { return m.check_point(P.col(j), tol); });
  });
}

// Reasons ("" when fine) why each column, a computed point, is not
// representable (Manifold::check_result).
// [[Rcpp::export]]
Rcpp::CharacterVector cpp_check_results(Rcpp::List M, MatrixXd P) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    return reasons(P.cols(), m.point_cost(), [&](int j) { return m.check_result(P.col(j)); });
  });
}

// The same for a point handed back to the caller (Manifold::check_output).
// [[Rcpp::export]]
Rcpp::CharacterVector cpp_check_outputs(Rcpp::List M, MatrixXd P) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    return reasons(P.cols(), m.point_cost(), [&](int j) { return m.check_output(P.col(j)); });
  });
}

// [[Rcpp::export]]
Rcpp::CharacterVector cpp_check_tangents(Rcpp::List M, MatrixXd P, MatrixXd V, double tol) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    return reasons(recycled_count_or_empty(P, V), m.point_cost(), [&](int j) {
      return m.check_tangent(col_recycled(P, j), col_recycled(V, j), tol);
    });
  });
}

// Check membership and project exactly in one pass (the R layer errors on
// the first reason given).
// [[Rcpp::export]]
Rcpp::List cpp_validate_points(Rcpp::List M, MatrixXd P, double tol) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    Rcpp::CharacterVector why(P.cols());
    bool ok = true;
    for (int j = 0; j < P.cols(); ++j) {
      dpm::poll_interrupt(m.point_cost());
      VectorXd p = P.col(j);
      std::string r = m.check_point(p, tol);
      if (!r.empty()) {
        why[j] = r;
        ok = false;
      } else if (ok) {
        P.col(j) = m.project_point(p);
      }
    }
    return Rcpp::List::create(Rcpp::Named("points") = P, Rcpp::Named("why") = why,
                              Rcpp::Named("ok") = ok);
  });
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
  return with_manifold(M, [&](const dpm::Manifold& m) {
    const BinaryOp which = binary_op(op);
    int n = recycled_count_or_empty(A, B);
    MatrixXd out(m.ambient_dim(), n);
    // logs from one point: the batch pass (both cores, one frame per block)
    if (which == BinaryOp::log && A.cols() == 1 && n > 1) {
      dpm::log_from(m, A.col(0), B, out);
      return out;
    }
    for (int j = 0; j < n; ++j) {
      dpm::poll_interrupt(m.point_cost());
      VectorXd a = col_recycled(A, j), b = col_recycled(B, j);
      switch (which) {
        case BinaryOp::exp: out.col(j) = m.exp(a, b); break;
        case BinaryOp::log: out.col(j) = m.log(a, b); break;
        case BinaryOp::project: out.col(j) = m.project_tangent(a, b); break;
      }
    }
    return out;
  });
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_dist(Rcpp::List M, MatrixXd P, MatrixXd Q) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    int n = recycled_count_or_empty(P, Q);
    Rcpp::NumericVector out(n);
    // distances from one point: the batch pass (both cores)
    if (P.cols() == 1 && n > 1) {
      dpm::dist_from(m, P.col(0), Q, out.begin());
      return out;
    }
    for (int j = 0; j < n; ++j) {
      dpm::poll_interrupt(m.point_cost());
      out[j] = m.dist(col_recycled(P, j), col_recycled(Q, j));
    }
    return out;
  });
}

// Pairwise distance matrix between the columns of P and of Q: row i holds
// the distances from column i of P (one batch pass over Q per row).
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_dist_matrix(Rcpp::List M, MatrixXd P, Rcpp::NumericVector Qr) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    const auto Q = points_in_place(Qr);
    Rcpp::NumericMatrix out(P.cols(), Q.cols());
    std::vector<double> row(Q.cols());
    for (int i = 0; i < P.cols(); ++i) {
      dpm::dist_from(m, P.col(i), Q, row.data());
      for (int j = 0; j < Q.cols(); ++j) out(i, j) = row[j];
    }
    return out;
  });
}

// [[Rcpp::export]]
Rcpp::NumericVector cpp_inner(Rcpp::List M, MatrixXd P, MatrixXd U, MatrixXd V) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    int n = recycled_count_or_empty(P, U, V);
    Rcpp::NumericVector out(n);
    for (int j = 0; j < n; ++j) {
      dpm::poll_interrupt(m.point_cost());
      out[j] = m.inner(col_recycled(P, j), col_recycled(U, j), col_recycled(V, j));
    }
    return out;
  });
}

// op: transport (p to q), transport_along (p along v), dexp_p, dexp_v,
// adjoint_dexp_p, adjoint_dexp_v (p, v, w).
// [[Rcpp::export]]
MatrixXd cpp_ternary_op(Rcpp::List M, std::string op, MatrixXd A, MatrixXd B, MatrixXd C) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    const TernaryOp which = ternary_op(op);
    int n = recycled_count_or_empty(A, B, C);
    MatrixXd out(m.ambient_dim(), n);
    for (int j = 0; j < n; ++j) {
      dpm::poll_interrupt(3.0 * m.point_cost());
      VectorXd a = col_recycled(A, j), b = col_recycled(B, j), c = col_recycled(C, j);
      switch (which) {
        case TernaryOp::transport: out.col(j) = m.transport(a, b, c); break;
        case TernaryOp::transport_along: out.col(j) = m.transport_along(a, b, c); break;
        case TernaryOp::dexp_p: out.col(j) = dpm::dexp_p(m, a, b, c); break;
        case TernaryOp::dexp_v: out.col(j) = dpm::dexp_v(m, a, b, c); break;
        case TernaryOp::adjoint_dexp_p: out.col(j) = dpm::adjoint_dexp_p(m, a, b, c); break;
        case TernaryOp::adjoint_dexp_v: out.col(j) = dpm::adjoint_dexp_v(m, a, b, c); break;
      }
    }
    return out;
  });
}

// [[Rcpp::export]]
MatrixXd cpp_tangent_basis(Rcpp::List M, VectorXd p) {
  return with_manifold(M, [&](const dpm::Manifold& m) { return m.tangent_basis(p); });
}

// Coordinates of each column of V (tangent at the recycled columns of P) in
// tangent_basis(p).
// [[Rcpp::export]]
MatrixXd cpp_tangent_coords(Rcpp::List M, MatrixXd P, MatrixXd V) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    int n = recycled_count_or_empty(P, V);
    MatrixXd out(m.dim(), n);
    for (int j = 0; j < n; ++j) {
      dpm::poll_interrupt(m.point_cost());
      out.col(j) = m.tangent_coords(col_recycled(P, j), col_recycled(V, j));
    }
    return out;
  });
}

// [[Rcpp::export]]
MatrixXd cpp_random_point(Rcpp::List M, int n) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    MatrixXd out(m.ambient_dim(), n);
    for (int j = 0; j < n; ++j) {
      dpm::poll_interrupt(m.point_cost());
      out.col(j) = m.random_point(rng);
    }
    return out;
  });
}

// [[Rcpp::export]]
MatrixXd cpp_random_tangent(Rcpp::List M, MatrixXd P, int n) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    if (P.cols() == 0 && n > 0) throw std::invalid_argument("no point at which to draw tangent vectors");
    MatrixXd out(m.ambient_dim(), n);
    for (int j = 0; j < n; ++j) {
      dpm::poll_interrupt(m.point_cost());
      out.col(j) = m.random_tangent(col_recycled(P, j), rng);
    }
    return out;
  });
}

// Each column of X moved onto the closed ball B_radius(center) along the
// geodesic from the centre (columns inside are returned unchanged).
// [[Rcpp::export]]
Rcpp::NumericMatrix cpp_clip_to_ball(Rcpp::List M, VectorXd center, Rcpp::NumericVector Xr, double radius) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    const auto X = points_in_place(Xr);
    Rcpp::NumericMatrix out(X.rows(), X.cols());
    Eigen::Map<MatrixXd> o(out.begin(), X.rows(), X.cols());
    dpm::clip_to_ball(m, center, radius, X, o);
    return out;
  });
}

// Optimal rotation of each column of Z onto z.
// [[Rcpp::export]]
MatrixXd cpp_kendall_align(Rcpp::List M, VectorXd z, MatrixXd Z) {
  return glue_call([&] {
    MatrixXd out(Z.rows(), Z.cols());
    for (int j = 0; j < Z.cols(); ++j) {
      dpm::poll_interrupt(10.0 * Z.rows());
      out.col(j) = dpm::kendall_ops::align(z, Z.col(j));
    }
    return out;
  });
}

// log J(v) at p: the volume density in normal coordinates (tests).
// [[Rcpp::export]]
Rcpp::NumericVector cpp_log_volume_density(Rcpp::List M, VectorXd p, MatrixXd V) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    Rcpp::NumericVector out(V.cols());
    for (int j = 0; j < V.cols(); ++j) {
      dpm::poll_interrupt(m.point_cost());
      out[j] = m.log_volume_density(p, V.col(j));
    }
    return out;
  });
}
