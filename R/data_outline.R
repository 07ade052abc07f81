# The outlines of simulate_corpus_callosum(), many subjects at a time.
# Every quantity that depends only on the centre-line parameter s is
# computed once, the rest on m x n matrices (one column per subject, 256 a
# block). One subject at a time in R took ~0.5 ms
# (9 minutes for n = 1e6); in blocks ~0.1 ms (memory-bound: the outline has
# 798 points), and the block loop is where an interrupt or a time limit
# lands.

# The parts of an outline that depend on s only (m points on the centre line).
cc_outline_grid <- function(m = 400L) {
  s <- seq(0, 1, length.out = m)
  bump <- function(s, a, b, w = 0.03) stats::plogis((s - a) / w) * stats::plogis((b - s) / w)
  ctrl_s <- c(0.00, 0.04, 0.10, 0.17, 0.25, 0.40, 0.55, 0.66, 0.74, 0.82, 0.90, 1.00)
  ctrl_w <- c(0.145, 0.150, 0.110, 0.045, 0.042, 0.052, 0.060, 0.080, 0.090, 0.080, 0.045, 0.028)
  e0 <- 0.05
  e1 <- 0.03
  list(m = m, s = s,
       splenium = 2.5 * bump(s, -0.2, 0.10), arch = bump(s, 0.10, 0.68), genu = bump(s, 0.68, 0.86, 0.02),
       rostrum = 0.3 * bump(s, 0.86, 1.2),
       width = stats::splinefun(ctrl_s, ctrl_w, method = "monoH.FC")(s),
       region_thin = pmin(1, 0.25 + 0.75 * bump(s, 0.14, 0.62, 0.04) + 0.25 * bump(s, 0.62, 0.84, 0.04)),
       bulb4 = exp(-((s - 0.04) / 0.08)^2), bulb5 = exp(-((s - 0.74) / 0.08)^2),
       close = ifelse(s < e0, sqrt(pmax(0, 1 - (1 - s / e0)^2)), 1) *
         ifelse(s > 1 - e1, sqrt(pmax(0, 1 - (1 - (1 - s) / e1)^2)), 1),
       surface = c(rep("dorsal", m), rep("ventral", m - 2L)))
}

# Cumulative sums of the columns of A: one cumsum() over the whole matrix,
# less the running total at the start of each column (C speed instead of a
# call per column; the running total of a block of 256 subjects stays below
# ~1e6, so the columns keep an absolute accuracy of ~1e-10 relative to it).
cc_colcumsum <- function(A) {
  m <- nrow(A)
  cs <- cumsum(as.vector(A))
  start <- c(0, cs[m * seq_len(ncol(A) - 1L)])
  matrix(cs - rep(start, each = m), m)
}

# Cumulative trapezoid integral of the columns of A over the grid step ds,
# starting at 0: at row i, S_i - (A_1 + A_i) / 2 with S the cumulative sum
# (no copies of shifted rows).
cc_cumtrapz <- function(A, ds) {
  (cc_colcumsum(A) - (rep(A[1L, ], each = nrow(A)) + A) / 2) * ds
}

# Largest and smallest entry of each column.
cc_colmax <- function(A) A[cbind(max.col(t(A), ties.method = "first"), seq_len(ncol(A)))]
cc_colmin <- function(A) -cc_colmax(-A)

# Closed outlines of n subjects (ages `age`, shape factors f: 6 x n), as
# list(x, y): (2m - 2) x n matrices, starting at the posterior tip of the
# splenium and running along the dorsal surface first (see
# simulate_corpus_callosum() for the model).
cc_outlines <- function(g, age, age_effect, f) {
  m <- g$m
  decades <- pmax(age - 50, 0) / 10
  arch <- 1.4 * f[1L, ] * (1 + age_effect / 2 * decades)
  genu <- 16 * f[2L, ]
  # curvature of the centre line (per unit length): splenium, arch
  # (isthmus + body), genu, rostrum
  kappa <- g$splenium + outer(g$arch, arch) + outer(g$genu, genu) + g$rostrum
  ds <- 1 / (m - 1)
  theta <- 132 * pi / 180 + cc_cumtrapz(kappa, ds)
  ct <- cos(theta)
  st <- sin(theta)
  cx <- cc_cumtrapz(ct, ds)
  cy <- cc_cumtrapz(st, ds)
  # full thickness (fraction of centre-line length), thinned with age
  w <- outer(g$width, f[3L, ]) * (1 - outer(g$region_thin, age_effect * decades))
  w <- w * (1 + outer(g$bulb4, f[4L, ] - 1) + outer(g$bulb5, f[5L, ] - 1))
  h <- w / 2 * g$close
  # the centre line turns counterclockwise, so its right normal points
  # dorsally; on the inner (ventral) side the offset stays below the radius
  # of curvature, so the outline never crosses itself
  nx <- st
  ny <- -ct
  h_in <- pmin(h, 0.8 / pmax(kappa, 1e-8))
  lo <- rev(seq_len(m))[-c(1L, m)]
  x <- rbind(cx + h * nx, (cx - h_in * nx)[lo, , drop = FALSE])
  y <- rbind(cy + h * ny, (cy - h_in * ny)[lo, , drop = FALSE])
  scale <- 70 * f[6L, ] / (cc_colmax(x) - cc_colmin(x))
  list(x = x * rep(scale, each = nrow(x)), y = y * rep(scale, each = nrow(y)))
}

