# Signed area of a closed polygon (positive: counterclockwise).
poly_area <- function(z) {
  x <- z[, 1]
  y <- z[, 2]
  j <- c(seq_along(x)[-1], 1)
  sum(x * y[j] - x[j] * y) / 2
}

# TRUE when the closed polygon z has two non-adjacent edges that cross.
self_intersects <- function(z) {
  k <- nrow(z)
  seg <- function(i) rbind(z[i, ], z[i %% k + 1, ])
  orient <- function(a, b, c) sign((b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]))
  for (i in 1:(k - 2)) for (j in (i + 2):k) {
    if (i == 1 && j == k) next
    s1 <- seg(i); s2 <- seg(j)
    if (orient(s1[1, ], s1[2, ], s2[1, ]) * orient(s1[1, ], s1[2, ], s2[2, ]) < 0 &&
        orient(s2[1, ], s2[2, ], s1[1, ]) * orient(s2[1, ], s2[2, ], s1[2, ]) < 0) return(TRUE)
  }
  FALSE
}

test_that("simulate_corpus_callosum returns k x 2 x n shapes, covariates and a SIMULATED label", {
  cc <- with_seed(1, simulate_corpus_callosum(12, k = 40))
  expect_equal(dim(cc$shapes), c(40L, 2L, 12L))
  expect_true(all(is.finite(cc$shapes)))
  expect_s3_class(cc$covariates, "data.frame")
  expect_equal(nrow(cc$covariates), 12L)
  expect_true(all(c("id", "age", "sex") %in% names(cc$covariates)))
  expect_true(all(cc$covariates$age >= 55 & cc$covariates$age <= 90))
  expect_true(isTRUE(attr(cc, "simulated")))
  expect_match(attr(cc, "source"), "SIMULATED")
  expect_equal(nrow(cc$landmarks), 40L)
  # Usable directly on Kendall's shape space.
  expect_true(all(mfd_belongs(kendall_shape(40), as_preshape(cc$shapes))))
})

test_that("simulate_corpus_callosum draws from the caller's stream: set.seed() reproduces it, nothing reseeds it", {
  kind0 <- RNGkind()
  on.exit(RNGkind(kind0[1], kind0[2], kind0[3]), add = TRUE)
  set.seed(3); c1 <- simulate_corpus_callosum(5)
  set.seed(3); c2 <- simulate_corpus_callosum(5)
  expect_identical(c1, c2)
  # the call consumes the caller's stream (it does not restore or reset it):
  # a second call continues where the first stopped
  set.seed(3); invisible(simulate_corpus_callosum(5)); c3 <- simulate_corpus_callosum(5)
  expect_false(identical(c3$shapes, c1$shapes))
  # the generator kinds are the caller's, untouched, and reproduce under them
  suppressWarnings(RNGkind("L'Ecuyer-CMRG", "Box-Muller", "Rounding"))
  set.seed(5); e1 <- simulate_corpus_callosum(4)
  expect_identical(RNGkind(), c("L'Ecuyer-CMRG", "Box-Muller", "Rounding"))
  set.seed(5); e2 <- simulate_corpus_callosum(4)
  expect_identical(e1, e2)
  expect_false(identical(e1$shapes, with_seed(5, simulate_corpus_callosum(4))$shapes))
  # no `seed` argument any more: the package never calls set.seed()
  expect_false("seed" %in% names(formals(simulate_corpus_callosum)))
  expect_error(simulate_corpus_callosum(4, seed = 7))
})

