# hyperbolic_embedding(): Sarkar's construction of a tree in the hyperbolic
# plane (hyperboloid model). Checked with plain R Minkowski arithmetic, so
# these tests do not depend on the manifold code.

mink <- function(x, y) -x[, 1] * y[, 1] + x[, 2] * y[, 2] + x[, 3] * y[, 3]
# hyperbolic distance from the Minkowski chord, 2 asinh(|x - y|_L / 2)
hdist <- function(x, y) {
  D <- x - y
  unname(2 * asinh(sqrt(pmax(mink(D, D), 0)) / 2))
}
# all-pairs numbers of edges between the nodes of a tree given by parents
tree_dist <- function(parent) {
  N <- length(parent)
  ch <- which(!is.na(parent))
  A <- matrix(FALSE, N, N)
  A[cbind(ch, parent[ch])] <- TRUE
  A <- A | t(A)
  t(vapply(seq_len(N), function(i) {
    d <- rep(NA_real_, N)
    d[i] <- 0
    q <- i
    while (length(q)) {
      nb <- which(A[q[1], ] & is.na(d))
      d[nb] <- d[q[1]] + 1
      q <- c(q[-1], nb)
    }
    d
  }, numeric(N)))
}
pair_dist <- function(P) {
  N <- nrow(P)
  ij <- which(upper.tri(diag(N)), arr.ind = TRUE)
  list(ij = ij, d = hdist(P[ij[, 1], , drop = FALSE], P[ij[, 2], , drop = FALSE]))
}

eurotree <- function() stats::hclust(stats::as.dist(datasets::eurodist), method = "average")

test_that("the eurodist tree: nodes on the upper sheet, edges of length tau, names and parents", {
  hc <- eurotree()
  e <- hyperbolic_embedding(hc, tau = 1)
  P <- e$points
  expect_equal(dim(P), c(41L, 3L))
  expect_identical(rownames(P), c(labels(datasets::eurodist), paste0("node", 1:20)))
  expect_true(all(abs(mink(P, P) + 1) < 1e-10))
  expect_true(all(P[, 1] >= 1))
  expect_equal(unname(P[e$root, ]), c(1, 0, 0))
  expect_identical(e$root, 41L)
  expect_true(is.na(e$parent[41]))
  # parents follow the merge matrix: leaf j and cluster k merged at step i
  for (i in 1:20) for (m in hc$merge[i, ]) {
    expect_identical(e$parent[if (m < 0) -m else 21 + m], 21L + i)
  }
  expect_identical(e$leaf, c(rep(TRUE, 21), rep(FALSE, 20)))
  ch <- which(!is.na(e$parent))
  expect_true(all(abs(hdist(P[ch, ], P[e$parent[ch], ]) - 1) < 1e-10))
  expect_identical(max(e$depth), 8L)
  # the leaves go round the disc counter-clockwise in dendrogram order
  ang <- atan2(P[hc$order, 3], P[hc$order, 2])
  step <- diff(c(ang, ang[1])) %% (2 * pi)
  expect_true(all(step > 1e-3))
  expect_equal(sum(step), 2 * pi)
  # distance to the root (at the origin): tau for its children, at most
  # tau * depth further down
  r <- acosh(P[, 1])
  expect_true(all(abs(r[e$depth == 1] - 1) < 1e-12))
  expect_true(all(r <= e$depth + 1e-10))
  expect_true(all(r[e$depth >= 2] < e$depth[e$depth >= 2] - 0.1))
})

