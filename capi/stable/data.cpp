// The stable tier's data helpers: matrices read from files, CSV output, the Gaussian affinity, the metrics
// (clustering accuracy, SRC, k-means), sparse matrices, similarity graphs and NOMAD's Gram matrix.
#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "../inputs.hpp"

#include "data/data.hpp"
#include "metrics/metrics.hpp"

using facto::capi::finite_pair;
using facto::capi::guarded;
using facto::capi::require_pointer;
using facto::capi::wrap;

namespace {

// facto_knn_similarity_search's graph of X's rows in double or single precision.
template <class T>
facto_status knn_search(const T* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout, int64_t k, int32_t kind,
                        int32_t scaling, int32_t search, facto_sparse** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        facto::require(k >= 0, FACTO_ERROR_OUT_OF_RANGE, "k must be >= 0 (0 = floor(log2 n) + 1), got " + std::to_string(k));
        // row-major features are read where they lie, scaled as they are read: no copy of 10^6 images
        xt::xtensor<T, 2> copy;
        const facto::DenseRows features = facto::rows_in(X, rows, cols, ld, layout, "X", copy);
        facto::require_finite(features, "X");
        const facto::Similarity similarity = facto::capi::similarity_in(kind, features);
        const facto::Scaling how = facto::capi::scaling_in(scaling, similarity);
        const facto::NeighborSearch found_by = facto::resolve_search(static_cast<facto::NeighborSearch>(search), rows);
        const facto::ColumnScaling scaled = facto::column_scaling(features, how);
        *out = wrap<facto_sparse>(facto::knn_graph(facto::ScaledRows(features, &scaled), k, similarity, 7, found_by).S)
                   .release();
        return FACTO_OK;
    });
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

facto_status facto_matrix_read_float(const char* path, facto_matrix** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(path, "path");
        auto matrix = std::make_unique<facto_matrix>();
        matrix->single = facto::read_matrix_single(path);
        matrix->in_single = true;
        *out = matrix.release();
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
        const auto& shape = matrix->in_single ? matrix->single.shape() : matrix->values.shape();
        *rows = static_cast<int64_t>(shape[0]);
        *cols = static_cast<int64_t>(shape[1]);
        return FACTO_OK;
    });
}

const double* facto_matrix_data(const facto_matrix* matrix)
{
    return matrix && !matrix->in_single ? matrix->values.data() : nullptr;
}

const float* facto_matrix_data_float(const facto_matrix* matrix)
{
    return matrix && matrix->in_single ? matrix->single.data() : nullptr;
}

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
        const facto::Scaling how = facto::capi::scaling_in(scaling);
        facto::Matrix features = facto::copy_in(X, rows, cols, ld, layout, "X");
        facto::require_finite(features, "X");
        facto::scale_columns(features, how);
        *out = wrap<facto_matrix>(facto::gaussian_affinity(features, bandwidth)).release();
        return FACTO_OK;
    });
}

facto_status facto_consensus(const int64_t* labels, int64_t runs, int64_t n, double* consensus, double* cophenetic,
                             double* dispersion)
{
    return guarded(nullptr, [&] {
        require_pointer(labels, "labels");
        require_pointer(cophenetic, "cophenetic");
        require_pointer(dispersion, "dispersion");
        facto::require(runs >= 1 && n >= 2, FACTO_ERROR_DIMENSION,
                       "consensus: runs must be at least 1 and n at least 2, got " + std::to_string(runs) + " and " +
                           std::to_string(n));
        std::vector<std::vector<int64_t>> clusterings(static_cast<std::size_t>(runs));
        for (int64_t r = 0; r < runs; ++r) clusterings[static_cast<std::size_t>(r)].assign(labels + r * n, labels + (r + 1) * n);
        const facto::Matrix C = facto::consensus_matrix(clusterings);
        const facto::ConsensusScores scores = facto::consensus_scores(C);
        if (consensus) std::copy(C.begin(), C.end(), consensus);
        *cophenetic = scores.cophenetic;
        *dispersion = scores.dispersion;
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

facto_status facto_knn_similarity_search(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                         int64_t k, int32_t kind, int32_t scaling, int32_t search, facto_sparse** out)
{
    return knn_search(X, rows, cols, ld, layout, k, kind, scaling, search, out);
}

facto_status facto_knn_similarity_search_float(const float* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                               int64_t k, int32_t kind, int32_t scaling, int32_t search,
                                               facto_sparse** out)
{
    return knn_search(X, rows, cols, ld, layout, k, kind, scaling, search, out);
}

facto_status facto_knn_similarity_scaled(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                                         int64_t k, int32_t kind, int32_t scaling, facto_sparse** out)
{
    return facto_knn_similarity_search(X, rows, cols, ld, layout, k, kind, scaling, FACTO_SEARCH_AUTO, out);
}

facto_status facto_knn_similarity_sparse(int32_t format, int64_t rows, int64_t cols, int64_t nnz, const int64_t* ptr,
                                         const int64_t* idx, const double* values, int64_t k, int32_t kind,
                                         int32_t scaling, int32_t search, facto_sparse** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        facto::require(k >= 0, FACTO_ERROR_OUT_OF_RANGE, "k must be >= 0 (0 = floor(log2 n) + 1), got " + std::to_string(k));
        // sparse rows are searched exactly unless HNSW is asked for (refused unless the scaling makes them dense)
        const facto::NeighborSearch found_by =
            facto::resolve_search(static_cast<facto::NeighborSearch>(search), 0);
        const facto::CsrMatrix features = facto::capi::sparse_in(format, rows, cols, nnz, ptr, idx, values);
        const facto::Similarity similarity = facto::capi::similarity_in(kind, features);
        const facto::Scaling how = facto::capi::scaling_in(scaling, similarity);
        if (how == facto::Scaling::None) {
            *out = wrap<facto_sparse>(facto::knn_similarity(features, k, similarity, 7, found_by)).release();
        } else {  // the scaling fills the zeros: the dense rows' graph
            facto::Matrix dense = facto::dense_from_csr(features);
            facto::scale_columns(dense, how);
            *out = wrap<facto_sparse>(facto::knn_similarity(dense, k, similarity, 7, found_by)).release();
        }
        return FACTO_OK;
    });
}

int32_t facto_knn_search_for(int64_t n, int32_t search)
{
    if (search < FACTO_SEARCH_EXACT || search > FACTO_SEARCH_AUTO) return -1;
    return static_cast<int32_t>(facto::resolve_search(static_cast<facto::NeighborSearch>(search), n));
}

facto_status facto_knn_similarity(const double* X, int64_t rows, int64_t cols, int64_t ld, int32_t layout, int64_t k,
                                  int32_t kind, facto_sparse** out)
{
    return facto_knn_similarity_scaled(X, rows, cols, ld, layout, k, kind, FACTO_SCALE_NONE, out);
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

}  // extern "C"
