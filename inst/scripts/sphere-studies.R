# Simulation studies behind vignette("sphere", package = "dpmanifold").
#
# 1. Utility of the private Frechet mean on S^2 versus the sample size n
#    (Reimherr, Bharath and Soto 2021, Figure 1, fourth panel; Soto et al.
#    2022, Figure 1, left panel): data simulated as in Soto et al. (2022,
#    supplement B.4.1), theta ~ U[0, r], phi ~ U[0, 2 pi) around the north
#    pole, r = pi/8, epsilon = 1. Mechanisms: KNG, Riemannian Laplace, the
#    ambient Euclidean Laplace in R^3 (raw and normalised back to the
#    sphere), and KNG / Laplace with the seed papers' scale sigma = Delta /
#    epsilon (not epsilon-DP in general; reproduces the papers' set-up).
#    Utility: Euclidean (chordal) distance ||xbar - xtilde|| and geodesic
#    distance to the non-private Frechet mean.
# 2. DP geodesic regression on S^2 with the epsilon-split study of Kulkarni
#    and Soto (DP geodesic regression, section 4.1, Figure 1): points on a
#    random geodesic, Gaussian noise of covariance delta I_3 (delta = 0.001),
#    normalised back to the sphere; MSE (1/n) sum d(Exp_p(x_i v), y_i)^2 of
#    the private geodesic for several n, total budgets and splits, for the
#    joint KNG release and the seed paper's sequential procedure.
#
# Usage (from the package source or the installed package):
#   Rscript inst/scripts/sphere-studies.R [output.rds]
# The default output is inst/extdata/sphere-studies.rds below the current
# directory. Set DPMANIFOLD_STUDY_SMALL=true for a smoke run of a few seconds
# (used by tests/testthat/test-study-scripts-sphere.R), or call
# sphere_studies(small = TRUE) after source()-ing this file.

# `parts` recomputes only some studies; the others are taken from `previous`
# (an earlier result file), so one study can be refreshed on its own.
sphere_studies <- function(small = FALSE, out = NULL, seed = 20240601, verbose = !small,
                           parts = c("mean", "regression"), previous = NULL) {
  suppressPackageStartupMessages(library(dpmanifold))
  set.seed(seed)
  t0 <- proc.time()[["elapsed"]]
  settings <- if (small) {
    list(mean_n = c(10, 50), mean_reps = 3,
         reg_n = c(20, 50), reg_reps = 2, reg_eps = c(0.5, 2), reg_split_p = c(0.1, 1.01),
         reg_mcmc = mcmc_control(burnin = 200, steps = 200))
  } else {
    list(mean_n = c(10, 20, 50, 100, 200, 500), mean_reps = 200,
         reg_n = c(20, 50, 100, 200), reg_reps = 20, reg_eps = c(0.2, 0.5, 1, 2),
         reg_split_p = c(0.02, 0.1, 0.25, 0.5, 1.01, 1.52, 1.77, 1.92, 2),
         reg_mcmc = mcmc_control(burnin = 1000, steps = 1000))
  }
  say <- function(...) if (verbose) message(sprintf(...))
  old <- if (!is.null(previous) && length(setdiff(c("mean", "regression"), parts))) readRDS(previous)
  mean_study <- if ("mean" %in% parts) study_frechet_utility(settings, say) else old$frechet_utility
  say("utility study done after %.0f s", proc.time()[["elapsed"]] - t0)
  reg_study <- if ("regression" %in% parts) study_regression_split(settings, say) else old$regression
  say("regression study done after %.0f s", proc.time()[["elapsed"]] - t0)
  res <- list(
    frechet_utility = mean_study,
    regression = reg_study,
    info = list(small = small, seed = seed, created = format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z"),
                R = R.version.string, dpmanifold = as.character(utils::packageVersion("dpmanifold")),
                seconds = proc.time()[["elapsed"]] - t0,
                mcmc = list(regression = unclass(settings$reg_mcmc))))
  if (!is.null(out)) {
    dir.create(dirname(out), showWarnings = FALSE, recursive = TRUE)
    saveRDS(res, out, version = 2)
  }
  invisible(res)
}

# Evaluate an expression whose privacy-leak warning is expected (the
# seed-scale releases) without printing it.
quiet_leak <- function(expr) {
  withCallingHandlers(expr, dpmanifold_privacy_leak = function(w) invokeRestart("muffleWarning"))
}

# Soto et al. (2022), supplement B.4.1: polar coordinates around the north
# pole, theta uniform on [0, r].
simulate_cap <- function(n, r = pi / 8) {
  th <- stats::runif(n, 0, r)
  ph <- stats::runif(n, 0, 2 * pi)
  cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
}

