#include "solvers/simplicial_symnmf/projected_gradient.hpp"

#include <cmath>
#include <limits>

#include <xtensor/xnoalias.hpp>

#include "sets/row_simplices.hpp"
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
    : SimplicialSymNMFSolver(std::move(problem), projected_gradient_params())
{
    mutable_params().bind("initial_step", initial_step_);
    mutable_params().bind("sigma", sigma_);
    mutable_params().bind("beta", beta_);
    mutable_params().bind("max_backtracks", max_backtracks_);
}

void ProjectedGradient::start(Matrix W0)
{
    const std::size_t n = W0.shape()[0], k = W0.shape()[1];
    trial_W_ = Matrix({n, k});
    trial_PW_ = Matrix({n, k});
    trial_WtW_ = Matrix({k, k});
    reset_point(std::move(W0));
    const double initial = initial_step_;
    step_ = initial > 0.0 ? initial : 1.0 / static_cast<double>(n);
    step_ *= beta_;  // the first trial is step_ / beta
}

double ProjectedGradient::iterate_once()
{
    const double sigma = sigma_, beta = beta_;
    const int64_t max_backtracks = max_backtracks_;
    double t = step_ / beta;
    for (int64_t trial = 0; trial < max_backtracks; ++trial, t *= beta) {
        xt::noalias(trial_W_) = point_.W - t * point_.G;
        RowSimplices::project(trial_W_);
        symnmf_->multiply(trial_W_, trial_PW_);
        blas::gram(trial_W_, trial_WtW_);
        const double f_trial = symnmf_->objective(trial_W_, trial_PW_, trial_WtW_);
        const double decrease = blas::frobenius_dot(point_.G, trial_W_) - blas::frobenius_dot(point_.G, point_.W);
        if (f_trial <= point_.f + sigma * decrease) {
            std::swap(point_.W, trial_W_);
            std::swap(point_.PW, trial_PW_);
            point_.refresh(*symnmf_);
            step_ = t;
            return t;
        }
    }
    return 0.0;  // no acceptable step: W is stationary to working precision; f is unchanged
}

}  // namespace facto
