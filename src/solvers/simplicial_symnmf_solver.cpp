#include "facto/simplicial_symnmf_solver.hpp"

#include "facto/row_simplices.hpp"
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
    gap = row_simplex_lmo(G, W, vertex);  // Alg. 1 lines 2-4 via Alg. 2
}

}  // namespace facto
