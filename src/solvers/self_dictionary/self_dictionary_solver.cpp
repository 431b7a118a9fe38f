#include "solvers/self_dictionary/self_dictionary_solver.hpp"

#include <string>

#include "base/error.hpp"

namespace facto {

SelfDictionarySolver::SelfDictionarySolver(std::shared_ptr<const SelfDictionary> problem,
                                           const std::vector<ParamSpec>& params)
    : Solver(problem, params), dictionary_(std::move(problem))
{
}

const Matrix& SelfDictionarySolver::current() const
{
    const int64_t n = dictionary_->N(), columns = dictionary_->columns();
    require(columns <= (int64_t{1} << 27) / n, FACTO_ERROR_UNSUPPORTED,
            "the dense iterate C would be " + std::to_string(n) + " x " + std::to_string(columns) +
                "; read the outputs 'selected', 'H' and 'nnz' instead");
    dense_ = C_.to_dense(static_cast<std::size_t>(n));
    return dense_;
}

std::vector<OutputSpec> SelfDictionarySolver::output_specs() const { return dictionary_->output_specs(C_); }

Output SelfDictionarySolver::output(const std::string& name) const
{
    require(started(), FACTO_ERROR_BAD_STATE, "the solver has no iterate yet (step it, or set one)");
    return dictionary_->output(name, C_);
}

}  // namespace facto
