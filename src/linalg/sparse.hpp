// Compressed sparse row matrices: construction from CSR, CSC or COO input (0-based int64 indices,
// duplicates summed, any order), the product with a dense matrix, and validation.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "linalg/matrix.hpp"

namespace facto {

struct CsrMatrix {
    int64_t rows = 0, cols = 0;
    std::vector<int64_t> indptr;   // rows + 1 offsets
    std::vector<int64_t> indices;  // column of each stored value, increasing within a row
    std::vector<double> values;

    int64_t nnz() const { return static_cast<int64_t>(values.size()); }
};

// From triplets (row[k], col[k], value[k]), k < nnz: indices checked against the shape (Error
// INVALID_ARGUMENT naming the entry), values checked finite (NOT_FINITE), duplicates summed, columns
// sorted within each row.
CsrMatrix csr_from_triplets(int64_t rows, int64_t cols, const int64_t* row, const int64_t* col, const double* value,
                            int64_t nnz);

// From CSR (indptr of rows + 1, indices, values) or CSC arrays, with the same checks; indptr must
// start at 0, never decrease and end at nnz.
CsrMatrix csr_from_compressed(int64_t rows, int64_t cols, const int64_t* indptr, const int64_t* indices,
                              const double* values, bool by_columns);

// Y = A X for dense X (A.cols x k) into Y (A.rows x k), rows split over `threads` threads (each row
// summed in stored order: the result does not depend on the thread count).
void spmm(const CsrMatrix& A, const Matrix& X, Matrix& Y, std::size_t threads);

// y = A x (A.cols values in, A.rows out), each row summed in stored order.
void spmv(const CsrMatrix& A, const double* x, double* y);

// The rows' squared norms, each summed over its stored entries in order.
Vector squared_norms(const CsrMatrix& X);
// ||y_i - x_j||^2 and y_i . x_j of row i of Y and row j of X, over their stored columns merged in
// increasing order (the terms that are exactly 0 in the dense sums skipped: the same values bit for bit).
std::pair<double, double> distance_and_dot(const CsrMatrix& Y, std::size_t i, const CsrMatrix& X, std::size_t j);

// A as a dense matrix (unstored entries 0); Error(OUT_OF_MEMORY) when it would not fit.
Matrix dense_from_csr(const CsrMatrix& A);
// The non-zeros of a dense A, row by row.
CsrMatrix csr_from_dense(const DenseRows& A);

// A^T in CSR (its columns sorted within each row).
CsrMatrix transpose(const CsrMatrix& A);

// The rows `rows` of A (0-based, in the order given, repeats allowed; Error(INVALID_ARGUMENT) naming
// an index out of range).
CsrMatrix select_rows(const CsrMatrix& A, const std::vector<int64_t>& rows);

double frobenius_norm_squared(const CsrMatrix& A);
// The sum of |A_ij| over the stored entries.
double sum_abs(const CsrMatrix& A);

// Requires A square and |A_ij - A_ji| <= 1e-10 max|A| for every stored pair (a missing mirror counts
// as 0); Error(DIMENSION / NOT_SYMMETRIC) naming `what` and the entry.
void require_symmetric(const CsrMatrix& A, const char* what);

}  // namespace facto
