// Largest-magnitude eigenvalue of a symmetric matrix by power iteration.
#pragma once

#include "linalg/matrix.hpp"

namespace facto {

// |lambda_max(A)| = ||A||_2 for symmetric A, from the all-ones start vector (the Perron vector's
// direction for nonnegative A), until the Rayleigh quotient changes by less than `relative_tolerance`
// or `max_iterations` products. A lower estimate of ||A||_2.
double spectral_norm_symmetric(const Matrix& A, double relative_tolerance = 1e-10, int max_iterations = 1000);

}  // namespace facto
