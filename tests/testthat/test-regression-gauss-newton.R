# The default private regression, method = "gauss_newton" (and "tangent",
# its one-round case): the mechanism object, its facts, neighbours on every
# manifold, the stated sensitivities against adversarial pairs, the exact
# clip-level sampler against its target, reproducibility, utility.
# Proof: inst/proofs/regression-gauss-newton.md.

gn_cases <- function() {
  K <- kendall_shape(5)
  pk <- as_preshape(matrix(c(0, 1, 2, 1, 0, 0, 0, 1, 2, 1), 5))
  list(
    euclidean = list(M = euclidean(2), center = c(1, -1), v = c(1, 0.5), radius = 2),
    sphere = list(M = sphere(2), center = c(0, 0, 1), v = c(0.5, 0.2, 0), radius = 0.45),
    spd = list(M = spd(2), center = diag(2), v = matrix(c(0.4, 0.1, 0.1, -0.2), 2), radius = 0.6),
    spd_le = list(M = spd(2, metric = "log_euclidean"), center = diag(2), v = matrix(c(0.4, 0.1, 0.1, -0.2), 2),
                  radius = 0.6),
    kendall = list(M = K, center = pk, v = 0.3 * mfd_random_tangent(K, pk, 1), radius = 0.35),
    hyperbolic = list(M = hyperbolic(2), center = c(1, 0, 0), v = c(0, 0.5, 0.2), radius = 0.6))
}