# k landmarks at equal arc length along each closed outline (columns of
# out$x, out$y), from its first point: list(x, y, index), k x n matrices
# (index: the outline point at or before each landmark).
cc_landmarks_batch <- function(out, k) {
  X <- rbind(out$x, out$x[1L, ])
  Y <- rbind(out$y, out$y[1L, ])
  p <- nrow(X)
  n <- ncol(X)
  seg <- sqrt(diff(X)^2 + diff(Y)^2)
  cum <- rbind(0, cc_colcumsum(seg))
  total <- cum[p, ]
  at <- outer(seq_len(k) - 1, total) / k
  # the interval of each landmark: one findInterval() over all subjects,
  # each column's arc length normalised to [0, 1] and shifted by 2 per column
  shift <- rep(2 * (seq_len(n) - 1), each = p)
  ii <- findInterval(as.vector(outer((seq_len(k) - 1) / k, rep(1, n))) + rep(2 * (seq_len(n) - 1), each = k),
                     as.vector(cum / rep(total, each = p)) + shift, rightmost.closed = TRUE)
  ii <- pmin(pmax(ii - rep((seq_len(n) - 1) * p, each = k), 1L), p - 1L)
  col0 <- rep((seq_len(n) - 1) * p, each = k)
  i0 <- ii + col0
  x0 <- cum[i0]
  dx <- cum[i0 + 1L] - x0
  t <- ifelse(dx > 0, (as.vector(at) - x0) / dx, 0)
  list(x = matrix(X[i0] + (X[i0 + 1L] - X[i0]) * t, k),
       y = matrix(Y[i0] + (Y[i0 + 1L] - Y[i0]) * t, k),
       index = matrix(pmin(ii, p - 1L), k))
}

# Landmark regions and surfaces of one outline (the mean shape).
cc_landmark_regions <- function(g, out, k) {
  idx <- cc_landmarks_batch(out, k)$index[, 1L]
  s_out <- c(g$s, rev(g$s)[-c(1L, g$m)])
  s <- s_out[idx]
  region <- cut(s, c(-Inf, 0.14, 0.66, 0.86, Inf), labels = c("splenium", "isthmus/body", "genu", "rostrum"))
  data.frame(landmark = seq_len(k), region = region, surface = factor(g$surface[idx], c("dorsal", "ventral")))
}

# One block of simulated subjects (a k x 2 x nb array, nb = length(age)),
# its normal variates drawn at once in the order the subject-by-subject
# loop took them (6 shape factors, 2k landmark noises, rotation, size, 2
# shifts; none where the standard deviation is 0, as rnorm() draws none);
# NULL when the outline is not representable.
cc_simulate_block <- function(g, age, age_effect, variability, noise, k) {
  nb <- length(age)
  nf <- if (variability > 0) 6L else 0L
  nz <- if (noise > 0) 2L * k else 0L
  Z <- matrix(stats::rnorm((nf + nz + 4L) * nb), nf + nz + 4L, nb)
  f <- if (nf) exp(variability * Z[seq_len(6L), , drop = FALSE]) else matrix(1, 6L, nb)
  out <- suppressWarnings(cc_outlines(g, age, age_effect, f))
  if (any(!is.finite(out$x)) || any(!is.finite(out$y))) return(NULL)
  L <- cc_landmarks_batch(out, k)
  X <- L$x
  Y <- L$y
  if (nz) {
    sd <- noise * (cc_colmax(X) - cc_colmin(X))
    X <- X + Z[nf + seq_len(k), , drop = FALSE] * rep(sd, each = k)
    Y <- Y + Z[nf + k + seq_len(k), , drop = FALSE] * rep(sd, each = k)
  }
  last <- Z[nf + nz + 1:4, , drop = FALSE]
  th <- 3 * pi / 180 * last[1L, ]
  size <- exp(0.05 * last[2L, ])
  ct <- rep(cos(th), each = k)
  st <- rep(sin(th), each = k)
  sz <- rep(size, each = k)
  B <- array(0, c(k, 2L, nb))
  B[, 1L, ] <- sz * (X * ct - Y * st) + rep(100 + 3 * last[3L, ], each = k)
  B[, 2L, ] <- sz * (X * st + Y * ct) + rep(60 + 3 * last[4L, ], each = k)
  B
}
