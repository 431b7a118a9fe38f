// A Problem owns its data (copied in, immutable afterwards) and knows its mathematics. Solvers hold it
// by shared_ptr<const Problem>, so several solvers (on several threads) may share one problem.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "base/collectives.hpp"
#include "linalg/matrix.hpp"
#include "problems/row_blocks.hpp"

namespace facto {

// A named result derived from an iterate (cluster labels, selected columns, ...).
struct OutputSpec {
    const char* name;
    int32_t type;  // FACTO_OUTPUT_DOUBLE or FACTO_OUTPUT_INT64
    int64_t rows;
    int64_t cols;
};

struct Output {
    OutputSpec spec;
    std::vector<double> doubles;  // row-major, when type is DOUBLE
    std::vector<int64_t> ints;    // row-major, when type is INT64
};

// The "labels" output of the problems that cluster: the column of the largest entry of each row of
// the iterate (first on ties), int64, n x 1.
OutputSpec labels_spec(int64_t n);
// labels of X; throws Error(UNKNOWN_PARAMETER) unless name is "labels".
Output labels_output(const std::string& name, const Matrix& X);

class Problem {
public:
    virtual ~Problem() = default;

    virtual const char* kind() const = 0;
    virtual std::array<int64_t, 2> iterate_shape() const = 0;

    // Objective at any point of the iterate's shape (feasible or not).
    virtual double objective(const Matrix& X) const = 0;

    // A feasible starting point drawn reproducibly from `seed`.
    virtual Matrix random_point(uint64_t seed) const = 0;

    // Validates a caller-given starting point and returns it made exactly feasible; throws
    // Error(DIMENSION / NOT_FINITE / INFEASIBLE) when it is not feasible within tolerance.
    virtual Matrix feasible_point(const Matrix& X) const = 0;

    virtual std::vector<OutputSpec> output_specs() const = 0;
    // Computes the named output at X; throws Error(UNKNOWN_PARAMETER) for an unknown name.
    virtual Output output(const std::string& name, const Matrix& X) const = 0;

    // The rows held here, when the problem's data and iterate are distributed by blocks of rows over
    // processes (each process's Problem holds its block: row_blocks.hpp); none on one process. A solver
    // of such a problem sums its global quantities through reduce_sums, and every step agrees on its stop
    // (Solver::step).
    virtual const RowBlocks* row_blocks() const { return nullptr; }
    // The collectives of the row blocks; none on one process.
    const Collectives* collectives() const
    {
        const RowBlocks* blocks = row_blocks();
        return blocks ? &blocks->collectives() : nullptr;
    }
    // values[k] summed over the processes, k < count (nothing to do on one process).
    void reduce_sums(double* values, std::size_t count) const { sum_over(collectives(), values, count); }
};

}  // namespace facto