test_that("the mechanism states its stages before any data, and the release prints them", {
  # (the stages after the scale stage; the scale stage: test-regression-scale.R)
  old <- no_scale_stage()
  on.exit(restore_scale_stage(old), add = TRUE)
  # S^3 at n epsilon = 1000: the K-norm localising round (its public error
  # is below the net's, whose spacing at the work bound counts), its clip
  # level chosen privately first (n e1 = 289 >= 90)
  S3 <- sphere(3)
  ctr <- c(0, 0, 0, 1)
  v0 <- c(0.5, 0.2, 0, 0)
  m <- regression_mechanism(S3, n = 1000, epsilon = 1, tau = 0.15, center = ctr, radius = 0.45, x_range = c(0, 1))
  expect_s3_class(m, c("dp_mechanism_regression", "dp_mechanism"))
  expect_named(m$stages, c("design", "localise_clip", "localise", "clip", "refine"))
  expect_equal(sum(m$privacy$split), 1)
  expect_equal(m$stages$localise_clip$privacy$epsilon, 0.15 * 0.4 * 0.85)
  expect_equal(m$privacy$guarantee, "epsilon-DP (exact sampler); epsilon = 1")
  expect_true(all(vapply(m$stages, function(s) s$sampler$kind, "") == "exact"))
  expect_output(print(m), "stage 5, refine: K-norm mechanism")
  # K-norm stages: scale = sensitivity / epsilon
  for (nm in c("localise", "refine")) {
    s <- m$stages[[nm]]
    expect_equal(s$sigma, s$sensitivity / s$privacy$epsilon)
  }
  expect_equal(m$stages$localise$sensitivity, 2 * 0.45)
  # the refining round's upper clip: tau plus the first round's public error
  shift1 <- sqrt(8 * 3 * 4) * 2 * 0.45 / (1000 * 0.4 * 0.85)
  up2 <- 0.15 + shift1
  expect_equal(m$stages$refine$sensitivity, 2 * up2)
  # public rules: no clip stage below n epsilon = 90 (and then one round
  # when the first round's error exceeds tau), one round below 50 (S^8,
  # where the net per coordinate is too coarse at n epsilon = 80)
  S8 <- sphere(8)
  c8 <- c(rep(0, 8), 1)
  expect_warning(m2 <- regression_mechanism(S8, n = 80, epsilon = 1, tau = 0.5, center = c8, radius = 0.2,
                                            x_range = c(0, 1)),
                 class = "dpmanifold_low_utility")
  expect_named(m2$stages, c("design", "localise", "refine"))
  expect_equal(m2$stages$refine$sensitivity, 2 * 0.5)
  m2b <- regression_mechanism(S8, n = 80, epsilon = 1, tau = 0.1, center = c8, radius = 0.2, x_range = c(0, 1))
  expect_named(m2b$stages, c("design", "moments"))
  m3 <- regression_mechanism(S3, n = 40, epsilon = 1, center = ctr, radius = 0.45, x_range = c(0, 1))
  expect_named(m3$stages, c("design", "moments"))
  # a first round whose public error exceeds 2 tau: a second refining round
  # (epsilon sqrt(n) / sqrt((d + 1) / 2) = 40.0, below the first precise
  # rule; n epsilon = 8000 reaches the second, 1200 x 3 / 2)
  m5 <- regression_mechanism(S3, n = 20000, epsilon = 0.4, tau = 1e-4, center = ctr, radius = 0.45, x_range = c(0, 1))
  expect_named(m5$stages, c("design", "localise_clip", "localise", "clip", "refine", "clip2", "refine2"))
  expect_equal(sum(m5$privacy$split), 0.4)
  # precise rounds (the same at epsilon 5: 500 >= 150) add one round, at the
  # 0.9-quantile
  m6 <- regression_mechanism(S3, n = 20000, epsilon = 5, tau = 1e-4, center = ctr, radius = 0.45, x_range = c(0, 1))
  expect_named(m6$stages, c(names(m5$stages), "clip3", "refine3"))
  expect_match(m6$stages$clip3$detail, "0.9-quantile", fixed = TRUE)
  expect_match(m5$stages$clip2$detail, "0.9-quantile", fixed = TRUE)
  # the second rule alone: n epsilon = 2000 (epsilon sqrt(n) normalised
  # 31.6) gives precise rounds, 400 (9.0) does not
  expect_match(regression_mechanism(S3, n = 2000, epsilon = 1, tau = 0.05, center = ctr, radius = 0.45,
                                    x_range = c(0, 1))$stages$clip$detail, "0.9-quantile", fixed = TRUE)
  expect_match(regression_mechanism(S3, n = 1000, epsilon = 0.4, tau = 0.05, center = ctr, radius = 0.45,
                                    x_range = c(0, 1))$stages$clip$detail, "0.6-quantile", fixed = TRUE)
  set.seed(4)
  D5 <- gn_data(S3, 20000, ctr, v0, 1e-5)
  r5 <- release(m5, D5$x, D5$y)
  expect_length(r5$bounds$clip, 3L)
  expect_equal(r5$stages[[7]]$sensitivity, 2 * r5$bounds$clip[3])
  # tau is optional: the residual bound of the public domain is the upper limit
  m4 <- regression_mechanism(S3, n = 1000, epsilon = 1, center = ctr, radius = 0.45, x_range = c(0, 1))
  expect_equal(m4$stages$refine$sensitivity, 2 * (0.45 + 0.45 + 0.45))
  expect_true(m4$privacy$private)
  # a release prints the clip levels it drew (sensitivity 2 rho) and lists
  # them among its private draws
  set.seed(1)
  D <- gn_data(S3, 1000, ctr, v0, 0.03)
  rel <- release(m, D$x, D$y)
  expect_equal(rel$privacy$guarantee, "epsilon-DP (exact sampler); epsilon = 1")
  expect_length(rel$bounds$clip, 2L)
  expect_lt(min(abs(rel$bounds$clip[1] - 0.45 * 2^(-(8:0) / 2))), 1e-12)
  expect_lt(min(abs(rel$bounds$clip[2] - up2 * 2^(-(8:0) / 2))), 1e-12)
  expect_equal(rel$stages[[3]]$sensitivity, 2 * rel$bounds$clip[1])
  expect_equal(rel$stages[[5]]$sensitivity, 2 * rel$bounds$clip[2])
  expect_equal(rel$stages[[5]]$sigma, 2 * rel$bounds$clip[2] / rel$stages[[5]]$privacy$epsilon)
  expect_equal(rel$private_draws$bounds$clip, rel$bounds$clip)
  expect_output(print(rel), "stage 2, localise_clip: exponential mechanism over a finite grid")
  expect_output(print(rel), "stage 4, clip: exponential mechanism over a finite grid")
  expect_error(release(m, D$x[-1], D$y[-1, ]), "`y`", class = "dpmanifold_error")

  # after a net's draw too, the release prints the refining round's drawn
  # level
  S2 <- sphere(2)
  mn <- regression_mechanism(S2, n = 100, epsilon = 1, tau = 0.15, center = c(0, 0, 1), radius = 0.45,
                             x_range = c(0, 1))
  expect_named(mn$stages, c("design", "localise", "clip", "refine"))
  Dn <- gn_data(S2, 100, c(0, 0, 1), c(0.5, 0.2, 0), 0.05)
  rn <- release(mn, Dn$x, Dn$y)
  expect_length(rn$bounds$clip, 1L)
  expect_equal(rn$stages[[4]]$sensitivity, 2 * rn$bounds$clip)
  expect_lt(rn$bounds$clip, mn$stages$refine$sensitivity / 2)

  # S^2: the exponential mechanism over a public net localises (sensitivity
  # 1); the refining round's upper clip is tau plus its public error
  S2 <- sphere(2)
  mn <- regression_mechanism(S2, n = 300, epsilon = 1, tau = 0.15, center = c(0, 0, 1), radius = 0.45,
                             x_range = c(0, 1))
  expect_named(mn$stages, c("design", "localise", "clip", "refine"))
  expect_identical(mn$stages$localise$mechanism, "exponential_net")
  expect_equal(mn$stages$localise$sensitivity, 1)
  expect_equal(mn$stages$localise$sigma, 2 / mn$stages$localise$privacy$epsilon)
  expect_gt(mn$stages$refine$sensitivity, 2 * 0.15)
  expect_lt(mn$stages$refine$sensitivity, 2 * (0.15 + 0.05))
  expect_output(print(mn), "localise: exponential mechanism over a public net of geodesics")
  # S^3 at n epsilon = 100: the net with the whole budget (it localises far
  # closer than the K-norm round), no design stage and no round after it;
  # the release states the public design mean 0
  mo <- regression_mechanism(S3, n = 100, epsilon = 1, tau = 0.15, center = ctr, radius = 0.45, x_range = c(0, 1))
  expect_named(mo$stages, "localise")
  expect_identical(mo$stages$localise$mechanism, "exponential_net")
  expect_equal(mo$stages$localise$privacy$epsilon, 1)
  expect_equal(mo$spec$cpp$net_epsilon, 1)
  expect_false(mo$spec$cpp$design)
  expect_length(mo$spec$cpp$rounds, 0L)
  ro <- release(mo, D$x[1:100], D$y[1:100, ])
  expect_length(ro$private_draws, 0L)
  expect_true(all(is.finite(unlist(ro$estimate))))
  expect_equal(ro$estimate$uncertainty[["t_mean"]], 0)
  # the design's draws are gone, not merely unused: the release consumes
  # exactly the net's uniforms, one per block
  set.seed(4); release(mo, D$x[1:100], D$y[1:100, ]); after <- runif(1)
  # (one per block: the three coordinates drawn in blocks (1, 2) and (3))
  expect_equal(mo$stages$localise$sensitivity, 2)
  set.seed(4); invisible(runif(2)); expect_identical(runif(1), after)
  # a plan without its design stage takes no rounds
  bad <- mo
  bad$spec$cpp$rounds <- mn$spec$cpp$rounds
  expect_error(release(bad, D$x[1:100], D$y[1:100, ]), "`mechanism`", class = "dpmanifold_error")
  # (the C++ core refuses that spec too, whoever calls it)
  expect_error(dpm$cpp_release_regression(S3, t(D$y[1:100, ]), D$x[1:100] - 0.5, bad$spec$cpp, FALSE),
               "rounds but no design", class = "dpmanifold_error")
  # a net per coordinate covers a box; the draw lands in the public domain
  # (|v| over the range within the release's bound), so predict() takes it
  mv <- regression_mechanism(S3, n = 50, epsilon = 1.2, tau = 0.15, center = ctr, radius = 0.45, x_range = c(0, 1))
  expect_named(mv$stages, "localise")
  Dv <- gn_data(S3, 50, ctr, c(0.55, 0.55, 0.3, 0), 0.03)
  for (i in 1:40) expect_length(predict(release(mv, Dv$x, Dv$y), c(0, 1), interval = "confidence")$radius, 2L)
  # SPD(2) at n = 500, radius 1.5: a net per coordinate, drawn
  # independently (sensitivity d = 3, one term in [0, 1] per coordinate),
  # then the clip stage and a refining round
  mc <- regression_mechanism(spd(2), n = 500, epsilon = 1, tau = 0.05, center = diag(2), radius = 1.5,
                             x_range = c(0, 1))
  expect_named(mc$stages, c("design", "localise", "clip", "refine"))
  expect_identical(mc$stages$localise$mechanism, "exponential_net")
  expect_equal(mc$stages$localise$sensitivity, 3)
  expect_equal(mc$stages$localise$sigma, 2 * 3 / mc$stages$localise$privacy$epsilon)
  expect_equal(nrow(mc$spec$cpp$net), 2L)
  bad <- mc
  bad$spec$cpp$net <- rbind(bad$spec$cpp$net, 0)
  Dc <- gn_data(spd(2), 500, diag(2), matrix(c(0.4, 0.1, 0.1, -0.2), 2), 0.01)
  expect_error(release(bad, Dc$x, Dc$y), "`mechanism`", class = "dpmanifold_error")
  expect_error(dpm$cpp_release_regression(spd(2), dpm$to_ambient(spd(2), Dc$y, "y"), Dc$x - 0.5, bad$spec$cpp, FALSE),
               "net of the wrong size", class = "dpmanifold_error")
  bad <- mc
  bad$spec$cpp$net_clip_levels <- 1e6L
  expect_error(dpm$cpp_release_regression(spd(2), dpm$to_ambient(spd(2), Dc$y, "y"), Dc$x - 0.5, bad$spec$cpp, FALSE),
               "ladder of clips out of range", class = "dpmanifold_error")
  # S^5 at n epsilon = 200: the net per coordinate clips at d^-0.3 of the
  # norm's clips; its lattice has h_b = sqrt(12) h_a and is as fine as its
  # size allows, but not finer in a than twice the law's core sd there
  # (which binds on S^5); the plan's choice and the band variances keep the
  # wider net's values.
  lattice <- function(m) list(h = vapply(1:2, function(i) diff(sort(unique(m$spec$cpp$net[i, ])))[1], 1),
                              N = ncol(m$spec$cpp$net))
  S5 <- sphere(5)
  m5 <- regression_mechanism(S5, n = 200, epsilon = 1, tau = 0.15, center = c(rep(0, 5), 1), radius = 0.4,
                             x_range = c(0, 1))
  k5 <- 5^-0.3
  expect_identical(m5$stages$localise$mechanism, "exponential_net")
  expect_equal(m5$spec$cpp$net_clip, k5 * 0.1)
  expect_equal(m5$spec$cpp$net_clip_wide, k5 * 0.15)
  e5 <- m5$stages$localise$privacy$epsilon
  # (the release draws over pairs of coordinates, on a lattice whose size
  # the pairs' work bound sets: n ceil(d / 2) N^2 <= 4e8)
  l5 <- lattice(m5)
  expect_equal(l5$h, c(1, sqrt(12)) * sqrt(4 * 0.4 * 0.8 / (sqrt(12) * sqrt(4e8 / (200 * 3)))))
  no_pairs <- dpm$.gauss_newton
  no_pairs$net_pairs <- FALSE
  assignInNamespace(".gauss_newton", no_pairs, "dpmanifold")
  m5p <- regression_mechanism(S5, n = 200, epsilon = 1, tau = 0.15, center = c(rep(0, 5), 1), radius = 0.4,
                              x_range = c(0, 1))
  assignInNamespace(".gauss_newton", dpm$.gauss_newton, "dpmanifold")
  l5p <- lattice(m5p)
  expect_equal(l5p$h, c(1, sqrt(12)) * 2 * k5 * 0.1 * sqrt(5 / (200 * e5)))
  expect_lt(l5p$N, 3.3e4)
  expect_equal(m5p$spec$cpp[c("net_clip", "net_clip_wide", "net_var_a", "net_var_b")],
               m5$spec$cpp[c("net_clip", "net_clip_wide", "net_var_a", "net_var_b")])
  # (no ladder of clips by default: the narrow and the wide clip only)
  expect_equal(m5$spec$cpp$net_clip_low, 0)
  expect_match(m5$stages$localise$detail, sprintf("clipped at %.3g and %.3g", k5 * 0.1, k5 * 0.15), fixed = TRUE)
  # (the draw is the release; its band variances are the wider net's:
  # wide clip 0.15, spacings 0.05 and 0.1, times the public factor 3)
  expect_length(m5$spec$cpp$rounds, 0L)
  expect_equal(m5$spec$cpp$net_var_a, 3 * (5 * 0.15^2 / (200 * e5) + 0.05^2 / 12))
  expect_equal(m5$spec$cpp$net_var_b, 3 * (12 * 5 * 0.15^2 / (200 * e5) + 0.1^2 / 12))
  # SPD(3), n 200, epsilon 1, on a wide domain (radius 2): a net whose
  # spacing followed the narrow clip would near the plateau's margin, so
  # the wider net stays (spacing 0.05, coarsened twofold) and its clip is
  # 1.2 spacings (a clip below the spacing lets the nearest candidate's
  # offset clip records, and the draw lands on the plateau).
  k3 <- 6^-0.3
  m3 <- regression_mechanism(spd(3), n = 200, epsilon = 1, tau = 0.05, center = diag(3), radius = 2,
                             x_range = c(0, 1))
  expect_identical(m3$stages$localise$mechanism, "exponential_net")
  expect_equal(lattice(m3)$h[1], 0.05)
  expect_equal(m3$spec$cpp$net_clip, 1.2 * 0.05)
  # On the bench's domain (radius 1.3) it fits (log N = 8.98 <= 200 / 12 -
  # 7), and the lattice's size binds (3.3e4 lines; the work bound
  # 4e7 / (200 x 6) and the margin exp(200 / 12 - 6) are above it):
  # h_a = sqrt(4 R0 V0 / (sqrt(12) N)); the narrow clip stays d^-0.3 tau,
  # wider than either spacing.
  # (this is the net per coordinate, as without the sparse draw over pairs;
  # that draw's own lattice is checked below)
  no_sparse <- dpm$.gauss_newton
  no_sparse$net_pair_sparse <- FALSE
  assignInNamespace(".gauss_newton", no_sparse, "dpmanifold")
  m3b <- regression_mechanism(spd(3), n = 200, epsilon = 1, tau = 0.05, center = diag(3), radius = 1.3,
                              x_range = c(0, 1))
  assignInNamespace(".gauss_newton", dpm$.gauss_newton, "dpmanifold")
  l3 <- lattice(m3b)
  ha <- sqrt(4 * m3b$spec$cpp$R0 * m3b$spec$cpp$V0 / (sqrt(12) * 3.3e4))
  expect_equal(l3$h, c(1, sqrt(12)) * ha)
  expect_equal(m3b$spec$cpp$net_clip, k3 * 0.05)
  expect_gt(l3$N, 3.3e4 * 0.97)
  expect_lt(l3$N, 3.3e4 * 1.03)
  # (the lattice holds the centre's line, a = b = 0, and is symmetric)
  expect_true(any(colSums(abs(m3b$spec$cpp$net)) == 0))
  expect_equal(sort(m3b$spec$cpp$net[1, ]), sort(-m3b$spec$cpp$net[1, ]))
  # The default draws over pairs (sensitivity 3), one sparse row at a
  # time: h_a between net_coord_floor = 2 and net_pair_spacing = 3 core sds
  # k3 tau sqrt(3 / (n epsilon)), the clip the spacing's floor or the
  # narrow one, and the work 200 x 3 (W nB)^2 within net_sparse_work (1e9)
  m3s <- regression_mechanism(spd(3), n = 200, epsilon = 1, tau = 0.05, center = diag(3), radius = 1.3,
                              x_range = c(0, 1))
  expect_equal(m3s$stages$localise$sensitivity, 3)
  expect_true(m3s$spec$cpp$net_pairs_sparse)
  l3s <- lattice(m3s)
  core <- k3 * 0.05 * sqrt(3 / 200)
  expect_gte(l3s$h[1], 2 * core)
  expect_lte(l3s$h[1], 3 * core)
  expect_equal(l3s$h[2], sqrt(12) * l3s$h[1])
  expect_equal(m3s$spec$cpp$net_clip, max(k3 * 0.05, sqrt(12) * l3s$h[1] / 2))
  W <- ceiling(2 * max(m3s$spec$cpp$net_clip, m3s$spec$cpp$net_clip_wide) / l3s$h[1]) + 2
  nB <- length(unique(m3s$spec$cpp$net[2, ]))
  expect_lte(200 * 3 * (W * nB)^2, 1e9)
  # SPD(3) on the bench's domain at epsilon 1.5 and 2: the net at the
  # localising share is coarse (the kept net, its clip set by its spacing)
  # while the whole budget reaches the lattice, so the draw with the whole
  # budget is the release (no design stage, no round); at epsilon 3 the
  # share's net is the lattice and the rounds follow it.
  for (e in c(1.5, 2)) {
    me <- regression_mechanism(spd(3), n = 200, epsilon = e, tau = 0.05, center = diag(3), radius = 1.3,
                               x_range = c(0, 1))
    expect_named(me$stages, "localise")
    expect_equal(me$stages$localise$privacy$epsilon, e)
    expect_gt(ncol(me$spec$cpp$net), 3.3e4 * 0.97)
    expect_length(me$spec$cpp$rounds, 0L)
  }
  m3c <- regression_mechanism(spd(3), n = 200, epsilon = 3, tau = 0.05, center = diag(3), radius = 1.3,
                              x_range = c(0, 1))
  expect_named(m3c$stages, c("design", "localise", "clip", "refine"))
  expect_gt(ncol(m3c$spec$cpp$net), 3.3e4 * 0.97)
  # (S^5 at epsilon 1.2: the share's net is coarse, the whole budget's is a
  # kept net at its own clip, so the draw is the release; at epsilon 1.5 the
  # share's net is at its own clip and the rounds run)
  m5c <- regression_mechanism(S5, n = 200, epsilon = 1.2, tau = 0.15, center = c(rep(0, 5), 1), radius = 0.4,
                              x_range = c(0, 1))
  expect_named(m5c$stages, "localise")
  expect_equal(m5c$spec$cpp$net_clip, k5 * 0.1)
  m5e <- regression_mechanism(S5, n = 200, epsilon = 1.5, tau = 0.15, center = c(rep(0, 5), 1), radius = 0.4,
                              x_range = c(0, 1))
  expect_named(m5e$stages, c("design", "localise", "clip", "refine"))
  expect_equal(m5e$spec$cpp$net_clip, k5 * 0.1)
  # The default's tangent fallback weighs its step against the public
  # domain as a prior (variances R^2 / (d + 2), V^2 / (d + 2)); method =
  # "tangent" does not (both move the line onto the domain).
  # (its noise fills the domain: the low-utility warning, test-low-utility.R)
  mt <- suppressWarnings(regression_mechanism(spd(2), n = 20, epsilon = 0.2, tau = 0.05, center = diag(2),
                                              radius = 0.66, x_range = c(0, 1)),
                         classes = "dpmanifold_low_utility")
  expect_named(mt$stages, c("design", "moments"))
  expect_equal(mt$spec$cpp$prior_a, mt$spec$cpp$R0^2 / 5)
  expect_equal(mt$spec$cpp$prior_b, mt$spec$cpp$V0^2 / 5)
  expect_true(is.finite(mt$spec$cpp$R0) && is.finite(mt$spec$cpp$V0))
  mt0 <- suppressWarnings(regression_mechanism(spd(2), n = 20, epsilon = 0.2, tau = 0.05, center = diag(2),
                                               radius = 0.66, x_range = c(0, 1), method = "tangent"),
                          classes = "dpmanifold_low_utility")
  expect_identical(mt0$spec$cpp$prior_a, Inf)
  expect_identical(mt0$spec$cpp$prior_b, Inf)
  expect_identical(mt0$spec$cpp$R0, mt$spec$cpp$R0)
  expect_identical(mt$stages, mt0$stages)
  # (its noise outgrows the domain here: the weighed release lies nearer
  # the centre than the unweighed one under the same draws)
  Dt <- gn_data(spd(2), 20, diag(2), matrix(c(0.3, 0.1, 0.1, -0.2), 2), 0.01)
  far <- vapply(1:20, function(s) {
    set.seed(s); w <- release(mt, Dt$x, Dt$y)
    set.seed(s); u <- release(mt0, Dt$x, Dt$y)
    c(mfd_dist(spd(2), diag(2), w$estimate$p), mfd_dist(spd(2), diag(2), u$estimate$p))
  }, numeric(2))
  expect_true(all(far[1, ] <= far[2, ] + 1e-12))
  expect_lt(mean(far[1, ]), 0.7 * mean(far[2, ]))
  # SPD(2) at n epsilon = 50 without a clip stage, where the localising
  # error exceeds tau: the plan would run the tangent release, and the net
  # alone replaces it (its public error at the whole budget is the smaller)
  ms <- regression_mechanism(spd(2), n = 50, epsilon = 1, tau = 0.05, center = diag(2), radius = 0.66,
                             x_range = c(0, 1))
  expect_named(ms$stages, "localise")
  expect_identical(ms$stages$localise$mechanism, "exponential_net")
  # (a kept net of 49 lines, log N below half the plateau's margin
  # 50 / (2 x 3): its clip is 0.8 spacings; the SPD(3) net above, log N
  # 8.79 against 8.33, takes 1.2)
  hs <- lattice(ms)$h
  expect_lt(log(ncol(ms$spec$cpp$net)), 0.5 * 50 * 1 / 6)
  expect_equal(ms$spec$cpp$net_clip, max(3^-0.3 * 0.05, 0.8 * hs[1], 0.8 * hs[2] / 2))
  expect_gt(log(ncol(m3$spec$cpp$net)), 0.5 * 200 * 1 / 12)
  expect_lt(ms$spec$error, sqrt(8 * 3 * 4) * 2 * 0.66 / (50 * (1 - dpm$ssp_gram_share(3))))
  # past the net's work bound (n x candidates, counted without integer
  # overflow) the K-norm round localises
  mb <- regression_mechanism(S2, n = 1000000L, epsilon = 0.001, tau = 0.15, center = c(0, 0, 1), radius = 0.45,
                             x_range = c(0, 1))
  expect_identical(mb$stages$localise$mechanism, "knorm")
  # the one-call skeleton gives the same release under the same seed
  D2 <- gn_data(S2, 300, c(0, 0, 1), c(0.5, 0.2, 0), 0.03)
  set.seed(2); a <- release(mn, D2$x, D2$y)
  set.seed(2); b <- dp_geodesic_regression(S2, D2$x, D2$y, epsilon = 1, tau = 0.15, center = c(0, 0, 1), radius = 0.45,
                                           x_range = c(0, 1))
  expect_identical(a$estimate, b$estimate)
  expect_error(regression_mechanism(S2, n = 10, epsilon = 1, center = c(0, 0, 1), radius = 0.45),
               "`x_range`", class = "dpmanifold_error")
})

