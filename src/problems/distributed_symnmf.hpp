// Symmetric NMF (as problems/symnmf.hpp) with its data distributed over processes (issue 26): each
// process holds a block of consecutive rows of a sparse M and the same rows of X, blocks in rank order.
// The products need the whole X on every process (one all-gather of n r values per product: the
// 1D layout) and the sums of X^T X, <M X, X> and the stationarity terms (one all-reduce of r^2 + 1
// values, one of 1). Every process gets the same objective and stationarity, so a solver takes the
// same decisions on all of them, and its iterates agree with the single-process solver's up to the
// order of the sums.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/collectives.hpp"
#include "linalg/sparse.hpp"
#include "problems/low_rank_problem.hpp"

namespace facto {

class DistributedSymNMF final : public LowRankProblem {
public:
    // Collective. rows: this process's rows of M, first_row .. first_row + rows.rows - 1 of the n x n
    // symmetric M (columns 0-based global, finite: from csr_from_*), blocks consecutive in rank order
    // and covering 0 .. n - 1 (a process may hold none); 1 <= r <= n. M's symmetry is checked by one
    // product with a fixed random vector, ||M u - M^T u|| <= 1e-10 ||M||_F ||u||. An error on any
    // process is thrown on every process (the others' message says so).
    DistributedSymNMF(CsrMatrix rows, int64_t n, int64_t first_row, int64_t r, std::shared_ptr<const Collectives> c);

    const char* kind() const override { return "distributed_symnmf"; }
    // This process's block of X.
    std::array<int64_t, 2> iterate_shape() const override { return {rows_.rows, r_}; }
    // Collective: f at the X whose blocks the processes give.
    double objective(const Matrix& X) const override;
    // The block of SymNMF's start for the same seed (the whole n x r start is drawn on every process).
    Matrix random_point(uint64_t seed) const override;
    // Collective: requires every process's block X >= 0 and finite.
    Matrix feasible_point(const Matrix& X) const override;
    // "labels" of this process's rows.
    std::vector<OutputSpec> output_specs() const override { return {labels_spec(rows_.rows)}; }
    Output output(const std::string& name, const Matrix& X) const override { return labels_output(name, X); }
    const Collectives* collectives() const override { return collectives_.get(); }

    int64_t n() const { return n_; }
    int64_t first_row() const { return first_row_; }

    bool nonnegative() const override { return true; }
    // Fills e.gathered = X (n x r), e.first = this block of M X, e.second = X^T X (summed); f by eq. (37).
    double evaluate(const Matrix& X, Evaluation& e, std::size_t threads) const override;
    // This block of G = 2 (X X^T X - M X); returns the whole ||min(X, G)||_F.
    double gradient(const Matrix& X, const Evaluation& e, Matrix& G, std::size_t threads) const override;
    double default_alpha() const override { return 6.0; }
    double default_sigma() const override { return 2.0 * M_norm_; }
    double data_norm() const override { return M_norm_; }

private:
    CsrMatrix rows_;
    int64_t n_, first_row_, r_;
    std::shared_ptr<const Collectives> collectives_;
    std::vector<int64_t> block_values_;  // n_p r values of X per process, for the all-gather
    double M_norm_ = 0.0, mean_abs_ = 0.0;
};

}  // namespace facto
