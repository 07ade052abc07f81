# Hyperbolic embedding of a rooted tree in the hyperbolic plane (hyperboloid
# model, the layout of hyperbolic(2)) by Sarkar's combinatorial construction.
# The boost is hyperbolic()'s own (hyperbolic_boost(), R/dp_frechet_mean.R);
# the rotation of the tangent plane at the origin and the textbook chord
# distance of the precision check are local (see there).

#' Hyperbolic embedding of a tree (Sarkar's construction)
#'
#' Places every node of a rooted tree (leaves and internal nodes) in the
#' hyperbolic plane so that every edge is a geodesic segment of length `tau`
#' and, at every node, the edges leave in equally spaced directions. The
#' root sits at the origin \eqn{(1, 0, 0)} with its \eqn{k} children at
#' angles \eqn{2\pi j / k}; a node of degree \eqn{k} (its parent edge and
#' \eqn{k - 1} children) places child \eqn{j} at the angle \eqn{2\pi j / k}
#' measured from the direction of its parent edge, so the children share the
#' full angle left free by the parent edge, in the order given, turning
#' counter-clockwise (the leaves of an `hclust` tree come out around the
#' disc in dendrogram order).
#'
#' Points are in the hyperboloid model: \eqn{x \in R^3} with Minkowski form
#' \eqn{\langle x, y\rangle = -x_0 y_0 + x_1 y_1 + x_2 y_2}, on the upper
#' sheet \eqn{\langle x, x\rangle = -1}, \eqn{x_0 > 0}, the layout of
#' `hyperbolic(2)`; the hyperbolic distance is
#' \eqn{\mathrm{arcosh}(-\langle x, y\rangle)}. Poincare-disc coordinates
#' are \eqn{(x_1, x_2) / (1 + x_0)}.
#'
#' The construction is combinatorial: edge lengths are all `tau`, whatever
#' the merge heights of an `hclust` tree. Hyperbolic distances then follow
#' tree distances: for nodes \eqn{k} edges apart, \eqn{d_H \le k\tau} (the
#' tree path is a broken geodesic) and the deficit \eqn{k\tau - d_H} is a
#' bounded loss per turn of the path, about
#' \eqn{-2\log\sin(\theta/2)} for a turn of angle \eqn{\theta} once `tau` is
#' large; so \eqn{d_H / (k\tau) \to 1} as `tau` grows (Sarkar 2011:
#' distortion \eqn{1 + \varepsilon} for `tau` of order
#' \eqn{\log(\mathrm{degree}) / \varepsilon}). Large `tau` pushes the nodes
#' towards the boundary of the Poincare disc (a node at depth \eqn{D} sits at
#' Euclidean radius \eqn{\tanh(D\tau/2)}) and costs precision: hyperboloid
#' coordinates grow like \eqn{e^{D\tau}}, and the textbook Minkowski formulas
#' resolve distances between neighbouring nodes there only to about
#' \eqn{10^{-16} e^{2D\tau}} (Sala et al. 2018 discuss this trade-off;
#' `mfd_dist()` on `hyperbolic(2)` does better, about
#' \eqn{10^{-16} e^{D\tau}}). So that the points are usable by any
#' hyperboloid software, the construction measures every edge with the
#' textbook chord formula and refuses, with a classed error
#' (`dpmanifold_not_representable`), a `tau` for which any comes out wrong
#' by more than \eqn{10^{-4}\tau}; on a tree 8 levels deep that is
#' `tau` above about 2.
#'
#' @param tree The tree: an `hclust` object (e.g. from [stats::hclust()]),
#'   a merge matrix in the `hclust` convention (n - 1 rows, negative entries
#'   are leaves), or a vector of parents for a general rooted tree
#'   (`tree[i]` is the index of the parent of node `i`, `0` or `NA` for the
#'   single root; children are placed in increasing index order).
#' @param tau Length of every edge, a positive number (the scaling factor of
#'   Sarkar's construction).
#' @param labels Optional names of the leaves (`hclust` or merge input) or of
#'   all nodes (parent vector input). By default the `hclust` labels, else
#'   the leaf numbers.
#' @return A list with
#'   * `points`: an N x 3 matrix of hyperboloid coordinates, one node per row.
#'     For `hclust`/merge input the n leaves come first (rows named by their
#'     labels), then the internal nodes in merge order, named `"node1"`, ...,
#'     `"node<n-1>"` (row `n + i` is the cluster formed at merge step `i`; the
#'     root is the last row).
#'   * `parent`: integer row index of each node's parent (`NA` for the root).
#'   * `depth`: number of edges from the root.
#'   * `leaf`: `TRUE` for nodes without children.
#'   * `root`: the row of the root; `tau`: the edge length.
#' @references Sarkar, R. (2011). Low distortion Delaunay embedding of trees
#'   in hyperbolic plane. *Graph Drawing (GD 2011)*, LNCS 7034, 355-366.
#'
#'   Sala, F., De Sa, C., Gu, A. and Re, C. (2018). Representation tradeoffs
#'   for hyperbolic embeddings. *ICML 2018* (the construction with a scaling
#'   factor and its precision).
#' @seealso `hyperbolic()` for the manifold these points live on, and the
#'   vignette `vignette("hyperbolic", package = "dpmanifold")`.
#' @examples
#' hc <- hclust(as.dist(eurodist), method = "average")
#' emb <- hyperbolic_embedding(hc, tau = 1)
#' head(emb$points)
#' # every node on the upper sheet: -x0^2 + x1^2 + x2^2 = -1
#' range(-emb$points[, 1]^2 + rowSums(emb$points[, -1]^2))
#' # the Poincare disc
#' B <- emb$points[, 2:3] / (1 + emb$points[, 1])
#' plot(cos(seq(0, 2 * pi, length.out = 200)), sin(seq(0, 2 * pi, length.out = 200)),
#'      type = "l", asp = 1, axes = FALSE, xlab = "", ylab = "")
#' child <- which(!is.na(emb$parent))
#' segments(B[child, 1], B[child, 2], B[emb$parent[child], 1], B[emb$parent[child], 2])
#' points(B[emb$leaf, ], pch = 16, col = "red")
#' @export
hyperbolic_embedding <- function(tree, tau = 1, labels = NULL) {
  check_required("tree")
  check_positive_number(tau, "tau")
  tr <- tree_parents(tree, labels)
  N <- length(tr$parent)
  depth <- tree_depths(tr$parent, tr$children, tr$root)
  if (max(depth) * tau > 40) tree_precision_error(max(depth), tau)
  # Each node carries a Lorentz matrix G whose columns are the node, the unit
  # tangent towards its parent and that tangent turned by +90 degrees; a
  # child of p at angle theta from the parent direction has
  # G_child = G_p R(theta) B(tau) R(pi), with R a rotation of the tangent
  # plane at the origin and B the boost by tau along the first axis. (The
  # R(pi) turns the transported frame round, so orientation is kept and
  # children follow each other counter-clockwise everywhere.)
  G <- vector("list", N)
  r <- tr$root
  G[[r]] <- diag(3)
  # B(tau): the boost taking the origin to (cosh tau, sinh tau, 0)
  boost_flip <- hyperbolic_boost(c(cosh(tau), sinh(tau), 0), diag(3)) %*% lorentz_rotation(pi)
  # parents before children (breadth first)
  for (p in bfs_order(tr$children, r)) {
    kids <- tr$children[[p]]
    if (!length(kids)) next
    is_root <- p == r
    k <- length(kids) + !is_root         # degree of p
    theta <- 2 * pi * (seq_along(kids) - is_root) / k
    Gp <- G[[p]]
    for (j in seq_along(kids)) G[[kids[j]]] <- Gp %*% lorentz_rotation(theta[j]) %*% boost_flip
  }
  P <- t(vapply(G, function(g) g[, 1], numeric(3)))
  P[, 1] <- sqrt(1 + P[, 2]^2 + P[, 3]^2)  # on the sheet to rounding
  dimnames(P) <- list(tr$names, c("x0", "x1", "x2"))
  ch <- which(!is.na(tr$parent))
  # Deliberately the textbook chord formula, not mfd_dist(): the check is
  # that the coordinates resolve the edges for any hyperboloid software
  # (precision ~1e-16 e^(2 D tau), as documented). The package's own distance
  # resolves them far better (eurodist tree: edge errors 1e-8 at tau = 3,
  # 5e-6 at tau = 4), so it would not refuse these tau.
  err <- if (length(ch)) max(abs(minkowski_dist(P[ch, , drop = FALSE], P[tr$parent[ch], , drop = FALSE]) - tau)) else 0
  if (!(err <= 1e-4 * tau)) tree_precision_error(max(depth), tau, err)
  list(points = P, parent = tr$parent, depth = depth, leaf = lengths(tr$children) == 0L,
       root = r, tau = tau)
}

