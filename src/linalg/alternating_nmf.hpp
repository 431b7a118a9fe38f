// Nonnegative matrix factorization of a sparse matrix by alternating HALS sweeps.
#pragma once

#include "linalg/matrix.hpp"
#include "linalg/sparse.hpp"

namespace facto {

// min_{W, H >= 0} 1/2 ||F - W H||_F^2 for F sparse (D x N, Ft = F^T) from the start W (D x K), H (K x N),
// both nonnegative, overwritten with the result. Each step is one HALS sweep ([CP]) over H's rows
// (G = W^T W, B = W^T F), then one over W's columns (G = H H^T, B = H F^T): the objective never rises.
// Stops when a step lowers it by at most `tolerance` times its value before the step, or after
// `max_steps`; a step that would zero a row of H or a column of W (a factor lost) is undone and ends the
// run. O(K nnz(F) + K^2 (D + N)) per step. Returns the steps kept.
int alternating_nmf(const CsrMatrix& F, const CsrMatrix& Ft, Matrix& W, Matrix& H, double tolerance, int max_steps,
                    std::size_t threads);

}  // namespace facto
