// Self-dictionary separable NMF, SD-MMV ([NFW] eq. 18):
//     min_C f(C) = 1/2 ||X - X C||_F^2 + lambda Phi_mu(C)   s.t.  C >= 0,  1^T C = 1^T,
//     Phi_mu(C) = sum_n mu log((1/N) sum_j exp(C(n, j) / mu))   (a smooth ||C||_{inf,1}, Lemma 2),
// X is M x N (one data point per column), C is N x N. lambda = 0 is eq. (13), MERIT(0).
//
// C lives in the column simplices (sets/column_simplices.hpp) and is never dense: SimplexColumns
// keeps its O(KN) nonzeros. Distributed over processes, each process holds a block of the
// data points (columns of X) and the same columns of C: the gradient's column l needs every point (the
// LMO's candidates), so X is gathered whole on every process once, while C, the residual and the
// sweep's work are the block's; the sums over columns (f, the gap) and Phi's row statistics (each row's
// largest entry, count and near exponentials, N values each) are reduced over the processes. The gradient is never formed either: MERIT's sweep (solvers/self_dictionary/merit_sweep.hpp)
// fuses it with the LMO. The problem keeps what both need: the residual and Phi's row softmax.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "problems/problem.hpp"
#include "linalg/sparse.hpp"
#include "problems/row_blocks.hpp"
#include "sets/column_simplices.hpp"

namespace facto {

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

class SelfDictionary : public Problem {
public:
    // X is M x N (finite, N >= 2). K is the number of anchors when known (0 = unknown, 1 <= K <= N
    // otherwise). lambda < 0 asks for the paper's heuristic lambda = ||X - X C0||_F / K with C0 the
    // SPA warm start (Sec. V-A; needs K); mu > 0 (the paper uses 1e-5).
    SelfDictionary(Matrix X, int64_t K, double lambda, double mu);
    // The same problem of sparse X (M x N, CSR: a TF-IDF matrix whose points are documents or terms), its
    // points kept as their non-zeros (X^T, CSR), never made dense: SPA and SNPA run on it in memory linear
    // in nnz(X) + K (M + N), FastAnchor with its M x projection random matrix besides; the solvers that
    // form a dense M x N residual or N x N arrays (merit, fast_gradient) refuse it (UNSUPPORTED).
    SelfDictionary(const CsrMatrix& X, int64_t K, double lambda, double mu);
    // Collective: this process's columns first .. first + X.shape()[1] - 1 of the M x N data X (finite,
    // M rows everywhere), the blocks in rank order covering 0 .. N - 1 (a process may hold none), every
    // process giving the same N, K, lambda and mu. An error on any process is thrown on every process.
    static std::shared_ptr<const SelfDictionary> distributed(const Matrix& X, int64_t N, int64_t first, int64_t K,
                                                             double lambda, double mu,
                                                             std::shared_ptr<const Collectives> collectives);

    const char* kind() const override { return blocks_ ? "distributed_self_dictionary" : "self_dictionary"; }
    // N x the columns held here.
    std::array<int64_t, 2> iterate_shape() const override { return {N(), columns()}; }
    // Collective when distributed: f at the C whose columns the processes give.
    double objective(const Matrix& C) const override;
    // Dense, every column a vertex e_j with j drawn from seed (the solvers start without it).
    // The feasible set: the columns of C on the simplex.
    ColumnSimplices set() const { return ColumnSimplices(N(), static_cast<int64_t>(first_), columns()); }
    // The columns of C (data points) held here, when they are spread over processes.
    const RowBlocks* row_blocks() const override { return blocks_ ? &*blocks_ : nullptr; }
    // The columns of C (data points) held here: first() .. first() + columns() - 1 (all N on one process).
    std::size_t first() const { return first_; }
    int64_t columns() const { return static_cast<int64_t>(columns_); }
    Matrix random_point(uint64_t seed) const override;
    // Columns on the simplex within 1e-8, renormalized exactly.
    Matrix feasible_point(const Matrix& C) const override;
    // "selected" (int64, select(C): the K anchors, or every row above 0.5 when K is unknown;
    // increasing), "H" (double, |selected| x N (the columns held here), the simplex-constrained
    // least squares min ||X - X(:, selected) H||), "nnz" (int64, 1 x 1). Collective when distributed.
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name, const Matrix& C) const override;
    // The problems built on this one (topic_model, community_model) add outputs of their own.
    virtual std::vector<OutputSpec> output_specs(const SimplexColumns& C) const;
    virtual Output output(const std::string& name, const SimplexColumns& C) const;

    // The fitted model applied to new data points (the columns of X_new, M x m): their coefficients on
    // the selected anchors W (M x K, the anchor columns of X), each column of H (K x m) on the simplex
    // minimizing ||x - W h||, as the fit's own "H" output is computed; returned as H^T (m x K).
    // Error(DIMENSION) when X_new has not W's M rows, NOT_FINITE for a NaN or Inf.
    static Matrix apply(const Matrix& W, const Matrix& X_new, std::size_t threads = 1);
    int64_t M() const { return sparse_ ? sparse_Xt_.cols : static_cast<int64_t>(Xt_.shape()[1]); }
    int64_t N() const { return sparse_ ? sparse_Xt_.rows : static_cast<int64_t>(Xt_.shape()[0]); }
    int64_t K() const { return K_; }
    double lambda() const { return lambda_; }
    double mu() const { return mu_; }
    // X^T (N x M): row l is the data point x_l; empty when the points are sparse.
    const Matrix& Xt() const { return Xt_; }
    // Whether the points are held sparse (the CSR constructor), and then X^T (N x M, CSR).
    bool sparse() const { return sparse_; }
    const CsrMatrix& sparse_Xt() const { return sparse_Xt_; }
    // Error(UNSUPPORTED) naming `algorithm` when the points are sparse: for the solvers that need them dense.
    void require_dense(const char* algorithm, const char* why) const;
    // ||x_l||^2, summed in the order of x_l's entries (dense: blas::dot).
    double squared_norm(std::size_t l) const;
    // The points `rows`, densely (|rows| x M).
    Matrix points(const std::vector<int64_t>& rows) const;
    // The points first .. first + count - 1 times W (Wt = W^T, k x M): count x k, row l = W^T x_l.
    Matrix products(const Matrix& Wt, std::size_t first, std::size_t count) const;
    // H^T (the columns held here x |anchors|): each point's coefficients on the anchors, the
    // simplex-constrained least squares min ||x_l - X(:, anchors) h|| (simplex_least_squares).
    Matrix coefficients(const std::vector<int64_t>& anchors, std::size_t threads) const;

