// facto_model_*: fitted models (src/models/model.hpp) captured from solvers, rebuilt from arrays, given
// feature rules and applied to new data.
#include <string>
#include <utility>

#include "../inputs.hpp"
#include "linalg/parallel.hpp"

using facto::capi::guarded;
using facto::capi::require_pointer;
using facto::capi::require_sparse_shape;
using facto::capi::sparse_in;

namespace {
// Runs body on a model's handle, its failure message kept on the handle.
template <class Model, class Body>
facto_status on_model(Model* model, Body&& body)
{
    return guarded(model ? &model->last_error : nullptr, [&] {
        require_pointer(model, "model");
        return body(model->model);
    });
}

facto_status new_model(facto_model** out, facto::Model model)
{
    auto handle = std::make_unique<facto_model>();
    handle->model = std::move(model);
    *out = handle.release();
    return FACTO_OK;
}

// Writes what apply gave into the caller's buffers.
facto_status copy_applied(const facto::Applied& applied, double* out, int64_t capacity, int64_t* labels,
                          double* residuals)
{
    facto::copy_out(applied.rows.data(), static_cast<int64_t>(applied.rows.shape()[0]),
                    static_cast<int64_t>(applied.rows.shape()[1]), out, capacity, FACTO_ROW_MAJOR);
    if (labels) std::copy(applied.labels.begin(), applied.labels.end(), labels);
    if (residuals) std::copy(applied.residuals.begin(), applied.residuals.end(), residuals);
    return FACTO_OK;
}
// The named array, or Error(UNKNOWN_PARAMETER) naming what the model lacks.
const facto::Matrix& named(const facto::Model& m, const char* name)
{
    require_pointer(name, "name");
    facto::require(m.has(name), FACTO_ERROR_UNKNOWN_PARAMETER, "the " + m.kind + " model has no array '" + name + "'");
    return m.array(name);
}
}  // namespace

extern "C" {

facto_status facto_solver_model(const facto_solver* solver, facto_model** out)
{
    return guarded(solver ? &solver->last_error : nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(solver, "solver");
        return new_model(out, facto::capture_model(*solver->solver));
    });
}

facto_status facto_model_new(const char* kind, facto_model** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(kind, "kind");
        return new_model(out, facto::empty_model(kind));
    });
}

void facto_model_free(facto_model* model) { delete model; }

const char* facto_model_kind(const facto_model* model) { return model ? model->model.kind.c_str() : nullptr; }

const char* facto_model_last_error(const facto_model* model)
{
    return model ? model->last_error.c_str() : facto_last_error();
}

facto_status facto_model_array_count(const facto_model* model, int64_t* count)
{
    return on_model(model, [&](const facto::Model& m) {
        require_pointer(count, "count");
        *count = static_cast<int64_t>(m.arrays.size());
        return FACTO_OK;
    });
}

facto_status facto_model_array_name(const facto_model* model, int64_t index, const char** name)
{
    return on_model(model, [&](const facto::Model& m) {
        require_pointer(name, "name");
        facto::require(index >= 0 && index < static_cast<int64_t>(m.arrays.size()), FACTO_ERROR_OUT_OF_RANGE,
                       "array index " + std::to_string(index) + " outside [0, " + std::to_string(m.arrays.size()) + ")");
        *name = std::next(m.arrays.begin(), index)->first.c_str();
        return FACTO_OK;
    });
}

facto_status facto_model_array_shape(const facto_model* model, const char* name, int64_t* rows, int64_t* cols)
{
    return on_model(model, [&](const facto::Model& m) {
        require_pointer(rows, "rows");
        require_pointer(cols, "cols");
        const facto::Matrix& A = named(m, name);
        *rows = static_cast<int64_t>(A.shape()[0]);
        *cols = static_cast<int64_t>(A.shape()[1]);
        return FACTO_OK;
    });
}

