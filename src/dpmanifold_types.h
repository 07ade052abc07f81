#ifndef DPMANIFOLD_TYPES_H
#define DPMANIFOLD_TYPES_H
// Included by RcppExports.cpp (and the glue) so that exported signatures can
// use Eigen types.
#include "glue.h"
using Eigen::MatrixXd;
using Eigen::VectorXd;
#endif
