// The feasible set of Gillis & Luce's FGNSR (FastGradient, [NFW]'s convex baseline):
//     {X in R^{N x N} : X >= 0, X_ii <= 1, w_i X_ij <= w_j X_ii},
// each row dominated by its diagonal entry, scaled by the weights w (the data's column 1-norms). It is a
// product of one polyhedron per row, so the Euclidean projection goes row by row.
#pragma once

#include <cstddef>
#include <vector>

namespace facto {

class DominantDiagonal {
public:
    // A breakpoint of row i's projection: t_l = z_l / c_l with c_l = w_l / w_i, and c_l^2, c_l z_l.
    struct Break {
        double t, c2, cz;
    };

    // w: the weights (>= 0); their inverses are kept so that a row costs no division per entry.
    explicit DominantDiagonal(std::vector<double> w);

    // Row i of X (N = w.size() values, in place) projected onto its polyhedron {x >= 0, x_i = d in [0, 1],
    // x_l <= c_l d}, c_l = w_l / w_i (no cap where w_i = 0, x_l = 0 where w_l = 0). For a fixed d each
    // x_l is z_l clipped to [0, c_l d]; half the derivative in d, g(d) = (1 + sum_A c_l^2) d - z_i -
    // sum_A c_l z_l over the entries still capped (A = {l : t_l > d}), increases with d, so the
    // minimizer is its root clipped to [0, 1]. g is also concave, so Newton's method from d = 0 reaches
    // the root from the left in a few passes over the breakpoints in (0, 1), each pass dropping those it
    // has passed (measured faster than a median search over them, which partitions with unpredictable
    // branches). `breaks` is scratch space, one per thread.
    void project_row(double* z, std::size_t i, std::vector<Break>& breaks) const;

private:
    std::vector<double> w_, inverse_;  // inverse_ is 0 where w is 0
};

}  // namespace facto
