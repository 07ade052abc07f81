# The neighbour test of helper-neighbours.R on every path of the default
# private regression's plan (method = "gauss_newton", R/regression_gauss_newton.R)
# crossed with the manifolds a path takes: the net alone, the tangent
# fallback, K-norm localisation followed by rounds, the path without clip
# stages, the two refining rounds of the `third` rule, precise rounds with
# one and with two rounds, Kendall with refining rounds.
#
# Table-driven: each row first pins its path by the release's stage names,
# its localising mechanism and its clip quantile, so that a change of the
# plan's rules that moves a row to another path fails here loudly instead of
# silently testing another path; then a neighbour (one record moved to an
# extreme but valid value, its covariate to the edge of x_range or beyond
# it) must give a release identical except the estimate and drawn values.

np_manifolds <- function() {
  K <- kendall_shape(5)
  pk <- as_preshape(matrix(c(0, 1, 2, 1, 0, 0, 0, 1, 2, 1), 5))
  uk <- mfd_project(K, pk, matrix(c(0, 0, 0, 0, 1, 1, 0, 0, 0, -1), 5))
  list(
    # far: an extreme but valid response for the neighbour's moved record
    sphere = list(M = sphere(2), center = c(0, 0, 1), v = c(0.5, 0.2, 0), radius = 0.45, far = c(0, 0, -1)),
    sphere5 = list(M = sphere(5), center = c(0, 0, 0, 0, 0, 1), v = c(0.3, -0.2, 0.1, 0.2, 0.1, 0), radius = 0.4,
                   far = c(0, 0, 0, 0, 0, -1)),
    spd = list(M = spd(2), center = diag(2), v = matrix(c(0.4, 0.1, 0.1, -0.2), 2), radius = 0.6,
               far = diag(c(1e150, 1e-150))),
    spd_le = list(M = spd(2, metric = "log_euclidean"), center = diag(2), v = matrix(c(0.4, 0.1, 0.1, -0.2), 2),
                  radius = 0.6, far = diag(c(1e-150, 1e150))),
    # (Kendall: a shape near the space's diameter pi / 2 from the centre)
    kendall = list(M = K, center = pk, radius = 0.35,
                   v = mfd_project(K, pk, matrix(c(0.2, 0, -0.1, 0.1, 0, 0, 0.1, 0, -0.1, 0.05), 5)),
                   far = mfd_exp(K, pk, 1.5 * uk / mfd_norm(K, pk, uk))),
    # (H^2: distance 28 from the origin, near the x0 <= 1e12 that
    # hyperbolic() accepts)
    hyperbolic = list(M = hyperbolic(2), center = c(1, 0, 0), v = c(0, 0.5, 0.2), radius = 0.6,
                      far = mfd_exp(hyperbolic(2), c(1, 0, 0), c(0, -28, 0))),
    spd3 = list(M = spd(3), center = diag(3), v = matrix(c(0.4, 0.1, 0, 0.1, -0.2, 0.1, 0, 0.1, 0.3), 3), radius = 1.3,
                far = diag(c(1e150, 1, 1e-150))),
    euclidean = list(M = euclidean(2), center = c(1, -1), v = c(1, 0.5), radius = 2, far = c(-1e150, 1e150)))
}

