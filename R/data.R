# Example data: a simulator of corpus-callosum-like outlines, a loader for the
# preprocessed ADNI corpus callosum files (never shipped), and two data sets
# built at call time from R's own `datasets` package.

#' @importFrom stats approx cov median plogis rnorm runif splinefun
NULL

# ---------------------------------------------------------------------------
# Simulated corpus callosum outlines
# ---------------------------------------------------------------------------

#' Simulated corpus callosum outlines (SIMULATED data)
#'
#' Generates synthetic, **simulated** outlines that look like mid-sagittal
#' sections of the corpus callosum, with an age effect, for examples,
#' vignettes and tests. They stand in for the ADNI corpus callosum data of
#' Cornea et al. (2017) used by Soto et al. (2022, Section 4.3, Figures 2-3)
#' and Kulkarni and Soto (geodesic regression, Figure 3), which may not be
#' redistributed (see [read_corpus_callosum()] for users who hold them).
#' Nothing here is derived from ADNI or any other real data.
#'
#' **Model.** Each outline is built around a centre line (the medial axis of
#' the callosum) drawn with a curvature profile: a posterior end (the
#' splenium), a long gently curved arch (the isthmus and body), a tight
#' anterior bend (the genu) and a tapering hook running back underneath (the
#' rostrum). A thickness profile is laid around the centre line: a bulbous
#' splenium (about 11 mm), a thin isthmus (about 4 mm), a thin body (about
#' 5-6 mm), a thick genu (about 10 mm) tapering into the rostrum. The anatomy
#' is anterior to the left, dorsal up, with an anterior-posterior extent of
#' about 70 mm.
#'
#' Subjects differ by random log-normal factors (standard deviation
#' `variability`) on the overall thickness, the splenium and genu thickness,
#' the bending of the arch and of the genu, and the length. **Age effect:**
#' per decade above 50 years the thickness of the isthmus and body shrinks by
#' the fraction `age_effect` (half of it at the genu and a quarter at the
#' splenium), and the arch bends by `age_effect / 2` more, as in the callosal
#' thinning and ventricular enlargement reported with ageing. The `sex`
#' covariate is drawn at random and has **no** effect on the shape (a null
#' covariate, useful in tests).
#'
#' **Landmarks.** `k` landmarks are placed at equal arc-length spacing along
#' the closed outline, in a fixed anatomical order: landmark 1 is the
#' posterior tip of the splenium; the landmarks then run forward along the
#' dorsal (upper) surface, around the genu and the rostrum, and back along
#' the ventral (lower) surface (counterclockwise in the displayed orientation). This
#' is the "uniformly sampled boundary landmarks" design of the ADNI data
#' (50 landmarks). Independent Gaussian noise with standard deviation
#' `noise` times the anterior-posterior length is added to each coordinate,
#' and each configuration gets a random position (a few mm), size (about 5%)
#' and a small rotation (about 3 degrees), as raw landmark data have. Use
#' [as_preshape()] or pass the array to any function of the package on
#' `kendall_shape(k)`, which removes them.
#'
#' Randomness comes from R's random number generator, the caller's stream:
#' `set.seed()` before the call reproduces a sample.
#'
#' @param n Number of subjects (outlines): about 0.1 ms each (a progress bar
#'   shows from 2e4 in interactive sessions; interrupts and time limits stop
#'   it within a block of 256 subjects).
#' @param k Number of landmarks per outline (at least 8; 50 as in ADNI).
#' @param age Ages in years, one per subject (or one for all). By default
#'   drawn uniformly on `age_range`. Ages (or an `age_range`) at which the
#'   body would thin by 0.96 or more, `age_effect * (age - 50) / 10`, are
#'   refused.
#' @param age_effect Fractional thinning of the callosal body per decade
#'   of age above 50 (see Details); 0 switches the age effect off.
#' @param noise Landmark noise: standard deviation of the Gaussian noise on
#'   each coordinate as a fraction of the anterior-posterior length
#'   (0.005 is about 0.35 mm).
#' @param variability Standard deviation of the subject-level log-normal
#'   shape factors; 0 gives identical shapes at equal age (up to noise).
#' @param age_range Range of the default uniform ages.
#' @return A list with
#'   * `shapes`: a `k` x 2 x `n` array of landmark coordinates (mm), the
#'     layout of the `shapes` package and of [kendall_shape()];
#'   * `covariates`: a data frame with `id`, `age` (years) and `sex`
#'     (factor, no effect on shape);
#'   * `landmarks`: a data frame with, per landmark, its `region`
#'     (splenium, isthmus/body, genu, rostrum) and `surface`
#'     (dorsal/ventral), computed for the mean shape;
#'
#'   and the attributes `simulated = TRUE` and `source`, a text saying that
#'   the data are simulated.
#' @references Cornea, E., Zhu, H., Kim, P., Ibrahim, J. G. (2017).
#'   Regression models on Riemannian symmetric spaces. JRSS B 79, 463-482
#'   (the real ADNI data this imitates).
#'   Soto, Bharath, Reimherr, Slavkovic (2022), Shape and structure
#'   preserving differential privacy, Section 4.3 and Figure 2.
#' @seealso [read_corpus_callosum()] for the real data, [plot_shapes()].
#' @examples
#' set.seed(1)
#' cc <- simulate_corpus_callosum(20, age = seq(55, 90, length.out = 20))
#' dim(cc$shapes)
#' head(cc$covariates)
#' attr(cc, "source")
#' # Frechet mean shape of the young and of the old subjects
#' M <- kendall_shape(50)
#' young <- frechet_mean(M, cc$shapes[, , cc$covariates$age < 70])$mean
#' old <- frechet_mean(M, cc$shapes[, , cc$covariates$age >= 70])$mean
#' mfd_dist(M, young, old)
#' plot_shapes(list(`age < 70` = young, `age >= 70` = old), aligned_to = young)
#' @export
simulate_corpus_callosum <- function(n, k = 50, age = NULL, age_effect = 0.06, noise = 0.005,
                                     variability = 0.05, age_range = c(55, 90)) {
  check_required("n")
  n <- check_count(n, "n")
  k <- check_count(k, "k", min = 8L)
  check_alloc(n, 2 * k, if (k > n) "k" else "n")
  ok <- is.numeric(age_range) && length(age_range) == 2L && all(is.finite(age_range)) &&
    age_range[1] <= age_range[2]
  if (!ok) abort_arg("age_range", "must be two finite numbers, lower first")
  for (a in c("age_effect", "noise", "variability")) {
    val <- get(a)
    if (!is.numeric(val) || length(val) != 1L || !is.finite(val) || val < 0) {
      abort_arg(a, "must be a single finite number >= 0")
    }
  }
  if (age_effect >= 0.24) abort_arg("age_effect", "must be below 0.24 (thinning of more than all the body at age 90)")
  age_given <- !is.null(age)
  if (!age_given) {
    age <- stats::runif(n, age_range[1], age_range[2])
  } else {
    if (!is.numeric(age) || !(length(age) %in% c(1L, n)) || any(!is.finite(age))) {
      abort_arg("age", sprintf("must be finite numbers, one per subject (%d) or a single one", n))
    }
    age <- rep_len(as.numeric(age), n)
  }
  # (the body thins by age_effect per decade after 50: at 0.96 or more it
  # would vanish, and the outline crosses itself)
  oldest <- if (age_given) max(age) else age_range[2]
  if (age_effect * max(oldest - 50, 0) / 10 >= 0.96) {
    abort_arg(if (age_given) "age" else "age_range",
              sprintf("reaches %.4g: with age_effect = %g the callosal body would thin by %.3g, to nothing (at most %.4g)",
                      oldest, age_effect, age_effect * (oldest - 50) / 10, 50 + 9.6 / max(age_effect, 1e-300)))
  }
  sex <- factor(sample(c("F", "M"), n, replace = TRUE), levels = c("F", "M"))

  shapes <- array(0, c(k, 2L, n))
  # extreme noise or variability (a log-normal factor of e^1000) breaks the
  # outline: a classed error naming the larger of the two, relative to its
  # default, instead of non-finite coordinates
  extreme <- if (variability / 0.05 > noise / 0.005) "variability" else "noise"
  cl <- sys.call()
  extreme_error <- function() {
    abort_arg(extreme, "is too large: the simulated coordinates are not representable in double precision",
              call = cl, class = "dpmanifold_not_representable")
  }
  # Subjects in blocks (R/data_outline.R): the normal draws of a block are
  # taken at once in the order one subject at a time took them (6 shape
  # factors, 2k landmark noises, rotation, size, 2 shifts; none where the
  # standard deviation is 0, as rnorm() draws none), so the law and the
  # stream are those of the subject-by-subject loop. An interrupt or a
  # time limit lands between blocks.
  g <- cc_outline_grid()
  bar <- if (interactive() && n >= 2e4) utils::txtProgressBar(max = n, style = 3) else NULL   # ~0.1 ms a subject
  if (!is.null(bar)) on.exit(close(bar), add = TRUE)
  for (first in seq(1L, n, by = 256L)) {
    idx <- first:min(n, first + 255L)
    if (!is.null(bar)) utils::setTxtProgressBar(bar, first - 1L)
    B <- cc_simulate_block(g, age[idx], age_effect, variability, noise, k)
    if (is.null(B)) extreme_error()
    shapes[, , idx] <- B
  }
  if (any(!is.finite(shapes))) extreme_error()
  mean_out <- cc_outlines(g, stats::median(age), age_effect, matrix(1, 6L, 1L))
  lm_info <- cc_landmark_regions(g, mean_out, k)
  src <- paste("SIMULATED corpus-callosum-like outlines from dpmanifold::simulate_corpus_callosum();",
               "not real data and not derived from ADNI or any other real data")
  structure(list(shapes = shapes,
                 covariates = data.frame(id = seq_len(n), age = age, sex = sex),
                 landmarks = lm_info),
            simulated = TRUE, source = src)
}