test_that("releases are reproducible with set.seed() whatever the number of threads", {
  D <- gn_data(sphere(2), 5000, c(0, 0, 1), c(0.5, 0.2, 0), 0.03)
  f <- function() dp_geodesic_regression(sphere(2), D$x, D$y, epsilon = 1, tau = 0.15, center = c(0, 0, 1),
                                         radius = 0.45, x_range = c(0, 1))
  old <- options(dpmanifold.threads = 1)
  on.exit(options(old))
  set.seed(3); a <- f()
  options(dpmanifold.threads = 2)
  set.seed(3); b <- f()
  expect_identical(a$estimate, b$estimate)
  expect_identical(a$bounds$clip, b$bounds$clip)
})

test_that("neighbouring data sets give releases identical except the estimate, on every manifold", {
  set.seed(5)
  for (nm in names(gn_cases())) {
    case <- gn_cases()[[nm]]
    M <- case$M
    D <- gn_data(M, 200, case$center, case$v, 0.05)
    # the neighbour: one record moved far outside the ball and the range
    far <- if (inherits(M, "sphere")) -as.numeric(case$center) else
      mfd_exp(M, case$center, 25 * mfd_random_tangent(M, case$center, 1) / max(1, M$dim))
    D2 <- D
    D2$y <- replace_record(M, D$y, 1, far)
    D2$x[1] <- 50
    for (method in c("gauss_newton", "tangent")) {
      f <- function(Dd) dp_geodesic_regression(M, Dd$x, Dd$y, epsilon = 1, tau = 0.2, center = case$center,
                                               radius = case$radius, x_range = c(0, 1), method = method)
      rel <- expect_neighbours_agree(f, D, D2, paste(nm, method))[[1]]
      expect_equal(rel$privacy$guarantee, "epsilon-DP (exact sampler); epsilon = 1", label = paste(nm, method))
      expect_true(all(is.finite(unlist(rel$estimate))), label = paste(nm, method))
    }
  }
})

