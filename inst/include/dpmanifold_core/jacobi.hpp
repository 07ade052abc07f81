// Differentials of exp and their adjoints, written once for every manifold.
//
// On a symmetric space the curvature operator R(., gamma') gamma' is parallel
// along the geodesic, so in a transported eigenbasis the Jacobi equation
// decouples: d_p Exp(p, v) = P o C_p and d_v Exp(p, v) = P o C_v, with P the
// parallel transport along the geodesic and C_* diagonal scalings of the
// curvature eigen-components (SPEC section 4). The adjoints are then
// C_* o P^{-1}: transport back to p, then scale.
#ifndef DPMANIFOLD_JACOBI_HPP
#define DPMANIFOLD_JACOBI_HPP

#include "manifold.hpp"

namespace dpmanifold {

// J(1) for J(0) = 1, J'(0) = 0 in an eigen-direction with eigenvalue mu.
inline double jacobi_scale_p(double mu, double L) {
  if (mu > 0) return std::cos(std::sqrt(mu) * L);
  if (mu < 0) return std::cosh(std::sqrt(-mu) * L);
  return 1.0;
}
// J(1) / L-normalised for J(0) = 0, J'(0) = 1 (differential w.r.t. v).
inline double jacobi_scale_v(double mu, double L) {
  if (mu > 0) return sinc(std::sqrt(mu) * L);
  if (mu < 0) return sinhc(std::sqrt(-mu) * L);
  return 1.0;
}

// Transport w from exp_p(v) back to p along the same geodesic (valid even
// beyond the injectivity radius, where "the minimising geodesic" is not it).
inline Vec transport_back(const Manifold& M, const Vec& p, const Vec& v, const Vec& w) {
  Vec y = M.exp(p, v);
  return M.transport_along(y, -M.geodesic_velocity(p, v), w);
}

// d_p Exp(p, v)[u] and d_v Exp(p, v)[u]: tangent vectors at exp_p(v).
inline Vec dexp_p(const Manifold& M, const Vec& p, const Vec& v, const Vec& u) {
  return M.transport_along(p, v, M.jacobi_apply(p, v, u, jacobi_scale_p));
}
inline Vec dexp_v(const Manifold& M, const Vec& p, const Vec& v, const Vec& u) {
  return M.transport_along(p, v, M.jacobi_apply(p, v, u, jacobi_scale_v));
}
// Adjoints: w at exp_p(v) -> tangent vector at p.
inline Vec adjoint_dexp_p(const Manifold& M, const Vec& p, const Vec& v, const Vec& w) {
  return M.jacobi_apply(p, v, transport_back(M, p, v, w), jacobi_scale_p);
}
inline Vec adjoint_dexp_v(const Manifold& M, const Vec& p, const Vec& v, const Vec& w) {
  return M.jacobi_apply(p, v, transport_back(M, p, v, w), jacobi_scale_v);
}

// Both adjoints at once, sharing the transport back (the regression
// gradients need the pair for every data point).
// y must be exp_p(v), which the caller has already computed.
inline void adjoint_dexp_both(const Manifold& M, const Vec& p, const Vec& v, const Vec& y,
                              const Vec& w, Vec& adj_p, Vec& adj_v) {
  Vec wb = M.transport_along(y, -M.geodesic_velocity(p, v), w);
  adj_p = M.jacobi_apply(p, v, wb, jacobi_scale_p);
  adj_v = M.jacobi_apply(p, v, wb, jacobi_scale_v);
}

}  // namespace dpmanifold

#endif
