// The one abstract manifold interface of dpmanifold.
//
// Points and tangent vectors are flat Eigen vectors in ambient coordinates:
//   euclidean(d)      R^d
//   sphere(d)         R^(d+1)
//   spd(k)            k x k symmetric matrix, column-major (length k^2)
//   kendall_shape(k)  k x 2 configuration, column-major (x coords, then y)
//   hyperbolic(d)     R^(d+1), hyperboloid model (x0 first)
// Algorithms (Frechet mean, regression, samplers, Jacobi adjoints) are written
// once against this class; concrete manifolds override the geometry only.
// The headers are free of R so the core can be used from any C++ host.
#ifndef DPMANIFOLD_MANIFOLD_HPP
#define DPMANIFOLD_MANIFOLD_HPP

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "interrupt.hpp"
#include "rng.hpp"

namespace dpmanifold {

using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;
// A block of points or tangent vectors: the columns of a column-major
// ambient_dim x m array (a matrix, a map of R's memory, a range of columns).
using ConstPoints = Eigen::Ref<const Mat>;
using OutPoints = Eigen::Ref<Mat>;
using ConstWeights = Eigen::Ref<const Vec>;

// Scalar function f(mu, L) applied to the curvature eigen-components of a
// tangent vector (see jacobi_apply below).
using SpectralFn = std::function<double(double, double)>;

// sin(x)/x without cancellation near 0.
inline double sinc(double x) {
  if (std::fabs(x) < 1e-4) return 1.0 - x * x / 6.0 + x * x * x * x / 120.0;
  return std::sin(x) / x;
}
// sinh(x)/x without cancellation near 0.
inline double sinhc(double x) {
  if (std::fabs(x) < 1e-4) return 1.0 + x * x / 6.0 + x * x * x * x / 120.0;
  return std::sinh(x) / x;
}
// log(sinh(x)/x), without overflow for large |x| (the volume growth of
// negatively curved spaces; the one home of this formula).
inline double log_sinhc(double x) {
  x = std::fabs(x);
  if (x < 20.0) return std::log(sinhc(x));
  return x - std::log(2.0 * x) + std::log1p(-std::exp(-2.0 * x));
}
// h(s, kappa) = s sqrt(kappa) cot(s sqrt(kappa)) for kappa > 0, else 1: the
// Hessian comparison factor of dist(., x)^2 / 2 at distance s on a manifold
// of sectional curvature at most kappa (the KNG envelope and sensitivities;
// the one home of this formula).
inline double curvature_h(double s, double kappa) {
  if (kappa <= 0.0 || s == 0.0) return 1.0;
  const double a = s * std::sqrt(kappa);
  return a / std::tan(a);
}

// Euclidean norm without overflow or underflow of the squares: the plain
// sqrt(sum of squares) in the normal range (the same value as v.norm()),
// Eigen's scaled stableNorm() when the sum of squares leaves it (entries
// beyond ~1e154 or below ~1e-154).
template <class V>
inline double robust_norm(const Eigen::MatrixBase<V>& v) {
  const double s = v.squaredNorm();
  if (s > 1e-290 && s < 1e290) return std::sqrt(s);
  return v.eval().stableNorm();
}

class Manifold {
 public:
  virtual ~Manifold() = default;

  virtual std::string name() const = 0;
  virtual int dim() const = 0;          // intrinsic dimension
  virtual int ambient_dim() const = 0;  // length of the flat representation
  virtual double kappa_min() const = 0;
  virtual double kappa_max() const = 0;
  virtual double injectivity_radius() const = 0;
  // Sectional curvature when it is the same for every 2-plane (NaN
  // otherwise). Where it is constant, the volume in geodesic polar
  // coordinates is known and Riemannian Laplace laws can be drawn exactly.
  virtual double constant_curvature() const {
    return std::numeric_limits<double>::quiet_NaN();
  }
  bool is_hadamard() const {
    return kappa_max() <= 0.0 && std::isinf(injectivity_radius());
  }

