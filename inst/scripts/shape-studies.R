# Precomputed studies for vignettes/corpus-callosum.Rmd (planar shapes on
# Kendall's shape space).
#
# 1. "mean": private mean shapes of SIMULATED corpus callosum outlines
#    (simulate_corpus_callosum(); nothing here is ADNI data), as Soto et al.
#    (2022) Fig. 2-3: six releases each of the package's default (the
#    Riemannian Laplace mechanism), KNG, landmark-wise Laplace after
#    Procrustes alignment, and landmark-wise Laplace without alignment.
# 2. "utility": distance of the release to the non-private Frechet mean
#    against the sample size, for the same four mechanisms (replicates),
#    beside the distance of the public centre (what one releases at no
#    privacy cost) and each mechanism's public error prediction (the one
#    behind the dpmanifold_low_utility warning).
# 3. "regression": DP geodesic regression of the SIMULATED outlines on age
#    (Kulkarni and Soto, Fig. 3) with the package's default (exact
#    epsilon-DP), beside the public centre as a constant geodesic.
# 4. "rats": the same for the rat skull landmarks (shapes::rats, 8
#    landmarks, 18 rats at 8 ages) on log age.
#
# KNG: drawn by its exact sampler where that sampler accepts the public
# inputs (sigma, radius, dimension; it refuses when its noise is as wide as
# the ball), else by Metropolis-Hastings, labelled (epsilon, delta)-DP with
# delta unknown; the `sampler` column says which.
#
# Public bounds: the centre is always the Frechet mean of a separate PUBLIC
# sample (a different simulated sample, or for the rats a disjoint set of
# animals) and the radius / residual bound are read off that public sample
# and rounded up; the private data never choose them.
#
# Run:
#   Rscript inst/scripts/shape-studies.R                  # full study
#   DPMANIFOLD_STUDY_SMALL=true Rscript inst/scripts/shape-studies.R  # seconds
# or source() the file and call run_shape_studies(small = TRUE, file = ...).

# Seeded samples: with_seed() (inst/scripts/seeding.R, shared with the
# tests) evaluates simulate_corpus_callosum() after set.seed(seed) and puts
# the caller's stream back: a study script seeds, the package does not.
sys.source(system.file("scripts", "seeding.R", package = "dpmanifold", mustWork = TRUE), envir = environment())
simulate_seeded <- function(seed, ...) with_seed(seed, dpmanifold::simulate_corpus_callosum(...))

