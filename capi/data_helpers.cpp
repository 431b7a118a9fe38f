// The ABI's data helpers: matrices read from files, CSV output, the Gaussian affinity, the metrics
// (clustering accuracy, SRC, k-means), sparse matrices and similarity graphs.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "facto/facto_experimental.h"
#include "handles.hpp"

#include "data/data.hpp"
#include "metrics/metrics.hpp"

using facto::capi::guarded;
using facto::capi::require_pointer;

namespace {
// A new handle (facto_matrix or facto_sparse) owning `values`.
template <class Handle, class Values>
std::unique_ptr<Handle> wrap(Values values)
{
    auto handle = std::make_unique<Handle>();
    handle->values = std::move(values);
    return handle;
}
// Two dense caller matrices of one shape (n x k, no padding: ld = k row-major, n column-major), copied
// and checked finite.
std::pair<facto::Matrix, facto::Matrix> finite_pair(const double* a, const char* a_name, const double* b,
                                                    const char* b_name, int64_t n, int64_t k, int32_t layout)
{
    const int64_t ld = layout == FACTO_COL_MAJOR ? n : k;
    std::pair<facto::Matrix, facto::Matrix> pair{facto::copy_in(a, n, k, ld, layout, a_name),
                                                 facto::copy_in(b, n, k, ld, layout, b_name)};
    facto::require_finite(pair.first, a_name);
    facto::require_finite(pair.second, b_name);
    return pair;
}

}  // namespace

extern "C" {

facto_status facto_matrix_read(const char* path, facto_matrix** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(path, "path");
        *out = wrap<facto_matrix>(facto::read_matrix(path)).release();
        return FACTO_OK;
    });
}

facto_status facto_matrix_new(const double* data, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                              facto_matrix** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        *out = wrap<facto_matrix>(facto::copy_in(data, rows, cols, ld, layout, "data")).release();
        return FACTO_OK;
    });
}

void facto_matrix_free(facto_matrix* matrix) { delete matrix; }

facto_status facto_matrix_shape(const facto_matrix* matrix, int64_t* rows, int64_t* cols)
{
    return guarded(nullptr, [&] {
        require_pointer(matrix, "matrix");
        require_pointer(rows, "rows");
        require_pointer(cols, "cols");
        *rows = static_cast<int64_t>(matrix->values.shape()[0]);
        *cols = static_cast<int64_t>(matrix->values.shape()[1]);
        return FACTO_OK;
    });
}

const double* facto_matrix_data(const facto_matrix* matrix) { return matrix ? matrix->values.data() : nullptr; }

facto_status facto_write_csv(const char* path, const double* data, int64_t rows, int64_t cols, int64_t ld,
                             int32_t layout)
{
    return guarded(nullptr, [&] {
        require_pointer(path, "path");
        facto::write_csv(path, facto::copy_in(data, rows, cols, ld, layout, "data"));
        return FACTO_OK;
    });
}

facto_status facto_gaussian_affinity(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                     double bandwidth, int32_t scaling, facto_matrix** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        facto::require(scaling >= FACTO_SCALE_NONE && scaling <= FACTO_SCALE_ZSCORE, FACTO_ERROR_INVALID_ARGUMENT,
                       "scaling must be FACTO_SCALE_NONE, _MINMAX or _ZSCORE, got " + std::to_string(scaling));
        facto::Matrix features = facto::copy_in(X, rows, cols, ld, layout, "X");
        facto::require_finite(features, "X");
        facto::scale_columns(features, static_cast<facto::Scaling>(scaling));
        *out = wrap<facto_matrix>(facto::gaussian_affinity(features, bandwidth)).release();
        return FACTO_OK;
    });
}

facto_status facto_clustering_accuracy(const int64_t* predicted, const int64_t* truth, int64_t n, double* accuracy)
{
    return guarded(nullptr, [&] {
        require_pointer(predicted, "predicted");
        require_pointer(truth, "truth");
        require_pointer(accuracy, "accuracy");
        facto::require(n >= 1, FACTO_ERROR_DIMENSION, "n must be at least 1, got " + std::to_string(n));
        *accuracy = facto::clustering_accuracy(std::vector<int64_t>(predicted, predicted + n),
                                               std::vector<int64_t>(truth, truth + n));
        return FACTO_OK;
    });
}

facto_status facto_averaged_spearman(const double* estimated, const double* truth, int64_t n, int64_t K, int32_t layout,
                                     double* src)
{
    return guarded(nullptr, [&] {
        require_pointer(src, "src");
        facto::require(n >= 2 && K >= 1, FACTO_ERROR_DIMENSION,
                       "n must be at least 2 and K at least 1, got " + std::to_string(n) + " x " + std::to_string(K));
        const auto [H_hat, H] = finite_pair(estimated, "estimated", truth, "truth", n, K, layout);
        *src = facto::averaged_spearman(H_hat, H);
        return FACTO_OK;
    });
}

