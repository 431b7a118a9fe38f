#include "solvers/self_dictionary/merit_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "linalg/product_argmin.hpp"

namespace facto {

namespace {
// merit_sweep()'s end for column l (r = its residual row): g_l on the support, the vertex, the gap and
// ||r||^2 (a sum here: OpenBLAS's ddot over all of R woke its threads, docs/benchmarks.md, "Kernels").
void finish_column(const SelfDictionary& problem, const SimplexColumns& C, const RowSoftmax& softmax, const double* r,
                   std::size_t l, std::vector<int64_t>& vertex, SweepWork& work)
{
    const std::size_t m = static_cast<std::size_t>(problem.M()), n = static_cast<std::size_t>(problem.N());
    const double lambda = problem.lambda();
    const std::vector<double>& x_norm = problem.x_norm();
    const auto& column = C.columns[l];
    const std::size_t point = problem.first() + l;  // the data point of column l
    const std::size_t near_begin = softmax.near_start[l], near_end = softmax.near_start[l + 1];
    // <g_l, c_l> = (X c_l)^T r_l + sum_n c_nl (shift_n + lambda (Y - Y_zero)(n, l)), X c_l = r_l + x_l:
    // O(M + nnz(c_l)), no row of X read
    const double* x = &problem.Xt()(point, 0);
    const double residual2 = blas::dot(r, r, m);
    double inner = residual2 + blas::dot(x, r, m), mass = 0.0, fit = x_norm[point];
    // the near entries, left out of the search, with lambda (Y - Y_zero) added
    double near_min = HUGE_VAL, near_max = -HUGE_VAL;
    std::size_t near_row = n;
    for (std::size_t k = near_begin, e = 0; e < column.size(); ++e) {
        const auto i = static_cast<std::size_t>(column[e].row);
        inner += column[e].value * work.shift[i];
        mass += column[e].value;
        fit += column[e].value * x_norm[i];
        if (k == near_end || softmax.near_rows[k] != column[e].row) continue;
        const double excess = lambda * problem.softmax_excess(softmax, k), g = work.near_values[k++] + excess;
        inner += column[e].value * excess;
        if (g < near_min || (g == near_min && i < near_row)) near_min = g, near_row = i;
        near_max = std::max(near_max, g);
    }
    // g_l at every support entry: the near entries' from above, the others shift + x_i^T r, O(M) each
    // (the search's value where it found that row).
    std::size_t argmin = work.argmin[l];
    double minimum = work.minimum[l];
    thread_local std::vector<double> g_support;
    g_support.resize(column.size());
    double support_max = near_max;
    for (std::size_t k = near_begin, e = 0; e < column.size(); ++e) {
        const auto i = static_cast<std::size_t>(column[e].row);
        if (k < near_end && softmax.near_rows[k] == column[e].row) {
            g_support[e] = work.near_values[k] + lambda * problem.softmax_excess(softmax, k);
            ++k;
            continue;
        }
        const double g = i == argmin ? minimum : work.shift[i] + blas::dot(&problem.Xt()(i, 0), r, m);
        g_support[e] = g;
        support_max = std::max(support_max, g);
    }
    if (near_min < minimum || (near_min == minimum && near_row < argmin))
        argmin = near_row, minimum = near_min;
    // Every vertex of the support within the rounding of x_n^T (X c_l - x_l) of the minimum is an exact
    // LMO answer too. The first of them (the smallest row) is taken: it keeps rounding noise from adding
    // rows to C when the column is already fitted (g_l ~ 0, Thm. 1), and the choice from the ties that
    // a least-squares start makes on the support (its gradient is constant there) from depending on the
    // last bits (another BLAS kernel, the sums of other processes).
    const double rounding = 16.0 * static_cast<double>(m) * std::numeric_limits<double>::epsilon() * problem.x_norm_max() * fit;
    const double threshold = minimum + rounding;
    std::size_t support_row = n;
    double support_value = minimum;
    for (std::size_t e = 0; e < column.size() && support_row == n; ++e)
        if (g_support[e] <= threshold) support_row = static_cast<std::size_t>(column[e].row), support_value = g_support[e];
    const bool support = support_row < n;
    // the away vertex, the support's largest g_l, the same way: the first within the rounding of it (its
    // value the largest, as the away gap's term)
    std::size_t away_row = n;
    for (std::size_t e = 0; e < column.size() && away_row == n; ++e)
        if (g_support[e] >= support_max - rounding) away_row = static_cast<std::size_t>(column[e].row);
    vertex[l] = static_cast<int64_t>(support ? support_row : (argmin < n ? argmin : 0));
    // the gap <g_l, c_l> - min g_l; the dropped lambda/N shift adds lambda/N (1^T c_l - 1), zero on the
    // simplex, kept for the infeasible C = 0 start
    work.gap[l] = inner - minimum + lambda / static_cast<double>(n) * (mass - 1.0);
    work.residual2[l] = residual2;
    work.away[l] = away_row < n ? static_cast<int64_t>(away_row) : -1;
    work.away_value[l] = support_max;
    work.vertex_value[l] = support ? support_value : minimum;
    work.inner[l] = inner;
}

}  // namespace

Sweep merit_sweep(const SelfDictionary& problem, const SimplexColumns& C, const Matrix* R, std::vector<int64_t>& vertex,
                  int64_t block, std::size_t threads, SweepWork& work)
{
    const std::size_t m = static_cast<std::size_t>(problem.M());
    const double lambda = problem.lambda();
    const std::size_t n = C.columns.size();  // the columns held here (all N on one process)
    const std::size_t b = std::clamp<std::size_t>(static_cast<std::size_t>(std::max<int64_t>(block, 1)), 1, std::max<std::size_t>(n, 1));
    work.softmax = problem.row_softmax(C, threads);
    const RowSoftmax& softmax = work.softmax;
    problem.row_shift(softmax, work.shift);
    work.near_values.resize(softmax.near_rows.size());
    vertex.assign(n, 0);
    work.gap.assign(n, 0.0);
    work.argmin.resize(n);
    work.minimum.resize(n);
    work.residual2.assign(n, 0.0);
    work.away.assign(n, -1);
    work.away_value.assign(n, 0.0);
    work.vertex_value.assign(n, 0.0);
    work.inner.assign(n, 0.0);
    for (std::size_t c0 = 0; c0 < n; c0 += b) {
        const SelfDictionary::Range columns{c0, std::min(n, c0 + b)};
        const std::size_t width = columns.end - columns.begin;
        // the block's residual rows: R's, or formed here in O(M nnz) (a sliver of the block's
        // product when N is large)
        const double* R_columns = R ? &(*R)(c0, 0) : nullptr;
        if (!R) {
            if (work.Rb.shape()[0] != b || work.Rb.shape()[1] != m) work.Rb = Matrix({b, m});
            problem.residual_rows(C, columns, work.Rb.data(), threads);
            R_columns = work.Rb.data();
        }
        // Alg. 1 line 17: the first row of smallest g_l, X^T R never written. The kernel's entries are
        // shift + X^T R, which is g_l wherever lambda (Y - Y_zero) is 0 in double: everywhere but at
        // the softmax's near entries, which are left out of the search and come back as values.
        product_column_argmin(problem.Xt().data(), static_cast<std::size_t>(problem.N()), work.shift.data(), R_columns, width, m,
                              {&softmax.near_start[c0], softmax.near_rows.data(), work.near_values.data()},
                              &work.argmin[c0], &work.minimum[c0], threads);
        parallel_for(width, grain_for(4 * m), threads, [&](std::size_t lo, std::size_t hi) {
            for (std::size_t c = lo; c < hi; ++c) finish_column(problem, C, softmax, R_columns + c * m, c0 + c, vertex, work);
        });
    }
    // ||R||^2, the gap and the away gap, summed over the processes' columns
    double sums[3] = {std::accumulate(work.residual2.begin(), work.residual2.end(), 0.0),
                      std::accumulate(work.gap.begin(), work.gap.end(), 0.0), 0.0};
    for (std::size_t l = 0; work.find_away && l < n; ++l)
        if (work.away[l] >= 0) sums[2] += work.away_value[l] - work.inner[l];
    problem.reduce_sums(sums, 3);
    const double away_gap = work.find_away ? sums[2] : std::numeric_limits<double>::quiet_NaN();
    return {0.5 * sums[0] + lambda * softmax.phi, sums[1], away_gap};
}

}  // namespace facto
