// The one interface of a problem whose rows live on several processes (the 1D layout): each process
// holds a block of consecutive rows, the blocks in rank order from row 0 covering all n rows (a process
// may hold none), connected by the host's collectives. Every distributed problem holds a RowBlocks,
// made by RowBlocks::agree at the start of its constructor, and returns it from Problem::row_blocks();
// a problem on one process returns none. A solver asks the problem's row_blocks() for the rows held
// here, their first, and the gathers and sums it needs, whichever problem it runs on.
//
// The template of a distributed problem: construct with (this process's block, n, first row, the
// problem's sizes, shared_ptr<const Collectives>); begin with blocks_ = RowBlocks::agree(c, first, rows,
// n, [&] { this process's checks, require_block among them }, {the sizes every process must give
// alike}); keep the data of the rows held here; return &blocks_ from row_blocks(); make every quantity
// a solver compares across processes (objective, stationarity) a sum over them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/collectives.hpp"
#include "base/error.hpp"
#include "linalg/matrix.hpp"

namespace facto {

// This process's block: 0 <= first and first + count <= n (checked without overflow; count >= 0);
// Error(DIMENSION) otherwise, naming the block's `unit` (rows, points, columns) and `of` (the whole).
void require_block(int64_t first, int64_t count, int64_t n, const std::string& unit, const std::string& of);

// Collective: checks that the processes' blocks (first, rows) tile 0 .. n - 1 in rank order and that
// every process gives the same values of `same` (named, e.g. {"n", n}, {"r", r}); returns the blocks'
// first rows in rank order followed by n (P + 1 values). Throws Error(DIMENSION) on every process
// otherwise (each process's arguments must already be agreed on, agree_on_errors). `unit` names the
// blocks' lines in the messages (rows, or columns for MERIT's data).
std::vector<int64_t> row_block_starts(const Collectives& c, int64_t first, int64_t rows, int64_t n,
                                      const std::vector<std::pair<std::string, double>>& same,
                                      const std::string& unit = "rows");

class RowBlocks {
public:
    // Collective: Error(NULL_POINTER) without collectives; then `checks` of this process's arguments
    // (require_block among them) on every process together (agree_on_errors), then the tiling and the
    // values every process must give alike (row_block_starts). An error on any process is thrown on
    // every process.
    template <class Checks>
    static RowBlocks agree(std::shared_ptr<const Collectives> c, int64_t first, int64_t rows, int64_t n,
                           const Checks& checks, const std::vector<std::pair<std::string, double>>& same,
                           const std::string& unit = "rows")
    {
        require(c != nullptr, FACTO_ERROR_NULL_POINTER, "collectives is NULL");
        agree_on_errors(*c, checks);
        std::vector<int64_t> starts = row_block_starts(*c, first, rows, n, same, unit);
        return RowBlocks(std::move(c), std::move(starts), first, rows);
    }

    const Collectives& collectives() const { return *collectives_; }
    int64_t n() const { return starts_.back(); }
    int64_t first() const { return first_; }
    int64_t rows() const { return rows_; }
    // The blocks' first rows in rank order, then n.
    const std::vector<int64_t>& starts() const { return starts_; }
    // Collective: the processes' blocks of `width` values per row (mine: this process's, row-major),
    // gathered in row order into an n x width matrix on every process; Error(OUT_OF_MEMORY) on every
    // process when one cannot hold it.
    Matrix gather(const double* mine, std::size_t width, const std::string& what) const;

private:
    RowBlocks(std::shared_ptr<const Collectives> c, std::vector<int64_t> starts, int64_t first, int64_t rows)
        : collectives_(std::move(c)), starts_(std::move(starts)), first_(first), rows_(rows)
    {
    }

    std::shared_ptr<const Collectives> collectives_;
    std::vector<int64_t> starts_;
    int64_t first_ = 0, rows_ = 0;
};

}  // namespace facto
