// Unit sphere S^d in R^(d+1). The free functions are shared with Kendall's
// shape space, whose geometry is the sphere's after rotational alignment.
#ifndef DPMANIFOLD_SPHERE_HPP
#define DPMANIFOLD_SPHERE_HPP

#include "complement_basis.hpp"
#include "manifold.hpp"

#include <cmath>

#include <memory>

namespace dpmanifold {

namespace sphere_ops {

// The kernels work on raw arrays of length D (a point is a unit vector), so
// that the per-point operations and the batch kernels over columns of data
// are one code, and the batch loops allocate nothing.

// Angle between unit vectors, accurate near 0 and near pi, and symmetric:
// 2 atan2(|p - q|, |p + q|); `dot` receives <p, q> (one loop for both).
inline double angle(const double* p, const double* q, Eigen::Index D, double& dot) {
  double a = 0.0, b = 0.0, c = 0.0;
  for (Eigen::Index i = 0; i < D; ++i) {
    const double m = p[i] - q[i], s = p[i] + q[i];
    a += m * m;
    b += s * s;
    c += p[i] * q[i];
  }
  dot = c;
  return 2.0 * std::atan2(std::sqrt(a), std::sqrt(b));
}
inline double angle(const double* p, const double* q, Eigen::Index D) {
  double dot;
  return angle(p, q, D, dot);
}
inline double angle(const Vec& p, const Vec& q) { return angle(p.data(), q.data(), p.size()); }

// A fixed unit vector orthogonal to p: used at the cut locus, where log is
// not unique. We return pi times this direction (documented in R).
inline Vec cut_locus_direction(const Vec& p) {
  int i;
  p.cwiseAbs().minCoeff(&i);
  Vec e = Vec::Unit(p.size(), i);
  e -= p.dot(e) * p;
  return e / e.norm();
}

// The two halves of log_p(q) = (theta / s) w: w = q - <p, q> p into out
// and r = theta / s, returned, with theta = dist(p, q) in `theta`. Where
// s < 1e-15 (q = +-p) out is already the log and r is 1.
inline double log_parts(const double* p, const double* q, Eigen::Index D, double* out, double& theta) {
  double dot;
  theta = angle(p, q, D, dot);
  double s2 = 0.0;
  for (Eigen::Index i = 0; i < D; ++i) {
    out[i] = q[i] - dot * p[i];
    s2 += out[i] * out[i];
  }
  const double s = std::sqrt(s2);
  if (s >= 1e-15) return theta / s;
  if (dot > 0) {
    for (Eigen::Index i = 0; i < D; ++i) out[i] = 0.0;
  } else {
    Eigen::Map<Vec>(out, D) = M_PI * cut_locus_direction(Eigen::Map<const Vec>(p, D));
  }
  return 1.0;
}

// log_p(q) into out (length D, not aliasing p or q); returns dist(p, q).
inline double log(const double* p, const double* q, Eigen::Index D, double* out) {
  double theta;
  const double r = log_parts(p, q, D, out, theta);
  for (Eigen::Index i = 0; i < D; ++i) out[i] *= r;
  return theta;
}
inline Vec log(const Vec& p, const Vec& q) {
  Vec out(p.size());
  log(p.data(), q.data(), p.size(), out.data());
  return out;
}

// exp_p(v) into out (length D, not aliasing p or v).
inline void exp(const double* p, const double* v, Eigen::Index D, double* out) {
  const double L = robust_norm(Eigen::Map<const Vec>(v, D));
  const double c = std::cos(L), sc = sinc(L);
  double n2 = 0.0;
  for (Eigen::Index i = 0; i < D; ++i) {
    out[i] = c * p[i] + sc * v[i];
    n2 += out[i] * out[i];
  }
  const double n = std::sqrt(n2);  // remove rounding drift off the sphere
  for (Eigen::Index i = 0; i < D; ++i) out[i] /= n;
}
inline Vec exp(const Vec& p, const Vec& v) {
  Vec out(p.size());
  exp(p.data(), v.data(), p.size(), out.data());
  return out;
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

// The batch kernels of the sphere and of Kendall's shape space (after
// alignment), on columns of data; `work` has length D.
inline void frechet_column(const double* p, const double* q, Eigen::Index D, double wj, double* g,
                           double& f, double* work) {
  // log(p, q, D, work) and g += wj * work, with the scaling by theta / s
  // folded into the accumulation (the same operations, one pass fewer)
  double theta;
  const double r = log_parts(p, q, D, work, theta);
  for (Eigen::Index i = 0; i < D; ++i) g[i] += wj * (work[i] * r);
  f += wj * theta * theta;
}
// D = 3 (S^2, the common case) with the loops unrolled: the same operations
// in the same order as the general code, so the same bits.
inline void frechet_column3(const double* p, const double* q, double wj, double* g, double& f,
                            double* work) {
  if (!(p[0] == p[0])) return frechet_column(p, q, 3, wj, g, f, work);  // NaN: the general path
  double a = 0.0, b = 0.0, dot = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double m = p[i] - q[i], s = p[i] + q[i];
    a += m * m;
    b += s * s;
    dot += p[i] * q[i];
  }
  const double theta = 2.0 * std::atan2(std::sqrt(a), std::sqrt(b));
  double w[3], s2 = 0.0;
  for (int i = 0; i < 3; ++i) {
    w[i] = q[i] - dot * p[i];
    s2 += w[i] * w[i];
  }
  const double s = std::sqrt(s2);
  if (s < 1e-15) return frechet_column(p, q, 3, wj, g, f, work);
  const double r = theta / s;
  for (int i = 0; i < 3; ++i) g[i] += wj * (w[i] * r);
  f += wj * theta * theta;
}
// The point at distance r from c towards x (x itself when no farther), into
// out (which may be x); `work` has length 2D. True when x was moved.
inline bool clip_column(const double* c, double r, const double* x, Eigen::Index D, double* out,
                        double* work) {
  const double d = log(c, x, D, work);
  if (!(d > r)) {
    if (out != x)
      for (Eigen::Index i = 0; i < D; ++i) out[i] = x[i];
    return false;
  }
  const double f = r / d;
  for (Eigen::Index i = 0; i < D; ++i) work[i] *= f;
  exp(c, work, D, work + D);
  for (Eigen::Index i = 0; i < D; ++i) out[i] = work[D + i];
  return true;
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

  // Batch kernels: the per-point formulas above on the columns, with one
  // scratch vector per block.
  double point_cost() const override { return 40.0 + 10.0 * (d_ + 1); }
  void frechet_block(const Vec& p, const ConstPoints& Q, const double* w, Vec& g,
                     double& f) const override {
    const Eigen::Index D = d_ + 1;
    Vec work(D);
    if (D == 3) {
      for (Eigen::Index j = 0; j < Q.cols(); ++j)
        sphere_ops::frechet_column3(p.data(), Q.col(j).data(), w ? w[j] : 1.0, g.data(), f, work.data());
      return;
    }
    for (Eigen::Index j = 0; j < Q.cols(); ++j)
      sphere_ops::frechet_column(p.data(), Q.col(j).data(), D, w ? w[j] : 1.0, g.data(), f, work.data());
  }
  void log_block(const Vec& p, const ConstPoints& Q, OutPoints out) const override {
    for (Eigen::Index j = 0; j < Q.cols(); ++j)
      sphere_ops::log(p.data(), Q.col(j).data(), d_ + 1, out.col(j).data());
  }
  void dist_block(const Vec& p, const ConstPoints& Q, double* d) const override {
    for (Eigen::Index j = 0; j < Q.cols(); ++j) d[j] = sphere_ops::angle(p.data(), Q.col(j).data(), d_ + 1);
  }
  Eigen::Index clip_block(const Vec& c, double r, const ConstPoints& X, OutPoints out) const override {
    Vec work(2 * (d_ + 1));
    Eigen::Index moved = 0;
    for (Eigen::Index j = 0; j < X.cols(); ++j)
      moved += sphere_ops::clip_column(c.data(), r, X.col(j).data(), d_ + 1, out.col(j).data(), work.data());
    return moved;
  }
  Vec clip_towards(const Vec& c, const Vec& x, double r) const override {
    Vec out(x.size()), work(2 * (d_ + 1));
    sphere_ops::clip_column(c.data(), r, x.data(), d_ + 1, out.data(), work.data());
    return out;
  }
  // yhat = exp_p(t v) = cos(tL) p + sin(tL) e (e = v / L); the velocity
  // there is tL (cos(tL) e - sin(tL) p), and the transport back along it
  // turns the component of eps along u = sin(tL) p - cos(tL) e (the unit
  // backward direction) into p-space: eps + a ((cos(tL) - 1) u - sin(tL) yhat),
  // a = <u, eps>.
  void residual_block(const Vec& p, const Vec& v, const double* t, const ConstPoints& Y, OutPoints back,
                      double* len) const override {
    const Eigen::Index D = d_ + 1;
    const double L = robust_norm(v);
    Vec tv(D), yhat(D), eps(D);
    for (Eigen::Index j = 0; j < Y.cols(); ++j) {
      for (Eigen::Index i = 0; i < D; ++i) tv[i] = t[j] * v[i];
      sphere_ops::exp(p.data(), tv.data(), D, yhat.data());
      len[j] = sphere_ops::log(yhat.data(), Y.col(j).data(), D, eps.data());
      const double tl = std::fabs(t[j]) * L;
      double* b = back.col(j).data();
      if (!(tl >= 1e-300)) {
        for (Eigen::Index i = 0; i < D; ++i) b[i] = eps[i];
        continue;
      }
      const double cs = std::cos(tl), sn = std::sin(tl), sg = t[j] < 0 ? -1.0 : 1.0;
      double a = 0.0;  // <u, eps>, u = sin(tl) p - cos(tl) e, e = sign(t) v / L
      for (Eigen::Index i = 0; i < D; ++i) a += (sn * p[i] - cs * sg * v[i] / L) * eps[i];
      for (Eigen::Index i = 0; i < D; ++i)
        b[i] = eps[i] + a * ((cs - 1.0) * (sn * p[i] - cs * sg * v[i] / L) - sn * yhat[i]);
    }
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
