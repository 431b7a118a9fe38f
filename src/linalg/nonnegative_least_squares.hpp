// Nonnegative least squares with many right-hand sides, from the normal equations alone.
#pragma once

#include "linalg/matrix.hpp"

namespace facto {

// min_{H >= 0} 1/2 ||X - W H||_F^2 given G = W^T W (K x K) and B = W^T X (K x N), by exact HALS
// (block coordinate descent on the rows of H, [CP]): row k becomes
// max(0, H(k, :) + (B(k, :) - G(k, :) H) / G(k, k)), or 0 when G(k, k) = 0. Sweeps until the projected
// gradient's Frobenius norm is at most `tolerance` times that of the start, or `max_sweeps` (tolerance
// 0: exactly max_sweeps, without computing the norms). H (K x N, nonnegative) is the start on entry and
// the result on exit; returns the sweeps made.
int nonnegative_least_squares(const Matrix& G, const Matrix& B, Matrix& H, double tolerance, int max_sweeps);

// The same problem solved exactly by block principal pivoting (Kim & Park 2011, Alg. 2): each column's
// passive set F gives x_F = G_FF^{-1} B_F and y = G x - B; the indices where x_F < 0 or y < 0 swap sets,
// all of them while their count falls and for three rounds after, then only the largest (the backup rule
// that makes the method finite). Columns with the same passive set share one Cholesky factorization.
// Rows with G(k, k) = 0 are fixed at 0. H's positive entries on entry seed the passive sets (a warm start
// from the previous iterate); the result is the minimizer, to the rounding of the Cholesky solves. Where
// a passive block is not positive definite to working precision (G singular), the columns are finished
// by the HALS above. Returns the pivoting rounds made.
int nonnegative_least_squares_exact(const Matrix& G, const Matrix& B, Matrix& H);

// The Frobenius norm of the projected gradient of that problem at H: G H - B where H > 0, its negative
// part where H = 0 (0 exactly at a minimizer).
double projected_gradient_norm(const Matrix& G, const Matrix& B, const Matrix& H);

}  // namespace facto
