#include "solvers/self_dictionary/greedy_anchors.hpp"

#include <string>

#include "base/error.hpp"
#include "linalg/parallel.hpp"

namespace facto {

void GreedyAnchors::start(Matrix)
{
    throw Error(FACTO_ERROR_UNSUPPORTED, std::string(algorithm()) + " starts from the data alone; it takes no iterate");
}

void GreedyAnchors::start_default(uint64_t seed)
{
    require(dictionary_->K() > 0, FACTO_ERROR_INVALID_ARGUMENT,
            std::string(algorithm()) + " needs K (give K to the problem)");
    picks_.clear();
    C_ = SimplexColumns{};
    C_.columns.resize(static_cast<std::size_t>(dictionary_->N()));
    begin(seed);
}

double GreedyAnchors::iterate_once()
{
    const auto K = static_cast<std::size_t>(dictionary_->K());
    if (picks_.size() >= K) return 0.0;
    picks_.push_back(pick());
    if (picks_.size() == K)  // C(J, :) = H, the simplex-constrained least squares on the picks
        C_ = SimplexColumns::from_selected(picks_, dictionary_->coefficients(picks_, resolve_threads(common().threads)));
    return 1.0;
}

double GreedyAnchors::current_stationarity() const
{
    return static_cast<double>(dictionary_->K() - static_cast<int64_t>(picks_.size()));
}

}  // namespace facto
