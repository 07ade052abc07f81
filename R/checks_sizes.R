# Size and presence checks made before any allocation (issue 20, hostile
# groups 3 and 8): a call that would build a result larger than the memory
# budget is refused with a classed error naming the argument that asked for
# it, instead of an unclassed "cannot allocate" (or swapping for minutes).

# The memory budget of one result, in bytes: getOption("dpmanifold.max_bytes"),
# 2 GiB by default (268 million doubles).
max_result_bytes <- function() {
  b <- getOption("dpmanifold.max_bytes", 2^31)
  if (is_scalar_number(b) && b > 0) as.numeric(b) else 2^31
}

# n results of `per` doubles each: refused when R could not index them
# (check_output_size()) or when they would exceed the memory budget.
check_alloc <- function(n, per, arg, call = sys.call(-1)) {
  check_output_size(n, per, arg, call)
  bytes <- 8 * as.numeric(n) * as.numeric(per)
  if (bytes > max_result_bytes()) {
    abort_arg(arg, sprintf(paste("asks for a result of %s (%s x %s values), above the memory budget of %s;",
                                 "raise options(dpmanifold.max_bytes = ) to allow it"),
                           format_bytes(bytes), format(n, big.mark = ","), format(per, big.mark = ","),
                           format_bytes(max_result_bytes())),
              call, class = "dpmanifold_too_large")
  }
  invisible(n)
}

format_bytes <- function(b) {
  if (b >= 2^30) sprintf("%.3g GB", b / 2^30) else if (b >= 2^20) sprintf("%.3g MB", b / 2^20) else sprintf("%.0f bytes", b)
}

# Whether a plot is open to add to: a device other than the null device on
# which plot.new() has been called (a device opened by pdf() or png() has
# none yet; drawing on it fails with "plot.new has not been called yet").
plot_is_open <- function() {
  if (grDevices::dev.cur() == 1L) return(FALSE)
  tryCatch({
    graphics::points(numeric(0), numeric(0))
    TRUE
  }, error = function(e) FALSE)
}
