// The feasible set of Gillis & Luce's FGNSR (FastGradient, paper 002's convex baseline):
//     {X in R^{N x N} : X >= 0, X_ii <= 1, w_i X_ij <= w_j X_ii},
// each row dominated by its diagonal entry, scaled by the weights w (the data's column 1-norms). It is a
// product of one polyhedron per row, so the Euclidean projection goes row by row.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace facto {

class DominantDiagonal {
public:
    // Row i of X (N = w.size() values, in place) projected onto its polyhedron {x >= 0, x_i = d in [0, 1],
    // x_l <= c_l d}, c_l = w_l / w_i (no cap where w_i = 0, x_l = 0 where w_l = 0). For a fixed d each
    // x_l is z_l clipped to [0, c_l d]; half the derivative in d, g(d) = (1 + sum_A c_l^2) d - z_i -
    // sum_A c_l z_l over the entries still capped (A = {l : t_l = z_l / c_l > d}), increases with d, so
    // the minimizer is its root clipped to [0, 1]. The root is found by halving the breakpoints in
    // (0, 1) around their median: O(N) expected, where sorting them would cost O(N log N) per row.
    // `breaks` is scratch space.
    static void project_row(double* z, std::size_t i, const std::vector<double>& w,
                            std::vector<std::pair<double, double>>& breaks);
};

}  // namespace facto
