// The Helix EDM completion instance of [DAB] Sec. 4.2 (from Mishra et al.'s experiments).
#include <algorithm>
#include <cmath>

#include "base/random.hpp"
#include "data/data.hpp"
#include "base/error.hpp"

namespace facto {

Matrix helix_points(int64_t n, uint64_t seed)
{
    require(n >= 1, FACTO_ERROR_DIMENSION, "helix: n must be >= 1");
    Rng rng(seed);
    Matrix X({static_cast<std::size_t>(n), 3});
    for (std::size_t i = 0; i < X.shape()[0]; ++i) {
        const double t = 6.283185307179586 * rng.uniform();
        X(i, 0) = std::cos(3.0 * t);
        X(i, 1) = std::sin(3.0 * t);
        X(i, 2) = 2.0 * t;
    }
    return X;
}

ObservedPairs sample_pairs(const Matrix& X, double fraction, uint64_t seed)
{
    require(fraction > 0.0 && fraction <= 1.0, FACTO_ERROR_INVALID_ARGUMENT, "fraction must be in (0, 1], got " + value_text(fraction));
    const int64_t n = static_cast<int64_t>(X.shape()[0]);
    const std::size_t r = X.shape()[1];
    Rng rng(seed);
    // Skip lengths between kept pairs are geometric: floor(log U / log(1 - fraction)).
    const double log_miss = fraction < 1.0 ? std::log1p(-fraction) : 0.0;
    const double total = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
    // The gap to the next kept pair is 1 + a geometric number of skipped pairs.
    const auto gap = [&]() -> int64_t {
        if (fraction >= 1.0) return 1;
        const double skipped = std::floor(std::log(1.0 - rng.uniform()) / log_miss);
        return 1 + static_cast<int64_t>(std::min(skipped, total));
    };
    ObservedPairs pairs;
    const auto expected = static_cast<std::size_t>(fraction * total * 1.01 + 16);
    pairs.i.reserve(expected);
    pairs.j.reserve(expected);
    pairs.d.reserve(expected);
    int64_t i = 0, offset = gap() - 1;  // the pair (i, i + 1 + offset)
    for (;;) {
        while (i < n - 1 && offset >= n - 1 - i) offset -= n - 1 - i++;
        if (i >= n - 1) break;
        const int64_t j = i + 1 + offset;
        double d = 0.0;
        for (std::size_t k = 0; k < r; ++k) {
            const double diff = X(static_cast<std::size_t>(i), k) - X(static_cast<std::size_t>(j), k);
            d += diff * diff;
        }
        pairs.i.push_back(i);
        pairs.j.push_back(j);
        pairs.d.push_back(d);
        offset += gap();
    }
    return pairs;
}

}  // namespace facto