test_that("angles: siblings and two-edge paths are at the hyperbolic distances of the stated turns", {
  # root with 4 children, each with 3, each of those with 2: degrees 4 and 4, 3
  parent <- c(NA, rep(1, 4), rep(2:5, each = 3), rep(6:17, each = 2))
  tau <- 1.3
  e <- hyperbolic_embedding(parent, tau = tau)
  P <- e$points
  expect_true(all(abs(mink(P, P) + 1) < 1e-10))
  two_edge <- function(turn) acosh(cosh(tau)^2 - sinh(tau)^2 * cos(turn))
  # children of the root at angles 2 pi j / 4: consecutive ones a quarter turn apart
  expect_equal(hdist(P[2:5, ], P[c(3:5, 2), ]), rep(two_edge(pi / 2), 4), tolerance = 1e-12)
  expect_equal(hdist(P[2:3, ], P[4:5, ]), rep(two_edge(pi), 2), tolerance = 1e-12)
  # node 2 (degree 4): parent edge at angle 0, children 6, 7, 8 at 1/4, 2/4, 3/4 turns
  expect_equal(hdist(P[rep(1, 3), ], P[6:8, ]), two_edge(c(pi / 2, pi, 3 * pi / 2)), tolerance = 1e-12)
  expect_equal(hdist(P[6:7, ], P[7:8, ]), rep(two_edge(pi / 2), 2), tolerance = 1e-12)
  # node 6 (degree 3): children 18, 19 at thirds of a turn from the parent edge and from each other
  expect_equal(hdist(P[c(2, 2, 18), ], P[c(18, 19, 19), ]), rep(two_edge(2 * pi / 3), 3), tolerance = 1e-12)
  # orientation is kept: the grandchildren go round the root counter-clockwise
  ang <- atan2(P[18:41, 3], P[18:41, 2])
  step <- diff(c(ang, ang[1])) %% (2 * pi)
  expect_true(all(step > 0.1))
  expect_equal(sum(step), 2 * pi)          # one turn round the disc, in order
})

test_that("distortion: hyperbolic distance follows tau times the tree distance, better for larger tau", {
  # eurodist dendrogram, 41 nodes, 820 pairs
  hc <- eurotree()
  DT <- tree_dist(hyperbolic_embedding(hc, tau = 1)$parent)
  ratio <- function(tau) {
    pd <- pair_dist(hyperbolic_embedding(hc, tau = tau)$points)
    pd$d / (tau * DT[pd$ij])
  }
  r1 <- ratio(1)
  r2 <- ratio(2)
  # the tree path is a broken geodesic of length tau * d_T: never shorter
  expect_true(all(r1 <= 1 + 1e-10))
  expect_true(all(r2 <= 1 + 1e-5))       # 16 from the origin: distances to about 1e-5
  # measured minima 0.401 (tau = 1) and 0.834 (tau = 2); edges are geodesics
  expect_true(all(r1[DT[upper.tri(DT)] == 1] > 1 - 1e-10))
  expect_gt(min(r1), 0.38)
  expect_gt(min(r2), 0.82)
  expect_gt(min(r2), min(r1) + 0.3)

  # a shallow tree of degree up to 5 (smallest angle between edges at a
  # node 2 pi / 5): Sarkar's regime. For nodes k edges apart the loss
  # k tau - d_H tends, per turn of the path, to at most -2 log sin(pi / 5) =
  # 1.063 as tau grows; measured worst loss per turn 1.51 (tau = 2), 1.111
  # (tau = 4), and worst ratio d_H / (k tau) 0.434 and 0.792.
  parent <- c(NA, rep(1, 5), rep(2:6, each = 4), rep(7:26, each = 2))
  loss_per_turn <- function(tau) {
    e <- hyperbolic_embedding(parent, tau = tau)
    DT <- tree_dist(e$parent)
    pd <- pair_dist(e$points)
    k <- DT[pd$ij]
    loss <- tau * k - pd$d
    expect_true(all(loss > -1e-6))       # 12 from the origin at tau = 4: distances to about 1e-8
    list(turn = max((loss / (k - 1))[k >= 2]), ratio = min(pd$d / (tau * k)))
  }
  l2 <- loss_per_turn(2)
  l4 <- loss_per_turn(4)
  asymptote <- -2 * log(sin(pi / 5))
  expect_lt(l4$turn, asymptote + 0.08)
  expect_gt(l4$turn, asymptote)
  expect_gt(l2$turn, l4$turn + 0.3)
  expect_gt(l4$ratio, 0.78)
  expect_gt(l4$ratio, 1 - l4$turn / 4)  # k tau - (k - 1) * turn over k tau
})