facto_status facto_model_copy_array(const facto_model* model, const char* name, double* out, int64_t capacity)
{
    return on_model(model, [&](const facto::Model& m) {
        const facto::Matrix& A = named(m, name);
        facto::copy_out(A.data(), static_cast<int64_t>(A.shape()[0]), static_cast<int64_t>(A.shape()[1]), out, capacity,
                        FACTO_ROW_MAJOR);
        return FACTO_OK;
    });
}

facto_status facto_model_set_array(facto_model* model, const char* name, const double* data, int64_t rows, int64_t cols)
{
    return on_model(model, [&](facto::Model& m) {
        require_pointer(name, "name");
        facto::set_array(m, name, facto::copy_in(data, rows, cols, cols, FACTO_ROW_MAJOR, name));
        return FACTO_OK;
    });
}

facto_status facto_model_save(const facto_model* model, const char* directory, const char* settings)
{
    return on_model(model, [&](const facto::Model& m) {
        require_pointer(directory, "directory");
        facto::save_model(m, directory, settings ? settings : m.settings);
        return FACTO_OK;
    });
}

facto_status facto_model_load(const char* directory, facto_model** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(directory, "directory");
        return new_model(out, facto::load_model(directory));
    });
}

const char* facto_model_settings(const facto_model* model) { return model ? model->model.settings.c_str() : nullptr; }

facto_status facto_model_describe(const facto_model* model, const char** json)
{
    return on_model(model, [&](const facto::Model& m) {
        require_pointer(json, "json");
        model->description = facto::describe_model(m);
        *json = model->description.c_str();
        return FACTO_OK;
    });
}

facto_status facto_model_drop_training_features(facto_model* model)
{
    return on_model(model, [&](facto::Model& m) {
        facto::drop_feature_rule(m);
        return FACTO_OK;
    });
}

facto_status facto_model_use_gaussian_affinity(facto_model* model, const double* X, int64_t rows, int64_t cols,
                                               int64_t ld, int32_t layout, double bandwidth, int32_t scaling)
{
    return on_model(model, [&](facto::Model& m) {
        const facto::Scaling how = facto::capi::scaling_in(scaling);
        facto::use_gaussian_affinity(m, facto::copy_in(X, rows, cols, ld, layout, "X"), bandwidth, how);
        return FACTO_OK;
    });
}

facto_status facto_model_use_knn_similarity_search(facto_model* model, const double* X, int64_t rows, int64_t cols,
                                                   int64_t ld, int32_t layout, int64_t k, int32_t kind, int32_t scaling,
                                                   int32_t search)
{
    return on_model(model, [&](facto::Model& m) {
        facto::Matrix features = facto::copy_in(X, rows, cols, ld, layout, "X");
        const facto::Similarity similarity = facto::capi::similarity_in(kind, features);
        const facto::Scaling how = facto::capi::scaling_in(scaling, similarity);
        facto::require(k >= 0, FACTO_ERROR_OUT_OF_RANGE, "k must be >= 0 (0 = floor(log2 n) + 1), got " + std::to_string(k));
        const facto::NeighborSearch found_by = facto::resolve_search(static_cast<facto::NeighborSearch>(search), rows);
        facto::use_knn_similarity(m, std::move(features), k, similarity, how, found_by);
        return FACTO_OK;
    });
}

facto_status facto_model_use_knn_similarity_scaled(facto_model* model, const double* X, int64_t rows, int64_t cols,
                                                   int64_t ld, int32_t layout, int64_t k, int32_t kind, int32_t scaling)
{
    return facto_model_use_knn_similarity_search(model, X, rows, cols, ld, layout, k, kind, scaling, FACTO_SEARCH_AUTO);
}

facto_status facto_model_use_knn_similarity(facto_model* model, const double* X, int64_t rows, int64_t cols, int64_t ld,
                                            int32_t layout, int64_t k, int32_t kind)
{
    return facto_model_use_knn_similarity_scaled(model, X, rows, cols, ld, layout, k, kind, FACTO_SCALE_NONE);
}

