#include "solvers/low_rank/beta_snmf.hpp"

#include <limits>

#include "linalg/blas.hpp"

namespace facto {

BetaSNMF::BetaSNMF(std::shared_ptr<const SymNMF> problem)
    : SymNMFSolver(std::move(problem), {real_param("beta", 0.99, 1e-6, 1.0, "weight of the multiplicative update")})
{
    mutable_params().bind("beta", beta_);
}

double BetaSNMF::iterate_once()
{
    const double beta = beta_;
    if (XXtX_.shape() != X_.shape()) XXtX_ = Matrix(X_.shape());
    blas::gemm(false, false, 1.0, X_, eval_.second, 0.0, XXtX_);  // X (X^T X)
    const Matrix& MX = eval_.first;
    const double tiny = std::numeric_limits<double>::min();
    for (std::size_t p = 0; p < X_.size(); ++p) {
        // a zero entry stays zero; where its (X X^T X) entry is 0 too (a zero row) the ratio is inf and
        // the update would make 0 * inf = NaN
        if (X_.data()[p] == 0.0) continue;
        const double ratio = MX.data()[p] / std::max(XXtX_.data()[p], tiny);
        X_.data()[p] *= 1.0 - beta + beta * ratio;
    }
    measure();
    return beta;
}

}  // namespace facto
