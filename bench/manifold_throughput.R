# Throughput of exp / log / dist through the R API of dpmanifold, against a
# plain-R implementation of the same formulas (vectorised over points where
# that is natural: Euclidean, sphere, Kendall, hyperbolic; eigen() per point
# for SPD).
#
#   Rscript bench/manifold_throughput.R
#
# Then one point against many (mfd_log(M, p, X), mfd_dist(M, p, X): a batch
# pass) against the pairwise maps with p repeated.
#
# Prints calls per second and ratios measured in this run; asserts nothing.

suppressPackageStartupMessages(library(dpmanifold))
# bench-utils.R sits beside this script (run as `Rscript bench/<name>.R`)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", c(commandArgs(FALSE), "--file=bench/x"), value = TRUE)[1])), "bench-utils.R"))
set.seed(1)
N <- 1e4          # points per vectorised call
N_SCALAR <- 2000  # single-point calls for the scalar API


# ---------------------------------------------------------------- plain R

# k x 2 x n preshapes as a complex k x n matrix
cplx <- function(P) matrix(P[, 1, ] + 1i * P[, 2, ], dim(P)[1])

plain <- list(
  euclidean = list(
    exp = function(P, V) P + V,
    log = function(P, Q) Q - P,
    dist = function(P, Q) sqrt(rowSums((Q - P)^2))
  ),
  sphere = list(
    exp = function(P, V) {
      nv <- sqrt(rowSums(V^2))
      s <- ifelse(nv > 0, sin(nv) / nv, 1)
      cos(nv) * P + s * V
    },
    log = function(P, Q) {
      d <- rowSums(P * Q)
      U <- Q - d * P
      nu <- sqrt(rowSums(U^2))
      th <- atan2(nu, d)
      ifelse(nu > 0, th / nu, 1) * U
    },
    dist = function(P, Q) {
      d <- rowSums(P * Q)
      atan2(sqrt(rowSums((Q - d * P)^2)), d)
    }
  ),
  spd_affine_invariant = list(
    exp = function(P, V) {
      out <- P
      for (i in seq_len(dim(P)[3])) {
        e <- eigen(P[, , i], symmetric = TRUE)
        ph <- e$vectors %*% (sqrt(e$values) * t(e$vectors))
        pih <- e$vectors %*% (1 / sqrt(e$values) * t(e$vectors))
        out[, , i] <- ph %*% sym_fun(pih %*% V[, , i] %*% pih, exp) %*% ph
      }
      out
    },
    log = function(P, Q) {
      out <- P
      for (i in seq_len(dim(P)[3])) {
        e <- eigen(P[, , i], symmetric = TRUE)
        ph <- e$vectors %*% (sqrt(e$values) * t(e$vectors))
        pih <- e$vectors %*% (1 / sqrt(e$values) * t(e$vectors))
        out[, , i] <- ph %*% sym_fun(pih %*% Q[, , i] %*% pih, log) %*% ph
      }
      out
    },
    dist = function(P, Q) {
      vapply(seq_len(dim(P)[3]), function(i) {
        pih <- sym_fun(P[, , i], function(x) 1 / sqrt(x))
        sqrt(sum(log(eigen(pih %*% Q[, , i] %*% pih, symmetric = TRUE, only.values = TRUE)$values)^2))
      }, numeric(1))
    }
  ),
  spd_log_euclidean = list(
    # exp_p(v) = Exp(Log p + dLog_p[v]); log_p(q) = dExp_{Log p}[Log q - Log p]
    # (Daleckii-Krein divided differences in the eigenbasis of p)
    exp = function(P, V) {
      out <- P
      for (i in seq_len(dim(P)[3])) {
        e <- eigen(P[, , i], symmetric = TRUE)
        U <- e$vectors; l <- e$values
        dd <- outer(l, l, function(a, b) ifelse(abs(a - b) > 1e-12, (log(a) - log(b)) / (a - b), 1 / a))
        W <- U %*% ((t(U) %*% V[, , i] %*% U) * dd) %*% t(U)
        out[, , i] <- sym_fun(U %*% (log(l) * t(U)) + W, exp)
      }
      out
    },
    log = function(P, Q) {
      out <- P
      for (i in seq_len(dim(P)[3])) {
        e <- eigen(P[, , i], symmetric = TRUE)
        U <- e$vectors; a <- log(e$values)
        H <- sym_fun(Q[, , i], log) - U %*% (a * t(U))
        dd <- outer(a, a, function(x, y) ifelse(abs(x - y) > 1e-12, (exp(x) - exp(y)) / (x - y), exp(x)))
        out[, , i] <- U %*% ((t(U) %*% H %*% U) * dd) %*% t(U)
      }
      out
    },
    dist = function(P, Q) {
      vapply(seq_len(dim(P)[3]), function(i) sqrt(sum((sym_fun(P[, , i], log) - sym_fun(Q[, , i], log))^2)), numeric(1))
    }
  ),
  kendall_shape = list(
    # preshapes as complex k x n matrices; the sphere formulas after optimal rotation
    exp = function(P, V) {
      Z <- cplx(P); W <- cplx(V)
      nv <- sqrt(colSums(Mod(W)^2))
      s <- ifelse(nv > 0, sin(nv) / nv, 1)
      R <- sweep(Z, 2, cos(nv), `*`) + sweep(W, 2, s, `*`)
      array(c(Re(R), Im(R)), dim(P)[c(1, 3, 2)])
    },
    log = function(P, Q) {
      Z <- cplx(P); W <- cplx(Q)
      ip <- colSums(Conj(Z) * W)
      a <- Mod(ip)
      Ws <- sweep(W, 2, ifelse(a > 0, Conj(ip) / a, 1), `*`)   # <z, w*> = |<z, w>|
      U <- Ws - sweep(Z, 2, a, `*`)
      nu <- sqrt(colSums(Mod(U)^2))
      R <- sweep(U, 2, ifelse(nu > 0, atan2(nu, a) / nu, 1), `*`)
      array(c(Re(R), Im(R)), dim(P)[c(1, 3, 2)])
    },
    dist = function(P, Q) {
      Z <- cplx(P); W <- cplx(Q)
      acos(pmin(1, Mod(colSums(Conj(Z) * W))))
    }
  )
)
# hyperboloid model, the textbook formulas (those of GeodRegr), vectorised:
# mink(x, y) = -x0 y0 + x1 y1 + ...
mink <- function(X, Y) rowSums(X * Y) - 2 * X[, 1] * Y[, 1]
plain$hyperbolic <- list(
  exp = function(P, V) {
    nv <- sqrt(pmax(mink(V, V), 0))
    s <- ifelse(nv > 0, sinh(nv) / nv, 1)
    cosh(nv) * P + s * V
  },
  log = function(P, Q) {
    a <- pmin(mink(P, Q), -1)
    U <- Q + a * P
    nu <- sqrt(pmax(mink(U, U), 0))
    ifelse(nu > 0, acosh(-a) / nu, 1) * U
  },
  dist = function(P, Q) acosh(pmax(-mink(P, Q), 1))
)

