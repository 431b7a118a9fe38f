#include "solvers/spa.hpp"

#include "base/error.hpp"
#include "linalg/parallel.hpp"
#include "linalg/simplex_least_squares.hpp"

namespace facto {

Spa::Spa(std::shared_ptr<const SelfDictionary> problem) : SelfDictionarySolver(std::move(problem), {}) {}

void Spa::start(Matrix)
{
    throw Error(FACTO_ERROR_UNSUPPORTED, "spa starts from the data alone; it takes no iterate");
}

void Spa::start_default(uint64_t)
{
    require(dictionary_->K() > 0, FACTO_ERROR_INVALID_ARGUMENT, "spa needs K (give K to the problem)");
    spa_ = std::make_unique<SuccessiveProjection>(dictionary_->Xt());
    C_ = SimplexColumns{};
    C_.columns.resize(static_cast<std::size_t>(dictionary_->N()));
}

double Spa::iterate_once()
{
    const auto K = static_cast<std::size_t>(dictionary_->K());
    if (spa_->selected().size() >= K) return 0.0;
    spa_->next();
    if (spa_->selected().size() == K) {
        // C(selected, :) = H, the simplex-constrained least squares on the picks
        C_ = SimplexColumns::from_selected(spa_->selected(), simplex_least_squares(dictionary_->Xt(), spa_->selected(),
                                                                                 resolve_threads(common().threads)));
    }
    return 1.0;
}

double Spa::current_objective() const { return spa_->residual(); }

double Spa::current_stationarity() const
{
    return static_cast<double>(dictionary_->K() - static_cast<int64_t>(spa_->selected().size()));
}

}  // namespace facto