test_that("landmarks follow the documented anatomical order", {
  cc <- with_seed(2, simulate_corpus_callosum(20, noise = 0))
  lm <- cc$landmarks
  # Landmark 1 on the splenium; the dorsal surface comes first, as one block.
  expect_equal(as.character(lm$region[1]), "splenium")
  dorsal <- which(lm$surface == "dorsal")
  expect_equal(dorsal, seq_along(dorsal))
  expect_true(length(dorsal) > 15 && length(dorsal) < 35)
  expect_equal(levels(droplevels(lm$region)), c("splenium", "isthmus/body", "genu", "rostrum"))
  for (i in 1:20) {
    z <- cc$shapes[, , i]
    # Counterclockwise outline, anterior (genu) to the left of landmark 1,
    # which is at the posterior end.
    expect_gt(poly_area(z), 0)
    expect_gt(z[1, 1], stats::quantile(z[, 1], 0.85))
    expect_lt(min(z[, 1]), z[1, 1] - 50)
    # Dorsal landmarks above the ventral ones around the body.
    body <- lm$region == "isthmus/body"
    expect_gt(mean(z[body & lm$surface == "dorsal", 2]), mean(z[body & lm$surface == "ventral", 2]))
    expect_false(self_intersects(z))
  }
})

test_that("the outline has corpus-callosum proportions", {
  cc <- with_seed(3, simulate_corpus_callosum(1, age = 60, noise = 0, variability = 0))
  z <- cc$shapes[, , 1]
  # Rotate back by the small random rotation: use the principal axis.
  e <- eigen(stats::cov(z))$vectors
  w <- scale(z, scale = FALSE) %*% e
  len <- diff(range(w[, 1]))
  height <- diff(range(w[, 2]))
  expect_true(len / height > 2 && len / height < 4.5)
  expect_true(len > 55 && len < 90)   # about 70 mm
})

test_that("the age effect is measurable: older outlines are thinner and differ in mean shape", {
  M <- kendall_shape(50)
  cc <- with_seed(4, simulate_corpus_callosum(240))
  age <- cc$covariates$age
  Z <- as_preshape(cc$shapes)
  area <- apply(Z, 3, poly_area)   # area of the unit-size preshape
  expect_lt(stats::cor(age, area), -0.3)

  young <- age < 65
  old <- age > 80
  m_young <- frechet_mean(M, Z[, , young])$mean
  m_old <- frechet_mean(M, Z[, , old])$mean
  d_age <- mfd_dist(M, m_young, m_old)
  # Split the young group at random: the difference due to sampling alone.
  idx <- which(young)
  half <- idx[seq(1, length(idx), by = 2)]
  rest <- setdiff(idx, half)
  d_null <- mfd_dist(M, frechet_mean(M, Z[, , half])$mean, frechet_mean(M, Z[, , rest])$mean)
  expect_gt(d_age, 3 * d_null)

  # Without an age effect the old and young means agree up to sampling noise.
  cc0 <- with_seed(4, simulate_corpus_callosum(240, age_effect = 0))
  Z0 <- as_preshape(cc0$shapes)
  d0 <- mfd_dist(M, frechet_mean(M, Z0[, , young])$mean, frechet_mean(M, Z0[, , old])$mean)
  expect_lt(d0, d_age / 2)
  # Sex has no effect.
  sex <- cc$covariates$sex
  expect_lt(abs(mean(area[sex == "F"]) - mean(area[sex == "M"])), 2 * stats::sd(area) / sqrt(min(table(sex))))
})

test_that("simulate_corpus_callosum validates its arguments", {
  expect_error(simulate_corpus_callosum(0), class = "dpmanifold_error")
  expect_error(simulate_corpus_callosum(5, k = 4), class = "dpmanifold_error")
  expect_error(simulate_corpus_callosum(5, age = 1:3), class = "dpmanifold_error")
  expect_error(simulate_corpus_callosum(5, noise = -1), class = "dpmanifold_error")
  expect_error(simulate_corpus_callosum(5, age_effect = 0.5), class = "dpmanifold_error")
  # ages at which the body would thin to nothing (negative thickness, a self-intersecting outline)
  expect_error(simulate_corpus_callosum(5, age = 300, age_effect = 0.2), "^`age` reaches 300", class = "dpmanifold_error")
  expect_error(simulate_corpus_callosum(5, age = 1e308), "^`age` reaches", class = "dpmanifold_error")
  expect_error(simulate_corpus_callosum(5, age_range = c(55, 250)), "^`age_range` reaches 250", class = "dpmanifold_error")
  expect_silent(simulate_corpus_callosum(5, age = 97, age_effect = 0.2))
  expect_equal(with_seed(1, simulate_corpus_callosum(3, age = 70))$covariates$age, rep(70, 3))
})