# ---------------------------------------------------------------------------
# Loader for the preprocessed ADNI corpus callosum files
# ---------------------------------------------------------------------------

#' Read the preprocessed ADNI corpus callosum data (not shipped)
#'
#' Reads the corpus callosum landmark data of Cornea et al. (2017), used by
#' Soto et al. (2022, Section 4.3, Figure 2) and by Kulkarni and Soto
#' (DP geodesic regression, Figure 3), for users who hold these files. The
#' data come from the Alzheimer's Disease Neuroimaging Initiative (ADNI),
#' whose data use agreement forbids redistribution: **dpmanifold ships no
#' ADNI data and nothing derived from them**. Apply for access at
#' <https://adni.loni.usc.edu>; for examples without the data use
#' [simulate_corpus_callosum()].
#'
#' The files are MATLAB `.mat` files, one pair per group: a landmark file
#' whose name contains `Ldata` (e.g. `ADLdataF.mat`) holding a k x 2 x n
#' array (50 x 2 x n in the original; 2 x k x n is also accepted), and an
#' information file whose name contains `info` (e.g. `ADinfoF.mat`) holding
#' an n x p matrix of covariates with the age in column `age_col` (9) and
#' the diagnosis in column `diagnosis_col` (10). The two files of a pair share
#' the name once `Ldata` or `info` is removed (here `ADF`), which becomes the
#' `group`.
#'
#' @param path Either a directory, from which every `*Ldata*.mat` file and
#'   its `*info*.mat` partner are read (groups stacked in alphabetical
#'   order), or a character vector of two file names: the landmark file and
#'   the information file (in either order).
#' @param age_col,diagnosis_col Columns of the information matrix that hold
#'   the age and the diagnosis.
#' @return A list with `shapes` (a k x 2 x n array, as in the `shapes`
#'   package; raw coordinates, use [as_preshape()] for preshapes) and
#'   `covariates`, a data frame with `age`, `diagnosis`, `group`, `file` and
#'   the other columns of the information matrix as `info1`, `info2`, ...
#'   (with the age and diagnosis columns left out).
#' @references Cornea, E., Zhu, H., Kim, P., Ibrahim, J. G. (2017).
#'   Regression models on Riemannian symmetric spaces. JRSS B 79, 463-482.
#' @examples
#' if (requireNamespace("R.matlab", quietly = TRUE)) {
#'   # Write two small files in the layout of the ADNI files, then read them.
#'   dir <- tempfile("cc")
#'   dir.create(dir)
#'   set.seed(1)
#'   sim <- simulate_corpus_callosum(5)
#'   info <- cbind(matrix(0, 5, 8), sim$covariates$age, 1)
#'   R.matlab::writeMat(file.path(dir, "ADLdataF.mat"), ADLdataF = sim$shapes)
#'   R.matlab::writeMat(file.path(dir, "ADinfoF.mat"), ADinfoF = info)
#'   cc <- read_corpus_callosum(dir)
#'   dim(cc$shapes)
#'   cc$covariates[, c("age", "diagnosis", "group")]
#' }
#' @export
read_corpus_callosum <- function(path, age_col = 9L, diagnosis_col = 10L) {
  check_required("path")
  if (!requireNamespace("R.matlab", quietly = TRUE)) {
    stop(structure(class = c("dpmanifold_error", "error", "condition"),
                   list(message = paste("read_corpus_callosum() needs the package 'R.matlab' to read .mat files;",
                                        "install it with install.packages(\"R.matlab\")"),
                        call = sys.call())))
  }
  age_col <- check_count(age_col, "age_col")
  diagnosis_col <- check_count(diagnosis_col, "diagnosis_col")
  if (!is.character(path) || !(length(path) %in% 1:2) || anyNA(path)) {
    abort_arg("path", "must be a directory or the names of a landmark file and an information file")
  }
  pairs <- cc_file_pairs(path)
  parts <- lapply(seq_len(nrow(pairs)), function(i) {
    shp <- cc_read_landmarks(pairs$landmarks[i])
    info <- cc_read_info(pairs$info[i])
    n <- dim(shp)[3]
    if (nrow(info) != n) {
      abort_arg("path", sprintf("holds %d shapes in '%s' but %d rows of covariates in '%s'",
                                n, basename(pairs$landmarks[i]), nrow(info), basename(pairs$info[i])))
    }
    if (ncol(info) < max(age_col, diagnosis_col)) {
      abort_arg("path", sprintf("'%s' has %d columns; the age (column %d) and diagnosis (column %d) are missing",
                                basename(pairs$info[i]), ncol(info), age_col, diagnosis_col))
    }
    rest <- info[, -c(age_col, diagnosis_col), drop = FALSE]
    other <- setdiff(seq_len(ncol(info)), c(age_col, diagnosis_col))
    colnames(rest) <- paste0("info", other)
    cov <- data.frame(age = as.numeric(info[, age_col]), diagnosis = info[, diagnosis_col],
                      group = pairs$group[i], file = basename(pairs$landmarks[i]),
                      rest, stringsAsFactors = FALSE)
    list(shapes = shp, covariates = cov)
  })
  ks <- vapply(parts, function(p) dim(p$shapes)[1], integer(1))
  if (length(unique(ks)) > 1L) {
    abort_arg("path", sprintf("holds groups with different numbers of landmarks (%s)", paste(unique(ks), collapse = ", ")))
  }
  shapes <- array(unlist(lapply(parts, function(p) as.vector(p$shapes))),
                  c(ks[1], 2L, sum(vapply(parts, function(p) dim(p$shapes)[3], integer(1)))))
  covs <- lapply(parts, `[[`, "covariates")
  all_cols <- unique(unlist(lapply(covs, names)))
  covs <- lapply(covs, function(d) {
    for (nm in setdiff(all_cols, names(d))) d[[nm]] <- NA_real_
    d[all_cols]
  })
  cov <- do.call(rbind, covs)
  rownames(cov) <- NULL
  cov$group <- factor(cov$group, levels = unique(pairs$group))
  list(shapes = shapes, covariates = cov)
}

