#include "solvers/nomad/nomad_admm.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "sets/spectraplex.hpp"
#include "solvers/nomad/nomad_specs.hpp"

namespace facto {

namespace {

std::vector<ParamSpec> nomad_admm_params()
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    return {
        objective_tolerance_off(),
        real_param("tolerance", 1e-5, 0.0, inf,
                   "CONVERGED when the relative duality gap |bound - Tr(D Q)| / max(|bound|, |Tr(D Q)|) is at most "
                   "this (bound: the Lagrangian dual at the multiplier of Q >= 0), and feasibility_tolerance holds"),
        real_param("feasibility_tolerance", 1e-5, 0.0, inf,
                   "CONVERGED needs Q's largest negative entry relative to the entries' mean K / n and the equality "
                   "residuals at most this"),
        int_param("inner_iterations", 10, 1, 1000000, "ADMM steps per iteration (between two measures of the bound)"),
        real_param("penalty", 1.0, 1e-6, 1e6, "rho = this ||D||_F / sqrt(K), the step of the multiplier"),
        real_param("relaxation", 1.5, 0.1, 1.9,
                   "alpha of the over-relaxed steps, Q replaced by alpha Q + (1 - alpha) Z in the updates of Z and U "
                   "(1: plain ADMM; 1.5 measured 1.4x fewer steps on two rings)"),
        int_param("lanczos_steps", 40, 2, 100000, "Lanczos vectors kept before a restart (the dual bound)"),
    };
}

}  // namespace

NomadAdmm::NomadAdmm(std::shared_ptr<const Nomad> problem)
    : Solver(problem, with_label_params(nomad_admm_params())), nomad_(std::move(problem))
{
    Params& p = mutable_params();
    p.bind("inner_iterations", settings_.inner_iterations);
    bind_label_rule(p, settings_.labels);
    p.bind("penalty", settings_.penalty);
    p.bind("relaxation", settings_.relaxation);
    p.bind("lanczos_steps", settings_.lanczos_steps);
}

void NomadAdmm::start(Matrix Q0)
{
    const std::size_t n = static_cast<std::size_t>(nomad_->n());
    threads_ = resolve_threads(common().threads);
    // D's triangle (formed here when the problem holds points), D dense, Q, Z, U and the projection's
    // argument, and inside the projection the centred matrix, its kept eigenvectors and LAPACK's 2 n^2
    D_ = nomad_->D().triangle("nomad_admm");
    require_memory(9.0 * 8.0 * double(n) * double(n), "nomad_admm's D, Q, Z, U and the projection's work");
    D_dense_ = D_->to_dense();
    const double D_norm = std::sqrt(inner(*D_, *D_));
    rho_ = settings_.penalty * (D_norm > 0.0 ? D_norm : 1.0) / std::sqrt(static_cast<double>(nomad_->K()));
    Q_ = Q0;
    Z_ = std::move(Q0);
    U_ = Matrix({n, n}, 0.0);
    measure();
}

double NomadAdmm::admm_step()
{
    const std::size_t n = Q_.shape()[0];
    const double e = 1.0 / static_cast<double>(n);
    // Q := E + Pi(J (Z - U + D / rho) J), Pi the projection onto {P psd, Tr P = K - 1, P 1 = 0}
    work_ = Z_ - U_ + D_dense_ / rho_;
    Spectraplex::project(work_, static_cast<double>(nomad_->K()) - 1.0, Q_);
    Q_ += e;
    // Z := [Q' + U]_+, U := U + Q' - Z with the over-relaxed Q' = alpha Q + (1 - alpha) Z (Boyd et al.
    // Sec. 3.4.3)
    const double alpha = settings_.relaxation;
    double change = 0.0;
    for (std::size_t k = 0; k < Q_.size(); ++k) {
        const double y = alpha * Q_.data()[k] + (1.0 - alpha) * Z_.data()[k] + U_.data()[k], z = std::max(y, 0.0);
        change += (z - Z_.data()[k]) * (z - Z_.data()[k]);
        Z_.data()[k] = z;
        U_.data()[k] = y - z;
    }
    return std::sqrt(change);
}

double NomadAdmm::iterate_once()
{
    double change = 0.0;
    for (int64_t k = 0; k < settings_.inner_iterations && (k == 0 || !interrupted()); ++k) change = admm_step();
    measure();
    return change;
}

void NomadAdmm::measure()
{
    const std::size_t n = Q_.shape()[0];
    const double K = static_cast<double>(nomad_->K());
    objective_ = blas::frobenius_dot(D_dense_, Q_);
    // the multiplier of Q >= 0: Gamma = rho U <= 0
    PackedSymmetric Gamma = PackedSymmetric::from_upper(U_);
    for (double& g : Gamma.values) g = std::min(rho_ * g, 0.0);
    bound_ = nomad_certified_dual_bound(*D_, Gamma, nomad_->K(), static_cast<std::size_t>(settings_.lanczos_steps),
                                        threads_);
    // Q's largest negative entry relative to K / n, and its equality residuals
    double worst = 0.0, trace = 0.0, equality = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        double row = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            worst = std::max(worst, -Q_(i, j));
            row += Q_(i, j);
        }
        trace += Q_(i, i);
        equality = std::max(equality, std::fabs(row - 1.0));
    }
    equality = std::max(equality, std::fabs(trace - K) / K);
    violation_ = std::max(worst * static_cast<double>(n) / K, equality);
}

std::vector<OutputSpec> NomadAdmm::output_specs() const
{
    std::vector<OutputSpec> specs = Solver::output_specs();
    specs.push_back(upper_bound_spec());
    return specs;
}

Output NomadAdmm::output(const std::string& name) const
{
    if (name == "upper_bound") {
        require(started(), FACTO_ERROR_BAD_STATE, "the solver has no iterate yet (step it, or set one)");
        return Output{upper_bound_spec(), {bound_}, {}};
    }
    if (name == "Q" || !started()) return Solver::output(name);
    return nomad_->output(name, PackedSymmetric::from_upper(Q_), seeded(settings_.labels, common().seed));
}

}  // namespace facto