test_that("hclust, merge matrix and parent vector give the same embedding", {
  hc <- eurotree()
  e1 <- hyperbolic_embedding(hc, tau = 0.7)
  e2 <- hyperbolic_embedding(hc$merge, tau = 0.7, labels = hc$labels)
  expect_identical(e1, e2)
  # the same tree as a parent vector (children then placed in index order)
  e3 <- hyperbolic_embedding(e1$parent, tau = 0.7)
  expect_identical(e3$parent, e1$parent)
  expect_identical(e3$depth, e1$depth)
  expect_identical(rownames(hyperbolic_embedding(hc$merge, tau = 0.7)$points)[1:3], c("1", "2", "3"))
  # a single edge
  e <- hyperbolic_embedding(c(0, 1), tau = 2)
  expect_equal(unname(e$points[2, ]), c(cosh(2), sinh(2), 0))
  # a single node
  e <- hyperbolic_embedding(NA, tau = 2)
  expect_equal(unname(e$points), matrix(c(1, 0, 0), 1))
  expect_identical(e$leaf, TRUE)
})

test_that("bad trees and tau raise classed errors naming the argument", {
  hc <- eurotree()
  expect_error(hyperbolic_embedding(hc, tau = 0), class = "dpmanifold_error", regexp = "`tau`")
  expect_error(hyperbolic_embedding(hc, tau = NA), class = "dpmanifold_error", regexp = "`tau`")
  expect_error(hyperbolic_embedding(hc, tau = 3), class = "dpmanifold_not_representable", regexp = "`tau`")
  expect_error(hyperbolic_embedding(hc, tau = 100), class = "dpmanifold_not_representable", regexp = "`tau`")
  expect_error(hyperbolic_embedding("a"), class = "dpmanifold_error", regexp = "`tree`")
  expect_error(hyperbolic_embedding(c(0, 1, 0)), class = "dpmanifold_error", regexp = "one root")
  expect_error(hyperbolic_embedding(c(0, 3, 2)), class = "dpmanifold_error", regexp = "cycle")
  expect_error(hyperbolic_embedding(c(0, 5)), class = "dpmanifold_error", regexp = "`tree`")
  expect_error(hyperbolic_embedding(c(0, 1.5)), class = "dpmanifold_error", regexp = "`tree`")
  bad <- hc$merge
  bad[2, 1] <- bad[1, 1]
  expect_error(hyperbolic_embedding(bad), class = "dpmanifold_error", regexp = "merge")
  bad <- hc$merge
  bad[1, 1] <- 5L                     # refers to a later merge step
  expect_error(hyperbolic_embedding(bad), class = "dpmanifold_error", regexp = "merge")
  expect_error(hyperbolic_embedding(hc, labels = letters[1:3]), class = "dpmanifold_error", regexp = "`labels`")
})

test_that("the largest accepted tau gives points of hyperbolic(2) with edges of length tau by its distance", {
  # tau = 2 on the 8-deep eurodist tree: nodes up to 16 from the origin
  e <- hyperbolic_embedding(eurotree(), tau = 2)
  H2 <- hyperbolic(2)
  expect_true(all(mfd_belongs(H2, e$points, 1e-12)))
  ch <- which(!is.na(e$parent))
  # the package's distance resolves every edge to rounding (measured 6e-12),
  # far below the 1e-4 tau the textbook chord is held to
  expect_lt(max(abs(mfd_dist(H2, e$points[ch, ], e$points[e$parent[ch], ]) - 2)), 1e-9)
  # the edge boost is hyperbolic()'s: a child of the root is exp_o of tau e_1 turned
  kid <- e$points[which(e$parent == e$root)[1], ]
  expect_equal(mfd_dist(H2, c(1, 0, 0), kid), 2, tolerance = 1e-14)
  expect_equal(unname(kid), c(cosh(2), sinh(2), 0), tolerance = 1e-14)
})
