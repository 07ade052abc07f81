#' dpmanifold: differential privacy on Riemannian manifolds
#'
#' Private Frechet means ([dp_frechet_mean()]) and private geodesic
#' regression ([dp_geodesic_regression()]) for data that are directions (the
#' sphere), covariance matrices (SPD matrices), planar shapes (Kendall's
#' shape space), points of hyperbolic space or of Euclidean space. A
#' mechanism is an object built from public inputs ([frechet_mechanism()]),
#' [release()] draws it, [dp_budget()] keeps the total within a budget and
#' [privacy_spent()] composes releases. The geometry lives in C++ headers
#' under `inst/include/dpmanifold_core/`, written once against one manifold
#' interface; the R layer validates inputs and returns documented S3 objects.
#' The proofs of the mechanisms are in `system.file("proofs", package =
#' "dpmanifold")`.
#'
#' @section Threads:
#' The passes over the data (Frechet gradients, distances, clipping,
#' regression residuals) run on `getOption("dpmanifold.threads", 2)` threads
#' (fewer when OpenMP offers fewer; one without OpenMP). Partial sums are
#' combined in a fixed order, so every result, and every release reproduced
#' with [set.seed()], is the same whatever the number of threads. A process
#' forked from R (for example by [parallel::mclapply()]) runs its passes on
#' one thread: OpenMP's thread pool does not survive `fork()`.
#'
#' @section Memory:
#' A result larger than `getOption("dpmanifold.max_bytes", 2^31)` bytes
#' (random points, tangent vectors, bases, distance matrices, predictions,
#' simulated data) is refused before it is allocated, with an error of
#' class `dpmanifold_too_large` naming the argument that asked for it.
#'
#' Papers implemented: Reimherr, Bharath and Soto (2021), *Differential
#' privacy over Riemannian manifolds*; Soto, Bharath, Reimherr and
#' Slavkovic (2022), *Shape and structure preserving differential privacy*;
#' *Exponential-wrapped mechanisms for differential privacy on Hadamard
#' manifolds*; Kulkarni and Soto, *Differentially private geodesic
#' regression*.
#'
#' @section Errors and interrupts:
#' Every invalid argument raises an error of class `dpmanifold_error` whose
#' message starts with the argument's name in backquotes (the name is also
#' in the condition's field `arg`), so it can be caught with
#' `tryCatch(..., dpmanifold_error = function(e) ...)`. A call whose result
#' would not fit double precision (an exponential that overflows, an SPD
#' matrix whose eigenvalue underflows to zero, a sensitivity beyond 1e308)
#' raises the subclass `dpmanifold_not_representable`, naming the argument
#' whose size caused it, instead of returning Inf, NaN or a point off the
#' manifold. Counts must be whole numbers below 2^31. Long computations in
#' C++ (samplers, Frechet means, regression fits, distance matrices) check
#' for interrupts several times a second, so Ctrl-C and
#' [setTimeLimit()] stop them with an error of class
#' `dpmanifold_interrupted` (a subclass of `dpmanifold_error`) that
#' `tryCatch(error = )` catches.
#'
#' @keywords internal
#' @useDynLib dpmanifold, .registration = TRUE
#' @importFrom Rcpp sourceCpp
"_PACKAGE"
