# Acceptance of the exact samplers (a study of the samplers, not of any
# release: it uses internal study hooks that count proposals).
#
#   Rscript bench/sampler_acceptance.R
#
# (a) exact KNG (rejection from the Laplace envelope of scale sigma/c around
#     the computed Frechet mean): the fraction of envelope draws accepted,
#     and the public lower bound used for the bound on proposals, on S^2
#     (r = pi/8), Kendall(4) (r = 0.3) and affine-invariant SPD(2) (r = 1),
#     sigma = 2 Delta / epsilon, for several n and epsilon;
# (b) the untruncated Riemannian Laplace law on affine-invariant SPD(k),
#     k = 2, 3, 5, 10, at fractions of max_untruncated_sigma();
# (c) the truncated Laplace law on S^2, Kendall(4), SPD(2): proposal used
#     and acceptance, mean at the centre and on the boundary.
suppressPackageStartupMessages(library(dpmanifold))
set.seed(1)
cat(sprintf("dpmanifold %s, R %s\n\n", utils::packageVersion("dpmanifold"), getRversion()))

data_in_ball <- function(M, center, r, n, spread) {
  X <- mfd_exp(M, center, spread * mfd_random_tangent(M, center, n))
  Xa <- dpmanifold:::to_ambient(M, X, "X")
  dpmanifold:::resolve_ball(M, Xa, center, r)$X
}

cat("(a) exact KNG: acceptance of envelope draws (public lower bound), 2000 draws each\n")
cases <- list(
  list(M = sphere(2), c = c(0, 0, 1), r = pi / 8, spread = 0.25),
  list(M = kendall_shape(4), c = NULL, r = 0.3, spread = 0.15),
  list(M = spd(2), c = diag(2), r = 1, spread = 0.5))
for (cs in cases) {
  M <- cs$M
  ctr <- if (is.null(cs$c)) mfd_random_point(M) else cs$c
  for (n in c(5, 20, 100, 1000)) {
    Xa <- data_in_ball(M, ctr, cs$r, n, cs$spread)
    out <- character()
    for (eps in c(0.1, 1, 10)) {
      sigma <- 2 * frechet_sensitivity(M, cs$r, n, "kng") / eps
      a <- dpmanifold:::cpp_study_kng_acceptance(M, Xa, sigma, dpmanifold:::to_ambient(M, ctr, "c")[, 1], cs$r, 2000L)
      out <- c(out, sprintf("eps %4g: %.3f (lb %.3f)", eps, a$acceptance, a$acceptance_lb))
    }
    cat(sprintf("  %-16s n = %5d  %s\n", sprintf("%s(%d)", M$name, M$size), n, paste(out, collapse = "  ")))
  }
}

cat("\n(b) untruncated Riemannian Laplace on affine-invariant SPD(k): acceptance (public lower bound), 4000 draws\n")
for (k in c(2, 3, 5, 10)) {
  P <- spd(k)
  smax <- max_untruncated_sigma(P)
  out <- character()
  for (fr in c(0.01, 0.1, 0.3, 0.5, 0.7, 0.8)) {
    I <- as.vector(diag(k))
    a <- dpmanifold:::cpp_study_laplace_acceptance(P, I, fr * smax, I, Inf, 4000L, TRUE)
    out <- c(out, sprintf("%.2f: %.3f (%.2g)", fr, a$acceptance, a$acceptance_lb))
  }
  cat(sprintf("  k = %2d (sigma_max = %.4f), sigma/sigma_max = %s\n", k, smax, paste(out, collapse = ", ")))
}

cat("\n(c) truncated Riemannian Laplace: proposal, acceptance (public lower bound), 4000 draws\n")
for (cs in cases) {
  M <- cs$M
  ctr <- if (is.null(cs$c)) mfd_random_point(M) else cs$c
  ca <- dpmanifold:::to_ambient(M, ctr, "c")[, 1]
  v <- mfd_random_tangent(M, ctr)
  edge <- dpmanifold:::to_ambient(M, mfd_exp(M, ctr, v * (cs$r / mfd_norm(M, ctr, v))), "e")[, 1]
  for (sig in c(0.01, 0.1, 1) * cs$r) for (where in c("centre", "boundary")) {
    m <- if (where == "centre") ca else edge
    a <- dpmanifold:::cpp_study_laplace_acceptance(M, m, sig, ca, cs$r, 4000L, TRUE)
    cat(sprintf("  %-16s sigma = %.3g r, mean at the %-8s: %-12s %.3f (lb %.3g)\n", sprintf("%s(%d)", M$name, M$size),
                sig / cs$r, where, a$regime, a$acceptance, a$acceptance_lb))
  }
}
