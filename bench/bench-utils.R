# Shared by the bench scripts: a timer and the plain-R matrix function used
# by the baselines. Source it from a bench script's own directory.

# Seconds per evaluation of f(): repeat in batches (doubling) until a batch
# takes at least min_time, so that fast calls are not below the timer's
# resolution.
time_it <- function(f, min_time = 0.2) {
  f()  # warm-up
  reps <- 1L
  repeat {
    t0 <- proc.time()[["elapsed"]]
    for (i in seq_len(reps)) f()
    el <- proc.time()[["elapsed"]] - t0
    if (el >= min_time || reps >= 2^20) return(el / reps)
    reps <- reps * 2L
  }
}

# f applied to the eigenvalues of a symmetric matrix (plain-R baselines).
sym_fun <- function(A, f) {
  e <- eigen(A, symmetric = TRUE)
  e$vectors %*% (f(e$values) * t(e$vectors))
}

# Seconds per evaluation of each function in the named list `fs`, measured
# in `rounds` interleaved rounds, keeping each function's fastest round: on a
# shared machine load comes and goes, and the minimum is the least-disturbed
# figure for every contender alike.
time_min <- function(fs, rounds = 5, min_time = 0.2) {
  out <- matrix(NA_real_, rounds, length(fs))
  for (r in seq_len(rounds)) {
    for (i in seq_along(fs)) out[r, i] <- time_it(fs[[i]], min_time)
  }
  stats::setNames(apply(out, 2, min), names(fs))
}
