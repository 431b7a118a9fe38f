#include "linalg/matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

#include <xtensor/xmath.hpp>

#include "base/error.hpp"

namespace facto {

void require_memory(double bytes, const std::string& what)
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    double kib = 0.0, available = 0.0;
    bool known = false;
    while (meminfo >> key >> kib) {
        if (key == "MemAvailable:" || key == "SwapFree:") available += 1024.0 * kib, known = true;
        meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    // a host's budget for facto, in MiB
    const char* budget = std::getenv("FACTO_MEMORY_LIMIT_MB");
    const char* source = "available";
    if (budget && *budget) {
        char* end = nullptr;
        const double mib = std::strtod(budget, &end);
        require(*end == '\0' && mib > 0.0 && std::isfinite(mib), FACTO_ERROR_INVALID_ARGUMENT,
                std::string("FACTO_MEMORY_LIMIT_MB is '") + budget + "', not a positive number of MiB");
        available = known ? std::min(available, 1048576.0 * mib) : 1048576.0 * mib;
        known = true;
        source = "allowed (FACTO_MEMORY_LIMIT_MB)";
    }
    if (!known || bytes <= available) return;
    char text[200];
    std::snprintf(text, sizeof text, " needs about %.3g GiB, and %.3g GiB are %s", bytes / 1073741824.0,
                  available / 1073741824.0, source);
    throw Error(FACTO_ERROR_OUT_OF_MEMORY, what + text);
}

namespace {

// copy_in's and rows_in's checks of a caller's (data, rows, cols, ld, layout).
void check_caller_matrix(const void* data, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                         const std::string& name)
{
    require(data != nullptr, FACTO_ERROR_NULL_POINTER, name + ": data pointer is NULL");
    require(rows >= 0 && cols >= 0, FACTO_ERROR_INVALID_ARGUMENT,
            name + ": negative shape " + std::to_string(rows) + " x " + std::to_string(cols));
    require(layout == FACTO_ROW_MAJOR || layout == FACTO_COL_MAJOR, FACTO_ERROR_INVALID_ARGUMENT,
            name + ": layout must be FACTO_ROW_MAJOR (0) or FACTO_COL_MAJOR (1), got " + std::to_string(layout));
    const int64_t minimum_ld = std::max<int64_t>(1, layout == FACTO_ROW_MAJOR ? cols : rows);
    require(ld >= minimum_ld, FACTO_ERROR_INVALID_ARGUMENT,
            name + ": leading dimension " + std::to_string(ld) + " is below " + std::to_string(minimum_ld));
    // rows * cols * sizeof(double) must not overflow (it would wrap to a small allocation).
    require(rows == 0 || cols <= std::numeric_limits<int64_t>::max() / 8 / rows, FACTO_ERROR_OUT_OF_MEMORY,
            name + ": " + std::to_string(rows) + " x " + std::to_string(cols) + " values cannot be addressed");
}

// A caller's checked matrix in a new row-major one of its own precision.
template <class T>
xt::xtensor<T, 2> copy_checked(const T* data, int64_t rows, int64_t cols, int64_t ld, int32_t layout,
                               const std::string& name)
{
    require_memory(static_cast<double>(sizeof(T)) * static_cast<double>(rows) * static_cast<double>(cols),
                   name + ": a copy of " + std::to_string(rows) + " x " + std::to_string(cols));
    xt::xtensor<T, 2> M({static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)});
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            M(i, j) = layout == FACTO_ROW_MAJOR ? data[i * ld + j] : data[i + j * ld];
    return M;
}

}  // namespace

Matrix copy_in(const double* data, int64_t rows, int64_t cols, int64_t ld, int32_t layout, const char* what)
{
    check_caller_matrix(data, rows, cols, ld, layout, what);
    return copy_checked(data, rows, cols, ld, layout, what);
}

DenseRows rows_in(const double* data, int64_t rows, int64_t cols, int64_t ld, int32_t layout, const char* what,
                  Matrix& copy)
{
    check_caller_matrix(data, rows, cols, ld, layout, what);
    if (layout == FACTO_COL_MAJOR) return rows_of(copy = copy_checked(data, rows, cols, ld, layout, what));
    return {data, static_cast<std::size_t>(rows), static_cast<std::size_t>(cols), static_cast<std::size_t>(ld)};
}

