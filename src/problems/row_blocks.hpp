// The layout every distributed problem shares: each process holds a block of consecutive
// rows, the blocks in rank order from row 0 covering all n rows (a process may hold none).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/collectives.hpp"

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

// Collective: the processes' blocks of `width` values per row (mine: this process's, row-major),
// gathered in row order into all (n x width, n = starts.back()), the blocks' first rows `starts` as
// row_block_starts returns them.
void gather_blocks(const Collectives& c, const std::vector<int64_t>& starts, const double* mine, std::size_t width,
                   double* all);

}  // namespace facto
