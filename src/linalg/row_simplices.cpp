#include "facto/row_simplices.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "data/random.hpp"
#include "facto/error.hpp"

namespace facto {

SimplexVertices simplex_vertices(const double* g, const double* w, std::size_t k)
{
    SimplexVertices v{0, k, 0.0};
    for (std::size_t j = 0; j < k; ++j) {
        v.g_w += g[j] * w[j];                                    // Alg. 2 line 1: <grad, x>
        if (g[j] < g[v.s]) v.s = j;                              // Alg. 2 line 8: argmin_j grad_ij
        if (w[j] > kNegligibleWeight && (v.a == k || g[j] > g[v.a])) v.a = j;  // the support's worst
    }
    if (v.a == k) v.a = v.s;
    return v;
}

RowSimplexGaps row_simplex_lmo(const Matrix& G, const Matrix& W, std::vector<int64_t>& vertex,
                               std::vector<int64_t>& away)
{
    const std::size_t n = G.shape()[0], k = G.shape()[1];
    vertex.resize(n);
    away.resize(n);
    RowSimplexGaps gaps{0.0, 0.0};
    for (std::size_t i = 0; i < n; ++i) {
        const SimplexVertices v = simplex_vertices(&G(i, 0), &W(i, 0), k);
        vertex[i] = static_cast<int64_t>(v.s);
        away[i] = static_cast<int64_t>(v.a);
        gaps.frank_wolfe += v.g_w - G(i, v.s);                  // Alg. 2 line 3
        if (W(i, v.a) > kNegligibleWeight) gaps.away += G(i, v.a) - v.g_w;  // else no entry counts as support
    }
    return gaps;
}

FrankWolfeVariant frank_wolfe_variant(const std::string& name)
{
    if (name == "vanilla") return FrankWolfeVariant::vanilla;
    if (name == "away") return FrankWolfeVariant::away;
    if (name == "pairwise") return FrankWolfeVariant::pairwise;
    throw Error(FACTO_ERROR_INVALID_ARGUMENT, "unknown Frank-Wolfe variant '" + name + "' (vanilla, away, pairwise)");
}

BlockDirection block_direction(FrankWolfeVariant variant, int64_t s, int64_t a, double g_s, double g_a, double g_w,
                               double w_a)
{
    BlockDirection d;
    d.s = s;
    d.a = a;
    const double toward_gap = g_w - g_s, away_gap = g_a - g_w;
    if (variant == FrankWolfeVariant::pairwise) {
        if (s == a || !(g_a - g_s > 0.0)) return d;
        d.kind = BlockDirection::pairwise;
        d.slope = g_s - g_a;
        d.max_step = w_a;
    } else if (variant == FrankWolfeVariant::away && away_gap > toward_gap && w_a < 1.0) {
        d.kind = BlockDirection::away;
        d.slope = -away_gap;
        d.max_step = w_a / (1.0 - w_a);
    } else if (toward_gap > 0.0) {
        d.kind = BlockDirection::toward;
        d.slope = -toward_gap;
        d.max_step = 1.0;
    }
    return d;
}

void project_rows_onto_simplex(Matrix& X)
{
    const std::size_t n = X.shape()[0], k = X.shape()[1];
    std::vector<double> sorted(k);
    for (std::size_t i = 0; i < n; ++i) {
        double* x = &X(i, 0);
        // the projection commutes with adding a constant to the row: relative to its largest entry,
        // entries of 1e200 (a long projected-gradient trial) do not swallow the 1 of the sum
        const double top = *std::max_element(x, x + k);
        for (std::size_t j = 0; j < k; ++j) x[j] -= top;
        std::copy(x, x + k, sorted.begin());
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        // theta = (sum of the r largest - 1) / r for the largest r with sorted[r-1] > theta.
        double cumulative = 0.0, theta = 0.0;
        for (std::size_t r = 0; r < k; ++r) {
            cumulative += sorted[r];
            const double candidate = (cumulative - 1.0) / static_cast<double>(r + 1);
            if (sorted[r] > candidate) theta = candidate;
        }
        for (std::size_t j = 0; j < k; ++j) x[j] = std::max(x[j] - theta, 0.0);
    }
}

std::vector<int64_t> row_argmax(const Matrix& X)
{
    const std::size_t n = X.shape()[0], k = X.shape()[1];
    std::vector<int64_t> labels(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double* x = &X(i, 0);
        labels[i] = static_cast<int64_t>(std::max_element(x, x + k) - x);
    }
    return labels;
}

Matrix row_simplex_feasible(const Matrix& X, double tolerance)
{
    require_finite(X, "iterate");
    Matrix W = X;
    const std::size_t n = W.shape()[0], k = W.shape()[1];
    for (std::size_t i = 0; i < n; ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < k; ++j) {
            if (!(W(i, j) >= 0.0))
                throw Error(FACTO_ERROR_INFEASIBLE,
                            "iterate: entry (" + std::to_string(i) + ", " + std::to_string(j) + ") is negative");
            sum += W(i, j);
        }
        if (!(std::fabs(sum - 1.0) <= tolerance))
            throw Error(FACTO_ERROR_INFEASIBLE, "iterate: row " + std::to_string(i) + " sums to " + std::to_string(sum) + ", not 1");
        for (std::size_t j = 0; j < k; ++j) W(i, j) /= sum;
    }
    return W;
}

Matrix row_simplex_random(int64_t rows, int64_t cols, uint64_t seed)
{
    Rng rng(seed);
    Matrix W({static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)});
    for (std::size_t i = 0; i < W.shape()[0]; ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < W.shape()[1]; ++j) sum += W(i, j) = rng.exponential();
        for (std::size_t j = 0; j < W.shape()[1]; ++j) W(i, j) /= sum;
    }
    return W;
}

}  // namespace facto
