// Symmetric matrices stored by their upper triangle, for NOMAD ([TSC]), whose iterate, multiplier,
// gradient and data are all n x n and symmetric: the triangle halves both the memory and the bytes
// each matrix-vector product reads.
#pragma once

#include <cstddef>
#include <vector>

#include "linalg/matrix.hpp"

namespace facto {

// The upper triangle row by row: (i, j), j >= i, at start(i) + j - i.
struct PackedSymmetric {
    std::size_t n = 0;
    std::vector<double> values;  // n (n + 1) / 2

    PackedSymmetric() = default;
    explicit PackedSymmetric(std::size_t order, double fill = 0.0) : n(order), values(order * (order + 1) / 2, fill) {}
    std::size_t start(std::size_t i) const { return i * n - i * (i - 1) / 2; }
    double operator()(std::size_t i, std::size_t j) const
    {
        return i <= j ? values[start(i) + j - i] : values[start(j) + i - j];
    }

    // The upper triangle of A (square); the lower one is not read.
    static PackedSymmetric from_upper(const Matrix& A);
    Matrix to_dense() const;
};

// y = A x (n values each). Rows are cut into fixed chunks of about equal work, each chunk's
// contributions summed in its own buffer and the buffers added in chunk order: the result does not
// depend on `threads`.
void multiply(const PackedSymmetric& A, const double* x, double* y, std::size_t threads);

// <A, B> = sum_ij A_ij B_ij over the whole matrices.
double inner(const PackedSymmetric& A, const PackedSymmetric& B);
// 1^T A 1 = sum_ij A_ij.
double total(const PackedSymmetric& A);

}  // namespace facto
