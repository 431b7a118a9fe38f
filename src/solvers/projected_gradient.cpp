#include "facto/projected_gradient.hpp"

#include <cmath>
#include <limits>

#include <xtensor/xnoalias.hpp>

#include "facto/row_simplices.hpp"
#include "linalg/blas.hpp"

namespace facto {

std::vector<ParamSpec> projected_gradient_params()
{
    const double inf = std::numeric_limits<double>::infinity();
    return {
        real_param("sigma", 0.01, 1e-12, 0.5, "Armijo sufficient-decrease constant"),
        real_param("beta", 0.5, 0.01, 0.99, "backtracking factor applied to the step length"),
        real_param("initial_step", 0.0, 0.0, inf, "first trial step length; 0 = 1/n. Later trials start at t/beta"),
        int_param("max_backtracks", 60, 1, 1000, "trials per iteration before the step is declared zero"),
    };
}

ProjectedGradient::ProjectedGradient(std::shared_ptr<const SimplicialSymNMF> problem)
    : Solver(problem, projected_gradient_params()), symnmf_(std::move(problem))
{
}

void ProjectedGradient::start(Matrix W0)
{
    const std::size_t n = W0.shape()[0], k = W0.shape()[1];
    W_ = std::move(W0);
    PW_ = Matrix({n, k});
    WtW_ = Matrix({k, k});
    G_ = Matrix({n, k});
    trial_W_ = Matrix({n, k});
    trial_PW_ = Matrix({n, k});
    trial_WtW_ = Matrix({k, k});
    symnmf_->multiply(W_, PW_);
    blas::gram(W_, WtW_);
    f_ = symnmf_->objective(W_, PW_, WtW_);
    symnmf_->gradient(W_, PW_, WtW_, G_);
    gap_ = row_simplex_lmo(G_, W_, vertex_);
    const double initial = params().get_double("initial_step");
    step_ = initial > 0.0 ? initial : 1.0 / static_cast<double>(n);
    step_ *= params().get_double("beta");  // the first trial is step_ / beta
}

double ProjectedGradient::iterate_once()
{
    const double sigma = params().get_double("sigma"), beta = params().get_double("beta");
    const int64_t max_backtracks = params().get_int("max_backtracks");
    double t = step_ / beta;
    for (int64_t trial = 0; trial < max_backtracks; ++trial, t *= beta) {
        xt::noalias(trial_W_) = W_ - t * G_;
        project_rows_onto_simplex(trial_W_);
        symnmf_->multiply(trial_W_, trial_PW_);
        blas::gram(trial_W_, trial_WtW_);
        const double f_trial = symnmf_->objective(trial_W_, trial_PW_, trial_WtW_);
        const double decrease = blas::frobenius_dot(G_, trial_W_) - blas::frobenius_dot(G_, W_);
        if (f_trial <= f_ + sigma * decrease) {
            std::swap(W_, trial_W_);
            std::swap(PW_, trial_PW_);
            std::swap(WtW_, trial_WtW_);
            f_ = f_trial;
            symnmf_->gradient(W_, PW_, WtW_, G_);
            gap_ = row_simplex_lmo(G_, W_, vertex_);
            step_ = t;
            return t;
        }
    }
    return 0.0;  // no acceptable step: W is stationary to working precision; f is unchanged
}

}  // namespace facto
