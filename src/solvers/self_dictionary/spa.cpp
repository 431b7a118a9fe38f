#include "solvers/self_dictionary/spa.hpp"

namespace facto {

Spa::Spa(std::shared_ptr<const SelfDictionary> problem) : GreedyAnchors(std::move(problem), {}) {}

void Spa::begin(uint64_t)
{
    spa_ = dictionary_->sparse() ? std::make_unique<SuccessiveProjection>(dictionary_->sparse_Xt())
                                 : std::make_unique<SuccessiveProjection>(dictionary_->Xt());
}

}  // namespace facto
