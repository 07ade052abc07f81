// Hyperbolic space H^d, hyperboloid model: the upper sheet
//   { x in R^(d+1) : <x, x> = -1, x0 > 0 },  <x, y> = -x0 y0 + x1 y1 + ... + xd yd
// (the Minkowski form; the layout of GeodRegr). Constant curvature -1,
// Hadamard. Tangent vectors at p are the v with <v, p> = 0; on them the
// Minkowski form is positive definite and is the metric.
//
// Numerics. Far from the origin o = (1, 0, ..., 0) the ambient coordinates
// grow like e^t and the textbook formulas cancel (arcosh(-<p, q>) loses half
// the digits near q = p, and -<p, q>, <v, v> subtract numbers of size
// x0^2). Here:
// * a point is its spatial part xs (x0 = sqrt(1 + |xs|^2) is recomputed on
//   projection), a tangent vector at p its spatial part vs (v0 = <vs, ps>/p0
//   by tangency);
// * metric, coordinates and basis go through the Lorentz boost B_p that maps
//   o to p: the tangent vector v at p corresponds to y = B_p^-1 v in
//   T_o = {0} x R^d, y = vs - <vs, ps> ps / (p0 (p0 + 1)), and <u, v>_p =
//   y_u . y_v (Euclidean); B_p (0, y) = (<ps, y>, y + <ps, y> ps / (1 + p0));
// * the distance comes from the Minkowski length m of the chord q - p,
//   m = 2 sinh(dist / 2), computed as a quotient of sums of non-negative
//   terms (chord_length below), so that dist = 2 asinh(m / 2) is accurate to
//   rounding for q near p, also far from the origin;
// * log_p(q) = (t / sinh t) (q - p) - t tanh(t / 2) p with t = dist(p, q):
//   the orthogonal part of q - p without forming <p, q>;
// * exp_p(v) over the null vectors p +- e (exp_origin below), so that a
//   geodesic from far out that passes near o does not cancel terms of
//   e^L x0. exp(log) then holds to the conditioning of exp, sinh(L) times
//   the rounding of the direction (2e-10 for pairs about 10 apart, where
//   the textbook form missed by 4e-6, and by a distance of 2.3 for two
//   points 10 from o at a right angle).
// Limits. Rounding a point's coordinates moves it by ~1e-16 x0 in
// hyperbolic distance, and a tangent vector at it carries the same absolute
// error: every geometric quantity is accurate to about 1e-16 x0 (1e-10 at
// distance 15 from o, 1e-7 at 20, 1e-4 at 28; measured). Input points are
// therefore refused beyond x0 = 1e12 (distance ~28.3 from o), where fewer
// than four digits would be left (check_point). Computed points (check_result)
// are accepted up to x0 = 1e100 (distance ~230): then products of two
// coordinates, and cosh(L) p for L up to the distance of two such points,
// stay finite; beyond it a result is a classed "not representable" error in
// R. A point mfd_exp() hands back (check_output) is held to the input limit,
// so that it is one the package accepts back.
// * transport in origin coordinates, the holonomy rotation of the triangle
//   (o, p, q) (transport_origin below): no ambient cancellation.
#ifndef DPMANIFOLD_HYPERBOLIC_HPP
#define DPMANIFOLD_HYPERBOLIC_HPP

#include <memory>

#include "manifold.hpp"

