// The feasible set  {W in R^{n x k} : W >= 0, W 1 = 1}, the product of n probability simplices
// (one per row): simplicial SymNMF's set (Zhao & Gordon). Offers what the solvers ask of it: the
// linear minimization oracle with its gaps (Alg. 2), the Euclidean projection, a feasible point from a
// given one, and random points.
#pragma once

#include <cstdint>
#include <vector>

#include "linalg/matrix.hpp"
#include "sets/simplex.hpp"

namespace facto {

// The Frank-Wolfe gap  <G, W> - sum_i min_j G_ij >= 0  and the away gap
// sum_i max_{j: W_ij > kNegligibleWeight} G_ij - <G, W>  (the pairwise gap is their sum).
struct RowSimplexGaps {
    double frank_wolfe, away;
};

class RowSimplices {
public:
    RowSimplices(int64_t rows, int64_t cols) : rows_(rows), cols_(cols) {}

    // The LMO at gradient G: each row's vertex (Alg. 2, lines 1-4 and 8: the column of the smallest
    // entry of row i of G) in vertex[i] and its away vertex (the largest entry where
    // W > kNegligibleWeight; Lacoste-Julien & Jaggi 2015: on a simplex the active set is the support)
    // in away[i], with the gaps at W. O(nk) time.
    static RowSimplexGaps linear_minimizer(const Matrix& G, const Matrix& W, std::vector<int64_t>& vertex,
                                           std::vector<int64_t>& away);
    // Euclidean projection of every row of X onto the probability simplex, in place (sort-based,
    // O(k log k) per row).
    static void project(Matrix& X);
    // X (rows x cols) validated to lie in the set within `tolerance` on each row sum (entries must be
    // >= 0 and finite), then renormalized exactly. Throws Error(NOT_FINITE / INFEASIBLE).
    Matrix feasible_point(const Matrix& X, double tolerance) const;
    // The first row of X off the set: a negative (or NaN) entry, or a sum more than `tolerance` from 1;
    // X's row count when every row is on it.
    static std::size_t first_row_off(const Matrix& X, double tolerance);
    // Rows drawn uniformly from the simplex (normalized exponentials), reproducible from seed.
    Matrix random_point(uint64_t seed) const;

private:
    int64_t rows_, cols_;
};

// Index of the largest entry of each row (first one on ties): each row's nearest vertex.
std::vector<int64_t> row_argmax(const Matrix& X);
// Each row of nonnegative entries with a positive sum divided by it (onto the simplex); returns which
// rows summed to zero (left unchanged).
std::vector<bool> scale_rows_to_one(Matrix& X);

}  // namespace facto