study_frechet_utility <- function(settings, say) {
  S2 <- sphere(2)
  north <- c(0, 0, 1)
  r <- pi / 8
  eps <- 1
  rows <- list()
  for (n in settings$mean_n) {
    for (b in seq_len(settings$mean_reps)) {
      X <- simulate_cap(n, r)
      xbar <- frechet_mean(S2, X)$mean
      rel <- list(
        kng = dp_frechet_mean(S2, X, eps, "kng", center = north, radius = r),
        laplace = dp_frechet_mean(S2, X, eps, "laplace", center = north, radius = r),
        laplace_truncated = dp_frechet_mean(S2, X, eps, "laplace", center = north, radius = r, truncated = TRUE),
        kng_seed_scale = quiet_leak(dp_frechet_mean(S2, X, eps, "kng", center = north, radius = r,
                                                    seed_scale = TRUE)),
        laplace_seed_scale = quiet_leak(dp_frechet_mean(S2, X, eps, "laplace", center = north,
                                                        radius = r, seed_scale = TRUE)),
        euclidean = dp_frechet_mean(S2, X, eps, "euclidean_laplace", center = north, radius = r))
      est <- lapply(rel, function(z) as.numeric(z$estimate))
      # the ambient Euclidean baseline before and after normalising to the
      # sphere (the release itself is the normalised one)
      est$euclidean_ambient <- xbar + dpmanifold:::cpp_euclidean_laplace_noise(3L, rel$euclidean$sigma, 1L)[, 1]
      est$euclidean_projected <- est$euclidean_ambient / sqrt(sum(est$euclidean_ambient^2))
      est$euclidean <- NULL
      for (m in names(est)) {
        e <- est[[m]]
        on_sphere <- abs(sqrt(sum(e^2)) - 1) < 1e-8
        rows[[length(rows) + 1L]] <- data.frame(
          n = n, rep = b, mechanism = m,
          euclidean_dist = sqrt(sum((e - xbar)^2)),
          geodesic_dist = if (on_sphere) mfd_dist(S2, xbar, e / sqrt(sum(e^2))) else NA_real_,
          sigma = if (m %in% c("euclidean_ambient", "euclidean_projected")) rel$euclidean$sigma else rel[[m]]$sigma,
          stringsAsFactors = FALSE)
      }
    }
    say("  utility study: n = %d done", n)
  }
  raw <- do.call(rbind, rows)
  key <- interaction(raw$mechanism, raw$n, drop = TRUE, lex.order = TRUE)
  summ <- do.call(rbind, lapply(split(raw, key), function(d) {
    data.frame(n = d$n[1], mechanism = d$mechanism[1], reps = nrow(d),
               mean = mean(d$euclidean_dist), se = stats::sd(d$euclidean_dist) / sqrt(nrow(d)),
               mean_geodesic = mean(d$geodesic_dist), sigma = d$sigma[1], stringsAsFactors = FALSE)
  }))
  rownames(summ) <- NULL
  summ <- summ[order(summ$mechanism, summ$n), ]
  list(summary = summ, raw = raw,
       design = list(n = settings$mean_n, reps = settings$mean_reps, epsilon = eps, radius = r,
                     center = north, data = "theta ~ U[0, pi/8], phi ~ U[0, 2 pi) around the north pole"))
}

# Kulkarni and Soto, section 4.1: points on a random geodesic plus Gaussian
# noise delta I_3, normalised back to the sphere. The generating geodesic
# starts at a uniform random q0 with a shooting vector of length `len` in a
# uniform random direction; the public ball is centred at its midpoint
# (known to whoever designs the study, not computed from the data).
simulate_geodesic_data <- function(n, len = 0.6, delta = 0.001) {
  S2 <- sphere(2)
  q0 <- mfd_random_point(S2, 1)
  zeta <- mfd_random_tangent(S2, q0, 1)
  zeta <- len * zeta / sqrt(sum(zeta^2))
  x <- stats::runif(n)
  G <- mfd_exp(S2, q0, outer(x, zeta))
  Y <- G + matrix(stats::rnorm(3 * n, sd = sqrt(delta)), n)
  Y <- Y / sqrt(rowSums(Y^2))
  list(x = x, y = Y, center = as.numeric(mfd_exp(S2, q0, zeta / 2)), radius = len / 2 + 0.1)
}

regression_mse <- function(S2, p, v, x, Y) {
  pred <- mfd_exp(S2, p, outer(x, as.numeric(v)))
  mean(mfd_dist(S2, pred, Y)^2)
}