# the plain Kendall exp/log return k x n x 2; put them back in the k x 2 x n layout
for (op in c("exp", "log")) {
  f <- plain$kendall_shape[[op]]
  plain$kendall_shape[[op]] <- local({ g <- f; function(P, Q) aperm(g(P, Q), c(1, 3, 2)) })
}

# ---------------------------------------------------------------- data
take <- function(M, X, i) if (is.null(M$point_dim)) X[i, , drop = FALSE] else X[, , i, drop = FALSE]
one <- function(M, X, i) if (is.null(M$point_dim)) X[i, ] else X[, , i]

cases <- list(
  "euclidean(3)" = euclidean(3),
  "sphere(2)" = sphere(2),
  "spd(5) affine-invariant" = spd(5),
  "spd(5) log-Euclidean" = spd(5, "log_euclidean"),
  "kendall_shape(20)" = kendall_shape(20),
  "hyperbolic(2)" = hyperbolic(2),
  "hyperbolic(10)" = hyperbolic(10)
)

cat(sprintf("dpmanifold %s, R %s; N = %d points per vectorised call, %d scalar calls\n",
            utils::packageVersion("dpmanifold"), getRversion(), N, N_SCALAR))
cat(sprintf("%-24s %-4s %12s %12s %12s %12s %12s %9s %9s %9s %9s\n", "manifold", "op", "C++ core/s", "vec API/s",
            "scalar API/s", "plain R/s", "plain 1pt/s", "core/pl", "vec/plain", "scal/pl.1", "max|diff|"))