    // The near entries are found and their exponentials taken on `threads`; the sums are added in
    // one order, so the result does not depend on `threads`. Collective when distributed (C: the
    // columns held here; the row statistics are all of C's, the near entries the block's).
    RowSoftmax row_softmax(const SimplexColumns& C, std::size_t threads = 1) const;
    // R = (X C - X)^T (columns x M; row l is the residual of column l held here), O(M nnz(C)), columns
    // split over `threads`; resized when needed.
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

    // lambda's factor in the gradient at near entry e (index into softmax.near_*), beyond Y_zero:
    // Y(n, l) - Y_zero(n); it is 0 in double at the other nonzeros.
    double softmax_excess(const RowSoftmax& softmax, std::size_t e) const;
    // Rows columns.begin .. columns.end of R = residual(C) into `rows` (contiguous, M values each);
    // columns split over `threads`.
    void residual_rows(const SimplexColumns& C, Range columns, double* rows, std::size_t threads) const;

    // ||x_l|| for every data point, and their largest
    const std::vector<double>& x_norm() const { return x_norm_; }
    double x_norm_max() const { return x_norm_max_; }

    // The anchors, increasing (collective when distributed). K known: the K rows of largest
    // ||C(n, :)||_inf ([NFW] Sec. II), unless more than K rows have a nonzero and weighted_extreme_rows'
    // K fit X better (anchor_fit). The row maxima rank the anchors where the optimum has K rows that
    // carry the data; at a small lambda on data whose hull has more vertices than K, it keeps those
    // vertices near 1 and the largest K can be two by one anchor. K = 0: every row whose
    // ||C(n, :)||_inf is above `threshold`.
    std::vector<int64_t> select(const SimplexColumns& C, double threshold = 0.5) const;
    // The paper's anchors (K known): the K rows of largest ||C(n, :)||_inf, the smaller index on ties
    // (rows without a nonzero last), increasing; `softmax` is row_softmax(C). distinct_points: a row whose
    // point x_n equals a taken row's (to 1e-10 of the larger norm) is passed over while other rows
    // remain, since two equal points are one anchor (structurally equivalent nodes of a graph).
    std::vector<int64_t> largest_row_maxima(const RowSoftmax& softmax, bool distinct_points = false) const;
    // K of the rows with a nonzero: SPA on their points x_n scaled by ||C(n, :)||_inf, the extreme
    // points that carry weight; increasing.
    std::vector<int64_t> weighted_extreme_rows(const RowSoftmax& softmax) const;
    // ||X - X(:, anchors) H||_F^2 with H the simplex-constrained least squares (collective).
    double anchor_fit(const std::vector<int64_t>& anchors) const;
    // The SPA warm start of Sec. V-B: C0(K_spa, :) = H, the simplex-constrained least squares on the
    // K columns SPA picked in the constructor (when K is given; Error INVALID_ARGUMENT otherwise), the
    // columns held here. Built on each call, so the problem does not hold a second O(KN) matrix beside
    // the solver's C.
    SimplexColumns warm_start(std::size_t threads) const;

    // The points FastAnchor searches (Arora et al. 2013), as rows (N x rows): X's columns scaled to unit
    // 1-norm (a zero column stays 0), through a Gaussian random projection to `rows` dimensions drawn
    // from `seed` when M > rows (as they are otherwise). A topic model answers with the columns of its
    // word-word matrix, which its X only summarizes.
    virtual Matrix anchor_search_points(int64_t rows, uint64_t seed) const;

    // r = X c_l - x_l (M values; l indexes the columns held here, x_l is point first() + l); returns ||r||^2.
    // Dense points only (the solvers that call it refuse sparse ones).
    double residual_column(const SimplexColumns& C, std::size_t l, double* r) const;
    // ||X C - X||_F^2, O(M nnz(C)) (collective when distributed: all of C's columns).
    double residual_squared(const SimplexColumns& C) const;

protected:
    // The three outputs' specs when `selected` rows are selected.
    std::vector<OutputSpec> specs(int64_t selected) const;

private:
    // Xt = X^T, all N points, finite (checked); `blocks` the columns held here (none: all N on one
    // process).
    SelfDictionary(Matrix Xt, int64_t K, double lambda, double mu, std::optional<RowBlocks> blocks);

    // The checks, the points' norms and SPA's picks, once the points are stored (both constructors).
    void initialize();

    Matrix Xt_;
    CsrMatrix sparse_Xt_;
    bool sparse_ = false;
    int64_t K_;
    double lambda_, mu_;
    std::optional<RowBlocks> blocks_;
    std::size_t first_ = 0, columns_ = 0;  // blocks_' (all N on one process)
    std::vector<int64_t> spa_picks_;  // SPA's K columns, when K is given
    std::vector<double> x_norm_;  // ||x_l||
    double x_norm_max_ = 0.0;
};

}  // namespace facto