study_regression_split <- function(settings, say) {
  S2 <- sphere(2)
  tau <- 0.15
  mc <- settings$reg_mcmc
  total_split <- 2.02
  rows <- list()
  add <- function(...) rows[[length(rows) + 1L]] <<- data.frame(..., stringsAsFactors = FALSE)
  for (n in settings$reg_n) {
    for (b in seq_len(settings$reg_reps)) {
      D <- simulate_geodesic_data(n)
      fit <- geodesic_regression(S2, D$x, D$y, x_range = c(0, 1))
      lo <- dpmanifold:::regression_release_curve(S2, coef(fit)$p, coef(fit)$v, coef(fit)$x0, fit$x_range)
      e0 <- regression_mse(S2, lo$p, lo$v, D$x, D$y)
      release <- function(eps, method) {
        # the sequential procedure warns that it is not DP as stated: known here
        rel <- withCallingHandlers(
          dp_geodesic_regression(S2, D$x, D$y, epsilon = eps, tau = tau, center = D$center,
                                 radius = D$radius, x_range = c(0, 1), method = method, mcmc = mc),
          dpmanifold_privacy_leak = function(w) if (method == "sequential") invokeRestart("muffleWarning"))
        # releases: footpoint at the middle of x_range, velocity per unit of x
        mean(mfd_dist(S2, predict(rel, D$x), D$y)^2)
      }
      for (eps in settings$reg_eps) {
        add(study = "equal", n = n, rep = b, method = "joint", epsilon = eps, epsilon_p = NA_real_,
            epsilon_v = NA_real_, mse = release(eps, "joint"), mse_nonprivate = e0)
        add(study = "equal", n = n, rep = b, method = "sequential", epsilon = eps, epsilon_p = eps / 2,
            epsilon_v = eps / 2, mse = release(c(p = eps / 2, v = eps / 2), "sequential"),
            mse_nonprivate = e0)
      }
      for (ep in settings$reg_split_p) {
        ev <- round(total_split - ep, 10)
        add(study = "split", n = n, rep = b, method = "sequential", epsilon = total_split, epsilon_p = ep,
            epsilon_v = ev, mse = release(c(p = ep, v = ev), "sequential"), mse_nonprivate = e0)
      }
      add(study = "split", n = n, rep = b, method = "joint", epsilon = total_split, epsilon_p = NA_real_,
          epsilon_v = NA_real_, mse = release(total_split, "joint"), mse_nonprivate = e0)
    }
    say("  regression study: n = %d done", n)
  }
  raw <- do.call(rbind, rows)
  key <- interaction(raw$study, raw$method, raw$n, raw$epsilon, raw$epsilon_p, drop = TRUE, lex.order = TRUE)
  raw$epsilon_p_key <- ifelse(is.na(raw$epsilon_p), -1, raw$epsilon_p)
  key <- interaction(raw$study, raw$method, raw$n, raw$epsilon, raw$epsilon_p_key, drop = TRUE, lex.order = TRUE)
  summ <- do.call(rbind, lapply(split(raw, key), function(d) {
    data.frame(study = d$study[1], method = d$method[1], n = d$n[1], epsilon = d$epsilon[1],
               epsilon_p = d$epsilon_p[1], epsilon_v = d$epsilon_v[1], reps = nrow(d),
               mean_mse = mean(d$mse), se_mse = stats::sd(d$mse) / sqrt(nrow(d)),
               log_mean_mse = log(mean(d$mse)), mean_mse_nonprivate = mean(d$mse_nonprivate),
               log_mean_mse_nonprivate = log(mean(d$mse_nonprivate)), stringsAsFactors = FALSE)
  }))
  rownames(summ) <- NULL
  raw$epsilon_p_key <- NULL
  list(summary = summ, raw = raw,
       design = list(n = settings$reg_n, reps = settings$reg_reps, tau = tau, geodesic_length = 0.6,
                     noise_delta = 0.001, radius = "geodesic length / 2 + 0.1, around the midpoint",
                     epsilon_equal = settings$reg_eps, split_total = total_split,
                     split_epsilon_p = settings$reg_split_p, mcmc = unclass(settings$reg_mcmc)))
}

if (sys.nframe() == 0L) {
  args <- commandArgs(trailingOnly = TRUE)
  small <- tolower(Sys.getenv("DPMANIFOLD_STUDY_SMALL", "false")) %in% c("true", "1", "yes")
  out <- if (length(args)) args[1] else file.path("inst", "extdata", "sphere-studies.rds")
  res <- sphere_studies(small = small, out = out)
  message(sprintf("wrote %s (%.0f s)", out, res$info$seconds))
}