DenseRows rows_in(const float* data, int64_t rows, int64_t cols, int64_t ld, int32_t layout, const char* what,
                  SingleMatrix& copy)
{
    check_caller_matrix(data, rows, cols, ld, layout, what);
    if (layout == FACTO_COL_MAJOR) return rows_of(copy = copy_checked(data, rows, cols, ld, layout, what));
    return {nullptr, static_cast<std::size_t>(rows), static_cast<std::size_t>(cols), static_cast<std::size_t>(ld), data};
}

void require_out_buffer(const void* out, int64_t rows, int64_t cols, int64_t capacity, int32_t layout)
{
    require(out != nullptr, FACTO_ERROR_NULL_POINTER, "output buffer is NULL");
    require(layout == FACTO_ROW_MAJOR || layout == FACTO_COL_MAJOR, FACTO_ERROR_INVALID_ARGUMENT,
            "layout must be FACTO_ROW_MAJOR (0) or FACTO_COL_MAJOR (1), got " + std::to_string(layout));
    require(capacity >= rows * cols, FACTO_ERROR_BUFFER_TOO_SMALL,
            "output buffer holds " + std::to_string(capacity) + " elements, " + std::to_string(rows * cols) +
                " (" + std::to_string(rows) + " x " + std::to_string(cols) + ") are needed");
}

template <class T>
void copy_out(const T* source, int64_t rows, int64_t cols, T* out, int64_t capacity, int32_t layout)
{
    require_out_buffer(out, rows, cols, capacity, layout);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            out[layout == FACTO_ROW_MAJOR ? i * cols + j : i + j * rows] = source[i * cols + j];
}

template void copy_out<double>(const double*, int64_t, int64_t, double*, int64_t, int32_t);
template void copy_out<int64_t>(const int64_t*, int64_t, int64_t, int64_t*, int64_t, int32_t);

void require_symmetric(Matrix& P, const char* what)
{
    const std::size_t n = P.shape()[0], tile = 64;
    const double scale = std::max(xt::amax(xt::abs(P))(), std::numeric_limits<double>::min());
    for (std::size_t bi = 0; bi < n; bi += tile)
        for (std::size_t bj = bi; bj < n; bj += tile)
            for (std::size_t i = bi; i < std::min(bi + tile, n); ++i)
                for (std::size_t j = std::max(bj, i + 1); j < std::min(bj + tile, n); ++j) {
                    if (std::fabs(P(i, j) - P(j, i)) > 1e-10 * scale)
                        throw Error(FACTO_ERROR_NOT_SYMMETRIC,
                                    std::string(what) + " is not symmetric: " + what + "(" + std::to_string(i) + ", " +
                                        std::to_string(j) + ") - " + what + "(" + std::to_string(j) + ", " +
                                        std::to_string(i) + ") = " + std::to_string(P(i, j) - P(j, i)));
                    P(i, j) = P(j, i) = 0.5 * (P(i, j) + P(j, i));
                }
}

void require_shape(const Matrix& X, int64_t rows, int64_t cols, const char* what)
{
    require(static_cast<int64_t>(X.shape()[0]) == rows && static_cast<int64_t>(X.shape()[1]) == cols,
            FACTO_ERROR_DIMENSION,
            std::string(what) + " must be " + std::to_string(rows) + " x " + std::to_string(cols) + ", got " +
                std::to_string(X.shape()[0]) + " x " + std::to_string(X.shape()[1]));
}

void require_finite(const Matrix& X, const char* what) { require_finite(rows_of(X), what); }

void require_finite(const DenseRows& X, const char* what)
{
    if (X.p == 0) return;  // no loop over the rows of a (10^15, 0) matrix
    for (std::size_t i = 0; i < X.n; ++i)
        for (std::size_t j = 0; j < X.p; ++j) {
            const double v = X(i, j);
            if (!(std::fabs(v) <= kMaxMagnitude))
                throw Error(std::isfinite(v) ? FACTO_ERROR_OUT_OF_RANGE : FACTO_ERROR_NOT_FINITE,
                            std::string(what) + ": entry (" + std::to_string(i) + ", " + std::to_string(j) + ") is " +
                                value_text(v) + (std::isfinite(v) ? ", above 1e100 in magnitude: rescale the data" : ""));
        }
}

DenseRows rows_of(const Matrix& X) { return {X.data(), X.shape()[0], X.shape()[1], X.shape()[1]}; }

DenseRows rows_of(const SingleMatrix& X) { return {nullptr, X.shape()[0], X.shape()[1], X.shape()[1], X.data()}; }

}  // namespace facto
