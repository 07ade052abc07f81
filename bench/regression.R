# Geodesic regression: speed and accuracy of dpmanifold's fit.
#
#   Rscript bench/regression.R
#
# (a) geodesic_regression() against a plain-R implementation of the same
#     algorithm (same initial point, exact Jacobi-adjoint gradients, the same
#     preconditioned Riemannian gradient descent with Armijo backtracking) on
#     the same sphere data, n = 100 and 1000.
# (b) against GeodRegr::geo_reg (least squares, estimator "l2") on the sphere
#     data and on Kendall shapes (shapes::rats, landmarks against age).
#     GeodRegr is not a dependency of dpmanifold: if it is not installed, the
#     script installs it into the private library /tmp/h3lib (or
#     $DPM_BENCH_LIB); that part is skipped with a message when this fails.
# (c) dp_geodesic_regression() on S^2 with n = 100: time of one release with
#     the default chain settings.
#
# Energies are all computed with one formula, dpmanifold's
# E(p, v) = (1/2n) sum_i d(Exp_p(t_i v), y_i)^2, t_i = (x_i - min x) /
# (max x - min x). Prints what it measures; asserts nothing.

suppressPackageStartupMessages(library(dpmanifold))

# CPU seconds (user + system of this R process) per evaluation of f(): after
# one warm-up call, f() is repeated in batches (doubling) until a batch takes
# at least min_time, then the median over `batches` batches of that size is
# taken. CPU time rather than elapsed time, so that other load on the machine
# does not distort the ratios. The last value of f() is kept in attr "value".
cpu_now <- function() sum(proc.time()[c("user.self", "sys.self")])
time_it <- function(f, min_time = 0.25, batches = 3L, warm = TRUE) {
  if (warm) val <- f()
  reps <- 1L
  repeat {
    t0 <- cpu_now()
    for (i in seq_len(reps)) val <- f()
    el <- cpu_now() - t0
    if (el >= min_time || reps >= 2^16) break
    reps <- reps * 2L
  }
  per_call <- el / reps
  if (batches > 1L) {
    more <- vapply(seq_len(batches - 1L), function(b) {
      t0 <- cpu_now()
      for (i in seq_len(reps)) val <<- f()
      (cpu_now() - t0) / reps
    }, numeric(1))
    per_call <- stats::median(c(per_call, more))
  }
  structure(per_call, value = val)
}
fmt_time <- function(s) if (s < 1) sprintf("%.2f ms", 1e3 * s) else sprintf("%.2f s", s)

# Our energy formula for a geodesic given in our parametrisation.
# coef() of a fit (footpoint at mid-range, velocity per unit of x) as the
# footpoint at the lower end and the change over the range
low_end <- function(fit) dpmanifold:::regression_release_curve(fit$manifold, fit$coef$p, fit$coef$v, fit$coef$x0,
                                                               fit$x_range)
energy_ours <- function(M, p, v, x01, Y) {
  fit <- mfd_exp(M, p, mfd_layout_scale(M, v, x01))
  mean(mfd_dist(M, fit, Y)^2) / 2
}
# x01[i] * v in the layout of M (vector -> n x D matrix, matrix -> array).
mfd_layout_scale <- function(M, v, t) {
  if (is.null(dim(v))) return(outer(t, v))
  array(outer(as.vector(v), t), c(dim(v), length(t)))
}