facto_status facto_model_use_knn_similarity_sparse(facto_model* model, int32_t format, int64_t rows, int64_t cols,
                                                   int64_t nnz, const int64_t* ptr, const int64_t* idx,
                                                   const double* values, int64_t k, int32_t kind, int32_t scaling,
                                                   int32_t search)
{
    return on_model(model, [&](facto::Model& m) {
        facto::require(k >= 0, FACTO_ERROR_OUT_OF_RANGE, "k must be >= 0 (0 = floor(log2 n) + 1), got " + std::to_string(k));
        require_sparse_shape(format, rows, cols, nnz);
        const facto::CsrMatrix features = sparse_in(format, rows, cols, nnz, ptr, idx, values);
        const facto::Similarity similarity = facto::capi::similarity_in(kind, features);
        const facto::Scaling how = facto::capi::scaling_in(scaling, similarity);
        // as facto_knn_similarity_sparse: AUTO searches sparse input exactly, and the rows stay sparse unless
        // the scaling fills their zeros
        const facto::NeighborSearch found_by = facto::resolve_search(static_cast<facto::NeighborSearch>(search), 0);
        if (how == facto::Scaling::None)
            facto::use_knn_similarity(m, features, k, similarity, found_by);
        else
            facto::use_knn_similarity(m, facto::dense_from_csr(features), k, similarity, how, found_by);
        return FACTO_OK;
    });
}

facto_status facto_model_use_points(facto_model* model, const double* X, int64_t rows, int64_t cols, int64_t ld,
                                    int32_t layout)
{
    return on_model(model, [&](facto::Model& m) {
        facto::use_points(m, facto::copy_in(X, rows, cols, ld, layout, "X"));
        return FACTO_OK;
    });
}

facto_status facto_model_use_points_sparse(facto_model* model, int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                           const int64_t* ptr, const int64_t* idx, const double* values)
{
    return on_model(model, [&](facto::Model& m) {
        require_sparse_shape(format, rows, cols, nnz);
        facto::use_points(m, sparse_in(format, rows, cols, nnz, ptr, idx, values));
        return FACTO_OK;
    });
}

facto_status facto_model_use_gram(facto_model* model, const double* D, int64_t rows, int64_t cols, int64_t ld,
                                  int32_t layout)
{
    return on_model(model, [&](facto::Model& m) {
        facto::use_gram(m, facto::copy_in(D, rows, cols, ld, layout, "D"));
        return FACTO_OK;
    });
}

facto_status facto_model_apply_columns(const facto_model* model, int64_t* cols)
{
    return on_model(model, [&](const facto::Model& m) {
        require_pointer(cols, "cols");
        *cols = facto::applied_columns(m);
        return FACTO_OK;
    });
}

facto_status facto_model_apply(const facto_model* model, const double* Y, int64_t rows, int64_t cols, int64_t ld,
                               int32_t layout, double* out, int64_t capacity, int64_t* labels, double* residuals)
{
    return on_model(model, [&](const facto::Model& m) {
        require_pointer(out, "out");
        const facto::Matrix data = facto::copy_in(Y, rows, cols, ld, layout, "the new data");
        return copy_applied(facto::apply_model(m, data, facto::resolve_threads(0)), out, capacity, labels, residuals);
    });
}

facto_status facto_model_apply_sparse(const facto_model* model, int32_t format, int64_t rows, int64_t cols, int64_t nnz,
                                      const int64_t* ptr, const int64_t* idx, const double* values, double* out,
                                      int64_t capacity, int64_t* labels, double* residuals)
{
    return on_model(model, [&](const facto::Model& m) {
        require_pointer(out, "out");
        facto::capi::require_sparse_shape(format, rows, cols, nnz);
        const facto::CsrMatrix data = facto::capi::sparse_in(format, rows, cols, nnz, ptr, idx, values);
        return copy_applied(facto::apply_model(m, data, facto::resolve_threads(0)), out, capacity, labels, residuals);
    });
}

}  // extern "C"
