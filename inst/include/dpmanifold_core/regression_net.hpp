// The localising draw of the default private geodesic regression: the
// exponential mechanism over a public net of candidate geodesics, in chart
// coordinates (a, b) at the centre (inst/proofs/regression-gauss-newton.md,
// section 3b). Each record's term in a block's score is its clipped
// squared residual over that block's coordinates, in units of the clip's
// square (a mean over a few clips), so it lies in [0, 1]: blocks of
// disjoint coordinates make the score's sensitivity the number of blocks,
// and the blocks' draws are independent, each at epsilon / blocks.
//
// Three shapes of net:
//   - one block (2d rows: a and b of every coordinate), on dimension 1-2;
//   - one block per coordinate (2 rows: the same lattice of (a, b) lines
//     for each coordinate), sensitivity d;
//   - blocks of two coordinates (2 rows, `pairs`): coordinates (2k, 2k + 1)
//     drawn jointly over the pairs of lines of the lattice whose footpoints
//     and velocities lie in the domain's discs (PairDiscs; at most N^2
//     candidates), the last coordinate alone when d is odd; sensitivity
//     ceil(d / 2), section 8. On a lattice too fine for N^2 scores the same
//     law is drawn one sparse row at a time (regression_net_sparse.hpp).
#ifndef DPMANIFOLD_REGRESSION_NET_HPP
#define DPMANIFOLD_REGRESSION_NET_HPP

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "batch.hpp"
#include "interrupt.hpp"
#include "manifold.hpp"
#include "rng.hpp"
#include "regression_net_sparse.hpp"
#include "samplers.hpp"

