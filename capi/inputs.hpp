// Argument checks and copies that the tiers share: new handles, sparse arguments, pairs of dense
// matrices.
#pragma once

#include <memory>
#include <utility>

#include "data/data.hpp"
#include "handles.hpp"

namespace facto::capi {

// *out = a new handle on the problem make() builds (inside the guard: make may throw).
template <class Make>
facto_status new_problem(facto_problem** out, const Make& make)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        auto handle = std::make_unique<facto_problem>();
        handle->problem = make();
        *out = handle.release();
        return FACTO_OK;
    });
}

// A new handle (facto_matrix or facto_sparse) owning `values`.
template <class Handle, class Values>
std::unique_ptr<Handle> wrap(Values values)
{
    auto handle = std::make_unique<Handle>();
    handle->values = std::move(values);
    return handle;
}

// The format and sizes of a sparse argument (facto.h, "Sparse input formats").
void require_sparse_shape(int32_t format, int64_t rows, int64_t cols, int64_t nnz);

// The sparse argument as CSR (its arrays checked and copied).
CsrMatrix sparse_in(int32_t format, int64_t rows, int64_t cols, int64_t nnz, const int64_t* ptr, const int64_t* idx,
                    const double* values);

// Two dense caller matrices of one shape (n x k, no padding: ld = k row-major, n column-major), copied
// and checked finite.
std::pair<Matrix, Matrix> finite_pair(const double* a, const char* a_name, const double* b, const char* b_name,
                                      int64_t n, int64_t k, int32_t layout);

// The named parameters of problem kind `kind` (the registry's table) at their defaults, then the `count`
// given ones set by name (an Int one from an integral value); Error naming a bad name or value.
std::unique_ptr<Params> named_parameters(const char* kind, int64_t count, const char* const* names,
                                         const double* values);

// A FACTO_SCALE_* or FACTO_SIMILARITY_* argument as the core's enum (Error(INVALID_ARGUMENT) otherwise).
// FACTO_SCALE_NONE, _MINMAX, _ZSCORE; FACTO_SCALE_AUTO resolves by kernel: min-max for the Gaussian (the
// affinity, the Gaussian kNN graph), none for the cosine graph.
// FACTO_SIMILARITY_AUTO resolves on the features X (automatic_similarity).
Scaling scaling_in(int32_t scaling, Similarity kernel = Similarity::Gaussian);
Similarity similarity_in(int32_t kind, const Matrix& X);
Similarity similarity_in(int32_t kind, const DenseRows& X);
Similarity similarity_in(int32_t kind, const CsrMatrix& X);

}  // namespace facto::capi
