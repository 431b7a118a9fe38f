#include "facto/low_rank_problem.hpp"

#include <cmath>

#include <xtensor/xmath.hpp>

#include "linalg/blas.hpp"

namespace facto {

double LowRankProblem::stationarity(const Matrix& X, const Matrix& G) const
{
    return nonnegative() ? std::sqrt(xt::sum(xt::square(xt::minimum(X, G)))()) : std::sqrt(blas::frobenius_dot(G, G));
}

}  // namespace facto
