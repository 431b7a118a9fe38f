// Dense matrices of the core, and the copy-in / copy-out of caller buffers described by
// (data, rows, cols, ld, layout) as facto.h specifies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

namespace facto {

using Matrix = xt::xtensor<double, 2>;  // row-major
using Vector = xt::xtensor<double, 1>;

// Throws Error(OUT_OF_MEMORY) naming `what` when `bytes` exceed the memory the system can still give
// (MemAvailable + SwapFree of /proc/meminfo; no check where that file is unreadable), or the budget
// FACTO_MEMORY_LIMIT_MB (MiB) of the environment when that is smaller (INVALID_ARGUMENT when it is not a
// positive number). Called with an estimate before large allocations, because Linux grants more than it
// has and kills the process when the pages are touched.
void require_memory(double bytes, const std::string& what);

using SingleMatrix = xt::xtensor<float, 2>;  // row-major, 4 bytes a value: image sets at 10^6 rows

// A caller's row-major matrix read where it is, never copied: row i's p values at data + i * stride
// (stride >= p), in double precision (data) or single precision (single; data is then NULL). What the
// kNN graph takes when a copy of the features would not fit beside them.
struct DenseRows {
    const double* data = nullptr;
    std::size_t n = 0, p = 0, stride = 0;
    const float* single = nullptr;
    const double* row(std::size_t i) const { return data + i * stride; }  // rows in double precision only
    double operator()(std::size_t i, std::size_t c) const
    {
        return single ? static_cast<double>(single[i * stride + c]) : data[i * stride + c];
    }
};
// The rows of X (contiguous, stride p).
DenseRows rows_of(const Matrix& X);
DenseRows rows_of(const SingleMatrix& X);
// A caller's matrix as DenseRows when it is row-major (ld >= cols checked as copy_in checks it), else
// a copy of it into `copy` (column-major), whose rows are returned.
DenseRows rows_in(const double* data, int64_t rows, int64_t cols, int64_t ld, int32_t layout, const char* what,
                  Matrix& copy);
DenseRows rows_in(const float* data, int64_t rows, int64_t cols, int64_t ld, int32_t layout, const char* what,
                  SingleMatrix& copy);

// Copy a caller matrix into a new row-major Matrix, validating layout and leading dimension.
// `what` names the argument in error messages. Throws Error.
Matrix copy_in(const double* data, int64_t rows, int64_t cols, int64_t ld, int32_t layout, const char* what);

// Throws Error (NULL_POINTER, INVALID_ARGUMENT, BUFFER_TOO_SMALL) unless `out` can take rows x cols
// values in `layout`.
void require_out_buffer(const void* out, int64_t rows, int64_t cols, int64_t capacity, int32_t layout);

// Copy `rows x cols` values (row-major source) to a dense caller buffer of `capacity` elements in
// `layout`. Throws Error (NULL_POINTER, INVALID_ARGUMENT, BUFFER_TOO_SMALL).
template <class T>
void copy_out(const T* source, int64_t rows, int64_t cols, T* out, int64_t capacity, int32_t layout);

// Requires |P_ij - P_ji| <= 1e-10 max|P| (else Error(NOT_SYMMETRIC) naming `what` and the entry),
// then sets P := (P + P^T) / 2 exactly. Walks 64 x 64 tiles so the transposed reads stay in cache.
void require_symmetric(Matrix& P, const char* what);

// The largest magnitude facto accepts in input data: squares and sums of n^2 of them stay finite.
constexpr double kMaxMagnitude = 1e100;

// Throws Error(NOT_FINITE) naming `what` and the first NaN or Inf entry, or Error(OUT_OF_RANGE) for the
// first entry above kMaxMagnitude in magnitude (its products would overflow).
void require_finite(const Matrix& X, const char* what);
void require_finite(const DenseRows& X, const char* what);

// Throws Error(DIMENSION) "`what` must be rows x cols, got ..." unless X has that shape.
void require_shape(const Matrix& X, int64_t rows, int64_t cols, const char* what);

}  // namespace facto
