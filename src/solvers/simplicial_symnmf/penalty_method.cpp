#include "solvers/simplicial_symnmf/penalty_method.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/lbfgsb.hpp"
#include "sets/row_simplices.hpp"

namespace facto {

namespace {

std::vector<ParamSpec> penalty_method_params()
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    return {
        real_param("feasibility_tolerance", 1e-6, 0.0, inf,
                   "CONVERGED needs max(max_i |(W 1)_i - 1|, max_ij [-W_ij]_+) at most this"),
        int_param("inner_iterations", 50, 1, 1000000,
                  "L-BFGS iterations on each penalized objective, at most (the paper: 50 inner loops)"),
        real_param("inner_tolerance", 1e-12, 0.0, inf,
                   "the inner loop also ends when the gradient of the penalized objective is below this in every "
                   "entry, relative to ||P||_F"),
        real_param("inner_decrease", 10.0, 0.0, inf,
                   "the inner loop also ends when the penalized objective's relative decrease is below this times "
                   "the machine epsilon (L-BFGS's factr)"),
        int_param("lbfgs_memory", 10, 1, 100, "correction pairs L-BFGS keeps"),
        real_param("penalty_growth", 2.0, 1.0, 1e6,
                   "factor on both penalty coefficients after each outer iteration (the paper: 2)"),
        real_param("row_sum_penalty", 1.0, 1e-12, inf, "alpha_0, the first coefficient of ||W 1 - 1||^2 / 2"),
        real_param("nonnegativity_penalty", 1.0, 1e-12, inf, "beta_0, the first coefficient of ||min(W, 0)||^2 / 2"),
    };
}

}  // namespace

PenaltyMethod::PenaltyMethod(std::shared_ptr<const SimplicialSymNMF> problem)
    : SimplicialSymNMFSolver(std::move(problem), penalty_method_params())
{
    Params& p = mutable_params();
    p.bind("inner_iterations", inner_iterations_);
    p.bind("inner_tolerance", inner_tolerance_);
    p.bind("inner_decrease", inner_decrease_);
    p.bind("lbfgs_memory", lbfgs_memory_);
    p.bind("penalty_growth", growth_);
    p.bind("row_sum_penalty", alpha0_);
    p.bind("nonnegativity_penalty", beta0_);
}

void PenaltyMethod::start(Matrix W0)
{
    const std::size_t n = W0.shape()[0], k = W0.shape()[1];
    alpha_ = alpha0_;
    beta_ = beta0_;
    work_W_ = Matrix({n, k});
    work_PW_ = Matrix({n, k});
    work_WtW_ = Matrix({k, k});
    work_G_ = Matrix({n, k});
    W_ = W0;
    reset_point(std::move(W0));  // the start is feasible: its own projection
    f_ = point_.f;
}

double PenaltyMethod::penalized(const double* W, double* G)
{
    const std::size_t n = work_W_.shape()[0], k = work_W_.shape()[1];
    std::copy(W, W + n * k, work_W_.begin());
    symnmf_->multiply(work_W_, work_PW_);
    blas::gram(work_W_, work_WtW_);
    const double f = last_f_ = symnmf_->objective(work_W_, work_PW_, work_WtW_);
    symnmf_->gradient(work_W_, work_PW_, work_WtW_, work_G_);  // eq. 7: W (W^T W) - P W
    double rows = 0.0, negatives = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double* w = W + i * k;
        double residual = -1.0;  // (W 1)_i - 1
        for (std::size_t j = 0; j < k; ++j) residual += w[j];
        rows += residual * residual;
        for (std::size_t j = 0; j < k; ++j) {
            const double negative = std::min(w[j], 0.0);
            negatives += negative * negative;
            G[i * k + j] = work_G_(i, j) + alpha_ * residual + beta_ * negative;
        }
    }
    return f + 0.5 * alpha_ * rows + 0.5 * beta_ * negatives;
}

void PenaltyMethod::project_iterate()
{
    Matrix projection = W_;
    RowSimplices::project(projection);
    const double start = start_objective_;
    point_.reset(*symnmf_, std::move(projection));
    start_objective_ = start;
}

double PenaltyMethod::iterate_once()
{
    // the inner loop: minimize L_t from W without constraints
    LbfgsbSettings settings;
    settings.memory = static_cast<int>(lbfgs_memory_);
    settings.max_iterations = static_cast<int>(inner_iterations_);
    settings.pgtol = inner_tolerance_ * std::sqrt(symnmf_->P_norm_squared());
    settings.factr = inner_decrease_;
    settings.interrupted = [this] { return interrupted(); };
    std::vector<double> w(W_.begin(), W_.end());
    constexpr double inf = std::numeric_limits<double>::infinity();
    minimize_in_box(w, -inf, inf, [this](const double* W, double* G) { return penalized(W, G); }, settings);
    double change = 0.0, size = 0.0;  // ||W_new - W||_F^2, ||W||_F^2
    for (std::size_t e = 0; e < w.size(); ++e) {
        change += (w[e] - W_.data()[e]) * (w[e] - W_.data()[e]);
        size += W_.data()[e] * W_.data()[e];
        W_.data()[e] = w[e];
    }
    // L-BFGS usually ends at the point it evaluated last, whose f is at hand; otherwise one more P W
    if (!std::equal(W_.begin(), W_.end(), work_W_.begin())) {
        symnmf_->multiply(W_, work_PW_);
        blas::gram(W_, work_WtW_);
        last_f_ = symnmf_->objective(W_, work_PW_, work_WtW_);
    }
    f_ = last_f_;
    // the outer update of Zhao et al.'s Alg. 1: both coefficients grow while W is infeasible (and they
    // stay finite); at a feasible W they stay, and the inner loops refine W at them
    const double grown = std::max(alpha_, beta_) * growth_;
    if (current_feasibility() > common().feasibility_tolerance && std::isfinite(grown * grown)) {
        alpha_ *= growth_;
        beta_ *= growth_;
    }
    project_iterate();
    return std::sqrt(change / std::max(size, std::numeric_limits<double>::min()));
}

double PenaltyMethod::current_feasibility() const
{
    double worst = 0.0;
    for (std::size_t i = 0; i < W_.shape()[0]; ++i) {
        double row = -1.0;
        for (std::size_t j = 0; j < W_.shape()[1]; ++j) {
            row += W_(i, j);
            worst = std::max(worst, -W_(i, j));
        }
        worst = std::max(worst, std::fabs(row));
    }
    return worst;
}

std::vector<OutputSpec> PenaltyMethod::output_specs() const
{
    std::vector<OutputSpec> specs = SimplicialSymNMFSolver::output_specs();
    specs.push_back({"penalties", FACTO_OUTPUT_DOUBLE, 1, 2});
    return specs;
}

Output PenaltyMethod::output(const std::string& name) const
{
    if (name != "penalties") return SimplicialSymNMFSolver::output(name);
    require(started(), FACTO_ERROR_BAD_STATE, "the solver has no iterate yet (step it, or set one)");
    return Output{output_specs().back(), {alpha_, beta_}, {}};
}

}  // namespace facto
