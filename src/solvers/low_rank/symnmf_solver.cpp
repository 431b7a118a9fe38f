#include "solvers/low_rank/symnmf_solver.hpp"

#include <cmath>

#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"

namespace facto {

SymNMFSolver::SymNMFSolver(std::shared_ptr<const SymNMF> problem, const std::vector<ParamSpec>& specific_params)
    : Solver(problem, specific_params), symnmf_(std::move(problem))
{
}

void SymNMFSolver::start(Matrix X0)
{
    threads_ = resolve_threads(common().threads);
    X_ = std::move(X0);
    G_ = Matrix(X_.shape());
    measure();
}

void SymNMFSolver::measure()
{
    f_ = symnmf_->evaluate(X_, eval_, threads_);
    residual_ = relative_residual(*symnmf_, symnmf_->gradient(X_, eval_, G_, threads_),
                                  std::sqrt(blas::frobenius_dot(X_, X_)));
}

}  // namespace facto
