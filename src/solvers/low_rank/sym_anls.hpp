// SymANLS (Zhu, Li, Liu & Li 2018), a baseline of [DAB] Sec. 4.1 and Fig. 1: alternating
// nonnegative least squares on the penalized nonsymmetric problem
//     min_{X, Y >= 0} 1/2 ||M - X Y^T||^2 + mu/2 ||X - Y||^2
// (the paper's (P-NMF) writes mu ||X - Y||^2: its mu is half of this one; the minimizers of both are
// those of sym_hals' objective). Each half-step is the exact block minimizer, by block principal
// pivoting warm-started from the previous block:
//     Y^T := argmin_{H >= 0} of the normal equations (X^T X + mu I) H = (M X)^T + mu X^T,
// then X likewise with Y fixed. The iterate is X; feasibility reports ||X - Y||_F / ||X||_F, which
// vanishes in the symmetric limit (large mu); the output "Y" gives the other factor.
#pragma once

#include "solvers/low_rank/symnmf_solver.hpp"

namespace facto {

class SymANLS final : public SymNMFSolver {
public:
    explicit SymANLS(std::shared_ptr<const SymNMF> problem);
    const char* algorithm() const override { return "sym_anls"; }
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name) const override;

private:
    void start(Matrix X0) override;
    double iterate_once() override;
    double current_feasibility() const override;

    Matrix Y_, H_, G_normal_, B_normal_;
    LowRankProblem::Evaluation y_eval_;  // first = M Y, second = Y^T Y
    double mu_ = 0.0;  // the parameter "mu"
};

}  // namespace facto