tree_precision_error <- function(depth, tau, err = NULL, call = sys.call(-1)) {
  abort_arg("tau", sprintf(paste("is too large for this tree in double precision: nodes %d edges deep lie at distance %g from the origin,",
                                 "where hyperboloid coordinates resolve distances by the textbook Minkowski formulas only to about 2e-16 * exp(2 * %g)%s; use a smaller tau"),
                           depth, depth * tau, depth * tau,
                           if (is.null(err)) "" else sprintf(" (edge lengths by the Minkowski chord are off by up to %.2g)", err)),
            call, class = "dpmanifold_not_representable")
}

# --- Minkowski helpers -----------------------------------------------------------

# Hyperbolic distance between rows of X and Y, computed from the
# Minkowski chord length |x - y|_L = 2 sinh(d / 2): no cancellation near 0,
# unlike acosh(-<x, y>), but <D, D> still cancels far from the origin (error
# ~1e-16 x0^2; hyperbolic()'s C++ distance avoids that, chord_length()).
minkowski_dist <- function(X, Y) {
  D <- X - Y
  q <- pmax(rowSums(D[, -1, drop = FALSE]^2) - D[, 1]^2, 0)   # <D, D>, Minkowski
  2 * asinh(sqrt(q) / 2)
}

# Lorentz rotation by theta of the tangent plane at the origin (1, 0, 0).
lorentz_rotation <- function(theta) {
  matrix(c(1, 0, 0, 0, cos(theta), sin(theta), 0, -sin(theta), cos(theta)), 3L)
}

