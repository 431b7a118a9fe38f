#include "solvers/low_rank/gradient_descent.hpp"

#include <cmath>
#include <limits>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "sets/orthant.hpp"

namespace facto {

std::vector<ParamSpec> gradient_descent_params()
{
    const double inf = std::numeric_limits<double>::infinity();
    return {
        real_param("armijo_beta", 0.1, 1e-6, 1.0 - 1e-6, "factor by which the step shrinks or grows"),
        real_param("armijo_sigma", 0.01, 1e-12, 0.5, "sufficient-decrease fraction of the Armijo condition"),
        real_param("initial_step", 1.0, 1e-300, inf, "first step t tried"),
        int_param("max_backtracks", 60, 1, 1000, "step changes per iteration before the step is declared zero"),
    };
}

GradientDescent::GradientDescent(std::shared_ptr<const LowRankProblem> problem)
    : Solver(problem, gradient_descent_params()), low_rank_(std::move(problem))
{
    mutable_params().bind("initial_step", initial_step_);
    mutable_params().bind("armijo_sigma", armijo_sigma_);
    mutable_params().bind("armijo_beta", armijo_beta_);
    mutable_params().bind("max_backtracks", max_backtracks_);
}

const char* GradientDescent::algorithm() const
{
    return low_rank_->nonnegative() ? "projected_gradient" : "gradient_descent";
}

void GradientDescent::start(Matrix X0)
{
    threads_ = resolve_threads(common().threads);
    X_ = std::move(X0);
    G_ = Matrix(X_.shape());
    trial_X_ = Matrix(X_.shape());
    best_X_ = Matrix(X_.shape());
    f_ = low_rank_->evaluate(X_, eval_, threads_);
    accept();
    step_ = initial_step_;
}

bool GradientDescent::try_step(double t)
{
    xt::noalias(trial_X_) = X_ - t * G_;
    if (low_rank_->nonnegative()) NonnegativeOrthant::project(trial_X_);
    trial_f_ = low_rank_->evaluate(trial_X_, trial_eval_, threads_);
    double g_dot_trial = blas::frobenius_dot(G_, trial_X_);
    low_rank_->reduce_sums(&g_dot_trial, 1);  // a distributed problem's blocks: every process decides alike
    return trial_f_ - f_ <= armijo_sigma_ * (g_dot_trial - g_dot_x_);
}

// Makes the trial point current (at start: computes the gradient of X).
void GradientDescent::accept()
{
    const double residual = low_rank_->gradient(X_, eval_, G_, threads_);
    double dots[2] = {blas::frobenius_dot(X_, X_), blas::frobenius_dot(G_, X_)};
    low_rank_->reduce_sums(dots, 2);
    residual_ = relative_residual(*low_rank_, residual, std::sqrt(dots[0]));
    g_dot_x_ = dots[1];
}

double GradientDescent::iterate_once()
{
    const double beta = armijo_beta_;
    const int64_t max_changes = max_backtracks_;
    double t = step_;
    bool found = false;
    if (try_step(t)) {
        // Lin's Alg. 4: grow while the condition keeps holding, keep the last admissible step.
        // The last admissible trial is kept in best_*; buffers are swapped, never copied.
        found = true;
        std::swap(best_X_, trial_X_);
        std::swap(best_eval_, trial_eval_);
        double best_f = trial_f_;
        for (int64_t k = 0; k < max_changes && try_step(t / beta); ++k) {
            t /= beta;
            std::swap(best_X_, trial_X_);
            std::swap(best_eval_, trial_eval_);
            best_f = trial_f_;
        }
        std::swap(trial_X_, best_X_);
        std::swap(trial_eval_, best_eval_);
        trial_f_ = best_f;
    } else {
        for (int64_t k = 0; k < max_changes && !found; ++k) {
            t *= beta;
            found = try_step(t);
        }
    }
    if (!found) return 0.0;  // no admissible step at working precision: X is kept
    std::swap(X_, trial_X_);
    std::swap(eval_, trial_eval_);
    f_ = trial_f_;
    accept();
    step_ = t;
    return t;
}

}  // namespace facto
