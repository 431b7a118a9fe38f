#include "solvers/self_dictionary/fast_anchor.hpp"

#include <cstdint>

namespace facto {

FastAnchor::FastAnchor(std::shared_ptr<const SelfDictionary> problem)
    : GreedyAnchors(std::move(problem),
                    {int_param("projection", 1000, 1, INT32_MAX,
                               "dimension of the Gaussian random projection of the points (Arora et al.: 1000); "
                               "points of fewer dimensions are not projected")})
{
    mutable_params().bind("projection", projection_);
}

void FastAnchor::begin(uint64_t seed)
{
    spa_ = std::make_unique<SuccessiveProjection>(dictionary_->anchor_search_points(projection_, seed));
}

}  // namespace facto
