#include "solvers/low_rank/sym_hals.hpp"

#include <algorithm>
#include <limits>

namespace facto {

namespace {

// The HALS sweep over the columns of A with B fixed: MB = M B, BtB = B^T B.
void hals_columns(Matrix& A, const Matrix& B, const Matrix& MB, const Matrix& BtB, double mu)
{
    const std::size_t n = A.shape()[0], r = A.shape()[1];
    for (std::size_t k = 0; k < r; ++k) {
        const double scale = 1.0 / (BtB(k, k) + mu);
        for (std::size_t i = 0; i < n; ++i) {
            double a_btb = 0.0;  // (A (B^T B))_ik with the columns updated so far
            for (std::size_t l = 0; l < r; ++l) a_btb += A(i, l) * BtB(l, k);
            A(i, k) = std::max(0.0, A(i, k) + (MB(i, k) - a_btb + mu * (B(i, k) - A(i, k))) * scale);
        }
    }
}

}  // namespace

SymHALS::SymHALS(std::shared_ptr<const SymNMF> problem)
    : SymNMFSolver(std::move(problem),
                   {real_param("mu", 0.1, 0.0, std::numeric_limits<double>::infinity(),
                               "penalty on ||X - Y||^2 (paper: 0.1 for text, 0.01 for images)")})
{
    mutable_params().bind("mu", mu_);
}

void SymHALS::start(Matrix X0)
{
    Y_ = X0;
    SymNMFSolver::start(std::move(X0));
}

double SymHALS::iterate_once()
{
    const double mu = mu_;
    symnmf_->evaluate(Y_, y_eval_, threads_);
    hals_columns(X_, Y_, y_eval_.first, y_eval_.second, mu);
    measure();  // M X and X^T X for the Y half, and f at the iterate X
    hals_columns(Y_, X_, eval_.first, eval_.second, mu);
    return 1.0;  // each half moves to its exact block minimizer: a full step
}

}  // namespace facto