# path: the release's stage names; loc: the localising mechanism ("-" when
# no localise stage); q: the clip stages' quantile ("-" when none); x_far:
# the moved record's covariate (x_range is [0, 1]); i: the moved record.
np_rows <- function() {
  r <- function(id, mfd, n, eps, tau, path, loc, q, x_far, i = 1L, scale = FALSE) {
    list(id = id, mfd = mfd, n = n, eps = eps, tau = tau, path = path, loc = loc, q = q, x_far = x_far, i = i,
         scale = scale)
  }
  fallback <- c("design", "moments")
  noclip <- c("design", "localise", "refine")
  one <- c("design", "localise", "clip", "refine")
  one_lc <- c("design", "localise_clip", "localise", "clip", "refine")
  two <- c("design", "localise", "clip", "refine", "clip2", "refine2")
  two_lc <- c("design", "localise_clip", "localise", "clip", "refine", "clip2", "refine2")
  three <- c(two, "clip3", "refine3")
  net <- "exponential_net"
  pairs <- "exponential_net (pairs)"
  list(
    # the net alone: one block (dimension <= 2), the whole budget, no round
    r("net alone", "sphere", 20, 1, NULL, "localise", net, "-", 50),
    r("net alone", "hyperbolic", 20, 1, NULL, "localise", net, "-", 0, i = 20L),
    # the net over pairs of coordinates alone (dimension 5: blocks (1, 2),
    # (3, 4), (5); sensitivity 3)
    r("net over pairs alone", "sphere5", 200, 1, 0.15, "localise", pairs, "-", -50),
    # the same on a lattice too fine for every pair's score (SPD(3): six
    # coordinates in three blocks, one sparse row at a time)
    r("net over pairs alone, sparse", "spd3", 200, 1, 0.05, "localise", "exponential_net (sparse pairs)", "-", 50),
    # the tangent fallback: n epsilon < 50, one round at the centre
    r("tangent fallback", "sphere", 20, 0.2, NULL, fallback, "-", "-", -50),
    r("tangent fallback", "spd_le", 20, 0.2, NULL, fallback, "-", "-", 1),
    r("tangent fallback", "hyperbolic", 20, 0.2, NULL, fallback, "-", "-", 1e12),
    r("tangent fallback", "euclidean", 20, 0.2, NULL, fallback, "-", "-", 0, i = 7L),
    # no clip stages: 50 <= n epsilon < 90, the refining round clips at tau_e
    r("no clip, K-norm", "spd", 100, 0.5, NULL, noclip, "knorm", "-", 50),
    r("no clip, K-norm", "kendall", 40, 2, NULL, noclip, "knorm", "-", -50),
    r("no clip, net", "sphere", 40, 2, 0.05, noclip, net, "-", 1),
    # the `third` rule (localisation error > 2 tau_e): two refining rounds,
    # not precise (0.6-quantile)
    r("third rule, K-norm", "kendall", 20, 5, 0.05, two, "knorm", "0.6", 50),
    r("third rule, net", "euclidean", 20, 5, 0.05, two, net, "0.6", 0),
    # K-norm localisation (its clip level drawn first) and a clipped round
    r("K-norm + round", "spd", 40, 10, NULL, one_lc, "knorm", "0.6", -50),
    r("K-norm + round", "kendall", 40, 10, NULL, one_lc, "knorm", "0.6", 1),
    # precise rounds (0.9-quantile) off S^3: one round (epsilon sqrt(n) /
    # sqrt((d + 1) / 2) < 150) and two
    r("precise one round, K-norm", "hyperbolic", 200, 10, NULL, one_lc, "knorm", "0.9", 50),
    r("precise one round, K-norm", "spd", 60, 10, NULL, one_lc, "knorm", "0.9", 0),
    r("precise one round, K-norm", "kendall", 100, 10, NULL, one_lc, "knorm", "0.9", -50),
    r("precise one round, net", "sphere", 40, 10, NULL, one, net, "0.9", 1),
    r("precise two rounds, K-norm", "euclidean", 400, 10, NULL, two_lc, "knorm", "0.9", 50),
    r("precise two rounds and third rule, net", "euclidean", 400, 10, 0.05, three, net, "0.9", -1e6),
    # the scale stage first (n epsilon >= 500 off euclidean()), then the
    # plan at the level it draws (dimension 3 to 6): a net per coordinate
    # and a round, K-norm localisation and a round
    r("scale stage, net + round", "spd", 600, 1, 0.4, c("scale", one), net, "0.6", 50, scale = TRUE),
    r("scale stage, K-norm + round", "kendall", 600, 1, 0.4, c("scale", one_lc), "knorm", "0.6", 1, scale = TRUE),
    r("scale stage, net + round", "spd_le", 400, 2, 0.5, c("scale", one), net, "0.6", -50, scale = TRUE))
}