test_that("neighbours agree on every path of the plan: K-norm localising round, net per coordinate, net alone", {
  set.seed(15)
  S3 <- sphere(3)
  ctr <- c(0, 0, 0, 1)
  paths <- list(knorm = list(n = 1000, eps = 1, M = S3), net_only = list(n = 100, eps = 1, M = S3),
                narrow = list(n = 200, eps = 1, M = sphere(5)), precise = list(n = 1000, eps = 10, M = S3))
  for (nm in names(paths)) {
    pa <- paths[[nm]]
    M <- pa$M
    ctr <- c(rep(0, M$dim), 1)
    D <- gn_data(M, pa$n, ctr, c(0.5, 0.2, rep(0, M$dim - 1)), 0.03)
    D2 <- D
    D2$y <- replace_record(M, D$y, 1, -ctr)
    D2$x[1] <- -50
    f <- function(Dd) dp_geodesic_regression(M, Dd$x, Dd$y, epsilon = pa$eps, tau = 0.15, center = ctr,
                                             radius = 0.45, x_range = c(0, 1))
    rel <- expect_neighbours_agree(f, D, D2, paste("S^", M$dim, nm))[[1]]
    loc <- Filter(function(st) st$name == "localise", rel$stages)[[1]]
    expect_identical(loc$mechanism, if (nm %in% c("knorm", "precise")) "knorm" else "exponential_net")
    # (the K-norm localising round draws its clip level first)
    stage_names <- vapply(rel$stages, function(st) st$name, "")
    expect_identical("localise_clip" %in% stage_names, nm %in% c("knorm", "precise"))
    # (precise rounds: epsilon sqrt(n) / sqrt((d + 1) / 2) = 224 >= 150, a
    # second refining round, both clipping at the 0.9-quantile)
    expect_identical("refine2" %in% stage_names, nm == "precise")
    if (nm == "precise") {
      clips <- Filter(function(st) st$name %in% c("clip", "clip2"), rel$stages)
      expect_length(clips, 2L)
      for (st in clips) expect_match(st$detail, "0.9-quantile", fixed = TRUE)
    }
  }
})

test_that("no record is refused for its value, and a malformed data set is refused naming `y`", {
  set.seed(6)
  P <- spd(2)
  D <- gn_data(P, 50, diag(2), matrix(c(0.4, 0.1, 0.1, -0.2), 2), 0.05)
  D2 <- D
  D2$y[, , 1] <- diag(c(1, 1e-17))     # a point of SPD(2) double precision does not hold
  f <- function(Dd) dp_geodesic_regression(P, Dd$x, Dd$y, epsilon = 1, tau = 0.2, center = diag(2), radius = 0.6,
                                           x_range = c(0, 1))
  expect_neighbours_agree(f, D, D2, "SPD(2), numerically singular record")
  bad <- D$y
  bad[, , 2] <- matrix(c(1, 2, 3, 4), 2)
  expect_error(f(list(x = D$x, y = bad)), "`y`", class = "dpmanifold_error")
})

test_that("the stated sensitivities hold for adversarial pairs and are attained", {
  # design: |dS_t| / alpha + |dS_tt| / beta <= 1 over every pair t, t' in
  # [-1/2, 1/2], attained at t + t' = (1 - c) / 2, |t - t'| = 1 - |t + t'|
  sc <- dpm$ssp_gram_scales()
  g <- seq(-0.5, 0.5, length.out = 401)
  tt <- expand.grid(t = g, u = g)
  l1 <- abs(tt$t - tt$u) / sc[["St"]] + abs(tt$t^2 - tt$u^2) / sc[["Stt"]]
  expect_lte(max(l1), 1 + 1e-12)
  expect_gt(max(l1), 1 - 1e-3)
  # moments: the change (z phi+(t) - z' phi+(t'), z phi-(t) - z' phi-(t'))
  # of one record has l1-of-l2 norm <= 2 rho, attained by z' = -z
  set.seed(7)
  rho <- 0.3
  worst <- 0
  for (i in 1:2000) {
    z <- rnorm(3); z <- rho * runif(1)^0.2 * z / sqrt(sum(z^2))
    z2 <- rnorm(3); z2 <- rho * runif(1)^0.2 * z2 / sqrt(sum(z2^2))
    t <- runif(1, -0.5, 0.5); t2 <- runif(1, -0.5, 0.5)
    dp <- z * (0.5 + t) - z2 * (0.5 + t2)
    dm <- z * (0.5 - t) - z2 * (0.5 - t2)
    worst <- max(worst, sqrt(sum(dp^2)) + sqrt(sum(dm^2)))
  }
  expect_lte(worst, 2 * rho + 1e-12)
  z <- c(rho, 0, 0)
  expect_equal(sqrt(sum((2 * z * 0.8)^2)) + sqrt(sum((2 * z * 0.2)^2)), 2 * rho)
  # the record-level map: the residuals the release clips have norm <= rho
  # (clip, then parallel transport, then orthonormal coordinates), checked
  # through the one residual kernel on a curved space
  M <- sphere(2)
  D <- gn_data(M, 100, c(0, 0, 1), c(0.5, 0.2, 0), 0.3)
  Z <- dpm$cpp_linearised_residuals(M, D$x - 0.5, t(D$y), c(0, 0, 1), c(0.3, 0, 0), rho)
  expect_lte(max(sqrt(colSums(Z^2))), rho + 1e-12)
})

test_that("a mechanism whose clip grid was altered is refused naming `mechanism`", {
  M <- euclidean(1)
  m <- regression_mechanism(M, 200, epsilon = 2, tau = 2, center = 2, radius = 2.5, x_range = c(0, 1))
  k <- length(m$spec$cpp$rounds)
  expect_gt(length(m$spec$cpp$rounds[[k]]$grid), 1L)
  m$spec$cpp$rounds[[k]]$grid <- rev(m$spec$cpp$rounds[[k]]$grid)
  expect_error(release(m, runif(200), rnorm(200, 2)), "`mechanism`", class = "dpmanifold_error")
})

