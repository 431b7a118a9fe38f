// The kNN similarity graph of Kuang, Yun & Park 2015, Sec. 7.1 (see facto/data.hpp).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <xtensor/xview.hpp>

#include "data/data.hpp"
#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"

namespace facto {

namespace {

struct Neighbors {
    std::vector<int64_t> index;  // n x m, best first
    std::vector<double> key;     // squared distance (Gaussian) or minus the cosine
};

// The m most similar other rows of every row: Gram blocks by GEMM, then a partial sort per row by
// (key, index) so ties break the same way on every machine.
Neighbors nearest(const Matrix& X, const Vector& norms2, std::size_t m, Similarity kind)
{
    const std::size_t n = X.shape()[0], block = 256;
    Neighbors result{std::vector<int64_t>(n * m), std::vector<double>(n * m)};
    Matrix rows_block, G;
    for (std::size_t start = 0; start < n; start += block) {
        const std::size_t b = std::min(block, n - start);
        rows_block = xt::view(X, xt::range(start, start + b), xt::all());
        G = Matrix({b, n});
        blas::gemm(false, true, 1.0, rows_block, X, 0.0, G);
        parallel_for(b, 8, resolve_threads(0), [&](std::size_t begin, std::size_t end) {
            std::vector<std::pair<double, int64_t>> keyed(n - 1);
            for (std::size_t r = begin; r < end; ++r) {
                const std::size_t i = start + r;
                std::size_t c = 0;
                for (std::size_t j = 0; j < n; ++j) {
                    if (j == i) continue;
                    const double key = kind == Similarity::Gaussian
                                           ? std::max(0.0, norms2(i) + norms2(j) - 2.0 * G(r, j))
                                           : -G(r, j) / std::max(std::sqrt(norms2(i) * norms2(j)), 1e-300);
                    keyed[c++] = {key, static_cast<int64_t>(j)};
                }
                std::partial_sort(keyed.begin(), keyed.begin() + static_cast<std::ptrdiff_t>(m), keyed.end());
                for (std::size_t t = 0; t < m; ++t) {
                    result.key[i * m + t] = keyed[t].first;
                    result.index[i * m + t] = keyed[t].second;
                }
            }
        });
    }
    return result;
}

}  // namespace

CsrMatrix knn_similarity(const Matrix& X, int64_t k, Similarity kind, int64_t scale_neighbor)
{
    const auto n = static_cast<int64_t>(X.shape()[0]);
    const std::size_t p = X.shape()[1];
    require(n >= 2, FACTO_ERROR_DIMENSION, "knn_similarity: need at least 2 points");
    require_finite(X, "features");
    if (k == 0) k = static_cast<int64_t>(std::floor(std::log2(static_cast<double>(n)))) + 1;
    require(k >= 1 && k < n, FACTO_ERROR_OUT_OF_RANGE,
            "knn_similarity: k = " + std::to_string(k) + " must be in [1, n - 1] = [1, " + std::to_string(n - 1) + "]");
    require(kind == Similarity::Cosine || (scale_neighbor >= 1 && scale_neighbor < n), FACTO_ERROR_OUT_OF_RANGE,
            "knn_similarity: scale_neighbor = " + std::to_string(scale_neighbor) + " must be in [1, n - 1]");
    const auto m = static_cast<std::size_t>(kind == Similarity::Gaussian ? std::max(k, scale_neighbor) : k);
    Vector norms2 = xt::sum(xt::square(X), {1});
    const Neighbors nb = nearest(X, norms2, m, kind);
    const auto un = static_cast<std::size_t>(n);
    std::vector<double> scale(un, 1.0);  // s_i: distance to the scale_neighbor-th neighbour
    if (kind == Similarity::Gaussian)
        for (std::size_t i = 0; i < un; ++i) scale[i] = std::sqrt(nb.key[i * m + static_cast<std::size_t>(scale_neighbor) - 1]);
    // The union of the kNN relations, each edge once as (min, max), its value computed from the rows
    // directly so that S is exactly symmetric.
    std::vector<std::pair<int64_t, int64_t>> edges;
    edges.reserve(un * static_cast<std::size_t>(k));
    for (std::size_t i = 0; i < un; ++i)
        for (std::size_t t = 0; t < static_cast<std::size_t>(k); ++t) {
            const int64_t j = nb.index[i * m + t];
            edges.emplace_back(std::min<int64_t>(static_cast<int64_t>(i), j), std::max<int64_t>(static_cast<int64_t>(i), j));
        }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    std::vector<double> value(edges.size()), degree(un, 0.0);
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto i = static_cast<std::size_t>(edges[e].first), j = static_cast<std::size_t>(edges[e].second);
        double d2 = 0.0, dot = 0.0;
        for (std::size_t c = 0; c < p; ++c) {
            d2 += (X(i, c) - X(j, c)) * (X(i, c) - X(j, c));
            dot += X(i, c) * X(j, c);
        }
        if (kind == Similarity::Gaussian) {
            const double s = scale[i] * scale[j];
            value[e] = s > 0.0 ? std::exp(-d2 / s) : (d2 == 0.0 ? 1.0 : 0.0);
        } else {
            const double norms = std::sqrt(norms2(i) * norms2(j));
            value[e] = norms > 0.0 ? std::max(0.0, dot / norms) : 0.0;
        }
        degree[i] += value[e];
        degree[j] += value[e];
    }
    std::vector<int64_t> rows, cols;
    std::vector<double> values;
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto i = static_cast<std::size_t>(edges[e].first), j = static_cast<std::size_t>(edges[e].second);
        const double d = std::sqrt(degree[i] * degree[j]);
        const double v = d > 0.0 ? value[e] / d : 0.0;  // S_ij / sqrt(d_i d_j)
        rows.insert(rows.end(), {edges[e].first, edges[e].second});
        cols.insert(cols.end(), {edges[e].second, edges[e].first});
        values.insert(values.end(), {v, v});
    }
    return csr_from_triplets(n, n, rows.data(), cols.data(), values.data(), static_cast<int64_t>(values.size()));
}

}  // namespace facto