  // Empty string when p is a point of the manifold (within tol), otherwise a
  // short reason that the R layer turns into an error naming the argument.
  virtual std::string check_point(const Vec& p, double tol) const = 0;
  // For a p that check_point() refuses: the reason when p is nevertheless a
  // point of the manifold, refused only because double precision does not
  // hold it accurately (SPD: numerically singular; hyperbolic: too far out);
  // empty when p is not a point at all. A release must not refuse such a
  // record (SPEC section 6): it replaces it by the public centre, as it
  // moves a record outside the public ball onto the ball.
  virtual std::string check_accuracy(const Vec&, double) const { return ""; }
  // Same for a tangent vector v at p.
  // The scale is the vector's own norm (relative tolerance for long vectors),
  // computed without overflow.
  virtual std::string check_tangent(const Vec& p, const Vec& v, double tol) const {
    Vec d = v - project_tangent(p, v);
    double scale = std::max(1.0, robust_norm(v));
    double off = robust_norm(d);
    if (!(off <= tol * scale)) return "is not a tangent vector at the given point";
    return "";
  }
  // Empty when a computed point (the result of exp, a draw, a mean) is a
  // point of the manifold that double precision holds: finite and, up to
  // rounding, on the manifold. Looser than check_point() where that one
  // also guards accuracy (SPD: an ill-conditioned but positive-definite
  // result is representable).
  virtual std::string check_result(const Vec& p) const {
    if (!p.allFinite()) return "overflows";
    return check_point(p, 1e-6);
  }
  // A computed point that the geometry functions (mfd_exp) hand back: one
  // the caller can pass back in. Hyperbolic: within the input range.
  virtual std::string check_output(const Vec& p) const { return check_result(p); }
  // Nearest manifold point to an ambient vector near the manifold (used to
  // remove rounding drift, never to accept data far off the manifold).
  virtual Vec project_point(const Vec& x) const = 0;
  virtual Vec project_tangent(const Vec& p, const Vec& v) const = 0;

  virtual Vec exp(const Vec& p, const Vec& v) const = 0;
  virtual Vec log(const Vec& p, const Vec& q) const = 0;
  virtual double dist(const Vec& p, const Vec& q) const { return norm(p, log(p, q)); }
  // Distance from a fixed point, for loops that measure many points against
  // one (MCMC targets, ball checks); a manifold may precompute at p.
  virtual std::function<double(const Vec&)> dist_from(const Vec& p) const {
    return [this, p](const Vec& q) { return dist(p, q); };
  }
  virtual double inner(const Vec& p, const Vec& u, const Vec& v) const = 0;
  double norm(const Vec& p, const Vec& v) const {
    double s = inner(p, v, v);
    return s > 0.0 ? std::sqrt(s) : 0.0;
  }

  // The point at distance `radius` from `center` on the minimising geodesic
  // towards x, or x itself when it is no farther: how a public ball is
  // enforced on data (SPEC section 6).
  virtual Vec clip_towards(const Vec& center, const Vec& x, double radius) const {
    double d = dist(center, x);
    if (!(d > radius)) return x;
    return exp(center, (radius / d) * log(center, x));
  }

