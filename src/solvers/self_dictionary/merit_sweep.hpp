// MERIT's fused gradient-and-LMO pass over the self-dictionary problem ([NFW] Alg. 1
// lines 9-17): the column simplices' LMO at the gradient X^T (X C - X) + lambda Y, which is N x N and
// is never formed, not even in blocks. A GEMM-like kernel keeps, per column, only its running minimum
// (the Frank-Wolfe vertex, eq. 21), and the column's share of the duality gap comes from its O(K)
// support entries, so extra memory is O(M x block) plus two packed panels of 128 KiB per thread.
#pragma once

#include <cstdint>
#include <vector>

#include "problems/self_dictionary.hpp"

namespace facto {

// Buffers of merit_sweep(), kept by the caller so that an iteration allocates nothing.
struct SweepWork {
    Matrix Rb;  // a block's residual rows when R is not kept
    std::vector<double> gap, shift, residual2;
    // per column: the first row of smallest g_l outside the softmax's near entries, and that value
    std::vector<std::size_t> argmin;
    std::vector<double> minimum;
    // shift + X^T R at the softmax's near entries, which the search leaves out
    std::vector<double> near_values;
    // Set by the caller for the away-step and pairwise variants (it costs O(M nnz(C)) more): per
    // column (g_l up to the constant lambda / N, the same in every row), the away vertex (the
    // support's row of largest g_l; -1 for an empty column) with its g_l, g_l at the vertex
    // chosen, and <g_l, c_l>.
    bool find_away = false;
    RowSoftmax softmax;  // the row softmax at the C of the last sweep
    std::vector<int64_t> away;
    std::vector<double> away_value, vertex_value, inner;
};
// One pass of Alg. 1 lines 9-17 at C, given R = residual(C), or R = nullptr to form each block's
// residual rows on the way: vertex[l] = argmin_n G(n, l) for every column (first on ties; a row of
// c_l's support when it ties up to rounding), with f(C) and the Frank-Wolfe gap
// sum_l <g_l, c_l - e_vertex[l]> (per column in work.gap), and when work.find_away the away
// vertices (work.away) with their gap sum_l <g_l, e_away[l] - c_l> in Sweep::away_gap (NaN otherwise).
// G = X^T (X C - X) + lambda Y is never written: blocks of `block` columns go through product_column_argmin (linalg/product_argmin.hpp),
// which keeps only each column's minimum; the few support entries whose lambda (Y - Y_zero) is
// not 0 in double are left out of it and handed back, and finish_column adds that term.
struct Sweep {
    double objective, gap, away_gap;
};
Sweep merit_sweep(const SelfDictionary& problem, const SimplexColumns& C, const Matrix* R, std::vector<int64_t>& vertex,
                  int64_t block, std::size_t threads, SweepWork& work);

}  // namespace facto
