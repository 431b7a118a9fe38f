#include "sets/row_simplices.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <xtensor/xview.hpp>

#include "base/random.hpp"
#include "base/error.hpp"

namespace facto {

RowSimplexGaps RowSimplices::linear_minimizer(const Matrix& G, const Matrix& W, std::vector<int64_t>& vertex,
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

void RowSimplices::project(Matrix& X)
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

std::vector<bool> scale_rows_to_one(Matrix& X)
{
    const std::size_t n = X.shape()[0], k = X.shape()[1];
    std::vector<bool> zero(n, false);
    for (std::size_t i = 0; i < n; ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < k; ++j) sum += X(i, j);
        zero[i] = !(sum > 0.0);
        for (std::size_t j = 0; j < k && !zero[i]; ++j) X(i, j) /= sum;
    }
    return zero;
}

Matrix RowSimplices::feasible_point(const Matrix& X, double tolerance) const
{
    require_shape(X, rows_, cols_, "iterate");
    require_finite(X, "iterate");
    const std::size_t n = X.shape()[0], k = X.shape()[1], off = first_row_off(X, tolerance);
    if (off < n) {
        const auto row = xt::row(X, static_cast<std::ptrdiff_t>(off));
        const auto negative = std::find_if(row.begin(), row.end(), [](double v) { return !(v >= 0.0); });
        if (negative != row.end())
            throw Error(FACTO_ERROR_INFEASIBLE, "iterate: entry (" + std::to_string(off) + ", " +
                                                    std::to_string(negative - row.begin()) + ") is negative");
        throw Error(FACTO_ERROR_INFEASIBLE,
                    "iterate: row " + std::to_string(off) + " sums to " + std::to_string(xt::sum(row)()) + ", not 1");
    }
    Matrix W = X;
    for (std::size_t i = 0; i < n; ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < k; ++j) sum += W(i, j);
        for (std::size_t j = 0; j < k; ++j) W(i, j) /= sum;
    }
    return W;
}

std::size_t RowSimplices::first_row_off(const Matrix& X, double tolerance)
{
    const std::size_t n = X.shape()[0], k = X.shape()[1];
    for (std::size_t i = 0; i < n; ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < k; ++j) {
            if (!(X(i, j) >= 0.0)) return i;
            sum += X(i, j);
        }
        if (!(std::fabs(sum - 1.0) <= tolerance)) return i;
    }
    return n;
}

Matrix RowSimplices::random_point(uint64_t seed) const
{
    Rng rng(seed);
    Matrix W({static_cast<std::size_t>(rows_), static_cast<std::size_t>(cols_)});
    for (std::size_t i = 0; i < W.shape()[0]; ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < W.shape()[1]; ++j) sum += W(i, j) = rng.exponential();
        for (std::size_t j = 0; j < W.shape()[1]; ++j) W(i, j) /= sum;
    }
    return W;
}

}  // namespace facto
