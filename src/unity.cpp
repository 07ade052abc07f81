// The whole R glue as one translation unit ("unity build"). Each glue file
// is a complete .cpp of its own (Rcpp::compileAttributes() reads them one by
// one), but compiling them together parses Rcpp and Eigen once instead of
// once per file: 2.8 s of CPU and 0.6 GB per file saved on every install.
// src/Makevars lists the objects: a new glue file is added here, a new
// core translation unit (no Rcpp) to OBJECTS there.
#include "glue_geometry.cpp"
#include "glue_frechet.cpp"
#include "glue_samplers.cpp"
#include "regression_glue.cpp"
#include "release_glue.cpp"
// last: it opens namespace Rcpp
#include "RcppExports.cpp"
