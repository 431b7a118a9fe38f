// The rows of a symmetric n x n D (a Gram matrix) that one process holds, behind the operations kernel
// k-means asks of D, so that the same clustering code runs on all of D in one process or on blocks of
// rows over processes (NOMAD's start on points distributed by rows). With collectives, every
// operation is collective and the processes' rows, in rank order, are all of D.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "base/collectives.hpp"
#include "linalg/gram_operator.hpp"
#include "linalg/matrix.hpp"

namespace facto {

struct GramRows {
    std::size_t n = 0, first = 0, rows = 0;  // D's order, and the rows first .. first + rows - 1 held here
    std::vector<double> diagonal;           // D_ii of those rows
    // column[i] = D_{first + i, pick} for the rows held (pick is global)
    std::function<void(std::size_t pick, double* column)> column;
    // C (m x rows, row-major) = those rows' columns of Z^T D, Z (rows x m, row-major) being Z's rows held here
    std::function<void(const double* Z, std::size_t m, double* C)> left_multiply;
    const Collectives* collectives = nullptr;  // none: the rows are all of D
};

// All of D in this process; D must outlive the result.
GramRows all_rows(const GramOperator& D, std::size_t threads);

// D = F F^T with this process's rows of F (first .. first + F.shape()[0] - 1 of the n rows, d columns
// everywhere): a column takes one sum of d values, a product Z^T D one of m d; F and collectives must
// outlive the result.
GramRows factor_rows(const Matrix& F, std::size_t first, std::size_t n, const Collectives* collectives);

}  // namespace facto
