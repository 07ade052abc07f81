// The localising net's blocks of two coordinates on a fine product
// lattice, drawn without the block's N^2 scores
// (inst/proofs/regression-gauss-newton.md, section 3b, "Pairs on a fine
// lattice").
//
// A record's term in a pair's score is loss(r1^2 + r2^2), which is 1 (the
// plateau) unless both squared residuals are below the widest clip cw^2.
// So score(j1, j2) = n + sum over the records near line j1 in the first
// coordinate and near line j2 in the second of (loss - 1), and the draw
// takes j1 from its marginal (the log of sum over j2 of exp(scale score),
// one sparse row at a time) and then j2 given j1: the joint law of the
// dense draw, from two uniforms.
//
// On a product lattice (a_j = a0 + j h_a, j < nA, fastest; nB values of b)
// the lines near a record in each b row are a run of a; every record
// visits a window of exactly W = ceil(2 cw / h_a) + 2 cells per row, the
// cells off the lattice landing in padding. The work is therefore
// n (W nB)^2 loss terms and as many exponentials per block, fixed by n and
// the public lattice (the padding rows are worked and discarded), never by
// where the records lie. Rows are independent sums, so a row's bits do not
// depend on the number of threads.
//
// A block's candidates are the pairs whose footpoints (a1, a2) and
// velocities (b1, b2) lie in the discs of radii R and V, which the declared
// domain |a| <= R, |b| <= V implies (PairDiscs): the corners of the
// lattice's square, lines every data set scores at the plateau, are not
// candidates. For row j1 they are a sub-box of the lattice, counted in
// O(nA + nB) and masked in the collecting pass.
#ifndef DPMANIFOLD_REGRESSION_NET_SPARSE_HPP
#define DPMANIFOLD_REGRESSION_NET_SPARSE_HPP

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "batch.hpp"
#include "interrupt.hpp"
#include "manifold.hpp"
#include "rng.hpp"
#include "samplers.hpp"

// The inner loops over a window's cells are independent (the sums' order
// is fixed by the build, never by the threads): vectorised where OpenMP is
// (the reduction names its variable, `sum`).
#ifdef _OPENMP
#define DPMANIFOLD_SIMD _Pragma("omp simd")
#define DPMANIFOLD_SIMD_SUM _Pragma("omp simd reduction(+ : sum)")
#else
#define DPMANIFOLD_SIMD
#define DPMANIFOLD_SIMD_SUM
#endif

namespace dpmanifold {

// Bounds on a sparse pair spec (refused beyond them; the R layer's rule,
// pair_lattice(), stays within): loss terms per block n (W nB)^2, and the
// tables of n W nB visits (an index and three values each) and of the
// padded lattice.
constexpr double kNetSparseWorkMax = 2e10;
constexpr double kNetSparseVisitsMax = 1e7;
// A row's weights are products of factors in [1, exp(|scale|)], below
// exp(|scale| n): kept finite by |scale| n, the plateau's margin, at most
// this (nats).
constexpr double kNetSparseMarginMax = 600.0;

// The discs a block of two coordinates keeps its candidates in: a1^2 + a2^2
// <= R^2 and b1^2 + b2^2 <= V^2 (a relative 1e-8 of slack, so that a
// lattice point on the domain's edge stays paired with 0).
struct PairDiscs {
  double R2, V2;
  PairDiscs(double R, double V) : R2(R * R * (1.0 + 1e-8)), V2(V * V * (1.0 + 1e-8)) {}
  bool holds(double a1, double b1, double a2, double b2) const {
    return a1 * a1 + a2 * a2 <= R2 && b1 * b1 + b2 * b2 <= V2;
  }
};

namespace detail {

// The clipped loss of a squared residual q: the mean over the clips of
// min(q, c^2) / c^2 (in [0, 1]); the default's two clips fused. (Here, as
// the sparse draw needs it; the dense draw of regression_net.hpp uses it
// too.)
struct ClippedLoss {
  std::vector<double> c2, inv_c2;
  double inv_levels = 1.0;
  explicit ClippedLoss(const std::vector<double>& clips) : inv_levels(1.0 / static_cast<double>(clips.size())) {
    for (const double c : clips) {
      c2.push_back(c * c);
      inv_c2.push_back(1.0 / (c * c));
    }
  }
  double operator()(double q) const {
    if (c2.size() == 2) return (std::min(q, c2[0]) * inv_c2[0] + std::min(q, c2[1]) * inv_c2[1]) * inv_levels;
    double t = 0.0;
    for (std::size_t l = 0; l < c2.size(); ++l) t += std::min(q, c2[l]) * inv_c2[l];
    return t * inv_levels;
  }
};

// A product lattice read from the net's columns (refused if it is not one),
// with its padded layout: row r of b occupies cells [r S, (r + 1) S),
// S = nA + 2 W, lattice cell a at r S + W + a.
struct PaddedLattice {
  Eigen::Index nA = 0, nB = 0, W = 0, S = 0, P = 0, N = 0;
  double a0 = 0.0, ha = 1.0, cw = 0.0;
  std::vector<double> a, b;  // the net's values of a (nA) and of b (nB)
  // a^2 on the lattice's cells, +inf on the padding (never within a disc)
  std::vector<double> a2pad;
  double a2max = 0.0;

