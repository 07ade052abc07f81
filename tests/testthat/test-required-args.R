# Every exported function called without an argument it requires gives a
# classed error naming that argument (R's own "argument is missing" is
# unclassed and arrives wherever the argument is first read).
test_that("a required argument left out is a classed error naming it", {
  ns <- asNamespace("dpmanifold")
  n_checked <- 0L
  for (f in getNamespaceExports("dpmanifold")) {
    fn <- get(f, ns)
    if (!is.function(fn)) next
    fm <- formals(fn)
    req <- setdiff(names(fm)[vapply(fm, function(x) identical(x, quote(expr = )), TRUE)], "...")
    if (!length(req)) next
    err <- tryCatch(do.call(fn, list()), error = function(e) e)
    expect_s3_class(err, "dpmanifold_error")
    expect_match(conditionMessage(err), "^`[A-Za-z_.]+` ", label = f)
    n_checked <- n_checked + 1L
  }
  expect_gt(n_checked, 50L)
  # the data left out of a release names the data argument
  m <- frechet_mechanism(sphere(2), 10, 1, center = c(0, 0, 1), radius = 0.5)
  expect_error(release(m), "`X` is required", class = "dpmanifold_error")
  expect_error(mfd_exp(sphere(2), c(0, 0, 1)), "`v` is required", class = "dpmanifold_error")
  expect_error(geodesic_regression(sphere(2), 1:3), "`y` is required", class = "dpmanifold_error")
})
