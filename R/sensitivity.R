#' Sensitivities of the Frechet mean and the largest admissible radius
#'
#' `max_radius(M)` is \eqn{r^* = \frac12 \min\{inj, \pi/(2\sqrt{\kappa_{max}})\}}
#' (Reimherr, Bharath and Soto 2021, Assumption 1): data must lie in a ball
#' of radius r < r\* for the Frechet mean to be unique and the sensitivity
#' bounds to hold. It is `pi/4` on the sphere, `pi/8` on Kendall's shape
#' space and `Inf` on the Hadamard manifolds.
#'
#' `frechet_sensitivity()` returns the global sensitivity \eqn{\Delta} of the
#' mechanism's summary for n points in a ball of radius `radius`, with
#' \eqn{h = h(2r, \kappa_{max}) = 2r\sqrt{\kappa}\cot(2r\sqrt{\kappa})} for
#' \eqn{\kappa > 0} and 1 otherwise:
#' * `"laplace"`: \eqn{2r(2-h)/(n h)}, the distance between Frechet means of
#'   neighbouring data sets (Reimherr et al. 2021, Theorem 2);
#' * `"kng"`: \eqn{2r(2-h)/n}, the change of the gradient of the Frechet
#'   objective (Soto et al. 2022, Theorem 2);
#' * `"wrapped"`: \eqn{2r/n} on Hadamard manifolds (exponential-wrapped
#'   mechanisms, section 4.1).
#'
#' @param M A manifold, see [manifolds].
#' @param radius Radius of the public ball holding the data.
#' @param n Number of data points (a vector gives one value per n).
#' @param mechanism `"laplace"`, `"kng"` or `"wrapped"`.
#' @return `max_radius()`: a number; `frechet_sensitivity()`: one number per `n`.
#' @examples
#' max_radius(sphere(2))
#' frechet_sensitivity(sphere(2), pi / 8, 50, "kng")
#' frechet_sensitivity(spd(3), 1, 50, "laplace")   # 2r/n: h = 1 when K <= 0
#' @export
max_radius <- function(M) {
  check_required("M")
  curv <- if (M$kappa_max > 0) pi / (2 * sqrt(M$kappa_max)) else Inf
  0.5 * min(M$injectivity_radius, curv)
}

#' @rdname max_radius
#' @export
frechet_sensitivity <- function(M, radius, n, mechanism = c("laplace", "kng", "wrapped")) {
  check_required(c("M", "radius", "n"))
  mechanism <- check_choice(mechanism)
  check_radius(M, radius)
  n <- check_sizes(n)
  if (mechanism == "wrapped") {
    if (!M$hadamard) abort_arg("M", sprintf("must be a Hadamard manifold (%s) for wrapped mechanisms", hadamard_constructors()))
    Delta <- 2 * radius / n
    if (any(!is.finite(Delta))) Delta <- 2 * (radius / n)  # 2 r overflows, 2 r / n may not
    return(check_representable(M, Delta, "radius", "number"))
  }
  h <- curvature_h(2 * radius, M$kappa_max)
  Delta <- if (mechanism == "laplace") 2 * radius * (2 - h) / (n * h) else 2 * radius * (2 - h) / n
  if (any(!is.finite(Delta))) {
    Delta <- if (mechanism == "laplace") 2 * (radius / n) * (2 - h) / h else 2 * (radius / n) * (2 - h)
  }
  check_representable(M, Delta, "radius", "number")
}

# h(s, kappa) = s sqrt(kappa) cot(s sqrt(kappa)) for kappa > 0, 1 otherwise
# (one home: the core's curvature_h()).
curvature_h <- function(s, kappa) cpp_curvature_h(s, kappa)

check_radius <- function(M, radius, arg = "radius", call = sys.call(-1)) {
  check_positive_number(radius, arg, call = call)
  rstar <- max_radius(M)
  if (radius >= rstar) {
    abort_arg(arg, sprintf("is %.4g but must be below r* = %.4g on %s (Reimherr et al. 2021, Assumption 1: the largest radius allowed)",
                           radius, rstar, manifold_label(M)), call)
  }
  invisible(radius)
}
