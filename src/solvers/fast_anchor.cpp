#include "solvers/fast_anchor.hpp"

#include <cstdint>

#include "base/error.hpp"
#include "linalg/parallel.hpp"
#include "linalg/simplex_least_squares.hpp"

namespace facto {

FastAnchor::FastAnchor(std::shared_ptr<const SelfDictionary> problem)
    : SelfDictionarySolver(std::move(problem),
                           {int_param("projection", 1000, 1, INT32_MAX,
                                      "dimension of the Gaussian random projection of the points (Arora et al.: "
                                      "1000); points of fewer dimensions are not projected")})
{
    mutable_params().bind("projection", projection_);
}

void FastAnchor::start(Matrix)
{
    throw Error(FACTO_ERROR_UNSUPPORTED, "fast_anchor starts from the data alone; it takes no iterate");
}

void FastAnchor::start_default(uint64_t seed)
{
    require(dictionary_->K() > 0, FACTO_ERROR_INVALID_ARGUMENT, "fast_anchor needs K (give K to the problem)");
    spa_ = std::make_unique<SuccessiveProjection>(dictionary_->anchor_search_points(projection_, seed));
    C_ = SimplexColumns{};
    C_.columns.resize(static_cast<std::size_t>(dictionary_->N()));
}

double FastAnchor::iterate_once()
{
    const auto K = static_cast<std::size_t>(dictionary_->K());
    if (spa_->selected().size() >= K) return 0.0;
    spa_->next();
    if (spa_->selected().size() == K)
        C_ = SimplexColumns::from_selected(spa_->selected(), simplex_least_squares(dictionary_->Xt(), spa_->selected(),
                                                                                 resolve_threads(common().threads)));
    return 1.0;
}

double FastAnchor::current_objective() const { return spa_->residual(); }

double FastAnchor::current_stationarity() const
{
    return static_cast<double>(dictionary_->K() - static_cast<int64_t>(spa_->selected().size()));
}

}  // namespace facto
