#' Differentially private geodesic regression
#'
#' Releases a geodesic \eqn{x \mapsto Exp_p((x - x_0) v)} fitted to
#' covariates `x` and manifold-valued responses `y` under epsilon-differential
#' privacy. `p` is the footpoint at \eqn{x_0}, **the middle of the public
#' `x_range`**, and `v` the velocity per unit of `x`; [predict()],
#' [coef()] and [print()] work in the units of `x`.
#'
#' **Public inputs.** The responses are clipped to the public ball
#' \eqn{B_r(center)}, the covariate is clamped to the public `x_range` and
#' rescaled to \eqn{t = (x - x_0)/w_x \in [-1/2, 1/2]} (\eqn{w_x} the width
#' of the range; centring makes the Gauss-Newton matrix of a symmetric
#' design diagonal and halves the velocity sensitivity), and every residual
#' is clipped to norm `tau` inside the gradients. Bounds that are not given
#' are taken from the data with a [dpmanifold_privacy_leak] warning, and the
#' release is then marked not private.
#'
#' **Which method (the default).** `method = "auto"` decides by a public
#' rule of n, epsilon, \eqn{\tau_e}, the domain (R = `p_radius`, V =
#' `v_bound`) and the dimension d of M (no data): `"linearised"` when
#' (a) its moment noise is expected to cost at most half the excess energy
#' of the energy law, \eqn{(28/3)(d+1)/(s^2 n\epsilon) \le 1/2} with
#' s = 0.65 the moments' share, i.e. \eqn{n\epsilon \ge 44.2(d+1)} (133 on
#' S^2, 177 on SPD(2)), and (b) its first stage localises: with
#' \eqn{\epsilon_1 = 0.2\epsilon} and the energy law's width \eqn{w = \tau_e/\sqrt{n\epsilon_1}},
#' \eqn{n\epsilon_1/2 \ge d(\log(R/w) + \log(V/(\sqrt{12}w))) + 5} (the
#' plateau of that law, where every residual is clipped, then carries
#' relative weight below \eqn{e^{-5}}; without it the first stage lands
#' anywhere in the domain and the second cannot recover); otherwise
#' `"energy"`. The excess energy of the energy law is
#' about \eqn{d\tau^2/\epsilon} in total (\eqn{d\tau^2/(n\epsilon)} as a mean
#' over records) whatever n and the domain, so it stays near the fit at
#' small \eqn{n\epsilon}; the linearised release's falls like
#' \eqn{d^2\tau^2/(n\epsilon^2)}, but it also carries the error of its
#' design statistics times the error of its first stage, which dominates at
#' small \eqn{n\epsilon} (the factor 1/2). The joint KNG law is not chosen
#' by default: its law sits on the plateau of the public domain until
#' \eqn{n\epsilon} is large and its chain did not mix on SPD(2) and Kendall
#' shape spaces at any tested n. On `euclidean()` every method is the exact
#' SSP law below.
#'
#' **The joint KNG law** (`method = "joint"`). With
#' \eqn{E(p, v) = (2n)^{-1}\sum_i d(Exp_p(t_i v), y_i)^2} and the gradients
#' of Kulkarni and Soto (eq. 5-8, exact Jacobi adjoints), the release has
#' density
#' \deqn{f(p, v) \propto \exp(-\|(\nabla_p E, w \nabla_v E)(p, v)\| / \sigma),
#' \quad \sigma = 2\Delta/\epsilon,}
#' on the domain \eqn{d(center, p) \le R}, \eqn{|v| \le V} (defaults
#' \eqn{R = r}, \eqn{V = 2r}: the fitted curve at mid-range lies in the
#' data ball and changes by at most its diameter over the range; smaller or
#' larger public values via `p_radius`, `v_bound`), with respect to
#' Lebesgue measure in normal coordinates at `center` (p written as
#' \eqn{Exp_{center}(a)}, v as the transport of b from `center`). It is an
#' exponential mechanism, hence epsilon-DP for any data.
#'
#' *Sensitivity.* Replacing one record changes the gradient pair by the
#' difference of two single-record terms \eqn{n^{-1}(A\epsilon, w t B\epsilon)},
#' with \eqn{A = d_pExp^\dagger}, \eqn{B = d_vExp^\dagger} at \eqn{(p, tv)}
#' and \eqn{|\epsilon| \le \tau_e = \min(\tau, r + R + V/2)} (the second
#' term bounds every residual on the domain, so a huge `tau` is harmless).
#' In the curvature eigenbasis transported back to p (SPEC section 4) A and B
#' are diagonal with entries \eqn{\cos(\sqrt\mu L)}, \eqn{sinc(\sqrt\mu L)}
#' (\eqn{\mu > 0}) or \eqn{\cosh}, \eqn{\sinh(\cdot)/\cdot} (\eqn{\mu < 0}),
#' \eqn{L = |t||v| \le V/2}, so
#' \eqn{\|(A\epsilon, wtB\epsilon)\|^2 = \sum_k \epsilon_k^2(a_k^2 + w^2t^2b_k^2)
#' \le \tau_e^2 J^2} with \eqn{J^2 = 1 + w^2/4} when
#' \eqn{\kappa_{min} \ge 0} and \eqn{J^2 = \cosh^2 s + (w^2/4)(\sinh s/s)^2},
#' \eqn{s = \sqrt{-\kappa_{min}} V/2}, otherwise. Hence
#' \deqn{\Delta = 2\tau_e J / n = \sqrt{\Delta_p^2 + w^2\Delta_v^2},\quad
#' \Delta_p = 2\tau_e J_p/n,\ \Delta_v = \tau_e J_v/n,}
#' attained in the flat directions by a record at \eqn{t = 1/2} whose
#' residual of norm \eqn{\tau} is reversed. The weight is public:
#' \eqn{w^4 = 48 J_p^2/J_v^2} minimises the expected excess energy
#' \eqn{(|\delta p|^2 + |\delta v|^2/12)/2} of the law for a design spread
#' evenly over the range (\eqn{w = 48^{1/4} \approx 2.63} on flat and
#' positively curved spaces).
#'
#' *Two stages.* A share `localise` of epsilon (default 10%) first releases
#' an exact private localisation: the line of the tangent coordinates
#' \eqn{Log_{center}(y_i)} drawn from the exact linear KNG law (density
#' \eqn{\exp(-|(G_a, wG_b)|/\sigma)} of the affine least-squares gradient
#' \eqn{G(a, b)}, residuals unclipped; K-norm draws around the least-squares
#' line, rejected outside the domain, alternating with uniform proposals), with
#' the exact diameter bound
#' \deqn{n\Delta = \max_{b \in [0,1]} (1-b)\sqrt{V^2 + w^2(R_c + bV)^2} +
#' r \max(\sqrt{4 + w^2b^2}, w(1-b)),}
#' \eqn{R_c} the largest distance of a domain footpoint from the centre,
#' \eqn{V} the largest velocity: the single-record term is
#' \eqn{(e, wte)} with \eqn{e = z - a - tb}; writing \eqn{z = r u}, the
#' difference of two such terms splits into a part from the line,
#' \eqn{|t - t'|\,\|(b, w(a + (t + t')b))\|}, and \eqn{r} times the
#' norm of \eqn{(u - u', w(tu - t'u'))} over unit \eqn{u, u'}, which is
#' \eqn{\sqrt{4 + w^2(t+t')^2}} or \eqn{w|t - t'|}; with \eqn{b = |t + t'|}
#' and \eqn{|t - t'| \le 1 - b} this is the maximum above (evaluated on a
#' grid of b with a Lipschitz margin). The joint law
#' then runs on the public domain intersected with a ball around that first
#' release whose radius is a public quantile (99.9%) of the first stage's
#' noise plus an allowance for the curvature of the tangent approximation.
#' That domain is a post-processing of an epsilon-DP release, so the second
#' stage's guarantee holds for it; the total is `epsilon` (basic
#' composition). On negatively curved spaces the smaller domain also lowers
#' \eqn{\Delta} (through \eqn{V}); everywhere it removes the flat plateau
#' where every residual is clipped. `localise = 0` runs one stage on the
#' public domain. When the first stage's public noise scale shows that it
#' cannot shrink the domain (small n epsilon), the whole budget goes to one
#' stage (a decision from public quantities only).
#'
#' *Samplers.* The joint law is drawn exactly, by uniform proposals on the
#' domain accepted with the KNG density, when the public bound
#' \eqn{e^{n\epsilon/4}} on the expected number of proposals is affordable
#' (`sampler = "auto"` decides from public quantities only; the running time
#' depends on the data, the number of proposals is never returned).
#' Otherwise (or with `sampler = "mcmc"`) it is drawn by a random-walk
#' Metropolis chain in the chart, started at the first stage's release (or
#' the centre), with a fixed step \eqn{2.4\sigma} and the proposal shaped by
#' the Gauss-Newton matrix of the public design (velocity coordinates scaled
#' by \eqn{1/(w/12)}), so nothing about the data enters the proposal. A
#' finite chain is (epsilon, delta)-DP with an unknown delta, and the
#' release says so.
#'
#' **`method = "energy"`: the exponential mechanism on the clipped energy.**
#' With \eqn{u(p, v) = \sum_i \min(d(Exp_p(t_i v), y_i)^2, \tau_e^2)/2}
#' (\eqn{\tau_e = \min(\tau, r + R + V/2)}) the release has density
#' \deqn{f(p, v) \propto \exp(-\epsilon\, u(p, v) / \tau_e^2)}
#' on the public domain (the same chart and base measure as above).
#' *Privacy.* Each record contributes a value in \eqn{[0, \tau_e^2/2]} to
#' \eqn{u} at every \eqn{(p, v)}, so replacing one record moves \eqn{u} by at
#' most \eqn{\Delta_u = \tau_e^2/2} everywhere; the density is
#' \eqn{\exp(-\epsilon u / (2\Delta_u))}, the exponential mechanism of
#' McSherry and Talwar, epsilon-DP for any data. *Why.* The clipped loss is
#' flat (\eqn{n\tau_e^2/2}) far from the data, so unlike the KNG law, whose
#' gradient norm is bounded once residuals are clipped, the far region
#' carries weight \eqn{e^{-n\epsilon/2}}; near the fit the law is about
#' Gaussian with covariance \eqn{\tau_e^2 (n\epsilon)^{-1} H^{-1}}, an
#' expected excess energy of about \eqn{d\tau_e^2/(n\epsilon)} (d the
#' dimension of M). Its rate is \eqn{1/\sqrt{n\epsilon}} against the KNG
#' law's \eqn{1/(n\epsilon)}, but it stays near the fit at small
#' \eqn{n\epsilon} and on large public domains, where the KNG law does not.
#' *Sampler.* A random-walk chain in the chart from the public start (the
#' centre, zero velocity), first through a public schedule of laws with
#' clip levels \eqn{\tau_e 2^k} (\eqn{k = K, \dots, 1}, \eqn{\tau_e 2^K \ge
#' r + R + V/2}), which leads it into the basin of
#' the fit (these levels see a random subsample of
#' \eqn{m = \min(n, 100(d+1))} records, indices from R's RNG, with the
#' energy scaled by n/m; \eqn{1000 d} steps each: with \eqn{100 d} steps
#' 2 in 60 chains on S^2 at \eqn{n\epsilon = 40} ended far from the fit),
#' then `burnin + steps` steps on the released law, on all records; step
#' \eqn{2.38/\sqrt{2d}} times the law's public width
#' \eqn{\tau_k/\sqrt{n\epsilon}} (velocity coordinates times
#' \eqn{\sqrt{12}}, the Gauss-Newton scale of the public design). A finite
#' chain is (epsilon, delta)-DP with an unknown delta, and the release says
#' so. On `euclidean()` every method is the SSP law below.
#'
#' **Sufficient-statistics perturbation (SSP): `method = "tangent"` and the
#' Euclidean case.** Responses are written as coordinates
#' \eqn{z_i \in R^d} with \eqn{|z_i| \le r} (on `euclidean()` \eqn{z_i = y_i -
#' center}, every method; for `"tangent"` \eqn{z_i = Log_{center}(y_i)} in an
#' orthonormal basis), and the line \eqn{z = a + t b} is the least-squares
#' solution of \eqn{G (a, b) = (\sum z_i, \sum t_i z_i)} with the design
#' \eqn{G = [[n, S_t], [S_t, S_{tt}]]}, \eqn{S_t = \sum t_i},
#' \eqn{S_{tt} = \sum t_i^2}. The release perturbs these statistics once
#' (exact, no sampler) and solves:
#' * *Moments*, written at the two ends of the range:
#'   \eqn{T_\pm = \sum_i z_i \phi_\pm(t_i)}, \eqn{\phi_\pm(t) = 1/2 \pm t \in
#'   [0, 1]}, \eqn{\phi_+ + \phi_- = 1} (so \eqn{\sum z_i = T_+ + T_-},
#'   \eqn{\sum t_i z_i = (T_+ - T_-)/2}). Replacing one record \eqn{(z, t)}
#'   by \eqn{(z', t')} changes them by \eqn{z\phi_\pm(t) - z'\phi_\pm(t')}, so
#'   \eqn{|\Delta T_+| + |\Delta T_-| \le |z|(\phi_+ + \phi_-)(t) +
#'   |z'|(\phi_+ + \phi_-)(t') \le 2r}, attained by \eqn{z' = -z},
#'   \eqn{|z| = r}, \eqn{t' = t}. This l1-of-l2 norm is the norm whose unit
#'   ball is the convex hull of all changes (the K-norm of Hardt and Talwar):
#'   the hull is \eqn{2\,conv\{(z, tz): |z| \le r, t = \pm 1/2\}}. Noise of
#'   density \eqn{\propto \exp(-\epsilon_T(|\nu_+| + |\nu_-|)/(2r))}: two
#'   independent vectors of radius Gamma(d, \eqn{2r/\epsilon_T}) in uniform
#'   directions; \eqn{\epsilon_T}-DP. (In d = 1 the hull is a box and the
#'   noise two Laplace variables; against a weighted l2 ball it lowers the
#'   expected excess energy by 29\% in d = 1 and 36\% in d = 2.)
#' * *Design*: \eqn{S_t} and \eqn{S_{tt}} with independent Laplace noise of
#'   scales \eqn{\alpha/\epsilon_G}, \eqn{\beta/\epsilon_G},
#'   \eqn{\beta = c\alpha}, \eqn{\alpha = (1+c)^2/(4c)}, c = 0.3. Replacing
#'   t by t' gives \eqn{|\Delta S_t|/\alpha + |\Delta S_{tt}|/\beta =
#'   |t - t'|(1/\alpha + |t + t'|/\beta) \le \max_{s \in [0,1]} (1 - s)(1/\alpha
#'   + s/\beta) = 1} (as \eqn{|t - t'| + |t + t'| \le 1} on \eqn{[-1/2, 1/2]});
#'   \eqn{\epsilon_G}-DP. n is public (replace-one neighbours).
#' * *Split*: \eqn{\epsilon_G = s\epsilon}, \eqn{\epsilon_T = (1-s)\epsilon},
#'   \eqn{s = k/(1+k)}, \eqn{k = (A_G/A_T)^{1/3}}, which minimises the
#'   expected excess energy \eqn{A_G/s^2 + A_T/(1-s)^2} of a design spread
#'   evenly over the range with the slope over the range taken as r:
#'   \eqn{A_G = 2(\alpha^2 + 12\beta^2)r^2}, \eqn{A_T = 32 d(d+1) r^2}
#'   (s = 0.335 for d = 1, 0.26 for d = 2; public).
#' * *Post-processing*: \eqn{S_t} clamped to \eqn{[-n/2, n/2]}, the centred
#'   \eqn{S_{tt} - S_t^2/n} floored at the design noise scale
#'   \eqn{\beta/\epsilon_G}, the least-squares solution, then a and b
#'   projected onto the public domain (\eqn{|a| \le} `p_radius`,
#'   \eqn{|b| \le} `v_bound`).
#' The total is epsilon-DP by basic composition, for any data (a constant
#' covariate included). For `"tangent"` the geodesic through
#' \eqn{Exp_{center}(a \pm b/2)} is returned. It is exact and fast (O(n)),
#' but biased where the data spread far from the centre: the tangent line of a
#' geodesic that misses the centre is curved, by about \eqn{\kappa r^2} times
#' the length of the geodesic. On flat spaces (`euclidean()`, log-Euclidean
#' `spd()`) it has no bias. `tau`, `localise` and `weight` are not used.
#'
#' **`method = "linearised"`: localise, then regress the linearised
#' residuals by a split SSP.** (1) The energy law above at \eqn{\epsilon_1 =
#' 0.2\epsilon} releases a geodesic \eqn{(p_1, v_1)}. (2) Record i gives
#' \eqn{z_i}, the coordinates in an orthonormal basis of \eqn{T_{p_1}M} of
#' \eqn{Log_{q_i}(y_i)}, \eqn{q_i = Exp_{p_1}(t_i v_1)}, clipped to norm
#' \eqn{\tau_e} and transported back to \eqn{p_1} along the geodesic: a
#' function of record i and the released \eqn{(p_1, v_1)} only, with
#' \eqn{|z_i| \le \tau_e}. (3) The line \eqn{z = \delta a + t\,\delta b}
#' is released from statistics summed on each side of the middle of the
#' range (a Wald-type estimator):
#' * *Moments* \eqn{T_+ = \sum_{t_i > 0} z_i}, \eqn{T_- = \sum_{t_i \le 0}
#'   z_i}. A replaced record changes \eqn{(T_+, T_-)} by \eqn{(z - z', 0)},
#'   \eqn{(0, z - z')} or \eqn{\pm(z, -z')}, so the hull of the changes is
#'   \eqn{\{|u| + |w| \le 2\tau_e\}}, the same as for the least-squares
#'   moments above; but the slope's signal \eqn{\sum sign(t_i) t_i \approx
#'   n/4} is 3/2 times theirs (\eqn{2\sum t_i^2 \approx n/6}), which lowers the
#'   expected excess energy of the moment noise from
#'   \eqn{16d(d+1)\tau_e^2/(\epsilon_T^2 n)} to \eqn{(28/3)d(d+1)\tau_e^2/
#'   (\epsilon_T^2 n)} (design spread evenly). Against the non-private fit
#'   the estimator's lower statistical efficiency costs a relative excess of
#'   about 1/(3n). Noise: two independent vectors of radius
#'   Gamma(d, \eqn{2\tau_e/\epsilon_T}), uniform directions.
#' * *Design* \eqn{(S_s, S_t, S_a) = \sum_i (sign\,t_i, t_i, |t_i|)}
#'   (sign 0 = -1). Per record, \eqn{(sign\,t, t^+, t^-)} has barycentric
#'   coordinates \eqn{\beta(t)} in the simplex with vertices (1, 0, 0),
#'   (1, 1/2, 0), (-1, 0, 0), (-1, 0, 1/2); the design is a linear map of
#'   \eqn{B = \sum_i \beta(t_i)}, and a replaced record changes B by a
#'   vector of the difference body \eqn{K = \{y \in R^4: \sum y = 0,
#'   \sum |y| \le 2\}}, which is the exact hull of the changes. The K-norm
#'   mechanism (Hardt and Talwar): B plus a radius Gamma(4, \eqn{1/\epsilon_G})
#'   times a uniform point of K (rejection from a cube, acceptance 5/12);
#'   \eqn{\epsilon_G}-DP. Its expected loss is 2.5 times smaller than the
#'   best independent Laplace noise on the three sums.
#' * *Solve*: \eqn{[n, S_t; S_s, S_a](\delta a, \delta b) = (T_+ + T_-,
#'   T_+ - T_-)}, after clamping the design to its range and flooring
#'   \eqn{S_a - S_t S_s/n} at \eqn{1/\epsilon_G}.
#' (4) The release is the Gauss-Newton step
#' \eqn{p = Exp_{p_1}(c_a\delta a)}, v the transport of \eqn{v_1 +
#' c_b\delta b} to p (Jacobi fields taken as parallel transport, an error of
#' order \eqn{\kappa |t v|^2} in the step), projected onto the public
#' domain. \eqn{c_a, c_b \in (0, 1)} weigh the two stages by their inverse
#' public variances (the first stage's error has covariance about
#' \eqn{(\tau_e^2/\epsilon_1) H^{-1}}; the step's error is the moment noise
#' plus the design noise times that error, uncorrelated with it): about
#' 0.9 in the S^2 setting below, where over 100 data sets it lowers the
#' excess energy by a median 10\%. Shares: \eqn{\epsilon_1 = 0.2\epsilon}, \eqn{\epsilon_G = 0.15\epsilon},
#' \eqn{\epsilon_T = 0.65\epsilon} (public constants, from a grid on the
#' S^2 setting below). *Privacy.* For every value of the first release,
#' step (3) is \eqn{(\epsilon_G + \epsilon_T)}-DP; by adaptive composition
#' the total is epsilon. The first stage is a chain, so the release says
#' MCMC (delta unknown). *Error.* In the S^2 setting of Kulkarni and Soto at
#' n = 200, epsilon = 1 (100 data sets): median energy ratio about 1.07-1.10;
#' with the least-squares SSP instead of the split one, 1.12 (design noise
#' times the first stage's error dominates there); with a perfect first
#' stage and no design noise, 1.05.
#'
#' **`method = "sequential"`** is the procedure of the seed paper (appendix
#' A): \eqn{\tilde p} by KNG on \eqn{\nabla_p E} with the non-private
#' \eqn{\hat v} carried to each p (budget `epsilon["p"]`), then
#' \eqn{\tilde v} by KNG on \eqn{\nabla_v E} at \eqn{\tilde p}. **It is not
#' differentially private**: the p-step's density depends on the data through
#' \eqn{\hat v}. It raises a [dpmanifold_privacy_leak] warning and the release
#' is marked not private; use it to reproduce the paper's figures.
#'
#' @param M A manifold, see [manifolds].
#' @param x Numeric covariate (a constant covariate is a valid input).
#' @param y Responses in the layout of `M`.
#' @param epsilon Total privacy budget; for `"sequential"` a scalar (split
#'   equally) or `c(p = , v = )`.
#' @param tau Public bound on residual norms (residuals are clipped to it).
#'   Missing: the largest residual of the non-private fit, with a
#'   [dpmanifold_privacy_leak] warning. Not used by `"tangent"` and on
#'   `euclidean()`.
#' @param center,radius Public ball holding the responses (radius below
#'   [max_radius()]). Missing: taken from the data, with the warning.
#' @param x_range Public covariate range (two increasing numbers). Missing:
#'   `range(x)`, with the warning.
#' @param method `"auto"` (the default: `"linearised"` or `"energy"` by the
#'   public rule in Details), `"energy"`, `"linearised"`, `"joint"`,
#'   `"tangent"` or `"sequential"`; on `euclidean()` every private method is
#'   the exact SSP law.
#' @param p_radius,v_bound Public domain of the law: the footpoint within
#'   `p_radius` of `center` (default `radius`; below the injectivity radius),
#'   the velocity over the whole `x_range` of norm at most `v_bound` (default
#'   `2 * radius`).
#' @param localise Share of `epsilon` spent on the first stage of the joint
#'   law (in [0, 1)).
#' @param weight Public weight w of the velocity gradient (default: see
#'   Details).
#' @param sampler `"auto"`, `"exact"` or `"mcmc"` (joint method; `"energy"`
#'   and `"linearised"` are always a chain, `"tangent"` and the Euclidean
#'   case always exact).
#' @param mcmc Chain settings ([mcmc_control()]; `burnin` and `steps` add up
#'   to the chain length, `step` overrides the public step). Default, with
#'   d the dimension of `M`: burn-in and steps of 1000 d each for the energy
#'   law (also the first stage of `"linearised"`; shorter chains were
#'   under-dispersed against chains 20 times longer), 300 d each for the
#'   joint law and the sequential procedure.
#' @param return_nonprivate Also return the non-private fit, the number of
#'   clipped responses and clamped covariates in `$nonprivate` (for studies:
#'   raises the privacy-leak warning and marks the release not private).
#' @return A [dp_release] whose `estimate` is `list(p, v, x0, x_range)`
#'   (footpoint at `x0`, the middle of `x_range`; velocity per unit of x).
#'   `sensitivity` and `sigma` are named by stage (`joint`, `localise`;
#'   `energy` for `"energy"`, with sigma the temperature T; `design`,
#'   `moments` for the SSP laws, plus `energy` for `"linearised"`;
#'   `p`, `v` for `"sequential"`), `bounds` holds the public bounds and the
#'   second stage's domain, `sampler` the kind and public settings.
#' @references Kulkarni and Soto, Differentially private geodesic regression
#'   (eq. 5-8 and 20/44, appendices A and C); Soto, Bharath, Reimherr and
#'   Slavkovic (2022) for KNG; Reimherr and Awan (2019), KNG: the K-norm
#'   gradient mechanism; McSherry and Talwar (2007), Mechanism design via
#'   differential privacy (the exponential mechanism, `method = "energy"`);
#'   Hardt and Talwar (2010), On the geometry of differential privacy (the
#'   K-norm mechanism); Foulds, Geumlek, Welling and Chaudhuri (2016) and
#'   Wang (2018), Revisiting differentially private linear regression
#'   (sufficient-statistics perturbation).
#' @examples
#' S2 <- sphere(2)
#' x <- runif(100)
#' mid <- c(0, 0, 1)
#' truth <- mfd_exp(S2, mid, outer(x - 0.5, c(0.5, 0.2, 0)))
#' y <- mfd_exp(S2, truth, 0.03 * mfd_random_tangent(S2, truth, 100))
#' rel <- dp_geodesic_regression(S2, x, y, epsilon = 1, tau = 0.15,
#'                               center = mid, radius = 0.45, x_range = c(0, 1))
#' rel
#' predict(rel, c(0, 0.5, 1))
#' dp_geodesic_regression(S2, x, y, epsilon = 1, center = mid, radius = 0.45,
#'                        x_range = c(0, 1), method = "tangent")
#' dp_geodesic_regression(S2, x, y, epsilon = 1, tau = 0.15, center = mid, radius = 0.45,
#'                        x_range = c(0, 1), method = "energy")
#' dp_geodesic_regression(S2, x, y, epsilon = 2, tau = 0.15, center = mid, radius = 0.45,
#'                        x_range = c(0, 1), method = "linearised")
#' # DP linear regression
#' xe <- runif(500)
#' ye <- 1 + 2 * xe + rnorm(500, sd = 0.5)
#' coef(dp_geodesic_regression(euclidean(1), xe, ye, epsilon = 1, center = 2,
#'                             radius = 2.5, x_range = c(0, 1)))
#' @export
dp_geodesic_regression <- function(M, x, y, epsilon, tau = NULL, center = NULL, radius = NULL,
                                   x_range = NULL, method = c("auto", "energy", "linearised", "joint", "tangent", "sequential"),
                                   p_radius = NULL, v_bound = NULL, localise = 0.1, weight = NULL,
                                   sampler = c("auto", "exact", "mcmc"), mcmc = NULL,
                                   return_nonprivate = FALSE) {
  cl <- match.call()
  check_manifold(M)
  method <- check_choice(method, c("auto", "energy", "linearised", "joint", "tangent", "sequential"), "method")
  sampler <- check_choice(sampler, c("auto", "exact", "mcmc"), "sampler")
  check_flag(return_nonprivate, "return_nonprivate")
  eps <- resolve_regression_epsilon(if (missing(epsilon)) NULL else epsilon, method)
  check_share(localise)
  if (!is.null(weight)) check_positive_number(weight, "weight")
  if (!is.null(mcmc) && !inherits(mcmc, "mcmc_control")) abort_arg("mcmc", "must come from mcmc_control()")
  flat <- inherits(M, "euclidean")
  exact_only <- flat || method == "tangent"
  if (exact_only && sampler == "mcmc") {
    abort_arg("sampler", sprintf("\"mcmc\" does not apply: %s is always drawn exactly",
                                 if (flat) "DP linear regression" else "method = \"tangent\""))
  }
  if (method %in% c("energy", "linearised", "auto") && !flat && sampler == "exact") {
    abort_arg("sampler", sprintf("\"exact\" does not apply to method = \"%s\" (drawn by a chain); use \"auto\" or \"mcmc\"", method))
  }
  Y <- as_data_points(M, y, "y")
  n <- ncol(Y)
  if (method == "auto" && flat) method <- "ssp"
  cv <- private_covariate(x, n, x_range)
  b <- resolve_ball(M, Y, center, radius)
  Y <- b$X
  inferred <- c(b$inferred, cv$inferred)
  R0 <- domain_radius(p_radius, b$radius, "p_radius", M)
  V0 <- if (is.null(v_bound)) 2 * b$radius else check_positive_number(v_bound, "v_bound")
  check_regression_representable(M, b$radius, R0, V0, p_radius, v_bound)
  uses_tau <- !exact_only
  fit <- NULL
  nonprivate_fit <- function() {
    if (is.null(fit)) fit <<- regression_fit_centred(M, cv$t, Y)
    fit
  }
  if (uses_tau && is.null(tau)) {
    f <- nonprivate_fit()
    tau <- max(f$residual_norms, 1e-8)
    warn_privacy_leak("`tau` (the largest residual of the non-private fit) was")
    inferred <- c(inferred, "tau")
  }
  if (!is.null(tau)) check_positive_number(tau, "tau")
  # the default: a public rule of n, epsilon, tau, the domain and the
  # dimension (see Details)
  if (method == "auto") method <- auto_method(M, n, eps, residual_bound(tau, b$radius, R0, V0), R0, V0)

  ctx <- list(M = M, t = cv$t, Y = Y, n = n, center = b$center, radius = b$radius, R0 = R0, V0 = V0,
              tau = tau, weight = weight, share = localise, sampler = sampler, mcmc = mcmc)
  out <- if (method == "sequential") {
    release_sequential(ctx, eps, nonprivate_fit())
  } else if (exact_only) {
    release_tangent(ctx, eps)
  } else if (method == "energy") {
    release_energy(ctx, eps)
  } else if (method == "linearised") {
    release_linearised(ctx, eps)
  } else {
    release_joint(ctx, eps)
  }

  privacy <- list(type = "pure", epsilon = sum(eps), delta = 0)
  if (length(out$split)) privacy$split <- out$split
  if (method == "sequential") {
    privacy$split <- eps
    privacy$not_private <- "method = \"sequential\": the p-step uses the non-private v-hat"
  }
  width <- diff(cv$range)
  x0 <- mean(cv$range)
  nonprivate <- NULL
  if (return_nonprivate) {
    warn_privacy_leak(msg = "`return_nonprivate = TRUE` stores the non-private fit and clipped counts: this release is NOT private.")
    f <- tryCatch(nonprivate_fit(), dpmanifold_error = function(e) NULL)
    nonprivate <- list(clipped = c(y = b$clipped, x = cv$clamped))
    if (!is.null(f)) {
      nonprivate <- c(list(p = from_ambient(M, matrix(f$p), single = TRUE),
                           v = from_ambient(M, matrix(f$v / width), single = TRUE),
                           energy = f$energy,
                           energy_at_release = cpp_regression_energy(M, cv$t, Y, out$p, out$v)),
                      nonprivate)
    }
  }
  bounds <- list(center = from_ambient(M, matrix(b$center), single = TRUE), radius = b$radius,
                 tau = tau, p_radius = R0, v_bound = V0, x_range = cv$range, weight = out$weight,
                 domain = out$domain, inferred = inferred)
  bounds <- bounds[!vapply(bounds, is.null, logical(1))]
  new_dp_release(
    estimate = list(p = from_ambient(M, matrix(out$p), single = TRUE),
                    v = from_ambient(M, matrix(out$v / width), single = TRUE),
                    x0 = x0, x_range = cv$range),
    manifold = M, mechanism = out$mechanism %||% "kng", statistic = "geodesic_regression", privacy = privacy,
    sensitivity = out$sensitivity, sigma = out$sigma, bounds = bounds, n = n,
    sampler = out$sampler, nonprivate = nonprivate, call = cl, method = method)
}

