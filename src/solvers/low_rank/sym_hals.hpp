// SymHALS (Zhu, Li, Liu & Li 2018), a baseline of [DAB] Sec. 4.1: HALS on the penalized
// nonsymmetric problem  min_{X, Y >= 0} ||M - X Y^T||^2 + mu ||X - Y||^2. Column k of X becomes
//     x_k := max(0, x_k + ((M Y)_k - X (Y^T Y)_k + mu (y_k - x_k)) / ((Y^T Y)_kk + mu)),
// the columns in order, then Y likewise with X fixed. Two products with M per iteration (M Y, and the
// M X that measure() forms anyway). The iterate is X; mu = 0.1 (the paper's value for text; 0.01 for
// images).
#pragma once

#include "solvers/low_rank/symnmf_solver.hpp"

namespace facto {

class SymHALS final : public SymNMFSolver {
public:
    explicit SymHALS(std::shared_ptr<const SymNMF> problem);
    const char* algorithm() const override { return "sym_hals"; }

private:
    void start(Matrix X0) override;
    double iterate_once() override;

    Matrix Y_;
    LowRankProblem::Evaluation y_eval_;  // first = M Y, second = Y^T Y
    double mu_ = 0.0;  // the parameter "mu"
};

}  // namespace facto
