// Choosing the number of clusters from restarts: the consensus matrix of several clusterings and its
// stability scores, the cophenetic correlation (Brunet, Tamayo, Golub & Mesirov 2004) and the dispersion
// (Kim & Park 2007).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "metrics/metrics.hpp"

namespace facto {

Matrix consensus_matrix(const std::vector<std::vector<int64_t>>& runs)
{
    require(!runs.empty(), FACTO_ERROR_DIMENSION, "consensus: no clusterings");
    const std::size_t n = runs.front().size();
    for (const auto& labels : runs)
        require(labels.size() == n, FACTO_ERROR_DIMENSION,
                "consensus: clusterings of " + std::to_string(labels.size()) + " and " + std::to_string(n) + " points");
    require_memory(8.0 * static_cast<double>(n) * static_cast<double>(n), "the consensus matrix");
    Matrix C({n, n}, 0.0);
    const double share = 1.0 / static_cast<double>(runs.size());
    for (const auto& labels : runs)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                if (labels[i] >= 0 && labels[i] == labels[j]) C(i, j) += share;
    return C;
}

namespace {
// Average-linkage (UPGMA) hierarchical clustering of the distances D (n x n, overwritten) by the
// nearest-neighbour chain, O(n^2) time: calls merged(A, B, height) with the two clusters' points.
template <class Merged>
void average_linkage(Matrix& D, const Merged& merged)
{
    const std::size_t n = D.shape()[0];
    std::vector<std::vector<std::size_t>> members(n);
    std::vector<bool> active(n, true);
    for (std::size_t i = 0; i < n; ++i) members[i] = {i};
    std::vector<std::size_t> chain;
    for (std::size_t left = n; left > 1;) {
        if (chain.empty())
            chain.push_back(static_cast<std::size_t>(std::find(active.begin(), active.end(), true) - active.begin()));
        const std::size_t a = chain.back();
        std::size_t b = n;
        double best = std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < n; ++c)
            if (active[c] && c != a && D(a, c) < best) best = D(a, c), b = c;
        if (chain.size() >= 2 && D(a, chain[chain.size() - 2]) <= best) b = chain[chain.size() - 2];  // ties: reciprocal
        if (chain.size() < 2 || b != chain[chain.size() - 2]) {
            chain.push_back(b);
            continue;
        }
        chain.pop_back(), chain.pop_back();
        merged(members[a], members[b], D(a, b));
        // Lance-Williams for the average: d(k, a + b) = (n_a d(k, a) + n_b d(k, b)) / (n_a + n_b), kept in a
        const auto na = static_cast<double>(members[a].size()), nb = static_cast<double>(members[b].size());
        for (std::size_t k = 0; k < n; ++k)
            if (active[k] && k != a && k != b) D(a, k) = D(k, a) = (na * D(a, k) + nb * D(b, k)) / (na + nb);
        members[a].insert(members[a].end(), members[b].begin(), members[b].end());
        members[b].clear();
        active[b] = false;
        --left;
    }
}
}  // namespace

ConsensusScores consensus_scores(const Matrix& C)
{
    const std::size_t n = C.shape()[0];
    require(n >= 2 && C.shape()[1] == n, FACTO_ERROR_DIMENSION, "consensus: a square matrix of at least 2 points");
    ConsensusScores scores{1.0, 0.0};
    for (double c : C) scores.dispersion += 4.0 * (c - 0.5) * (c - 0.5);
    scores.dispersion /= static_cast<double>(n) * static_cast<double>(n);
    // Pearson's correlation over the pairs i < j of the distance 1 - C_ij and the height at which average
    // linkage first joins i and j
    Matrix D = 1.0 - C;
    double sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0;
    average_linkage(D, [&](const std::vector<std::size_t>& A, const std::vector<std::size_t>& B, double height) {
        for (std::size_t a : A)
            for (std::size_t b : B) {
                const double x = 1.0 - C(a, b);
                sx += x, sy += height, sxx += x * x, syy += height * height, sxy += x * height;
            }
    });
    const double pairs = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
    const double vx = sxx - sx * sx / pairs, vy = syy - sy * sy / pairs, cxy = sxy - sx * sy / pairs;
    // equal distances everywhere (one cluster in every run, or none): the tree reproduces them exactly
    if (vx > 1e-12 * pairs && vy > 1e-12 * pairs) scores.cophenetic = cxy / std::sqrt(vx * vy);
    return scores;
}

}  // namespace facto
