// The kNN similarity graph of Kuang, Yun & Park 2015, Sec. 7.1 (see facto/data.hpp).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <xtensor/xview.hpp>

#include "data/data.hpp"
#include "data/nearest_neighbors.hpp"
#include "linalg/parallel.hpp"
#include "base/error.hpp"

namespace facto {

namespace {

// The two feature types, dense and CSR rows: their number, squared norms, and the squared distance and
// the inner product of row i of Y and row j of X (the CSR rows': linalg/sparse.hpp, the same values bit for
// bit).
std::size_t count_of(const ScaledRows& X) { return X.rows.n; }
std::size_t count_of(const CsrMatrix& X) { return static_cast<std::size_t>(X.rows); }

std::pair<double, double> distance_and_dot(const ScaledRows& Y, std::size_t i, const ScaledRows& X, std::size_t j)
{
    double d2 = 0.0, dot = 0.0;
    for (std::size_t c = 0; c < X.rows.p; ++c) {
        const double y = Y(i, c), x = X(j, c);
        d2 += (y - x) * (y - x);
        dot += y * x;
    }
    return {d2, dot};
}

// Each row of Y's m nearest rows of X (other rows, when Y is X: `self`) by the resolved search (sparse
// rows: exactly, as knn_graph and the models' check require).
Neighbors neighbors_of(const ScaledRows& Y, const ScaledRows& X, std::size_t m, Similarity kind, bool self,
                       NeighborSearch search)
{
    return nearest(Y, X, m, kind, self, search);
}
Neighbors neighbors_of(const CsrMatrix& Y, const CsrMatrix& X, std::size_t m, Similarity kind, bool self, NeighborSearch)
{
    return nearest(Y, X, m, kind, self);
}

// The similarity of row i of Y and row j of X (squared norms y2, x2) by the graph's kernel, scales sy, sx.
template <class Rows>
double similarity(const Rows& Y, std::size_t i, const Rows& X, std::size_t j, double y2, double x2, double sy,
                  double sx, Similarity kind)
{
    const auto [d2, dot] = distance_and_dot(Y, i, X, j);
    if (kind == Similarity::Gaussian) {
        const double s = sy * sx;
        return s > 0.0 ? std::exp(-d2 / s) : (d2 == 0.0 ? 1.0 : 0.0);
    }
    const double norms = std::sqrt(y2) * std::sqrt(x2);  // not sqrt(y2 x2), which overflows from norms of 1e77
    return norms > 0.0 ? std::max(0.0, dot / norms) : 0.0;
}

// The symmetric CSR matrix of the edges (i < j, sorted) with values S_ij / sqrt(d_i d_j). Row r's entries
// are its edges (i, r), met in increasing i, then its edges (r, j), in increasing j: filling the rows in
// the edges' order keeps every row's columns increasing, with no sort.
CsrMatrix normalized_union(int64_t n, const std::vector<std::pair<int64_t, int64_t>>& edges,
                           const std::vector<double>& value, const std::vector<double>& degree)
{
    CsrMatrix S;
    S.rows = S.cols = n;
    S.indptr.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const auto& [i, j] : edges) {
        ++S.indptr[static_cast<std::size_t>(i) + 1];
        ++S.indptr[static_cast<std::size_t>(j) + 1];
    }
    std::partial_sum(S.indptr.begin(), S.indptr.end(), S.indptr.begin());
    S.indices.resize(2 * edges.size());
    S.values.resize(2 * edges.size());
    std::vector<int64_t> next(S.indptr.begin(), S.indptr.end() - 1);
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto i = static_cast<std::size_t>(edges[e].first), j = static_cast<std::size_t>(edges[e].second);
        const double d = std::sqrt(degree[i] * degree[j]);
        const double v = d > 0.0 ? value[e] / d : 0.0;
        for (const auto& [row, col] : {std::make_pair(i, j), std::make_pair(j, i)}) {
            const auto at = static_cast<std::size_t>(next[row]++);
            S.indices[at] = static_cast<int64_t>(col);
            S.values[at] = v;
        }
    }
    return S;
}

}  // namespace

NeighborSearch resolve_search(NeighborSearch search, int64_t n)
{
    require(search == NeighborSearch::Exact || search == NeighborSearch::Hnsw || search == NeighborSearch::Auto,
            FACTO_ERROR_INVALID_ARGUMENT,
            "the neighbour search's code " + std::to_string(static_cast<int32_t>(search)) + " is not exact (0), hnsw (1) or auto (2)");
    if (search != NeighborSearch::Auto) return search;
    return n >= kHnswFrom ? NeighborSearch::Hnsw : NeighborSearch::Exact;
}

