// The averaged Spearman rank correlation (SRC) of mixed-membership estimates (Mao, Sarkar &
// Chakrabarti 2017; [NFW] Sec. V-C): Spearman's correlation of every estimated community
// with every true one over the nodes, the matching of communities with the largest total, the mean
// of the matched correlations.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "base/error.hpp"
#include "metrics/metrics.hpp"

namespace facto {

namespace {
// Ranks 1..n of column j of X, ties given their average rank.
std::vector<double> average_ranks(const Matrix& X, std::size_t j)
{
    const std::size_t n = X.shape()[0];
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return X(a, j) < X(b, j); });
    std::vector<double> rank(n);
    for (std::size_t first = 0; first < n;) {
        std::size_t last = first + 1;
        while (last < n && X(order[last], j) == X(order[first], j)) ++last;
        const double average = 0.5 * static_cast<double>(first + last + 1);  // ranks first+1 .. last
        for (std::size_t t = first; t < last; ++t) rank[order[t]] = average;
        first = last;
    }
    return rank;
}

// Pearson correlation of a and b; 0 when either is constant (no ranking to agree with).
double pearson(const std::vector<double>& a, const std::vector<double>& b)
{
    const double n = static_cast<double>(a.size());
    const double mean_a = std::accumulate(a.begin(), a.end(), 0.0) / n;
    const double mean_b = std::accumulate(b.begin(), b.end(), 0.0) / n;
    double ab = 0.0, aa = 0.0, bb = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        ab += (a[i] - mean_a) * (b[i] - mean_b);
        aa += (a[i] - mean_a) * (a[i] - mean_a);
        bb += (b[i] - mean_b) * (b[i] - mean_b);
    }
    return aa > 0.0 && bb > 0.0 ? ab / std::sqrt(aa * bb) : 0.0;
}
}  // namespace

double spearman_correlation(const Matrix& A, std::size_t i, const Matrix& B, std::size_t j)
{
    return pearson(average_ranks(A, i), average_ranks(B, j));
}

double averaged_spearman(const Matrix& H_hat, const Matrix& H)
{
    const std::size_t n = H.shape()[0], K = H.shape()[1];
    require(H_hat.shape()[0] == n && H_hat.shape()[1] == K && n >= 2 && K >= 1, FACTO_ERROR_DIMENSION,
            "SRC: the estimate is " + std::to_string(H_hat.shape()[0]) + " x " + std::to_string(H_hat.shape()[1]) +
                ", the truth " + std::to_string(n) + " x " + std::to_string(K) + " (n >= 2 nodes needed)");
    require_finite(H_hat, "H_hat");
    require_finite(H, "H");
    Matrix cost({K, K});
    for (std::size_t a = 0; a < K; ++a)
        for (std::size_t b = 0; b < K; ++b) cost(a, b) = -spearman_correlation(H_hat, a, H, b);
    const std::vector<int64_t> match = min_cost_assignment(cost);
    double sum = 0.0;
    for (std::size_t a = 0; a < K; ++a) sum -= cost(a, static_cast<std::size_t>(match[a]));
    return sum / static_cast<double>(K);
}

}  // namespace facto