  PaddedLattice(const Mat& net, double cw_) : cw(cw_) {
    N = net.cols();
    while (nA < N && net(1, nA) == net(1, 0)) ++nA;
    if (nA < 2 || N % nA != 0) throw std::invalid_argument("regression spec: a sparse pair net that is not a product lattice");
    nB = N / nA;
    a0 = net(0, 0);
    ha = (net(0, nA - 1) - a0) / static_cast<double>(nA - 1);
    const double tol = 1e-9 * (1.0 + std::abs(a0) + ha * static_cast<double>(nA));
    for (Eigen::Index j = 0; j < N; ++j) {
      if (!(std::abs(net(0, j) - (a0 + static_cast<double>(j % nA) * ha)) <= tol) || net(1, j) != net(1, (j / nA) * nA))
        throw std::invalid_argument("regression spec: a sparse pair net that is not a product lattice");
    }
    if (!(ha > 0.0) || !(cw > 0.0) || !(2.0 * cw / ha < 1e6))
      throw std::invalid_argument("regression spec: a sparse pair net that is not a product lattice");
    W = static_cast<Eigen::Index>(std::ceil(2.0 * cw / ha)) + 2;
    S = nA + 2 * W;
    // (the padded lattice's size checked before it is allocated)
    if (static_cast<double>(nB) * static_cast<double>(S) > kNetSparseVisitsMax)
      throw std::invalid_argument("regression spec: a sparse pair net beyond the work bound");
    P = nB * S;
    for (Eigen::Index r = 0; r < nB; ++r) b.push_back(net(1, r * nA));
    for (Eigen::Index j = 0; j < nA; ++j) a.push_back(net(0, j));
    a2pad.assign(static_cast<std::size_t>(P), std::numeric_limits<double>::infinity());
    for (Eigen::Index r = 0; r < nB; ++r)
      for (Eigen::Index j = 0; j < nA; ++j) a2pad[static_cast<std::size_t>(r * S + W + j)] = a_sq(j);
    for (Eigen::Index j = 0; j < nA; ++j) a2max = std::max(a2max, a_sq(j));
  }
  Eigen::Index cell(Eigen::Index j) const { return (j / nA) * S + W + j % nA; }
  double a_sq(Eigen::Index j) const { return a[static_cast<std::size_t>(j)] * a[static_cast<std::size_t>(j)]; }
  // the lines j2 paired with a line (a1, b1) in the discs: a2^2 <= A2,
  // b2^2 <= B2 (A2 finite, so that padding never counts)
  double a_limit(const PairDiscs& D, double a1) const { return std::min(D.R2 - a1 * a1, a2max); }
  double b_limit(const PairDiscs& D, double b1) const { return D.V2 - b1 * b1; }
  double count(double A2, double B2) const {
    double na = 0.0, nb = 0.0;
    for (Eigen::Index j = 0; j < nA; ++j) na += a_sq(j) <= A2 ? 1.0 : 0.0;
    for (const double v : b) nb += v * v <= B2 ? 1.0 : 0.0;
    return na * nb;
  }
  double visits_per_record() const { return static_cast<double>(W) * static_cast<double>(nB); }
};

// Each record's window in each b row for one coordinate: the padded cell
// of its first a (off) and z - t b_r - a0 - lo h_a (so the residual at the
// window's w-th cell is c - w h_a).
struct Windows {
  std::vector<Eigen::Index> off;  // n nB
  std::vector<double> c;
  Windows(const Mat& Z, int k, const Vec& tc, const PaddedLattice& L) {
    const Eigen::Index n = Z.cols();
    off.resize(static_cast<std::size_t>(n * L.nB));
    c.resize(off.size());
    const double lo_min = -static_cast<double>(L.W), lo_max = static_cast<double>(L.nA);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index r = 0; r < L.nB; ++r) {
        const double centre = Z(k, i) - tc[i] * L.b[static_cast<std::size_t>(r)] - L.a0;
        const double lo = std::min(lo_max, std::max(lo_min, std::floor((centre - L.cw) / L.ha)));
        const std::size_t q = static_cast<std::size_t>(i * L.nB + r);
        off[q] = r * L.S + L.W + static_cast<Eigen::Index>(lo);
        c[q] = centre - lo * L.ha;
      }
  }
};

// The loss minus one is piecewise linear in the squared residual q: on
// [c_{k-1}^2, c_k^2) (clips ascending) the k lowest levels are clipped and
// loss - 1 = alpha_k q + k / L - 1, alpha_k = sum over l >= k of 1 / (L c_l^2).
struct LossPieces {
  std::vector<double> c2, alpha, shift;  // shift_k = k / L - 1
  explicit LossPieces(std::vector<double> clips) {
    std::sort(clips.begin(), clips.end());
    const double L = static_cast<double>(clips.size());
    for (const double c : clips) c2.push_back(c * c);
    for (std::size_t k = 0; k < c2.size(); ++k) {
      double a = 0.0;
      for (std::size_t l = k; l < c2.size(); ++l) a += 1.0 / (L * c2[l]);
      alpha.push_back(a);
      shift.push_back(static_cast<double>(k) / L - 1.0);
    }
  }
};

// One block of two coordinates (k1, k2): the pair of lattice indices.
// A record's weight at (j1, j2) is F = exp(scale (loss - 1)) >= 1, and on a
// piece F = exp(scale (alpha_k u + shift_k)) exp(scale alpha_k r2^2) for
// u = r1^2: the second factor depends on the record and the cell of the
// second coordinate only, computed once per block; the first once per row
// and record. A row's weights are the products over its records; its sum
// over the lattice is N plus the sum over the visited cells of (weight - 1),
// each cell counted once (the collecting pass resets it to 1). Every
// weight is below exp(|scale| n), which the caller keeps finite.
inline std::pair<Eigen::Index, Eigen::Index> sparse_pair_draw(const Mat& Z, int k1, int k2, const Vec& tc,
                                                              const PaddedLattice& L, const LossPieces& loss,
                                                              const PairDiscs& discs, double scale, Rng& rng) {
  const Eigen::Index n = Z.cols(), W = L.W, nB = L.nB, P = L.P;
  const Windows w1(Z, k1, tc, L), w2(Z, k2, tc, L);
  // the records listed at each padded cell of the first coordinate (every
  // record at exactly W nB cells), in record order
  std::vector<Eigen::Index> start(static_cast<std::size_t>(P + 1), 0);
  for (const Eigen::Index o : w1.off)
    for (Eigen::Index w = 0; w < W; ++w) ++start[static_cast<std::size_t>(o + w + 1)];
  for (Eigen::Index p = 0; p < P; ++p) start[static_cast<std::size_t>(p + 1)] += start[static_cast<std::size_t>(p)];
  std::vector<Eigen::Index> list(static_cast<std::size_t>(start.back())), fill(start.begin(), start.end() - 1);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index r = 0; r < nB; ++r) {
      const Eigen::Index o = w1.off[static_cast<std::size_t>(i * nB + r)];
      for (Eigen::Index w = 0; w < W; ++w) list[static_cast<std::size_t>(fill[static_cast<std::size_t>(o + w)]++)] = i;
    }
  // per visit of the second coordinate: r2^2 and the pieces' factors
  const std::size_t V = static_cast<std::size_t>(n * nB * W), K = loss.c2.size();
  const bool two = K == 2;
  std::vector<double> r2sq(V), f0(V), f1(two ? V : 0);
  for (std::size_t q = 0; q < w2.c.size(); ++q)
    for (Eigen::Index w = 0; w < W; ++w) {
      const double r2 = w2.c[q] - static_cast<double>(w) * L.ha;
      const std::size_t v = q * static_cast<std::size_t>(W) + static_cast<std::size_t>(w);
      r2sq[v] = r2 * r2;
      f0[v] = std::exp(scale * loss.alpha[0] * r2sq[v]);
      if (two) f1[v] = std::exp(scale * loss.alpha[1] * r2sq[v]);
    }
  const double c0 = loss.c2[0], c1 = loss.c2.back();
  auto weights = [&](Eigen::Index p1, double* prod) {
    const double a1 = L.a0 + static_cast<double>(p1 % L.S - W) * L.ha, b1 = L.b[static_cast<std::size_t>(p1 / L.S)];
    for (Eigen::Index e = start[static_cast<std::size_t>(p1)]; e < start[static_cast<std::size_t>(p1 + 1)]; ++e) {
      const Eigen::Index i = list[static_cast<std::size_t>(e)];
      const double r1 = Z(k1, i) - a1 - tc[i] * b1, u = r1 * r1;
      const double e0 = std::exp(scale * (loss.alpha[0] * u + loss.shift[0]));
      const double e1 = two ? std::exp(scale * (loss.alpha[1] * u + loss.shift[1])) : 1.0;
      for (Eigen::Index r = 0; r < nB; ++r) {
        const std::size_t q = static_cast<std::size_t>(i * nB + r), v0 = q * static_cast<std::size_t>(W);
        double* x = prod + w2.off[q];
        const double* rs = r2sq.data() + v0;
        const double* g0 = f0.data() + v0;
        if (two) {
          const double* g1 = f1.data() + v0;
          DPMANIFOLD_SIMD
          for (Eigen::Index w = 0; w < W; ++w) {
            const double qq = u + rs[w];
            x[w] *= qq < c0 ? e0 * g0[w] : (qq < c1 ? e1 * g1[w] : 1.0);
          }
        } else {
          DPMANIFOLD_SIMD
          for (Eigen::Index w = 0; w < W; ++w) x[w] *= u + rs[w] < c0 ? e0 * g0[w] : 1.0;
        }
      }
    }
  };
  const double* a2pad = L.a2pad.data();
  std::vector<double> logw(static_cast<std::size_t>(P));
  const double Kr = L.visits_per_record(), cost = std::max(1.0, static_cast<double>(n) * Kr * Kr / static_cast<double>(P));
  const Eigen::Index chunk = std::max(chunk_size(cost), (P + 255) / 256);
  // (row p's line, the net's own values on the lattice, and the limits of
  // its partners in the discs; a padded row's are never read)
  auto row_line = [&](Eigen::Index p, double& A2, double& B2) {
    const Eigen::Index ja = p % L.S - W;
    const double a1 = ja >= 0 && ja < L.nA ? L.a[static_cast<std::size_t>(ja)] : L.a0 + static_cast<double>(ja) * L.ha;
    A2 = L.a_limit(discs, a1);
    B2 = L.b_limit(discs, L.b[static_cast<std::size_t>(p / L.S)]);
  };
  for_chunks(P, chunk, cost, [&](Eigen::Index, Eigen::Index b, Eigen::Index e) {
    std::vector<double> prod(static_cast<std::size_t>(P), 1.0);
    double* x = prod.data();
    for (Eigen::Index p = b; p < e; ++p) {
      weights(p, x);
      double A2 = 0.0, B2 = 0.0;
      row_line(p, A2, B2);
      double sum = 0.0;
      for (Eigen::Index k = start[static_cast<std::size_t>(p)]; k < start[static_cast<std::size_t>(p + 1)]; ++k) {
        const Eigen::Index i = list[static_cast<std::size_t>(k)];
        for (Eigen::Index r = 0; r < nB; ++r) {
          const Eigen::Index o = w2.off[static_cast<std::size_t>(i * nB + r)];
          const double br = L.b[static_cast<std::size_t>(r)], in_b = br * br <= B2 ? 1.0 : 0.0;
          double* xo = x + o;
          const double* ao = a2pad + o;
          DPMANIFOLD_SIMD_SUM
          for (Eigen::Index w = 0; w < W; ++w) {
            sum += (ao[w] <= A2 ? in_b : 0.0) * (xo[w] - 1.0);
            xo[w] = 1.0;
          }
        }
      }
      // (a row with no partner in the discs has weight 0: log 0 = -inf)
      logw[static_cast<std::size_t>(p)] = std::log(L.count(A2, B2) + sum);
    }
  });
  std::vector<double> lw(static_cast<std::size_t>(L.N));
  for (Eigen::Index j = 0; j < L.N; ++j) lw[static_cast<std::size_t>(j)] = logw[static_cast<std::size_t>(L.cell(j))];
  const Eigen::Index j1 = draw_index(lw, rng);
  std::vector<double> prod(static_cast<std::size_t>(P), 1.0);
  weights(L.cell(j1), prod.data());
  double A2 = 0.0, B2 = 0.0;
  row_line(L.cell(j1), A2, B2);
  for (Eigen::Index j = 0; j < L.N; ++j) {
    const double bj = L.b[static_cast<std::size_t>(j / L.nA)];
    lw[static_cast<std::size_t>(j)] = L.a_sq(j % L.nA) <= A2 && bj * bj <= B2
                                          ? std::log(prod[static_cast<std::size_t>(L.cell(j))])
                                          : -std::numeric_limits<double>::infinity();
  }
  const Eigen::Index j2 = draw_index(lw, rng);
  return {j1, j2};
}

