// Self-dictionary separable NMF, SD-MMV (Nguyen, Fu & Wu, eq. 18):
//     min_C f(C) = 1/2 ||X - X C||_F^2 + lambda Phi_mu(C)   s.t.  C >= 0,  1^T C = 1^T,
//     Phi_mu(C) = sum_n mu log((1/N) sum_j exp(C(n, j) / mu))   (a smooth ||C||_{inf,1}, Lemma 2),
// X is M x N (one data point per column), C is N x N. lambda = 0 is eq. (13), MERIT(0).
//
// C is never dense: SimplexColumns keeps the nonzeros of each column, O(nnz(C)) = O(KN) memory. The
// gradient X^T (X C - X) + lambda Y is N x N and is never formed either, not even in blocks: sweep()
// runs a GEMM-like kernel over it that keeps, per column, only its running minimum (the Frank-Wolfe
// vertex, eq. 21), and takes the column's share of the duality gap from its O(K) support entries, so
// extra memory is O(M x block) plus two packed panels of 128 KiB per thread.
#pragma once

#include <cstdint>
#include <vector>

#include "facto/problem.hpp"
#include "facto/row_simplices.hpp"

namespace facto {

// An N x N matrix whose columns lie on the probability simplex, stored by columns (nonzeros only,
// rows increasing within a column: sweep() passes them to the product's scan as they are).
struct SimplexColumns {
    struct Entry {
        int64_t row;
        double value;
    };
    std::vector<std::vector<Entry>> columns;

    int64_t nnz() const;
    // C(row, l), 0 where it is not stored. O(log nnz(c_l)).
    double value(std::size_t l, int64_t row) const;
    // Column l := (1 - alpha) column l + alpha e_row (eq. 21; alpha = 1 replaces the column); a new
    // row goes to its place in the column.
    void frank_wolfe_update(std::size_t l, int64_t row, double alpha);
    // Column l moved by `step` along an away or pairwise direction (row_simplices.hpp): pairwise adds
    // step at row s (its place kept) and takes it from row a; away scales the column by 1 + step and
    // takes step from row a. Row a leaves the column when `dropped` (the whole weight moved) or when
    // rounding leaves it at 0; neither step adds a row that the LMO vertex s did not.
    void away_or_pairwise_update(std::size_t l, const BlockDirection& direction, double step, bool dropped);
    static SimplexColumns from_dense(const Matrix& C);
    // C(selected, :) = H, C zero elsewhere, from Ht = H^T (N x |selected|).
    static SimplexColumns from_selected(const std::vector<int64_t>& selected, const Matrix& Ht);
    Matrix to_dense() const;
};

// Per row n of C: its largest entry and the softmax normalizer of C(n, :) / mu, shifted by that
// maximum so that nothing overflows for mu = 1e-5 (Alg. 1 lines 9-12). Rows without a nonzero have
// Y(n, :) = 1/N exactly and are not listed. The nonzeros within 746 mu of their row's maximum are
// the only ones whose term exp((C(n, j) - max_n) / mu) is not 0 in double, and the only ones where
// Y differs from Y_zero; they are kept by columns ("near" entries, about one per row at mu = 1e-5).
struct RowSoftmax {
    std::vector<int64_t> rows;  // rows of C with a nonzero, increasing
    std::vector<double> max;    // max_j C(n, j) for those rows (0 elsewhere)
    std::vector<double> sum;    // sum_j exp((C(n, j) - max_n) / mu), >= 1 (N elsewhere)
    std::vector<double> zero;   // Y(n, j) where C(n, j) = 0: exp(-max_n / mu) / sum_n (1/N elsewhere)
    double phi = 0.0;           // Phi_mu(C)
    // near entries of column l: near_rows[e] (increasing) and exp((C - max) / mu) in near_exp[e], for
    // e in [near_start[l], near_start[l + 1])
    std::vector<std::size_t> near_start;
    std::vector<int64_t> near_rows;
    std::vector<double> near_exp;
};

class SelfDictionary final : public Problem {
public:
    // X is M x N (finite, N >= 2). K is the number of anchors when known (0 = unknown, 1 <= K <= N
    // otherwise). lambda < 0 asks for the paper's heuristic lambda = ||X - X C0||_F / K with C0 the
    // SPA warm start (Sec. V-A; needs K); mu > 0 (the paper uses 1e-5).
    SelfDictionary(Matrix X, int64_t K, double lambda, double mu);

    const char* kind() const override { return "self_dictionary"; }
    std::array<int64_t, 2> iterate_shape() const override { return {N(), N()}; }
    double objective(const Matrix& C) const override;
    // Dense N x N, every column a vertex e_j with j drawn from seed (the solvers start without it).
    Matrix random_point(uint64_t seed) const override;
    // Columns on the simplex within 1e-8, renormalized exactly.
    Matrix feasible_point(const Matrix& C) const override;
    // "selected" (int64, the K rows of largest ||C(n, :)||_inf, or every row above 0.5 when K is
    // unknown; increasing), "H" (double, |selected| x N, the simplex-constrained least squares
    // min ||X - X(:, selected) H||), "nnz" (int64, 1 x 1).
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name, const Matrix& C) const override;
    std::vector<OutputSpec> output_specs(const SimplexColumns& C) const;
    Output output(const std::string& name, const SimplexColumns& C) const;