# --- read_corpus_callosum ----------------------------------------------------

write_group <- function(dir, group, suffix, shapes, age, diagnosis, landmark_first = TRUE) {
  n <- dim(shapes)[3]
  info <- cbind(matrix(seq_len(n * 8), n, 8), age, diagnosis, 1)
  lname <- paste0(group, "Ldata", suffix)
  iname <- paste0(group, "info", suffix)
  arr <- if (landmark_first) shapes else aperm(shapes, c(2, 1, 3))
  do.call(R.matlab::writeMat, c(list(file.path(dir, paste0(lname, ".mat"))), stats::setNames(list(arr), lname)))
  do.call(R.matlab::writeMat, c(list(file.path(dir, paste0(iname, ".mat"))), stats::setNames(list(info), iname)))
  file.path(dir, paste0(c(lname, iname), ".mat"))
}

test_that("read_corpus_callosum reads a directory of ADNI-format .mat files", {
  skip_if_not_installed("R.matlab")
  dir <- tempfile("cc")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  s1 <- with_seed(1, simulate_corpus_callosum(4))
  s2 <- with_seed(2, simulate_corpus_callosum(3))
  write_group(dir, "AD", "F", s1$shapes, s1$covariates$age, 3)
  write_group(dir, "CN", "M", s2$shapes, s2$covariates$age, 1, landmark_first = FALSE)
  cc <- read_corpus_callosum(dir)
  expect_equal(dim(cc$shapes), c(50L, 2L, 7L))
  expect_equal(cc$shapes[, , 1:4], s1$shapes, tolerance = 1e-12)
  expect_equal(cc$shapes[, , 5:7], s2$shapes, tolerance = 1e-12)
  expect_equal(cc$covariates$age, c(s1$covariates$age, s2$covariates$age))
  expect_equal(cc$covariates$diagnosis, c(3, 3, 3, 3, 1, 1, 1))
  expect_equal(as.character(cc$covariates$group), rep(c("ADF", "CNM"), c(4, 3)))
  expect_true(all(c("info1", "info8", "info11") %in% names(cc$covariates)))
  expect_false(any(c("info9", "info10") %in% names(cc$covariates)))
  expect_equal(cc$covariates$info1[1:4], 1:4)
})

test_that("read_corpus_callosum reads a pair of files in either order and reports problems", {
  skip_if_not_installed("R.matlab")
  dir <- tempfile("cc")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  s1 <- with_seed(1, simulate_corpus_callosum(5, k = 20))
  f <- write_group(dir, "MCI", "F", s1$shapes, s1$covariates$age, 2)
  a <- read_corpus_callosum(f)
  b <- read_corpus_callosum(rev(f))
  expect_identical(a, b)
  expect_equal(dim(a$shapes), c(20L, 2L, 5L))
  expect_equal(as.character(a$covariates$group), rep("MCIF", 5))
  # Different column layout.
  expect_equal(read_corpus_callosum(f, age_col = 1, diagnosis_col = 2)$covariates$age, 1:5)

  expect_error(read_corpus_callosum(file.path(dir, "nope")), class = "dpmanifold_error")
  expect_error(read_corpus_callosum(c(f[1], file.path(dir, "missing.mat"))), class = "dpmanifold_error")
  expect_error(read_corpus_callosum(f, age_col = 20), class = "dpmanifold_error")
  # An information file with the wrong number of rows.
  R.matlab::writeMat(f[2], MCIinfoF = matrix(1, 3, 10))
  expect_error(read_corpus_callosum(f), "5 shapes", class = "dpmanifold_error")
  # A landmark file without its partner.
  unlink(f[2])
  expect_error(read_corpus_callosum(dir), "MCIinfoF", class = "dpmanifold_error")
  empty <- tempfile("empty")
  dir.create(empty)
  on.exit(unlink(empty, recursive = TRUE), add = TRUE)
  expect_error(read_corpus_callosum(empty), "Ldata", class = "dpmanifold_error")
})

