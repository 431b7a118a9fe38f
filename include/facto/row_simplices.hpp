// The feasible set  {W in R^{n x k} : W >= 0, W 1 = 1}, the product of n probability simplices
// (one per row). Offers what the solvers need: the linear minimization oracle with its gap (Alg. 2
// of Zhao & Gordon), the Euclidean projection, membership, and random points.
#pragma once

#include <cstdint>
#include <vector>

#include "facto/matrix.hpp"

namespace facto {

// LMO over the product of simplices at gradient G (Alg. 2, lines 1-4 and 8): vertex[i] is the column
// of the smallest entry of row i of G (the LMO's one-hot row), and the returned value is the
// Frank-Wolfe gap  <G, W> - sum_i min_j G_ij >= 0.  O(nk) time.
double row_simplex_lmo(const Matrix& G, const Matrix& W, std::vector<int64_t>& vertex);

// Euclidean projection of every row of X onto the probability simplex, in place (sort-based,
// O(k log k) per row).
void project_rows_onto_simplex(Matrix& X);

// Index of the largest entry of each row (first one on ties).
std::vector<int64_t> row_argmax(const Matrix& X);

// Validates that X is in the product of simplices within `tolerance` on each row sum (entries must
// be >= 0 and finite), then renormalizes the rows exactly. Throws Error(NOT_FINITE / INFEASIBLE).
Matrix row_simplex_feasible(const Matrix& X, double tolerance);

// A point with rows drawn uniformly from the simplex (normalized exponentials), reproducible from seed.
Matrix row_simplex_random(int64_t rows, int64_t cols, uint64_t seed);

}  // namespace facto