# ---------------------------------------------------------------------------
# Inputs

# The covariate: numeric, finite, one value per response. Rescaled by the
# public range to t in [-1/2, 1/2] (clamped). A constant covariate is valid.
private_covariate <- function(x, n, x_range, call = sys.call(-1)) {
  if (!is.numeric(x) || (!is.null(dim(x)) && length(dim(x)) > 1 && min(dim(x)) > 1)) {
    abort_arg("x", "must be a numeric vector", call)
  }
  x <- as.numeric(x)
  if (length(x) != n) abort_arg("x", sprintf("has length %d but `y` has %d points", length(x), n), call)
  if (any(!is.finite(x))) abort_arg("x", "contains NA, NaN or Inf values", call)
  if (n < 2L) abort_arg("y", "must hold at least 2 points", call)
  inferred <- character()
  if (is.null(x_range)) {
    warn_privacy_leak("`x_range` (the range of x) was", call)
    x_range <- range(x)
    if (!(x_range[2] > x_range[1])) {
      abort_arg("x_range", "is required: it cannot be taken from a constant covariate", call)
    }
    inferred <- "x_range"
  }
  ok <- is.numeric(x_range) && length(x_range) == 2 && all(is.finite(x_range)) && x_range[2] > x_range[1]
  if (!ok) abort_arg("x_range", "must be two finite increasing numbers", call)
  x_range <- as.numeric(x_range)
  t <- (x - mean(x_range)) / diff(x_range)
  clamped <- sum(t < -0.5 | t > 0.5)
  list(t = pmin(pmax(t, -0.5), 0.5), range = x_range, clamped = clamped, inferred = inferred)
}

