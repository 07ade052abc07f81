// A private residual scale before a regression release (the scale stage of
// method "gauss_newton"; proof: inst/proofs/regression-gauss-newton.md,
// section 2a). Before any line is drawn, the spread of the responses about
// the geodesic is read from triples of records: a uniform random
// permutation (R's generator) cuts the data into m = floor(n / 3) disjoint
// triples; in each, sorted by covariate, the middle response's distance
// from the geodesic through the outer two, at the middle's covariate, over
// sqrt(1 + w^2 + (1 - w)^2) (w the middle's fraction of the way). A line
// through the data cancels (exactly, on the manifold), so the statistic is
// about a residual norm whatever the slope. One record is in one triple:
// replacing it changes one statistic, so each count below a level changes
// by at most 1, and the exponential mechanism over a public grid of levels
// with score -|count - q m| has sensitivity 1.
#ifndef DPMANIFOLD_REGRESSION_SCALE_HPP
#define DPMANIFOLD_REGRESSION_SCALE_HPP

#include <algorithm>
#include <cmath>
#include <vector>

#include "batch.hpp"
#include "samplers.hpp"

namespace dpmanifold {

struct RegressionScaleSpec {
  double epsilon = 0.0;        // the stage's share (0: no stage)
  double quantile = 0.5;       // target quantile of the triple statistics
  std::vector<double> levels;  // public candidate levels, increasing
};

// The m = floor(n / 3) triple statistics of the (prepared) data Y with
// covariates t, in the order of a permutation drawn from n - 1 uniforms
// (Fisher-Yates; the number of uniforms depends on n only).
inline std::vector<double> triple_statistics(const Manifold& M, const ConstPoints& Y, const Vec& t, Rng& rng) {
  const Eigen::Index n = Y.cols(), m = n / 3;
  std::vector<Eigen::Index> perm(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = i;
  for (Eigen::Index i = n - 1; i > 0; --i) {
    const Eigen::Index j = std::min<Eigen::Index>(i, static_cast<Eigen::Index>(rng.uniform() * static_cast<double>(i + 1)));
    std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(j)]);
    poll_interrupt(10.0);
  }
  std::vector<double> g(static_cast<std::size_t>(m), 0.0);
  for_chunks(m, chunk_size(3.0 * M.point_cost()), 3.0 * M.point_cost(),
             [&](Eigen::Index, Eigen::Index b, Eigen::Index e) {
               for (Eigen::Index k = b; k < e; ++k) {
                 Eigen::Index id[3] = {perm[static_cast<std::size_t>(3 * k)], perm[static_cast<std::size_t>(3 * k + 1)],
                                       perm[static_cast<std::size_t>(3 * k + 2)]};
                 // (sorted by covariate, ties by index: a function of the triple)
                 std::sort(id, id + 3, [&](Eigen::Index a, Eigen::Index c) {
                   return t(a) < t(c) || (t(a) == t(c) && a < c);
                 });
                 const double span = t(id[2]) - t(id[0]);
                 const double w = span > 0.0 ? (t(id[1]) - t(id[0])) / span : 0.5;
                 const Vec p = Y.col(id[0]);
                 const Vec on_line = M.exp(p, w * M.log(p, Y.col(id[2])));
                 const double r = M.dist(on_line, Y.col(id[1])) / std::sqrt(1.0 + w * w + (1.0 - w) * (1.0 - w));
                 g[static_cast<std::size_t>(k)] = std::isfinite(r) ? r : 0.0;
               }
             });
  return g;
}

// The index of the level drawn: probability prop. to
// exp(-epsilon |#{g_k <= level} - q m| / 2).
inline int draw_scale_level(const std::vector<double>& g, const RegressionScaleSpec& s, Rng& rng) {
  return draw_quantile_level(g.data(), g.size(), s.levels, s.quantile, s.epsilon, {}, rng);
}

}  // namespace dpmanifold

#endif
