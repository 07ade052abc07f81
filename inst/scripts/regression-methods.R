# Precomputed study for vignettes/sphere.Rmd and vignettes/corpus-callosum.Rmd:
# the error of each private geodesic-regression method against epsilon.
#
# Error = energy ratio: the energy (half the sum of squared residual
# distances) of the released geodesic divided by that of the non-private fit
# on the same data; 1 is the non-private fit. Reported as the median and the
# quartiles over `reps` data sets (S^2) or release replicates (rats).
#
# 1. "sphere": the setting of Kulkarni and Soto (section 4.1) used by issue
#    10's targets: a geodesic of length 0.6 from a random start, x ~ U[0, 1],
#    noise N(0, 0.001 I_3) normalised back onto S^2, tau = 0.15, public ball
#    of radius 0.4 around the geodesic's midpoint; n in `n_sphere`.
# 2. "rats": Kendall shapes of the rat skulls (shapes::rats, 8 landmarks) on
#    log age; six pilot animals are public and fix the centre (their Frechet
#    mean), the radius and tau (1.2 x their largest distance / residual); the
#    other 12 animals (96 records) are private. The data are fixed, so the
#    spread is over releases. Skipped when shapes is not installed.
#
# Every method of dp_geodesic_regression() except "sequential" (not DP) and
# "auto" (which picks one of the others) is
# run with its defaults (exact samplers where the package has them, the
# default chains otherwise: those releases are labelled delta unknown).
# Beside them, the row "public_centre": the public centre as a constant
# geodesic, which is released at no privacy cost; a method whose ratio is
# not below it is no better than that.
#
# Run:
#   Rscript inst/scripts/regression-methods.R                 # full (~10 min)
#   DPMANIFOLD_STUDY_SMALL=true Rscript inst/scripts/regression-methods.R
# or source() the file and call run_regression_methods(small = TRUE).