cc_file_pairs <- function(path) {
  if (length(path) == 1L) {
    if (!dir.exists(path)) abort_arg("path", sprintf("'%s' is not a directory (give a directory or two file names)", path))
    files <- list.files(path, pattern = "\\.mat$", full.names = TRUE, ignore.case = TRUE)
    lfiles <- sort(files[grepl("Ldata", basename(files), fixed = TRUE)])
    if (!length(lfiles)) abort_arg("path", sprintf("'%s' holds no *Ldata*.mat landmark file", path))
    key <- function(f, word) sub(word, "", sub("\\.mat$", "", basename(f), ignore.case = TRUE), fixed = TRUE)
    ifiles <- files[grepl("info", basename(files), fixed = TRUE)]
    ikeys <- key(ifiles, "info")
    groups <- key(lfiles, "Ldata")
    info <- ifiles[match(groups, ikeys)]
    if (anyNA(info)) {
      abort_arg("path", sprintf("has no information file for '%s' (expected e.g. '%s')",
                                basename(lfiles[is.na(info)][1]),
                                sub("Ldata", "info", basename(lfiles[is.na(info)][1]), fixed = TRUE)))
    }
    return(data.frame(landmarks = lfiles, info = info, group = groups, stringsAsFactors = FALSE))
  }
  missing <- path[!file.exists(path)]
  if (length(missing)) abort_arg("path", sprintf("file '%s' does not exist", missing[1]))
  is_l <- grepl("Ldata", basename(path), fixed = TRUE)
  is_i <- grepl("info", basename(path), fixed = TRUE)
  if (sum(is_l) == 1L && sum(is_i & !is_l) == 1L) {
    lf <- path[is_l]
    inf <- path[!is_l]
  } else {
    lf <- path[1]
    inf <- path[2]
  }
  group <- sub("Ldata", "", sub("\\.mat$", "", basename(lf), ignore.case = TRUE), fixed = TRUE)
  data.frame(landmarks = lf, info = inf, group = group, stringsAsFactors = FALSE)
}

