#include "solvers/simplicial_symnmf/simplicial_symnmf_solver.hpp"

#include "base/error.hpp"
#include "sets/row_simplices.hpp"
#include "linalg/blas.hpp"

namespace facto {

void SymNMFPoint::reset(const SimplicialSymNMF& problem, Matrix W0)
{
    const std::size_t n = W0.shape()[0], k = W0.shape()[1];
    W = std::move(W0);
    PW = Matrix({n, k});
    WtW = Matrix({k, k});
    G = Matrix({n, k});
    problem.multiply(W, PW);
    refresh(problem);
}

void SymNMFPoint::refresh(const SimplicialSymNMF& problem)
{
    blas::gram(W, WtW);
    f = problem.objective(W, PW, WtW);
    problem.gradient(W, PW, WtW, G);
    const RowSimplexGaps gaps = RowSimplices::linear_minimizer(G, W, vertex, away);  // Alg. 1 lines 2-4 via Alg. 2
    gap = gaps.frank_wolfe;
    away_gap = gaps.away;
}

void SimplicialSymNMFSolver::reset_point(Matrix W0)
{
    point_.reset(*symnmf_, std::move(W0));
    start_objective_ = point_.f;
}

std::vector<OutputSpec> SimplicialSymNMFSolver::output_specs() const
{
    std::vector<OutputSpec> specs = problem().output_specs();
    specs.push_back(gaps_spec());
    return specs;
}

Output SimplicialSymNMFSolver::output(const std::string& name) const
{
    if (name != "gaps") return Solver::output(name);
    require(started(), FACTO_ERROR_BAD_STATE, "the solver has no iterate yet (step it, or set one)");
    return gaps_output(point_.gap, point_.away_gap);
}

}  // namespace facto