# ---------------------------------------------------------------------------
# Plain-R geodesic regression on S^d (points are the columns of a D x n
# matrix), the algorithm of inst/include/dpmanifold_core/regression.hpp.
# ---------------------------------------------------------------------------
cnorm <- function(V) sqrt(colSums(V^2))
each <- function(a, D) rep(a, each = D)
sinc_r <- function(x) ifelse(abs(x) < 1e-4, 1 - x^2 / 6 + x^4 / 120, sin(x) / x)
angle_r <- function(P, Q) 2 * atan2(cnorm(P - Q), cnorm(P + Q))
# Exp_P(V), column by column (P a D x n matrix or one vector, recycled).
exp_r <- function(P, V) {
  D <- nrow(V)
  L <- cnorm(V)
  out <- P * each(cos(L), D) + V * each(sinc_r(L), D)
  out / each(cnorm(out), D)
}
log_r <- function(P, Q) {
  D <- nrow(Q)
  P <- matrix(P, D, ncol(Q))
  W <- Q - P * each(colSums(P * Q), D)
  s <- cnorm(W)
  th <- angle_r(P, Q)
  W * each(ifelse(s < 1e-15, 0, th / s), D)
}
# Parallel transport of W from P along t -> Exp_P(t U), column by column.
transport_r <- function(P, U, W) {
  D <- nrow(W)
  L <- cnorm(U)
  E <- U / each(ifelse(L < 1e-300, 1, L), D)
  E[, L < 1e-300] <- 0
  a <- colSums(E * W)
  W + each(a, D) * (E * each(cos(L) - 1, D) - P * each(sin(L), D))
}
energy_r <- function(p, v, x, Y) sum(angle_r(exp_r(p, outer(v, x)), Y)^2) / (2 * ncol(Y))

# Gradients through the adjoint Jacobi fields: transport the residual back
# to p along the geodesic, then scale its component orthogonal to v by
# cos(L) (d_p Exp) or sin(L)/L (d_v Exp); the component along v is kept.
gradient_r <- function(p, v, x, Y) {
  D <- nrow(Y)
  n <- ncol(Y)
  XV <- outer(v, x)
  P <- matrix(p, D, n)
  Yhat <- exp_r(P, XV)
  eps <- log_r(Yhat, Y)
  vel <- transport_r(P, XV, XV)
  wb <- transport_r(Yhat, -vel, eps)
  L <- cnorm(XV)
  nv <- sqrt(sum(v^2))
  e <- if (nv < 1e-300) numeric(D) else v / nv
  a <- colSums(e * wb)
  par_comp <- outer(e, a)
  perp <- wb - par_comp
  adj_p <- par_comp + perp * each(cos(L), D)
  adj_v <- par_comp + perp * each(sinc_r(L), D)
  list(gp = -rowSums(adj_p) / n, gv = -colSums(t(adj_v) * x) / n, energy = sum(cnorm(eps)^2) / (2 * n))
}

frechet_mean_r <- function(G, max_iter = 200, tol = 1e-12) {
  m <- G[, 1]
  Fobj <- function(z) sum(angle_r(z, G)^2) / (2 * ncol(G))
  F0 <- Fobj(m)
  for (it in seq_len(max_iter)) {
    g <- rowMeans(log_r(m, G))
    gn <- sqrt(sum(g^2))
    if (gn <= tol) break
    t <- 1
    moved <- FALSE
    while (t > 1e-12) {
      y <- exp_r(m, matrix(t * g))[, 1]
      Fy <- Fobj(y)
      accept <- if (1e-4 * t * gn^2 > 1e-12 * abs(F0)) Fy <= F0 - 1e-4 * t * gn^2 else
        sqrt(sum(rowMeans(log_r(y, G))^2)) < gn
      if (accept) {
        m <- y
        F0 <- Fy
        moved <- TRUE
        break
      }
      t <- t / 2
    }
    if (!moved) break
  }
  m
}

init_r <- function(x, Y) {
  n <- ncol(Y)
  idx <- order(x)
  m <- max(1L, n %/% 4L)
  lo_i <- idx[seq_len(m)]
  hi_i <- idx[(n - m + 1L):n]
  lo <- frechet_mean_r(Y[, lo_i, drop = FALSE])
  hi <- frechet_mean_r(Y[, hi_i, drop = FALSE])
  xl <- mean(x[lo_i])
  xh <- mean(x[hi_i])
  v <- log_r(lo, matrix(hi))[, 1] / (xh - xl)
  p <- exp_r(lo, matrix(-xl * v))[, 1]
  v <- transport_r(matrix(lo), matrix(-xl * v), matrix(v))[, 1]
  list(p = p, v = v)
}

