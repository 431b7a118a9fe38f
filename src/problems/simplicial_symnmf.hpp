// Simplicial symmetric NMF ([ZG] eq. 1):
//     min_W f(W) = 1/4 ||P - W W^T||_F^2   s.t.  W >= 0,  W 1_k = 1_n,
// P symmetric n x n. Nothing n x n is ever formed besides P itself: the gradient (eq. 7) is
// W (W^T W) - P W and the objective comes from the trace identity
//     4 f(W) = ||P||^2 - 2 <P W, W> + ||W^T W||^2,
// so both cost one product with P (which solvers may update instead of recomputing).
#pragma once

#include <cstdint>
#include <vector>

#include "problems/problem.hpp"
#include "sets/row_simplices.hpp"

namespace facto {

// f(W + gamma D) = f0 + c1 gamma + c2 gamma^2 + c3 gamma^3 + c4 gamma^4.
struct Quartic {
    double c0, c1, c2, c3, c4;
    double operator()(double gamma) const { return c0 + gamma * (c1 + gamma * (c2 + gamma * (c3 + gamma * c4))); }
};

class SimplicialSymNMF final : public Problem {
public:
    // Validates P (square, finite, symmetric to 1e-10 relative) and 1 <= k <= n; symmetrizes exactly.
    SimplicialSymNMF(Matrix P, int64_t k);

    const char* kind() const override { return "simplicial_symnmf"; }
    std::array<int64_t, 2> iterate_shape() const override { return {n(), k_}; }
    double objective(const Matrix& W) const override;
    // The feasible set: W in the product of n simplices of dimension k.
    RowSimplices set() const { return {n(), k_}; }
    Matrix random_point(uint64_t seed) const override;
    Matrix feasible_point(const Matrix& W) const override;
    std::vector<OutputSpec> output_specs() const override;
    Output output(const std::string& name, const Matrix& W) const override;

    int64_t n() const { return static_cast<int64_t>(P_.shape()[0]); }
    int64_t k() const { return k_; }
    const Matrix& P() const { return P_; }

    // The fitted factor W (n x k) applied to m new points, given their affinities to the n points it was
    // fitted on (P_new, m x n, by the rule that made P): row l is the minimizer of ||p_l - W w|| over the
    // simplex. That is the KKT condition of f in one row of W with the others fixed (grad f's row i is
    // W^T (W w_i) - W^T p_i, as the least squares'), so at a stationary W the rows of P give back W's
    // rows (to the solve's tolerance, exactly where W^T W is nonsingular). Error(DIMENSION) when P_new
    // has not n columns, NOT_FINITE for a NaN or Inf.
    static Matrix apply(const Matrix& W, const Matrix& P_new, std::size_t threads = 1);
    double P_norm_squared() const { return P_norm_squared_; }

    // ||P||_2 by power iteration (an estimate from below, accurate to ~1e-8 relative).
    double spectral_norm() const;
    // Thm. 3 upper bound on the curvature constant: 2n (3n + ||P||_2).
    double curvature_bound() const;

    // PW = P W (one GEMM).
    void multiply(const Matrix& W, Matrix& PW) const;
    // PD = P D for a D with few nonzeros per row (the one-hot LMO vertex, or a pairwise direction):
    // weighted sums of rows of P (P symmetric), one pass over P, on up to `threads` threads. `work` is
    // a k x n buffer.
    void multiply_sparse(const Matrix& D, Matrix& PD, Matrix& work, std::size_t threads = 1) const;
    // PDt(j, :) += sum_{i < count} D(i, j) P(first + i, :): rows first .. first + count - 1 of P
    // weighted by the first `count` rows of D (k columns), zero weights skipped. Threads split the
    // columns of PDt, so every entry is summed in the same order whatever `threads` is.
    void add_rows(std::size_t first, std::size_t count, const Matrix& D, Matrix& PDt, std::size_t threads) const;
    // Objective by the trace identity from W, PW = P W and WtW = W^T W.
    double objective(const Matrix& W, const Matrix& PW, const Matrix& WtW) const;
    // Gradient (eq. 7): G = W (W^T W) - P W.
    void gradient(const Matrix& W, const Matrix& PW, const Matrix& WtW, Matrix& G) const;
    // Coefficients of gamma -> f(W + gamma D), given PW, PD = P D, WtW and G = grad f(W), from k x k
    // products only.
    Quartic along(const Matrix& W, const Matrix& D, const Matrix& PD, const Matrix& WtW, const Matrix& G,
                  double f0) const;

    // Coefficients of gamma -> f(W + gamma e_i d^T), the move of row i alone, from that row w = W(i, :),
    // pw = (P W)(i, :), WtW and f0 = f(W). O(k^2).
    Quartic along_row(std::size_t i, const double* w, const double* d, const double* pw, const Matrix& WtW,
                      double f0) const;

private:
    Matrix P_;
    int64_t k_;
    double P_norm_squared_;
};

}  // namespace facto