namespace dpmanifold {

namespace hyperbolic_ops {

constexpr double kMaxX0 = 1e100;         // computed points: representable
constexpr double kMaxInputX0 = 1e12;     // input points: accurate to ~1e-4

inline double minkowski(const Vec& x, const Vec& y) {
  const Eigen::Index d = x.size() - 1;
  return -x(0) * y(0) + x.tail(d).dot(y.tail(d));
}

// The point of the upper sheet with spatial part xs.
inline Vec sheet_point(const Vec& xs) {
  Vec x(xs.size() + 1);
  x(0) = std::hypot(1.0, robust_norm(xs));
  x.tail(xs.size()) = xs;
  return x;
}

// Coordinates at the origin (B_p^-1 v, a vector of R^d) of a tangent vector v at p.
inline Vec to_origin(const Vec& p, const Vec& v) {
  const Eigen::Index d = p.size() - 1;
  const double p0 = p(0);
  return v.tail(d) - (v.tail(d).dot(p.tail(d)) / (p0 * (p0 + 1.0))) * p.tail(d);
}
// The tangent vector at p with origin coordinates y: B_p (0, y).
inline Vec from_origin(const Vec& p, const Vec& y) {
  const Eigen::Index d = p.size() - 1;
  const double a = p.tail(d).dot(y);
  Vec v(d + 1);
  v(0) = a;
  v.tail(d) = y + (a / (1.0 + p(0))) * p.tail(d);
  return v;
}

// exp_p(v) for the origin coordinates y of v (v = B_p (0, y)), L = |y|,
// u = y / L: q = cosh(L) p + sinh(L) e with e = B_p (0, u), written as
// q = (e^L n+ + e^-L n-) / 2 over the null vectors n+- = p +- e = B_p (1, +-u).
// Far from the origin cosh(L) p and sinh(L) e nearly cancel when the
// geodesic passes near the origin (terms of 1e12 for a result of 1e4 for
// two points 10 from o at a right angle: exp(log) missed by a distance of
// 2.3, now 3e-8; at 20 from o exp's own conditioning, sinh(L) times the
// rounding of the direction, leaves errors of order 1); here each n is formed
// without cancellation, with h = ps / |ps|, a = |ps|, g = p0 - a =
// 1 / (p0 + a):
//   n0 = p0 + a (h.w) = g + a |h + w|^2 / 2,
//   ns = (w + h) + h (n0 - (1 + n0)(1 + g) / (1 + p0))      (w = +-u),
// so the small one (the direction towards the origin) keeps its relative
// accuracy, and e^L times it is the large term it should be. Below L = 1,
// cosh(L) ps + sinh(L) es (no cancellation beyond a factor e).
inline Vec exp_origin(const Vec& p, const Vec& y) {
  const Eigen::Index d = p.size() - 1;
  const Vec ps = p.tail(d);
  const double L = robust_norm(y);
  if (!(L > 0.0)) return sheet_point(ps);
  const Vec u = y / L;
  // (below L = 1 the terms are at most e times the result, and
  // (e^L - e^-L) / 2 would lose sinh(L)'s relative accuracy as L -> 0)
  if (L < 1.0) return sheet_point(std::cosh(L) * ps + std::sinh(L) * from_origin(p, u).tail(d));
  const double a = robust_norm(ps);
  const Vec h = a > 0.0 ? Vec(ps / a) : Vec(Vec::Unit(d, 0));
  const double p0 = std::hypot(1.0, a);
  const double g = 1.0 / (p0 + a);
  auto null_spatial = [&](const Vec& w) -> Vec {
    const Vec hw = h + w;
    const double n0 = g + 0.5 * a * hw.squaredNorm();
    return hw + (n0 - (1.0 + n0) * (1.0 + g) / (1.0 + p0)) * h;
  };
  const Vec qs = (0.5 * std::exp(L)) * null_spatial(u) + (0.5 * std::exp(-L)) * null_spatial(Vec(-u));
  return sheet_point(qs);
}

// Minkowski length m = sqrt(<q - p, q - p>) = 2 sinh(dist(p, q) / 2) of the
// chord between two points of the sheet. With d = qs - ps, s = qs + ps,
// S = p0 + q0 and d_perp the part of d orthogonal to s,
//   m^2 = (4 |d|^2 + |d_perp|^2 |s|^2) / ((S - |d|)(S + |d|)),
//   S - |d| = 1/(p0 + |ps|) + 1/(q0 + |qs|) + |ps| |qs| |ps^ + qs^|^2 / (|ps| + |qs| + |d|)
// (from m^2 = |d|^2 - (d.s / S)^2 and S^2 - |s|^2 = 4 + m^2): every term is
// non-negative, so nothing cancels.
inline double chord_length(const Vec& p, const Vec& q) {
  const Eigen::Index d = p.size() - 1;
  const Vec ps = p.tail(d), qs = q.tail(d);
  const Vec dl = qs - ps;
  const double nd = robust_norm(dl);
  if (!(nd > 0.0)) return 0.0;
  const Vec sg = qs + ps;
  const double ns = robust_norm(sg);
  double cross = 0.0;  // |d_perp| |s|
  if (ns > 0.0) {
    const Vec sh = sg / ns;
    cross = robust_norm(Vec(dl - dl.dot(sh) * sh)) * ns;
  }
  const double a = robust_norm(ps), b = robust_norm(qs);
  double gap = 1.0 / (p(0) + a) + 1.0 / (q(0) + b);
  if (a > 0.0 && b > 0.0) {
    const double c = robust_norm(Vec(ps / a + qs / b));
    gap += a * b * c * c / (a + b + nd);
  }
  const double S = p(0) + q(0);
  return std::hypot(2.0 * nd, cross) / (std::sqrt(gap) * std::sqrt(S + nd));
}

inline double dist(const Vec& p, const Vec& q) {
  return 2.0 * std::asinh(0.5 * chord_length(p, q));
}

inline Vec log(const Vec& p, const Vec& q) {
  const double t = dist(p, q);
  if (!(t > 0.0)) return Vec::Zero(p.size());
  const Eigen::Index d = p.size() - 1;
  Vec qp(p.size());
  // q0 - p0 = (|qs|^2 - |ps|^2) / (q0 + p0) without cancellation
  qp(0) = (q.tail(d) - p.tail(d)).dot(q.tail(d) + p.tail(d)) / (q(0) + p(0));
  qp.tail(d) = q.tail(d) - p.tail(d);
  return (1.0 / sinhc(t)) * qp - (t * std::tanh(0.5 * t)) * p;
}

// Parallel transport from p to q in origin coordinates (y = B_p^-1 w in,
// B_q^-1 of the result out). B_p is the transport along the geodesic o -> p,
// so B_q^-1 P(p -> q) B_p is the holonomy of the triangle (o, p, q): the
// rotation by its area A in the plane of ps, qs (the identity across it),
// with Poincare-ball coordinates b = xs / (1 + x0) and C the angle at o,
//   tan(A / 2) = |b_p| |b_q| sin C / (1 - |b_p| |b_q| cos C),
// 1 - |b_p| |b_q| cos C = (1 - |b_p|) + |b_p| (1 - |b_q|) + |b_p| |b_q| (1 - cos C),
// 1 - |b| = (1 + 1 / (x0 + |xs|)) / (1 + x0): sums of non-negative terms.
// A rotation keeps |y| to rounding. The ambient form w + <w, q> (p + q) /
// (1 + cosh d) cancels terms of size x0^2 |w| (transport_along's former
// form, e^L times that): relative norm error 3e-8 at distance 7 from o,
// an error of order 1 at 10.
inline Vec transport_origin(const Vec& p, const Vec& q, const Vec& y) {
  const Eigen::Index d = p.size() - 1;
  const Vec ps = p.tail(d), qs = q.tail(d);
  const double a = robust_norm(ps), b = robust_norm(qs);
  if (!(a > 0.0 && b > 0.0)) return y;
  const Vec hp = ps / a, hq = qs / b;
  const Vec n = hq - hq.dot(hp) * hp;
  const double nn = robust_norm(n);
  if (!(nn > 0.0)) return y;  // o, p, q on one geodesic (or d = 1)
  const double s = robust_norm(Vec(hp - hq)), c = robust_norm(Vec(hp + hq));  // 2 sin(C/2), 2 cos(C/2)
  const double p0 = std::hypot(1.0, a), q0 = std::hypot(1.0, b);
  const double ra = a / (1.0 + p0), rb = b / (1.0 + q0);
  const double oma = (1.0 + 1.0 / (p0 + a)) / (1.0 + p0), omb = (1.0 + 1.0 / (q0 + b)) / (1.0 + q0);
  const double A = 2.0 * std::atan2(ra * rb * 0.5 * s * c, oma + ra * omb + ra * rb * 0.5 * s * s);
  const Vec e2 = n / nn;
  const double y1 = y.dot(hp), y2 = y.dot(e2), sh = std::sin(0.5 * A);
  // (negative curvature: the loop o -> p -> q -> o turns vectors against its orientation)
  return y - (2.0 * sh * sh) * (y1 * hp + y2 * e2) - std::sin(A) * (y1 * e2 - y2 * hp);
}

inline Vec transport(const Vec& p, const Vec& q, const Vec& w) {
  return from_origin(q, transport_origin(p, q, to_origin(p, w)));
}

}  // namespace hyperbolic_ops

// Sizes, curvature, polar volume sinh(t)^(d-1) (the untruncated Riemannian
// Laplace law exp(-t/sigma) sinh(t)^(d-1) is proper iff sigma < 1/(d-1),
// laplace_exact.hpp) and the Jacobi operator (K = -1) come from SpaceForm.
class Hyperbolic : public SpaceForm {
 public:
  explicit Hyperbolic(int d) : SpaceForm(d, -1.0) {}
  std::string name() const override { return "hyperbolic"; }
  double injectivity_radius() const override {
    return std::numeric_limits<double>::infinity();
  }

