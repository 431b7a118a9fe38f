// Neighbour lists for the kNN graph (see data/nearest_neighbors.hpp): exact by blocked GEMMs, or by an
// HNSW index [HNSW] (hnswlib, header-only).
#include "data/nearest_neighbors.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <string>
#include <utility>

#include <hnswlib/hnswlib.h>
#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "linalg/target_clones.hpp"

namespace facto {

namespace {

// The index's settings, measured on Fashion-MNIST's 70,000 images (docs/benchmarks.md, "Nearest
// neighbours for the kNN graph"): M links per point (2M on the bottom layer), the construction's and
// the search's candidate lists, and the seed of the points' levels.
constexpr std::size_t kHnswLinks = 12, kHnswConstruction = 32, kHnswSearch = 32, kHnswSeed = 0;

using Keyed = std::vector<std::pair<double, int64_t>>;

// The key of a row with squared norm y2 and one with x2 whose inner product is dot.
double key_of(double dot, double y2, double x2, Similarity kind)
{
    return kind == Similarity::Gaussian ? std::max(0.0, y2 + x2 - 2.0 * dot)
                                        : -dot / std::max(std::sqrt(y2) * std::sqrt(x2), 1e-300);
}

// The key of row i of Y and row j of X (y2, x2 their squared norms) from their values: the squared
// distance, or minus the cosine.
double pair_key(const ScaledRows& Y, std::size_t i, const ScaledRows& X, std::size_t j, double y2, double x2,
                Similarity kind)
{
    double sum = 0.0;
    if (kind == Similarity::Gaussian)
        for (std::size_t c = 0; c < X.rows.p; ++c) sum += (Y(i, c) - X(j, c)) * (Y(i, c) - X(j, c));
    else
        for (std::size_t c = 0; c < X.rows.p; ++c) sum += Y(i, c) * X(j, c);
    return kind == Similarity::Gaussian ? sum : key_of(sum, y2, x2, kind);
}

// The index's distance between single-precision rows a and b of *dims entries: the squared distance, or
// 1 - <a, b> for the cosine's unit rows. Sixteen lanes summed in a fixed order, without contraction into
// FMA, so that the AVX2 clone and the baseline round alike and build the same index.
constexpr std::size_t kLanes = 16;

template <bool squared>
inline float lane_sum(const float* a, const float* b, std::size_t p)
{
    float lane[kLanes] = {};
    std::size_t c = 0;
    for (; c + kLanes <= p; c += kLanes)
        for (std::size_t l = 0; l < kLanes; ++l) {
            const float t = squared ? a[c + l] - b[c + l] : a[c + l];
            lane[l] += t * (squared ? t : b[c + l]);
        }
    for (std::size_t l = 0; c < p; ++c, ++l) {
        const float t = squared ? a[c] - b[c] : a[c];
        lane[l] += t * (squared ? t : b[c]);
    }
    for (std::size_t width = kLanes / 2; width > 0; width /= 2)
        for (std::size_t l = 0; l < width; ++l) lane[l] += lane[l + width];
    return lane[0];
}

FACTO_TARGET_CLONES FACTO_NO_CONTRACTION float
squared_distance(const void* a, const void* b, const void* dims)
{
    return lane_sum<true>(static_cast<const float*>(a), static_cast<const float*>(b), *static_cast<const std::size_t*>(dims));
}

FACTO_TARGET_CLONES FACTO_NO_CONTRACTION float
inner_product_distance(const void* a, const void* b, const void* dims)
{
    return 1.0f - lane_sum<false>(static_cast<const float*>(a), static_cast<const float*>(b),
                                  *static_cast<const std::size_t*>(dims));
}

// The index's metric space: rows of p floats and one of the two distances above.
class RowSpace : public hnswlib::SpaceInterface<float> {
public:
    RowSpace(std::size_t p, Similarity kind) : p_(p), kind_(kind) {}
    std::size_t get_data_size() override { return p_ * sizeof(float); }
    hnswlib::DISTFUNC<float> get_dist_func() override
    {
        return kind_ == Similarity::Cosine ? inner_product_distance : squared_distance;
    }
    void* get_dist_func_param() override { return &p_; }

private:
    std::size_t p_;
    Similarity kind_;
};

// The m smallest of `keyed` by (key, index), written to row i of `out`.
void keep_best(Keyed& keyed, std::size_t m, std::size_t i, Neighbors& out)
{
    std::partial_sort(keyed.begin(), keyed.begin() + static_cast<std::ptrdiff_t>(m), keyed.end());
    for (std::size_t t = 0; t < m; ++t) {
        out.key[i * m + t] = keyed[t].first;
        out.index[i * m + t] = keyed[t].second;
    }
}

// The scaled rows as a Matrix (the exact search's GEMMs read them so).
Matrix scaled_copy(const ScaledRows& X)
{
    require_memory(8.0 * static_cast<double>(X.rows.n) * static_cast<double>(X.rows.p), "a scaled copy of the features");
    Matrix M({X.rows.n, X.rows.p});
    for (std::size_t i = 0; i < X.rows.n; ++i)
        for (std::size_t c = 0; c < X.rows.p; ++c) M(i, c) = X(i, c);
    return M;
}

// Gram blocks of 256 rows of Y against X (unscaled rows in double precision) by GEMM, then a partial sort per row.
Neighbors nearest_exact(const DenseRows& Y, const DenseRows& X, std::size_t m, Similarity kind, bool self)
{
    const std::size_t q = Y.n, n = X.n, block = 256;
    const Vector y2 = squared_norms(ScaledRows(Y)), x2 = squared_norms(ScaledRows(X));
    Neighbors result{std::vector<int64_t>(q * m), std::vector<double>(q * m)};
    Matrix G;
    for (std::size_t start = 0; start < q; start += block) {
        const std::size_t b = std::min(block, q - start);
        G = Matrix({b, n});
        blas::gemm(false, true, b, n, X.p, 1.0, Y.row(start), Y.stride, X.data, X.stride, 0.0, G.data(), n);
        parallel_for(b, 8, resolve_threads(0), [&](std::size_t begin, std::size_t end) {
            Keyed keyed(self ? n - 1 : n);
            for (std::size_t r = begin; r < end; ++r) {
                const std::size_t i = start + r;
                std::size_t c = 0;
                for (std::size_t j = 0; j < n; ++j) {
                    if (self && j == i) continue;
                    keyed[c++] = {key_of(G(r, j), y2(i), x2(j), kind), static_cast<int64_t>(j)};
                }
                keep_best(keyed, m, i, result);
            }
        });
    }
    return result;
}

Neighbors nearest_exact(const ScaledRows& Y, const ScaledRows& X, std::size_t m, Similarity kind, bool self)
{
    const auto as_read = [](const ScaledRows& R) { return !R.scaled() && !R.rows.single; };  // the GEMM reads them
    if (as_read(X) && as_read(Y)) return nearest_exact(Y.rows, X.rows, m, kind, self);
    const Matrix Xs = scaled_copy(X);
    if (self) return nearest_exact(rows_of(Xs), rows_of(Xs), m, kind, self);
    const Matrix Ys = scaled_copy(Y);
    return nearest_exact(rows_of(Ys), rows_of(Xs), m, kind, self);
}

// Row i of X in single precision, scaled to unit norm (norm2 its squared norm) for the cosine, whose
// HNSW distance is then 1 - <x, y> (a zero row stays 0).
void single_row(const ScaledRows& X, std::size_t i, double norm2, Similarity kind, std::vector<float>& out)
{
    const double scale = kind == Similarity::Cosine && norm2 > 0.0 ? 1.0 / std::sqrt(norm2) : 1.0;
    for (std::size_t c = 0; c < out.size(); ++c) out[c] = static_cast<float>(X(i, c) * scale);
}

// [HNSW] Alg. 1 (insertion, one point after the other in row order) and Alg. 5 (search) as hnswlib
// implements them; the candidates' keys are then recomputed from the rows. A query for which the
// search returns fewer than m others (a graph the search cannot cross) is answered exactly.
Neighbors nearest_hnsw(const ScaledRows& Y, const ScaledRows& X, std::size_t m, Similarity kind, bool self)
{
    const std::size_t q = Y.rows.n, n = X.rows.n, p = X.rows.p;
    // the index: each point's single-precision row, 2M bottom-layer links and label, its upper layers
    // (1/M of the points, M links each), and a visited list per searching thread
    require_memory(static_cast<double>(n) * (4.0 * static_cast<double>(p) + 8.0 * kHnswLinks + 24.0) +
                       2.0 * static_cast<double>(n) * static_cast<double>(resolve_threads(0) + 1),
                   "the HNSW index of " + std::to_string(n) + " points");
    RowSpace space(p, kind);
    hnswlib::HierarchicalNSW<float> index(&space, n, kHnswLinks, kHnswConstruction, kHnswSeed);
    // hnswlib 0.6's searches prefetch the entry after the last of a link list; on the upper layers,
    // whose lists it allocates to their exact size, that reads past the allocation when a list is full.
    // One spare (zeroed) entry per list keeps that read inside it; the index is otherwise the same.
    index.size_links_per_element_ += sizeof(hnswlib::tableint);
    const Vector y2 = squared_norms(Y), x2 = squared_norms(X);
    std::vector<float> row(p);
    for (std::size_t j = 0; j < n; ++j) {
        single_row(X, j, x2(j), kind, row);
        index.addPoint(row.data(), j);
    }
    const std::size_t wanted = m + (self ? 1 : 0);
    index.setEf(std::max(kHnswSearch, wanted));
    Neighbors result{std::vector<int64_t>(q * m), std::vector<double>(q * m)};
    parallel_for(q, 16, resolve_threads(0), [&](std::size_t begin, std::size_t end) {
        std::vector<float> query(p);
        Keyed keyed;
        for (std::size_t i = begin; i < end; ++i) {
            single_row(Y, i, y2(i), kind, query);
            auto found = index.searchKnn(query.data(), wanted);
            keyed.clear();
            for (; !found.empty(); found.pop()) {
                const auto j = static_cast<std::size_t>(found.top().second);
                if (!(self && j == i)) keyed.emplace_back(pair_key(Y, i, X, j, y2(i), x2(j), kind), static_cast<int64_t>(j));
            }
            if (keyed.size() < m) {
                keyed.clear();
                for (std::size_t j = 0; j < n; ++j)
                    if (!(self && j == i)) keyed.emplace_back(pair_key(Y, i, X, j, y2(i), x2(j), kind), static_cast<int64_t>(j));
            }
            keep_best(keyed, m, i, result);
        }
    });
    return result;
}

}  // namespace

Vector squared_norms(const ScaledRows& X)
{
    Vector out = xt::zeros<double>({X.rows.n});
    for (std::size_t i = 0; i < X.rows.n; ++i)
        for (std::size_t c = 0; c < X.rows.p; ++c) out(i) += X(i, c) * X(i, c);
    return out;
}

Neighbors nearest(const CsrMatrix& Y, const CsrMatrix& X, std::size_t m, Similarity kind, bool self)
{
    const auto q = static_cast<std::size_t>(Y.rows), n = static_cast<std::size_t>(X.rows);
    const CsrMatrix columns = transpose(X);  // row c: the rows of X with a non-zero in column c
    const Vector y2 = squared_norms(Y), x2 = squared_norms(X);
    Neighbors result{std::vector<int64_t>(q * m), std::vector<double>(q * m)};
    parallel_for(q, 8, resolve_threads(0), [&](std::size_t begin, std::size_t end) {
        std::vector<double> dot(n, 0.0);
        Keyed keyed(self ? n - 1 : n);
        for (std::size_t i = begin; i < end; ++i) {
            for (int64_t a = Y.indptr[i]; a < Y.indptr[i + 1]; ++a) {
                const auto c = static_cast<std::size_t>(Y.indices[static_cast<std::size_t>(a)]);
                const double v = Y.values[static_cast<std::size_t>(a)];
                for (int64_t b = columns.indptr[c]; b < columns.indptr[c + 1]; ++b)
                    dot[static_cast<std::size_t>(columns.indices[static_cast<std::size_t>(b)])] += v * columns.values[static_cast<std::size_t>(b)];
            }
            std::size_t t = 0;
            for (std::size_t j = 0; j < n; ++j) {
                if (!(self && j == i)) keyed[t++] = {key_of(dot[j], y2(i), x2(j), kind), static_cast<int64_t>(j)};
                dot[j] = 0.0;
            }
            keep_best(keyed, m, i, result);
        }
    });
    return result;
}

Neighbors nearest(const ScaledRows& Y, const ScaledRows& X, std::size_t m, Similarity kind, bool self,
                  NeighborSearch search)
{
    if (search == NeighborSearch::Exact) return nearest_exact(Y, X, m, kind, self);
    try {
        return nearest_hnsw(Y, X, m, kind, self);
    } catch (const Error&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {  // hnswlib reports a failed allocation as runtime_error
        throw Error(FACTO_ERROR_OUT_OF_MEMORY, std::string("the HNSW index of ") + std::to_string(X.rows.n) +
                                                   " points: " + e.what());
    }
}

Neighbors nearest(const Matrix& Y, const Matrix& X, std::size_t m, Similarity kind, bool self, NeighborSearch search)
{
    return nearest(ScaledRows(rows_of(Y)), ScaledRows(rows_of(X)), m, kind, self, search);
}

}  // namespace facto
