// A symmetric n x n matrix M, dense or sparse (CSR), behind the operations SymNMF's solvers ask of it,
// so that no caller branches on the storage. (NOMAD's matrices are always packed upper triangles,
// linalg/symmetric.hpp: no caller branches between them and another storage.)
#pragma once

#include <cstdint>
#include <variant>

#include "linalg/matrix.hpp"
#include "linalg/sparse.hpp"

namespace facto {

class SymmetricOperator {
public:
    // M as given: the caller has validated it (square, finite, symmetric).
    explicit SymmetricOperator(Matrix dense) : storage_(std::move(dense)) {}
    explicit SymmetricOperator(CsrMatrix sparse) : storage_(std::move(sparse)) {}

    int64_t n() const;
    bool sparse() const { return std::holds_alternative<CsrMatrix>(storage_); }
    // ||M||_F^2 and sum_ij |M_ij|.
    double frobenius_norm_squared() const;
    double sum_abs() const;
    // Y = M X (n x r): one GEMM (OpenBLAS threads), or one SpMM on `threads` threads.
    void multiply(const Matrix& X, Matrix& Y, std::size_t threads) const;
    // out[0..r) = row i of M X.
    void multiply_row(int64_t i, const Matrix& X, double* out) const;
    // M_ii.
    double diagonal(int64_t i) const;
    // Column k of `out` (n x r, row-major data) += v M(:, j), read as row j of M (M is symmetric).
    void add_column(std::size_t j, double v, std::size_t k, double* out, std::size_t r) const;

private:
    std::variant<Matrix, CsrMatrix> storage_;
};

}  // namespace facto