facto_status facto_kmeans(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout, int64_t K,
                          int32_t replicates, uint64_t seed, int64_t* labels)
{
    return guarded(nullptr, [&] {
        require_pointer(labels, "labels");
        const facto::Matrix points = facto::copy_in(X, rows, cols, ld, layout, "X");
        const std::vector<int64_t> result = facto::kmeans(points, K, replicates, seed);
        std::copy(result.begin(), result.end(), labels);
        return FACTO_OK;
    });
}

}  // extern "C"

// Sparse matrices, the kNN similarity graph, and the EDM completion helpers.

extern "C" {

facto_status facto_sparse_read(const char* path, facto_sparse** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(path, "path");
        *out = wrap<facto_sparse>(facto::read_matrix_market(path)).release();
        return FACTO_OK;
    });
}

void facto_sparse_free(facto_sparse* matrix) { delete matrix; }

facto_status facto_sparse_shape(const facto_sparse* matrix, int64_t* rows, int64_t* cols, int64_t* nnz)
{
    return guarded(nullptr, [&] {
        require_pointer(matrix, "matrix");
        require_pointer(rows, "rows");
        require_pointer(cols, "cols");
        require_pointer(nnz, "nnz");
        *rows = matrix->values.rows;
        *cols = matrix->values.cols;
        *nnz = matrix->values.nnz();
        return FACTO_OK;
    });
}

facto_status facto_sparse_copy_csr(const facto_sparse* matrix, int64_t* indptr, int64_t* indices, double* values)
{
    return guarded(nullptr, [&] {
        require_pointer(matrix, "matrix");
        require_pointer(indptr, "indptr");
        const facto::CsrMatrix& m = matrix->values;
        if (m.nnz() > 0) {
            require_pointer(indices, "indices");
            require_pointer(values, "values");
        }
        std::copy(m.indptr.begin(), m.indptr.end(), indptr);
        std::copy(m.indices.begin(), m.indices.end(), indices);
        std::copy(m.values.begin(), m.values.end(), values);
        return FACTO_OK;
    });
}

facto_status facto_sparse_copy_coo(const facto_sparse* matrix, int64_t* row, int64_t* col, double* values)
{
    return guarded(nullptr, [&] {
        require_pointer(matrix, "matrix");
        const facto::CsrMatrix& m = matrix->values;
        if (m.nnz() > 0) {
            require_pointer(row, "row");
            require_pointer(col, "col");
            require_pointer(values, "values");
        }
        for (int64_t i = 0; i < m.rows; ++i)
            for (int64_t p = m.indptr[static_cast<std::size_t>(i)]; p < m.indptr[static_cast<std::size_t>(i) + 1]; ++p) {
                row[p] = i;
                col[p] = m.indices[static_cast<std::size_t>(p)];
                values[p] = m.values[static_cast<std::size_t>(p)];
            }
        return FACTO_OK;
    });
}

facto_status facto_knn_similarity(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout, int64_t k,
                                  int32_t kind, facto_sparse** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        facto::require(kind == FACTO_SIMILARITY_GAUSSIAN || kind == FACTO_SIMILARITY_COSINE,
                       FACTO_ERROR_INVALID_ARGUMENT,
                       "kind must be FACTO_SIMILARITY_GAUSSIAN or _COSINE, got " + std::to_string(kind));
        facto::require(k >= 0, FACTO_ERROR_OUT_OF_RANGE, "k must be >= 0 (0 = floor(log2 n) + 1), got " + std::to_string(k));
        const facto::Matrix features = facto::copy_in(X, rows, cols, ld, layout, "X");
        *out = wrap<facto_sparse>(facto::knn_similarity(features, k, static_cast<facto::Similarity>(kind))).release();
        return FACTO_OK;
    });
}

facto_status facto_helix_points(int64_t n, uint64_t seed, double* out, int64_t capacity)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        facto::require(n >= 1, FACTO_ERROR_DIMENSION, "n must be at least 1, got " + std::to_string(n));
        const facto::Matrix points = facto::helix_points(n, seed);
        facto::copy_out(points.data(), n, 3, out, capacity, FACTO_ROW_MAJOR);
        return FACTO_OK;
    });
}

facto_status facto_nomad_gram(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                              facto_matrix** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        *out = wrap<facto_matrix>(facto::nomad_gram(facto::copy_in(X, rows, cols, ld, layout, "X"))).release();
        return FACTO_OK;
    });
}

