// Simplex-constrained least squares: the coefficients of data points on chosen anchors.
#pragma once

#include <cstdint>
#include <vector>

#include "linalg/matrix.hpp"
#include "linalg/sparse.hpp"

namespace facto {

// Columns of H on the simplex minimizing ||X - W H||_F (W = X(:, selected)), each exactly (to
// rounding) by a primal active-set method on its K x K quadratic program, columns split over
// `threads`. When W^T W is singular to working precision (more picks than features, a column picked
// twice) a ridge of relative size 1e-13 or more makes the minimizer unique. Xt is X^T (N x M);
// returns H^T (N x |selected|), or its rows first .. first + count - 1 (the columns of H of those points).
Matrix simplex_least_squares(const Matrix& Xt, const std::vector<int64_t>& selected, std::size_t threads = 1,
                             std::size_t first = 0, std::size_t count = static_cast<std::size_t>(-1));

// The same problem for any W, given Q = W^T W (k x k) and B (n x k, row l = W^T x_l): returns H^T
// (n x k), row l the simplex-constrained minimizer of ||x_l - W h||.
Matrix simplex_least_squares_gram(const Matrix& Q, const Matrix& B, std::size_t threads = 1);

// The points Y (m x d, one per row) on the columns of W (d x k): row l of the result (m x k) is the h on
// the simplex minimizing ||y_l - W h||. Error(DIMENSION) when Y's rows are not of W's d, NOT_FINITE for
// a NaN or Inf (naming `what`, the caller's name for Y).
Matrix simplex_coefficients(const Matrix& W, const Matrix& Y, const char* what, std::size_t threads = 1);
// The same of sparse points Y (m x d, CSR, a point a row): W^T y_l from their stored entries.
Matrix simplex_coefficients(const Matrix& W, const CsrMatrix& Y, const char* what, std::size_t threads = 1);

}  // namespace facto
