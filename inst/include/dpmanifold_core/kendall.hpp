// Kendall's planar shape space of k >= 3 landmarks.
//
// A point is a preshape: a k x 2 configuration (flat: x coords then y
// coords), centred and of unit Frobenius norm, read as z in C^k. Its shape is
// the orbit {e^{i phi} z}. Tangent vectors are horizontal (centred and
// complex-orthogonal to z). exp is the sphere's; log and dist are the
// sphere's after rotating the second argument into optimal alignment.
#ifndef DPMANIFOLD_KENDALL_HPP
#define DPMANIFOLD_KENDALL_HPP

#include "sphere.hpp"

namespace dpmanifold {

namespace kendall_ops {

// i * w for w stored as (x, y).
inline Vec times_i(const Vec& w) {
  const int k = static_cast<int>(w.size() / 2);
  Vec out(w.size());
  out.head(k) = -w.tail(k);
  out.tail(k) = w.head(k);
  return out;
}
// e^{i phi} * w.
inline Vec rotate(const Vec& w, double phi) {
  return std::cos(phi) * w + std::sin(phi) * times_i(w);
}
// Argument of the Hermitian product <z, w> = sum conj(z_j) w_j. Its real
// part is the real dot product; its imaginary part is the dot product of
// i z = (-y_z, x_z) with w. rotate(w, -phase(z, w)) makes <z, w> real >= 0.
inline double phase(const Vec& z, const Vec& w) {
  return std::atan2(times_i(z).dot(w), z.dot(w));
}
// Representative of the shape of w optimally rotated onto z, into out
// (length 2k, not aliasing z or w): w rotated by -phase(z, w).
inline void align(const double* z, const double* w, Eigen::Index k, double* out) {
  double re = 0.0, im = 0.0;  // <z, w> = re + i im
  for (Eigen::Index i = 0; i < k; ++i) {
    re += z[i] * w[i] + z[k + i] * w[k + i];
    im += z[i] * w[k + i] - z[k + i] * w[i];
  }
  const double phi = std::atan2(im, re), c = std::cos(phi), s = std::sin(phi);
  for (Eigen::Index i = 0; i < k; ++i) {
    out[i] = c * w[i] + s * w[k + i];
    out[k + i] = c * w[k + i] - s * w[i];
  }
}
inline Vec align(const Vec& z, const Vec& w) {
  Vec out(w.size());
  align(z.data(), w.data(), w.size() / 2, out.data());
  return out;
}

}  // namespace kendall_ops

class KendallShape : public Manifold {
 public:
  explicit KendallShape(int k) : k_(k) {
    if (k < 3 || k > std::numeric_limits<int>::max() / 2)
      throw std::invalid_argument("k must be between 3 and 2^30 - 1 landmarks");
  }
  std::string name() const override { return "kendall_shape"; }
  int dim() const override { return 2 * k_ - 4; }
  int ambient_dim() const override { return 2 * k_; }
  double kappa_min() const override { return k_ == 3 ? 4.0 : 1.0; }
  double kappa_max() const override { return 4.0; }
  // k = 3: the shape space of triangles is a sphere of radius 1/2.
  double constant_curvature() const override {
    return k_ == 3 ? 4.0 : std::numeric_limits<double>::quiet_NaN();
  }
  double injectivity_radius() const override { return M_PI / 2.0; }

  std::string check_point(const Vec& p, double tol) const override {
    if (p.size() != 2 * k_) return "has the wrong number of landmarks";
    if (std::fabs(p.head(k_).sum()) > tol || std::fabs(p.tail(k_).sum()) > tol)
      return "is not centred (use as_preshape())";
    if (std::fabs(p.norm() - 1.0) > tol) return "does not have unit size (use as_preshape())";
    return "";
  }
  // The zero vector is what a release's data hold for a configuration whose
  // landmarks coincide up to rounding (R: preshape_slices()): it has no
  // shape, and the release replaces it by the public centre instead of
  // refusing the record (SPEC section 6).
  std::string check_accuracy(const Vec& p, double) const override {
    if (p.size() == 2 * k_ && (p.array() == 0.0).all()) return "is a degenerate configuration (no shape)";
    return "";
  }
  Vec project_point(const Vec& x) const override {
    Vec z = x;
    z.head(k_).array() -= z.head(k_).mean();
    z.tail(k_).array() -= z.tail(k_).mean();
    double s = z.norm();
    if (!(s > 0)) throw std::invalid_argument("degenerate configuration: all landmarks coincide");
    return z / s;
  }
  Vec project_tangent(const Vec& z, const Vec& v) const override {
    Vec w = v;
    w.head(k_).array() -= w.head(k_).mean();
    w.tail(k_).array() -= w.tail(k_).mean();
    Vec iz = kendall_ops::times_i(z);
    return w - z.dot(w) * z - iz.dot(w) * iz;
  }
  Vec exp(const Vec& z, const Vec& v) const override { return sphere_ops::exp(z, v); }
  Vec log(const Vec& z, const Vec& w) const override {
    return sphere_ops::log(z, kendall_ops::align(z, w));
  }
  double dist(const Vec& z, const Vec& w) const override {
    return sphere_ops::angle(z, kendall_ops::align(z, w));
  }
  double inner(const Vec&, const Vec& u, const Vec& v) const override { return u.dot(v); }