namespace {

template <class Rows>
KnnGraph graph_of(const Rows& X, int64_t k, Similarity kind, int64_t scale_neighbor, NeighborSearch search)
{
    const auto n = static_cast<int64_t>(count_of(X));
    require(n >= 2, FACTO_ERROR_DIMENSION, "knn_similarity: need at least 2 points");
    // the defaults, floor(log2 n) + 1 neighbours and the scale at the 7th, are at most the n - 1 others
    if (k == 0) k = std::min<int64_t>(static_cast<int64_t>(std::floor(std::log2(static_cast<double>(n)))) + 1, n - 1);
    scale_neighbor = std::min(scale_neighbor, n - 1);
    require(k >= 1 && k < n, FACTO_ERROR_OUT_OF_RANGE,
            "knn_similarity: k = " + std::to_string(k) + " must be in [1, n - 1] = [1, " + std::to_string(n - 1) + "]");
    require(kind == Similarity::Cosine || scale_neighbor >= 1, FACTO_ERROR_OUT_OF_RANGE,
            "knn_similarity: scale_neighbor = " + std::to_string(scale_neighbor) + " must be at least 1");
    const auto m = static_cast<std::size_t>(kind == Similarity::Gaussian ? std::max(k, scale_neighbor) : k);
    search = resolve_search(search, n);
    const Vector norms2 = squared_norms(X);
    const Neighbors nb = neighbors_of(X, X, m, kind, true, search);
    const auto un = static_cast<std::size_t>(n);
    KnnGraph graph{{}, kind, k, scale_neighbor, std::vector<double>(un, 1.0), std::vector<double>(un, 0.0), search};
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
    parallel_for(edges.size(), 1024, resolve_threads(0), [&](std::size_t begin, std::size_t end) {
        for (std::size_t e = begin; e < end; ++e) {
            const auto i = static_cast<std::size_t>(edges[e].first), j = static_cast<std::size_t>(edges[e].second);
            value[e] = similarity(X, i, X, j, norms2(i), norms2(j), scale[i], scale[j], kind);
        }
    });
    std::vector<double>& degree = graph.degree;
    for (std::size_t e = 0; e < edges.size(); ++e) {  // in the edges' order, on one thread: the same sums everywhere
        degree[static_cast<std::size_t>(edges[e].first)] += value[e];
        degree[static_cast<std::size_t>(edges[e].second)] += value[e];
    }
    graph.S = normalized_union(n, edges, value, degree);
    return graph;
}

}  // namespace

KnnGraph knn_graph(const Matrix& X, int64_t k, Similarity kind, int64_t scale_neighbor, NeighborSearch search)
{
    require_finite(X, "features");
    return graph_of(ScaledRows(rows_of(X)), k, kind, scale_neighbor, search);
}

KnnGraph knn_graph(const ScaledRows& X, int64_t k, Similarity kind, int64_t scale_neighbor, NeighborSearch search)
{
    return graph_of(X, k, kind, scale_neighbor, search);
}

KnnGraph knn_graph(const CsrMatrix& X, int64_t k, Similarity kind, int64_t scale_neighbor, NeighborSearch search)
{
    require(!std::any_of(X.values.begin(), X.values.end(), [](double v) { return !std::isfinite(v); }),
            FACTO_ERROR_NOT_FINITE, "features: a stored value is not finite");
    require(search != NeighborSearch::Hnsw, FACTO_ERROR_UNSUPPORTED,
            "the HNSW search takes dense features; sparse ones are searched exactly (search exact or auto)");
    return graph_of(X, k, kind, scale_neighbor, NeighborSearch::Exact);
}

Similarity automatic_similarity(const Matrix& X) { return automatic_similarity(rows_of(X)); }

Similarity automatic_similarity(const DenseRows& X)
{
    double zeros = 0.0;
    for (std::size_t i = 0; i < (X.p > 0 ? X.n : 0); ++i)
        for (std::size_t c = 0; c < X.p; ++c) {
            if (X(i, c) < 0.0) return Similarity::Gaussian;
            zeros += X(i, c) == 0.0 ? 1.0 : 0.0;
        }
    return mostly_zeros(zeros, static_cast<double>(X.n) * static_cast<double>(X.p)) ? Similarity::Cosine
                                                                                     : Similarity::Gaussian;
}