for (nm in names(cases)) {
  M <- cases[[nm]]
  P <- mfd_random_point(M, N)
  V <- mfd_random_tangent(M, P, N)
  # moderate lengths so that every log is well inside the injectivity radius
  nv <- mfd_norm(M, P, V)
  len <- stats::runif(N, 0.1, if (M$injectivity_radius < Inf) 0.4 * M$injectivity_radius else 1.5)
  V <- if (is.null(M$point_dim)) V * (len / nv) else sweep(V, 3, len / nv, `*`)
  Q <- mfd_exp(M, P, V)
  pl <- plain[[M$type]]
  # plain-R SPD is a loop over points: time it on a subsample and scale
  n_plain <- if (grepl("^spd", M$type)) 1000 else N
  Ps <- take(M, P, seq_len(n_plain)); Vs <- take(M, V, seq_len(n_plain)); Qs <- take(M, Q, seq_len(n_plain))
  for (op in c("exp", "log", "dist")) {
    api <- switch(op, exp = function(a, b) mfd_exp(M, a, b), log = function(a, b) mfd_log(M, a, b),
                  dist = function(a, b) mfd_dist(M, a, b))
    second <- if (op == "exp") V else Q
    second_s <- if (op == "exp") Vs else Qs
    t_vec <- time_it(function() api(P, second))
    # the C++ core behind the API, on the ambient D x N matrices (no checks)
    A <- dpmanifold:::to_ambient(M, P, "P"); B <- dpmanifold:::to_ambient(M, second, "B")
    t_core <- time_it(if (op == "dist") function() dpmanifold:::cpp_dist(M, A, B) else function() dpmanifold:::cpp_binary_op(M, op, A, B))
    t_sc <- time_it(function() for (i in seq_len(N_SCALAR)) api(one(M, P, i), one(M, second, i)), min_time = 0.5)
    t_pl <- time_it(function() pl[[op]](Ps, second_s))
    t_pls <- time_it(function() for (i in seq_len(N_SCALAR %/% 4)) pl[[op]](take(M, P, i), take(M, second, i)), min_time = 0.5)
    # the two implementations agree
    diff <- max(abs(as.vector(api(Ps, second_s)) - as.vector(pl[[op]](Ps, second_s))))
    r_vec <- N / t_vec; r_sc <- N_SCALAR / t_sc; r_pl <- n_plain / t_pl; r_pls <- (N_SCALAR %/% 4) / t_pls
    r_core <- N / t_core
    cat(sprintf("%-24s %-4s %12.3g %12.3g %12.3g %12.3g %12.3g %8.1fx %8.1fx %8.1fx %9.1e\n", nm, op, r_core, r_vec, r_sc, r_pl, r_pls,
                r_core / r_pl, r_vec / r_pl, r_sc / r_pls, diff))
  }
}
cat("rates are point evaluations per second; core/pl: C++ core (dpmanifold:::cpp_binary_op / cpp_dist, no input checks) over plain R\n")
cat("vec/plain: vectorised R API (one call on N points) over plain R (vectorised where natural, eigen() loop for SPD)\n")
cat("scal/pl.1: scalar R API (one point per call) over the plain-R formula called on one point\n")

# ------------------------------------------------ one point against many
# mfd_log(M, p, X) and mfd_dist(M, p, X) with a single p run the batch
# passes of the C++ core (both cores, the frame at p built once per block).
# Baseline, in the core (no input checks on either side): the same maps with
# p repeated N times, which run the pairwise maps one point at a time, as a
# single p did before (same results to 1e-12; tests/testthat/test-batch.R).
cat("\none point against N: C++ core, batch pass vs pairwise maps (seconds per call, ratio); R API with one p\n")
for (nm in names(cases)) {
  M <- cases[[nm]]
  X <- mfd_random_point(M, N)
  p <- one(M, X, 1)
  B <- dpmanifold:::to_ambient(M, X, "X")
  A1 <- B[, 1, drop = FALSE]
  AN <- A1[, rep(1L, N), drop = FALSE]
  for (op in c("log", "dist")) {
    core <- if (op == "log") function(A) dpmanifold:::cpp_binary_op(M, "log", A, B) else function(A) dpmanifold:::cpp_dist(M, A, B)
    api <- if (op == "log") function() mfd_log(M, p, X) else function() mfd_dist(M, p, X)
    t_one <- time_it(function() core(A1))
    t_rep <- time_it(function() core(AN))
    t_api <- time_it(api)
    cat(sprintf("%-24s %-4s batch %.4f s  pairwise %.4f s  %5.2fx   API %.4f s\n", nm, op, t_one, t_rep, t_rep / t_one, t_api))
  }
}