  // --- Batch kernels: one virtual call per block of points (batch.hpp cuts
  // the data into blocks and runs them on several threads at once, so they
  // must not touch shared state, draw random numbers or poll interrupts).
  // The defaults loop over the per-point operations; the manifolds override
  // them with loops that allocate nothing per point.
  //
  // Cost of one exp, log or distance, in the work units of interrupt.hpp
  // (sizes of the parallel chunks, interrupt polling).
  virtual double point_cost() const { return 30.0 * ambient_dim(); }
  // g += sum_j w_j log_p(q_j) and f += sum_j w_j dist(p, q_j)^2 over the
  // columns q_j of Q, in the order of j (w = nullptr: all weights 1).
  virtual void frechet_block(const Vec& p, const ConstPoints& Q, const double* w, Vec& g,
                             double& f) const {
    auto dist_p = dist_from(p);
    for (Eigen::Index j = 0; j < Q.cols(); ++j) {
      const Vec q = Q.col(j);
      const double d = dist_p(q), wj = w ? w[j] : 1.0;
      g += wj * log(p, q);
      f += wj * d * d;
    }
  }
  // out.col(j) = log_p(q_j).
  virtual void log_block(const Vec& p, const ConstPoints& Q, OutPoints out) const {
    for (Eigen::Index j = 0; j < Q.cols(); ++j) out.col(j) = log(p, Q.col(j));
  }
  // d[j] = dist(p, q_j).
  virtual void dist_block(const Vec& p, const ConstPoints& Q, double* d) const {
    auto dist_p = dist_from(p);
    for (Eigen::Index j = 0; j < Q.cols(); ++j) d[j] = dist_p(Q.col(j));
  }
  // out.col(j) = clip_towards(c, x_j, r) (out may alias X); returns the
  // number of columns moved (those farther than r).
  virtual Eigen::Index clip_block(const Vec& c, double r, const ConstPoints& X, OutPoints out) const {
    Eigen::Index moved = 0;
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      const Vec x = X.col(j);
      out.col(j) = clip_towards(c, x, r);
      if ((out.col(j) - x).squaredNorm() > 0.0) ++moved;
    }
    return moved;
  }
  // Regression residuals at (p, v) for data (t[j], y_j): yhat = exp_p(t[j] v),
  // eps = log_yhat(y_j), back.col(j) = eps transported back to p along the
  // geodesic, len[j] = |eps|.
  virtual void residual_block(const Vec& p, const Vec& v, const double* t, const ConstPoints& Y,
                              OutPoints back, double* len) const {
    for (Eigen::Index j = 0; j < Y.cols(); ++j) {
      const Vec tv = t[j] * v;
      const Vec yhat = exp(p, tv);
      const Vec eps = log(yhat, Y.col(j));
      len[j] = norm(yhat, eps);
      back.col(j) = transport_along(yhat, -geodesic_velocity(p, tv), eps);
    }
  }

  // Parallel transport of w from p along t -> exp_p(t v), t in [0, 1].
  virtual Vec transport_along(const Vec& p, const Vec& v, const Vec& w) const = 0;
  // Parallel transport of w from p to q along the minimising geodesic.
  virtual Vec transport(const Vec& p, const Vec& q, const Vec& w) const {
    return transport_along(p, log(p, q), w);
  }
  // Velocity of t -> exp_p(t v) at t = 1 (a tangent vector at exp_p(v)).
  Vec geodesic_velocity(const Vec& p, const Vec& v) const {
    return transport_along(p, v, v);
  }

  // Curvature eigen-decomposition of the Jacobi operator R(., v/L) v/L at p,
  // L = |v|: w is split into eigen-components and the component with
  // eigenvalue mu is multiplied by f(mu, L). On the symmetric spaces here the
  // decomposition is parallel along the geodesic, which is what makes the
  // adjoint differentials of exp "transport back, then scale" (jacobi.hpp).
  virtual Vec jacobi_apply(const Vec& p, const Vec& v, const Vec& w,
                           const SpectralFn& f) const = 0;

  // Orthonormal basis (w.r.t. inner at p) of T_p M: ambient_dim x dim.
  virtual Mat tangent_basis(const Vec& p) const = 0;

  // Coordinates of v in tangent_basis(p). The defaults below build the basis
  // (O(D^2) memory); manifolds with large ambient dimension override them
  // with O(D) versions (Euclidean, sphere, Kendall: complement_basis.hpp).
  virtual Vec tangent_coords(const Vec& p, const Vec& v) const {
    Mat B = tangent_basis(p);
    Vec z(B.cols());
    for (int i = 0; i < z.size(); ++i) z(i) = inner(p, B.col(i), v);
    return z;
  }
  // Inverse normal coordinates at p, z -> exp_p(sum_i z_i b_i) with
  // b = tangent_basis(p), prepared once for loops that map many coordinate
  // vectors from one footpoint (the wrapped mechanisms).
  virtual std::function<Vec(const Vec&)> exp_coords_from(const Vec& p) const {
    Mat B = tangent_basis(p);
    return [this, p, B](const Vec& z) { return exp(p, B * z); };
  }