Similarity automatic_similarity(const CsrMatrix& X)
{
    if (std::any_of(X.values.begin(), X.values.end(), [](double v) { return v < 0.0; })) return Similarity::Gaussian;
    const double entries = static_cast<double>(X.rows) * static_cast<double>(X.cols);
    const auto stored_nonzeros = X.values.size() - static_cast<std::size_t>(std::count(X.values.begin(), X.values.end(), 0.0));
    return mostly_zeros(entries - static_cast<double>(stored_nonzeros), entries) ? Similarity::Cosine
                                                                                  : Similarity::Gaussian;
}

CsrMatrix knn_similarity(const Matrix& X, int64_t k, Similarity kind, int64_t scale_neighbor, NeighborSearch search)
{
    return knn_graph(X, k, kind, scale_neighbor, search).S;
}

CsrMatrix knn_similarity(const CsrMatrix& X, int64_t k, Similarity kind, int64_t scale_neighbor, NeighborSearch search)
{
    return knn_graph(X, k, kind, scale_neighbor, search).S;
}

namespace {

// knn_cross_similarity on either feature type (the new rows' width and finiteness checked by the caller).
template <class Rows>
CsrMatrix cross_similarity(const Rows& new_rows, const Rows& fitted, const KnnGraph& graph)
{
    const std::size_t q = count_of(new_rows), n = count_of(fitted);
    require(graph.scale.size() == n && graph.degree.size() == n, FACTO_ERROR_DIMENSION,
            "the graph was built on " + std::to_string(graph.scale.size()) + " points, X has " + std::to_string(n));
    // the neighbours a new point takes are among the n fitted ones
    const int64_t neighbors = graph.kind == Similarity::Gaussian ? std::max(graph.k, graph.scale_neighbor) : graph.k;
    require(graph.k >= 1 && (graph.kind == Similarity::Cosine || graph.scale_neighbor >= 1) &&
                neighbors <= static_cast<int64_t>(n),
            FACTO_ERROR_DIMENSION,
            "the graph's k = " + std::to_string(graph.k) + " and scale neighbour " + std::to_string(graph.scale_neighbor) +
                " are not in [1, " + std::to_string(n) + "], its fitted points");
    const auto m = static_cast<std::size_t>(neighbors), k = static_cast<std::size_t>(graph.k);
    const Vector y2 = squared_norms(new_rows), x2 = squared_norms(fitted);
    const Neighbors nb = neighbors_of(new_rows, fitted, m, graph.kind, false,
                                      resolve_search(graph.search, static_cast<int64_t>(n)));
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
            d += values[l * k + t] = similarity(new_rows, l, fitted, j, y2(l), x2(j), sy, graph.scale[j], graph.kind);
        }
        for (std::size_t t = 0; t < k; ++t) {
            const double dj = std::sqrt(d * graph.degree[static_cast<std::size_t>(cols[l * k + t])]);
            values[l * k + t] = dj > 0.0 ? values[l * k + t] / dj : 0.0;
        }
    }
    return csr_from_triplets(static_cast<int64_t>(q), static_cast<int64_t>(n), rows.data(), cols.data(), values.data(),
                             static_cast<int64_t>(values.size()));
}

}  // namespace

CsrMatrix knn_cross_similarity(const Matrix& Y, const Matrix& X, const KnnGraph& graph)
{
    require(Y.shape()[1] == X.shape()[1], FACTO_ERROR_DIMENSION,
            "the new points have " + std::to_string(Y.shape()[1]) + " features, the fitted ones " + std::to_string(X.shape()[1]));
    require_finite(Y, "the new points");
    return cross_similarity(ScaledRows(rows_of(Y)), ScaledRows(rows_of(X)), graph);
}

CsrMatrix knn_cross_similarity(const CsrMatrix& Y, const CsrMatrix& X, const KnnGraph& graph)
{
    require(Y.cols == X.cols, FACTO_ERROR_DIMENSION,
            "the new points have " + std::to_string(Y.cols) + " features, the fitted ones " + std::to_string(X.cols));
    require(std::all_of(Y.values.begin(), Y.values.end(), [](double v) { return std::isfinite(v); }),
            FACTO_ERROR_NOT_FINITE, "the new points: a stored value is not finite");
    require(graph.search != NeighborSearch::Hnsw, FACTO_ERROR_UNSUPPORTED,
            "the HNSW search takes dense features; sparse ones are searched exactly");
    return cross_similarity(Y, X, graph);
}

}  // namespace facto