check_share <- function(share, call = sys.call(-1)) {
  ok <- is.numeric(share) && length(share) == 1L && !is.na(share) && share >= 0 && share < 1
  if (!ok) abort_arg("localise", "must be a number in [0, 1): the share of epsilon spent on the first stage", call)
  invisible(share)
}

domain_radius <- function(value, default, arg, M, call = sys.call(-1)) {
  if (is.null(value)) return(default)
  check_positive_number(value, arg, call = call)
  if (is.finite(M$injectivity_radius) && value >= M$injectivity_radius / 2) {
    abort_arg(arg, sprintf("is %.4g but must be below half the injectivity radius (%.4g) of %s",
                           value, M$injectivity_radius / 2, manifold_label(M)), call)
  }
  value
}

# Public check that every point the law can reach is representable: the
# fitted curve stays within p_radius + v_bound / 2 of the centre.
check_regression_representable <- function(M, radius, R0, V0, p_radius, v_bound, call = sys.call(-1)) {
  lim <- max_representable_distance(M)
  if (R0 + V0 / 2 + radius > lim) {
    arg <- if (!is.null(v_bound) && V0 / 2 >= R0) "v_bound" else if (!is.null(p_radius)) "p_radius" else "radius"
    abort_arg(arg, sprintf("gives a domain reaching %.4g from the centre (radius + p_radius + v_bound/2); points that far are not representable in double precision on %s (at most %g)",
                           R0 + V0 / 2 + radius, manifold_label(M), lim), call)
  }
  invisible(TRUE)
}