test_that("the clip level is drawn from its exponential-mechanism law (chi-square, with a power check)", {
  set.seed(8)
  M <- euclidean(1)
  n <- 200
  x <- runif(n)
  y <- 1 + 2 * x + rnorm(n, sd = 0.3)
  # (the plan of n = 20000, where the K-norm round localises: made
  # noise-free below, so that round 2 starts at the least-squares line)
  # (epsilon sqrt(n) = 283: precise rounds, two of them at the 0.9-quantile)
  m <- regression_mechanism(M, 20000, epsilon = 2, tau = 2, center = 2, radius = 2.5, x_range = c(0, 1))
  expect_named(m$stages, c("design", "localise_clip", "localise", "clip", "refine", "clip2", "refine2"))
  spec <- m$spec$cpp
  ya <- matrix(pmin(pmax(y, -0.5), 4.5), 1)
  # the localising round's level: the 0.6-quantile of the distances to the
  # centre, |y - 2|, drawn at the start
  r1 <- spec$rounds[[1]]
  d1 <- replicate(3000, dpm$cpp_release_regression(M, ya, x - 0.5, spec, FALSE)$clip[1])
  c1 <- vapply(r1$grid, function(g) sum(abs(ya - 2) <= g), numeric(1))
  w1 <- exp(r1$epsilon_clip * -abs(c1 - r1$quantile * n) / 2 + r1$grid_log_weight)
  o1 <- tabulate(match(d1, r1$grid), length(r1$grid))
  k1 <- w1 / sum(w1) * 3000 >= 5
  e1 <- 3000 * (w1 / sum(w1))[k1]
  expect_gt(stats::pchisq(sum((o1[k1] - e1)^2 / e1), sum(k1) - 1, lower.tail = FALSE), 0.001)
  # (the levels too rare to test one by one: no more draws there than a
  # Poisson count of their pooled expectation allows at 1e-4)
  expect_lte(sum(o1[!k1]), stats::qpois(1 - 1e-4, 3000 * sum((w1 / sum(w1))[!k1])))
  w1b <- exp(r1$epsilon_clip * -abs(c1 - (r1$quantile - 0.3) * n) / 2 + r1$grid_log_weight)
  k1b <- w1b / sum(w1b) * 3000 >= 5
  e1b <- 3000 * (w1b / sum(w1b))[k1b]
  expect_lt(stats::pchisq(sum((o1[k1b] - e1b)^2 / e1b), sum(k1b) - 1, lower.tail = FALSE), 1e-6)
  # make every stage but the refining round's clip stage noise-free, so
  # that the round-2 starting line is the least-squares line of the
  # clipped data
  spec$scale_st <- spec$scale_stt <- spec$floor_stt <- 1e-12
  spec$rounds[[1]]$epsilon <- 1e12
  spec$rounds[[1]]$epsilon_clip <- 0
  spec$rounds[[1]]$gain <- 1
  spec$prior_a <- spec$prior_b <- Inf
  draws <- replicate(3000, dpm$cpp_release_regression(M, ya, x - 0.5, spec, FALSE)$clip[2])
  # the target: residual norms at the LS line, counts below each level
  res <- abs(stats::lm.fit(cbind(1, x - 0.5), as.numeric(ya))$residuals)
  grid <- spec$rounds[[2]]$grid
  cnt <- vapply(grid, function(g) sum(res <= g), numeric(1))
  q <- spec$rounds[[2]]$quantile
  # (over the public base measure of the levels)
  lw <- spec$rounds[[2]]$grid_log_weight
  expect_equal(lw, -log(grid / max(grid)))
  w <- exp(spec$rounds[[2]]$epsilon_clip * -abs(cnt - q * n) / 2 + lw)
  prob <- w / sum(w)
  obs <- tabulate(match(draws, grid), length(grid))
  keep <- prob * 3000 >= 5
  stat <- sum((obs[keep] - 3000 * prob[keep])^2 / (3000 * prob[keep]))
  expect_gt(stats::pchisq(stat, sum(keep) - 1, lower.tail = FALSE), 0.001)
  # power: the same draws against the law with the quantile 0.3 lower are rejected
  w5 <- exp(spec$rounds[[2]]$epsilon_clip * -abs(cnt - (q - 0.3) * n) / 2 + lw)
  p5 <- w5 / sum(w5)
  k5 <- p5 * 3000 >= 5
  stat5 <- sum((obs[k5] - 3000 * p5[k5])^2 / (3000 * p5[k5]))
  expect_lt(stats::pchisq(stat5, sum(k5) - 1, lower.tail = FALSE), 1e-6)
})

# The net's loss of squared residuals q: each term the loss clipped at
# net_clip in units of its square, or the mean of that and the same at
# net_clip_wide; each in [0, 1].
# The net's clips as proof section 3b states them: net_clip, with
# net_clip_wide when given; with net_clip_low below net_clip, a ladder of
# net_clip_levels clips geometric from it up to the widest.
net_clips <- function(spec) {
  cl <- c(spec$net_clip, if (isTRUE(spec$net_clip_wide > 0)) spec$net_clip_wide)
  lo <- spec$net_clip_low
  if (isTRUE(lo > 0 && lo < spec$net_clip)) {
    J <- spec$net_clip_levels
    cl <- lo * (max(cl) / lo)^((seq_len(J) - 1) / (J - 1))
  }
  cl
}
# The score's loss: each record's term the mean of its clipped losses
net_loss <- function(q, spec) {
  c2 <- net_clips(spec)^2
  sum(rowMeans(vapply(c2, function(c) pmin(q, c) / c, numeric(length(q)))))
}

# The spec of the net's draw alone: the design noise-free (the window then
# holds every covariate), no rounds after the draw, the net's share `e`.
net_draw_spec <- function(m, e) {
  spec <- m$spec$cpp
  spec$scale_st <- spec$scale_stt <- spec$floor_stt <- 1e-12
  spec$rounds <- list()
  spec$net_epsilon <- e
  spec
}

test_that("the net localisation is drawn from its exponential-mechanism law (chi-square, with a power check)", {
  set.seed(10)
  # on euclidean(2) the score's residual (read in normal coordinates at the
  # centre) is the exact residual, so the law can be computed here
  M <- euclidean(2)
  n <- 100
  D <- gn_data(M, n, c(0, 0), c(0.5, 0.2), 0.03)
  # (tau 0.6, radius 2: the score averages the losses clipped at r / 4 = 0.5
  # and at tau = 0.6)
  m <- regression_mechanism(M, n, epsilon = 1, tau = 0.6, center = c(0, 0), radius = 2, x_range = c(0, 1))
  expect_identical(m$stages$localise$mechanism, "exponential_net")
  expect_equal(m$stages$localise$sensitivity, 1)
  # six candidates of the public net and a small share, so that the law
  # spreads over them
  spec <- net_draw_spec(m, 0.05)
  net <- spec$net[, order(colSums((spec$net - c(0.05, 0, 0.5, 0.2))^2))[c(1, 3, 10, 30, 60, 120)]]
  Y <- t(D$y)
  cand <- lapply(seq_len(ncol(net)), function(j) {
    sj <- spec
    sj$net <- net[, j, drop = FALSE]
    dpm$cpp_release_regression(M, Y, D$x - 0.5, sj, FALSE)
  })
  expect_equal(c(spec$net_clip, spec$net_clip_wide), c(0.5, 0.6))
  # the score of each candidate: minus its clipped energy (net_loss)
  u <- vapply(cand, function(g) {
    fit <- mfd_exp(M, g$p, outer(D$x - 0.5, g$v))
    -net_loss(mfd_dist(M, fit, D$y)^2, spec)
  }, numeric(1))
  prob <- exp(spec$net_epsilon * (u - max(u)) / 2)
  prob <- prob / sum(prob)
  spec$net <- net
  draws <- replicate(3000, unlist(dpm$cpp_release_regression(M, Y, D$x - 0.5, spec, FALSE)[c("p", "v")]))
  key <- vapply(cand, function(g) c(g$p, g$v), numeric(4))
  who <- apply(draws, 2, function(z) which.min(colSums((key - z)^2)))
  obs <- tabulate(who, ncol(net))
  keep <- prob * 3000 >= 5
  expect_gte(sum(keep), 3)
  stat <- sum((obs[keep] - 3000 * prob[keep])^2 / (3000 * prob[keep]))
  expect_gt(stats::pchisq(stat, sum(keep) - 1, lower.tail = FALSE), 0.001)
  # power: against the uniform law over the same candidates
  stat_u <- sum((obs - 500)^2 / 500)
  expect_lt(stats::pchisq(stat_u, ncol(net) - 1, lower.tail = FALSE), 1e-6)
  # each record's term is in [0, 1]: a record moved anywhere changes a score by at most 1
  far <- D
  far$y[1, ] <- c(50, -50)
  u_far <- vapply(cand, function(g) {
    fit <- mfd_exp(M, g$p, outer(far$x - 0.5, g$v))
    -net_loss(mfd_dist(M, fit, far$y)^2, spec)
  }, numeric(1))
  expect_lte(max(abs(u_far - u)), 1 + 1e-12)
})

# euclidean(3), n 100, epsilon 2: normal coordinates at the centre are
# exact, so the laws of the net's draws are computed in the tests below
euclidean3_net <- function(seed) {
  set.seed(seed)
  M <- euclidean(3)
  D <- gn_data(M, 100, c(0, 0, 0), c(0.5, 0.2, -0.3), 0.03)
  list(M = M, n = 100, D = D,
       m = regression_mechanism(M, 100, epsilon = 2, tau = 0.15, center = c(0, 0, 0), radius = 2, x_range = c(0, 1)))
}

