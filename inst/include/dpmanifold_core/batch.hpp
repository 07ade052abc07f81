// The O(n) passes over data, on both cores: Frechet gradient and objective,
// logs and distances from one point, clipping to a ball, and the residual
// pass of geodesic regression. Each pass cuts the n points into chunks whose
// boundaries depend on n and the manifold only, runs the manifold's batch
// kernels (one virtual call per chunk) in parallel, and combines the
// partial sums of the chunks in chunk order: the result is the same to the
// bit whatever the number of threads, so set.seed() reproduces a release on
// any machine. Nothing here draws random numbers (the host's generator is
// called on the calling thread only), and interrupts are polled on the
// calling thread between rounds of chunks, and inside a round that runs
// there alone (interrupt.hpp).
//
// Threads: OpenMP when the host compiles with it (R: SHLIB_OPENMP_CXXFLAGS),
// otherwise one. set_threads() sets the number (the R glue reads
// options(dpmanifold.threads), default default_threads()).
#ifndef DPMANIFOLD_BATCH_HPP
#define DPMANIFOLD_BATCH_HPP

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "manifold.hpp"

namespace dpmanifold {

// ---------------------------------------------------------------------------
// Threads and chunks.

namespace detail {
inline int& thread_setting() {
  static int n = 1;
  return n;
}
}  // namespace detail

inline void set_threads(int n) { detail::thread_setting() = std::max(1, n); }
inline int threads() { return detail::thread_setting(); }
// Two threads, or fewer when OpenMP offers fewer (OMP_NUM_THREADS,
// OMP_THREAD_LIMIT); one without OpenMP.
inline int default_threads() {
#ifdef _OPENMP
  return std::max(1, std::min(2, omp_get_max_threads()));
#else
  return 1;
#endif
}

// Work of one chunk and of one round of chunks, in the work units of
// interrupt.hpp: a chunk is ~65 us of one core (large enough that a virtual
// call and a partial sum per chunk cost nothing, small enough that a few
// thousand expensive points still split), a round ~50 ms (the interval at
// which the calling thread polls for interrupts; each round ends at a
// barrier that waits for every thread, which costs a scheduler quantum when
// another process holds a thread's core: with rounds of ~10 ms a release on
// S^2 at n = 10^6 took 0.63 s on two threads beside a busy core, 0.51 s on
// one; with ~50 ms 0.50 s).
constexpr double kChunkWork = 65536.0;
constexpr double kRoundWork = 5e7;
// A round with less work than this runs on the calling thread: waking a
// second thread costs microseconds on an idle machine but a scheduler
// quantum when another process holds its core (a release on S^2 at
// n = 2000, whose passes are rounds of ~0.1 ms, took twice as long on two
// threads as on one beside one busy process, and gained nothing idle).
constexpr double kParallelMinWork = 2e6;

// Points per chunk for points of the given cost: depends on the manifold
// only (never on the number of threads).
inline Eigen::Index chunk_size(double point_cost) {
  const double c = std::floor(kChunkWork / std::max(point_cost, 1.0));
  return static_cast<Eigen::Index>(std::min(4096.0, std::max(8.0, c)));
}

// Runs body(c, begin, end) for every chunk c = 0, 1, ... of [0, n),
// [c * chunk, min(n, (c + 1) * chunk)), in parallel. An exception in a
// chunk is rethrown on the calling thread after its round (the one of the
// lowest chunk, so the error does not depend on the threads either). Called
// from the host's thread only, never from inside a body (no nesting).
template <class Body>
void for_chunks(Eigen::Index n, Eigen::Index chunk, double point_cost, Body&& body) {
  if (n <= 0) return;
  const Eigen::Index nc = (n + chunk - 1) / chunk;
  const Eigen::Index per_round = std::max<Eigen::Index>(
      1, static_cast<Eigen::Index>(kRoundWork / (static_cast<double>(chunk) * std::max(point_cost, 1.0))));
  const int nt = threads();
  for (Eigen::Index c0 = 0; c0 < nc; c0 += per_round) {
    const Eigen::Index c1 = std::min(nc, c0 + per_round);
    std::exception_ptr error;
    Eigen::Index error_chunk = c1;
    auto run = [&](Eigen::Index c) {
      try {
        body(c, c * chunk, std::min(n, (c + 1) * chunk));
      } catch (...) {
#ifdef _OPENMP
#pragma omp critical(dpmanifold_chunk_error)
#endif
        if (c < error_chunk) {
          error_chunk = c;
          error = std::current_exception();
        }
      }
    };
    // One thread never enters an OpenMP region: a process forked after a
    // parallel pass (parallel::mclapply) runs with one thread (the host
    // sets it, see set_threads()), and the runtime's thread pool, which
    // does not survive fork(), is then never touched. A round run on the
    // calling thread alone keeps polling inside the body (a round of one
    // chunk of large SPD points is seconds of eigendecompositions, which
    // poll) and stops at the first chunk that throws.
    auto serial = [&]() {
      for (Eigen::Index c = c0; c < c1 && !error; ++c) run(c);
    };
    const double round_work = point_cost * static_cast<double>(std::min(n, c1 * chunk) - c0 * chunk);
#ifdef _OPENMP
    if (nt > 1 && c1 - c0 > 1 && round_work >= kParallelMinWork) {
      SuspendPolling quiet;  // no checker on any thread inside the region
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
      for (Eigen::Index c = c0; c < c1; ++c) run(c);
    } else {
      serial();
    }
#else
    serial();
#endif
    (void)nt;
    if (error) std::rethrow_exception(error);
    poll_interrupt(round_work);
  }
}

// ---------------------------------------------------------------------------
// The passes.

// sum_j w_j log_x(x_j) and sum_j w_j dist(x, x_j)^2 over the columns of X,
// in one pass (the Riemannian gradient of the Frechet objective is minus
// the first divided by sum w, the objective the second divided by 2 sum w).
// An empty w means weights 1.
struct FrechetSums {
  Vec g;
  double f = 0.0;
};
inline FrechetSums frechet_sums(const Manifold& M, const Vec& x, const ConstPoints& X, const ConstWeights& w) {
  const Eigen::Index n = X.cols(), chunk = chunk_size(M.point_cost());
  const Eigen::Index nc = (n + chunk - 1) / chunk;
  Mat g_part = Mat::Zero(x.size(), std::max<Eigen::Index>(nc, 1));
  std::vector<double> f_part(std::max<Eigen::Index>(nc, 1), 0.0);
  for_chunks(n, chunk, M.point_cost(), [&](Eigen::Index c, Eigen::Index b, Eigen::Index e) {
    Vec g = Vec::Zero(x.size());
    double f = 0.0;
    M.frechet_block(x, X.middleCols(b, e - b), w.size() ? w.data() + b : nullptr, g, f);
    g_part.col(c) = g;
    f_part[c] = f;
  });
  FrechetSums s;
  s.g = g_part.col(0);
  s.f = f_part[0];
  for (Eigen::Index c = 1; c < nc; ++c) {  // chunk order: independent of the threads
    s.g += g_part.col(c);
    s.f += f_part[c];
  }
  return s;
}

// out.col(j) = log_p(X.col(j)).
inline void log_from(const Manifold& M, const Vec& p, const ConstPoints& X, OutPoints out) {
  for_chunks(X.cols(), chunk_size(M.point_cost()), M.point_cost(),
             [&](Eigen::Index, Eigen::Index b, Eigen::Index e) {
               M.log_block(p, X.middleCols(b, e - b), out.middleCols(b, e - b));
             });
}

// d[j] = dist(p, X.col(j)).
inline void dist_from(const Manifold& M, const Vec& p, const ConstPoints& X, double* d) {
  for_chunks(X.cols(), chunk_size(M.point_cost()), M.point_cost(),
             [&](Eigen::Index, Eigen::Index b, Eigen::Index e) { M.dist_block(p, X.middleCols(b, e - b), d + b); });
}

// out.col(j) = the point of the closed ball B_radius(center) on the geodesic
// from the centre to X.col(j), or X.col(j) itself when it is in the ball
// (out may be X). Returns the number of columns moved.
inline Eigen::Index clip_to_ball(const Manifold& M, const Vec& center, double radius, const ConstPoints& X,
                                 OutPoints out) {
  const Eigen::Index n = X.cols(), chunk = chunk_size(M.point_cost());
  std::vector<Eigen::Index> moved((n + chunk - 1) / chunk, 0);
  for_chunks(n, chunk, 2.0 * M.point_cost(), [&](Eigen::Index c, Eigen::Index b, Eigen::Index e) {
    moved[c] = M.clip_block(center, radius, X.middleCols(b, e - b), out.middleCols(b, e - b));
  });
  Eigen::Index total = 0;
  for (Eigen::Index m : moved) total += m;
  return total;
}

// The data of a release, in place, in parallel: each column of X is checked
// (check_point), projected onto the manifold and moved onto the closed ball
// B_radius(center); a column that is a point double precision does not hold
// (check_accuracy: not refused for its value, SPEC section 6) becomes the
// centre. Returns the index of the first column that is not a point at all
// (its reason in `why`), or -1; `moved` counts the columns replaced or
// moved onto the ball. The same result as the sequential loop, whatever
// the number of threads.
inline Eigen::Index prepare_points(const Manifold& M, OutPoints X, const Vec& center, double radius,
                                   double tol, std::string& why, long& moved) {
  const Eigen::Index n = X.cols(), chunk = chunk_size(M.point_cost());
  const Eigen::Index nc = (n + chunk - 1) / chunk;
  std::vector<Eigen::Index> bad(nc, -1), count(nc, 0);
  std::vector<std::string> reason(nc);
  for_chunks(n, chunk, 3.0 * M.point_cost(), [&](Eigen::Index c, Eigen::Index b, Eigen::Index e) {
    Vec p(X.rows());
    for (Eigen::Index j = b; j < e; ++j) {
      p = X.col(j);
      const std::string r = M.check_point(p, tol);
      if (r.empty()) {
        X.col(j) = M.project_point(p);
      } else if (!M.check_accuracy(p, tol).empty()) {
        X.col(j) = center;
        ++count[c];
      } else {
        bad[c] = j;
        reason[c] = r;
        return;
      }
    }
    count[c] += M.clip_block(center, radius, X.middleCols(b, e - b), X.middleCols(b, e - b));
  });
  moved = 0;
  for (Eigen::Index c = 0; c < nc; ++c) {
    if (bad[c] >= 0) {
      why = reason[c];
      return bad[c];
    }
    moved += static_cast<long>(count[c]);
  }
  return -1;
}

// The residual pass of geodesic regression at (p, v) for data (t_i, y_i):
// yhat_i = exp_p(t_i v), eps_i = log_{yhat_i}(y_i), back.col(i) = eps_i
// transported back to p along the geodesic (a tangent vector at p), and
// len[i] = |eps_i|. Parallel over the data; no reduction, so the result
// does not depend on the threads.
inline void regression_residuals(const Manifold& M, const Vec& p, const Vec& v, const Vec& t,
                                 const ConstPoints& Y, OutPoints back, double* len) {
  for_chunks(Y.cols(), chunk_size(4.0 * M.point_cost()), 4.0 * M.point_cost(),
             [&](Eigen::Index, Eigen::Index b, Eigen::Index e) {
               M.residual_block(p, v, t.data() + b, Y.middleCols(b, e - b), back.middleCols(b, e - b),
                                len + b);
             });
}

}  // namespace dpmanifold

#endif
