# The localising stage of the default private geodesic regression
# (method = "gauss_newton"): the K-norm round at the centre, or the
# exponential mechanism over a public net of geodesics (one block, one
# block per coordinate, or blocks of two coordinates), and the public nets
# they draw from. The draw itself runs in C++
# (inst/include/dpmanifold_core/regression_net.hpp). Proof:
# inst/proofs/regression-gauss-newton.md, sections 3b and 8.

# The localising stage at share e1, whichever has the smaller public error
# (root mean square of the line over an even design): the moments of the
# tangent coordinates at the centre (K-norm, sensitivity 2r: error
# sqrt(8 d (d + 1)) 2 r / (n e1)), or the exponential mechanism over a
# public net of geodesics scored by their energy clipped at c (error about
# c sqrt(2 d b / (n e1)) for b blocks, plus the net's spacing), which falls
# like 1 / sqrt(n e1) instead of 1 / (n e1). On manifolds of dimension 1 or
# 2 the net covers (a, b) jointly (one block, sensitivity 1); above, it is
# a net of (a_k, b_k) drawn for each coordinate k independently (d blocks,
# each record's clipped term in [0, 1] per block: sensitivity d). The net
# is as fine as the work bound n b N and the draw's margin over the
# plateau (n e1 / (2 b) >= log N + 4) allow. Public rules. Proof section 3b.
# (any_net: the net whenever it is available, for a plan whose release is
# its draw; the plan then weighs its error against the alternatives.)
localisation <- function(M, n, e1, r, tau_e, R0, V0, any_net = FALSE) {
  d <- M$dim
  g <- .gauss_newton
  knorm <- knorm_localisation(d, n, e1, r)
  blocks <- if (d <= g$net_max_dim) 1L else d
  c <- c1 <- min(tau_e, g$net_clip_r * r)
  low <- Inf
  drawn <- blocks  # the blocks the draw runs over (pairs: ceil(d / 2))
  cw <- cw1 <- min(tau_e, g$net_clip_wide * r)
  # the draw's margin over the plateau: each block's score gap of n at
  # epsilon e1 / blocks, halved by the exponential mechanism (nats)
  margin <- n * e1 / (2 * blocks)
  cap <- min(g$net_block^2, g$net_max_work / (as.numeric(n) * blocks), exp(margin - g$net_margin))
  if (cap < 9) return(knorm)
  # (one block: coarser at small n e1, where the law's tail, which grows
  # with the number of candidates, costs more than the spacing)
  f <- if (blocks == 1L) min(2, max(1, g$net_spacing / (n * e1))) else 1
  net <- localisation_net(if (blocks == 1L) d else 1L, f * c / 2, f * c, R0, V0, floor(sqrt(cap)))
  # the largest log N a net per coordinate takes without coarsening: net_tail
  # below the plateau's margin n e1 / (2 b)
  room <- margin - g$net_tail
  if (blocks > 1L && log(ncol(net$points)) > room) {
    # (per coordinate: a net whose size nears the plateau's margin is
    # coarsened twofold, for the same reason)
    f <- 2
    net <- localisation_net(1L, f * c / 2, f * c, R0, V0, floor(sqrt(cap)))
  }
  # a net coarser than the clip would score every candidate near the line
  # as clipped (and the plateau would hold the mass): the clip widens to
  # the spacing
  c <- max(c, net$h[1], net$h[2] / 2)
  cw <- max(cw, c)
  var_a <- blocks * c^2 / (n * e1) + net$h[1]^2 / 12
  var_b <- 12 * blocks * c^2 / (n * e1) + net$h[2]^2 / 12
  err <- sqrt(d * (var_a + var_b / 12))
  # (one block: the draw's own spread decides, the spacing only enters the
  # weights, as the refining rounds remove it; per coordinate the net is
  # coarse where the plateau margin binds, and its spacing counts)
  spread <- c * sqrt(2 * d * blocks / (n * e1))
  if (!any_net && (if (blocks == 1L) spread else err) >= knorm$error) return(knorm)
  # (with the wide clip: the variances of the draw as a release)
  band <- c(blocks * cw^2 / (n * e1) + net$h[1]^2 / 12, 12 * blocks * cw^2 / (n * e1) + net$h[2]^2 / 12)
  if (blocks > 1L) {
    # Per coordinate: each coordinate carries about 1 / sqrt(d) of a
    # residual's norm, so both clips narrow by d^-net_narrow. Where a net
    # whose spacing follows the narrow clip (h_a = d^-net_narrow c,
    # h_b = 2 h_a) stays net_tail below the plateau's margin, the draw
    # takes a lattice as fine as the work bound and the margin allow
    # (net_coord_max lines, log N at most net_coord_tail below
    # n e1 / (2 b)), with the spacings whose rounding errors move the line
    # equally over an even design (h_a^2 / 12 and h_b^2 / 144),
    # h_b = sqrt(12) h_a, and never finer in a than net_coord_floor times
    # the law's core sd there, c sqrt(b / (n e1)) (finer points would only
    # add lines that cross the true one). A lattice sized by the clip alone
    # read well only where the public centre is the true footpoint, a
    # lattice point: elsewhere its rounding costs up to half a spacing per
    # coordinate (SPD(3), n 200, epsilon 1, the centre the Frechet mean of
    # a public pilot: median energy ratio 2.41 with 20% of data sets above
    # 10, against 1.69 and 5%; bench/dp_regression_centre.R). Nearer the
    # margin the net stays and its clips narrow to net_cover of the
    # spacing (or d^-net_narrow c, if wider): the nearest candidate is up
    # to half a spacing off in a and in b / 2, and a clip below the
    # spacing lets that offset clip records at the best candidate, which
    # takes the score's gap over the plateau from about n to about n / 2.
    # Where log N exceeds half the plateau's margin n e1 / (2 b), such a gap
    # leaves the plateau much of the mass, and the clip is 1.2 spacings
    # (SPD(3), n 200, epsilon 0.8, pilot centre: median 656 at 0.8 of the
    # spacing, 4.9 at 1.2); below it the plateau stays far and 0.8 keeps
    # the core narrow (SPD(2), n 50, epsilon 1, true midpoint: 66 at 0.8,
    # 113 at 1.2).
    # The plan's choices keep the public error above (on Kendall shapes,
    # whose residuals are far from isotropic, the narrow net's error model
    # is optimistic), and the band variances stay the wider ones. Public
    # rules (proof section 3b).
    k <- d^-g$net_narrow
    narrow <- localisation_net(1L, k * c1, 2 * k * c1, R0, V0, floor(sqrt(cap)))
    if (log(ncol(narrow$points)) <= room) {
      size <- min(g$net_coord_max, g$net_max_work / (as.numeric(n) * blocks),
                  exp(margin - g$net_coord_tail))
      ha <- max(sqrt(4 * R0 * V0 / (sqrt(12) * size)), g$net_coord_floor * k * c1 * sqrt(blocks / (n * e1)))
      net <- localisation_net(1L, ha, sqrt(12) * ha, R0, V0, Inf)
      cfloor <- max(net$h[1], net$h[2] / 2)
      c <- max(k * c1, cfloor)
      coarse <- FALSE
      # Blocks of two coordinates (section 8): sensitivity ceil(d / 2), not
      # d, so each block's plateau margin is n e1 / (2 beta) and the draw's
      # core narrows by sqrt(beta / d). The draw runs over the pairs of
      # lines of one lattice within the domain's discs (at most N^2
      # candidates, work n beta N^2; the C++ core's PairDiscs) and replaces
      # the lattice per coordinate where its own (pair_lattice()) stays
      # within net_pair_spacing core sds. The plan's choices and the public
      # variances stay those of the net per coordinate (wider). Public rule.
      pair <- if (g$net_pairs) pair_lattice(d, n, e1, R0, V0, k * c1, k * cw1, sparse = any_net)
      if (!is.null(pair)) {
        net <- pair
        cfloor <- max(net$h[1], net$h[2] / 2)
        k <- k * g$net_pair_clip
        c <- max(k * c1, cfloor)
        drawn <- as.integer(ceiling(d / 2))
      }
    } else {
      cover <- if (log(ncol(net$points)) > g$net_cover_half * margin) g$net_cover else g$net_cover_small
      cfloor <- cover * max(net$h[1], net$h[2] / 2)
      c <- max(k * c1, cfloor)
      coarse <- c > k * c1
    }
    cw <- max(k * cw1, c)
    # A ladder of clips (the score averages net_levels > 2 of them,
    # geometric up to the widest, the lowest at net_low_tau tau / sqrt(d),
    # never under the spacing rule): off by default, as it trades a loose
    # tau's error for more plateau draws at a tight one. Proof section 3b.
    low <- max(cfloor, g$net_low_tau * tau_e / sqrt(d))
  }
  N <- ncol(net$points)
  what <- if (blocks == 1L) sprintf("%d geodesics on a public net", N) else if (drawn < blocks)
    sprintf("%d lines per coordinate on a public net, %d coordinates drawn in %d blocks of up to two%s", N, d, drawn,
            if (isTRUE(net$sparse)) ", one sparse row at a time" else "") else
    sprintf("%d lines per coordinate on a public net, %d coordinates", N, d)
  list(error = err, band = band, coarse = if (blocks > 1L) coarse else NA,
       stages = list(localise = dp_stage("localise", "exponential_net", epsilon = e1, sensitivity = drawn, sigma = 2 * drawn / e1,
                        proof = "regression-gauss-newton",
                        detail = sprintf("energy clipped at %s of %s",
                                         if (g$net_levels > 2L && low < c) sprintf("%d levels from %.3g to %.3g", g$net_levels, low, cw) else
                                           if (cw > c) sprintf("%.3g and %.3g", c, cw) else sprintf("%.3g", c), what))),
       rounds = list(),
       spec = list(net = net$points, net_epsilon = e1, net_clip = c, net_clip_wide = if (cw > c) cw else 0,
                   net_clip_low = if (g$net_levels > 2L && low < c) low else 0, net_clip_levels = g$net_levels,
                   net_pairs = drawn < blocks, net_pairs_sparse = drawn < blocks && isTRUE(net$sparse),
                   net_var_a = var_a, net_var_b = var_b))
}

