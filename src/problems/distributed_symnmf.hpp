// Symmetric NMF (as problems/symnmf.hpp) with its data distributed over processes: each
// process holds a block of consecutive rows of a sparse M and the same rows of X, blocks in rank order
// (the 1D layout). A product M_p X needs the rows of X that the block's columns touch: its own, and the
// halo, the others' rows among its columns, received from the processes holding them (one all-to-all
// per product, r values per halo row; benchmarks/bench_distributed.cpp measured it against gathering
// the whole X and against the 2D layout of [PLANC]). The sums of X^T X, <M X, X> and the stationarity terms
// take one all-reduce of r^2 + 1 values and one of 1. Every process gets the same objective and stationarity, so a solver takes the
// same decisions on all of them, and its iterates agree with the single-process solver's up to the
// order of the sums.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/collectives.hpp"
#include "linalg/sparse.hpp"
#include "problems/low_rank_problem.hpp"
#include "problems/row_blocks.hpp"

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
    // The block of SymNMF's start for the same seed (drawn for this block alone).
    Matrix random_point(uint64_t seed) const override;
    // Collective: requires every process's block X >= 0 and finite.
    Matrix feasible_point(const Matrix& X) const override;
    // "labels" of this process's rows.
    std::vector<OutputSpec> output_specs() const override { return {labels_spec(rows_.rows)}; }
    Output output(const std::string& name, const Matrix& X) const override { return labels_output(name, X); }
    const RowBlocks* row_blocks() const override { return &blocks_; }

    int64_t n() const { return blocks_.n(); }
    int64_t first_row() const { return blocks_.first(); }

    bool nonnegative() const override { return true; }
    // Fills e.gathered = the halo's and this block's rows of X, e.first = this block of M X, e.second =
    // X^T X (summed); f by eq. (37).
    double evaluate(const Matrix& X, Evaluation& e, std::size_t threads) const override;
    // This block of G = 2 (X X^T X - M X); returns the whole ||min(X, G)||_F.
    double gradient(const Matrix& X, const Evaluation& e, Matrix& G, std::size_t threads) const override;
    double default_alpha() const override { return 6.0; }
    double default_sigma() const override { return 2.0 * M_norm_; }
    double data_norm() const override { return M_norm_; }

private:
    // Collective: finds the halo from the blocks' first rows (starts, P + 1 values), tells each process
    // which of its rows this one needs, and renumbers rows_' columns into the rows of e.gathered.
    void build_halo(const std::vector<int64_t>& starts);

    CsrMatrix rows_;  // after build_halo, columns index e.gathered: halo rows below, this block, halo above
    RowBlocks blocks_;
    int64_t r_;
    std::vector<int64_t> send_rows_;  // this block's rows the others need, grouped by process in rank order
    std::vector<int64_t> send_counts_, receive_counts_;  // values of X sent to / received from each process
    int64_t below_ = 0;  // halo rows before this block
    double M_norm_ = 0.0, mean_abs_ = 0.0;
};

}  // namespace facto
