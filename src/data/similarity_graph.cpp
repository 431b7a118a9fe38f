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

// The m most similar rows of X to every row of Y (other rows, when Y is X: `self`): Gram blocks by GEMM,
// then a partial sort per row by (key, index) so ties break the same way on every machine.
Neighbors nearest(const Matrix& Y, const Vector& y2, const Matrix& X, const Vector& x2, std::size_t m,
                  Similarity kind, bool self)
{
    const std::size_t q = Y.shape()[0], n = X.shape()[0], block = 256;
    Neighbors result{std::vector<int64_t>(q * m), std::vector<double>(q * m)};
    Matrix rows_block, G;
    for (std::size_t start = 0; start < q; start += block) {
        const std::size_t b = std::min(block, q - start);
        rows_block = xt::view(Y, xt::range(start, start + b), xt::all());
        G = Matrix({b, n});
        blas::gemm(false, true, 1.0, rows_block, X, 0.0, G);
        parallel_for(b, 8, resolve_threads(0), [&](std::size_t begin, std::size_t end) {
            std::vector<std::pair<double, int64_t>> keyed(self ? n - 1 : n);
            for (std::size_t r = begin; r < end; ++r) {
                const std::size_t i = start + r;
                std::size_t c = 0;
                for (std::size_t j = 0; j < n; ++j) {
                    if (self && j == i) continue;
                    const double key = kind == Similarity::Gaussian
                                           ? std::max(0.0, y2(i) + x2(j) - 2.0 * G(r, j))
                                           : -G(r, j) / std::max(std::sqrt(y2(i)) * std::sqrt(x2(j)), 1e-300);
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

// The similarity of rows y and x (p features, squared norms y2, x2) by the graph's kernel, scales sy, sx.
double similarity(const double* y, const double* x, std::size_t p, double y2, double x2, double sy, double sx,
                  Similarity kind)
{
    double d2 = 0.0, dot = 0.0;
    for (std::size_t c = 0; c < p; ++c) {
        d2 += (y[c] - x[c]) * (y[c] - x[c]);
        dot += y[c] * x[c];
    }
    if (kind == Similarity::Gaussian) {
        const double s = sy * sx;
        return s > 0.0 ? std::exp(-d2 / s) : (d2 == 0.0 ? 1.0 : 0.0);
    }
    const double norms = std::sqrt(y2) * std::sqrt(x2);  // not sqrt(y2 x2), which overflows from norms of 1e77
    return norms > 0.0 ? std::max(0.0, dot / norms) : 0.0;
}

}  // namespace

KnnGraph knn_graph(const Matrix& X, int64_t k, Similarity kind, int64_t scale_neighbor)
{
    const auto n = static_cast<int64_t>(X.shape()[0]);
    const std::size_t p = X.shape()[1];
    require(n >= 2, FACTO_ERROR_DIMENSION, "knn_similarity: need at least 2 points");
    require_finite(X, "features");
    // the defaults, floor(log2 n) + 1 neighbours and the scale at the 7th, are at most the n - 1 others
    if (k == 0) k = std::min<int64_t>(static_cast<int64_t>(std::floor(std::log2(static_cast<double>(n)))) + 1, n - 1);
    scale_neighbor = std::min(scale_neighbor, n - 1);
    require(k >= 1 && k < n, FACTO_ERROR_OUT_OF_RANGE,
            "knn_similarity: k = " + std::to_string(k) + " must be in [1, n - 1] = [1, " + std::to_string(n - 1) + "]");
    require(kind == Similarity::Cosine || scale_neighbor >= 1, FACTO_ERROR_OUT_OF_RANGE,
            "knn_similarity: scale_neighbor = " + std::to_string(scale_neighbor) + " must be at least 1");
    const auto m = static_cast<std::size_t>(kind == Similarity::Gaussian ? std::max(k, scale_neighbor) : k);
    Vector norms2 = xt::sum(xt::square(X), {1});
    const Neighbors nb = nearest(X, norms2, X, norms2, m, kind, true);
    const auto un = static_cast<std::size_t>(n);
    KnnGraph graph{{}, kind, k, scale_neighbor, std::vector<double>(un, 1.0), std::vector<double>(un, 0.0)};
    std::vector<double>& scale = graph.scale;  // s_i: distance to the scale_neighbor-th neighbour
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
    std::vector<double> value(edges.size());
    std::vector<double>& degree = graph.degree;
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto i = static_cast<std::size_t>(edges[e].first), j = static_cast<std::size_t>(edges[e].second);
        value[e] = similarity(&X(i, 0), &X(j, 0), p, norms2(i), norms2(j), scale[i], scale[j], kind);
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
    graph.S = csr_from_triplets(n, n, rows.data(), cols.data(), values.data(), static_cast<int64_t>(values.size()));
    return graph;
}

Similarity automatic_similarity(const Matrix& X)
{
    if (std::any_of(X.begin(), X.end(), [](double v) { return v < 0.0; })) return Similarity::Gaussian;
    const auto zeros = std::count(X.begin(), X.end(), 0.0);
    return 10 * zeros >= 9 * static_cast<std::ptrdiff_t>(X.size()) ? Similarity::Cosine : Similarity::Gaussian;
}

CsrMatrix knn_similarity(const Matrix& X, int64_t k, Similarity kind, int64_t scale_neighbor)
{
    return knn_graph(X, k, kind, scale_neighbor).S;
}

CsrMatrix knn_cross_similarity(const Matrix& Y, const Matrix& X, const KnnGraph& graph)
{
    const std::size_t q = Y.shape()[0], n = X.shape()[0], p = X.shape()[1];
    require(Y.shape()[1] == p, FACTO_ERROR_DIMENSION,
            "the new points have " + std::to_string(Y.shape()[1]) + " features, the fitted ones " + std::to_string(p));
    require(graph.scale.size() == n && graph.degree.size() == n, FACTO_ERROR_DIMENSION,
            "the graph was built on " + std::to_string(graph.scale.size()) + " points, X has " + std::to_string(n));
    // the neighbours a new point takes are among the n fitted ones
    const int64_t neighbors = graph.kind == Similarity::Gaussian ? std::max(graph.k, graph.scale_neighbor) : graph.k;
    require(graph.k >= 1 && (graph.kind == Similarity::Cosine || graph.scale_neighbor >= 1) &&
                neighbors <= static_cast<int64_t>(n),
            FACTO_ERROR_DIMENSION,
            "the graph's k = " + std::to_string(graph.k) + " and scale neighbour " + std::to_string(graph.scale_neighbor) +
                " are not in [1, " + std::to_string(n) + "], its fitted points");
    require_finite(Y, "the new points");
    const auto m = static_cast<std::size_t>(neighbors), k = static_cast<std::size_t>(graph.k);
    const Vector y2 = xt::sum(xt::square(Y), {1}), x2 = xt::sum(xt::square(X), {1});
    const Neighbors nb = nearest(Y, y2, X, x2, m, graph.kind, false);
    std::vector<int64_t> rows(q * k), cols(q * k);
    std::vector<double> values(q * k);
    for (std::size_t l = 0; l < q; ++l) {
        const double sy = graph.kind == Similarity::Gaussian
                              ? std::sqrt(nb.key[l * m + static_cast<std::size_t>(graph.scale_neighbor) - 1])
                              : 1.0;
        double d = 0.0;  // the new point's degree over its k neighbours
        for (std::size_t t = 0; t < k; ++t) {
            const auto j = static_cast<std::size_t>(nb.index[l * m + t]);
            rows[l * k + t] = static_cast<int64_t>(l);
            cols[l * k + t] = static_cast<int64_t>(j);
            d += values[l * k + t] = similarity(&Y(l, 0), &X(j, 0), p, y2(l), x2(j), sy, graph.scale[j], graph.kind);
        }
        for (std::size_t t = 0; t < k; ++t) {
            const double dj = std::sqrt(d * graph.degree[static_cast<std::size_t>(cols[l * k + t])]);
            values[l * k + t] = dj > 0.0 ? values[l * k + t] / dj : 0.0;
        }
    }
    return csr_from_triplets(static_cast<int64_t>(q), static_cast<int64_t>(n), rows.data(), cols.data(), values.data(),
                             static_cast<int64_t>(values.size()));
}

}  // namespace facto