# The lattice of a net over pairs of coordinates (section 8), or NULL
# where it would be coarse: beta = ceil(d / 2) blocks, the plateau's margin
# n e1 / (2 beta) per block, N lines per coordinate with 2 log N at most
# net_coord_tail below the margin, the spacings of the lattice per
# coordinate (h_b = sqrt(12) h_a, h_a at least net_coord_floor core sds
# c sqrt(beta / (n e1))), and NULL when h_a exceeds net_pair_spacing core
# sds. Dense (every pair scored) where n beta N^2 is within net_pair_work
# and the n N squared residuals per coordinate within net_pair_residuals
# (the C++ core's allocation bound); otherwise sparse (`sparse = TRUE`:
# each record visits W nB cells per coordinate, W = ceil(2 cw / h_a) + 2
# for the widest clip cw, nB values of b; work n beta (W nB)^2 within
# net_sparse_work, proof section 3b "Pairs on a fine lattice"; its weights are
# products below exp(margin), so margin at most net_sparse_margin, and its
# loss has at most two clips), which SPD(3) at n 200, epsilon 1 takes.
# `sparse`: offered where the draw is the release (localisation()'s
# any_net); a localising draw that rounds refine keeps the lattice per
# coordinate, at a fraction of the time. Public.
pair_lattice <- function(d, n, e1, R0, V0, c, c_wide, sparse = TRUE) {
  g <- .gauss_newton
  beta <- ceiling(d / 2)
  margin <- n * e1 / (2 * beta)
  core <- c * sqrt(beta / (n * e1))
  fine <- function(size) max(sqrt(4 * R0 * V0 / (sqrt(12) * size)), g$net_coord_floor * core)
  size <- min(g$net_coord_max, sqrt(g$net_pair_work / (as.numeric(n) * beta)), exp((margin - g$net_coord_tail) / 2))
  ha <- fine(size)
  if (size >= 9 && ha <= g$net_pair_spacing * core) {
    net <- localisation_net(1L, ha, sqrt(12) * ha, R0, V0, Inf)
    if (as.numeric(n) * ncol(net$points) <= g$net_pair_residuals) return(c(net, list(sparse = FALSE)))
  }
  if (!sparse || !g$net_pair_sparse || margin > g$net_sparse_margin || g$net_levels > 2L) return(NULL)
  size <- min(g$net_sparse_lines, exp((margin - g$net_coord_tail) / 2))
  if (size < 9) return(NULL)
  # the work of a spacing h_a (the clips as localisation() sets them)
  work <- function(ha) {
    cw <- max(c_wide, c, sqrt(12) * ha / 2)
    W <- ceiling(2 * cw / ha) + 2
    nA <- 2 * floor(R0 / ha) + 1
    nB <- 2 * floor(V0 / (sqrt(12) * ha)) + 1
    K <- W * nB
    c(n * beta * K^2 / g$net_sparse_work, n * K / g$net_sparse_visits, nB * (nA + 2 * W) / g$net_sparse_visits)
  }
  ha <- fine(size)
  while (max(work(ha)) > 1 && ha <= g$net_pair_spacing * core) ha <- ha * 1.02
  if (ha > g$net_pair_spacing * core) return(NULL)
  c(localisation_net(1L, ha, sqrt(12) * ha, R0, V0, Inf), list(sparse = TRUE))
}