// The last coordinate of an odd dimension alone, on the same lattice: each
// line's score from the records whose window holds it (work n W nB + N).
inline Eigen::Index sparse_single_draw(const Mat& Z, int k, const Vec& tc, const PaddedLattice& L,
                                       const ClippedLoss& loss, double scale, Rng& rng) {
  const Eigen::Index n = Z.cols(), W = L.W, nB = L.nB;
  const Windows w1(Z, k, tc, L);
  std::vector<double> acc(static_cast<std::size_t>(L.P), 0.0);
  for (Eigen::Index i = 0; i < n; ++i) {
    poll_interrupt(static_cast<double>(W * nB));
    for (Eigen::Index r = 0; r < nB; ++r) {
      const std::size_t q = static_cast<std::size_t>(i * nB + r);
      double* x = acc.data() + w1.off[q];
      for (Eigen::Index w = 0; w < W; ++w) {
        const double r1 = w1.c[q] - static_cast<double>(w) * L.ha;
        x[w] += scale * (loss(r1 * r1) - 1.0);
      }
    }
  }
  std::vector<double> lw(static_cast<std::size_t>(L.N));
  for (Eigen::Index j = 0; j < L.N; ++j) lw[static_cast<std::size_t>(j)] = acc[static_cast<std::size_t>(L.cell(j))];
  return draw_index(lw, rng);
}

}  // namespace detail