# --- datasets ----------------------------------------------------------------

test_that("eustock_covariances gives SPD matrices along time", {
  eu <- eustock_covariances(window = 60, step = 20)
  C <- eu$covariances
  n <- dim(C)[3]
  expect_equal(dim(C)[1:2], c(4L, 4L))
  expect_equal(n, length(seq(1, 1859 - 60 + 1, by = 20)))
  expect_true(all(mfd_belongs(spd(4), C)))
  expect_true(all(apply(C, 3, function(S) min(eigen(S, symmetric = TRUE, only.values = TRUE)$values)) > 0))
  expect_equal(nrow(eu$covariates), n)
  expect_true(all(diff(eu$covariates$time) > 0))
  expect_true(all(eu$covariates$start < eu$covariates$time & eu$covariates$time < eu$covariates$end))
  # First window by hand.
  r <- 100 * diff(log(EuStockMarkets))
  expect_equal(unname(C[, , 1]), unname(stats::cov(r[1:60, ])))
  # A 2 x 2 subset is the corresponding block.
  eu2 <- eustock_covariances(window = 60, step = 20, indices = c("DAX", "FTSE"))
  expect_equal(dim(eu2$covariances), c(2L, 2L, n))
  expect_equal(eu2$covariances, C[c(1, 4), c(1, 4), ])
  expect_equal(eustock_covariances(indices = c(1, 4))$covariances, eu2$covariances)
  expect_error(eustock_covariances(window = 3), class = "dpmanifold_error")
  expect_error(eustock_covariances(indices = "NIKKEI"), class = "dpmanifold_error")
  expect_error(eustock_covariances(window = 5000), class = "dpmanifold_error")
})

test_that("quakes_directions gives unit vectors that map back to the epicentres", {
  q <- quakes_directions()
  X <- q$directions
  expect_equal(dim(X), c(1000L, 3L))
  expect_equal(unname(rowSums(X^2)), rep(1, 1000), tolerance = 1e-12)
  expect_true(all(mfd_belongs(sphere(2), X)))
  expect_equal(unname(asin(X[, 3]) * 180 / pi), quakes$lat, tolerance = 1e-10)
  lon <- atan2(X[, 2], X[, 1]) * 180 / pi
  expect_equal(unname(lon %% 360), quakes$long %% 360, tolerance = 1e-10)
  expect_equal(q$covariates$depth, quakes$depth)
  expect_equal(q$covariates$mag, quakes$mag)
  fm <- frechet_mean(sphere(2), X)
  expect_true(fm$converged)
})

test_that("the shipped polar wander path gives unit vectors along a clear path", {
  expect_equal(dim(polar_wander), c(31L, 3L))
  X <- polar_wander_directions()
  expect_equal(rowSums(X^2), rep(1, 31), tolerance = 1e-12)
  expect_equal(atan2(X[, 2], X[, 1]) %% (2 * pi), polar_wander$longitude %% (2 * pi), tolerance = 1e-12)
  fit <- geodesic_regression(sphere(2), polar_wander$time, X)
  expect_true(fit$converged)
  # the path bends (the source fits piecewise geodesics): one geodesic
  # explains a fifth of the Frechet variance
  expect_gt(fit$r_squared, 0.15)
  expect_lt(fit$r_squared, 0.3)
})
