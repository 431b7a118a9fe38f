#include "sets/orthant.hpp"

#include <algorithm>
#include <string>

#include <xtensor/xmath.hpp>

#include "base/error.hpp"

namespace facto {

void NonnegativeOrthant::project(Matrix& X)
{
    for (auto& x : X) x = std::max(x, 0.0);
}

Matrix NonnegativeOrthant::feasible_point(const Matrix& X, const char* problem)
{
    require_finite(X, "iterate");
    require(xt::amin(X)() >= 0.0, FACTO_ERROR_INFEASIBLE, std::string("iterate: ") + problem + " needs X >= 0");
    return X;
}

}  // namespace facto
