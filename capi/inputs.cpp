#include "inputs.hpp"

#include <cmath>
#include <string>

#include "solvers/registry.hpp"

namespace facto::capi {

void require_sparse_shape(int32_t format, int64_t rows, int64_t cols, int64_t nnz)
{
    require(format == FACTO_SPARSE_CSR || format == FACTO_SPARSE_CSC || format == FACTO_SPARSE_COO,
            FACTO_ERROR_INVALID_ARGUMENT,
            "format must be FACTO_SPARSE_CSR, _CSC or _COO, got " + std::to_string(format));
    require(rows >= 0 && cols >= 0 && nnz >= 0, FACTO_ERROR_INVALID_ARGUMENT,
            "negative size: rows = " + std::to_string(rows) + ", cols = " + std::to_string(cols) +
                ", nnz = " + std::to_string(nnz));
}

CsrMatrix sparse_in(int32_t format, int64_t rows, int64_t cols, int64_t nnz, const int64_t* ptr, const int64_t* idx,
                    const double* values)
{
    require_pointer(ptr, "ptr");
    if (format == FACTO_SPARSE_COO) return csr_from_triplets(rows, cols, ptr, idx, values, nnz);
    const int64_t outer = format == FACTO_SPARSE_CSR ? rows : cols;
    require(ptr[outer] == nnz, FACTO_ERROR_INVALID_ARGUMENT,
            "nnz = " + std::to_string(nnz) + " but ptr[" + std::to_string(outer) + "] = " + std::to_string(ptr[outer]));
    return csr_from_compressed(rows, cols, ptr, idx, values, format == FACTO_SPARSE_CSC);
}

std::pair<Matrix, Matrix> finite_pair(const double* a, const char* a_name, const double* b, const char* b_name,
                                      int64_t n, int64_t k, int32_t layout)
{
    const int64_t ld = layout == FACTO_COL_MAJOR ? n : k;
    std::pair<Matrix, Matrix> pair{copy_in(a, n, k, ld, layout, a_name), copy_in(b, n, k, ld, layout, b_name)};
    require_finite(pair.first, a_name);
    require_finite(pair.second, b_name);
    return pair;
}

std::unique_ptr<Params> named_parameters(const char* kind, int64_t count, const char* const* names,
                                         const double* values)
{
    auto params = std::make_unique<Params>(problem_parameters(kind));
    require(count >= 0, FACTO_ERROR_INVALID_ARGUMENT, "count = " + std::to_string(count) + " is negative");
    if (count > 0) {
        require_pointer(names, "param_names");
        require_pointer(values, "param_values");
    }
    for (int64_t i = 0; i < count; ++i) {
        require(names[i] != nullptr, FACTO_ERROR_NULL_POINTER, "param_names[" + std::to_string(i) + "] is NULL");
        // an integral value goes by set_int, which a double parameter takes too; any other by set_double,
        // which an integer parameter refuses (PARAMETER_TYPE)
        const double v = values[i];
        if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) <= 9007199254740992.0)
            params->set_int(names[i], static_cast<int64_t>(v));
        else
            params->set_double(names[i], v);
    }
    return params;
}

Scaling scaling_in(int32_t scaling, Similarity kernel)
{
    require(scaling >= FACTO_SCALE_NONE && scaling <= FACTO_SCALE_AUTO, FACTO_ERROR_INVALID_ARGUMENT,
            "scaling must be FACTO_SCALE_NONE, _MINMAX, _ZSCORE or _AUTO, got " + std::to_string(scaling));
    if (scaling == FACTO_SCALE_AUTO) return kernel == Similarity::Gaussian ? Scaling::MinMax : Scaling::None;
    return static_cast<Scaling>(scaling);
}

namespace {
template <class Rows>
Similarity similarity_of(int32_t kind, const Rows& X)
{
    require(kind == FACTO_SIMILARITY_GAUSSIAN || kind == FACTO_SIMILARITY_COSINE || kind == FACTO_SIMILARITY_AUTO,
            FACTO_ERROR_INVALID_ARGUMENT,
            "kind must be FACTO_SIMILARITY_GAUSSIAN, _COSINE or _AUTO, got " + std::to_string(kind));
    return kind == FACTO_SIMILARITY_AUTO ? automatic_similarity(X) : static_cast<Similarity>(kind);
}
}  // namespace

Similarity similarity_in(int32_t kind, const Matrix& X) { return similarity_of(kind, X); }
Similarity similarity_in(int32_t kind, const DenseRows& X) { return similarity_of(kind, X); }
Similarity similarity_in(int32_t kind, const CsrMatrix& X) { return similarity_of(kind, X); }

}  // namespace facto::capi
