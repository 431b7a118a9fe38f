// Data helpers: matrices read from files, CSV output, the Gaussian affinity, clustering accuracy.
#include <cmath>
#include <vector>

#include "handles.hpp"

#include "facto/data.hpp"
#include "facto/metrics.hpp"

using facto::capi::guarded;
using facto::capi::require_pointer;

namespace {
std::unique_ptr<facto_matrix> wrap(facto::Matrix m)
{
    auto handle = std::make_unique<facto_matrix>();
    handle->values = std::move(m);
    return handle;
}
}  // namespace

extern "C" {

facto_status facto_matrix_read(const char* path, facto_matrix** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(path, "path");
        *out = wrap(facto::read_matrix(path)).release();
        return FACTO_OK;
    });
}

facto_status facto_matrix_new(const double* data, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                              facto_matrix** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        *out = wrap(facto::copy_in(data, rows, cols, ld, layout, "data")).release();
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
        *out = wrap(facto::gaussian_affinity(features, bandwidth)).release();
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

}  // extern "C"