resolve_regression_epsilon <- function(epsilon, method, call = sys.call(-1)) {
  if (is.null(epsilon)) abort_arg("epsilon", "is required", call)
  if (method != "sequential") {
    check_epsilon(epsilon, call = call)
    return(epsilon)
  }
  if (length(epsilon) == 1L) {
    check_epsilon(epsilon, call = call)
    return(c(p = epsilon / 2, v = epsilon / 2))
  }
  ok <- is.numeric(epsilon) && length(epsilon) == 2 && all(is.finite(epsilon)) && all(epsilon > 0) &&
    setequal(names(epsilon), c("p", "v"))
  if (!ok) abort_arg("epsilon", "must be a positive number or c(p = , v = ) with positive entries", call)
  epsilon[c("p", "v")]
}

# Non-private fit with the centred covariate (p at mid-range, v the change
# over the range), its residual norms.
regression_fit_centred <- function(M, t, Y, call = sys.call(-1)) {
  f <- tryCatch(cpp_regression_fit(M, t, Y, NULL, NULL, 1000L, 1e-10),
                error = function(e) abort_arg("x", sprintf("gives no non-private fit (%s)", conditionMessage(e)), call))
  Fit <- cpp_binary_op(M, "exp", matrix(f$p), sweep(matrix(f$v, length(f$v), ncol(Y)), 2, t, `*`))
  f$residual_norms <- cpp_dist(M, Fit, Y)
  f
}

