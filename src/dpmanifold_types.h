// Included by RcppExports.cpp so that exported signatures can use Eigen types.
#include "glue.h"
using Eigen::MatrixXd;
using Eigen::VectorXd;
