# Precomputed table for ?dp_frechet_mean, the README and the vignettes: the
# expected error of every Frechet-mean mechanism on every manifold, which
# chooses each manifold's default mechanism (default_mechanism()).
#
# Design: for each manifold, data sets of n points drawn around a public
# centre (geodesic length uniform on [0, r], isotropic direction), kept in
# the public ball B_r(centre); epsilon = 1 (delta = 1e-5 for the wrapped
# Gaussian, which is (epsilon, delta)-DP and listed for reference). Each
# replicate releases the mean with every mechanism (exact samplers) and
# records the geodesic distance of the release to the non-private Frechet
# mean. The ambient SPD baseline may leave the SPD cone: such releases are
# counted (frac_on_manifold) and their distance is left out of the mean.
#
#   Rscript inst/scripts/mechanism-table.R                        # full
#   DPMANIFOLD_STUDY_SMALL=true Rscript inst/scripts/mechanism-table.R
# The full study writes inst/extdata/mechanism-table.rds.

run_mechanism_table <- function(small = identical(tolower(Sys.getenv("DPMANIFOLD_STUDY_SMALL")), "true"),
                                file = NULL, reps = if (small) 4L else 300L,
                                n_grid = if (small) 20L else c(20L, 100L), seed = 2026L) {
  stopifnot(requireNamespace("dpmanifold", quietly = TRUE))
  dpm <- asNamespace("dpmanifold")
  K <- dpmanifold::kendall_shape(4)
  zk <- dpmanifold::as_preshape(matrix(c(0, 1, 1, 0, 0, 0, 1, 1), 4))
  settings <- list(
    list(label = "S^2", M = dpmanifold::sphere(2), center = c(0, 0, 1), radius = pi / 8),
    list(label = "Kendall(4)", M = K, center = zk, radius = 0.3),
    list(label = "SPD(2) affine-invariant", M = dpmanifold::spd(2), center = diag(2), radius = 1),
    list(label = "SPD(2) log-Euclidean", M = dpmanifold::spd(2, "log_euclidean"), center = diag(2), radius = 1),
    list(label = "R^2", M = dpmanifold::euclidean(2), center = c(0, 0), radius = 1))
  mechs_for <- function(M) {
    m <- c("laplace", "laplace_truncated", "kng")
    if (M$hadamard) m <- c(m, "wrapped_laplace", "wrapped_gaussian")
    c(m, "euclidean_laplace")
  }
  set.seed(seed)
  t0 <- proc.time()[["elapsed"]]
  rows <- list()
  for (st in settings) for (n in n_grid) {
    M <- st$M
    mechs <- mechs_for(M)
    d <- matrix(NA_real_, reps, length(mechs), dimnames = list(NULL, mechs))
    on <- matrix(TRUE, reps, length(mechs), dimnames = list(NULL, mechs))
    for (i in seq_len(reps)) {
      V <- dpmanifold::mfd_random_tangent(M, st$center, n)
      len <- stats::runif(n, 0, st$radius)
      X <- dpmanifold::mfd_exp(M, st$center, sweep(V, if (is.null(M$point_dim)) 1L else 3L, len / dpmanifold::mfd_norm(M, st$center, V), `*`))
      xbar <- dpmanifold::frechet_mean(M, X)$mean
      for (m in mechs) {
        rel <- dpmanifold::dp_frechet_mean(M, X, 1, mechanism = sub("_truncated", "", m),
                                           center = st$center, radius = st$radius,
                                           truncated = if (m == "laplace_truncated") TRUE,
                                           delta = if (m == "wrapped_gaussian") 1e-5)
        ok <- all(dpmanifold::mfd_belongs(M, rel$estimate, tol = 1e-6))
        on[i, m] <- ok
        if (ok) d[i, m] <- dpmanifold::mfd_dist(M, xbar, rel$estimate)
      }
    }
    rows[[length(rows) + 1]] <- data.frame(
      manifold = st$label, n = n, mechanism = mechs,
      dist_mean = colMeans(d, na.rm = TRUE),
      dist_se = apply(d, 2, function(x) stats::sd(x, na.rm = TRUE) / sqrt(sum(!is.na(x)))),
      frac_on_manifold = colMeans(on), stringsAsFactors = FALSE, row.names = NULL)
  }
  tab <- do.call(rbind, rows)
  out <- list(table = tab,
              settings = list(reps = reps, n_grid = n_grid, epsilon = 1, delta_wrapped_gaussian = 1e-5,
                              radii = vapply(settings, function(s) s$radius, numeric(1)),
                              manifolds = vapply(settings, function(s) s$label, character(1)),
                              seed = seed, small = small),
              info = list(elapsed_seconds = proc.time()[["elapsed"]] - t0, date = format(Sys.time(), "%Y-%m-%d"),
                          R = R.version.string, dpmanifold = as.character(utils::packageVersion("dpmanifold"))))
  if (!is.null(file)) saveRDS(out, file, compress = "xz")
  invisible(out)
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# The table as markdown: one row per manifold and n, one column per mechanism.
mechanism_table_markdown <- function(res) {
  tab <- res$table
  mechs <- c("laplace", "laplace_truncated", "kng", "wrapped_laplace", "wrapped_gaussian", "euclidean_laplace")
  head <- c("manifold (radius)", "n", "Laplace (untruncated)", "Laplace (truncated)", "KNG", "wrapped Laplace",
            "wrapped Gaussian*", "ambient baseline")
  radius <- stats::setNames(res$settings$radii, res$settings$manifolds)
  lines <- c(paste0("| ", paste(head, collapse = " | "), " |"), paste0("|", paste(rep("---", length(head)), collapse = "|"), "|"))
  for (key in unique(paste(tab$manifold, tab$n, sep = "\r"))) {
    parts <- strsplit(key, "\r")[[1]]
    sub <- tab[tab$manifold == parts[1] & tab$n == as.integer(parts[2]), ]
    cell <- function(m) {
      r <- sub[sub$mechanism == m, ]
      if (!nrow(r)) return("")
      s <- sprintf("%.4f", r$dist_mean)
      if (r$frac_on_manifold < 1) s <- sprintf("%s (%.0f%% SPD)", s, 100 * r$frac_on_manifold)
      if (r$dist_mean == min(sub$dist_mean[sub$mechanism != "wrapped_gaussian"], na.rm = TRUE)) s <- paste0("**", s, "**")
      s
    }
    lines <- c(lines, paste0("| ", paste(c(sprintf("%s (%.3g)", parts[1], radius[[parts[1]]]), parts[2],
                                            vapply(mechs, cell, character(1))), collapse = " | "), " |"))
  }
  lines
}

if (sys.nframe() == 0L) {
  small <- identical(tolower(Sys.getenv("DPMANIFOLD_STUDY_SMALL")), "true")
  file <- Sys.getenv("DPMANIFOLD_STUDY_OUT",
                     if (small) file.path(tempdir(), "mechanism-table.rds") else file.path("inst", "extdata", "mechanism-table.rds"))
  res <- run_mechanism_table(small = small, file = file)
  writeLines(mechanism_table_markdown(res))
  cat(sprintf("elapsed %.1f s; written to %s\n", res$info$elapsed_seconds, file))
}