# ---------------------------------------------------------------------------
# Sensitivities (derivations in the documentation above)

# Per-record operator bounds of the clipped joint gradient: J_p bounds
# |d_pExp^dagger|, J_v |d_vExp^dagger| at |t v| <= V / 2.
# tau_e = min(tau, r + R + V/2): no residual on the domain (footpoint within
# R of the centre, velocity at most V over the range, data in B_r) is
# longer than r + R + V/2, so a huge tau is harmless.
residual_bound <- function(tau, r, R, V) min(tau, r + R + V / 2)

jacobi_bounds <- function(M, V) {
  kl <- M$kappa_min
  if (kl >= 0) return(c(p = 1, v = 1))
  s <- sqrt(-kl) * V / 2
  c(p = cosh(s), v = if (s < 1e-8) 1 else sinh(s) / s)
}

# Sensitivity of the weighted joint KNG gradient: Delta = 2 tau_e J / n with
# J^2 = J_p^2 + w^2 J_v^2 / 4 (|t| <= 1/2).
joint_sensitivity <- function(M, tau_e, w, V, n) {
  J <- jacobi_bounds(M, V)
  dp <- 2 * tau_e * J[["p"]] / n
  dv <- tau_e * J[["v"]] / n
  c(joint = sqrt(dp^2 + w^2 * dv^2), p = dp, v = dv)
}

joint_weight <- function(M, V) {
  J <- jacobi_bounds(M, V)
  48^0.25 * sqrt(J[["p"]] / J[["v"]])
}

# Diameter bound of the single-record terms (e, w t e) of the unclipped
# linear KNG gradient, for responses in B_r(c), footpoints within Rc of c,
# velocities of norm <= V (see the documentation): the maximum over
# b in [0, 1] of F(b), on a grid with spacing h plus the Lipschitz margin
# L h / 2 (|F'| <= K(1) + w V + r w).
linear_sensitivity <- function(r, w, Rc, V, n) {
  h <- 1e-4
  b <- seq(0, 1, by = h)
  K <- sqrt(V^2 + w^2 * (Rc + b * V)^2)
  F <- (1 - b) * K + r * pmax(sqrt(4 + w^2 * b^2), w * (1 - b))
  L <- sqrt(V^2 + w^2 * (Rc + V)^2) + w * V + r * w
  (max(F) + L * h / 2) / n
}

# Public weight of the linear law: minimises Delta(w)^2 (1 + 12 / w^2), the
# expected excess energy for a design spread evenly over the range.
linear_weight <- function(r, Rc, V) {
  f <- function(lw) log(linear_sensitivity(r, exp(lw), Rc, V, 1)) * 2 + log1p(12 / exp(2 * lw))
  exp(stats::optimize(f, c(log(0.3), log(30)), tol = 1e-4)$minimum)
}

# ---------------------------------------------------------------------------
# Domains in chart coordinates: per block |z| <= outer and |z - center| <= inner.

domain_block <- function(outer, d, center = numeric(d), inner = Inf) {
  list(outer = outer, center = as.numeric(center), inner = if (is.finite(inner)) inner else -1)
}
block_extent <- function(bl) {
  if (bl$inner < 0) bl$outer else min(bl$outer, sqrt(sum(bl$center^2)) + bl$inner)
}
# Public lower bound of the share of the smaller ball lying in the other
# (the centre of the inner ball lies in the outer one).
block_fraction <- function(bl) {
  if (bl$inner < 0) return(1)
  k <- length(bl$center)
  c0 <- sqrt(sum(bl$center^2))
  small <- min(bl$inner, bl$outer)
  if (c0 + bl$inner <= bl$outer) return(1)
  s <- min(small, (bl$outer + bl$inner - c0) / 2)
  (s / small)^k
}

# The second stage's domain: a ball around the first release (chart
# coordinates x1 = (a1, b1)) of radius a public quantile of the first
# stage's noise, plus `bias`, inside the public domain.
localised_domain <- function(d, R0, V0, x1, sigma1, w1, bias = 0, level = 0.999) {
  q <- stats::qgamma(level, 2 * d, scale = sigma1)
  # the law of the first stage is beta_hat + (W H)^-1 u with |u| <= q; under
  # the public design (H = diag(1, 1/12)) |delta a| <= q, |delta b| <= 12 q / w
  list(a = domain_block(R0, d, x1[seq_len(d)], q + bias),
       b = domain_block(V0, d, x1[d + seq_len(d)], 12 * q / w1 + 2 * bias))
}

# ---------------------------------------------------------------------------
# Releases

exact_limit_error <- function(what, call = sys.call(-1)) {
  stop(structure(class = c("dpmanifold_error", "error", "condition"),
                 list(message = what, call = call)))
}

with_exact_limit <- function(expr, what, call = sys.call(-1)) {
  tryCatch(expr, error = function(e) {
    if (grepl("exact_regression_rejection_limit", conditionMessage(e), fixed = TRUE)) exact_limit_error(what, call)
    stop(e)
  })
}

# Exact linear KNG release of the line z = a + t b in R^d (responses Z,
# d x n, in B_r(0)); one or two stages.
linear_release <- function(t, Z, r, eps, share, R0, V0, weight, n_max_attempts = 1e7) {
  d <- nrow(Z)
  n <- ncol(Z)
  stage <- function(e, dom) {
    Rc <- block_extent(dom$a)
    Vm <- block_extent(dom$b)
    w <- if (is.null(weight)) linear_weight(r, Rc, Vm) else weight
    Delta <- linear_sensitivity(r, w, Rc, Vm, n)
    sigma <- 2 * Delta / e
    x <- with_exact_limit(cpp_linear_kng_exact(t, Z, sigma, w, dom, n_max_attempts),
                          sprintf("the exact linear-regression sampler reached its public limit of %g proposals (the domain holds almost none of the law's mass); increase `epsilon` or widen `p_radius`/`v_bound`", n_max_attempts))
    list(x = x, w = w, Delta = Delta, sigma = sigma, domain = dom)
  }
  dom0 <- list(a = domain_block(R0, d), b = domain_block(V0, d))
  if (share > 0 && !localisation_shrinks(dom0, d, n, share * eps, r, weight)) share <- 0
  if (share == 0) {
    s2 <- stage(eps, dom0)
    return(list(x = s2$x, stages = list(joint = s2)))
  }
  s1 <- stage(share * eps, dom0)
  dom2 <- localised_domain(d, R0, V0, s1$x, s1$sigma, s1$w)
  s2 <- stage((1 - share) * eps, dom2)
  list(x = s2$x, stages = list(localise = s1, joint = s2))
}