    int64_t M() const { return static_cast<int64_t>(Xt_.shape()[1]); }
    int64_t N() const { return static_cast<int64_t>(Xt_.shape()[0]); }
    int64_t K() const { return K_; }
    double lambda() const { return lambda_; }
    double mu() const { return mu_; }
    // X^T (N x M): row l is the data point x_l.
    const Matrix& Xt() const { return Xt_; }

    // The near entries are found and their exponentials taken on `threads`; the sums are added in
    // one order, so the result does not depend on `threads`.
    RowSoftmax row_softmax(const SimplexColumns& C, std::size_t threads = 1) const;
    // R = (X C - X)^T (N x M; row l is the residual of column l), O(M nnz(C)), columns split over
    // `threads`; resized when needed.
    void residual(const SimplexColumns& C, Matrix& R, std::size_t threads) const;
    struct Range {
        std::size_t begin, end;
    };

    // Y(n, l) once C(n, l) changes from `before` to `after` with the rest of row n as in `softmax`
    // (the row softmax of C): the weight that Phi's derivative gives that entry. O(1).
    double softmax_weight(const RowSoftmax& softmax, std::size_t n, double before, double after) const;

    // shift[n] = lambda (Y_zero(n) - 1/N): the gradient's part that is the same in every column
    // (Y_zero(n) = Y(n, l) where C(n, l) = 0).
    void row_shift(const RowSoftmax& softmax, std::vector<double>& shift) const;

    // Buffers of sweep(), kept by the caller so that an iteration allocates nothing.
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
    // vertices (work.away) with their gap sum_l <g_l, e_away[l] - c_l> in Sweep::away_gap (NaN otherwise). G = X^T (X C - X) + lambda Y is never
    // written: blocks of `block` columns go through product_column_argmin (linalg/product_argmin.hpp),
    // which keeps only each column's minimum; the few support entries whose lambda (Y - Y_zero) is
    // not 0 in double are left out of it and handed back, and finish_column adds that term.
    struct Sweep {
        double objective, gap, away_gap;
    };
    Sweep sweep(const SimplexColumns& C, const Matrix* R, std::vector<int64_t>& vertex, int64_t block,
                std::size_t threads, SweepWork& work) const;

    // The K rows of largest ||C(n, :)||_inf (or all above `threshold` when K = 0), increasing.
    std::vector<int64_t> select(const SimplexColumns& C, double threshold = 0.5) const;
    // The SPA warm start of Sec. V-B: C0(K_spa, :) = H, the simplex-constrained least squares on the
    // K columns SPA picked in the constructor (when K is given; Error INVALID_ARGUMENT otherwise). Built
    // on each call, so the problem does not hold a second O(KN) matrix beside the solver's C.
    SimplexColumns warm_start(std::size_t threads) const;

    // r = X c_l - x_l (M values); returns ||r||^2.
    double residual_column(const SimplexColumns& C, std::size_t l, double* r) const;
    // ||X C - X||_F^2, O(M nnz(C)).
    double residual_squared(const SimplexColumns& C) const;

private:
    // lambda's factor in the gradient at near entry e (index into softmax.near_*), beyond Y_zero:
    // Y(n, l) - Y_zero(n); it is 0 in double at the other nonzeros.
    double softmax_excess(const RowSoftmax& softmax, std::size_t e) const;
    // sweep()'s end for column l (r = its residual row): g_l on the support, the vertex, the gap and
    // ||r||^2 (a sum here: OpenBLAS's ddot over all of R woke its threads, which then spun beside
    // facto's for ~0.1 s).
    void finish_column(const SimplexColumns& C, const RowSoftmax& softmax, const double* r, std::size_t l,
                       std::vector<int64_t>& vertex, SweepWork& work) const;
    // The three outputs' specs when `selected` rows are selected.
    std::vector<OutputSpec> specs(int64_t selected) const;
    // Rows columns.begin .. columns.end of R = residual(C) into `rows` (contiguous, M values each);
    // columns split over `threads`.
    void residual_rows(const SimplexColumns& C, Range columns, double* rows, std::size_t threads) const;

    Matrix Xt_;
    int64_t K_;
    double lambda_, mu_;
    std::vector<int64_t> spa_picks_;  // SPA's K columns, when K is given
    std::vector<double> x_norm_;  // ||x_l||
    double x_norm_max_ = 0.0;
};

// Columns of H on the simplex minimizing ||X - W H||_F (W = X(:, selected)), each exactly (to
// rounding) by a primal active-set method on its K x K quadratic program, columns split over
// `threads`. When W^T W is singular to working precision (more picks than features, a column picked
// twice) a ridge of relative size 1e-13 or more makes the minimizer unique. Xt is X^T (N x M);
// returns H^T (N x |selected|).
Matrix simplex_least_squares(const Matrix& Xt, const std::vector<int64_t>& selected, std::size_t threads = 1);

// Successive projection (Gillis & Vavasis): K columns of X picked greedily, each the column of largest
// residual norm after projecting out the previous picks (first on ties). Xt is X^T.
class SuccessiveProjection {
public:
    explicit SuccessiveProjection(const Matrix& Xt);
    // Picks the next column and projects it out; returns its index.
    int64_t next();
    const std::vector<int64_t>& selected() const { return selected_; }
    // 1/2 ||residual||_F^2 after the picks so far.
    double residual() const;

private:
    Matrix R_;  // residual, N x M (rows are the columns of X)
    std::vector<double> norm2_;
    std::vector<bool> picked_;
    std::vector<int64_t> selected_;
};

}  // namespace facto
