# The package's internal surface for the tests: every internal function a
# test calls is listed here once, grouped by why the test needs it, and
# reached as dpm$<name>. Nothing else in the tests reaches inside the
# namespace; everything else goes through the exported API.
dpm <- local({
  surface <- list(
    # layout and validation helpers checked on hostile input
    layout = c("to_ambient", "from_ambient", "check_choice", "check_count", "resolve_ball", "mcmc_settings"),
    # the C++ geometry kernels, checked against identities and references
    geometry = c("cpp_binary_op", "cpp_ternary_op", "cpp_dist", "cpp_inner", "cpp_tangent_coords", "cpp_tangent_basis",
                 "cpp_chart_points", "cpp_check_tangents", "cpp_kendall_align", "cpp_manifold_info",
                 "cpp_random_point", "cpp_log_volume_density", "cpp_log_polar_volume_bound", "hyperbolic_boost"),
    # samplers and their public refusal rules, checked against their laws
    samplers = c("cpp_rkng_mcmc", "cpp_rlaplace_mcmc", "cpp_rwrapped", "cpp_sinhc_bound_table",
                 "laplace_exact_draws", "release_laplace", "release_kng", "exact_sampler_available",
                 "untruncated_tail_ok", "knorm_l2_noise", "laplace_noise", "simplex_difference_noise",
                 "gdp_epsilon", "gdp_delta"),
    # regression: the energy, gradients and residual kernels, the stated
    # sensitivities and public constants (checked against adversarial pairs),
    # the one-call release (its clip-level law is tested directly)
    regression = c("cpp_regression_energy", "cpp_regression_gradient", "cpp_regression_gauss_newton_matrix",
                   "cpp_regression_clipped_loss",
                   "cpp_regression_chart_kng", "cpp_linear_kng_exact", "cpp_linearised_residuals",
                   "cpp_release_regression", "joint_sensitivity", "joint_weight", "linear_sensitivity", "linear_stage_law",
                   "linear_release",
                   "linear_weight", "linearised_combination", "domain_block", "ssp_gram_scales", "ssp_gram_share",
                   "ssp_release_split", "split_design_barycentric", "regression_release_curve",
                   # (the scale stage: its public rule and its statistics and draw)
                   "scale_stage_epsilon", "cpp_regression_scale",
                   # (the default's public constants, switched off where a test compares)
                   ".gauss_newton"),
    # the mechanism builders (a mechanism rebuilt from forged inputs)
    mechanism = c("build_frechet_mechanism", "build_regression_mechanism"),
    # the private ball's stages (bounds_share), checked against their laws
    private_ball = c("private_ball_stages", ".private_ball", "max_radius"),
    # where a release keeps the values its private stages drew (swapped
    # between neighbours, which may differ in them)
    release = "with_private_draws")
  mget(unlist(surface, use.names = FALSE), envir = asNamespace("dpmanifold"))
})

# A mechanism rebuilt by its own builder from its kept inputs edited by
# f(args): the forgery a release must refuse when the edited inputs are not
# what the public constructors validate.
forge_mechanism <- function(mech, f) {
  b <- attr(mech, "build")
  do.call(dpm[[b$fun]], f(b$args))
}
