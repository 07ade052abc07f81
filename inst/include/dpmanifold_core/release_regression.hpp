// The data work of the default private geodesic regression, in one call:
// exact Gauss-Newton rounds of perturbed sufficient statistics.
//
//   0. The data are validated, the points double precision does not hold
//      are replaced by the public centre, every response is moved onto the
//      public ball (as for the Frechet mean).
//   1. Design: S_t = sum t_i and S_tt = sum t_i^2 with independent Laplace
//      noise (weighted l1 sensitivity 1), released once.
//   2. Rounds k = 1..K from the public start (the centre, zero velocity):
//      the residuals of every record at the current geodesic (p, v),
//      transported back to p (round 1: log_c(y_i), the tangent
//      coordinates at the centre); optionally a clip level chosen privately
//      (exponential mechanism over a public grid, score minus the distance
//      of the count of residual norms below the level from a target
//      quantile: sensitivity 1); the residuals clipped to that level rho;
//      the endpoint moments T+- = sum z_i (1/2 +- t_i) with K-norm noise
//      (l1-of-l2 sensitivity 2 rho); the least-squares line of the
//      residuals on t from the released design; a Gauss-Newton step scaled
//      by public inverse-variance weights (the state's error variance
//      against the step's noise variance, both computed from public values
//      and released statistics only), then the projection onto the public
//      domain.
//
// Every stage is exact (Laplace, Gamma radius times a uniform direction, a
// finite exponential mechanism; R's generator through Rng); a stage that
// depends on an earlier one reads only its released output (adaptive basic
// composition). Proof: inst/proofs/regression-gauss-newton.md.
#ifndef DPMANIFOLD_RELEASE_REGRESSION_HPP
#define DPMANIFOLD_RELEASE_REGRESSION_HPP

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "batch.hpp"
#include "regression.hpp"
#include "regression_net.hpp"
#include "regression_scale.hpp"
#include "samplers.hpp"
#include "status.hpp"

