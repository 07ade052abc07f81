# The neighbour test of every release path (SPEC section 6): for the same
# seed, releases on a data set D and on a neighbour D' (one record moved far
# away: outside the public ball or to its far side) must agree in everything
# except the estimate -- fields, printout, summary, warnings and errors.

# (the call is compared too: it must not carry the data)
release_without_estimate <- function(rel) {
  rel$estimate <- NULL
  rel
}

# Release a with the private outputs of release b: its estimate and the
# values b's earlier private stages drew (`private_draws`, e.g. a clip
# level chosen by the exponential mechanism, and the scales that follow
# from it). What is left must be identical between neighbours.
with_private_outputs_of <- function(a, b) {
  a$estimate <- b$estimate
  if (!is.null(b$private_draws)) a <- dpm$with_private_draws(a, b$private_draws)
  a
}

# Runs f() and records its value (or error) and every condition it signals.
run_recording <- function(f) {
  conds <- list()
  value <- withCallingHandlers(
    tryCatch(f(), error = function(e) structure(list(class = class(e), message = conditionMessage(e)),
                                                class = "recorded_error")),
    warning = function(w) {
      conds[[length(conds) + 1]] <<- list(class = class(w), message = conditionMessage(w))
      invokeRestart("muffleWarning")
    },
    message = function(m) {
      conds[[length(conds) + 1]] <<- list(class = class(m), message = conditionMessage(m))
      invokeRestart("muffleMessage")
    })
  list(value = value, conditions = conds)
}

# release_fun(data) makes one release; D and D_prime are neighbours.
expect_neighbours_agree <- function(release_fun, D, D_prime, label, seed = 20261122) {
  set.seed(seed)
  a <- run_recording(function() release_fun(D))
  set.seed(seed)
  b <- run_recording(function() release_fun(D_prime))
  expect_recorded_agree(a, b, label)
}

# Two recorded runs (run_recording()) agree: the same conditions, the same
# error or the same release once swap(a, b) gave a the private outputs of b,
# and so the same printout and summary.
expect_recorded_agree <- function(a, b, label, swap = with_private_outputs_of) {
  expect_identical(a$conditions, b$conditions, label = paste(label, "(warnings and messages)"))
  if (inherits(a$value, "recorded_error") || inherits(b$value, "recorded_error")) {
    expect_identical(a$value, b$value, label = paste(label, "(errors)"))
    return(invisible(NULL))
  }
  # the same private draws (which stages, which bounds), whatever values
  # (a stage that draws the plan of the stages after it, the regression's
  # scale stage, decides which of them draw: then the plan is swapped whole)
  pa <- a$value$private_draws
  pb <- b$value$private_draws
  expect_identical(is.null(pa$plan), is.null(pb$plan), label = paste(label, "(a drawn plan)"))
  if (is.null(pb$plan)) {
    expect_identical(lapply(pa, names), lapply(pb, names), label = paste(label, "(private draws)"))
  }
  a2 <- swap(a$value, b$value)
  expect_identical(a2, b$value, label = label)
  # so the printout and summary differ only in the private outputs
  expect_identical(capture.output(print(a2)), capture.output(print(b$value)), label = paste(label, "(print)"))
  expect_identical(capture.output(print(summary(a2))), capture.output(print(summary(b$value))),
                   label = paste(label, "(summary)"))
  invisible(list(a$value, b$value))
}

# A neighbour of X (ambient D x n matrix in the user's layout handled by
# mfd_* functions): record `i` replaced by `far`.
replace_record <- function(M, X, i, far) {
  if (is.null(M$point_dim)) {
    if (is.null(dim(X))) { X[i] <- far; return(X) }
    X[i, ] <- far
  } else {
    X[, , i] <- far
  }
  X
}
