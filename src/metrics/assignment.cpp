#include <limits>

#include "base/error.hpp"
#include "metrics/metrics.hpp"

namespace facto {

std::vector<int64_t> min_cost_assignment(const Matrix& cost)
{
    // Shortest augmenting paths with potentials (Kuhn-Munkres), 1-based internally.
    const std::size_t m = cost.shape()[0];
    require(cost.shape()[1] == m, FACTO_ERROR_DIMENSION, "assignment: the cost matrix must be square");
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> u(m + 1, 0.0), v(m + 1, 0.0), min_slack(m + 1);
    std::vector<std::size_t> row_of_col(m + 1, 0), previous(m + 1, 0);
    std::vector<bool> used(m + 1);
    for (std::size_t i = 1; i <= m; ++i) {
        row_of_col[0] = i;
        std::size_t col = 0;
        std::fill(min_slack.begin(), min_slack.end(), inf);
        std::fill(used.begin(), used.end(), false);
        do {
            used[col] = true;
            const std::size_t row = row_of_col[col];
            double delta = inf;
            std::size_t next = 0;
            for (std::size_t j = 1; j <= m; ++j) {
                if (used[j]) continue;
                const double slack = cost(row - 1, j - 1) - u[row] - v[j];
                if (slack < min_slack[j]) {
                    min_slack[j] = slack;
                    previous[j] = col;
                }
                if (min_slack[j] < delta) {
                    delta = min_slack[j];
                    next = j;
                }
            }
            for (std::size_t j = 0; j <= m; ++j) {
                if (used[j]) {
                    u[row_of_col[j]] += delta;
                    v[j] -= delta;
                } else {
                    min_slack[j] -= delta;
                }
            }
            col = next;
        } while (row_of_col[col] != 0);
        do {
            const std::size_t prior = previous[col];
            row_of_col[col] = row_of_col[prior];
            col = prior;
        } while (col != 0);
    }
    std::vector<int64_t> assignment(m);
    for (std::size_t j = 1; j <= m; ++j) assignment[row_of_col[j] - 1] = static_cast<int64_t>(j - 1);
    return assignment;
}

}  // namespace facto
