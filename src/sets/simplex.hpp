// One probability simplex {w in R^k : w >= 0, 1^T w = 1}, the block of which the row and column
// simplices (sets/row_simplices.hpp, sets/column_simplices.hpp) are products: its LMO and away vertex,
// and the directions and step bounds of the Frank-Wolfe variants on it.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

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

// Frank-Wolfe variants on a product of simplices: the classic step toward the LMO vertex only, the
// away-step variant (toward, or away from the worst support vertex, whichever gap is larger) and the
// pairwise variant (mass moves from the away vertex to the LMO vertex).
enum class FrankWolfeVariant { vanilla, away, pairwise };
// The variants by the names of the solvers' "variant" parameter, for Params::bind.
std::vector<std::pair<std::string_view, FrankWolfeVariant>> frank_wolfe_variant_names();

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

}  // namespace facto
