#include <algorithm>
#include <map>

#include "base/error.hpp"
#include "metrics/metrics.hpp"

namespace facto {

double clustering_accuracy(const std::vector<int64_t>& predicted, const std::vector<int64_t>& truth)
{
    require(predicted.size() == truth.size() && !predicted.empty(), FACTO_ERROR_DIMENSION,
            "clustering accuracy needs two label vectors of the same, nonzero length");
    std::map<int64_t, std::size_t> predicted_index, truth_index;
    for (int64_t label : predicted) predicted_index.emplace(label, predicted_index.size());
    for (int64_t label : truth) truth_index.emplace(label, truth_index.size());
    const std::size_t m = std::max(predicted_index.size(), truth_index.size());
    // Cost = -(contingency count); padding rows/columns of zeros make it square.
    Matrix cost = xt::zeros<double>({m, m});
    for (std::size_t i = 0; i < predicted.size(); ++i)
        cost(predicted_index[predicted[i]], truth_index[truth[i]]) -= 1.0;
    const std::vector<int64_t> match = min_cost_assignment(cost);
    double matched = 0.0;
    for (std::size_t r = 0; r < m; ++r) matched -= cost(r, static_cast<std::size_t>(match[r]));
    return matched / static_cast<double>(predicted.size());
}

}  // namespace facto
