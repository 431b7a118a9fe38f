// The smallest entry of each column of a product, found without writing the product: for the
// Frank-Wolfe linear step of MERIT, whose gradient X^T R is N x N and is needed only through its
// column minima. A GEMM-like register kernel computes 8 x 6 blocks of the product and compares them
// with the columns' running minima in registers; each block passes through a 48-value buffer on the
// stack (where its accumulators would have spilled anyway), and is read back only when it holds a new
// minimum or a listed row, never written to an N x N array.
#pragma once

#include <cstddef>
#include <cstdint>

namespace facto {

// Rows left out of each column's search, whose values are reported instead: column l lists rows[e]
// for e in [start[l], start[l + 1]), increasing, and g(rows[e], l) is written to values[e].
struct ListedRows {
    const std::size_t* start;
    const int64_t* rows;
    double* values;
};

// For each column l in [0, b): the first row i in [0, n), not listed for l, minimizing
//     g(i, l) = shift[i] + sum_k A[i m + k] B[l m + k]
// (A is n x m and B is b x m, both row-major with leading dimension m), into row[l] and value[l];
// row[l] = n and value[l] = +inf when no such row has a value below +inf. The listed entries' values
// come from the same tiles (evaluated one by one, as dot products with rows of A scattered in memory,
// they cost ~100 cycles each). The rows are split over
// `threads`; every entry is computed the same way on any split and the first minimum is kept, so the
// result does not depend on `threads`.
void product_column_argmin(const double* A, std::size_t n, const double* shift, const double* B, std::size_t b,
                           std::size_t m, ListedRows listed, std::size_t* row, double* value, std::size_t threads);

}  // namespace facto
