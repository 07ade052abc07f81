// Rcpp glue of the release layer: the validation of a release's data and
// the one call of a private Frechet mean (release_frechet.hpp).
#include "glue_mcmc.h"

#include <dpmanifold_core/release_frechet.hpp>
#include <dpmanifold_core/release_regression.hpp>

using Eigen::MatrixXd;
using Eigen::VectorXd;

// Data of a release, column by column: status 0 (a point, projected onto
// the manifold), 1 (not a point of the manifold: a malformed data set) or
// 2 (a point that double precision does not hold accurately, which the
// release replaces by its public centre: no record is refused for its
// value, SPEC section 6). `why` holds the first reason of a non-point only,
// so that nothing returned counts or names records.
// [[Rcpp::export]]
Rcpp::List cpp_validate_data(Rcpp::List M, MatrixXd P, double tol) {
  return with_manifold(M, [&](const dpm::Manifold& m) {
    Rcpp::IntegerVector status(P.cols());
    std::string form_why;
    for (int j = 0; j < P.cols(); ++j) {
      dpm::poll_interrupt();
      VectorXd p = P.col(j);
      std::string r = m.check_point(p, tol);
      if (r.empty()) {
        P.col(j) = m.project_point(p);
      } else if (!m.check_accuracy(p, tol).empty()) {
        status[j] = 2;
      } else {
        status[j] = 1;
        if (form_why.empty()) form_why = r;
      }
    }
    return Rcpp::List::create(Rcpp::Named("points") = P, Rcpp::Named("status") = status,
                              Rcpp::Named("why") = form_why);
  });
}

namespace {

dpm::FrechetLaw frechet_law(const std::string& law) {
  if (law == "laplace") return dpm::FrechetLaw::laplace;
  if (law == "kng") return dpm::FrechetLaw::kng;
  if (law == "wrapped_laplace") return dpm::FrechetLaw::wrapped_laplace;
  if (law == "wrapped_gaussian") return dpm::FrechetLaw::wrapped_gaussian;
  if (law == "none") return dpm::FrechetLaw::none;
  throw std::invalid_argument("unknown Frechet-mean law '" + law + "'");
}

dpm::FrechetReleaseSpec frechet_spec(const Rcpp::List& spec) {
  dpm::FrechetReleaseSpec s;
  s.law = frechet_law(Rcpp::as<std::string>(spec["law"]));
  s.sigma = Rcpp::as<double>(spec["sigma"]);
  s.center = Rcpp::as<VectorXd>(spec["center"]);
  s.radius = Rcpp::as<double>(spec["radius"]);
  s.truncated = Rcpp::as<bool>(spec["truncated"]);
  s.footpoint = Rcpp::as<VectorXd>(spec["footpoint"]);
  s.chain = Rcpp::as<bool>(spec["chain"]);
  if (s.chain) s.mcmc = mcmc_from_r(Rcpp::as<Rcpp::List>(spec["mcmc"]));
  s.p_fail = Rcpp::as<double>(spec["p_fail"]);
  s.tol = Rcpp::as<double>(spec["tol"]);
  s.nonprivate = Rcpp::as<bool>(spec["nonprivate"]);
  return s;
}

}  // namespace

// One private Frechet mean: all the data work of a release in one call.
// `spec` holds the public parameters, decoded here into a struct; the
// result is a status, the estimate and, only when the caller asked for
// non-private values (studies), the non-private mean and the number of
// moved records. Law "none" returns the prepared data (ambient baselines).
// [[Rcpp::export]]
Rcpp::List cpp_release_frechet(Rcpp::List M, Rcpp::NumericVector X, Rcpp::List spec) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    const dpm::FrechetReleaseSpec s = frechet_spec(spec);
    MatrixXd data = points_in_place(X);  // the one copy: the release clips in place
    dpm::FrechetRelease r = dpm::release_frechet(m, data, s, rng);
    Rcpp::List out = Rcpp::List::create(Rcpp::Named("status") = dpm::status_name(r.status),
                                        Rcpp::Named("estimate") = r.estimate, Rcpp::Named("why") = r.why,
                                        Rcpp::Named("max_attempts") = r.max_attempts);
    if (s.law == dpm::FrechetLaw::none) out["data"] = data;
    if (s.nonprivate) {
      out["nonprivate_mean"] = r.nonprivate_mean;
      out["clipped"] = static_cast<double>(r.clipped);
    }
    return out;
  });
}

