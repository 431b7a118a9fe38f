// NOMAD (problems/nomad.hpp) on points distributed over processes: each process holds a
// block of consecutive points (rows), blocks in rank order, and keeps the same rows of the features
// F = nomad_features(X), so D = F F^T is never formed nor gathered: a product Z^T D takes one sum of
// m d values over the processes (linalg/gram_rows.hpp). Its solver is burer_monteiro, whose factor Y
// is distributed by the same rows; the iterate is this process's rows of Q = Y Y^T.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/collectives.hpp"
#include "linalg/gram_rows.hpp"
#include "problems/nomad_problem.hpp"
#include "problems/problem.hpp"
#include "problems/row_blocks.hpp"

namespace facto {

class DistributedNomad final : public NomadProblem {
public:
    // Collective. X: this process's points, rows first_row .. first_row + rows - 1 of the n points
    // (finite, d >= 1 columns everywhere, not all 0), blocks consecutive in rank order covering 0 .. n - 1
    // (a process may hold none); 1 <= K <= n. An error on any process is thrown on every process.
    DistributedNomad(const Matrix& X, int64_t n, int64_t first_row, int64_t K, std::shared_ptr<const Collectives> c);

    const char* kind() const override { return "distributed_nomad"; }
    // This process's rows of Q.
    std::array<int64_t, 2> iterate_shape() const override { return {rows(), n()}; }
    // Collective: Tr(D Q) at the Q whose rows the processes give (one sum of n d values).
    double objective(const Matrix& Q) const override;
    // Both refuse (UNSUPPORTED): burer_monteiro, the solver of a distributed nomad, starts from kernel
    // k-means, and its rows of Q would be dense.
    Matrix random_point(uint64_t seed) const override;
    Matrix feasible_point(const Matrix& Q) const override;
    // "feasibility" (1 x 4, as nomad's), "labels" (this process's rows, as nomad's) and "label_rule".
    std::vector<OutputSpec> output_specs() const override;
    // Refuses (UNSUPPORTED): both come from a factor (output_of_factor), as burer_monteiro gives them.
    Output output(const std::string& name, const Matrix& Q) const override;
    // Collective: the same at Q = U U^T, U's rows distributed as the points (gathered: O(n r) memory on
    // every process, the components found on each).
    Output output_of_factor(const std::string& name, const Matrix& U, const LabelRule& rule) const override;
    std::pair<std::vector<int64_t>, int64_t> labels_of_factor(const Matrix& U, const LabelRule& rule) const override;
    const RowBlocks* row_blocks() const override { return &blocks_; }

    int64_t n() const override { return blocks_.n(); }
    int64_t K() const override { return K_; }
    int64_t first_row() const { return blocks_.first(); }
    int64_t rows() const { return blocks_.rows(); }
    // Collective: ||D||_F = ||F^T F||_F.
    double frobenius_norm() const override;
    // c D as the scaled points sqrt(c) F held here, and D's rows here from them.
    void scale(double c, ScaledNomad& scaled) const override;
    GramRows scaled_rows(const ScaledNomad& scaled, std::size_t threads) const override;

private:
    RowBlocks blocks_;
    int64_t K_;
    Matrix F_;  // this process's rows of the features
};

}  // namespace facto