# Public test whether a first stage can shrink the domain at all: its noise
# scale depends on public quantities only, so the localised radii are known
# before it runs. If neither block would shrink, the whole budget goes to
# one stage.
localisation_shrinks <- function(dom0, d, n, e1, r, weight, bias = 0) {
  Rc <- block_extent(dom0$a)
  Vm <- block_extent(dom0$b)
  w <- if (is.null(weight)) linear_weight(r, Rc, Vm) else weight
  sigma1 <- 2 * linear_sensitivity(r, w, Rc, Vm, n) / e1
  loc <- localised_domain(d, dom0$a$outer, dom0$b$outer, numeric(2 * d), sigma1, w, bias = bias)
  loc$a$inner < dom0$a$outer || loc$b$inner < dom0$b$outer
}

stage_facts <- function(stages, eps, share) {
  nm <- names(stages)
  list(sensitivity = vapply(stages, function(s) s$Delta, numeric(1)),
       sigma = vapply(stages, function(s) s$sigma, numeric(1)),
       split = if (length(stages) > 1) c(localise = share * eps, joint = (1 - share) * eps),
       weight = stats::setNames(vapply(stages, function(s) s$w, numeric(1)), nm),
       domain = stages$joint$domain)
}

# ---------------------------------------------------------------------------
# Sufficient-statistics perturbation (SSP) of a line z = a + t b in R^d
# (responses Z, d x n, in the ball B_r(0); t in [-1/2, 1/2]). Exact, R's RNG.
# Derivations in the documentation of dp_geodesic_regression().

# Public constant of the design release: Laplace scales alpha (sum t) and
# beta = .ssp_gram_c * alpha (sum t^2) with the weighted l1 sensitivity 1.
.ssp_gram_c <- 0.3

ssp_gram_scales <- function(c = .ssp_gram_c) {
  alpha <- (1 + c)^2 / (4 * c)
  c(St = alpha, Stt = c * alpha)
}

# Public share of epsilon for the design statistics: minimises the expected
# excess energy A_G / s^2 + A_T / (1 - s)^2 with the slope over the range
# taken as r (public proxy): A_G = 2 r^2 (alpha^2 + 12 beta^2) from the
# design noise, A_T = 8 d (d + 1) (2 r)^2 from the moment noise.
ssp_gram_share <- function(d) {
  s <- ssp_gram_scales()
  AG <- 2 * (s[["St"]]^2 + 12 * s[["Stt"]]^2)
  AT <- 8 * d * (d + 1) * 4
  k <- (AG / AT)^(1 / 3)
  k / (1 + k)
}

# K-norm noise of density prop. to exp(-|nu| / scale) in R^d: radius
# Gamma(d, scale), direction uniform on the sphere.
knorm_l2_noise <- function(d, scale) {
  u <- stats::rnorm(d)
  while (sum(u^2) == 0) u <- stats::rnorm(d)
  stats::rgamma(1, shape = d, scale = scale) * u / sqrt(sum(u^2))
}

laplace_noise <- function(k, scale) {
  stats::rexp(k, 1 / scale) * ifelse(stats::runif(k) < 0.5, -1, 1)
}

project_ball <- function(z, rad) {
  nz <- sqrt(sum(z^2))
  if (nz > rad) z * (rad / nz) else z
}

# The release: returns chart coordinates x = (a, b) and the public facts.
ssp_release <- function(t, Z, r, eps, R0, V0, share = ssp_gram_share(nrow(Z))) {
  d <- nrow(Z)
  n <- ncol(Z)
  eG <- share * eps
  eT <- (1 - share) * eps
  sc <- ssp_gram_scales()
  # design statistics, weighted l1 sensitivity 1
  St <- sum(t) + laplace_noise(1, sc[["St"]] / eG)
  Stt <- sum(t^2) + laplace_noise(1, sc[["Stt"]] / eG)
  # endpoint moments T+- = sum z_i (1/2 +- t_i), l1-of-l2 sensitivity 2 r
  Tp <- as.numeric(Z %*% (0.5 + t)) + knorm_l2_noise(d, 2 * r / eT)
  Tm <- as.numeric(Z %*% (0.5 - t)) + knorm_l2_noise(d, 2 * r / eT)
  # post-processing: a valid design (|St| <= n/2, centred Stt floored at
  # one noise scale), least squares, projection onto the public domain
  St <- min(max(St, -n / 2), n / 2)
  floor_c <- sc[["Stt"]] / eG
  Sttc <- max(min(Stt, n / 4) - St^2 / n, floor_c)
  Sz <- Tp + Tm
  Stz <- (Tp - Tm) / 2
  b <- (Stz - St * Sz / n) / Sttc
  a <- (Sz - St * b) / n
  c(list(x = c(project_ball(a, R0), project_ball(b, V0))), ssp_facts(r, eG, eT),
    list(domain = list(a = domain_block(R0, d), b = domain_block(V0, d))))
}

# Public facts of an SSP release: the design (K-norm or weighted l1 with
# sensitivity 1) at eG, the moments (l1-of-l2 sensitivity 2 r) at eT.
ssp_facts <- function(r, eG, eT) {
  list(sensitivity = c(design = 1, moments = 2 * r),
       sigma = c(design = 1 / eG, moments = 2 * r / eT),
       split = c(design = eG, moments = eT))
}

# The split SSP of method = "linearised" (derivation in the documentation of
# dp_geodesic_regression()): moments summed on each side of the middle of
# the range, t > 0 and t <= 0 (the weights 1/2 +- sign(t)/2 give the
# slope 3/2 times the signal of the least-squares weights 1/2 +- t for the
# same sensitivity), and the design they need, (sum sign t, sum t,
# sum |t|), released by the K-norm mechanism of its exact sensitivity hull.
#
# Each record's design is the barycentric vector of (sign t, t+, t-) in the
# simplex with vertices (1, 0, 0), (1, 1/2, 0), (-1, 0, 0), (-1, 0, 1/2).
split_design_barycentric <- function(t) {
  pos <- t > 0
  cbind(ifelse(pos, 1 - 2 * t, 0), ifelse(pos, 2 * t, 0), ifelse(pos, 0, 1 + 2 * t), ifelse(pos, 0, -2 * t))
}

# K-norm noise for a sum of simplex vectors under replace-one: the changes
# fill K = {y in R^4: sum y = 0, sum |y| <= 2} (the difference body of the
# simplex); density prop. to exp(-|y|_K / scale) on the hyperplane: radius
# Gamma(4, scale) times a uniform point of K (rejection from the cube
# [-1, 1]^3, which holds K; acceptance 5/12, a public constant).
simplex_difference_noise <- function(scale) {
  repeat {
    y <- stats::runif(3, -1, 1)
    y <- c(y, -sum(y))
    if (sum(abs(y)) <= 2) break
  }
  stats::rgamma(1, shape = 4, scale = scale) * y
}

ssp_release_split <- function(t, Z, r, eps, share) {
  d <- nrow(Z)
  n <- ncol(Z)
  eG <- share * eps
  eT <- (1 - share) * eps
  B <- colSums(split_design_barycentric(t)) + simplex_difference_noise(1 / eG)
  Ss <- B[[1]] + B[[2]] - B[[3]] - B[[4]]
  St <- (B[[2]] - B[[4]]) / 2
  Sa <- (B[[2]] + B[[4]]) / 2
  pos <- t > 0
  Tp <- rowSums(Z[, pos, drop = FALSE]) + knorm_l2_noise(d, 2 * r / eT)
  Tm <- rowSums(Z[, !pos, drop = FALSE]) + knorm_l2_noise(d, 2 * r / eT)
  # post-processing: a valid design, the determinant floored at the design
  # noise scale, then the 2 x 2 solve of
  # [n, St; Ss, Sa] (a, b) = (T+ + T-, T+ - T-)
  Ss <- min(max(Ss, -n), n)
  St <- min(max(St, -n / 2), n / 2)
  Sa <- min(max(Sa, abs(St)), n / 2)
  det <- max(Sa - St * Ss / n, 1 / eG)
  b <- ((Tp - Tm) - Ss * (Tp + Tm) / n) / det
  a <- (Tp + Tm - St * b) / n
  c(list(x = c(a, b)), ssp_facts(r, eG, eT))
}