  // Isotropic standard Gaussian tangent vector at p (coordinates iid N(0,1)
  // in any orthonormal basis).
  virtual Vec random_tangent(const Vec& p, Rng& rng) const {
    Mat B = tangent_basis(p);
    Vec z(B.cols());
    for (int i = 0; i < z.size(); ++i) z(i) = rng.normal();
    return B * z;
  }
  // exp_x(step * xi) with xi = random_tangent(x): the random-walk proposal of
  // the samplers (a manifold may fuse the two, e.g. SPD skips a whitening).
  virtual Vec random_step(const Vec& x, double step, Rng& rng) const {
    return exp(x, step * random_tangent(x, rng));
  }
  // A random point (a convenient spread-out law, documented per manifold).
  virtual Vec random_point(Rng& rng) const = 0;

  // --- Volume in geodesic polar coordinates (exact Laplace samplers,
  // laplace_exact.hpp). J(v) is the Riemannian volume density in normal
  // coordinates at p (the Jacobian of exp_p at v), for |v| below the
  // injectivity radius: prod over the eigenvalues mu of R(., u)u on u-perp
  // (u = v/|v|, t = |v|) of s_mu(t)/t, s_mu(t) = sin(sqrt(mu) t)/sqrt(mu),
  // t when mu = 0, sinh(sqrt(-mu) t)/sqrt(-mu) when mu < 0.
  //
  // Where J depends on |v| only (flat, constant curvature, rank-one
  // symmetric spaces) the eigenvalues with their multiplicities (summing to
  // dim() - 1); empty when J depends on the direction.
  virtual std::vector<std::pair<double, int>> radial_jacobi_spectrum() const { return {}; }
  // Direction-dependent J on a symmetric space of non-compact type:
  // log J(t u) = sum_a log(sinh(t a)/(t a)) over root values a = a(u) >= 0
  // with sum a^2 <= first and sum a <= second for every unit u (NaN when
  // not available). These two numbers bound J for the samplers.
  virtual std::pair<double, double> volume_growth_bounds() const {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan};
  }
  // log J(v) at p; by default from the radial spectrum, NaN if unknown.
  virtual double log_volume_density(const Vec& p, const Vec& v) const {
    auto spec = radial_jacobi_spectrum();
    if (spec.empty()) return std::numeric_limits<double>::quiet_NaN();
    const double t = norm(p, v);
    double out = 0.0;
    for (const auto& e : spec) {
      const double a = std::sqrt(std::fabs(e.first)) * t;
      if (e.first > 0.0) {
        out += e.second * std::log(sinc(a));
      } else if (e.first < 0.0) {
        out += e.second * log_sinhc(a);
      }
    }
    return out;
  }
};

// The model spaces of constant curvature K embedded in R^(d+1): the sphere
// S^d (K = 1) and hyperbolic space H^d (K = -1). What follows from d and K
// alone lives here once: sizes, curvature facts, the polar volume
// s_K(t)^(d-1) and the Jacobi operator R(., e)e = K on e-perp, 0 along e.
// A subclass gives the geometry and tangent_length(), |v| at p without
// overflow of the squares.
class SpaceForm : public Manifold {
 public:
  SpaceForm(int d, double K) : d_(checked_dim(d)), K_(K) {}
  int dim() const override { return d_; }
  int ambient_dim() const override { return d_ + 1; }
  double kappa_min() const override { return K_; }
  double kappa_max() const override { return K_; }
  double constant_curvature() const override { return K_; }
  std::vector<std::pair<double, int>> radial_jacobi_spectrum() const override {
    return {{K_, d_ - 1}};
  }
  Vec jacobi_apply(const Vec& p, const Vec& v, const Vec& w,
                   const SpectralFn& f) const override {
    const double L = tangent_length(p, v);
    if (L < 1e-300) return f(K_, 0.0) * w;  // a NaN length stays NaN
    const Vec e = v / L;
    const double a = inner(p, e, w);
    return f(0.0, L) * a * e + f(K_, L) * (w - a * e);
  }

 protected:
  virtual double tangent_length(const Vec& p, const Vec& v) const = 0;
  const int d_;
  const double K_;

 private:
  static int checked_dim(int d) {
    if (d < 1 || d > std::numeric_limits<int>::max() - 1)
      throw std::invalid_argument("d must be a positive integer below 2^31 - 1");
    return d;
  }
};

}  // namespace dpmanifold

#endif