run_regression_methods <- function(small = identical(tolower(Sys.getenv("DPMANIFOLD_STUDY_SMALL")), "true"),
                                   file = NULL, seed = 2026L,
                                   reps = if (small) 2L else 20L,
                                   epsilon = if (small) c(0.5, 2) else c(0.25, 0.5, 1, 2, 4, 8),
                                   n_sphere = if (small) 100L else c(100L, 500L),
                                   methods = NULL) {
  stopifnot(requireNamespace("dpmanifold", quietly = TRUE))
  t_start <- proc.time()[["elapsed"]]
  if (is.null(methods)) {
    methods <- setdiff(eval(formals(dpmanifold::dp_geodesic_regression)$method), c("auto", "sequential"))
  }
  quiet <- function(e) withCallingHandlers(e, warning = function(w) invokeRestart("muffleWarning"))
  energy <- function(M, x, Y, x_range, p, v) {
    # the package's energy in its centred parametrisation (p at mid-range,
    # v per unit of x)
    x0 <- mean(x_range)
    dpmanifold:::cpp_regression_energy(M, x - x0, dpmanifold:::to_ambient(M, Y, "y"),
                                       as.numeric(dpmanifold:::to_ambient(M, p, "p")),
                                       as.numeric(dpmanifold:::to_ambient(M, v, "v")))
  }
  # Each method's ratio, and that of the public centre as a constant
  # geodesic (p = center, v = 0): the release that costs no privacy.
  ratios <- function(M, x, Y, x_range, E0, args) {
    r <- vapply(methods, function(m) {
      rel <- tryCatch(quiet(do.call(dpmanifold::dp_geodesic_regression, c(list(M, x, Y), args, list(method = m)))),
                      dpmanifold_error = function(e) NULL)
      if (is.null(rel)) NA_real_ else energy(M, x, Y, x_range, rel$estimate$p, rel$estimate$v) / E0
    }, numeric(1))
    c(r, public_centre = energy(M, x, Y, x_range, args$center, 0 * args$center) / E0)
  }
  rows <- c(methods, "public_centre")
  summarise <- function(R, keys) {
    do.call(rbind, lapply(rows, function(m) {
      r <- R[m, ]
      cbind(keys, data.frame(method = m, median = stats::median(r, na.rm = TRUE),
                             q25 = unname(stats::quantile(r, 0.25, na.rm = TRUE)),
                             q75 = unname(stats::quantile(r, 0.75, na.rm = TRUE)),
                             failed = sum(is.na(r)), stringsAsFactors = FALSE))
    }))
  }

  # ---- 1. S^2 ----------------------------------------------------------------
  S2 <- dpmanifold::sphere(2)
  sim_sphere <- function(n, len = 0.6, delta = 0.001) {
    q0 <- dpmanifold::mfd_random_point(S2, 1)
    z <- dpmanifold::mfd_random_tangent(S2, q0, 1)
    z <- len * z / sqrt(sum(z^2))
    x <- stats::runif(n)
    G <- dpmanifold::mfd_exp(S2, q0, outer(x, z))
    Y <- G + matrix(stats::rnorm(3 * n, sd = sqrt(delta)), n)
    list(x = x, y = Y / sqrt(rowSums(Y^2)), center = as.numeric(dpmanifold::mfd_exp(S2, q0, z / 2)))
  }
  set.seed(seed)
  sphere_rows <- list()
  for (n in n_sphere) {
    for (eps in epsilon) {
      R <- replicate(reps, {
        D <- sim_sphere(n)
        E0 <- dpmanifold::geodesic_regression(S2, D$x, D$y, x_range = c(0, 1))$energy
        ratios(S2, D$x, D$y, c(0, 1), E0, list(epsilon = eps, tau = 0.15, center = D$center, radius = 0.4,
                                                 x_range = c(0, 1)))
      })
      R <- matrix(R, nrow = length(rows), dimnames = list(rows, NULL))
      sphere_rows[[length(sphere_rows) + 1L]] <- summarise(R, data.frame(n = n, epsilon = eps))
      message(sprintf("sphere n = %d, epsilon = %g done (%.0f s)", n, eps, proc.time()[["elapsed"]] - t_start))
    }
  }
  sphere <- do.call(rbind, sphere_rows)

  # ---- 2. rats ---------------------------------------------------------------
  rats <- NULL
  rats_file <- system.file("data", "rats.rda", package = "shapes")
  if (nzchar(rats_file)) {
    e <- new.env()
    load(rats_file, envir = e)   # the data file only: does not attach shapes (or rgl)
    rd <- e$rats
    Mr <- dpmanifold::kendall_shape(dim(rd$x)[1])
    X <- dpmanifold::as_preshape(rd$x)
    lage <- log(rd$time)
    lrange <- log(c(7, 150))
    pub <- rd$no %in% 1:6
    priv <- !pub
    round_up <- function(x, to) ceiling(x / to) * to
    pf <- dpmanifold::geodesic_regression(Mr, lage[pub], X[, , pub], x_range = lrange)
    rcenter <- dpmanifold::frechet_mean(Mr, X[, , pub])$mean
    rradius <- round_up(1.2 * max(dpmanifold::mfd_dist(Mr, rcenter, X[, , pub])), 0.05)
    rtau <- round_up(1.2 * max(pf$residuals$norms), 0.01)
    E0 <- dpmanifold::geodesic_regression(Mr, lage[priv], X[, , priv], x_range = lrange)$energy
    rat_rows <- list()
    for (eps in epsilon) {
      R <- replicate(reps, ratios(Mr, lage[priv], X[, , priv], lrange, E0,
                                  list(epsilon = eps, tau = rtau, center = rcenter, radius = rradius,
                                       x_range = lrange)))
      R <- matrix(R, nrow = length(rows), dimnames = list(rows, NULL))
      rat_rows[[length(rat_rows) + 1L]] <- summarise(R, data.frame(n = sum(priv), epsilon = eps))
      message(sprintf("rats epsilon = %g done (%.0f s)", eps, proc.time()[["elapsed"]] - t_start))
    }
    rats <- list(curves = do.call(rbind, rat_rows), tau = rtau, radius = rradius, public_animals = 1:6,
                 n = sum(priv), records_per_animal = 8L)
  }

  out <- list(sphere = sphere, rats = rats,
              settings = list(reps = reps, epsilon = epsilon, n_sphere = n_sphere, methods = methods,
                              seed = seed, small = small),
              info = list(elapsed_seconds = proc.time()[["elapsed"]] - t_start,
                          date = format(Sys.time(), "%Y-%m-%d"), R = R.version.string,
                          dpmanifold = as.character(utils::packageVersion("dpmanifold"))))
  if (!is.null(file)) saveRDS(out, file, compress = "xz")
  invisible(out)
}

if (sys.nframe() == 0L) {
  small <- identical(tolower(Sys.getenv("DPMANIFOLD_STUDY_SMALL")), "true")
  file <- Sys.getenv("DPMANIFOLD_STUDY_OUT",
                     if (small) file.path(tempdir(), "regression-methods.rds") else
                       file.path("inst", "extdata", "regression-methods.rds"))
  res <- run_regression_methods(small = small, file = file)
  print(res$sphere, digits = 3, row.names = FALSE)
  if (!is.null(res$rats)) print(res$rats$curves, digits = 3, row.names = FALSE)
  cat(sprintf("done in %.0f s; written to %s\n", res$info$elapsed_seconds, file))
}