# The geodesic through Exp_c(a - b/2) and Exp_c(a + b/2) (chart coordinates
# at the centre): footpoint at its middle, velocity over the range.
geodesic_from_line <- function(M, center, a, b) {
  d <- length(a)
  E <- cpp_chart_points(M, center, cbind(c(a - b / 2, numeric(d)), c(a + b / 2, numeric(d))))$p
  u <- cpp_binary_op(M, "log", E[, 1, drop = FALSE], E[, 2, drop = FALSE])
  p <- cpp_binary_op(M, "exp", E[, 1, drop = FALSE], u / 2)
  v <- cpp_ternary_op(M, "transport_along", E[, 1, drop = FALSE], u / 2, u)
  list(p = p[, 1], v = v[, 1])
}

release_tangent <- function(ctx, eps) {
  M <- ctx$M
  Z <- cpp_chart_coords(M, ctx$center, ctx$Y)
  s <- ssp_release(ctx$t, Z, ctx$radius, eps, ctx$R0, ctx$V0)
  d <- nrow(Z)
  g <- geodesic_from_line(M, ctx$center, s$x[seq_len(d)], s$x[d + seq_len(d)])
  c(g, list(mechanism = "ssp", sensitivity = s$sensitivity, sigma = s$sigma, split = s$split,
            domain = s$domain, sampler = list(kind = "exact")))
}

# Default chain length: `per` + `per` steps per dimension of M (public).
regression_chain <- function(ctrl, d, per = 300L) {
  if (is.null(ctrl)) return(list(burnin = per * d, steps = per * d, step = 0))
  list(burnin = ctrl$burnin, steps = ctrl$steps, step = ctrl$step)
}

# Long moves of the chain: a share `prob` of the proposals is `factor` times
# longer (public constants).
.chain_jump <- c(factor = 8, prob = 0.2)

# Public cost budget of the exact joint sampler (gradient terms).
.exact_budget <- c(auto = 5e6, exact = 5e9)

release_joint <- function(ctx, eps) {
  M <- ctx$M
  d <- M$dim
  n <- ctx$n
  share <- ctx$share
  r <- ctx$radius
  stages <- list()
  x1 <- numeric(2 * d)
  dom <- list(a = domain_block(ctx$R0, d), b = domain_block(ctx$V0, d))
  kap <- max(abs(M$kappa_min), abs(M$kappa_max))
  bias <- kap * r^2 * (ctx$R0 + ctx$V0 / 2) / 2
  if (share > 0 && !localisation_shrinks(dom, d, n, share * eps, r, NULL, bias)) share <- 0
  if (share > 0) {
    Z <- cpp_chart_coords(M, ctx$center, ctx$Y)
    lr <- linear_release(ctx$t, Z, r, share * eps, 0, ctx$R0, ctx$V0, NULL)
    s1 <- lr$stages$joint
    x1 <- s1$x
    # (bias: curvature allowance: the tangent line of a geodesic within the
    # domain departs from its chart coordinates by about kappa r^2 times
    # the length reached)
    dom <- localised_domain(d, ctx$R0, ctx$V0, x1, s1$sigma, s1$w, bias = bias)
    stages$localise <- s1
  }
  e2 <- (1 - share) * eps
  Rc <- block_extent(dom$a)
  Vm <- block_extent(dom$b)
  tau_e <- residual_bound(ctx$tau, r, Rc, Vm)
  w <- if (is.null(ctx$weight)) joint_weight(M, Vm) else ctx$weight
  sens <- joint_sensitivity(M, tau_e, w, Vm, n)
  if (!all(is.finite(sens))) {
    abort_arg("v_bound", sprintf("gives an infinite sensitivity on %s (the Jacobi fields grow like cosh of the velocity); use a smaller v_bound or radius",
                                 manifold_label(M)))
  }
  sigma <- 2 * sens[["joint"]] / e2
  # Exact sampler: uniform proposals accepted with exp(-|G|/sigma) >=
  # exp(-n e2 / 4) (|G| <= tau_e J = n Delta / 2), times the public share of
  # domain proposals that fall in the intersected balls.
  log_cost <- n * e2 / 4 - log(block_fraction(dom$a) * block_fraction(dom$b))
  budget <- .exact_budget[[if (ctx$sampler == "exact") "exact" else "auto"]]
  exact_ok <- log(n) + log_cost <= log(budget)
  if (ctx$sampler == "exact" && !exact_ok) {
    abort_arg("sampler", sprintf("= \"exact\" would need up to e^%.1f proposals of %d gradient terms (n epsilon / 4 is too large for the exact sampler); use \"auto\" or \"mcmc\"",
                                 log_cost, n))
  }
  kind <- if (ctx$sampler == "mcmc" || !exact_ok) "mcmc" else "exact"
  chain <- regression_chain(ctx$mcmc, d)
  scale <- c(rep(1, d), rep(12 / w, d))
  step <- if (chain$step > 0) chain$step else {
    # 2.4 sigma (optimal random-walk scale for a K-norm law), at most the
    # domain's size in each block
    min(2.4 * sigma, block_extent(dom$a), block_extent(dom$b) / (12 / w))
  }
  draw <- with_exact_limit(
    cpp_regression_chart_kng(M, ctx$t, ctx$Y, tau_e, sigma, w, ctx$center, dom, kind, x1, step, scale,
                             .chain_jump[["factor"]], .chain_jump[["prob"]],
                             as.integer(chain$burnin + chain$steps), 1L, ceiling(40 * exp(log_cost)), FALSE),
    "the exact regression sampler reached its public limit of proposals; use sampler = \"mcmc\"")
  pv <- cpp_chart_points(M, ctx$center, draw$draws)
  stages$joint <- list(Delta = sens[["joint"]], sigma = sigma, w = w, domain = dom)
  facts <- stage_facts(stages, eps, share)
  sampler <- if (kind == "exact") list(kind = "exact") else
    list(kind = "mcmc", settings = list(burnin = chain$burnin, steps = chain$steps, step = step))
  c(list(p = pv$p[, 1], v = pv$v[, 1]), facts, list(sampler = sampler))
}

# Exponential mechanism on the clipped energy (method = "energy"): density
# exp(-u(p, v) / T) on the public domain (chart coordinates at the centre),
# u = sum_i min(d_i^2, tau_e^2) / 2, T = tau_e^2 / epsilon (each record moves
# u by at most tau_e^2 / 2). Drawn by a random-walk chain from the public
# start (centre, zero velocity) through a public schedule of clip levels
# tau_e 2^k (k = K, ..., 1: a burn-in on wider, unclipped-like laws that
# leads the chain into the basin of the fit), then `burnin + steps` steps on
# the released law. Steps: 2.38 / sqrt(2d) times the law's public width
# tau_k / sqrt(epsilon n) (velocity coordinates times sqrt(12), the
# Gauss-Newton scale of the public design).
# Records per (d + 1) in the subsample of the anneal levels of the energy
# chain (public).
.anneal_records <- 100L

release_energy <- function(ctx, eps) {
  M <- ctx$M
  d <- M$dim
  n <- ctx$n
  r <- ctx$radius
  top <- r + ctx$R0 + ctx$V0 / 2
  tau_e <- residual_bound(ctx$tau, r, ctx$R0, ctx$V0)
  Temp <- tau_e^2 / eps
  K <- max(0L, as.integer(ceiling(log2(top / tau_e))))
  taus <- c(tau_e * 2^rev(seq_len(K))[seq_len(K)], tau_e)
  taus <- pmin(taus, top)
  chain <- regression_chain(ctx$mcmc, d, per = 1000L)
  anneal <- 1000L * d
  steps <- as.integer(c(rep(anneal, K), chain$burnin + chain$steps))
  width <- taus / sqrt(eps * n)
  sizes <- if (chain$step > 0) chain$step * taus / tau_e else 2.38 / sqrt(2 * d) * width
  sizes <- pmin(sizes, ctx$R0)
  dom <- list(a = domain_block(ctx$R0, d), b = domain_block(ctx$V0, d))
  scale <- c(rep(1, d), rep(sqrt(12), d))
  x <- numeric(2 * d)
  if (K > 0) {
    # The anneal only leads the chain into the basin of the fit (with 100 d
    # steps per level, 2 in 60 chains on S^2 at n epsilon = 40 ended far
    # from it). It runs on a random subsample of public size m (indices from
    # R's RNG), its energy scaled by n / m, so that long levels stay cheap.
    m <- min(n, .anneal_records * (d + 1L))
    idx <- if (m < n) sort(sample.int(n, m)) else seq_len(n)
    lev <- seq_len(K)
    x <- cpp_regression_chart_em(M, ctx$t[idx], ctx$Y[, idx, drop = FALSE], taus[lev], taus[lev]^2 / eps * (m / n),
                                 rep(anneal, K), sizes[lev], ctx$center, dom, x, scale,
                                 .chain_jump[["factor"]], .chain_jump[["prob"]])
  }
  x <- cpp_regression_chart_em(M, ctx$t, ctx$Y, tau_e, Temp, steps[K + 1L], sizes[K + 1L], ctx$center, dom,
                               x, scale, .chain_jump[["factor"]], .chain_jump[["prob"]])
  pv <- cpp_chart_points(M, ctx$center, matrix(x))
  list(p = pv$p[, 1], v = pv$v[, 1], mechanism = "exponential",
       sensitivity = c(energy = tau_e^2 / 2), sigma = c(energy = Temp), domain = dom,
       sampler = list(kind = "mcmc", settings = list(burnin = chain$burnin, steps = chain$steps,
                                                     step = sizes[length(sizes)],
                                                     anneal = list(tau = taus[-length(taus)], steps = anneal))))
}

