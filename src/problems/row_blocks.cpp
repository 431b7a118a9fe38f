#include "problems/row_blocks.hpp"

#include "base/error.hpp"

namespace facto {

void require_block(int64_t first, int64_t count, int64_t n, const std::string& unit, const std::string& of)
{
    require(first >= 0 && count >= 0 && first <= n && count <= n - first, FACTO_ERROR_DIMENSION,
            "the " + std::to_string(count) + " " + unit + " from " + std::to_string(first) + " are not " + unit +
                " of " + of + " = " + std::to_string(n));
}

std::vector<int64_t> row_block_starts(const Collectives& c, int64_t first, int64_t rows, int64_t n,
                                      const std::vector<std::pair<std::string, double>>& same, const std::string& unit)
{
    // every process's (first, rows, n, same...), gathered
    const std::size_t P = static_cast<std::size_t>(c.size()), width = 3 + same.size();
    std::vector<double> mine{static_cast<double>(first), static_cast<double>(rows), static_cast<double>(n)};
    for (const auto& value : same) mine.push_back(value.second);
    std::vector<double> blocks(width * P);
    c.allgather(mine.data(), blocks.data(), std::vector<int64_t>(P, static_cast<int64_t>(width)));
    std::vector<int64_t> starts;
    double next = 0.0;
    for (std::size_t p = 0; p < P; ++p) {
        const double* b = &blocks[width * p];
        for (std::size_t k = 2; k < width; ++k) {
            const std::string name = k == 2 ? "n" : same[k - 3].first;
            require(b[k] == blocks[k], FACTO_ERROR_DIMENSION,
                    "the processes must give the same " + name + ": process 0 gives " + value_text(blocks[k]) +
                        ", process " + std::to_string(p) + " " + value_text(b[k]));
        }
        require(b[0] == next, FACTO_ERROR_DIMENSION,
                "the processes' blocks of " + unit + " must follow each other in rank order from 0: process " +
                    std::to_string(p) + " starts at " + value_text(b[0]) + ", not " + value_text(next));
        starts.push_back(static_cast<int64_t>(b[0]));
        next += b[1];
    }
    require(next == static_cast<double>(n), FACTO_ERROR_DIMENSION,
            "the processes' blocks of " + unit + " cover " + value_text(next) + " " + unit + " of " +
                std::to_string(n));
    starts.push_back(n);
    return starts;
}

Matrix RowBlocks::gather(const double* mine, std::size_t width, const std::string& what) const
{
    agree_on_errors(*collectives_, [&] { require_memory(8.0 * double(n()) * double(width), what); });
    Matrix all({static_cast<std::size_t>(n()), width});
    std::vector<int64_t> counts;
    for (std::size_t p = 0; p + 1 < starts_.size(); ++p)
        counts.push_back((starts_[p + 1] - starts_[p]) * static_cast<int64_t>(width));
    collectives_->allgather(mine, all.data(), counts);
    return all;
}

}  // namespace facto