namespace {

dpm::RegressionReleaseSpec regression_spec(const Rcpp::List& spec) {
  dpm::RegressionReleaseSpec s;
  s.center = Rcpp::as<VectorXd>(spec["center"]);
  s.radius = Rcpp::as<double>(spec["radius"]);
  s.tol = Rcpp::as<double>(spec["tol"]);
  s.scale_st = Rcpp::as<double>(spec["scale_st"]);
  s.scale_stt = Rcpp::as<double>(spec["scale_stt"]);
  s.floor_stt = Rcpp::as<double>(spec["floor_stt"]);
  s.R0 = Rcpp::as<double>(spec["R0"]);
  s.V0 = Rcpp::as<double>(spec["V0"]);
  s.prior_a = Rcpp::as<double>(spec["prior_a"]);
  s.prior_b = Rcpp::as<double>(spec["prior_b"]);
  s.step_var = Rcpp::as<double>(spec["step_var"]);
  if (spec.containsElementNamed("design_weight")) s.design_weight = Rcpp::as<double>(spec["design_weight"]);
  if (spec.containsElementNamed("window")) s.window = Rcpp::as<double>(spec["window"]);
  if (spec.containsElementNamed("window_noise")) s.window_noise = Rcpp::as<double>(spec["window_noise"]);
  if (spec.containsElementNamed("design")) s.design = Rcpp::as<bool>(spec["design"]);
  if (spec.containsElementNamed("net")) {
    s.net = Rcpp::as<Eigen::MatrixXd>(spec["net"]);
    s.net_epsilon = Rcpp::as<double>(spec["net_epsilon"]);
    s.net_clip = Rcpp::as<double>(spec["net_clip"]);
    if (spec.containsElementNamed("net_clip_wide")) s.net_clip_wide = Rcpp::as<double>(spec["net_clip_wide"]);
    if (spec.containsElementNamed("net_clip_low")) s.net_clip_low = Rcpp::as<double>(spec["net_clip_low"]);
    if (spec.containsElementNamed("net_clip_levels")) s.net_clip_levels = Rcpp::as<int>(spec["net_clip_levels"]);
    if (spec.containsElementNamed("net_pairs")) s.net_pairs = Rcpp::as<bool>(spec["net_pairs"]);
    if (spec.containsElementNamed("net_pairs_sparse")) s.net_pairs_sparse = Rcpp::as<bool>(spec["net_pairs_sparse"]);
    s.net_var_a = Rcpp::as<double>(spec["net_var_a"]);
    s.net_var_b = Rcpp::as<double>(spec["net_var_b"]);
  }
  const Rcpp::List rounds = spec["rounds"];
  for (R_xlen_t k = 0; k < rounds.size(); ++k) {
    const Rcpp::List r = rounds[k];
    dpm::SspRound x;
    x.epsilon = Rcpp::as<double>(r["epsilon"]);
    x.clip_upper = Rcpp::as<double>(r["clip_upper"]);
    x.epsilon_clip = Rcpp::as<double>(r["epsilon_clip"]);
    x.quantile = Rcpp::as<double>(r["quantile"]);
    x.grid = Rcpp::as<std::vector<double>>(r["grid"]);
    if (r.containsElementNamed("gain")) x.gain = Rcpp::as<double>(r["gain"]);
    if (r.containsElementNamed("gap")) x.gap = Rcpp::as<double>(r["gap"]);
    if (r.containsElementNamed("bias")) x.bias = Rcpp::as<double>(r["bias"]);
    if (r.containsElementNamed("grid_log_weight")) x.grid_log_weight = Rcpp::as<std::vector<double>>(r["grid_log_weight"]);
    s.rounds.push_back(x);
  }
  return s;
}

}  // namespace

// One private geodesic regression by the exact Gauss-Newton SSP rounds
// (release_regression.hpp): validation, clip, design, rounds, in one call.
// `t` is the public covariate map's output (in [-1/2, 1/2]); the result is
// a status, the estimate (footpoint, velocity over the range), the clip
// level each round drew, and, for studies only, the number of moved records.
// [[Rcpp::export]]
Rcpp::List cpp_release_regression(Rcpp::List M, Rcpp::NumericVector Y, Rcpp::NumericVector t, Rcpp::List spec,
                                  bool nonprivate) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    MatrixXd data = points_in_place(Y);
    const VectorXd tt = vector_in_place(t);
    dpm::RegressionRelease r;
    int level = -1;
    if (spec.containsElementNamed("scale")) {
      // the scale stage, then the plan of the level it draws (one per level)
      const Rcpp::List sc = spec["scale"];
      dpm::RegressionScaleSpec scale;
      scale.epsilon = Rcpp::as<double>(sc["epsilon"]);
      scale.quantile = Rcpp::as<double>(sc["quantile"]);
      scale.levels = Rcpp::as<std::vector<double>>(sc["levels"]);
      const Rcpp::List plans = sc["specs"];
      std::vector<dpm::RegressionReleaseSpec> specs;
      for (R_xlen_t k = 0; k < plans.size(); ++k) specs.push_back(regression_spec(plans[k]));
      r = dpm::release_regression_scaled(m, data, tt, scale, specs, rng, level);
    } else {
      r = dpm::release_regression(m, data, tt, regression_spec(spec), rng);
    }
    Rcpp::List out = Rcpp::List::create(Rcpp::Named("status") = dpm::status_name(r.status),
                                        Rcpp::Named("why") = r.why, Rcpp::Named("p") = r.p,
                                        Rcpp::Named("v") = r.v, Rcpp::Named("clip") = r.clip,
                                        Rcpp::Named("uncertainty") = Rcpp::NumericVector::create(
                                            Rcpp::Named("var_value") = r.var_value,
                                            Rcpp::Named("var_slope") = r.var_slope,
                                            Rcpp::Named("t_mean") = r.t_mean));
    if (level >= 0) out["scale_level"] = level + 1;
    if (nonprivate) out["moved"] = static_cast<double>(r.moved);
    return out;
  });
}

// The scale stage alone, for its tests: the triple statistics of Y (points
// already on the manifold and in the ball) and the level drawn (1-based)
// from them, consuming the generator as a scaled release's stage does.
// [[Rcpp::export]]
Rcpp::List cpp_regression_scale(Rcpp::List M, Rcpp::NumericVector Y, Rcpp::NumericVector t, double epsilon,
                                double quantile, Rcpp::NumericVector levels) {
  return with_manifold_rng(M, [&](const dpm::Manifold& m, dpm::Rng& rng) {
    const MatrixXd data = points_in_place(Y);
    const VectorXd tt = vector_in_place(t);
    dpm::RegressionScaleSpec s;
    s.epsilon = epsilon;
    s.quantile = quantile;
    s.levels = Rcpp::as<std::vector<double>>(levels);
    const std::vector<double> g = dpm::triple_statistics(m, data, tt, rng);
    const int j = dpm::draw_scale_level(g, s, rng);
    return Rcpp::List::create(Rcpp::Named("statistics") = g, Rcpp::Named("level") = j + 1);
  });
}
