// Nonnegative least squares with many right-hand sides, from the normal equations alone.
#pragma once

#include "linalg/matrix.hpp"

namespace facto {

// min_{H >= 0} 1/2 ||X - W H||_F^2 given G = W^T W (K x K) and B = W^T X (K x N), by exact HALS
// (block coordinate descent on the rows of H, Cichocki & Phan 2009): row k becomes
// max(0, H(k, :) + (B(k, :) - G(k, :) H) / G(k, k)), or 0 when G(k, k) = 0. Sweeps until the projected
// gradient's Frobenius norm is at most `tolerance` times that of the start, or `max_sweeps`. H (K x N,
// nonnegative) is the start on entry and the result on exit; returns the sweeps made.
int nonnegative_least_squares(const Matrix& G, const Matrix& B, Matrix& H, double tolerance, int max_sweeps);

// The Frobenius norm of the projected gradient of that problem at H: G H - B where H > 0, its negative
// part where H = 0 (0 exactly at a minimizer).
double projected_gradient_norm(const Matrix& G, const Matrix& B, const Matrix& H);

}  // namespace facto
