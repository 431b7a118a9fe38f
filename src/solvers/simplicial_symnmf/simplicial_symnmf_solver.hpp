// What every solver of simplicial SymNMF keeps at its iterate W, and the Solver accessors over it.
#pragma once

#include <memory>
#include <vector>

#include "problems/simplicial_symnmf.hpp"
#include "solvers/solver.hpp"

namespace facto {

// W with P W, W^T W, f(W), the gradient G, the LMO vertex with the Frank-Wolfe gap, and the away
// vertex with the away gap at W.
struct SymNMFPoint {
    Matrix W, PW, WtW, G;
    std::vector<int64_t> vertex, away;
    double f = 0.0, gap = 0.0, away_gap = 0.0;

    // Takes W0, allocates, computes P W by one GEMM, then refresh().
    void reset(const SimplicialSymNMF& problem, Matrix W0);
    // From W and P W: W^T W, f by the trace identity, G (eq. 7), vertex and gap (Alg. 2), away vertex
    // and away gap.
    void refresh(const SimplicialSymNMF& problem);
};

class SimplicialSymNMFSolver : public Solver {
public:
    // The problem's outputs and "gaps" (1 x 3: the Frank-Wolfe gap, the away gap, the pairwise gap).
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name) const override;

protected:
    SimplicialSymNMFSolver(std::shared_ptr<const SimplicialSymNMF> problem, const std::vector<ParamSpec>& params)
        : Solver(problem, params), symnmf_(std::move(problem))
    {
    }
    double current_objective() const override { return point_.f; }
    // The Frank-Wolfe gap relative to the objective at the start (relative_gap).
    double current_stationarity() const override { return relative_gap(point_.gap, start_objective_); }
    const Matrix& current() const override { return point_.W; }
    // point_ := W0 with its products; its objective becomes the scale of the stationarity measure.
    void reset_point(Matrix W0);

    std::shared_ptr<const SimplicialSymNMF> symnmf_;
    SymNMFPoint point_;
    double start_objective_ = 0.0;
};

}  // namespace facto