facto_status facto_manifold_points(int32_t kind, int64_t n, double parameter, double noise, uint64_t seed, double* X,
                                   int64_t capacity, int32_t layout, int64_t* labels, int64_t labels_capacity)
{
    return guarded(nullptr, [&] {
        facto::require(kind >= FACTO_MANIFOLD_TWO_RINGS && kind <= FACTO_MANIFOLD_BLOBS, FACTO_ERROR_INVALID_ARGUMENT,
                       "kind must be FACTO_MANIFOLD_TWO_RINGS, _TREFOIL, _TWO_MOONS or _BLOBS, got " +
                           std::to_string(kind));
        const facto::Matrix centers = {{-10.0, -10.0}, {-10.0, 0.0}, {0.0, -10.0},
                                       {10.0, 10.0},   {10.0, 0.0},   {0.0, 10.0}};
        const facto::LabeledPoints p = kind == FACTO_MANIFOLD_TWO_RINGS   ? facto::two_rings(n, parameter, noise, seed)
                                       : kind == FACTO_MANIFOLD_TREFOIL   ? facto::trefoil_knot(n)
                                       : kind == FACTO_MANIFOLD_TWO_MOONS ? facto::two_moons(n, noise, seed)
                                       : facto::gaussian_blobs(n, centers, parameter, seed);
        const auto dim = static_cast<int64_t>(p.X.shape()[1]);
        facto::require_out_buffer(X, n, dim, capacity, layout);
        facto::require_out_buffer(labels, n, 1, labels_capacity, FACTO_ROW_MAJOR);
        facto::copy_out(p.X.data(), n, dim, X, capacity, layout);
        facto::copy_out(p.labels.data(), n, 1, labels, labels_capacity, FACTO_ROW_MAJOR);
        return FACTO_OK;
    });
}

facto_status facto_separable_data(int32_t kind, int64_t M, int64_t N, int64_t K, double snr_db, uint64_t seed, double* X,
                                  int64_t capacity, int32_t layout, int64_t* anchors, int64_t anchors_capacity)
{
    return guarded(nullptr, [&] {
        facto::require(kind == FACTO_SEPARABLE_MIDPOINTS || kind == FACTO_SEPARABLE_DIRICHLET,
                       FACTO_ERROR_INVALID_ARGUMENT,
                       "kind must be FACTO_SEPARABLE_MIDPOINTS or _DIRICHLET, got " + std::to_string(kind));
        facto::require(kind != FACTO_SEPARABLE_MIDPOINTS || K < 1 || N == K + K * (K - 1) / 2,
                       FACTO_ERROR_DIMENSION,
                       "midpoint data has N = K + K (K - 1) / 2 columns, got N = " + std::to_string(N) + " for K = " +
                           std::to_string(K));
        facto::require_out_buffer(X, M, N, capacity, layout);
        facto::require_out_buffer(anchors, K, 1, anchors_capacity, FACTO_ROW_MAJOR);
        const facto::SeparableData data = kind == FACTO_SEPARABLE_MIDPOINTS
                                              ? facto::separable_midpoints(M, K, snr_db, seed)
                                              : facto::separable_dirichlet(M, N, K, snr_db, seed);
        facto::copy_out(data.X.data(), M, N, X, capacity, layout);
        facto::copy_out(data.anchors.data(), K, 1, anchors, anchors_capacity, FACTO_ROW_MAJOR);
        return FACTO_OK;
    });
}

facto_status facto_sample_pairs(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                double fraction, uint64_t seed, facto_sparse** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        const facto::Matrix points = facto::copy_in(X, rows, cols, ld, layout, "X");
        facto::require_finite(points, "X");
        const facto::ObservedPairs p = facto::sample_pairs(points, fraction, seed);
        *out = wrap<facto_sparse>(facto::csr_from_triplets(rows, rows, p.i.data(), p.j.data(), p.d.data(),
                                                    static_cast<int64_t>(p.d.size())))
                   .release();
        return FACTO_OK;
    });
}

facto_status facto_distance_nrmse(const double* X, const double* X_true, int64_t n, int64_t r, int32_t layout,
                                  int64_t max_pairs, uint64_t seed, double* nrmse)
{
    return guarded(nullptr, [&] {
        require_pointer(nrmse, "nrmse");
        const auto [a, b] = finite_pair(X, "X", X_true, "X_true", n, r, layout);
        *nrmse = facto::distance_nrmse(a, b, max_pairs, seed);
        return FACTO_OK;
    });
}

}  // extern "C"