run_shape_studies <- function(small = identical(tolower(Sys.getenv("DPMANIFOLD_STUDY_SMALL")), "true"),
                              file = NULL, seed = 2022L, cores = 1L,
                              k = if (small) 20L else 50L,
                              n_cc = if (small) 60L else 409L,
                              reps = if (small) 2L else 40L,
                              n_grid = if (small) c(30L, 60L) else c(50L, 100L, 200L, 409L, 1000L, 3000L, 10000L, 30000L),
                              mcmc = if (small) dpmanifold::mcmc_control(burnin = 300, steps = 300) else
                                dpmanifold::mcmc_control(burnin = 1500, steps = 1500)) {
  stopifnot(requireNamespace("dpmanifold", quietly = TRUE))
  t_start <- proc.time()[["elapsed"]]
  M <- dpmanifold::kendall_shape(k)
  epsilon <- 1
  lapply_par <- function(X, FUN) {
    if (cores > 1L && .Platform$OS.type == "unix") parallel::mclapply(X, FUN, mc.cores = cores) else lapply(X, FUN)
  }
  round_up <- function(x, to = 0.05) ceiling(x / to) * to

  # Public template: Frechet mean of a separate simulated sample; public
  # radius: the largest distance of that sample to its mean, rounded up.
  pub <- simulate_seeded(seed + 1L, if (small) 40L else 200L, k = k)
  center <- dpmanifold::frechet_mean(M, pub$shapes)$mean
  pub_d <- dpmanifold::mfd_dist(M, center, dpmanifold::as_preshape(pub$shapes))
  radius <- min(round_up(max(pub_d)), 0.95 * dpmanifold::max_radius(M))

  # ---- mechanisms -----------------------------------------------------------
  mechs <- c(laplace = "laplace", kng = "kng", laplace_aligned = "aligned", laplace_unaligned = "unaligned")
  mech_args <- function(m) {
    list(mechanism = switch(m, laplace = "laplace", kng = "kng", "euclidean_laplace"), align = m != "unaligned")
  }
  # Public facts of a mechanism at sample size n: sampler (KNG: exact where
  # its exact sampler accepts these public inputs), scale, and the public
  # error prediction with the low-utility flag.
  plan <- function(m, n) {
    a <- mech_args(m)
    low <- FALSE
    build <- function(sampler) withCallingHandlers(
      do.call(dpmanifold::frechet_mechanism, c(list(M, n = n, epsilon = epsilon, center = center, radius = radius,
                                                    sampler = sampler, mcmc = if (sampler == "mcmc") mcmc), a)),
      dpmanifold_low_utility = function(w) {
        low <<- TRUE
        invokeRestart("muffleWarning")
      })
    mech <- build("exact")
    sampler <- "exact"
    # the exact KNG sampler refuses, from the public inputs alone, when its
    # noise is as wide as the ball in this dimension
    if (a$mechanism == "kng" && !isTRUE(dpmanifold:::exact_sampler_available(M, mech$spec$sigma, mech$spec$center,
                                                                              radius, "kng"))) {
      sampler <- "mcmc"
    }
    list(args = a, sampler = sampler, sigma = mech$stages[[1]]$sigma,
         expected = mech$expected_error$value, low_utility = low)
  }
  release <- function(X, pl) {
    suppressWarnings(do.call(dpmanifold::dp_frechet_mean,
                             c(list(M, X, epsilon = epsilon, center = center, radius = radius,
                                    sampler = pl$sampler, mcmc = if (pl$sampler == "mcmc") mcmc), pl$args)))
  }

  # ---- 1. six releases of the mean shape per mechanism --------------------
  cc <- simulate_seeded(seed, n_cc, k = k, age = NULL)
  xbar <- dpmanifold::frechet_mean(M, cc$shapes)$mean
  set.seed(seed + 10L)
  six <- lapply(names(mechs), function(m) {
    pl <- plan(m, n_cc)
    rels <- lapply(1:6, function(i) release(cc$shapes, pl))
    est <- array(unlist(lapply(rels, function(r) dpmanifold::align_shapes(M, r$estimate, xbar))), c(k, 2L, 6L))
    list(estimates = est,
         dist = vapply(rels, function(r) dpmanifold::mfd_dist(M, xbar, r$estimate), numeric(1)),
         sigma = rels[[1]]$sigma, sensitivity = rels[[1]]$sensitivity, sampler = pl$sampler,
         guarantee = rels[[1]]$privacy$guarantee, expected = pl$expected, low_utility = pl$low_utility)
  })
  names(six) <- names(mechs)
  mean_study <- list(sample = cc$shapes[, , 1:10], nonprivate = xbar, releases = six,
                     center_dist = dpmanifold::mfd_dist(M, xbar, center),
                     n = n_cc, k = k, epsilon = epsilon, center = center, radius = radius)

  # ---- 2. utility against n -----------------------------------------------
  plans <- lapply(n_grid, function(n) lapply(stats::setNames(names(mechs), names(mechs)), plan, n = n))
  names(plans) <- n_grid
  grid <- expand.grid(rep = seq_len(reps), n = n_grid)
  util_rows <- lapply_par(seq_len(nrow(grid)), function(i) {
    n <- grid$n[i]; rp <- grid$rep[i]
    set.seed(seed + 100000L + 1000L * n + rp)
    X <- dpmanifold::simulate_corpus_callosum(n, k = k)$shapes
    xb <- dpmanifold::frechet_mean(M, X)$mean
    rows <- lapply(names(mechs), function(nm) {
      r <- release(X, plans[[as.character(n)]][[nm]])
      data.frame(n = n, rep = rp, mechanism = nm, dist = dpmanifold::mfd_dist(M, xb, r$estimate),
                 stringsAsFactors = FALSE)
    })
    do.call(rbind, c(rows, list(data.frame(n = n, rep = rp, mechanism = "public_centre",
                                           dist = dpmanifold::mfd_dist(M, xb, center), stringsAsFactors = FALSE))))
  })
  util <- do.call(rbind, util_rows)
  keys <- unique(util[, c("mechanism", "n")])
  util_summary <- do.call(rbind, lapply(seq_len(nrow(keys)), function(j) {
    d <- util$dist[util$mechanism == keys$mechanism[j] & util$n == keys$n[j]]
    pl <- if (keys$mechanism[j] == "public_centre") NULL else plans[[as.character(keys$n[j])]][[keys$mechanism[j]]]
    data.frame(mechanism = keys$mechanism[j], n = keys$n[j], reps = length(d), dist_mean = mean(d),
               dist_se = if (length(d) > 1) stats::sd(d) / sqrt(length(d)) else NA_real_,
               sampler = if (is.null(pl)) NA_character_ else pl$sampler,
               expected = if (is.null(pl)) NA_real_ else pl$expected,
               low_utility = if (is.null(pl)) NA else pl$low_utility, stringsAsFactors = FALSE)
  }))

  # ---- 3. geodesic regression of the simulated outlines on age -----------
  # The package's default (method = "gauss_newton", exact epsilon-DP); the
  # public centre as a constant geodesic is the free release to beat.
  ages <- c(50, 90)
  pub_fit <- dpmanifold::geodesic_regression(M, pub$covariates$age, pub$shapes, x_range = ages)
  tau <- round_up(max(pub_fit$residuals$norms), 0.01)
  cc_reg <- simulate_seeded(seed + 2L, n_cc, k = k, age = stats::runif(n_cc, 50, 90))
  set.seed(seed + 20L)
  fit <- dpmanifold::geodesic_regression(M, cc_reg$covariates$age, cc_reg$shapes, x_range = ages)
  reg_eps <- c(0.6, 10)
  strip <- function(rel) list(p = rel$estimate$p, v = rel$estimate$v, x0 = rel$estimate$x0,
                              x_range = rel$estimate$x_range, method = rel$method,
                              guarantee = rel$privacy$guarantee, epsilon = rel$privacy$epsilon)
  reg_rel <- lapply(reg_eps, function(e) strip(suppressWarnings(dpmanifold::dp_geodesic_regression(
    M, cc_reg$covariates$age, cc_reg$shapes, epsilon = e, tau = tau, center = center,
    radius = radius, x_range = ages))))
  names(reg_rel) <- paste0("eps_", reg_eps)
  constant_at <- function(p, x_range) list(p = p, v = 0 * p, x0 = mean(x_range), x_range = x_range)
  regression <- list(nonprivate = list(p = fit$coef$p, v = fit$coef$v, x0 = fit$coef$x0, x_range = ages),
                     releases = reg_rel, public_centre = constant_at(center, ages),
                     n = n_cc, tau = tau, center = center, radius = radius,
                     age_grid = c(60, 65, 70, 75, 80))

  # ---- 4. rats: shape of the skull vs log age -----------------------------
  rats <- NULL
  if (nzchar(system.file("data", "rats.rda", package = "shapes"))) {
    # Load the data file directly (does not attach shapes or load rgl).
    e <- new.env()
    load(system.file("data", "rats.rda", package = "shapes"), envir = e)
    rd <- e$rats
    Mr <- dpmanifold::kendall_shape(dim(rd$x)[1])
    public_ids <- 1:6                      # public pilot animals
    pubr <- rd$no %in% public_ids
    lage <- log(rd$time)
    lrange <- log(c(7, 150))               # design ages (days), public
    pf <- dpmanifold::geodesic_regression(Mr, lage[pubr], rd$x[, , pubr], x_range = lrange)
    rcenter <- dpmanifold::frechet_mean(Mr, rd$x[, , pubr])$mean
    rradius <- round_up(max(dpmanifold::mfd_dist(Mr, rcenter, dpmanifold::as_preshape(rd$x[, , pubr]))) * 1.2)
    rtau <- round_up(max(pf$residuals$norms) * 1.2, 0.01)
    priv <- !pubr
    rfit <- dpmanifold::geodesic_regression(Mr, lage[priv], rd$x[, , priv], x_range = lrange)
    set.seed(seed + 30L)
    # One animal contributes 8 records: a release that is epsilon-DP per
    # record is 8 epsilon-DP per animal (group privacy).
    eps_record <- c(1, 10)
    rd$x <- dpmanifold::as_preshape(rd$x)
    rrel <- lapply(eps_record, function(e) strip(suppressWarnings(dpmanifold::dp_geodesic_regression(
      Mr, lage[priv], rd$x[, , priv], epsilon = e, tau = rtau, center = rcenter, radius = rradius,
      x_range = lrange))))
    names(rrel) <- paste0("eps_", eps_record)
    rats <- list(nonprivate = list(p = rfit$coef$p, v = rfit$coef$v, x0 = rfit$coef$x0, x_range = lrange),
                 releases = rrel, public_centre = constant_at(rcenter, lrange),
                 epsilon_record = eps_record, epsilon_animal = 8 * eps_record, records_per_animal = 8L,
                 n = sum(priv), n_animals = length(unique(rd$no[priv])), public_ids = public_ids,
                 center = rcenter, radius = rradius, tau = rtau, age_grid = c(7, 14, 30, 60, 150))
  }

  out <- list(mean = mean_study, utility = util_summary, regression = regression, rats = rats,
              settings = list(k = k, n_cc = n_cc, reps = reps, n_grid = n_grid, epsilon = epsilon,
                              radius = radius, public_sample = dim(pub$shapes)[3],
                              mcmc = unclass(mcmc), seed = seed, small = small, simulated = TRUE),
              info = list(elapsed_seconds = proc.time()[["elapsed"]] - t_start,
                          date = format(Sys.time(), "%Y-%m-%d"), R = R.version.string,
                          dpmanifold = as.character(utils::packageVersion("dpmanifold")), cores = cores))
  if (!is.null(file)) saveRDS(out, file, compress = "xz")
  invisible(out)
}

if (sys.nframe() == 0L) {
  small <- identical(tolower(Sys.getenv("DPMANIFOLD_STUDY_SMALL")), "true")
  file <- Sys.getenv("DPMANIFOLD_STUDY_OUT",
                     if (small) file.path(tempdir(), "shape-studies.rds") else file.path("inst", "extdata", "shape-studies.rds"))
  res <- run_shape_studies(small = small, file = file,
                           cores = as.integer(Sys.getenv("DPMANIFOLD_STUDY_CORES", "2")))
  print(res$utility, digits = 3)
  cat(sprintf("elapsed %.1f s; written to %s\n", res$info$elapsed_seconds, file))
}