# --- trees -----------------------------------------------------------------------

# Parent vector, children lists (in placement order), root and node names of
# an hclust object, a merge matrix, or a parent vector.
tree_parents <- function(tree, labels, call = sys.call(-1)) {
  if (inherits(tree, "hclust")) {
    merge <- tree$merge
    if (is.null(labels)) labels <- tree$labels
    return(merge_parents(merge, labels, call))
  }
  if (is.matrix(tree)) return(merge_parents(tree, labels, call))
  if (!(is.numeric(tree) || is.logical(tree)) || length(tree) == 0L || !is.null(dim(tree))) {
    abort_arg("tree", "must be an hclust object, a merge matrix or a vector of parent indices", call)
  }
  parent <- as.numeric(tree)
  parent[!is.na(parent) & parent == 0] <- NA
  N <- length(parent)
  ok <- is.na(parent) | (is.finite(parent) & parent == round(parent) & parent >= 1 & parent <= N)
  if (!all(ok)) abort_arg("tree", sprintf("must hold parent indices in 1..%d, or 0 / NA for the root (entry %d is %s)", N, which(!ok)[1], format(tree[which(!ok)[1]])), call)
  parent <- as.integer(parent)
  root <- which(is.na(parent))
  if (length(root) != 1L) abort_arg("tree", sprintf("must have exactly one root (0 or NA), not %d", length(root)), call)
  children <- split(seq_len(N), factor(parent, levels = seq_len(N)))
  names(children) <- NULL
  if (!is.null(labels) && length(labels) != N) abort_arg("labels", sprintf("must have one name per node (%d)", N), call)
  nm <- if (is.null(labels)) as.character(seq_len(N)) else as.character(labels)
  d <- tree_depths(parent, children, root)
  if (anyNA(d)) abort_arg("tree", sprintf("must be a tree: node %d does not lead to the root (a cycle)", which(is.na(d))[1]), call)
  list(parent = parent, children = children, root = root, names = nm)
}

merge_parents <- function(merge, labels, call) {
  if (!(is.numeric(merge) && ncol(merge) == 2L && nrow(merge) >= 1L && all(is.finite(merge)) && all(merge == round(merge)))) {
    abort_arg("tree", "must be an hclust object or a merge matrix: n - 1 rows of 2 whole numbers", call)
  }
  n <- nrow(merge) + 1L
  N <- 2L * n - 1L
  idx <- ifelse(merge < 0, -merge, n + merge)
  valid <- (merge < 0 & -merge <= n) | (merge > 0 & merge < row(merge))
  if (!all(valid) || anyDuplicated(as.vector(idx))) {
    abort_arg("tree", "is not a valid merge matrix: each leaf -1..-n and each earlier merge step must appear exactly once", call)
  }
  parent <- rep(NA_integer_, N)
  parent[as.vector(idx)] <- rep(n + seq_len(n - 1L), 2L)
  children <- c(rep(list(integer()), n), lapply(seq_len(n - 1L), function(i) as.integer(idx[i, ])))
  if (!is.null(labels) && length(labels) != n) abort_arg("labels", sprintf("must have one name per leaf (%d)", n), call)
  leaf_names <- if (is.null(labels)) as.character(seq_len(n)) else as.character(labels)
  list(parent = parent, children = children, root = N,
       names = c(leaf_names, paste0("node", seq_len(n - 1L))))
}

# Depth (edges from the root) of every node; NA for nodes the root does not reach.
tree_depths <- function(parent, children, root) {
  depth <- rep(NA_integer_, length(parent))
  depth[root] <- 0L
  for (p in bfs_order(children, root)) {
    kids <- children[[p]]
    if (length(kids)) depth[kids] <- depth[p] + 1L
  }
  depth
}

# The nodes the root reaches, breadth first (every parent before its
# children), through a preallocated queue with head and tail pointers:
# linear in N (dropping the head with queue[-1L] copied the queue at every
# node: 41 s for a star of 4e4 nodes). Each node has one parent, so it is
# queued at most once.
bfs_order <- function(children, root) {
  queue <- integer(length(children))
  queue[1L] <- root
  head <- 1L
  tail <- 1L
  while (head <= tail) {
    kids <- children[[queue[head]]]
    head <- head + 1L
    if (length(kids)) {
      queue[tail + seq_along(kids)] <- kids
      tail <- tail + length(kids)
    }
  }
  queue[seq_len(tail)]
}