# The localising K-norm round at the centre: the moments of the responses'
# tangent coordinates there, clipped at r (public error
# sqrt(8 d (d + 1)) 2 r / (n e1)). From n e1 >= clip_min_neps its clip level
# is chosen privately first, as a refining round's is (proof section 4):
# responses bunched well inside the public ball then pay noise for their
# own spread, not for r (shapes::rats, epsilon 5: median energy ratio 1.21
# against 1.43 in the bench; apes at epsilon 5 1.13 against 1.18). The public error
# keeps r, the level's upper limit: the plan's choices read it.
knorm_localisation <- function(d, n, e1, r) {
  g <- .gauss_newton
  eq <- if (n * e1 >= g$clip_min_neps) g$clip * e1 else 0
  eT <- e1 - eq
  grid <- r * 2^(-(g$levels:0) / 2)
  stages <- list()
  if (eq > 0) {
    stages$localise_clip <- dp_stage("localise_clip", "exponential_grid", epsilon = eq, sensitivity = 1,
                                     sigma = 2 / eq, proof = "regression-gauss-newton",
                                     detail = sprintf("%g-quantile of the responses' distances to the centre on a grid of %d levels up to %.3g",
                                                      g$quantile, length(grid), r))
  }
  stages$localise <- dp_stage("localise", "knorm", epsilon = eT, sensitivity = 2 * r, sigma = 2 * r / eT,
                              proof = "regression-gauss-newton", detail = "moments of the tangent coordinates at the centre")
  list(error = knorm_round_error(d, n, r, e1), stages = stages,
       rounds = list(if (eq > 0) ssp_round(eT, r, eq, grid, d) else ssp_round(eT, r)), spec = list())
}

