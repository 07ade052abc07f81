#' dpmanifold: differential privacy on Riemannian manifolds
#'
#' Private Frechet means and private geodesic regression for data that are
#' directions (the sphere), covariance matrices (SPD matrices) or planar
#' shapes (Kendall's shape space). The geometry lives in C++ headers under
#' `inst/include/dpmanifold_core/`, written once against one manifold interface;
#' the R layer validates inputs and returns documented S3 objects.
#'
#' Papers implemented: Reimherr, Bharath and Soto (2021), *Differential
#' privacy over Riemannian manifolds*; Soto, Bharath, Reimherr and
#' Slavkovic (2022), *Shape and structure preserving differential privacy*;
#' *Exponential-wrapped mechanisms for differential privacy on Hadamard
#' manifolds*; Kulkarni and Soto, *Differentially private geodesic
#' regression*.
#'
#' @keywords internal
#' @useDynLib dpmanifold, .registration = TRUE
#' @importFrom Rcpp sourceCpp
"_PACKAGE"
