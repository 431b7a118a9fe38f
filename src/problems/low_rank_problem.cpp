#include "problems/low_rank_problem.hpp"

#include "base/error.hpp"

namespace facto {

void LowRankProblem::add_linear_product(const std::vector<MatrixEntry>&, double, Matrix&) const
{
    throw Error(FACTO_ERROR_INTERNAL, std::string(kind()) + " has no linear product");
}

double LowRankProblem::evaluate_given_product(const Matrix&, Evaluation&, std::size_t) const
{
    throw Error(FACTO_ERROR_INTERNAL, std::string(kind()) + " has no linear product");
}

}  // namespace facto