namespace dpmanifold {

// Largest number of candidates of a block of two coordinates (N^2) and of
// squared residuals held per coordinate (n N; three such n x N matrices
// live at once, 600 MB at the bound): the R layer's rule (pair_lattice(),
// net_pair_residuals) never exceeds either; these refuse a spec that would
// allocate beyond them.
constexpr double kNetPairCandidatesMax = 1e8;
constexpr double kNetResidualsMax = 2.5e7;

namespace detail {

// Squared residuals of one coordinate at every line of a per-coordinate
// lattice: R(i, j) = (z_i - a_j - t_i b_j)^2, n x N (column j contiguous).
inline Mat coordinate_residual_squares(const Mat& Z, int k, const Vec& tc, const Mat& net) {
  const Eigen::Index n = Z.cols(), N = net.cols();
  Mat R(n, N);
  for_chunks(N, chunk_size(static_cast<double>(n)), static_cast<double>(n),
             [&](Eigen::Index, Eigen::Index b, Eigen::Index e) {
               for (Eigen::Index j = b; j < e; ++j) {
                 const double a = net(0, j), s = net(1, j);
                 for (Eigen::Index i = 0; i < n; ++i) {
                   const double r = Z(k, i) - a - tc[i] * s;
                   R(i, j) = r * r;
                 }
               }
             });
  return R;
}

// Scores of a block of two coordinates: score[j1 + N j2] = scale times the
// sum over records of loss(R1(i, j1) + R2(i, j2)). Parallel over j2; for
// each j2 the N scores are summed record by record as one array (SIMD
// across j1, each score's records in order), so every score is the same
// bits whatever the threads or the vector width.
inline void pair_scores(const Mat& R1, const Mat& R2, const ClippedLoss& loss, double scale,
                        std::vector<double>& score) {
  const Eigen::Index n = R1.rows(), N = R1.cols();
  const Mat R1t = R1.transpose();  // N x n: record i's column over every j1
  score.assign(static_cast<std::size_t>(N * N), 0.0);
  const std::size_t L = loss.c2.size();
  const double per_column = static_cast<double>(n) * static_cast<double>(N) * static_cast<double>(L);
  for_chunks(N, chunk_size(per_column), per_column, [&](Eigen::Index, Eigen::Index b, Eigen::Index e) {
    Eigen::ArrayXd acc(N), x(N), t(N);
    for (Eigen::Index j2 = b; j2 < e; ++j2) {
      acc.setZero();
      if (L == 2) {
        // (the default's two clips, fused into one pass over the array:
        // the same operations in the same order as below)
        const double c0 = loss.c2[0], c1 = loss.c2[1], i0 = loss.inv_c2[0], i1 = loss.inv_c2[1];
        for (Eigen::Index i = 0; i < n; ++i) {
          const auto xi = R1t.col(i).array() + R2(i, j2);
          acc += (xi.min(c0) * i0 + xi.min(c1) * i1) * loss.inv_levels;
        }
      } else {
        for (Eigen::Index i = 0; i < n; ++i) {
          x = R1t.col(i).array() + R2(i, j2);
          t = x.min(loss.c2[0]) * loss.inv_c2[0];
          for (std::size_t l = 1; l < L; ++l) t += x.min(loss.c2[l]) * loss.inv_c2[l];
          acc += t * loss.inv_levels;
        }
      }
      Eigen::Map<Eigen::ArrayXd>(score.data() + j2 * N, N) = acc * scale;
    }
  });
}

}  // namespace detail

// The draw: (a, b) stacked (2d values), from Z (d x n: the records' normal
// coordinates at the centre), the clamped covariates tc, the net and its
// clips, at epsilon (the whole stage's share). Exact: each block is one
// categorical draw from R's generator, one uniform per block (two for a
// block of two coordinates drawn one sparse row at a time).
inline Vec draw_localising_net(const Mat& Z, const Vec& tc, const Mat& net, const std::vector<double>& clips,
                               double epsilon, bool pairs, bool sparse, const PairDiscs& discs, Rng& rng) {
  const int d = static_cast<int>(Z.rows());
  const Eigen::Index n = Z.cols(), N = net.cols();
  const double nd = static_cast<double>(n);
  const detail::ClippedLoss loss(clips);
  Vec a_start(d), b_start(d);
  if (!(pairs && net.rows() == 2 && d >= 2)) {
    // one block of every coordinate, or one block per coordinate
    const int B = static_cast<int>(net.rows() / 2);  // d or 1
    const int nb = (B == d) ? 1 : d;
    std::vector<double> score(static_cast<std::size_t>(N));
    for (int blk = 0; blk < nb; ++blk) {
      const int k0 = (nb == 1) ? 0 : blk;
      for (Eigen::Index j = 0; j < N; ++j) {
        poll_interrupt(nd * B);
        const double* a = net.col(j).data();
        const double* b = a + B;
        double e = 0.0;
        for (Eigen::Index i = 0; i < n; ++i) {
          double q = 0.0;
          for (int k = 0; k < B; ++k) {
            const double r = Z(k0 + k, i) - a[k] - tc[i] * b[k];
            q += r * r;
          }
          double t = 0.0;
          for (const double c2 : loss.c2) t += std::min(q, c2) / c2;
          e += t * loss.inv_levels;
        }
        score[static_cast<std::size_t>(j)] = -epsilon * e / (2.0 * nb);
      }
      const Eigen::Index jd = draw_index(score, rng);
      a_start.segment(k0, B) = net.col(jd).head(B);
      b_start.segment(k0, B) = net.col(jd).tail(B);
    }
  } else {
    // blocks of two coordinates (the last alone when d is odd), every pair
    // scored or one sparse row at a time
    const int nb = (d + 1) / 2;
    const double scale = -epsilon / (2.0 * nb);
    std::unique_ptr<const SparsePairDraw> sp;
    if (sparse) {
      sp.reset(new SparsePairDraw(net, clips, n, scale, discs));
    } else if (static_cast<double>(N) * static_cast<double>(N) > kNetPairCandidatesMax ||
               nd * static_cast<double>(N) > kNetResidualsMax) {
      throw std::invalid_argument("regression spec: a net over pairs of coordinates beyond the work bound");
    }
    // (dense: only the pairs within the discs are candidates, the others'
    // scores set to -inf as they are read; refused if no pair is, before
    // the data are read. No mask is stored: N^2 may be 1e8.)
    const auto in_discs = [&](Eigen::Index j1, Eigen::Index j2) {
      return discs.holds(net(0, j1), net(1, j1), net(0, j2), net(1, j2));
    };
    if (!sp) {
      bool any = false;
      for (Eigen::Index c2 = 0; c2 < N && !any; ++c2) {
        poll_interrupt(static_cast<double>(N));
        for (Eigen::Index c1 = 0; c1 < N && !any; ++c1) any = in_discs(c1, c2);
      }
      if (!any) throw std::invalid_argument("regression spec: no pair of the net's lines within the domain");
    }
    std::vector<double> score;
    for (int blk = 0; blk < nb; ++blk) {
      const int k1 = 2 * blk, k2 = k1 + 1;
      Eigen::Index j1 = 0, j2 = -1;
      if (sp) {
        if (k2 < d) {
          const auto jj = sp->pair(Z, k1, k2, tc, rng);
          j1 = jj.first;
          j2 = jj.second;
        } else {
          j1 = sp->single(Z, k1, tc, rng);
        }
      } else {
        const Mat R1 = detail::coordinate_residual_squares(Z, k1, tc, net);
        if (k2 < d) {
          const Mat R2 = detail::coordinate_residual_squares(Z, k2, tc, net);
          detail::pair_scores(R1, R2, loss, scale, score);
          for (Eigen::Index c2 = 0; c2 < N; ++c2) {
            poll_interrupt(static_cast<double>(N));
            for (Eigen::Index c1 = 0; c1 < N; ++c1)
              if (!in_discs(c1, c2)) score[static_cast<std::size_t>(c1 + N * c2)] = -std::numeric_limits<double>::infinity();
          }
          const Eigen::Index jd = draw_index(score, rng);
          j1 = jd % N;
          j2 = jd / N;
        } else {
          score.assign(static_cast<std::size_t>(N), 0.0);
          for (Eigen::Index j = 0; j < N; ++j) {
            poll_interrupt(nd);
            double e = 0.0;
            for (Eigen::Index i = 0; i < n; ++i) e += loss(R1(i, j));
            score[static_cast<std::size_t>(j)] = scale * e;
          }
          j1 = draw_index(score, rng);
        }
      }
      a_start(k1) = net(0, j1);
      b_start(k1) = net(1, j1);
      if (j2 >= 0) {
        a_start(k2) = net(0, j2);
        b_start(k2) = net(1, j2);
      }
    }
  }
  Vec x(2 * d);
  x << a_start, b_start;
  return x;
}

}  // namespace dpmanifold

#endif