geodesic_regression_r <- function(x, Y, max_iter = 1000, tol = 1e-10) {
  n <- ncol(Y)
  st <- init_r(x, Y)
  p <- st$p
  v <- st$v
  m1 <- mean(x)
  m2 <- mean(x^2)
  det <- m2 - m1^2
  a <- m2 / det
  b <- -m1 / det
  c <- 1 / det
  g <- gradient_r(p, v, x, Y)
  E <- g$energy
  t <- 1
  it <- 0L
  converged <- FALSE
  gnorm <- function(g) sqrt(sum(g$gp^2) + sum(g$gv^2))
  while (it < max_iter) {
    gn <- gnorm(g)
    if (gn <= tol) {
      converged <- TRUE
      break
    }
    dp <- -(a * g$gp + b * g$gv)
    dv <- -(b * g$gp + c * g$gv)
    slope <- sum(g$gp * dp) + sum(g$gv * dv)
    if (!(slope < 0)) {
      dp <- -g$gp
      dv <- -g$gv
      slope <- -gn^2
    }
    t <- min(1, 2 * t)
    moved <- FALSE
    while (t > 1e-14) {
      p_new <- exp_r(p, matrix(t * dp))[, 1]
      v_new <- transport_r(matrix(p), matrix(t * dp), matrix(v + t * dv))[, 1]
      g_new <- gradient_r(p_new, v_new, x, Y)
      if (g_new$energy <= E + 1e-4 * t * slope) {
        moved <- g_new$energy < E
        p <- p_new
        v <- v_new
        g <- g_new
        E <- g_new$energy
        break
      }
      t <- t / 2
    }
    if (!moved) {
      converged <- gnorm(g) <= sqrt(tol)
      break
    }
    it <- it + 1L
  }
  list(p = p, v = v, energy = E, iterations = it, converged = converged, grad_norm = gnorm(g))
}

# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------
S2 <- sphere(2)
sphere_data <- function(n, seed) {
  set.seed(seed)
  p0 <- c(0, 0, 1)
  x <- runif(n, 10, 70)   # e.g. ages: not on [0, 1], to exercise the rescaling
  t <- (x - 10) / 60
  truth <- mfd_exp(S2, p0, outer(t, c(1.0, 0.5, 0)))
  y <- mfd_exp(S2, truth, 0.15 * mfd_random_tangent(S2, truth, n))
  list(x = x, y = y)
}
datasets <- list(`n = 100` = sphere_data(100, 11), `n = 1000` = sphere_data(1000, 12))

cat("Geodesic regression benchmark (dpmanifold", as.character(utils::packageVersion("dpmanifold")), "on",
    R.version.string, ")\n")
cat("Energies E = (1/2n) sum d(Exp_p(t_i v), y_i)^2 by one formula; times are CPU seconds per fit\n")
cat("(medians of repeated batches; GeodRegr: one run).\n\n")

# ---------------------------------------------------------------------------
# (a) C++ against the same algorithm in plain R
# ---------------------------------------------------------------------------
cat("(a) geodesic_regression() vs the same algorithm in plain R, sphere(2)\n")
for (nm in names(datasets)) {
  d <- datasets[[nm]]
  x01 <- (d$x - min(d$x)) / diff(range(d$x))
  t_ours <- time_it(function() geodesic_regression(S2, d$x, d$y))
  fit <- attr(t_ours, "value")
  t_r <- time_it(function() geodesic_regression_r(x01, t(d$y)))
  fr <- attr(t_r, "value")
  e_ours <- energy_ours(S2, low_end(fit)$p, low_end(fit)$v, x01, d$y)
  e_r <- energy_ours(S2, fr$p, fr$v, x01, d$y)
  cat(sprintf("  %-9s ours: E = %.12f (%d iterations, %s)   plain R: E = %.12f (%d iterations)\n", nm, e_ours,
              fit$iterations, fmt_time(t_ours), e_r, fr$iterations))
  cat(sprintf("            E(ours) - E(plain R) = %.2e; |p - p_R| = %.1e, |v - v_R| = %.1e; plain R / ours time = %.1fx\n",
              e_ours - e_r, sqrt(sum((low_end(fit)$p - fr$p)^2)), sqrt(sum((low_end(fit)$v - fr$v)^2)),
              as.numeric(t_r) / as.numeric(t_ours)))
}
cat("\n")

