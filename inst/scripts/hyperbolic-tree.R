# A worked example on hyperbolic(2): the dendrogram of a public data set
# embedded in the hyperbolic plane by Sarkar's construction, then a private
# Frechet mean of its leaves and what epsilon costs.
#
#   Rscript inst/scripts/hyperbolic-tree.R [out.png]
#
# Data: USArrests (base R's datasets package: arrest rates per 100,000 by US
# state, 1973), standardised; average-linkage hclust dendrogram, 50 leaves.
#
# Construction (Sarkar 2011, "Low distortion Delaunay embedding of trees in
# hyperbolic plane"): the root sits at the origin; a node at x whose parent
# lies in direction phi (in T_x H^2) and which has k children places them at
# geodesic distance tau in the directions phi + 2 pi j / (k + 1), j = 1..k
# (the root: 2 pi j / k), so that the subtrees lie in disjoint cones.
# Hyperbolic distances between embedded leaves approach tau times the number
# of tree edges between them as tau grows (the distortion printed below);
# larger tau needs more precision (a point at distance t from the origin has
# coordinates ~ e^t / 2), so tau is moderate here.
# Every geometric step is dpmanifold's mfd_exp / mfd_log on hyperbolic(2).

suppressPackageStartupMessages(library(dpmanifold))
args <- commandArgs(trailingOnly = TRUE)
out_png <- if (length(args)) args[1] else NULL

H2 <- hyperbolic(2)
hc <- stats::hclust(stats::dist(scale(datasets::USArrests)), method = "average")
n_leaf <- length(hc$order)
# nodes: leaves 1..n, internal merge i as node n + i; the root is the last merge
node_of <- function(m) ifelse(m < 0, -m, n_leaf + m)
children <- lapply(seq_len(n_leaf - 1), function(i) node_of(hc$merge[i, ]))
root <- n_leaf + (n_leaf - 1)
parent <- integer(2 * n_leaf - 1)
depth <- numeric(2 * n_leaf - 1)
for (i in (n_leaf - 1):1) for (k in children[[i]]) {
  parent[k] <- n_leaf + i
  depth[k] <- depth[n_leaf + i] + 1
}
# tree (path) distance between two nodes: number of edges
tree_dist <- function(a, b) {
  anc <- function(v) { out <- v; while (parent[v] > 0) { v <- parent[v]; out <- c(out, v) }; out }
  A <- anc(a); B <- anc(b)
  lca <- A[A %in% B][1]
  depth[a] + depth[b] - 2 * depth[lca]
}
DT <- outer(seq_len(n_leaf), seq_len(n_leaf), Vectorize(tree_dist))

# Sarkar's construction with every edge of hyperbolic length tau
embed <- function(tau) {
  pos <- matrix(NA_real_, 2 * n_leaf - 1, 3)
  pos[root, ] <- c(1, 0, 0)
  for (i in (n_leaf - 1):1) {                  # parents before children
    node <- n_leaf + i
    p <- pos[node, ]
    B <- mfd_tangent_basis(H2, p)
    kids <- children[[i]]
    if (node == root) {
      angles <- 2 * pi * seq_along(kids) / length(kids)
    } else {
      u <- mfd_log(H2, p, pos[parent[node], ])    # direction to the parent, in the basis at p
      phi <- atan2(mfd_inner(H2, p, u, B[2, ]), mfd_inner(H2, p, u, B[1, ]))
      angles <- phi + 2 * pi * seq_along(kids) / (length(kids) + 1)
    }
    for (j in seq_along(kids)) pos[kids[j], ] <- mfd_exp(H2, p, tau * (cos(angles[j]) * B[1, ] + sin(angles[j]) * B[2, ]))
  }
  pos
}

ut <- upper.tri(DT)
cat(sprintf("USArrests average-linkage dendrogram: %d leaves, depth %d\n", n_leaf, max(depth)))
cat("leaf-pair hyperbolic distance / (tau x tree distance), i.e. the distortion of the embedding:\n")
for (tau in c(1, 1.5, 2)) {   # tau x depth 12 stays below distance 28.3 (x0 <= 1e12)
  DH <- mfd_dist_matrix(H2, embed(tau)[seq_len(n_leaf), ])
  r <- DH[ut] / (tau * DT[ut])
  cat(sprintf("  tau = %g: median %.3f, range [%.3f, %.3f]\n", tau, stats::median(r), min(r), max(r)))
}
tau <- 2
pos <- embed(tau)
leaves <- pos[seq_len(n_leaf), ]
rownames(leaves) <- hc$labels

# private Frechet mean of the 50 leaves. Public ball: the root, and tau
# times a public cap on the depth of the tree (12 here): every embedded node
# is within tau x depth of the root.
center <- c(1, 0, 0)
radius <- tau * 12
fm <- frechet_mean(H2, leaves)$mean
cat(sprintf("\nnon-private Frechet mean of the leaves: (%s), %.3f from the root\n",
            paste(sprintf("%.4f", fm), collapse = ", "), mfd_dist(H2, center, fm)))
set.seed(2026)
cat("mean geodesic error of the private mean (100 releases each):\n")
for (eps in c(0.5, 1, 2, 5, 10)) {
  for (mech in c("laplace", "kng", "wrapped_laplace", "euclidean_laplace")) {
    err <- tryCatch(replicate(100, {
      rel <- dp_frechet_mean(H2, leaves, epsilon = eps, mechanism = mech, center = center, radius = radius)
      mfd_dist(H2, fm, rel$estimate)
    }), dpmanifold_not_representable = function(e) "refused: noise beyond double precision (ambient radius ~ e^r)",
    dpmanifold_sampler_error = function(e) "refused: the exact sampler's public bound on proposals exceeds 1e7")
    cat(sprintf("  epsilon = %-4g %-18s %s\n", eps, mech, if (is.character(err)) err else sprintf("%.3f", mean(err))))
  }
}

if (!is.null(out_png)) {
  grDevices::png(out_png, width = 900, height = 900, res = 130)
  # epsilon = 5; the non-private mean is stored for the picture only (the
  # release is then marked not private and warns)
  rel <- suppressWarnings(dp_frechet_mean(H2, leaves, epsilon = 5, center = center, radius = radius,
                                          return_nonprivate = TRUE))
  plot(rel, data = leaves, main = "USArrests dendrogram in the Poincare disc (tau = 2)")
  # the tree's edges as geodesic segments
  for (i in seq_along(children)) for (k in children[[i]]) {
    seg <- mfd_exp(H2, pos[n_leaf + i, ], outer(seq(0, 1, length.out = 30), mfd_log(H2, pos[n_leaf + i, ], pos[k, ])))
    graphics::lines(hyperbolic_to_poincare(seg), col = "grey75")
  }
  b <- hyperbolic_to_poincare(leaves)
  graphics::text(b, labels = abbreviate(rownames(leaves), 4), cex = 0.45, pos = 3, col = "grey30")
  grDevices::dev.off()
  cat("plot written to", out_png, "\n")
}
