// Symmetric NMF ([DAB] Sec. 4.1):
//     min_X f(X) = 1/2 ||M - X X^T||_F^2   s.t.  X >= 0,   X n x r,  M symmetric n x n.
// Objective by App. D.1 eq. (37): ||M||^2 - 2 <M X, X> + ||X^T X||^2; gradient 2 (X (X^T X) - M X).
// M is dense or sparse (CSR); nothing n x n is formed besides a dense M, and with a sparse M the
// objective and gradient cost O(nnz r + n r^2).
#pragma once

#include <cstdint>

#include "linalg/symmetric_operator.hpp"
#include "problems/low_rank_problem.hpp"
#include "sets/orthant.hpp"

namespace facto {

class SymNMF final : public LowRankProblem {
public:
    // Validates M (square, finite, symmetric to 1e-10 relative; symmetrized exactly) and 1 <= r <= n.
    SymNMF(Matrix M, int64_t r);
    // Sparse M: square, every stored entry mirrored to 1e-10 relative (entries are used as given).
    SymNMF(CsrMatrix M, int64_t r);
    // 1 <= r <= n (else Error DIMENSION), and memory for a solver's n x r arrays (else OUT_OF_MEMORY):
    // checked by the constructors, and by callers before they build a large M.
    static void require_rank_and_memory(int64_t n, int64_t r);

    const char* kind() const override { return "symnmf"; }
    std::array<int64_t, 2> iterate_shape() const override { return {n(), r_}; }
    double objective(const Matrix& X) const override;
    // Kuang et al.'s start: entries uniform on [0, 2 sqrt(mean|M| / r)], reproducible from seed.
    Matrix random_point(uint64_t seed) const override;
    // The feasible set: X >= 0.
    static NonnegativeOrthant set() { return {}; }
    // Requires X >= 0 and finite (Error INFEASIBLE / NOT_FINITE).
    Matrix feasible_point(const Matrix& X) const override;
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name, const Matrix& X) const override;

    int64_t n() const { return n_; }
    bool sparse() const { return M_.sparse(); }

    // The fitted factor X (n x r) applied to m new points, given their similarities to the n points it
    // was fitted on (M_new, m x n, by the rule that made M): row l is the minimizer of ||m_l - X h|| over
    // h >= 0, solved exactly (block principal pivoting). That is the KKT condition of f in one row of X
    // with the others fixed, so at a stationary X the rows of M give back X's rows. Error(DIMENSION) when
    // M_new has not n columns, NOT_FINITE for a NaN or Inf.
    static Matrix apply(const Matrix& X, const Matrix& M_new);
    // The same for sparse similarities (a kNN graph's rows: knn_cross_similarity), by one sparse product.
    static Matrix apply(const Matrix& X, const CsrMatrix& M_new);
    // M, dense or sparse, with the products the solvers need (M X, a row of M X, M_ii, M's columns).
    const SymmetricOperator& M() const { return M_; }
    int64_t r() const { return r_; }
    // ||M||_F; the paper's universal-kernel constant is sigma = 2 ||M||_F = 2 ||grad F(0)||.
    double M_norm() const { return M_norm_; }

    bool nonnegative() const override { return true; }
    // Fills e.first = M X and e.second = X^T X; f by eq. (37), halved.
    double evaluate(const Matrix& X, Evaluation& e, std::size_t threads) const override;
    // G = 2 (X (X^T X) - M X); returns ||min(X, G)||_F.
    double gradient(const Matrix& X, const Evaluation& e, Matrix& G, std::size_t threads) const override;
    // f(X) = phi(M X, X^T X): M X can be combined from other points' products.
    bool linear_product() const override { return true; }
    // out += scale M D, one row of M per entry of D (M is symmetric).
    void add_linear_product(const std::vector<MatrixEntry>& D, double scale, Matrix& out) const override;
    double evaluate_given_product(const Matrix& X, Evaluation& e, std::size_t threads) const override;
    double default_alpha() const override { return 6.0; }  // 6 L_F with L_F = 1
    double default_sigma() const override { return 2.0 * M_norm_; }
    double data_norm() const override { return M_norm_; }

private:
    // M validated by the public constructors.
    SymNMF(SymmetricOperator M, int64_t r);

    SymmetricOperator M_;
    int64_t n_, r_;
    double M_norm_;
};

// The pieces of SymNMF's mathematics that a row block of it (DistributedSymNMF) shares:
// Kuang et al.'s start for n x r from the mean |M_ij|, reproducible from seed: its rows first ..
// first + rows - 1 (all of them by default), the same values whichever rows are drawn;
Matrix symnmf_random_point(int64_t n, int64_t r, double mean_abs, uint64_t seed, int64_t first = 0, int64_t rows = -1);
// G = 2 (X XtX - MX) for the rows X, MX and the whole X^T X; returns the sum of the stationarity terms
// min(x, g)^2 over these rows.
double symnmf_gradient_terms(const Matrix& X, const Matrix& MX, const Matrix& XtX, Matrix& G, std::size_t threads);

}  // namespace facto
