// The state every SymNMF-specific baseline shares (beta_snmf, coordinate_descent, sym_hals): the
// iterate X >= 0, its products M X and X^T X, f(X) and the projected-gradient residual
// ||min(X, grad f(X))|| relative to 2 ||M||_F ||X||_F (relative_residual), all refreshed by measure()
// after each iteration (one product M X).
#pragma once

#include <memory>

#include "solvers/solver.hpp"
#include "problems/symnmf.hpp"

namespace facto {

class SymNMFSolver : public Solver {
protected:
    SymNMFSolver(std::shared_ptr<const SymNMF> problem, const std::vector<ParamSpec>& specific_params);

    void start(Matrix X0) override;
    double current_objective() const override { return f_; }
    double current_stationarity() const override { return residual_; }
    const Matrix& current() const override { return X_; }
    // Recomputes M X, X^T X, f, grad f and the residual at the current X_.
    void measure();

    std::shared_ptr<const SymNMF> symnmf_;
    std::size_t threads_ = 1;
    Matrix X_, G_;
    LowRankProblem::Evaluation eval_;  // first = M X, second = X^T X
    double f_ = 0.0, residual_ = 0.0;
};

}  // namespace facto