# The first numeric array in a .mat file with the wanted number of
# dimensions.
cc_read_mat_numeric <- function(file, ndim) {
  m <- tryCatch(R.matlab::readMat(file), error = function(e) {
    abort_arg("path", sprintf("could not read '%s' as a MATLAB file: %s", basename(file), conditionMessage(e)),
              call = NULL)
  })
  for (v in m) {
    if (is.numeric(v) && length(dim(v)) == ndim) return(v)
    if (is.numeric(v) && ndim == 2L && is.null(dim(v))) return(matrix(v, ncol = 1L))
  }
  abort_arg("path", sprintf("'%s' holds no numeric %s", basename(file),
                            if (ndim == 3L) "k x 2 x n array" else "matrix"), call = NULL)
}

cc_read_landmarks <- function(file) {
  a <- cc_read_mat_numeric(file, 3L)
  d <- dim(a)
  if (d[2] != 2L && d[1] == 2L) a <- aperm(a, c(2L, 1L, 3L))
  if (dim(a)[2] != 2L) {
    abort_arg("path", sprintf("'%s' holds a %s array; expected k x 2 x n landmarks", basename(file),
                              paste(d, collapse = " x ")), call = NULL)
  }
  storage.mode(a) <- "double"
  a
}

cc_read_info <- function(file) {
  m <- cc_read_mat_numeric(file, 2L)
  unname(m)
}

