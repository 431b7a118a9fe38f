// The penalty method for simplicial SymNMF that [ZG] (Sec. 5) compare Frank-Wolfe with, after
// Zhao, Poupart, Zhang & Lysy (2015, Alg. 1): the constraints W 1 = 1 and W >= 0 of (1) become the
// penalties of
//     L_t(W) = f(W) + alpha_t/2 ||W 1_k - 1_n||^2 + beta_t/2 ||min(W, 0)||_F^2,
// minimized without constraints by at most `inner_iterations` (the paper: 50) iterations of L-BFGS,
// warm-started from the last iterate; then alpha_{t+1} = g alpha_t and beta_{t+1} = g beta_t with
// g = `penalty_growth` (the paper: 2) while W is infeasible (beyond feasibility_tolerance; at a
// feasible W the next inner loops refine it at the same coefficients, which the ill-conditioning of
// ever larger ones would stop). One facto iteration is one outer iteration. The iterate W is
// infeasible, approaching the feasible set as the coefficients grow: its feasibility is
// max(max_i |(W 1)_i - 1|, max_ij [-W_ij]_+), and its stationarity the Frank-Wolfe gap (relative to f
// at the start, as for Frank-Wolfe) at W's row-wise projection onto the simplices, so CONVERGED means
// a feasible point, to feasibility_tolerance, that is stationary for (1). The cited algorithm's text is
// not at hand: the penalty form, the inner solver and the starting coefficients are a reconstruction
// (docs/architecture.md).
#pragma once

#include "solvers/simplicial_symnmf/simplicial_symnmf_solver.hpp"

namespace facto {

class PenaltyMethod final : public SimplicialSymNMFSolver {
public:
    explicit PenaltyMethod(std::shared_ptr<const SimplicialSymNMF> problem);
    const char* algorithm() const override { return "penalty_method"; }
    // The problem's outputs, "gaps" (at the projection) and "penalties" (1 x 2: alpha_t, beta_t, the
    // coefficients the next outer iteration uses).
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name) const override;

private:
    void start(Matrix W0) override;
    double iterate_once() override;
    double current_objective() const override { return f_; }
    double current_feasibility() const override;
    const Matrix& current() const override { return W_; }

    // L_t(W) and its gradient into G (n x k each, row-major), at one P-product; keeps W, P W, W^T W
    // and f(W) in the work matrices and last_f_.
    double penalized(const double* W, double* G);
    // point_ := the row-wise projection of W_, for the gaps.
    void project_iterate();

    Matrix W_, work_W_, work_PW_, work_WtW_, work_G_;
    double f_ = 0.0, last_f_ = 0.0, alpha_ = 0.0, beta_ = 0.0;
    // the parameters, bound to the table
    int64_t inner_iterations_ = 0, lbfgs_memory_ = 0;
    double growth_ = 0.0, alpha0_ = 0.0, beta0_ = 0.0, inner_tolerance_ = 0.0, inner_decrease_ = 0.0;
};

}  // namespace facto