# The public net: chart coordinates (a, b) at the centre (k coordinates
# each) on square grids of the domain balls |a| <= R0 (spacing ha) and
# |b| <= V0 (spacing hb), coarsened to at most `cap` points per ball
# (columns; a varies fastest). The localising net takes ha = c / 2 (a
# line's shift) and hb = c (b moves the ends of the range by b / 2); the
# lattice of a net per coordinate its own spacings (localisation()).
localisation_net <- function(k, ha, hb, R0, V0, cap) {
  ball_grid <- function(R, h) {
    h <- max(h, R * (if (k == 1L) 2 / (cap - 1) else sqrt(pi / cap)))
    m <- floor(R / h)
    g <- as.matrix(expand.grid(rep(list((-m:m) * h), k)))
    list(points = g[sqrt(rowSums(g^2)) <= R + 1e-12, , drop = FALSE], h = h)
  }
  A <- ball_grid(R0, ha)
  B <- ball_grid(V0, hb)
  ia <- rep(seq_len(nrow(A$points)), times = nrow(B$points))
  ib <- rep(seq_len(nrow(B$points)), each = nrow(A$points))
  list(points = t(cbind(A$points[ia, , drop = FALSE], B$points[ib, , drop = FALSE])), h = c(A$h, B$h))
}

