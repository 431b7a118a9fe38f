#include "linalg/symmetric.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "linalg/parallel.hpp"

namespace facto {

namespace {
constexpr std::size_t kChunks = 8;  // fixed, so that sums do not depend on the thread count
}

PackedSymmetric PackedSymmetric::from_upper(const Matrix& A)
{
    require(A.shape()[0] == A.shape()[1], FACTO_ERROR_DIMENSION, "a symmetric matrix must be square");
    PackedSymmetric S(A.shape()[0]);
    for (std::size_t i = 0; i < S.n; ++i) std::copy(&A(i, i), &A(i, 0) + S.n, &S.values[S.start(i)]);
    return S;
}

Matrix PackedSymmetric::to_dense() const
{
    Matrix A({n, n});
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i; j < n; ++j) A(i, j) = A(j, i) = values[start(i) + j - i];
    return A;
}

void multiply(const PackedSymmetric& A, const double* x, double* y, std::size_t threads)
{
    const std::size_t n = A.n;
    // chunk c holds rows [bound[c], bound[c + 1]), about a kChunks-th of the triangle each
    std::size_t bound[kChunks + 1] = {};
    for (std::size_t c = 1, i = 0; c < kChunks; ++c) {
        const double target = static_cast<double>(A.values.size()) * static_cast<double>(c) / kChunks;
        while (i < n && static_cast<double>(A.start(i)) < target) ++i;
        bound[c] = i;
    }
    bound[kChunks] = n;
    std::vector<double> partial(kChunks * n, 0.0);
    parallel_for(kChunks, grain_for(A.values.size() / kChunks), threads, [&](std::size_t first, std::size_t last) {
        for (std::size_t c = first; c < last; ++c) {
            double* z = &partial[c * n];
            for (std::size_t i = bound[c]; i < bound[c + 1]; ++i) {
                // row i of the triangle: z_i += a_ii x_i + sum_{j > i} a_ij x_j, and z_j += a_ij x_i
                const double* a = &A.values[A.start(i)];
                const double xi = x[i];
                double sum = a[0] * xi;
                for (std::size_t j = i + 1; j < n; ++j) {
                    sum += a[j - i] * x[j];
                    z[j] += a[j - i] * xi;
                }
                z[i] += sum;
            }
        }
    });
    for (std::size_t i = 0; i < n; ++i) {
        double sum = 0.0;
        for (std::size_t c = 0; c < kChunks; ++c) sum += partial[c * n + i];
        y[i] = sum;
    }
}

double inner(const PackedSymmetric& A, const PackedSymmetric& B)
{
    require(A.n == B.n, FACTO_ERROR_INTERNAL, "inner: sizes differ");
    double sum = 0.0;
    for (std::size_t i = 0; i < A.n; ++i) {
        const std::size_t s = A.start(i), length = A.n - i;
        double off = 0.0;
        for (std::size_t k = 1; k < length; ++k) off += A.values[s + k] * B.values[s + k];
        sum += A.values[s] * B.values[s] + 2.0 * off;
    }
    return sum;
}

double total(const PackedSymmetric& A)
{
    double sum = 0.0;
    for (std::size_t i = 0; i < A.n; ++i) {
        const std::size_t s = A.start(i), length = A.n - i;
        double off = 0.0;
        for (std::size_t k = 1; k < length; ++k) off += A.values[s + k];
        sum += A.values[s] + 2.0 * off;
    }
    return sum;
}

}  // namespace facto
