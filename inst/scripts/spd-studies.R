# Precomputed study for vignettes/spd.Rmd: utility of private Frechet means of
# 2 x 2 covariance matrices against the sample size.
#
# Design (Soto et al. 2022, supplement B.3.1; Reimherr et al. 2021, Fig. 1):
# data from the Wishart law W(I/k, df = k) with k = 2, kept (by rejection)
# within affine-invariant distance r = 1.5 of the identity, which is the
# public centre; epsilon = 1. Each replicate releases the Frechet mean with
#   * "kng"               K-norm gradient mechanism (MCMC),
#   * "laplace"           Riemannian Laplace mechanism (MCMC),
#   * "wrapped_laplace"   exponential-wrapped Laplace (exact, epsilon-DP),
#   * "wrapped_gaussian"  exponential-wrapped Gaussian (exact, (1, 1e-5)-DP),
#   * "euclidean_laplace" vech / K-norm Laplace on the arithmetic mean in the
#                         symmetric matrices (may leave the SPD cone),
# and records the distance of the release to the non-private Frechet mean
# (affine-invariant when the release is SPD; Frobenius = isometric vech
# always) and whether the release is SPD.
#
# Run from the package root (or anywhere, with dpmanifold installed):
#   Rscript inst/scripts/spd-studies.R                 # full study
#   DPMANIFOLD_STUDY_SMALL=true Rscript inst/scripts/spd-studies.R   # seconds
# or source() the file and call run_spd_studies(small = TRUE, file = ...).
# The full study writes inst/extdata/spd-studies.rds.

run_spd_studies <- function(small = identical(tolower(Sys.getenv("DPMANIFOLD_STUDY_SMALL")), "true"),
                            file = NULL, reps = if (small) 3L else 100L,
                            n_grid = if (small) c(10L, 40L) else c(10L, 20L, 30L, 40L, 80L, 160L),
                            seed = 2022L, cores = 1L) {
  stopifnot(requireNamespace("dpmanifold", quietly = TRUE))
  k <- 2L; r <- 1.5; epsilon <- 1; delta <- 1e-5
  P <- dpmanifold::spd(k)
  I <- diag(k)
  mechanisms <- c("kng", "laplace", "wrapped_laplace", "wrapped_gaussian", "euclidean_laplace")

  # n draws of W(I/k, df = k) within distance r of I (rejection, as B.3.1).
  rwishart_ball <- function(n) {
    out <- array(0, c(k, k, 0))
    while (dim(out)[3] < n) {
      W <- stats::rWishart(2L * n, df = k, Sigma = I / k)
      keep <- dpmanifold::mfd_dist(P, I, W) <= r
      out <- array(c(out, W[, , keep]), c(k, k, dim(out)[3] + sum(keep)))
    }
    out[, , seq_len(n), drop = FALSE]
  }

  one_rep <- function(n, rep) {
    set.seed(seed + 1000L * n + rep)
    X <- rwishart_ball(n)
    xbar <- dpmanifold::frechet_mean(P, X)$mean
    amean <- apply(X, 1:2, mean)
    rows <- lapply(mechanisms, function(m) {
      t0 <- proc.time()[["elapsed"]]
      rel <- suppressWarnings(dpmanifold::dp_frechet_mean(
        P, X, epsilon = epsilon, mechanism = m, center = I, radius = r,
        delta = if (m == "wrapped_gaussian") delta))
      secs <- proc.time()[["elapsed"]] - t0
      est <- rel$estimate
      ev <- eigen(est, symmetric = TRUE, only.values = TRUE)$values
      spd_ok <- min(ev) > 0
      data.frame(n = n, rep = rep, mechanism = m,
                 dist = if (spd_ok) dpmanifold::mfd_dist(P, xbar, est) else NA_real_,
                 frob = sqrt(sum((est - xbar)^2)),
                 frob_target = sqrt(sum((est - if (m == "euclidean_laplace") amean else xbar)^2)),
                 on_manifold = spd_ok,
                 seconds = secs, stringsAsFactors = FALSE)
    })
    do.call(rbind, rows)
  }

  grid <- expand.grid(rep = seq_len(reps), n = n_grid)
  run <- function(i) one_rep(grid$n[i], grid$rep[i])
  t_start <- proc.time()[["elapsed"]]
  res <- if (cores > 1L && .Platform$OS.type == "unix") {
    parallel::mclapply(seq_len(nrow(grid)), run, mc.cores = cores, mc.preschedule = TRUE)
  } else {
    lapply(seq_len(nrow(grid)), run)
  }
  raw <- do.call(rbind, res)
  elapsed <- proc.time()[["elapsed"]] - t_start

  # Per (mechanism, n): mean and standard error of the distances, fraction SPD.
  keys <- unique(raw[, c("mechanism", "n")])
  summ <- do.call(rbind, lapply(seq_len(nrow(keys)), function(j) {
    s <- raw[raw$mechanism == keys$mechanism[j] & raw$n == keys$n[j], ]
    se <- function(z) { z <- z[is.finite(z)]; if (length(z) > 1) stats::sd(z) / sqrt(length(z)) else NA_real_ }
    data.frame(mechanism = keys$mechanism[j], n = keys$n[j], reps = nrow(s),
               dist_mean = mean(s$dist, na.rm = TRUE), dist_se = se(s$dist),
               frob_mean = mean(s$frob), frob_se = se(s$frob),
               frob_target_mean = mean(s$frob_target), frob_target_se = se(s$frob_target),
               frac_spd = mean(s$on_manifold),
               seconds = mean(s$seconds),
               stringsAsFactors = FALSE)
  }))
  out <- list(
    summary = summ,
    settings = list(k = k, radius = r, center = I, epsilon = epsilon, delta = delta,
                    wishart = "W(I/k, df = k), kept within distance r of I (rejection)",
                    n_grid = n_grid, reps = reps, mechanisms = mechanisms,
                    seed = seed, small = small),
    info = list(elapsed_seconds = elapsed, date = format(Sys.time(), "%Y-%m-%d"),
                R = R.version.string, dpmanifold = as.character(utils::packageVersion("dpmanifold")),
                cores = cores))
  if (!is.null(file)) saveRDS(out, file, compress = "xz")
  invisible(out)
}

if (sys.nframe() == 0L) {
  small <- identical(tolower(Sys.getenv("DPMANIFOLD_STUDY_SMALL")), "true")
  file <- Sys.getenv("DPMANIFOLD_STUDY_OUT",
                     if (small) file.path(tempdir(), "spd-studies.rds") else file.path("inst", "extdata", "spd-studies.rds"))
  res <- run_spd_studies(small = small, file = file,
                         cores = as.integer(Sys.getenv("DPMANIFOLD_STUDY_CORES", "2")))
  print(res$summary, digits = 3)
  cat(sprintf("elapsed %.1f s; written to %s\n", res$info$elapsed_seconds, file))
}
