// Unit sphere S^d in R^(d+1). The free functions are shared with Kendall's
// shape space, whose geometry is the sphere's after rotational alignment.
#ifndef DPMANIFOLD_SPHERE_HPP
#define DPMANIFOLD_SPHERE_HPP

#include "complement_basis.hpp"
#include "manifold.hpp"

#include <memory>

namespace dpmanifold {

namespace sphere_ops {

// Angle between unit vectors, accurate near 0 and near pi, and symmetric.
inline double angle(const Vec& p, const Vec& q) {
  return 2.0 * std::atan2((p - q).norm(), (p + q).norm());
}

inline Vec exp(const Vec& p, const Vec& v) {
  double L = robust_norm(v);
  Vec out = std::cos(L) * p + sinc(L) * v;
  return out / out.norm();  // remove rounding drift off the sphere
}

// A fixed unit vector orthogonal to p: used at the cut locus, where log is
// not unique. We return pi times this direction (documented in R).
inline Vec cut_locus_direction(const Vec& p) {
  int i;
  p.cwiseAbs().minCoeff(&i);
  Vec e = Vec::Unit(p.size(), i);
  e -= p.dot(e) * p;
  return e / e.norm();
}

inline Vec log(const Vec& p, const Vec& q) {
  Vec w = q - p.dot(q) * p;
  double s = w.norm();
  double theta = angle(p, q);
  if (s < 1e-15) {
    if (p.dot(q) > 0) return Vec::Zero(p.size());
    return M_PI * cut_locus_direction(p);
  }
  return (theta / s) * w;
}

// Transport of w from p along t -> exp_p(t v): the component along the
// direction of travel turns with the geodesic, the rest is unchanged.
inline Vec transport_along(const Vec& p, const Vec& v, const Vec& w) {
  double L = robust_norm(v);
  if (L < 1e-300) return w;
  Vec e = v / L;
  double a = e.dot(w);
  return w + a * ((std::cos(L) - 1.0) * e - std::sin(L) * p);
}

// z -> exp_p(sum_i z_i b_i) on a unit sphere, b the complement basis B of
// the tangent space at p (the sphere; Kendall's horizontal space).
inline std::function<Vec(const Vec&)> exp_coords(const Vec& p, const ComplementBasis& B) {
  std::shared_ptr<const ComplementBasis> Bp = std::make_shared<const ComplementBasis>(B);
  return [Bp, p](const Vec& z) { return exp(p, Bp->from_coords(z)); };
}

}  // namespace sphere_ops

// Sizes, curvature, polar volume sin(t)^(d-1) and the Jacobi operator
// (K = 1) come from SpaceForm.
class Sphere : public SpaceForm {
 public:
  explicit Sphere(int d) : SpaceForm(d, 1.0) {}
  std::string name() const override { return "sphere"; }
  double injectivity_radius() const override { return M_PI; }
  std::string check_point(const Vec& p, double tol) const override {
    if (p.size() != d_ + 1) return "has the wrong length";
    if (std::fabs(p.norm() - 1.0) > tol) return "does not have unit norm";
    return "";
  }
  Vec project_point(const Vec& x) const override { return x / x.norm(); }
  Vec project_tangent(const Vec& p, const Vec& v) const override {
    return v - p.dot(v) * p;
  }
  Vec exp(const Vec& p, const Vec& v) const override { return sphere_ops::exp(p, v); }
  Vec log(const Vec& p, const Vec& q) const override { return sphere_ops::log(p, q); }
  double dist(const Vec& p, const Vec& q) const override { return sphere_ops::angle(p, q); }
  double inner(const Vec&, const Vec& u, const Vec& v) const override { return u.dot(v); }
  Vec transport_along(const Vec& p, const Vec& v, const Vec& w) const override {
    return sphere_ops::transport_along(p, v, w);
  }
  // T_p S^d is the complement of p: a Householder reflection gives its
  // basis and coordinates in O(d) per vector (never a (d+1)^2 matrix).
  Mat tangent_basis(const Vec& p) const override { return ComplementBasis(p).basis(); }
  Vec tangent_coords(const Vec& p, const Vec& v) const override {
    return ComplementBasis(p).coords(v);
  }
  std::function<Vec(const Vec&)> exp_coords_from(const Vec& p) const override {
    return sphere_ops::exp_coords(p, ComplementBasis(p));
  }
  Vec random_tangent(const Vec& p, Rng& rng) const override {
    Vec z(d_ + 1);
    for (int i = 0; i <= d_; ++i) z(i) = rng.normal();
    return project_tangent(p, z);
  }
  // Uniform on the sphere.
  Vec random_point(Rng& rng) const override {
    Vec z(d_ + 1);
    for (int i = 0; i <= d_; ++i) z(i) = rng.normal();
    return z / z.norm();
  }

 protected:
  double tangent_length(const Vec&, const Vec& v) const override { return robust_norm(v); }
};

}  // namespace dpmanifold

#endif
