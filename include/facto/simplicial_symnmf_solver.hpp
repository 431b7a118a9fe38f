// What every solver of simplicial SymNMF keeps at its iterate W, and the Solver accessors over it.
#pragma once

#include <memory>
#include <vector>

#include "facto/simplicial_symnmf.hpp"
#include "facto/solver.hpp"

namespace facto {

// W with P W, W^T W, f(W), the gradient G, and the LMO vertex with the Frank-Wolfe gap at W.
struct SymNMFPoint {
    Matrix W, PW, WtW, G;
    std::vector<int64_t> vertex;
    double f = 0.0, gap = 0.0;

    // Takes W0, allocates, computes P W by one GEMM, then refresh().
    void reset(const SimplicialSymNMF& problem, Matrix W0);
    // From W and P W: W^T W, f by the trace identity, G (eq. 7), vertex and gap (Alg. 2).
    void refresh(const SimplicialSymNMF& problem);
};

class SimplicialSymNMFSolver : public Solver {
protected:
    SimplicialSymNMFSolver(std::shared_ptr<const SimplicialSymNMF> problem, const std::vector<ParamSpec>& params)
        : Solver(problem, params), symnmf_(std::move(problem))
    {
    }
    double current_objective() const override { return point_.f; }
    double current_stationarity() const override { return point_.gap; }
    const Matrix& current() const override { return point_.W; }

    std::shared_ptr<const SimplicialSymNMF> symnmf_;
    SymNMFPoint point_;
};

}  // namespace facto
