// What the self_dictionary solvers share: C kept by columns (never dense), the outputs computed from
// it, and a dense N x N iterate built only when a caller asks for it.
#pragma once

#include <memory>

#include "problems/self_dictionary.hpp"
#include "solvers/solver.hpp"

namespace facto {

class SelfDictionarySolver : public Solver {
public:
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name) const override;
    const SimplexColumns& columns() const { return C_; }

protected:
    SelfDictionarySolver(std::shared_ptr<const SelfDictionary> problem, const std::vector<ParamSpec>& params);
    // The dense C, built on demand; refused (UNSUPPORTED) above 2^27 entries (1 GiB): read the
    // outputs instead.
    const Matrix& current() const override;

    std::shared_ptr<const SelfDictionary> dictionary_;
    SimplexColumns C_;

private:
    mutable Matrix dense_;
};

}  // namespace facto