# Public shares of epsilon of the linearised release: the localisation
# (energy law), the design statistics and the moments of the residuals.
.linearised_shares <- c(localise = 0.2, design = 0.15, moments = 0.65)

# Public rule of method = "auto" (see the documentation): the linearised
# release when (a) its moment noise is expected to cost at most half the
# energy law's excess, (28/3) (d + 1) / (s^2 n epsilon) <= 1/2 with s the
# moments' share, and (b) its first stage localises: the plateau of the
# energy law at epsilon_1 (weight e^{-n epsilon_1 / 2} times the volume of
# the domain in units of the law's width tau_e / sqrt(n epsilon_1)) is
# below e^{-5}. Otherwise the energy law.
auto_method <- function(M, n, eps, tau_e, R0, V0) {
  sh <- .linearised_shares
  d <- M$dim
  noise_ok <- (28 / 3) * (d + 1) / (sh[["moments"]]^2 * n * eps) <= 0.5
  e1 <- sh[["localise"]] * eps
  w <- tau_e / sqrt(n * e1)
  L <- d * (log(max(R0 / w, 1)) + log(max(V0 / (sqrt(12) * w), 1)))
  if (noise_ok && n * e1 / 2 >= L + 5) "linearised" else "energy"
}

# Both stages of method = "linearised" estimate the fit: the first with
# error delta (covariance about (tau_e^2 / epsilon_1) H^-1, H = n diag(1, 1/12)
# for a design spread evenly), the second, as a step from the first, with
# the moment noise plus the design noise times delta (uncorrelated with
# delta). Their inverse-variance combination scales the step by
# c = V1 / (V1 + V2) per block (a, b): public constants. The variances per
# coordinate (K-norm design noise: var(sum sign t) = 22.4, var(sum t) = 2.8,
# var(sum |t|) = 1.4, over epsilon_G^2, by Monte Carlo):
#   V1a = tau_e^2 / (n e1), V1b = 12 V1a,
#   V2a = 2 (d + 1) (2 tau_e / eT)^2 / n^2 + 2.8 / eG^2 V1b / n^2,
#   V2b = 16 * 2 (d + 1) (2 tau_e / eT)^2 / n^2 + 16 (22.4 V1a + 1.4 V1b) / (eG^2 n^2).
# In the S^2 setting at n = 200, epsilon = 1: c = (0.91, 0.88); paired over
# 100 data sets the excess energy falls by a median 10%.
linearised_combination <- function(d, n, tau_e, e) {
  V1a <- tau_e^2 / (n * e[["localise"]])
  V1b <- 12 * V1a
  mom <- 2 * (d + 1) * (2 * tau_e / e[["moments"]])^2 / n^2
  V2a <- mom + 2.8 / e[["design"]]^2 * V1b / n^2
  V2b <- 16 * mom + 16 * (22.4 * V1a + 1.4 * V1b) / (e[["design"]]^2 * n^2)
  c(a = V1a / (V1a + V2a), b = V1b / (V1b + V2b))
}

# (p, v) projected onto the public domain in the chart at the centre (only
# when outside it).
project_to_domain <- function(M, center, p, v, R0, V0) {
  P <- matrix(p)
  a <- cpp_chart_coords(M, center, P)[, 1]
  nv <- sqrt(cpp_inner(M, P, matrix(v), matrix(v)))
  if (sqrt(sum(a^2)) <= R0 && nv <= V0) return(list(p = p, v = v))
  back <- cpp_binary_op(M, "log", P, matrix(center))
  b <- cpp_tangent_coords(M, matrix(center), cpp_ternary_op(M, "transport_along", P, back, matrix(v)))[, 1]
  pv <- cpp_chart_points(M, center, matrix(c(project_ball(a, R0), project_ball(b, V0))))
  list(p = pv$p[, 1], v = pv$v[, 1])
}

# method = "linearised": the energy law at a share of epsilon localises the
# geodesic (p1, v1); the residuals at it, clipped to tau_e and transported
# to p1, are regressed on (1, t) by SSP (moments bound tau_e) and the
# update is mapped back: p = Exp_{p1}(da), v = transport of v1 + db.
release_linearised <- function(ctx, eps) {
  M <- ctx$M
  d <- M$dim
  sh <- .linearised_shares
  s1 <- release_energy(ctx, sh[["localise"]] * eps)
  tau_e <- residual_bound(ctx$tau, ctx$radius, ctx$R0, ctx$V0)
  Z <- cpp_linearised_residuals(M, ctx$t, ctx$Y, s1$p, s1$v, tau_e)
  e2 <- (1 - sh[["localise"]]) * eps
  s2 <- ssp_release_split(ctx$t, Z, tau_e, e2, share = sh[["design"]] / (1 - sh[["localise"]]))
  b1 <- cpp_tangent_coords(M, matrix(s1$p), matrix(s1$v))[, 1]
  k <- linearised_combination(d, ctx$n, tau_e, eps * sh)
  pv <- cpp_chart_points(M, s1$p, matrix(c(k[["a"]] * s2$x[seq_len(d)], b1 + k[["b"]] * s2$x[d + seq_len(d)])))
  out <- project_to_domain(M, ctx$center, pv$p[, 1], pv$v[, 1], ctx$R0, ctx$V0)
  list(p = out$p, v = out$v, mechanism = "linearised",
       sensitivity = c(s1$sensitivity, s2$sensitivity), sigma = c(s1$sigma, s2$sigma),
       split = c(localise = sh[["localise"]] * eps, s2$split),
       domain = s1$domain, sampler = s1$sampler)
}

# The seed paper's sequential procedure (not DP: see the documentation).
release_sequential <- function(ctx, eps, fit) {
  M <- ctx$M
  warn_privacy_leak(msg = paste("`method = \"sequential\"` holds the non-private v-hat fixed in the p-step:",
                                "this release is NOT differentially private as stated. Use the default method."))
  n <- ctx$n
  tau_e <- residual_bound(ctx$tau, ctx$radius, ctx$R0, ctx$V0)
  J <- jacobi_bounds(M, ctx$V0)
  sens <- c(p = 2 * tau_e * J[["p"]] / n, v = tau_e * J[["v"]] / n)
  sigma <- c(p = 2 * sens[["p"]] / eps[["p"]], v = 2 * sens[["v"]] / eps[["v"]])
  chain <- regression_chain(ctx$mcmc, M$dim)
  s <- list(burnin = 0L, thin = as.integer(chain$burnin + chain$steps), n_draws = 1L,
            step = if (chain$step > 0) chain$step else 2.4 * sigma[["p"]], target_acceptance = 0.3,
            keep_chain = FALSE)
  rp <- cpp_regression_p_step(M, ctx$t, ctx$Y, tau_e, sigma[["p"]], ctx$center, ctx$R0, fit$p, fit$v,
                              ctx$center, s)
  p_t <- rp$draws[, 1]
  s$step <- if (chain$step > 0) chain$step else 2.4 * sigma[["v"]] * 2
  rv <- cpp_regression_v_step(M, ctx$t, ctx$Y, tau_e, sigma[["v"]], p_t, ctx$V0, numeric(length(p_t)), s)
  list(p = p_t, v = rv$draws[, 1], sensitivity = sens, sigma = sigma,
       sampler = list(kind = "mcmc", settings = list(burnin = chain$burnin, steps = chain$steps)))
}