# ---------------------------------------------------------------------------
# (b) GeodRegr::geo_reg (least squares)
# ---------------------------------------------------------------------------
cat("(b) GeodRegr::geo_reg(estimator = \"l2\")\n")
bench_lib <- Sys.getenv("DPM_BENCH_LIB", "/tmp/h3lib")
have_geodregr <- function() suppressWarnings(requireNamespace("GeodRegr", lib.loc = c(bench_lib, .libPaths()),
                                                               quietly = TRUE))
if (!have_geodregr()) {
  cat("  GeodRegr is not installed; installing it into", bench_lib, "...\n")
  try({
    dir.create(bench_lib, showWarnings = FALSE, recursive = TRUE)
    repos <- getOption("repos")
    if (is.null(repos) || identical(unname(repos["CRAN"]), "@CRAN@")) repos <- c(CRAN = "https://cloud.r-project.org")
    utils::install.packages("GeodRegr", lib = bench_lib, repos = repos, quiet = TRUE)
  }, silent = TRUE)
}

if (!have_geodregr()) {
  cat("  GeodRegr could not be installed: part (b) skipped.\n\n")
} else {
  cat(sprintf("  GeodRegr %s, default tolerances (p_tol = V_tol = 1e-5); x centred as its documentation asks.\n",
              as.character(utils::packageVersion("GeodRegr", lib.loc = c(bench_lib, .libPaths())))))
  # GeodRegr fits y ~ Exp(p, V (x - mean x)). With t = (x - a) / (b - a),
  # a = min x, b = max x: x - mean x = (a - mean x) + (b - a) t, so along the
  # geodesic gamma(s) = Exp(p, s V) our footpoint is gamma(a - mean x) and
  # our shooting vector (b - a) gamma'(a - mean x).
  from_geodregr <- function(p, V, x) {
    s0 <- min(x) - mean(x)
    L <- sqrt(sum(Mod(V)^2))
    e <- V / L
    list(p = cos(s0 * L) * p + sin(s0 * L) * e,
         v = diff(range(x)) * L * (-sin(s0 * L) * p + cos(s0 * L) * e))
  }
  geo_reg <- getExportedValue("GeodRegr", "geo_reg")
  run_geo_reg <- function(manifold, x, Y) suppressWarnings(geo_reg(manifold, x - mean(x), Y, "l2"))

  report <- function(label, e_ours, e_g, t_ours, t_g, it_ours, it_g) {
    cat(sprintf("  %-26s ours: E = %.10f (%s, %d it.)   GeodRegr: E = %.10f (%s, %d it.)\n", label, e_ours,
                fmt_time(t_ours), it_ours, e_g, fmt_time(t_g), it_g))
    cat(sprintf("  %-26s E(ours) - E(GeodRegr) = %.2e; GeodRegr / ours time = %.0fx\n", "", e_ours - e_g,
                as.numeric(t_g) / as.numeric(t_ours)))
  }

  for (nm in names(datasets)) {
    d <- datasets[[nm]]
    x01 <- (d$x - min(d$x)) / diff(range(d$x))
    t_ours <- time_it(function() geodesic_regression(S2, d$x, d$y))
    fit <- attr(t_ours, "value")
    t_g <- time_it(function() run_geo_reg("sphere", d$x, t(d$y)), min_time = 0, batches = 1L, warm = FALSE)
    g <- attr(t_g, "value")
    pv <- from_geodregr(as.vector(g$p), as.vector(g$V), d$x)
    report(paste("sphere(2),", nm), energy_ours(S2, low_end(fit)$p, low_end(fit)$v, x01, d$y),
           energy_ours(S2, pv$p, pv$v, x01, d$y), t_ours, t_g, fit$iterations, g$iteration)
  }

  # Kendall shapes: rats skulls, 8 landmarks, 144 observations (21 rats at 8
  # ages); the covariate is the age in days.
  rats <- NULL
  if (nzchar(system.file(package = "shapes"))) {   # the data only; no need to load shapes (and rgl)
    env <- new.env()
    utils::data("rats", package = "shapes", envir = env)
    rats <- env$rats
  }
  if (is.null(rats)) {
    cat("  shapes::rats is not available: Kendall comparison skipped.\n")
  } else {
    K <- kendall_shape(dim(rats$x)[1])
    age <- rats$time
    t01 <- (age - min(age)) / diff(range(age))
    Z <- as_preshape(rats$x)
    Yc <- matrix(complex(real = Z[, 1, ], imaginary = Z[, 2, ]), dim(Z)[1])   # k x n complex, for GeodRegr
    t_ours <- time_it(function() geodesic_regression(K, age, rats$x))
    fit <- attr(t_ours, "value")
    t_g <- time_it(function() run_geo_reg("kendall", age, Yc), min_time = 0, batches = 1L, warm = FALSE)
    g <- attr(t_g, "value")
    pv <- from_geodregr(as.vector(g$p), as.vector(g$V), age)
    p_k <- cbind(Re(pv$p), Im(pv$p))
    v_k <- cbind(Re(pv$v), Im(pv$v))
    v_h <- mfd_project(K, p_k, v_k)   # horizontal part (GeodRegr's V is horizontal up to rounding)
    report(sprintf("kendall_shape(%d), rats", K$size), energy_ours(K, low_end(fit)$p, low_end(fit)$v, t01, Z),
           energy_ours(K, p_k, v_h, t01, Z), t_ours, t_g, fit$iterations, g$iteration)
    cat(sprintf("  %-26s (vertical part of GeodRegr's v dropped: %.1e)\n", "", sqrt(sum((v_k - v_h)^2))))
  }
  cat("\n")
}

