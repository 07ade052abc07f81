# The regression laws drawn by chains or by the exact joint KNG sampler
# (methods "joint", "energy", "linearised", "sequential"): their
# sensitivities, chart domains and releases. Proof:
# inst/proofs/regression-methods.md.

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
  list(outer = outer, center = as.numeric(center), inner = inner)
}
block_extent <- function(bl) {
  if (is.infinite(bl$inner)) bl$outer else min(bl$outer, sqrt(sum(bl$center^2)) + bl$inner)
}
# Public lower bound of the share of the smaller ball lying in the other
# (the centre of the inner ball lies in the outer one).
block_fraction <- function(bl) {
  if (is.infinite(bl$inner)) return(1)
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

# The exact samplers of these laws stop at a public limit with the one
# failure protocol (status "exhausted", class dpmanifold_sampler_status);
# the error then names the public cause.
with_exact_limit <- function(expr, what, call = sys.call(-1)) {
  tryCatch(expr, dpmanifold_sampler_status = function(e) exact_limit_error(what, call))
}

# The law of an exact linear KNG stage on a domain, from public quantities
# only (n, its epsilon, the domain, r, the weight): weight, sensitivity,
# scale and the sampler's public plan.
linear_stage_law <- function(n, e, dom, r, weight = NULL) {
  Rc <- block_extent(dom$a)
  Vm <- block_extent(dom$b)
  w <- if (is.null(weight)) linear_weight(r, Rc, Vm) else weight
  Delta <- linear_sensitivity(r, w, Rc, Vm, n)
  sigma <- 2 * Delta / e
  list(w = w, Delta = Delta, sigma = sigma, plan = linear_exact_plan(r, dom, sigma, w))
}

# The public plan of the exact linear KNG sampler (cpp_linear_kng_exact)
# on a domain, made before any data are read, by the failure protocol of
# the Frechet samplers (inst/proofs/exact-samplers.md; proof of the bound:
# inst/proofs/regression-methods.md, "The first stage's sampler"). Each
# attempt makes two proposals: a K-norm draw around the least-squares line,
# kept when it falls in the domain, whose acceptance (the law's mass in the
# domain) has no public lower bound (it tends to 0 as the data's
# least-squares line leaves the domain); and a uniform draw on the domain,
# kept with probability exp(-|G| / sigma), accepted with probability at least
#   a = block_fraction(a) block_fraction(b) exp(-G_max / sigma),
#   G_max = (r + Rc + Vm / 2) sqrt(1 + w^2 / 4),
# the largest gradient norm on the domain for responses in B_r(0) and
# t in [-1/2, 1/2]. max_attempts: the number of attempts after which the
# loop would fail with probability below p_fail (-1 beyond the core's cap:
# the sampler is then not run).
linear_exact_plan <- function(r, dom, sigma, w, p_fail = exact_failure_probability()) {
  g_max <- (r + block_extent(dom$a) + block_extent(dom$b) / 2) * sqrt(1 + w^2 / 4)
  log_acc <- log(block_fraction(dom$a)) + log(block_fraction(dom$b)) - g_max / sigma
  attempts <- cpp_public_attempt_bound(log_acc, p_fail)
  list(log_acceptance = log_acc, max_attempts = attempts, ok = attempts > 0)
}

# Exact linear KNG release of the line z = a + t b in R^d (responses Z,
# d x n, in B_r(0)) on a domain. Its sampler runs only when the public plan
# certifies it, and then runs until it accepts (no cap: a cap would make
# the release fail with a data-dependent probability); otherwise it refuses
# before reading Z, with a message of public quantities only.
linear_release <- function(t, Z, r, eps, dom, weight, call = sys.call(-1)) {
  n <- ncol(Z)
  law <- linear_stage_law(n, eps, dom, r, weight)
  if (!law$plan$ok) {
    abort_sampler(sprintf(paste("the exact linear-KNG sampler (n = %d, epsilon = %.4g, domain radii %.4g and %.4g)",
                                "accepts a proposal with public probability at least e^%.1f: certifying a failure",
                                "probability below %g would take more than %g proposals"),
                          n, eps, block_extent(dom$a), block_extent(dom$b), law$plan$log_acceptance,
                          exact_failure_probability(), cpp_max_proposals()), call)
  }
  x <- cpp_linear_kng_exact(t, Z, law$sigma, law$w, dom, Inf)
  list(x = x, w = law$w, Delta = law$Delta, sigma = law$sigma, domain = dom)
}

# Public test whether a first stage can shrink the domain at all: its noise
# scale depends on public quantities only, so the localised radii are known
# before it runs. If neither block would shrink, the whole budget goes to
# one stage.
localisation_shrinks <- function(dom0, d, n, e1, r, weight, bias = 0) {
  sigma1 <- linear_stage_law(n, e1, dom0, r, weight)
  loc <- localised_domain(d, dom0$a$outer, dom0$b$outer, numeric(2 * d), sigma1$sigma, sigma1$w, bias = bias)
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
  if (share > 0 && !isTRUE(localisation_shrinks(dom, d, n, share * eps, r, NULL, bias))) share <- 0
  # the first stage runs only where its sampler's public plan certifies it
  # (about n epsilon_1 below 25 with the default domain); otherwise the
  # whole budget goes to one stage: a decision from public quantities only
  if (share > 0 && !linear_stage_law(n, share * eps, dom, r, NULL)$plan$ok) share <- 0
  if (share > 0) {
    Z <- cpp_chart_coords(M, ctx$center, ctx$Y)
    s1 <- linear_release(ctx$t, Z, r, share * eps, dom, NULL)
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

# ---------------------------------------------------------------------------
# The mechanism objects of these methods (R/regression_mechanism.R): one
# stage named by the method, whose scales (and, for "joint", its sampler)
# are fixed at release from public quantities and the first stage's
# private output; the release reports them.

legacy_plan <- function(M, n, opts, r, R0, V0) {
  m <- opts$method
  chain <- m %in% c("energy", "linearised", "sequential") || opts$sampler == "mcmc"
  sampler <- if (chain) list(kind = "mcmc", settings = regression_chain(opts$mcmc, M$dim, if (m == "joint") 300L else 1000L)) else
    list(kind = "exact")
  tau_e <- residual_bound(opts$tau, r, R0, V0)
  facts <- switch(m,
    energy = list(sens = c(energy = tau_e^2 / 2), sigma = c(energy = tau_e^2 / sum(opts$epsilon)), mech = "exponential"),
    list(sens = NULL, sigma = NULL, mech = if (m == "linearised") "linearised" else "kng"))
  detail <- switch(m, joint = if (chain) "Metropolis chain" else "exact sampler when affordable, else a chain (public rule)",
                   sequential = "the seed paper's procedure, not DP", NULL)
  list(stages = list(dp_stage(m, facts$mech, epsilon = sum(opts$epsilon), sensitivity = facts$sens, sigma = facts$sigma,
                              sampler = sampler, proof = "regression-methods", detail = detail)),
       spec = list())
}

legacy_release <- function(mech, t, Y) {
  s <- mech$spec
  o <- s$opts
  M <- mech$manifold
  ctx <- list(M = M, t = t, Y = Y, n = ncol(Y), center = s$center, radius = s$radius, R0 = s$R0, V0 = s$V0,
              tau = o$tau, weight = o$weight, share = o$localise, sampler = o$sampler, mcmc = o$mcmc)
  out <- switch(mech$method,
    sequential = release_sequential(ctx, o$epsilon, regression_fit_centred(M, t, Y)),
    energy = release_energy(ctx, o$epsilon),
    linearised = release_linearised(ctx, o$epsilon),
    joint = release_joint(ctx, o$epsilon))
  stage <- list(sensitivity = out$sensitivity, sigma = out$sigma, sampler = out$sampler)
  list(p = out$p, v = out$v,
       drawn = list(stages = stats::setNames(list(stage), mech$method),
                    bounds = list(weight = out$weight, domain = out$domain)))
}
