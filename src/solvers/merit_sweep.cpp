#include "solvers/merit_sweep.hpp"

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
    const std::size_t near_begin = softmax.near_start[l], near_end = softmax.near_start[l + 1];
    // <g_l, c_l> = (X c_l)^T r_l + sum_n c_nl (shift_n + lambda (Y - Y_zero)(n, l)), X c_l = r_l + x_l:
    // O(M + nnz(c_l)), no row of X read
    const double* x = &problem.Xt()(l, 0);
    const double residual2 = blas::dot(r, r, m);
    double inner = residual2 + blas::dot(x, r, m), mass = 0.0, fit = x_norm[l];
    // the near entries, left out of the search, with lambda (Y - Y_zero) added
    double near_min = HUGE_VAL, near_max = -HUGE_VAL;
    std::size_t near_row = n, near_max_row = n;
    for (std::size_t k = near_begin, e = 0; e < column.size(); ++e) {
        const auto i = static_cast<std::size_t>(column[e].row);
        inner += column[e].value * work.shift[i];
        mass += column[e].value;
        fit += column[e].value * x_norm[i];
        if (k == near_end || softmax.near_rows[k] != column[e].row) continue;
        const double excess = lambda * problem.softmax_excess(softmax, k), g = work.near_values[k++] + excess;
        inner += column[e].value * excess;
        if (g < near_min || (g == near_min && i < near_row)) near_min = g, near_row = i;
        if (g > near_max) near_max = g, near_max_row = i;
    }
    std::size_t argmin = work.argmin[l];
    double minimum = work.minimum[l];
    // The support's smallest entry: the search's answer when that row is in the support, or the
    // smallest near entry when it is smaller (every support entry searched is at least as large as the
    // search's answer); else found among the support's entries (a column about to gain a row). The
    // largest (the away vertex, when asked for) is found among all of them: g_l = shift + x_i^T r
    // outside the near entries, O(M) each.
    const bool argmin_in_support = argmin < n && C.contains(l, static_cast<int64_t>(argmin));
    const bool search_support = !argmin_in_support && !(near_min < minimum);
    double support_min = near_min, support_max = near_max;
    std::size_t support_row = near_row, away_row = near_max_row;
    const auto offer = [&](double g, std::size_t row) {
        if (g < support_min || (g == support_min && row < support_row)) support_min = g, support_row = row;
    };
    if (argmin_in_support) offer(minimum, argmin);
    for (std::size_t k = near_begin, e = 0; (search_support || work.find_away) && e < column.size(); ++e) {
        if (k < near_end && softmax.near_rows[k] == column[e].row) {
            ++k;
            continue;
        }
        const auto i = static_cast<std::size_t>(column[e].row);
        const double g = i == argmin ? minimum : work.shift[i] + blas::dot(&problem.Xt()(i, 0), r, m);
        if (search_support) offer(g, i);
        if (g > support_max) support_max = g, away_row = i;
    }
    if (near_min < minimum || (near_min == minimum && near_row < argmin))
        argmin = near_row, minimum = near_min;
    // A vertex of the support that ties with the minimum up to the rounding of x_n^T (X c_l - x_l)
    // is an exact LMO answer too; preferring it keeps rounding noise from adding rows to C when the
    // column is already fitted (g_l ~ 0, Thm. 1).
    const double rounding = 16.0 * static_cast<double>(m) * std::numeric_limits<double>::epsilon() * problem.x_norm_max() * fit;
    const bool support = support_row < n && support_min <= minimum + rounding;
    vertex[l] = static_cast<int64_t>(support ? support_row : (argmin < n ? argmin : 0));
    // the gap <g_l, c_l> - min g_l; the dropped lambda/N shift adds lambda/N (1^T c_l - 1), zero on the
    // simplex, kept for the infeasible C = 0 start
    work.gap[l] = inner - minimum + lambda / static_cast<double>(n) * (mass - 1.0);
    work.residual2[l] = residual2;
    work.away[l] = away_row < n ? static_cast<int64_t>(away_row) : -1;
    work.away_value[l] = support_max;
    work.vertex_value[l] = support ? support_min : minimum;
    work.inner[l] = inner;
}

}  // namespace

Sweep merit_sweep(const SelfDictionary& problem, const SimplexColumns& C, const Matrix* R, std::vector<int64_t>& vertex,
                  int64_t block, std::size_t threads, SweepWork& work)
{
    const std::size_t m = static_cast<std::size_t>(problem.M());
    const double lambda = problem.lambda();
    const std::size_t n = static_cast<std::size_t>(problem.N());
    const std::size_t b = static_cast<std::size_t>(std::clamp<int64_t>(block, 1, problem.N()));
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
        product_column_argmin(problem.Xt().data(), n, work.shift.data(), R_columns, width, m,
                              {&softmax.near_start[c0], softmax.near_rows.data(), work.near_values.data()},
                              &work.argmin[c0], &work.minimum[c0], threads);
        parallel_for(width, grain_for(4 * m), threads, [&](std::size_t lo, std::size_t hi) {
            for (std::size_t c = lo; c < hi; ++c) finish_column(problem, C, softmax, R_columns + c * m, c0 + c, vertex, work);
        });
    }
    const double residual2 = std::accumulate(work.residual2.begin(), work.residual2.end(), 0.0);
    double away_gap = work.find_away ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    for (std::size_t l = 0; work.find_away && l < n; ++l)
        if (work.away[l] >= 0) away_gap += work.away_value[l] - work.inner[l];
    return {0.5 * residual2 + lambda * softmax.phi, std::accumulate(work.gap.begin(), work.gap.end(), 0.0), away_gap};
}

}  // namespace facto