# The path a release took: its stage names, its localising mechanism, the
# quantile its clip stages state.
release_path <- function(rel) {
  st <- rel$stages
  nms <- vapply(st, function(s) s$name, "")
  loc <- Filter(function(s) s$name == "localise", st)
  clips <- Filter(function(s) grepl("^clip[0-9]*$", s$name), st)
  q <- unique(vapply(clips, function(s) sub("-quantile.*$", "", s$detail), ""))
  # (a net over pairs of coordinates says so in its detail)
  mech <- if (length(loc)) {
    paste0(loc[[1]]$mechanism, if (grepl("one sparse row", loc[[1]]$detail)) " (sparse pairs)" else
      if (grepl("blocks of up to two", loc[[1]]$detail)) " (pairs)")
  } else "-"
  list(path = nms, loc = mech, q = if (length(q)) q else "-")
}

test_that("neighbours agree on every path of the plan x manifold (table of settings)", {
  mf <- np_manifolds()
  rows <- np_rows()
  # (restored whatever a row leaves: rows without the scale stage turn it off)
  constants <- no_scale_stage()
  restore_scale_stage(constants)
  on.exit(restore_scale_stage(constants), add = TRUE)
  for (k in seq_along(rows)) {
    row <- rows[[k]]
    # (rows of the stages after the scale stage run without it)
    old <- if (!row$scale) no_scale_stage()
    cs <- mf[[row$mfd]]
    M <- cs$M
    label <- sprintf("%s on %s (n %g, epsilon %g, tau %s)", row$id, row$mfd, row$n, row$eps,
                     if (is.null(row$tau)) "NULL" else row$tau)
    set.seed(7000 + k)
    x <- runif(row$n)
    D <- list(x = x, y = geodesic_data(M, cs$center, cs$v, x - 0.5, noise = 0.03))
    D2 <- list(x = replace(D$x, row$i, row$x_far), y = replace_record(M, D$y, row$i, cs$far))
    f <- function(Dd) dp_geodesic_regression(M, Dd$x, Dd$y, epsilon = row$eps, tau = row$tau, center = cs$center,
                                             radius = cs$radius, x_range = c(0, 1), method = "gauss_newton")
    # the row's path, pinned on the release (and on its mechanism); its
    # warnings, if any, are compared between the neighbours below
    set.seed(1)
    rel <- suppressWarnings(f(D))
    expect_s3_class(rel, "dp_release")
    expect_identical(release_path(rel), row[c("path", "loc", "q")], label = paste(label, "path"))
    mech <- suppressWarnings(regression_mechanism(M, row$n, epsilon = row$eps, tau = row$tau, center = cs$center,
                                 radius = cs$radius, x_range = c(0, 1)))
    # (with the scale stage, the mechanism states the plan at tau and the
    # release runs the plan at the level drawn)
    if (row$scale) {
      expect_identical(names(mech$stages)[1], "scale", label = paste(label, "mechanism's first stage"))
    } else {
      expect_identical(names(mech$stages), row$path, label = paste(label, "mechanism's stages"))
    }
    # the neighbour differs in exactly the one record
    expect_identical(sum(D$x != D2$x), 1L, label = paste(label, "moved covariates"))
    # and gives a release identical except the private outputs
    rels <- expect_neighbours_agree(f, D, D2, label)
    expect_false(is.null(rels), label = paste(label, "released (not refused)"))
    expect_true(all(is.finite(unlist(rels[[1]]$estimate))), label = paste(label, "finite estimate"))
    expect_true(all(is.finite(unlist(rels[[2]]$estimate))), label = paste(label, "finite neighbour estimate"))
    # (not vacuous: the moved record reaches the release, whose estimate
    # moves under the same seed; but the net alone's release is a net point,
    # which one record's score change of at most 1 rarely moves under the
    # same seed)
    if (!identical(setdiff(row$path, "scale"), "localise")) {
      expect_false(identical(rels[[1]]$estimate, rels[[2]]$estimate), label = paste(label, "estimates"))
    }
    if (!is.null(old)) restore_scale_stage(old)
  }
})
