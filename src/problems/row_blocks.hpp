// The layout every distributed problem shares (issue 26): each process holds a block of consecutive
// rows, the blocks in rank order from row 0 covering all n rows (a process may hold none).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/collectives.hpp"

namespace facto {

// Collective: checks that the processes' blocks (first, rows) tile 0 .. n - 1 in rank order and that
// every process gives the same values of `same` (named, e.g. {"n", n}, {"r", r}); returns the blocks'
// first rows in rank order followed by n (P + 1 values). Throws Error(DIMENSION) on every process
// otherwise (each process's arguments must already be agreed on, agree_on_errors). `unit` names the
// blocks' lines in the messages (rows, or columns for MERIT's data).
std::vector<int64_t> row_block_starts(const Collectives& c, int64_t first, int64_t rows, int64_t n,
                                      const std::vector<std::pair<std::string, double>>& same,
                                      const std::string& unit = "rows");

}  // namespace facto
