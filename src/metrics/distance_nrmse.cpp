#include <cmath>
#include <string>

#include "base/random.hpp"
#include "base/error.hpp"
#include "metrics/metrics.hpp"

namespace facto {

namespace {

double squared_distance(const Matrix& X, std::size_t i, std::size_t j)
{
    double d = 0.0;
    for (std::size_t k = 0; k < X.shape()[1]; ++k) {
        const double diff = X(i, k) - X(j, k);
        d += diff * diff;
    }
    return d;
}

}  // namespace

double distance_nrmse(const Matrix& X, const Matrix& X_true, int64_t max_pairs, uint64_t seed)
{
    const std::size_t n = X.shape()[0];
    require(X_true.shape()[0] == n && n >= 2, FACTO_ERROR_DIMENSION,
            "distance_nrmse: X and X_true need the same number (>= 2) of points, got " + std::to_string(n) + " and " +
                std::to_string(X_true.shape()[0]));
    require(max_pairs >= 1, FACTO_ERROR_INVALID_ARGUMENT, "distance_nrmse: max_pairs must be >= 1, got " + std::to_string(max_pairs));
    double error = 0.0, norm = 0.0;
    const auto add = [&](std::size_t i, std::size_t j) {
        const double truth = squared_distance(X_true, i, j);
        const double diff = squared_distance(X, i, j) - truth;
        error += diff * diff;
        norm += truth * truth;
    };
    const double all_pairs = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
    if (all_pairs <= static_cast<double>(max_pairs)) {
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) add(i, j);
    } else {
        Rng rng(seed);
        for (int64_t s = 0; s < max_pairs; ++s) {
            const auto i = static_cast<std::size_t>(rng.uniform() * static_cast<double>(n));
            auto j = static_cast<std::size_t>(rng.uniform() * static_cast<double>(n - 1));
            if (j >= i) ++j;  // uniform over j != i
            add(i, j);
        }
    }
    require(norm > 0.0, FACTO_ERROR_INVALID_ARGUMENT, "distance_nrmse: all true distances are zero");
    return std::sqrt(error / norm);
}

}  // namespace facto
