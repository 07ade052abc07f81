# Test-side seeding: evaluate `expr` after set.seed(seed) under R's default
# generator kinds, then put the caller's stream and kinds back (the package
# itself never seeds: its randomness is the caller's stream).
with_seed <- function(seed, expr) {
  genv <- globalenv()
  old_seed <- get0(".Random.seed", envir = genv, inherits = FALSE)
  old_kind <- RNGkind()
  on.exit({
    suppressWarnings(RNGkind(old_kind[1], old_kind[2], old_kind[3]))
    if (is.null(old_seed)) {
      if (exists(".Random.seed", envir = genv, inherits = FALSE)) rm(".Random.seed", envir = genv)
    } else {
      assign(".Random.seed", old_seed, envir = genv)
    }
  })
  suppressWarnings(set.seed(seed, kind = "Mersenne-Twister", normal.kind = "Inversion", sample.kind = "Rejection"))
  expr
}
