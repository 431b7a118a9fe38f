// Projected gradient descent for simplicial SymNMF, the baseline of [ZG] Sec. 5: a gradient
// step projected row-wise onto the simplex, with a backtracking (Armijo) search along the projection
// arc,  f(W(t)) <= f(W) + sigma <grad f(W), W(t) - W>,  t shrunk by beta. Each trial costs one product
// P W(t); the accepted one is reused for the next gradient. Monotone by construction. Its stationarity
// measure is the Frank-Wolfe gap relative to f at the start, as for Frank-Wolfe, so that tolerances
// compare like with like; an iteration that accepts no trial is a step of 0, and the solve ends STALLED.
#pragma once

#include "solvers/simplicial_symnmf/simplicial_symnmf_solver.hpp"

namespace facto {

class ProjectedGradient final : public SimplicialSymNMFSolver {
public:
    explicit ProjectedGradient(std::shared_ptr<const SimplicialSymNMF> problem);
    const char* algorithm() const override { return "projected_gradient"; }

private:
    void start(Matrix W0) override;
    double iterate_once() override;

    Matrix trial_W_, trial_PW_, trial_WtW_;
    double step_ = 0.0;  // last accepted step length t
    // the parameters, bound to the table
    double initial_step_ = 0.0, sigma_ = 0.0, beta_ = 0.0;
    int64_t max_backtracks_ = 0;
};

std::vector<ParamSpec> projected_gradient_params();

}  // namespace facto