  // Horizontal transport (from the Hopf fibration): along the geodesic with
  // unit direction e, e turns into gamma', i e into i gamma', and the part
  // orthogonal to z, e, i e is unchanged.
  Vec transport_along(const Vec& z, const Vec& v, const Vec& w) const override {
    double L = robust_norm(v);
    if (L < 1e-300) return w;
    Vec e = v / L, ie = kendall_ops::times_i(e);
    Vec vel = -std::sin(L) * z + std::cos(L) * e;
    double a = e.dot(w), b = ie.dot(w);
    return w - a * e - b * ie + a * vel + b * kendall_ops::times_i(vel);
  }
  // The endpoint of the transport is the representative of q aligned to z;
  // rotate the result back so that it is horizontal at q as given.
  Vec transport(const Vec& z, const Vec& q, const Vec& w) const override {
    double phi = kendall_ops::phase(z, q);
    return kendall_ops::rotate(transport_along(z, log(z, q), w), phi);
  }
  // Curvature operator: 0 along e, 4 along i e, 1 on the rest.
  Vec jacobi_apply(const Vec&, const Vec& v, const Vec& w,
                   const SpectralFn& f) const override {
    double L = robust_norm(v);
    if (L < 1e-300) return f(1.0, 0.0) * w;
    Vec e = v / L, ie = kendall_ops::times_i(e);
    double a = e.dot(w), b = ie.dot(w);
    Vec rest = w - a * e - b * ie;
    return f(0.0, L) * a * e + f(4.0, L) * b * ie + f(1.0, L) * rest;
  }
  // The horizontal space at z is the complement of the centring directions
  // and of z, iz: four Householder reflections give its basis and
  // coordinates in O(k) per vector.
  Mat tangent_basis(const Vec& z) const override { return normal_complement(z).basis(); }
  Vec tangent_coords(const Vec& z, const Vec& v) const override {
    return normal_complement(z).coords(v);
  }
  std::function<Vec(const Vec&)> exp_coords_from(const Vec& z) const override {
    return sphere_ops::exp_coords(z, normal_complement(z));
  }
  Vec random_tangent(const Vec& z, Rng& rng) const override {
    Vec g(2 * k_);
    for (int i = 0; i < 2 * k_; ++i) g(i) = rng.normal();
    return project_tangent(z, g);
  }
  // Preshape of an iid Gaussian configuration (uniform on shape space).
  Vec random_point(Rng& rng) const override {
    Vec g(2 * k_);
    for (int i = 0; i < 2 * k_; ++i) g(i) = rng.normal();
    return project_point(g);
  }
  int landmarks() const { return k_; }

  // Batch kernels: the sphere's after alignment, with scratch per block.
  double point_cost() const override { return 60.0 + 20.0 * k_; }
  void frechet_block(const Vec& z, const ConstPoints& Q, const double* w, Vec& g,
                     double& f) const override {
    Vec work(4 * k_);
    for (Eigen::Index j = 0; j < Q.cols(); ++j) {
      kendall_ops::align(z.data(), Q.col(j).data(), k_, work.data());
      sphere_ops::frechet_column(z.data(), work.data(), 2 * k_, w ? w[j] : 1.0, g.data(), f,
                                 work.data() + 2 * k_);
    }
  }
  void log_block(const Vec& z, const ConstPoints& Q, OutPoints out) const override {
    Vec work(2 * k_);
    for (Eigen::Index j = 0; j < Q.cols(); ++j) {
      kendall_ops::align(z.data(), Q.col(j).data(), k_, work.data());
      sphere_ops::log(z.data(), work.data(), 2 * k_, out.col(j).data());
    }
  }
  void dist_block(const Vec& z, const ConstPoints& Q, double* d) const override {
    Vec work(2 * k_);
    for (Eigen::Index j = 0; j < Q.cols(); ++j) {
      kendall_ops::align(z.data(), Q.col(j).data(), k_, work.data());
      d[j] = sphere_ops::angle(z.data(), work.data(), 2 * k_);
    }
  }
  // clip_towards: x itself when no farther than r, else exp_c((r / d) log_c(x)).
  Eigen::Index clip_block(const Vec& c, double r, const ConstPoints& X, OutPoints out) const override {
    Vec work(6 * k_);
    Eigen::Index moved = 0;
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      const double* x = X.col(j).data();
      double* o = out.col(j).data();
      kendall_ops::align(c.data(), x, k_, work.data());
      if (!(sphere_ops::angle(c.data(), work.data(), 2 * k_) > r)) {
        if (o != x)
          for (Eigen::Index i = 0; i < 2 * k_; ++i) o[i] = x[i];
        continue;
      }
      sphere_ops::clip_column(c.data(), r, work.data(), 2 * k_, o, work.data() + 2 * k_);
      ++moved;
    }
    return moved;
  }

 private:
  // Orthonormal normal directions of the horizontal space at a preshape z.
  ComplementBasis normal_complement(const Vec& z) const {
    Mat A = Mat::Zero(2 * k_, 4);
    const double c = 1.0 / std::sqrt(static_cast<double>(k_));
    A.col(0).head(k_).setConstant(c);
    A.col(1).tail(k_).setConstant(c);
    A.col(2) = z;
    A.col(3) = kendall_ops::times_i(z);
    return ComplementBasis(A);
  }
  int k_;

 public:
  // Rank one (CP^(k-2)): curvature 4 on the plane of u and i u, 1 on the
  // 2k - 6 others, so the polar volume is sin(t)^(2k-6) sin(2t)/2, t < pi/2
  // (k = 3: sin(2t)/2, the sphere of radius 1/2).
  std::vector<std::pair<double, int>> radial_jacobi_spectrum() const override {
    if (k_ == 3) return {{4.0, 1}};
    return {{4.0, 1}, {1.0, 2 * k_ - 6}};
  }
};

}  // namespace dpmanifold

#endif