test_that("the net per coordinate draws each coordinate from its own exponential-mechanism law", {
  # (every coordinate's law; the draw is their product)
  with(euclidean3_net(11), {
    expect_identical(m$stages$localise$mechanism, "exponential_net")
    expect_equal(m$stages$localise$sensitivity, 3)
    spec <- net_draw_spec(m, 0.3)
    # four candidate lines (a, b) near the truth of coordinate 1
    net <- spec$net[, order(colSums((spec$net - c(0.03, 0.5))^2))[c(1, 4, 12, 40)]]
    spec$net <- net
    # a ladder of three clips (off by default; proof section 3b) from 0.7
    # tau / sqrt(3) up to the widest: the score averages them
    spec$net_clip_low <- 0.7 * 0.15 / sqrt(3)
    spec$net_clip_levels <- 3L
    expect_lt(spec$net_clip_low, spec$net_clip)
    expect_length(net_clips(spec), 3L)
    t <- D$x - 0.5
    prob <- sapply(1:3, function(k) {
      u <- apply(net, 2, function(ab) -net_loss((D$y[, k] - ab[1] - t * ab[2])^2, spec))
      w <- exp(spec$net_epsilon * (u - max(u)) / (2 * 3))
      w / sum(w)
  })
  draws <- replicate(3000, unlist(dpm$cpp_release_regression(M, t(D$y), t, spec, FALSE)[c("p", "v")]))
  who <- sapply(1:3, function(k) apply(draws[c(k, 3 + k), ], 2, function(z) which.min(colSums((net - z)^2))))
  expect_equal(max(abs(draws[c(1, 4), ] - net[, who[, 1]])), 0, tolerance = 1e-12)
  for (k in 1:3) {
    obs <- tabulate(who[, k], 4)
    keep <- prob[, k] * 3000 >= 5
    stat <- sum((obs[keep] - 3000 * prob[keep, k])^2 / (3000 * prob[keep, k]))
    expect_gt(stats::pchisq(stat, sum(keep) - 1, lower.tail = FALSE), 0.001)
  }
  # independence: the joint of coordinates 1 and 2 is the product
  pj <- as.vector(outer(prob[, 1], prob[, 2]))
  oj <- tabulate((who[, 2] - 1) * 4 + who[, 1], 16)  # the layout of as.vector(outer())
  kj <- pj * 3000 >= 5
  expect_gt(stats::pchisq(sum((oj[kj] - 3000 * pj[kj])^2 / (3000 * pj[kj])), sum(kj) - 1, lower.tail = FALSE), 0.001)
  # power: the law of the two clips without the ladder is rejected
  spec2 <- spec
  spec2$net_clip_low <- 0
  p2 <- sapply(1:3, function(k) {
    u <- apply(net, 2, function(ab) -net_loss((D$y[, k] - ab[1] - t * ab[2])^2, spec2))
    w <- exp(spec$net_epsilon * (u - max(u)) / (2 * 3))
    w / sum(w)
  })
  stat2 <- sapply(1:3, function(k) {
    obs <- tabulate(who[, k], 4)
    keep <- p2[, k] * 3000 >= 5
    stats::pchisq(sum((obs[keep] - 3000 * p2[keep, k])^2 / (3000 * p2[keep, k])), sum(keep) - 1, lower.tail = FALSE)
  })
  expect_lt(min(stat2), 1e-6)
  # power: the law with the whole score (sensitivity 1, no division by d) is rejected
  w1 <- prob[, 1]^3
  p1 <- w1 / sum(w1)
  o1 <- tabulate(who[, 1], 4)
  k1 <- p1 * 3000 >= 5
  expect_lt(stats::pchisq(sum((o1[k1] - 3000 * p1[k1])^2 / (3000 * p1[k1])), sum(k1) - 1, lower.tail = FALSE), 1e-6)
  # each record's term is in [0, 1] per coordinate: moved anywhere, the whole score moves by at most d
  far <- D$y
  far[1, ] <- c(50, -50, 50)
  du <- sapply(1:3, function(k) apply(net, 2, function(ab) {
    net_loss((far[, k] - ab[1] - t * ab[2])^2, spec) - net_loss((D$y[, k] - ab[1] - t * ab[2])^2, spec)
  }))
  expect_lte(max(abs(rowSums(du))), 3 + 1e-12)
  expect_lte(max(abs(du)), 1 + 1e-12)
  })
})

test_that("the net over pairs of coordinates draws each pair jointly from its exponential-mechanism law", {
  # (blocks (1, 2) and (3), sensitivity 2; each block's law from the
  # clipped squared residual over its coordinates)
  with(euclidean3_net(12), {
    spec <- net_draw_spec(m, 0.4)
    spec$net_pairs <- TRUE
    # four candidate lines (a, b) near the truth of coordinate 1: 16 pairs
    net <- spec$net[, order(colSums((spec$net - c(0.03, 0.5))^2))[c(1, 4, 12, 40)]]
    spec$net <- net
    t <- D$x - 0.5
    res2 <- lapply(1:3, function(k) apply(net, 2, function(ab) (D$y[, k] - ab[1] - t * ab[2])^2))
    law <- function(u, blocks) {
      w <- exp(spec$net_epsilon * (u - max(u)) / (2 * blocks))
      w / sum(w)
    }
    # pair (j1, j2) at index j1 + 4 (j2 - 1), as the draw lays it out
    u12 <- as.vector(outer(1:4, 1:4, Vectorize(function(j1, j2) -net_loss(res2[[1]][, j1] + res2[[2]][, j2], spec))))
    u3 <- apply(res2[[3]], 2, function(q) -net_loss(q, spec))
    p12 <- law(u12, 2)
    p3 <- law(u3, 2)
    draws <- replicate(3000, unlist(dpm$cpp_release_regression(M, t(D$y), t, spec, FALSE)[c("p", "v")]))
    who <- sapply(1:3, function(k) apply(draws[c(k, 3 + k), ], 2, function(z) which.min(colSums((net - z)^2))))
    expect_equal(max(abs(draws[c(2, 5), ] - net[, who[, 2]])), 0, tolerance = 1e-12)
    chisq_p <- function(obs, prob) {
      keep <- prob * 3000 >= 5
      stats::pchisq(sum((obs[keep] - 3000 * prob[keep])^2 / (3000 * prob[keep])), sum(keep) - 1, lower.tail = FALSE)
    }
    o12 <- tabulate(who[, 1] + 4 * (who[, 2] - 1), 16)
    o3 <- tabulate(who[, 3], 4)
    expect_gte(sum(p12 * 3000 >= 5), 3)
    expect_gt(chisq_p(o12, p12), 0.001)
    expect_gt(chisq_p(o3, p3), 0.001)
    # power: the laws at sensitivity d = 3 (a net per coordinate's division)
    # and the product of the per-coordinate laws are rejected
    expect_lt(min(chisq_p(o12, law(u12, 3)), chisq_p(o3, law(u3, 3))), 1e-6)
    u1 <- apply(res2[[1]], 2, function(q) -net_loss(q, spec))
    u2 <- apply(res2[[2]], 2, function(q) -net_loss(q, spec))
    expect_lt(chisq_p(o12, as.vector(outer(law(u1, 2), law(u2, 2)))), 1e-6)
    # adversarial neighbour: a record on a candidate pair (loss 0 in both
    # blocks) moved anywhere changes each block's score by at most 1, the
    # whole score by at most ceil(d / 2) = 2, and that bound is reached
    on <- D$y
    on[1, ] <- net[1, c(1, 1, 1)] + t[1] * net[2, c(1, 1, 1)]
    far <- on
    far[1, ] <- c(50, -50, 50)
    score <- function(Y) {
      r <- lapply(1:3, function(k) apply(net, 2, function(ab) (Y[, k] - ab[1] - t * ab[2])^2))
      cbind(pair = as.vector(outer(1:4, 1:4, Vectorize(function(j1, j2) net_loss(r[[1]][, j1] + r[[2]][, j2], spec)))),
            single = rep(apply(r[[3]], 2, function(q) net_loss(q, spec)), 4))
    }
    du <- score(far) - score(on)
    expect_lte(max(abs(du)), 1 + 1e-12)
    expect_lte(max(abs(rowSums(du))), 2 + 1e-12)
    expect_equal(max(rowSums(du)), 2, tolerance = 1e-12)
    # a spec beyond the work bound is refused before anything is allocated
    big <- spec
    big$net <- matrix(0, 2, 10001)
    expect_error(dpm$cpp_release_regression(M, t(D$y), t, big, FALSE), "work bound")
    # and so is one whose n N squared residuals per coordinate exceed 2.5e7
    # (N^2 within its bound: 3000 records, 9000 lines)
    many <- matrix(0, 3000, 3)
    big$net <- matrix(0, 2, 9000)
    expect_error(dpm$cpp_release_regression(M, t(many), seq(0, 1, length.out = 3000), big, FALSE), "work bound")
  })
})