namespace dpmanifold {

// One Gauss-Newton round (public).
struct SspRound {
  double epsilon = 1.0;       // the moments' share
  double clip_upper = 1.0;    // public upper limit of the clip level
  double epsilon_clip = 0.0;  // > 0: the clip level is chosen privately at this share
  double quantile = 0.9;      // its target quantile of the residual norms
  std::vector<double> grid;   // its candidate levels (increasing, all <= clip_upper)
  std::vector<double> grid_log_weight;  // public log base measure of the levels (empty: uniform)
  double gain = 1.0;          // public mean slope of the clipped residual map (a step is divided by it)
  double gap = 0.0;           // sd of the clipped fit's distance from least squares, per rho / sqrt(n)
  double bias = 0.0;          // public fraction of the released step the state may still be off by
};

struct RegressionReleaseSpec {
  Vec center;
  double radius = 0.0;
  double tol = 1e-8;
  double scale_st = 1.0, scale_stt = 1.0;  // Laplace scales of the design
  double floor_stt = 1.0;                  // floor of the centred S_tt (public)
  std::vector<SspRound> rounds;
  double R0 = 0.0, V0 = 0.0;               // public domain (chart at the centre)
  double prior_a = 1.0, prior_b = 1.0;     // public variance per coordinate of the start
  double step_var = 0.0;                   // public allowance added after each step (linearisation)
  double design_weight = 1.0;              // weight of the design noise in the step's variance
  double window = 0.0;                     // > 0: the working window of the covariate (design sds)
  double window_noise = 0.0;               // > 0: a round's public error per unit of rho / epsilon
                                           // (the plan's); rounds with a private clip level may then
                                           // narrow the window
  bool design = true;                      // false: no design stage (no rounds: the net's draw is the release)
  // Optional localising stage before the rounds: the exponential mechanism
  // over a public net of candidate geodesics (columns: chart coordinates
  // (a, b) at the centre; 2d rows, or 2 rows for a net per coordinate),
  // score minus the clipped energy in units of net_clip^2 (sensitivity 1
  // per block); the rounds then start from the draw with public variances
  // (net_var_a, net_var_b).
  Mat net;
  double net_epsilon = 0.0, net_clip = 1.0, net_clip_wide = 0.0, net_var_a = 1.0, net_var_b = 1.0;
  double net_clip_low = 0.0;               // > 0: the lowest of a ladder of net_clip_levels clips
  int net_clip_levels = 2;
  bool net_pairs = false;                  // a net per coordinate drawn over pairs of coordinates
  bool net_pairs_sparse = false;           // ... on a product lattice, one sparse row at a time
};

struct RegressionRelease {
  Status status = Status::ok;
  std::string why;
  Vec p, v;                   // footpoint at the middle of the range, velocity over the range
  std::vector<double> clip;   // the clip level of each round (released)
  // the public error model of the estimate, from public constants and
  // released statistics only: per-coordinate variances of the line's value
  // at t = t_mean (the released design mean) and of its slope over the range
  double var_value = 0.0, var_slope = 0.0, t_mean = 0.0;
  long moved = 0;             // studies only (the caller decides whether to return it)
};

namespace detail {

// Rows j of L such that inner(p, B_j, w) = L_j . w for every tangent w at p
// (the basis lowered by the metric; the inner product is linear in w).
inline Mat lowered_basis(const Manifold& M, const Vec& p, const Mat& B) {
  const Eigen::Index D = B.rows();
  Mat L(B.cols(), D);
  Vec e = Vec::Zero(D);
  for (Eigen::Index k = 0; k < D; ++k) {
    // D x d inner products: large for many landmarks, so interruptible
    poll_interrupt(static_cast<double>(B.cols()) * static_cast<double>(D));
    e(k) = 1.0;
    for (Eigen::Index j = 0; j < B.cols(); ++j) L(j, k) = M.inner(p, B.col(j), e);
    e(k) = 0.0;
  }
  return L;
}

}  // namespace detail

// The released design: S_t clamped to [-n/2, n/2], the centred S_tt
// (S_tt clamped to [0, n/4]) floored at a public value.
struct ReleasedDesign {
  double n, St, Sttc;
  double mean() const { return St / n; }
};

inline RegressionRelease release_regression(const Manifold& M, Mat& Y, const Vec& t,
                                            const RegressionReleaseSpec& s, Rng& rng) {
  // A spec the plans never build (public: refused before the data are
  // read; the R layer names `mechanism` before it gets here): a net that is
  // neither one block of 2d rows nor 2 rows per coordinate, or rounds
  // without the design stage they read, or a ladder of clips outside
  // 2..64 levels.
  if (s.net.cols() > 0 && s.net.rows() != 2 && s.net.rows() != 2 * M.dim())
    throw std::invalid_argument("regression spec: a net of the wrong size");
  if (s.net_pairs && s.net.cols() > 0 && s.net.rows() != 2)
    throw std::invalid_argument("regression spec: pairs of coordinates need a net per coordinate");
  if (s.net_pairs_sparse && !s.net_pairs) throw std::invalid_argument("regression spec: a sparse draw is one over pairs");
  if (!s.design && !s.rounds.empty()) throw std::invalid_argument("regression spec: rounds but no design stage");
  if (s.net_clip_levels < 2 || s.net_clip_levels > 64 || !(s.net_clip_low >= 0.0))
    throw std::invalid_argument("regression spec: a ladder of clips out of range");
  RegressionRelease out;
  if (prepare_points(M, Y, s.center, s.radius, s.tol, out.why, out.moved) >= 0) {
    out.status = Status::malformed;
    return out;
  }
  const Eigen::Index n = Y.cols();
  const int d = M.dim();
  const double nd = static_cast<double>(n);

  // 1. design (inst/proofs/regression-gauss-newton.md, section 2). A plan
  // whose release is the net's draw has no design stage and no rounds:
  // the window is then the public range and the design mean 0, public
  // values (section 3b, "The draw as the release").
  double St = 0.0, Stt = nd / 12.0, var_c = 0.0;
  if (s.design) {
    St = t.sum() + laplace_draw(s.scale_st, rng);
    Stt = t.squaredNorm() + laplace_draw(s.scale_stt, rng);
    St = std::min(std::max(St, -nd / 2), nd / 2);
    Stt = std::min(std::max(Stt, 0.0), nd / 4);
    // variance of the centred S_tt - S_t^2 / n from the design noise: its
    // own (2 scale_stt^2) and that of S_t^2 / n (about (2m)^2 2
    // scale_st^2), large when the design is bunched away from the middle
    const double m0 = St / nd;
    var_c = 2.0 * s.scale_stt * s.scale_stt + 8.0 * m0 * m0 * s.scale_st * s.scale_st;
  }
  const ReleasedDesign G{nd, St, std::max(Stt - St * St / nd, std::max(s.floor_stt, std::sqrt(var_c)))};
  const double m = G.mean();
  // The working window of the covariate, from the released design only
  // (post-processing): the design mean plus or minus `window` standard
  // deviations (each widened by twice its noise sd), within the public
  // range. Every covariate is clamped to it and the moment weights
  // 1/2 +- u run over it, so a design bunched in part of the range uses the
  // whole weight span: the same sensitivity, a slope signal 1/w larger.
  // Exact (no record moves) whenever the design lies in the window. A
  // round whose clip level is drawn (the localising K-norm round or a
  // refining round) may narrow it once that level is released (below).
  const bool windowed = s.design && s.window > 0.0;
  const double sd_m = std::sqrt(2.0) * s.scale_st / nd;
  const double s_hi = std::sqrt((G.Sttc + 2.0 * std::sqrt(var_c)) / nd);
  const auto window_bounds = [&](double w, double& l, double& h) {
    l = windowed ? std::max(-0.5, m - w * s_hi - 2.0 * sd_m) : -0.5;
    h = windowed ? std::min(0.5, m + w * s_hi + 2.0 * sd_m) : 0.5;
  };
  double lo, hi, wc, ww, mu, Sttc_u, wp, wm, w_now = s.window;
  Vec tc, wplus, wminus;
  const auto set_window = [&](double w) {
    w_now = w;
    window_bounds(w, lo, hi);
    wc = 0.5 * (lo + hi);
    ww = hi - lo;
    tc = t.cwiseMax(lo).cwiseMin(hi);
    mu = (m - wc) / ww;  // the design mean in window units
    Sttc_u = G.Sttc / (ww * ww);
    wp = 0.5 - mu;
    wm = 0.5 + mu;
    const Vec u = ((tc.array() - wc) / ww).matrix();
    wplus = (0.5 + u.array()).matrix();
    wminus = (0.5 - u.array()).matrix();
  };
  set_window(s.window);

  // 2. rounds
  Vec p = s.center, v = Vec::Zero(s.center.size());
  double Va = s.prior_a, Vb = s.prior_b;
  bool from_stage = false;  // Va, Vb are a stage's public error (not the prior)
  Mat back(Y.rows(), n);
  std::vector<double> len(n);
  if (s.net.cols() > 0) {
    // 1b. localising stage: the exponential mechanism over the public net
    // (proof section 3b); every record's term is in [0, 1]
    // The residual norm of record i at candidate j is read in normal
    // coordinates at the centre, |z_i - a_j - t_i b_j| with z_i the
    // coordinates of log_c(y_i): a first-order proxy (the rounds after it
    // use the exact geometry) that costs 2d flops instead of an exp and a
    // log per pair.
    const Mat Bc = M.tangent_basis(s.center);
    const RegressionChart chart{M, s.center, Bc};
    const Mat Lc = detail::lowered_basis(M, s.center, Bc);
    Mat Z(d, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      if ((i & 0xFFFF) == 0) poll_interrupt(65536.0 * M.point_cost());
      Z.col(i) = Lc * M.log(s.center, Y.col(i));
    }
    // clips: net_clip alone, or with the wider net_clip_wide; or, when a
    // lower net_clip_low is given, a ladder of net_clip_levels clips
    // geometric from it up to the widest. Each term is the mean of the
    // clipped losses, still in [0, 1] (proof section 3b).
    std::vector<double> clips{s.net_clip};
    if (s.net_clip_wide > 0.0) clips.push_back(s.net_clip_wide);
    if (s.net_clip_low > 0.0 && s.net_clip_low < s.net_clip && s.net_clip_levels >= 2) {
      const double lo = s.net_clip_low, hi = clips.back();
      const int J = s.net_clip_levels;
      clips.clear();
      for (int j = 0; j < J; ++j) clips.push_back(lo * std::pow(hi / lo, static_cast<double>(j) / (J - 1)));
    }
    const Vec x = draw_localising_net(Z, tc, s.net, clips, s.net_epsilon, s.net_pairs, s.net_pairs_sparse,
                                      PairDiscs(s.R0, s.V0), rng);
    Vec a_start = x.head(d), b_start = x.tail(d);
    // (a net per coordinate covers a box: the draw moves onto the public
    // domain's balls, as every round's step does)
    if (a_start.norm() > s.R0) a_start *= s.R0 / a_start.norm();
    if (b_start.norm() > s.V0) b_start *= s.V0 / b_start.norm();
    Vec x0(2 * d);
    x0 << a_start, b_start;
    const PairState g = chart.point(x0);
    p = M.project_point(g.p);
    v = M.project_tangent(p, g.v);
    Va = s.net_var_a;
    Vb = s.net_var_b;
    // (the net's public variances hold for a design spread evenly over the
    // range, of spread 1/12; the draw's slope is as sharp as the score's
    // curvature in b, which falls with the released spread of the design:
    // a bunched design widens the slope's variance in proportion, which the
    // round's weights and the bands then carry; never narrower. Proof
    // section 3b.)
    if (s.design) Vb *= std::max(1.0, nd / (12.0 * G.Sttc));
    from_stage = true;
  }
  Vec nu(d);
  double gap_a = 0.0, gap_b = 0.0;
  for (const SspRound& r : s.rounds) {
    regression_residuals(M, p, v, tc, Y, back, len.data());
    double rho = r.clip_upper;
    if (r.epsilon_clip > 0.0 && !r.grid.empty()) {
      // private clip level: score -|#{len_i <= g} - q n|, sensitivity 1,
      // over a public base measure of the levels
      rho = r.grid[draw_quantile_level(len.data(), len.size(), r.grid, r.quantile, r.epsilon_clip, r.grid_log_weight,
                                       rng)];
    }
    out.clip.push_back(rho);
    poll_interrupt();
    if (windowed && s.window_noise > 0.0 && r.epsilon_clip > 0.0) {
      // Once the clip level is released, a narrower window may pay: it
      // cuts the slope's noise in proportion to its width and biases the
      // slope by clamping the covariates beyond it. Public proxies
      // (post-processing of released values): the round's noise error
      // (the plan's window_noise times rho / epsilon) times the width
      // against that of the `window`-sd window, and the velocity bound V
      // times the design sd times the mean overshoot E|Z - clamp(Z, -w, w)|
      // of a normal design. The smaller root mean square wins among 1, 1.5
      // and `window` sds (proof section 3, "Narrower windows"); the
      // residuals are then read at the new window's covariates.
      const double noise0 = s.window_noise * rho / r.epsilon;
      const double sd_t = std::sqrt(G.Sttc / nd);
      double l0, h0;
      window_bounds(s.window, l0, h0);
      double best = 0.0, w_best = s.window;
      for (const double w : {s.window, 1.5, 1.0}) {
        if (w > s.window) continue;
        double l, h;
        window_bounds(w, l, h);
        const double tail = 0.5 * std::erfc(w / std::sqrt(2.0));
        const double over = 2.0 * (std::exp(-0.5 * w * w) / std::sqrt(2.0 * M_PI) - w * tail);
        const double noise = noise0 * (h - l) / (h0 - l0), bias = s.V0 * sd_t * over;
        const double cost = noise * noise + bias * bias;
        if (w == s.window || cost < best) {
          best = cost;
          w_best = w;
        }
      }
      if (w_best != w_now) {
        set_window(w_best);
        regression_residuals(M, p, v, tc, Y, back, len.data());
      }
    }
    // coordinates of the clipped residuals in an orthonormal basis at p
    const Mat B = M.tangent_basis(p);
    const Mat L = detail::lowered_basis(M, p, B);
    for (Eigen::Index i = 0; i < n; ++i) {
      if ((i & 0xFFFF) == 0) poll_interrupt(65536.0);
      if (len[i] > rho) back.col(i) *= rho / len[i];
    }
    const Vec Tp0 = back * wplus, Tm0 = back * wminus;  // ambient sums (linear in the columns)
    Vec Tp = L * Tp0, Tm = L * Tm0;
    euclidean_laplace_noise(nu, 2.0 * rho / r.epsilon, rng);
    Tp += nu;
    euclidean_laplace_noise(nu, 2.0 * rho / r.epsilon, rng);
    Tm += nu;
    // least squares on the released design
    // (the slope per unit of u, then per unit of t)
    const Vec Sz = Tp + Tm, Suz = (Tp - Tm) / 2.0;
    const Vec bh = (Suz - mu * Sz) / (Sttc_u * ww * r.gain);
    // The combination runs in the parametrisation centred at the released
    // mean m of the design: the line's value at t = m (the LS intercept
    // there, Sz / n) and its slope have nearly uncorrelated noise, so they
    // are weighed separately; a weight on the intercept at t = 0 would tilt
    // the line about the wrong point when the design is bunched away from
    // the middle of the range. Public noise variances per coordinate: the
    // moment noise, and the design noise times the released step.
    const double sm = (d + 1.0) * std::pow(2.0 * rho / (r.epsilon * r.gain), 2);
    // (the design noise scales the step; the step corrects the start's
    // error, whose public variance after a localising stage, Vb, is as
    // good a guide to its size as the released step, which carries the
    // round's own noise: the larger of the two)
    const double b2 = std::max(bh.squaredNorm() / d, from_stage ? Vb : 0.0);
    const double Ub = sm * (wp * wp + wm * wm) / (Sttc_u * Sttc_u * ww * ww) +
                      b2 * var_c / (G.Sttc * G.Sttc) * s.design_weight;
    const double Ua = sm * 2.0 / (nd * nd) + b2 * 2.0 * s.scale_st * s.scale_st / (nd * nd);
    // (an infinite prior variance: no weighting, the step itself)
    const double ka = std::isinf(Va) ? 1.0 : Va / (Va + Ua), kb = std::isinf(Vb) ? 1.0 : Vb / (Vb + Ub);
    Va = (std::isinf(Va) ? Ua : Va * Ua / (Va + Ua)) + s.step_var;
    // The state's slope variance is that of the weighed estimate,
    // (1 - k)^2 Vb + k^2 Ub, with Ub read at a low value of the design's
    // spread (released minus its noise sd, floored): a bunched design
    // whose released spread came out high would otherwise be taken as
    // sharper than it is (S^2, x in [0, 0.4]: bands at 0.9 covered 0.3-0.5).
    // The weights keep the released spread.
    const double Sttc_lo = std::max(G.Sttc - std::sqrt(var_c), std::max(s.floor_stt, 1e-12));
    const double lo2 = (G.Sttc / Sttc_lo) * (G.Sttc / Sttc_lo);
    const double Ub_lo = Ub * lo2;
    Vb = (std::isinf(Vb) ? Ub_lo : (1.0 - kb) * (1.0 - kb) * Vb + kb * kb * Ub_lo) + s.step_var;
    from_stage = true;
    const Vec step_b = kb * bh;
    const Vec ah = Sz / (nd * r.gain);
    Vec step_a = ka * ah - m * step_b;  // back to the footpoint at t = 0
    // (precise rounds: the released step, times the round's public fraction
    // 1 - kappa, counts as the bias the round may leave; the next
    // round's weights then take more of its step. Post-processing. Proof
    // section 3, "Precise rounds".)
    if (r.bias > 0.0) {
      Va += r.bias * r.bias * ah.squaredNorm() / d;
      Vb += r.bias * r.bias * bh.squaredNorm() / d;
    }
    // (the clipped fit's distance from least squares, public model at the
    // drawn level; only the last round's enters the bands)
    gap_a = r.gap * r.gap * rho * rho / nd;
    gap_b = r.gap * r.gap * rho * rho / Sttc_lo;
    // On a Hadamard manifold a step longer than R0 + d(centre, p) ends
    // outside the domain (triangle inequality), where the projection below
    // puts it on the boundary; shortened to that length first, so that a
    // noise-dominated step (small n epsilon) never reaches exp() at a
    // length whose point overflows (SPD, H^d: NaN or an error naming
    // `radius`). Post-processing of released values only.
    if (M.is_hadamard()) {
      const double cap = s.R0 + M.dist(s.center, p), len_a = step_a.norm();
      if (len_a > cap) step_a *= cap / len_a;
    }
    // the step in the chart at p: (step_a, coords(v) + step_b)
    Vec x(2 * d);
    x.head(d) = step_a;
    x.tail(d) = L * v + step_b;
    const RegressionChart chart{M, p, B};
    const PairState st = chart.point(x);
    // projection onto the public domain (chart at the centre)
    const Mat Bc = M.tangent_basis(s.center);
    const Mat Lc = detail::lowered_basis(M, s.center, Bc);
    const Vec la = M.log(s.center, st.p);
    Vec a = Lc * la;
    Vec bc = Lc * M.transport_along(st.p, M.log(st.p, s.center), st.v);
    if (a.norm() > s.R0) a *= s.R0 / a.norm();
    if (bc.norm() > s.V0) bc *= s.V0 / bc.norm();
    Vec xc(2 * d);
    xc << a, bc;
    const PairState pc = RegressionChart{M, s.center, Bc}.point(xc);
    p = M.project_point(pc.p);
    v = M.project_tangent(p, pc.v);
  }
  out.p = p;
  out.v = v;
  out.var_value = Va + gap_a;
  out.var_slope = Vb + gap_b;
  out.t_mean = m;
  return out;
}

// A release with the scale stage first (regression_scale.hpp): the data are
// prepared once, the stage draws level j of scale.levels, and the release
// runs specs[j] (one public plan per level, built before the data are
// read; every spec holds the same centre, radius and tolerance). The level
// drawn is returned in scale_level.
inline RegressionRelease release_regression_scaled(const Manifold& M, Mat& Y, const Vec& t,
                                                   const RegressionScaleSpec& scale,
                                                   const std::vector<RegressionReleaseSpec>& specs, Rng& rng,
                                                   int& scale_level) {
  if (specs.size() != scale.levels.size() || specs.empty() || !(scale.epsilon > 0.0))
    throw std::invalid_argument("regression spec: a scale stage without one plan per level");
  RegressionRelease out;
  const RegressionReleaseSpec& s0 = specs.front();
  if (prepare_points(M, Y, s0.center, s0.radius, s0.tol, out.why, out.moved) >= 0) {
    out.status = Status::malformed;
    return out;
  }
  const long moved = out.moved;
  const std::vector<double> g = triple_statistics(M, Y, t, rng);
  scale_level = draw_scale_level(g, scale, rng);
  out = release_regression(M, Y, t, specs[static_cast<std::size_t>(scale_level)], rng);
  out.moved += moved;
  return out;
}

}  // namespace dpmanifold

#endif