# ---------------------------------------------------------------------------
# (c) one private release
# ---------------------------------------------------------------------------
cat("(c) dp_geodesic_regression() on sphere(2), n = 100, default chain (2000 burn-in + 2000 steps)\n")
set.seed(3)
x <- runif(100)
truth <- mfd_exp(S2, c(0, 0, 1), outer(x, c(0.5, 0.2, 0)))
y <- mfd_exp(S2, truth, 0.05 * mfd_random_tangent(S2, truth, 100))
ctr <- mfd_exp(S2, c(0, 0, 1), c(0.25, 0.1, 0))
for (method in c("joint", "sequential")) {
  tt <- vapply(1:10, function(i) {
    t0 <- c(cpu_now(), proc.time()[["elapsed"]])
    dp_geodesic_regression(S2, x, y, epsilon = 1, tau = 0.2, center = ctr, radius = 0.6, x_range = c(0, 1),
                           method = method)
    c(cpu_now(), proc.time()[["elapsed"]]) - t0
  }, numeric(2))
  cat(sprintf("  method = %-10s median %s CPU (%s elapsed) per release over 10 releases (CPU range %s to %s)\n",
              method, fmt_time(stats::median(tt[1, ])), fmt_time(stats::median(tt[2, ])), fmt_time(min(tt[1, ])),
              fmt_time(max(tt[1, ]))))
}