test_that("the sparse draw over pairs on a product lattice has the pairs' exponential-mechanism law", {
  # (proof section 3b, "Pairs on a fine lattice": j1 from its marginal, then j2
  # given j1; the law of the dense draw over all N^2 pairs)
  with(euclidean3_net(13), {
    spec <- net_draw_spec(m, 0.4)
    spec$net_pairs <- spec$net_pairs_sparse <- TRUE
    # a product lattice (a fastest) wider than the records' windows
    # (W = ceil(2 c_w / h_a) + 2 = 9 of 15 values of a); three records far
    # off, whose windows fall in the padding
    A <- seq(-0.21, 0.21, by = 0.03)
    B <- c(-0.3, 0.2, 0.5)
    net <- rbind(rep(A, times = 3), rep(B, each = 15))
    N <- ncol(net)
    spec$net <- net
    Y <- D$y
    Y[1:3, ] <- rbind(c(50, -50, 50), c(-40, 3, 0), c(0.1, 60, -70))
    t <- D$x - 0.5
    # (chi-square over the cells of expected count >= 5; the rest pooled)
    rs_chisq <- function(obs, p) {
      keep <- p * 3000 >= 5
      stat <- sum((obs[keep] - 3000 * p[keep])^2 / (3000 * p[keep]))
      list(p = stats::pchisq(stat, sum(keep) - 1, lower.tail = FALSE), cells = sum(keep),
           rare_ok = sum(obs[!keep]) <= stats::qpois(1 - 1e-4, 3000 * sum(p[!keep])))
    }
    for (wide in c(0.1, 0)) {
      spec$net_clip <- 0.05
      spec$net_clip_wide <- wide
      res2 <- lapply(1:3, function(k) apply(net, 2, function(ab) (Y[, k] - ab[1] - t * ab[2])^2))
      law <- function(u, blocks) {
        w <- exp(spec$net_epsilon * (u - max(u)) / (2 * blocks))
        w / sum(w)
      }
      u12 <- as.vector(outer(1:N, 1:N, Vectorize(function(j1, j2) -net_loss(res2[[1]][, j1] + res2[[2]][, j2], spec))))
      u3 <- apply(res2[[3]], 2, function(q) -net_loss(q, spec))
      p12 <- law(u12, 2)
      p3 <- law(u3, 2)
      draws <- replicate(3000, unlist(dpm$cpp_release_regression(M, t(Y), t, spec, FALSE)[c("p", "v")]))
      who <- sapply(1:3, function(k) apply(draws[c(k, 3 + k), ], 2, function(z) which.min(colSums((net - z)^2))))
      expect_equal(max(abs(draws - rbind(matrix(net[1, who], 3, byrow = TRUE), matrix(net[2, who], 3, byrow = TRUE)))), 0,
                   tolerance = 1e-12)
      o12 <- tabulate(who[, 1] + N * (who[, 2] - 1), N * N)
      c12 <- rs_chisq(o12, p12)
      expect_gte(c12$cells, 3)
      expect_gt(c12$p, 1e-3)
      expect_true(c12$rare_ok)
      c3 <- rs_chisq(tabulate(who[, 3], N), p3)
      expect_gte(c3$cells, 3)
      expect_gt(c3$p, 1e-3)
      # power: the laws at sensitivity 3, and the product of the
      # coordinates' own laws, are rejected
      expect_lt(rs_chisq(o12, law(u12, 3))$p, 1e-4)
      u1 <- apply(res2[[1]], 2, function(q) -net_loss(q, spec))
      u2 <- apply(res2[[2]], 2, function(q) -net_loss(q, spec))
      expect_lt(rs_chisq(o12, as.vector(outer(law(u1, 2), law(u2, 2))))$p, 1e-4)
    }
    # specs the plans never build are refused before the data are read: a
    # net that is not a product lattice, three clips, a sparse draw without
    # pairs, a lattice beyond the work bound
    bad <- spec
    bad$net <- net[, c(2, 1, 3:N)]
    expect_error(dpm$cpp_release_regression(M, t(Y), t, bad, FALSE), "not a product lattice")
    bad <- spec
    bad$net_clip_low <- 0.01
    bad$net_clip_wide <- 0.1
    bad$net_clip_levels <- 3L
    expect_error(dpm$cpp_release_regression(M, t(Y), t, bad, FALSE), "one or two clips")
    bad <- spec
    bad$net_pairs <- FALSE
    expect_error(dpm$cpp_release_regression(M, t(Y), t, bad, FALSE), "over pairs")
    bad <- spec
    bad$net <- rbind(rep(seq(-1, 1, length.out = 2001), 50), rep(seq(-1, 1, length.out = 50), each = 2001))
    bad$net_clip <- 0.5
    expect_error(dpm$cpp_release_regression(M, t(Y), t, bad, FALSE), "work bound")
    # (and one whose padded lattice alone, 50 rows of 4e5 cells, is beyond
    # it: refused before that lattice is allocated)
    bad$net_clip <- 100
    expect_error(dpm$cpp_release_regression(M, t(Y), t, bad, FALSE), "work bound")
  })
})

test_that("a block of two coordinates draws only the pairs within the domain's discs, dense or sparse", {
  # (proof section 3b: footpoints |(a1, a2)| <= R and velocities
  # |(b1, b2)| <= V, which the domain |a| <= R, |b| <= V implies; one
  # block on euclidean(2), so the release is the pair itself)
  with(euclidean3_net(14), {
    M2 <- euclidean(2)
    spec <- net_draw_spec(m, 0.05)
    spec$center <- c(0, 0)
    spec$net_pairs <- TRUE
    spec$net_clip <- 0.05
    A <- seq(-0.21, 0.21, by = 0.03)
    B <- c(-0.3, 0.2, 0.5)
    net <- rbind(rep(A, times = 3), rep(B, each = 15))
    N <- ncol(net)
    spec$net <- net
    # (no lattice pair on either disc's edge: the release is never moved
    # onto the domain after the draw)
    spec$R0 <- 0.25
    spec$V0 <- 0.55
    Y <- D$y[, 1:2]
    Y[1:2, ] <- rbind(c(50, -50), c(-40, 3))
    t <- D$x - 0.5
    res2 <- lapply(1:2, function(k) apply(net, 2, function(ab) (Y[, k] - ab[1] - t * ab[2])^2))
    u12 <- as.vector(outer(1:N, 1:N, Vectorize(function(j1, j2) -net_loss(res2[[1]][, j1] + res2[[2]][, j2], spec))))
    inside <- as.vector(outer(1:N, 1:N, function(j1, j2) net[1, j1]^2 + net[1, j2]^2 <= 0.25^2 &
                                                        net[2, j1]^2 + net[2, j2]^2 <= 0.55^2))
    expect_true(any(!inside) && any(inside))
    law <- function(u) {
      w <- exp(spec$net_epsilon * (u - max(u)) / 2)
      w / sum(w)
    }
    p_in <- law(ifelse(inside, u12, -Inf))
    p_all <- law(u12)
    for (sparse in c(TRUE, FALSE)) {
      spec$net_pairs_sparse <- sparse
      draws <- replicate(3000, unlist(dpm$cpp_release_regression(M2, t(Y), t, spec, FALSE)[c("p", "v")]))
      who <- sapply(1:2, function(k) apply(draws[c(k, 2 + k), ], 2, function(z) which.min(colSums((net - z)^2))))
      expect_equal(max(abs(draws - rbind(matrix(net[1, who], 2, byrow = TRUE), matrix(net[2, who], 2, byrow = TRUE)))), 0,
                   tolerance = 1e-12)
      o12 <- tabulate(who[, 1] + N * (who[, 2] - 1), N * N)
      # none outside the discs, where the law over the whole lattice puts
      # a share that 3000 draws would not miss
      expect_equal(sum(o12[!inside]), 0)
      expect_gt(3000 * sum(p_all[!inside]), 30)
      keep <- p_in * 3000 >= 5
      expect_gte(sum(keep), 3)
      stat <- sum((o12[keep] - 3000 * p_in[keep])^2 / (3000 * p_in[keep]))
      expect_gt(stats::pchisq(stat, sum(keep) - 1, lower.tail = FALSE), 1e-3)
    }
    # a domain whose discs hold no pair of the net's lines is refused
    none <- spec
    none$V0 <- 0.19
    for (sparse in c(TRUE, FALSE)) {
      none$net_pairs_sparse <- sparse
      expect_error(dpm$cpp_release_regression(M2, t(Y), t, none, FALSE), "no pair of the net's lines")
    }
  })
})

test_that("S^5's net is drawn over pairs of coordinates (sensitivity ceil(d / 2)) where their lattice is fine", {
  M <- sphere(5)
  m <- regression_mechanism(M, 200, epsilon = 1, tau = 0.15, center = c(1, 0, 0, 0, 0, 0), radius = 0.4,
                            x_range = c(0, 1))
  loc <- m$stages$localise
  expect_identical(loc$mechanism, "exponential_net")
  expect_equal(loc$sensitivity, 3)
  expect_equal(loc$sigma, 6)
  expect_match(loc$detail, "5 coordinates drawn in 3 blocks of up to two")
  expect_true(m$spec$cpp$net_pairs)
  expect_identical(nrow(m$spec$cpp$net), 2L)
  # the work bound: n ceil(d / 2) N^2 within net_pair_work (the lattice's
  # rule counts lines of a box; the interval's end points add a few)
  N <- ncol(m$spec$cpp$net)
  expect_lte(200 * 3 * N^2, 1.1 * dpm$.gauss_newton$net_pair_work)
  # without pairs the same plan is the net per coordinate (sensitivity d)
  no_pairs <- dpm$.gauss_newton
  no_pairs$net_pairs <- FALSE
  assignInNamespace(".gauss_newton", no_pairs, "dpmanifold")
  on.exit(assignInNamespace(".gauss_newton", dpm$.gauss_newton, "dpmanifold"))
  m0 <- regression_mechanism(M, 200, epsilon = 1, tau = 0.15, center = c(1, 0, 0, 0, 0, 0), radius = 0.4,
                             x_range = c(0, 1))
  expect_equal(m0$stages$localise$sensitivity, 5)
  expect_false(isTRUE(m0$spec$cpp$net_pairs))
  # where every pair's score would be too much work (SPD(3) at n 200), the
  # draw over pairs runs one sparse row at a time on a product lattice, its
  # work n ceil(d / 2) (W nB)^2 within net_sparse_work; without it the net
  # per coordinate stays
  assignInNamespace(".gauss_newton", dpm$.gauss_newton, "dpmanifold")
  P <- spd(3)
  m3 <- regression_mechanism(P, 200, epsilon = 1, tau = 0.05, center = diag(3), radius = 1, x_range = c(0, 1))
  expect_equal(m3$stages$localise$sensitivity, 3)
  expect_true(m3$spec$cpp$net_pairs_sparse)
  net3 <- m3$spec$cpp$net
  ha <- diff(sort(unique(net3[1, ])))[1]
  nB <- length(unique(net3[2, ]))
  W <- ceiling(2 * max(m3$spec$cpp$net_clip, m3$spec$cpp$net_clip_wide) / ha) + 2
  expect_lte(200 * 3 * (W * nB)^2, dpm$.gauss_newton$net_sparse_work)
  expect_gt(ncol(net3), 1e4)
  # (a localising draw that rounds follow keeps the net per coordinate:
  # SPD(3) at n 500)
  m5 <- regression_mechanism(P, 500, epsilon = 1, tau = 0.05, center = diag(3), radius = 1, x_range = c(0, 1))
  expect_false(isTRUE(m5$spec$cpp$net_pairs_sparse))
  no_sparse <- dpm$.gauss_newton
  no_sparse$net_pair_sparse <- FALSE
  assignInNamespace(".gauss_newton", no_sparse, "dpmanifold")
  m3 <- regression_mechanism(P, 200, epsilon = 1, tau = 0.05, center = diag(3), radius = 1, x_range = c(0, 1))
  expect_equal(m3$stages$localise$sensitivity, 6)
  assignInNamespace(".gauss_newton", dpm$.gauss_newton, "dpmanifold")
  # nor is every pair scored where the n N squared residuals per coordinate
  # would exceed the C++ core's allocation bound (net_pair_residuals): the
  # draw over pairs is then the sparse one, or without it the net per
  # coordinate
  small <- dpm$.gauss_newton
  small$net_pair_residuals <- 200 * N - 1
  assignInNamespace(".gauss_newton", small, "dpmanifold")
  m1 <- regression_mechanism(M, 200, epsilon = 1, tau = 0.15, center = c(1, 0, 0, 0, 0, 0), radius = 0.4,
                             x_range = c(0, 1))
  expect_equal(m1$stages$localise$sensitivity, 3)
  expect_true(m1$spec$cpp$net_pairs_sparse)
  small$net_pair_sparse <- FALSE
  assignInNamespace(".gauss_newton", small, "dpmanifold")
  m1 <- regression_mechanism(M, 200, epsilon = 1, tau = 0.15, center = c(1, 0, 0, 0, 0, 0), radius = 0.4,
                             x_range = c(0, 1))
  expect_equal(m1$stages$localise$sensitivity, 5)
})

