// Products of a tall, thin A (n x k, k <= 64: the iterates of the low-rank problems) for which
// OpenBLAS's tall-skinny paths are slow here: A^T A and A S with S k x k. Register tiles of 4 x 8
// (eight AVX2 registers), A's rows streamed through L1.
#include <algorithm>
#include <cstring>
#include <vector>

#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "linalg/target_clones.hpp"

namespace facto::blas {

namespace {

constexpr std::size_t kMaxColumns = 64;  // above this, OpenBLAS
constexpr std::size_t kChunkRows = 64;   // rows copied (padded) to a buffer that stays in L1
constexpr std::size_t kGroupRows = 1024;  // rows per partial sum: the split over threads

using Quad = double __attribute__((vector_size(32)));  // four doubles

// S[0, kp)^2 (upper blocks of 4 x 8) += B^T B for B rows x kp (kp a multiple of 4, zero padded).
FACTO_TARGET_CLONES
void add_chunk_gram(const double* B, std::size_t rows, std::size_t kp, double* S)
{
    for (std::size_t a = 0; a < kp; a += 4)
        for (std::size_t c = a; c < kp; c += 8) {
            const bool wide = c + 4 < kp;
            Quad acc[4][2] = {};
            for (std::size_t i = 0; i < rows; ++i) {
                const double* b = B + i * kp;
                Quad low, high = {};
                std::memcpy(&low, b + c, sizeof low);
                if (wide) std::memcpy(&high, b + c + 4, sizeof high);
                for (std::size_t q = 0; q < 4; ++q) {
                    acc[q][0] += b[a + q] * low;
                    acc[q][1] += b[a + q] * high;
                }
            }
            for (std::size_t q = 0; q < 4; ++q)
                for (std::size_t h = 0; h < (wide ? 2u : 1u); ++h)
                    for (std::size_t j = 0; j < 4; ++j) S[(a + q) * kp + c + 4 * h + j] += acc[q][h][j];
        }
}

// C[begin, end) = A[begin, end) S for S padded to kp columns (k x kp), by quads of rows.
FACTO_TARGET_CLONES
void multiply_rows(const double* A, std::size_t begin, std::size_t end, std::size_t k, const double* S,
                   std::size_t kp, double* C)
{
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
        const double* a = A + i * k;
        for (std::size_t c = 0; c < kp; c += 8) {
            const bool wide = c + 4 < kp;
            Quad acc[4][2] = {};
            for (std::size_t j = 0; j < k; ++j) {
                Quad low, high = {};
                std::memcpy(&low, S + j * kp + c, sizeof low);
                if (wide) std::memcpy(&high, S + j * kp + c + 4, sizeof high);
                for (std::size_t q = 0; q < 4; ++q) {
                    acc[q][0] += a[q * k + j] * low;
                    acc[q][1] += a[q * k + j] * high;
                }
            }
            for (std::size_t q = 0; q < 4; ++q)
                for (std::size_t h = 0; h < 2 && c + 4 * h < k; ++h)
                    std::memcpy(C + (i + q) * k + c + 4 * h, &acc[q][h],
                                std::min<std::size_t>(4, k - c - 4 * h) * sizeof(double));
        }
    }
    for (; i < end; ++i)
        for (std::size_t c = 0; c < k; ++c) {
            double sum = 0.0;
            for (std::size_t j = 0; j < k; ++j) sum += A[i * k + j] * S[j * kp + c];
            C[i * k + c] = sum;
        }
}

// S (kp x kp, zeroed by the caller) += A[begin, end)^T A[begin, end).
void add_rows_gram(const Matrix& A, std::size_t begin, std::size_t end, std::size_t kp, double* S)
{
    const std::size_t k = A.shape()[1];
    double B[kChunkRows * kMaxColumns] = {};
    for (std::size_t i0 = begin; i0 < end; i0 += kChunkRows) {
        const std::size_t rows = std::min(kChunkRows, end - i0);
        for (std::size_t i = 0; i < rows; ++i) std::memcpy(B + i * kp, &A(i0 + i, 0), k * sizeof(double));
        add_chunk_gram(B, rows, kp, S);
    }
}

}  // namespace

void times_small(const Matrix& A, const Matrix& S, Matrix& C, std::size_t threads)
{
    const std::size_t n = A.shape()[0], k = A.shape()[1];
    require(S.shape()[0] == k && S.shape()[1] == k && C.shape()[0] == n && C.shape()[1] == k, FACTO_ERROR_INTERNAL,
            "times_small: shapes do not fit");
    if (k > kMaxColumns) return gemm(false, false, 1.0, A, S, 0.0, C);
    const std::size_t kp = (k + 3) / 4 * 4;
    double padded[kMaxColumns * kMaxColumns] = {};
    for (std::size_t j = 0; j < k; ++j) std::memcpy(padded + j * kp, &S(j, 0), k * sizeof(double));
    // Split by quads of rows, so that which rows take the kernel's one-row tail does not depend on threads.
    parallel_for((n + 3) / 4, 128, threads, [&](std::size_t begin, std::size_t end) {
        multiply_rows(A.data(), 4 * begin, std::min(n, 4 * end), k, padded, kp, C.data());
    });
}

void gram(const Matrix& A, Matrix& C, std::size_t threads)
{
    const std::size_t n = A.shape()[0], k = A.shape()[1];
    require(C.shape()[0] == k && C.shape()[1] == k, FACTO_ERROR_INTERNAL, "gram: shapes do not fit");
    if (k > kMaxColumns) {
        syrk_upper(A, C);
    } else {
        // One kp x kp partial per group of rows (a few KB each), added in group order.
        const std::size_t kp = (k + 3) / 4 * 4, groups = std::max<std::size_t>(1, (n + kGroupRows - 1) / kGroupRows);
        std::vector<double> partial(groups * kp * kp, 0.0);
        parallel_for(groups, 1, threads, [&](std::size_t first, std::size_t last) {
            for (std::size_t g = first; g < last; ++g)
                add_rows_gram(A, g * kGroupRows, std::min(n, (g + 1) * kGroupRows), kp, &partial[g * kp * kp]);
        });
        for (std::size_t i = 0; i < k; ++i)
            for (std::size_t j = i; j < k; ++j) {
                double sum = 0.0;
                for (std::size_t g = 0; g < groups; ++g) sum += partial[(g * kp + i) * kp + j];
                C(i, j) = sum;
            }
    }
    for (std::size_t i = 0; i < k; ++i)
        for (std::size_t j = 0; j < i; ++j) C(i, j) = C(j, i);
}

}  // namespace facto::blas
