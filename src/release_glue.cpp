// Rcpp glue of the release layer: the validation of a release's data.
#include "dpmanifold_types.h"

// Data of a release, column by column: status 0 (a point, projected onto
// the manifold), 1 (not a point of the manifold: a malformed data set) or
// 2 (a point that double precision does not hold accurately, which the
// release replaces by its public centre: no record is refused for its
// value, SPEC section 6). `why` holds the first reason of each kind only,
// so that nothing returned counts or names records.
// [[Rcpp::export]]
Rcpp::List cpp_validate_data(Rcpp::List M, MatrixXd P, double tol) {
  DPM_GLUE_BEGIN
  auto m = manifold_from_r(M);
  Rcpp::IntegerVector status(P.cols());
  std::string form_why;
  for (int j = 0; j < P.cols(); ++j) {
    dpm::poll_interrupt();
    VectorXd p = P.col(j);
    std::string r = m->check_point(p, tol);
    if (r.empty()) {
      P.col(j) = m->project_point(p);
    } else if (!m->check_accuracy(p, tol).empty()) {
      status[j] = 2;
    } else {
      status[j] = 1;
      if (form_why.empty()) form_why = r;
    }
  }
  return Rcpp::List::create(Rcpp::Named("points") = P, Rcpp::Named("status") = status,
                            Rcpp::Named("why") = form_why);
  DPM_GLUE_END
}