test_that("the default lands near the non-private fit at n epsilon >= 500 on S^2, and a bunched design does not break it", {
  set.seed(9)
  S2 <- sphere(2)
  ratio <- function(xmax) {
    D <- gn_data(S2, 1000, c(0, 0, 1), c(0.5, 0.2, 0), 0.03, x = runif(1000, 0, xmax))
    r <- suppressWarnings(dp_geodesic_regression(S2, D$x, D$y, epsilon = 1, tau = 0.15, center = c(0, 0, 1),
                                                 radius = 0.45, x_range = c(0, 1), return_nonprivate = TRUE))
    r$nonprivate$energy_at_release / r$nonprivate$energy
  }
  even <- replicate(5, ratio(1))
  side <- replicate(5, ratio(0.3))
  # bench (20 data sets): medians about 1.02 (even) and 1.2 (x in [0, 0.3])
  expect_lt(median(even), 1.1)
  expect_lt(median(side), 1.6)
  expect_gte(min(c(even, side)), 1 - 1e-8)
})

test_that("confidence balls of predict(interval = 'confidence') cover the least-squares fit at the nominal level", {
  set.seed(12)
  cover <- function(M, D, tau, r, reps = 300, level = 0.9, eps = 1) {
    fit <- geodesic_regression(M, D$x, D$y, x_range = c(0, 1))
    xs <- c(0, 0.5, 1)
    truth <- predict(fit, xs)
    rowMeans(replicate(reps, {
      rel <- dp_geodesic_regression(M, D$x, D$y, epsilon = eps, tau = tau, center = D$center, radius = r,
                                    x_range = c(0, 1))
      pr <- predict(rel, xs, interval = "confidence", level = level)
      mfd_dist(M, pr$fit, truth) <= pr$radius
    }))
  }
  S2 <- sphere(2)
  # measured: 0.91-0.91 (S^2, n 1000), 0.93-0.94 (R^2, n 500), 0.92-0.97 (SPD(2), n 400)
  expect_true(all(cover(S2, gn_data(S2, 1000, c(0, 0, 1), c(0.5, 0.2, 0), 0.03), 0.15, 0.45) >= 0.9 - 3 * 0.017))
  E <- euclidean(2)
  expect_true(all(cover(E, gn_data(E, 500, c(1, 1), c(1, 0.5), 0.3), NULL, 2) >= 0.9 - 3 * 0.017))
  # the net's draw as the release: measured 0.91-0.92 (S^2, n 30), 0.95-0.96
  # (S^3, n 50, epsilon 1.2), 0.98 (SPD(2), n 100)
  expect_true(all(cover(S2, gn_data(S2, 30, c(0, 0, 1), c(0.5, 0.2, 0), 0.03), 0.15, 0.45) >= 0.9 - 3 * 0.017))
  S3 <- sphere(3)
  expect_true(all(cover(S3, gn_data(S3, 50, c(0, 0, 0, 1), c(0.5, 0.2, 0, 0), 0.03), 0.15, 0.45, eps = 1.2) >=
                    0.9 - 3 * 0.017))
  # the model belongs to the default method; the chain laws have none
  rel <- suppressWarnings(dp_geodesic_regression(S2, runif(50), mfd_exp(S2, c(0, 0, 1), 0.1 * mfd_random_tangent(S2, c(0, 0, 1), 50)),
                                                 epsilon = 1, tau = 0.15, center = c(0, 0, 1), radius = 0.45,
                                                 x_range = c(0, 1), method = "energy",
                                                 mcmc = mcmc_control(burnin = 50, steps = 50)))
  expect_error(predict(rel, 0.5, interval = "confidence"), "`interval`", class = "dpmanifold_error")
  expect_error(predict(rel, 0.5, interval = "nope"), "`interval`", class = "dpmanifold_error")
})

test_that("a refining round narrows the covariate's window only where its noise outweighs the clamping's bias", {
  # The choice reads released values only (the clip level, the design) and
  # public bounds: post-processing. With the choice switched off in the
  # spec, the same seed gives the same release exactly where the rule keeps
  # the default window.
  M <- euclidean(12)
  same <- function(n, noise) {
    set.seed(71)
    D <- gn_data(M, n, rep(0, 12), c(0.4, rep(0, 11)), noise)
    # (at n 150 the public error model warns that the noise fills the domain)
    m <- suppressWarnings(regression_mechanism(M, n, epsilon = 2, center = rep(0, 12), radius = 1, x_range = c(0, 1)),
                          classes = "dpmanifold_low_utility")
    expect_equal(m$spec$cpp$window_noise, sqrt(8 * 12 * 13) * 2 / n)
    off <- m$spec$cpp
    off$window_noise <- 0
    rel <- function(spec) {
      set.seed(72)
      unlist(dpm$cpp_release_regression(M, t(D$y), D$x - 0.5, spec, FALSE)[c("p", "v")])
    }
    identical(rel(m$spec$cpp), rel(off))
  }
  # n 150: the round's noise error (about 0.2) outweighs the bias bound at
  # one design sd (about 0.1): the window narrows and the release moves
  expect_false(same(150, 0.1))
  # n 2000: the noise error is 0.016, the bias bound at one sd 0.1: kept
  expect_true(same(2000, 0.1))
})

test_that("a noise-dominated round on SPD and H^2 gives a finite release, not NaN or an error naming radius", {
  # Small n epsilon: the round's step in the chart at p is far longer than
  # the domain. exp() of it overflowed on Hadamard manifolds before the
  # projection onto the domain: SPD(2) failed with "`radius` ... overflows"
  # (epsilon 0.01, n 40, some seeds), H^2 released v = NaN silently
  # (epsilon 0.001). The step is now shortened to the domain first.
  set.seed(1)
  n <- 40
  x <- runif(n)
  for (cs in list(list(M = spd(2), C = diag(2)), list(M = hyperbolic(2), C = c(1, 0, 0)))) {
    Y <- mfd_exp(cs$M, cs$C, 0.3 * mfd_random_tangent(cs$M, cs$C, n) / sqrt(cs$M$dim))
    for (method in c("tangent", "gauss_newton")) for (eps in c(1e-3, 1e-2)) for (seed in 1:5) {
      set.seed(seed)
      rel <- suppressWarnings(dp_geodesic_regression(cs$M, x, Y, eps, tau = 0.5, center = cs$C, radius = 1,
                                                     x_range = c(0, 1), method = method),
                              classes = "dpmanifold_low_utility")
      lab <- paste(manifold_label(cs$M), method, eps, seed)
      expect_true(all(is.finite(unlist(rel$estimate))), label = lab)
      expect_lte(mfd_dist(cs$M, cs$C, rel$estimate$p), 1 + 1e-9)
    }
  }
})

test_that("noise scales the C++ core cannot square are refused before any data, naming epsilon", {
  # epsilon 1e300 or 1e-300 on S^2 (and 1e-50 with radius 1e60 on R^2)
  # released v = NaN and a NaN error model, silently
  S2 <- sphere(2)
  for (eps in c(1e300, 1e-300)) for (method in c("gauss_newton", "tangent")) {
    e <- tryCatch(regression_mechanism(S2, 50, eps, tau = 0.2, center = c(0, 0, 1), radius = 0.5,
                                       x_range = c(0, 1), method = method),
                  dpmanifold_error = identity)
    expect_s3_class(e, "dpmanifold_not_representable")
    expect_identical(e$arg, "epsilon")
  }
  x <- runif(20)
  expect_error(dp_geodesic_regression(euclidean(2), x, cbind(x, x), 1e-50, center = c(0, 0), radius = 1e60,
                                      x_range = c(0, 1)),
               class = "dpmanifold_not_representable")
  # ordinary extremes still release
  rel <- dp_geodesic_regression(S2, x, mfd_exp(S2, c(0, 0, 1), 0.1 * mfd_random_tangent(S2, c(0, 0, 1), 20)),
                                1e50, tau = 0.2, center = c(0, 0, 1), radius = 0.5, x_range = c(0, 1))
  expect_true(all(is.finite(unlist(rel$estimate))))
})