// The sparse draw's state for every block of one release: the padded
// lattice, the loss's pieces, the blocks' scale (refused, before any data
// are read, beyond the bounds above or with more than two clips).
class SparsePairDraw {
 public:
  SparsePairDraw(const Mat& net, const std::vector<double>& clips, Eigen::Index n, double scale, const PairDiscs& discs)
      : L_(net, *std::max_element(clips.begin(), clips.end())), pieces_(clips), loss_(clips), discs_(discs), scale_(scale) {
    const double K = L_.visits_per_record(), nd = static_cast<double>(n);
    if (nd * K * K > kNetSparseWorkMax || nd * K > kNetSparseVisitsMax || static_cast<double>(L_.P) > kNetSparseVisitsMax ||
        -scale * nd > kNetSparseMarginMax)
      throw std::invalid_argument("regression spec: a sparse pair net beyond the work bound");
    if (clips.size() > 2) throw std::invalid_argument("regression spec: a sparse pair net takes one or two clips");
    // (some pair in the discs: the lattice's line nearest the centre with itself)
    double a2 = L_.a2max, b2 = std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < L_.nA; ++j) a2 = std::min(a2, L_.a_sq(j));
    for (const double v : L_.b) b2 = std::min(b2, v * v);
    if (!(2.0 * a2 <= discs.R2 && 2.0 * b2 <= discs.V2))
      throw std::invalid_argument("regression spec: no pair of the net's lines within the domain");
  }
  std::pair<Eigen::Index, Eigen::Index> pair(const Mat& Z, int k1, int k2, const Vec& tc, Rng& rng) const {
    return detail::sparse_pair_draw(Z, k1, k2, tc, L_, pieces_, discs_, scale_, rng);
  }
  Eigen::Index single(const Mat& Z, int k, const Vec& tc, Rng& rng) const {
    return detail::sparse_single_draw(Z, k, tc, L_, loss_, scale_, rng);
  }

 private:
  detail::PaddedLattice L_;
  detail::LossPieces pieces_;
  detail::ClippedLoss loss_;
  PairDiscs discs_;
  double scale_;
};

}  // namespace dpmanifold

#endif