  // x0 is compared with sqrt(1 + |xs|^2) relative to its size (an absolute
  // test of <x, x> + 1 would cancel for points far from the origin).
  std::string check_point(const Vec& p, double tol) const override {
    std::string why = sheet_reason(p, tol);
    if (!why.empty()) return why;
    return check_accuracy(p, tol);
  }
  std::string check_accuracy(const Vec& p, double tol) const override {
    if (!sheet_reason(p, tol).empty() || p(0) <= hyperbolic_ops::kMaxInputX0) return "";
    return "is too far from the origin for the hyperboloid model in double precision (x0 above 1e12, distance "
           "above 28.3, where rounding leaves fewer than 4 correct digits)";
  }
  // A computed point: finite, on the sheet, x0 <= 1e100.
  std::string check_result(const Vec& p) const override {
    if (!p.allFinite()) return "overflows";
    std::string why = sheet_reason(p, 1e-6);
    if (!why.empty()) return why;
    if (!(p(0) <= hyperbolic_ops::kMaxX0))
      return "is too far from the origin for double precision (x0 above 1e100, distance above 230)";
    return "";
  }
  // Returned by mfd_exp(): also within x0 <= 1e12, what check_point accepts
  // (a point beyond it would be refused by every other function).
  std::string check_output(const Vec& p) const override {
    std::string why = check_result(p);
    if (!why.empty() || p(0) <= hyperbolic_ops::kMaxInputX0) return why;
    return "is too far from the origin: x0 above 1e12 (distance above 28.3), beyond the points hyperbolic() accepts";
  }
  // <v, p> = 0, relative to |v| |p| (the rounding of the Minkowski form).
  std::string check_tangent(const Vec& p, const Vec& v, double tol) const override {
    if (v.size() != d_ + 1) return "has the wrong length";
    const double nv = robust_norm(v);
    if (!(nv > 0.0)) return "";
    const double np = robust_norm(p);
    const double off = std::fabs(hyperbolic_ops::minkowski(v / nv, p));
    if (!(off <= tol * std::max(1.0 / nv, np)))
      return "is not a tangent vector at the given point: it is not Minkowski-orthogonal to it (<v, p> != 0)";
    return "";
  }
  Vec project_point(const Vec& x) const override { return hyperbolic_ops::sheet_point(x.tail(d_)); }
  // The Minkowski-orthogonal projection v + <v, p> p.
  Vec project_tangent(const Vec& p, const Vec& v) const override {
    return v + hyperbolic_ops::minkowski(v, p) * p;
  }
  // (length and direction from one vector, the origin coordinates of v:
  // read apart, they were rounded apart by 4e-11 at distance 10)
  Vec exp(const Vec& p, const Vec& v) const override {
    return hyperbolic_ops::exp_origin(p, hyperbolic_ops::to_origin(p, v));
  }
  Vec log(const Vec& p, const Vec& q) const override { return hyperbolic_ops::log(p, q); }
  double dist(const Vec& p, const Vec& q) const override { return hyperbolic_ops::dist(p, q); }
  double inner(const Vec& p, const Vec& u, const Vec& v) const override {
    return hyperbolic_ops::to_origin(p, u).dot(hyperbolic_ops::to_origin(p, v));
  }
  // In origin coordinates (transport_origin): the result is tangent at q
  // by construction (from_origin) and keeps the norm to rounding.
  Vec transport(const Vec& p, const Vec& q, const Vec& w) const override {
    return hyperbolic_ops::transport(p, q, w);
  }
  // Along t -> exp_p(t v): to its end point, on the unique geodesic.
  Vec transport_along(const Vec& p, const Vec& v, const Vec& w) const override {
    const Vec y = hyperbolic_ops::to_origin(p, v);
    if (!(robust_norm(y) > 1e-300)) return w;
    return hyperbolic_ops::transport(p, hyperbolic_ops::exp_origin(p, y), w);
  }
  // The boost of the standard basis of T_o: O(d) per vector.
  Mat tangent_basis(const Vec& p) const override {
    Mat B(d_ + 1, d_);
    Vec y = Vec::Zero(d_);
    for (int j = 0; j < d_; ++j) {
      poll_interrupt();
      y(j) = 1.0;
      B.col(j) = hyperbolic_ops::from_origin(p, y);
      y(j) = 0.0;
    }
    return B;
  }
  Vec tangent_coords(const Vec& p, const Vec& v) const override {
    return hyperbolic_ops::to_origin(p, v);
  }
  std::function<Vec(const Vec&)> exp_coords_from(const Vec& p) const override {
    return [p](const Vec& z) {
      return hyperbolic_ops::exp_origin(p, z);
    };
  }
  Vec random_tangent(const Vec& p, Rng& rng) const override {
    Vec z(d_);
    for (int i = 0; i < d_; ++i) z(i) = rng.normal();
    return hyperbolic_ops::from_origin(p, z);
  }
  // exp at the origin of an isotropic standard Gaussian tangent vector,
  // (cosh |z|, sinh(|z|) z / |z|), with z scaled by 4 / sqrt(d) above
  // d = 16: unscaled, |z| ~ sqrt(d) and x0 ~ e^sqrt(d) / 2 passes the 1e12
  // that hyperbolic() accepts as input from d ~ 800 (Inf from d ~ 5e5).
  Vec random_point(Rng& rng) const override {
    Vec z(d_);
    for (int i = 0; i < d_; ++i) z(i) = rng.normal();
    if (d_ > 16) z *= 4.0 / std::sqrt(static_cast<double>(d_));
    return hyperbolic_ops::sheet_point(sinhc(robust_norm(z)) * z);
  }

 protected:
  // |v| = |B_p^-1 v| (Euclidean in the origin's frame).
  double tangent_length(const Vec& p, const Vec& v) const override {
    return robust_norm(hyperbolic_ops::to_origin(p, v));
  }

 private:
  std::string sheet_reason(const Vec& p, double tol) const {
    if (p.size() != d_ + 1) return "has the wrong length";
    if (!p.allFinite()) return "is not finite";
    const double target = std::hypot(1.0, robust_norm(p.tail(d_)));
    const double slack = tol * std::max(1.0, target);
    if (p(0) < 0.0 && std::fabs(-p(0) - target) <= slack)
      return "is on the lower sheet of the hyperboloid (x0 < 0); points of hyperbolic() have x0 > 0";
    if (!(std::fabs(p(0) - target) <= slack))
      return "does not satisfy <x, x> = -1 for the Minkowski form -x0^2 + x1^2 + ... (with x0 > 0)";
    return "";
  }
};

}  // namespace dpmanifold

#endif
