// Euclidean space R^d: flat, K = 0, infinite injectivity radius.
#ifndef DPMANIFOLD_EUCLIDEAN_HPP
#define DPMANIFOLD_EUCLIDEAN_HPP

#include "manifold.hpp"

namespace dpmanifold {

class Euclidean : public Manifold {
 public:
  explicit Euclidean(int d) : d_(d) {
    if (d < 1) throw std::invalid_argument("d must be a positive integer");
  }
  std::string name() const override { return "euclidean"; }
  int dim() const override { return d_; }
  int ambient_dim() const override { return d_; }
  double kappa_min() const override { return 0.0; }
  double kappa_max() const override { return 0.0; }
  double constant_curvature() const override { return 0.0; }
  double injectivity_radius() const override {
    return std::numeric_limits<double>::infinity();
  }
  std::string check_point(const Vec& p, double) const override {
    if (p.size() != d_) return "has the wrong length";
    return "";
  }
  Vec project_point(const Vec& x) const override { return x; }
  Vec project_tangent(const Vec&, const Vec& v) const override { return v; }
  Vec exp(const Vec& p, const Vec& v) const override { return p + v; }
  Vec log(const Vec& p, const Vec& q) const override { return q - p; }
  double dist(const Vec& p, const Vec& q) const override { return robust_norm(q - p); }
  double inner(const Vec&, const Vec& u, const Vec& v) const override { return u.dot(v); }
  // When x - c overflows, the direction is taken at half scale.
  Vec clip_towards(const Vec& c, const Vec& x, double radius) const override {
    Vec u = x - c;
    if (u.allFinite()) {
      double d = robust_norm(u);
      if (!(d > radius)) return x;
      if (std::isfinite(d)) return c + (radius / d) * u;
    }
    u = 0.5 * x - 0.5 * c;
    return c + (radius / robust_norm(u)) * u;
  }
  Vec transport_along(const Vec&, const Vec&, const Vec& w) const override { return w; }
  Vec jacobi_apply(const Vec&, const Vec& v, const Vec& w,
                   const SpectralFn& f) const override {
    return f(0.0, robust_norm(v)) * w;
  }
  // The standard basis: coordinates are the vector itself (O(d), never the
  // d x d identity).
  Mat tangent_basis(const Vec&) const override { return Mat::Identity(d_, d_); }
  Vec tangent_coords(const Vec&, const Vec& v) const override { return v; }
  std::function<Vec(const Vec&)> exp_coords_from(const Vec& p) const override {
    return [p](const Vec& z) { return Vec(p + z); };
  }
  std::string check_result(const Vec& p) const override {
    return p.allFinite() ? "" : "overflows";
  }
  Vec random_tangent(const Vec&, Rng& rng) const override {
    Vec z(d_);
    for (int i = 0; i < d_; ++i) z(i) = rng.normal();
    return z;
  }
  // Batch kernels: plain loops over the columns.
  double point_cost() const override { return 3.0 * d_; }
  void frechet_block(const Vec& p, const ConstPoints& Q, const double* w, Vec& g,
                     double& f) const override {
    for (Eigen::Index j = 0; j < Q.cols(); ++j) {
      const double wj = w ? w[j] : 1.0;
      const double* q = Q.col(j).data();
      for (int i = 0; i < d_; ++i) g[i] += wj * (q[i] - p[i]);
      const double d = robust_norm(Q.col(j) - p);
      f += wj * d * d;
    }
  }
  void log_block(const Vec& p, const ConstPoints& Q, OutPoints out) const override {
    out = Q.colwise() - p;
  }
  void dist_block(const Vec& p, const ConstPoints& Q, double* d) const override {
    for (Eigen::Index j = 0; j < Q.cols(); ++j) d[j] = robust_norm(Q.col(j) - p);
  }
  // Standard Gaussian point.
  Vec random_point(Rng& rng) const override { return random_tangent(Vec(), rng); }

 private:
  int d_;

 public:
  // Flat: polar volume t^(d-1).
  std::vector<std::pair<double, int>> radial_jacobi_spectrum() const override {
    return {{0.0, d_ - 1}};
  }
};

}  // namespace dpmanifold

#endif