# ---------------------------------------------------------------------------
# Data sets from R's datasets package
# ---------------------------------------------------------------------------

#' Rolling covariance matrices of European stock index returns
#'
#' Builds a sequence of SPD matrices from the base R data set
#' [datasets::EuStockMarkets] (daily closing prices of the DAX, SMI, CAC and
#' FTSE indices, 1991-1998, 1860 business days): the covariance matrix of the
#' daily log returns (in percent) over rolling windows, with the window's
#' mid-time as covariate. These are example data for [spd()] (Frechet means,
#' geodesic regression of covariance on time, ellipse plots as in Kulkarni
#' and Soto, Figure 8). Computed at call time; nothing is shipped.
#'
#' Source: R's `datasets` package (part of R, licence GPL-2 | GPL-3); the
#' prices were provided to R by Erste Bank AG, Vienna.
#'
#' @param window Window length in trading days (at least `length(indices) + 1`).
#' @param step Shift between consecutive windows in trading days.
#' @param indices Which indices to use: a subset of `c("DAX", "SMI", "CAC",
#'   "FTSE")` (names or positions); two give 2 x 2 matrices.
#' @return A list with `covariances`, a k x k x n array of SPD matrices (the
#'   layout of [spd()]), and `covariates`, a data frame with `time` (the
#'   window's mid-time in decimal years), `start`, `end` (first and last day
#'   of the window, decimal years) and `volatility` (the mean standard
#'   deviation of the daily returns, percent).
#' @examples
#' eu <- eustock_covariances(window = 60, step = 60, indices = c("DAX", "FTSE"))
#' dim(eu$covariances)
#' head(eu$covariates)
#' P <- spd(2)
#' all(mfd_belongs(P, eu$covariances))
#' plot_spd_ellipses(eu$covariances[, , 1:10], centers = eu$covariates$time[1:10])
#' @export
eustock_covariances <- function(window = 60, step = 20, indices = c("DAX", "SMI", "CAC", "FTSE")) {
  prices <- datasets::EuStockMarkets
  all_idx <- colnames(prices)
  if (is.numeric(indices)) {
    if (any(!indices %in% seq_along(all_idx)) || anyDuplicated(indices)) {
      abort_arg("indices", "must be distinct positions in 1:4 or names among DAX, SMI, CAC, FTSE")
    }
    indices <- all_idx[indices]
  }
  if (!is.character(indices) || !length(indices) || any(!indices %in% all_idx) || anyDuplicated(indices)) {
    abort_arg("indices", "must be distinct names among DAX, SMI, CAC, FTSE")
  }
  k <- length(indices)
  window <- check_count(window, "window", min = k + 1L)
  step <- check_count(step, "step")
  r <- 100 * diff(log(prices[, indices, drop = FALSE]))
  tt <- as.numeric(stats::time(prices))[-1]
  r <- matrix(as.numeric(r), ncol = k)
  if (window > nrow(r)) abort_arg("window", sprintf("must be at most %d (the number of daily returns)", nrow(r)))
  starts <- seq(1L, nrow(r) - window + 1L, by = step)
  C <- array(0, c(k, k, length(starts)), dimnames = list(indices, indices, NULL))
  for (j in seq_along(starts)) {
    C[, , j] <- stats::cov(r[starts[j] + 0:(window - 1L), , drop = FALSE])
  }
  ends <- starts + window - 1L
  covariates <- data.frame(time = (tt[starts] + tt[ends]) / 2, start = tt[starts], end = tt[ends],
                           volatility = apply(C, 3, function(S) mean(sqrt(diag(S)))))
  list(covariances = C, covariates = covariates)
}

