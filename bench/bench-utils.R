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
