// (Projected) gradient descent with an Armijo search, the Euclidean baseline of Dragomir et al.:
// `projected_gradient` for SymNMF (Kuang et al. 2015 / Lin 2007: beta = 0.1, sigma = 0.01) and
// `gradient_descent` for EDM completion. From the step t of the previous iteration, X+ = Pi(X - t G)
// is tested against the Armijo condition
//     f(X+) - f(X) <= sigma <G, X+ - X>;
// if it holds, t grows by 1/beta while it keeps holding; otherwise t shrinks by beta until it does
// (Lin 2007, Alg. 4). Pi is the projection onto X >= 0 for SymNMF and the identity otherwise. The
// stationarity measure is relative_residual's; an iteration that finds no admissible step within
// max_backtracks is a step of 0, and the solve ends STALLED.
#pragma once

#include <memory>

#include "problems/low_rank_problem.hpp"
#include "solvers/solver.hpp"

namespace facto {

class GradientDescent final : public Solver {
public:
    explicit GradientDescent(std::shared_ptr<const LowRankProblem> problem);
    const char* algorithm() const override;

private:
    void start(Matrix X0) override;
    double iterate_once() override;
    double current_objective() const override { return f_; }
    double current_stationarity() const override { return residual_; }
    const Matrix& current() const override { return X_; }
    // Evaluates X+ = Pi(X - t G) into the trial state; true when the Armijo condition holds.
    bool try_step(double t);
    void accept();

    std::shared_ptr<const LowRankProblem> low_rank_;
    std::size_t threads_ = 1;
    Matrix X_, G_, trial_X_, best_X_;
    LowRankProblem::Evaluation eval_, trial_eval_, best_eval_;
    double f_ = 0.0, trial_f_ = 0.0, residual_ = 0.0, g_dot_x_ = 0.0;  // g_dot_x_ = <grad f(X), X>
    double step_ = 1.0;
    // the parameters, bound to the table
    double initial_step_ = 0.0, armijo_sigma_ = 0.0, armijo_beta_ = 0.0;
    int64_t max_backtracks_ = 0;
};

std::vector<ParamSpec> gradient_descent_params();

}  // namespace facto
