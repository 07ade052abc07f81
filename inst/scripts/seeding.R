# Seeding for the study scripts and the tests: the package itself never
# seeds (its randomness is the caller's stream), so this lives outside it.
# with_seed(seed, expr) evaluates `expr` after set.seed(seed) under R's
# default generator kinds (Mersenne-Twister, Inversion, Rejection), then
# puts the caller's stream and kinds back, or removes the stream if there
# was none (also when `expr` fails). `expr` is evaluated lazily, so every
# draw inside it, arguments included, comes from the seeded stream.
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