#' Earthquake epicentres near Fiji as directions on the sphere
#'
#' Converts the epicentres of the base R data set [datasets::quakes] (1000
#' seismic events near Fiji since 1964, Harvard PRIM-H project) from
#' latitude and longitude to unit vectors in \eqn{R^3}: example data on
#' `sphere(2)`, with the depth and magnitude as covariates (e.g. geodesic
#' regression of the epicentre on depth, private Frechet means of
#' directions as in Reimherr, Bharath and Soto 2021, Section 5). Computed at
#' call time; nothing is shipped.
#'
#' Coordinates: \eqn{x = \cos(lat)\cos(long)}, \eqn{y = \cos(lat)\sin(long)},
#' \eqn{z = \sin(lat)}, angles in radians, with the Earth taken as a sphere.
#'
#' Source: R's `datasets` package (part of R, licence GPL-2 | GPL-3).
#'
#' @return A list with `directions`, a 1000 x 3 matrix of unit vectors (one
#'   per row, the layout of [sphere()]), and `covariates`, a data frame with
#'   `depth` (km), `mag` (Richter magnitude), `stations` (number of stations
#'   reporting), `lat` and `long` (degrees).
#' @examples
#' q <- quakes_directions()
#' range(rowSums(q$directions^2))
#' plot_sphere(q$directions, pch = ".", col = "grey40")
#' @export
quakes_directions <- function() {
  q <- datasets::quakes
  lat <- q$lat * pi / 180
  lon <- q$long * pi / 180
  X <- cbind(x = cos(lat) * cos(lon), y = cos(lat) * sin(lon), z = sin(lat))
  X <- X / sqrt(rowSums(X^2))
  list(directions = X,
       covariates = data.frame(depth = q$depth, mag = q$mag, stations = q$stations, lat = q$lat, long = q$long))
}

#' Apparent polar wander path, Triassic to Jurassic
#'
#' Palaeomagnetic pole positions of the late Triassic and Jurassic (243 to
#' 144 million years ago): 14 North American poles and 17 poles from other
#' cratons rotated into North American coordinates (Kent and Irving 2010),
#' as shipped by the CRAN package `spheresmooth` (data set `apw_spherical`,
#' GPL (>= 2), by Jhong, Koo, Lee and Bak). The classic example of a
#' direction that moves along a path on the sphere with a covariate (age):
#' geodesic regression of pole position on time. Use
#' `polar_wander_directions()` for unit vectors in \eqn{R^3}.
#'
#' @format A data frame with 31 rows:
#' \describe{
#'   \item{time}{age rescaled to \[0, 1\] by the source over 243-144 Ma}
#'   \item{latitude, longitude}{pole position in radians}
#' }
#' @source `spheresmooth::apw_spherical` (GPL (>= 2)); Kent, D. V. and
#'   Irving, E. (2010), Influence of inclination error in sedimentary rocks
#'   on the Triassic and Jurassic apparent pole wander path for North America
#'   and implications for Cordilleran tectonics, J. Geophys. Res. 115, B10103.
#' @examples
#' X <- polar_wander_directions()
#' fit <- geodesic_regression(sphere(2), polar_wander$time, X)
#' fit$r_squared
"polar_wander"

#' @rdname polar_wander
#' @return `polar_wander_directions()`: a 31 x 3 matrix of unit vectors.
#' @export
polar_wander_directions <- function() {
  pw <- dpmanifold::polar_wander
  X <- cbind(x = cos(pw$latitude) * cos(pw$longitude), y = cos(pw$latitude) * sin(pw$longitude),
             z = sin(pw$latitude))
  X / sqrt(rowSums(X^2))
}
