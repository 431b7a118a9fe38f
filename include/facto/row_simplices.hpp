// The feasible set  {W in R^{n x k} : W >= 0, W 1 = 1}, the product of n probability simplices
// (one per row). Offers what the solvers need: the linear minimization oracle with its gap (Alg. 2
// of Zhao & Gordon), the Euclidean projection, membership, and random points.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "facto/matrix.hpp"

namespace facto {

// Weights at most this count as zero in a block's support (the away vertex): a block sums to 1, and an
// entry below the rounding unit of that sum is no vertex a step could take mass from (projected
// gradient leaves entries of 1e-300, which made away gaps of 5e3 beside a Frank-Wolfe gap of 4e-3).
constexpr double kNegligibleWeight = 2.220446049250313e-16;  // DBL_EPSILON

// One simplex block's vertices at gradient g and weights w (k entries each): s the first smallest
// entry of g (the LMO vertex, Alg. 2 line 8), a the largest entry of g where w > kNegligibleWeight (the
// away vertex; s when no entry is above it), and <g, w>.
struct SimplexVertices {
    std::size_t s, a;
    double g_w;
};
SimplexVertices simplex_vertices(const double* g, const double* w, std::size_t k);

// The Frank-Wolfe gap  <G, W> - sum_i min_j G_ij >= 0  and the away gap
// sum_i max_{j: W_ij > kNegligibleWeight} G_ij - <G, W>  (the pairwise gap is their sum) over the product of
// simplices, with each row's LMO vertex (Alg. 2, lines 1-4 and 8: the column of the smallest entry of
// row i of G) in vertex[i] and its away vertex (the largest entry where W > kNegligibleWeight; Lacoste-Julien & Jaggi
// 2015: on a simplex the active set is the support) in away[i]. O(nk) time.
struct RowSimplexGaps {
    double frank_wolfe, away;
};
RowSimplexGaps row_simplex_lmo(const Matrix& G, const Matrix& W, std::vector<int64_t>& vertex,
                               std::vector<int64_t>& away);

// Frank-Wolfe variants on a product of simplices: the classic step toward the LMO vertex only, the
// away-step variant (toward, or away from the worst support vertex, whichever gap is larger) and the
// pairwise variant (mass moves from the away vertex to the LMO vertex).
enum class FrankWolfeVariant { vanilla, away, pairwise };
// "vanilla", "away" or "pairwise" (the parameter's choices; anything else throws INVALID_ARGUMENT).
FrankWolfeVariant frank_wolfe_variant(const std::string& name);

// One block's (one simplex's) direction d, in terms of its LMO vertex s and away vertex a:
//   toward    d = e_s - w,  steps up to 1
//   away      d = w - e_a,  steps up to w_a / (1 - w_a)
//   pairwise  d = e_s - e_a, steps up to w_a
// slope = <g, d> < 0 (the block's share of the chosen gap, negated); none when the block's gap is 0.
struct BlockDirection {
    enum Kind { none, toward, away, pairwise } kind = none;
    int64_t s = 0, a = 0;
    double slope = 0.0, max_step = 0.0;
};
// The direction the variant takes for a block with gradient entries g_s = min g, g_a = max of g over
// the support, g_w = <g, w>, and weight w_a on the away vertex.
BlockDirection block_direction(FrankWolfeVariant variant, int64_t s, int64_t a, double g_s, double g_a, double g_w,
                               double w_a);

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
