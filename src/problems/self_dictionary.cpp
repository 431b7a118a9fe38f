#include "facto/self_dictionary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include <xtensor/xmath.hpp>

#include "data/random.hpp"
#include "facto/error.hpp"
#include "facto/facto.h"
#include "facto/row_simplices.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "linalg/product_argmin.hpp"

namespace facto {

namespace {
// exp(a) for a <= 0, without glibc's slow underflow path: with mu = 1e-5 most arguments of the
// softmax are far below -745, where exp is 0 in double.
double exp_nonpositive(double a) { return a < -746.0 ? 0.0 : std::exp(a); }
}  // namespace

int64_t SimplexColumns::nnz() const
{
    int64_t count = 0;
    for (const auto& column : columns) count += static_cast<int64_t>(column.size());
    return count;
}

namespace {
// The place of `row` in a column (rows increasing): its entry, or where it would go.
template <class Column>
auto find_row(Column& column, int64_t row)
{
    return std::lower_bound(column.begin(), column.end(), row,
                            [](const SimplexColumns::Entry& e, int64_t r) { return e.row < r; });
}

// column(row) += amount, a new entry going to its place
void add_at(std::vector<SimplexColumns::Entry>& column, int64_t row, double amount)
{
    const auto at = find_row(column, row);
    if (at != column.end() && at->row == row) {
        at->value += amount;
        return;
    }
    // grow by an eighth, not by doubling: columns only ever gain one entry per iteration, and a
    // doubled capacity would leave up to half of C's memory unused
    const auto position = at - column.begin();
    if (column.size() == column.capacity()) column.reserve(column.size() + std::max<std::size_t>(4, column.size() / 8));
    column.insert(column.begin() + position, SimplexColumns::Entry{row, amount});
}
}  // namespace

double SimplexColumns::value(std::size_t l, int64_t row) const
{
    const auto at = find_row(columns[l], row);
    return at != columns[l].end() && at->row == row ? at->value : 0.0;
}

void SimplexColumns::frank_wolfe_update(std::size_t l, int64_t row, double alpha)
{
    auto& column = columns[l];
    if (alpha >= 1.0) {
        column.assign(1, Entry{row, 1.0});
        return;
    }
    for (Entry& e : column) e.value *= 1.0 - alpha;
    add_at(column, row, alpha);
}

void SimplexColumns::away_or_pairwise_update(std::size_t l, const BlockDirection& direction, double step, bool dropped)
{
    auto& column = columns[l];
    if (direction.kind == BlockDirection::away)
        for (Entry& e : column) e.value *= 1.0 + step;
    const auto a = find_row(column, direction.a);
    a->value = std::max(a->value - step, 0.0);
    if (dropped || a->value == 0.0) column.erase(a);
    if (direction.kind == BlockDirection::pairwise) add_at(column, direction.s, step);
}

SimplexColumns SimplexColumns::from_dense(const Matrix& C)
{
    SimplexColumns S;
    S.columns.resize(C.shape()[1]);
    for (std::size_t i = 0; i < C.shape()[0]; ++i)
        for (std::size_t l = 0; l < C.shape()[1]; ++l)
            if (C(i, l) != 0.0) S.columns[l].push_back(Entry{static_cast<int64_t>(i), C(i, l)});
    return S;
}

SimplexColumns SimplexColumns::from_selected(const std::vector<int64_t>& selected, const Matrix& Ht)
{
    std::vector<std::size_t> order(selected.size());  // the selected rows in increasing order
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return selected[a] < selected[b]; });
    SimplexColumns S;
    S.columns.resize(Ht.shape()[0]);
    for (std::size_t l = 0; l < S.columns.size(); ++l) {
        const double* h = &Ht(l, 0);
        const auto positive = std::count_if(h, h + selected.size(), [](double v) { return v > 0.0; });
        S.columns[l].reserve(static_cast<std::size_t>(positive));
        for (std::size_t k : order)
            if (h[k] > 0.0) S.columns[l].push_back(Entry{selected[k], h[k]});
    }
    return S;
}

Matrix SimplexColumns::to_dense() const
{
    const std::size_t n = columns.size();
    Matrix C = xt::zeros<double>({n, n});
    for (std::size_t l = 0; l < n; ++l)
        for (const Entry& e : columns[l]) C(static_cast<std::size_t>(e.row), l) = e.value;
    return C;
}

namespace {
// X^T, once X is known finite (the message names X's own entry).
Matrix finite_transpose(const Matrix& X)
{
    require_finite(X, "X");
    return xt::transpose(X);
}
}  // namespace

SelfDictionary::SelfDictionary(Matrix X, int64_t K, double lambda, double mu)
    : Xt_(finite_transpose(X)), K_(K), lambda_(lambda), mu_(mu)
{
    require(N() >= 2 && M() >= 1, FACTO_ERROR_DIMENSION,
            "X must be M x N with M >= 1 and N >= 2, got " + std::to_string(M()) + " x " + std::to_string(N()));
    require(K >= 0 && K <= N(), FACTO_ERROR_DIMENSION,
            "K = " + std::to_string(K) + " must be 0 (unknown) or satisfy 1 <= K <= N = " + std::to_string(N()));
    require(std::isfinite(mu) && std::isfinite(lambda), FACTO_ERROR_NOT_FINITE,
            "mu = " + value_text(mu) + " and lambda = " + value_text(lambda) + " must be finite");
    require(mu > 0.0 && mu <= kMaxMagnitude && lambda <= kMaxMagnitude, FACTO_ERROR_OUT_OF_RANGE,
            "mu = " + value_text(mu) + " must be in (0, 1e100] and lambda = " + value_text(lambda) +
                " at most 1e100 (negative = heuristic)");
    x_norm_.resize(static_cast<std::size_t>(N()));
    for (std::size_t l = 0; l < x_norm_.size(); ++l) {
        double sum = 0.0;
        for (std::size_t k = 0; k < Xt_.shape()[1]; ++k) sum += Xt_(l, k) * Xt_(l, k);
        x_norm_[l] = std::sqrt(sum);
        x_norm_max_ = std::max(x_norm_max_, x_norm_[l]);
    }
    require(lambda_ >= 0.0 || K_ > 0, FACTO_ERROR_INVALID_ARGUMENT,
            "lambda < 0 asks for the heuristic ||X - X C0||_F / K, which needs K; give K or lambda >= 0");
    if (K_ > 0) {
        // Sec. V-B: SPA picks K columns; the warm start C0 is built from them when a solver asks
        SuccessiveProjection spa(Xt_);
        for (int64_t k = 0; k < K_; ++k) spa.next();
        spa_picks_ = spa.selected();
    }
    if (lambda_ < 0.0)  // Sec. V-A: ||X - X C0||_F / K
        lambda_ = std::sqrt(residual_squared(warm_start(resolve_threads(0)))) / static_cast<double>(K_);
}

RowSoftmax SelfDictionary::row_softmax(const SimplexColumns& C, std::size_t threads) const
{
    const std::size_t n = static_cast<std::size_t>(N()), columns = C.columns.size();
    RowSoftmax s;
    s.max.assign(n, 0.0);
    s.sum.assign(n, static_cast<double>(n));
    s.zero.assign(n, 1.0 / static_cast<double>(n));
    std::vector<int64_t> count(n, 0);
    for (const auto& column : C.columns)
        for (const auto& e : column) {
            const auto i = static_cast<std::size_t>(e.row);
            s.max[i] = std::max(s.max[i], e.value);
            count[i] += 1;
        }
    for (std::size_t i = 0; i < n; ++i)
        if (count[i] > 0) {
            s.rows.push_back(static_cast<int64_t>(i));
            // the N - count zeros of the row, each exp(-max / mu) after the shift
            s.sum[i] = static_cast<double>(static_cast<int64_t>(n) - count[i]) * exp_nonpositive(-s.max[i] / mu_);
        }
    // the near entries, by columns: counted, then written with their exponentials
    const double lowest = -746.0 * mu_;
    const auto near = [&](const SimplexColumns::Entry& e) {
        return e.value - s.max[static_cast<std::size_t>(e.row)] >= lowest;
    };
    s.near_start.assign(columns + 1, 0);
    parallel_for(columns, grain_for(64), threads, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t l = lo; l < hi; ++l)
            for (const auto& e : C.columns[l]) s.near_start[l + 1] += near(e) ? 1 : 0;
    });
    std::partial_sum(s.near_start.begin(), s.near_start.end(), s.near_start.begin());
    s.near_rows.resize(s.near_start[columns]);
    s.near_exp.resize(s.near_start[columns]);
    parallel_for(columns, grain_for(64), threads, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t l = lo; l < hi; ++l) {
            std::size_t k = s.near_start[l];
            for (const auto& e : C.columns[l])
                if (near(e)) {
                    s.near_rows[k] = e.row;
                    s.near_exp[k++] = std::exp((e.value - s.max[static_cast<std::size_t>(e.row)]) / mu_);
                }
        }
    });
    for (std::size_t k = 0; k < s.near_rows.size(); ++k)
        s.sum[static_cast<std::size_t>(s.near_rows[k])] += s.near_exp[k];
    for (int64_t r : s.rows) {
        const auto i = static_cast<std::size_t>(r);
        s.zero[i] = exp_nonpositive(-s.max[i] / mu_) / s.sum[i];
        // phi_mu(C(n, :)) = max_n + mu log(sum_n / N); rows without a nonzero contribute mu log 1 = 0
        s.phi += s.max[i] + mu_ * std::log(s.sum[i] / static_cast<double>(n));
    }
    return s;
}

double SelfDictionary::residual_column(const SimplexColumns& C, std::size_t l, double* r) const
{
    const std::size_t m = static_cast<std::size_t>(M());
    const double* x = &Xt_(l, 0);
    for (std::size_t k = 0; k < m; ++k) r[k] = -x[k];
    for (const auto& e : C.columns[l]) {
        const double* xj = &Xt_(static_cast<std::size_t>(e.row), 0);
        for (std::size_t k = 0; k < m; ++k) r[k] += e.value * xj[k];
    }
    return blas::dot(r, r, m);
}

double SelfDictionary::residual_squared(const SimplexColumns& C) const
{
    std::vector<double> r(static_cast<std::size_t>(M()));
    double sum = 0.0;
    for (std::size_t l = 0; l < C.columns.size(); ++l) sum += residual_column(C, l, r.data());
    return sum;
}

void SelfDictionary::residual(const SimplexColumns& C, Matrix& R, std::size_t threads) const
{
    if (R.shape()[0] != static_cast<std::size_t>(N()) || R.shape()[1] != static_cast<std::size_t>(M()))
        R = Matrix({static_cast<std::size_t>(N()), static_cast<std::size_t>(M())});
    residual_rows(C, {0, static_cast<std::size_t>(N())}, R.data(), threads);
}

void SelfDictionary::residual_rows(const SimplexColumns& C, Range columns, double* rows, std::size_t threads) const
{
    const std::size_t m = static_cast<std::size_t>(M());
    parallel_for(columns.end - columns.begin, grain_for(m), threads, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t c = lo; c < hi; ++c) residual_column(C, columns.begin + c, rows + c * m);
    });
}

double SelfDictionary::softmax_excess(const RowSoftmax& softmax, std::size_t e) const
{
    const auto i = static_cast<std::size_t>(softmax.near_rows[e]);
    return softmax.near_exp[e] / softmax.sum[i] - softmax.zero[i];
}

double SelfDictionary::softmax_weight(const RowSoftmax& softmax, std::size_t n, double before, double after) const
{
    // row n's terms exp((C(n, j) - max) / mu) sum to softmax.sum; without entry l they sum to `others`
    const double top = softmax.max[n];
    const double others = std::max(softmax.sum[n] - exp_nonpositive((before - top) / mu_), 0.0);
    if (after > top) return 1.0 / (1.0 + others * exp_nonpositive((top - after) / mu_));
    const double term = exp_nonpositive((after - top) / mu_);
    return term / (others + term);
}

void SelfDictionary::row_shift(const RowSoftmax& softmax, std::vector<double>& shift) const
{
    const double inverse_n = 1.0 / static_cast<double>(N());
    shift.assign(static_cast<std::size_t>(N()), 0.0);
    for (int64_t r : softmax.rows)
        shift[static_cast<std::size_t>(r)] = lambda_ * (softmax.zero[static_cast<std::size_t>(r)] - inverse_n);
}

SelfDictionary::Sweep SelfDictionary::sweep(const SimplexColumns& C, const Matrix* R, std::vector<int64_t>& vertex,
                                            int64_t block, std::size_t threads, SweepWork& work) const
{
    const std::size_t m = static_cast<std::size_t>(M());
    const std::size_t n = static_cast<std::size_t>(N());
    const std::size_t b = static_cast<std::size_t>(std::clamp<int64_t>(block, 1, N()));
    work.softmax = row_softmax(C, threads);
    const RowSoftmax& softmax = work.softmax;
    row_shift(softmax, work.shift);
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
        const Range columns{c0, std::min(n, c0 + b)};
        const std::size_t width = columns.end - columns.begin;
        // the block's residual rows: R's, or formed here in O(M nnz) (a sliver of the block's
        // product when N is large)
        const double* R_columns = R ? &(*R)(c0, 0) : nullptr;
        if (!R) {
            if (work.Rb.shape()[0] != b || work.Rb.shape()[1] != m) work.Rb = Matrix({b, m});
            residual_rows(C, columns, work.Rb.data(), threads);
            R_columns = work.Rb.data();
        }
        // Alg. 1 line 17: the first row of smallest g_l, X^T R never written. The kernel's entries are
        // shift + X^T R, which is g_l wherever lambda (Y - Y_zero) is 0 in double: everywhere but at
        // the softmax's near entries, which are left out of the search and come back as values.
        product_column_argmin(Xt_.data(), n, work.shift.data(), R_columns, width, m,
                              {&softmax.near_start[c0], softmax.near_rows.data(), work.near_values.data()},
                              &work.argmin[c0], &work.minimum[c0], threads);
        parallel_for(width, grain_for(4 * m), threads, [&](std::size_t lo, std::size_t hi) {
            for (std::size_t c = lo; c < hi; ++c) finish_column(C, softmax, R_columns + c * m, c0 + c, vertex, work);
        });
    }
    const double residual2 = std::accumulate(work.residual2.begin(), work.residual2.end(), 0.0);
    double away_gap = work.find_away ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    for (std::size_t l = 0; work.find_away && l < n; ++l)
        if (work.away[l] >= 0) away_gap += work.away_value[l] - work.inner[l];
    return {0.5 * residual2 + lambda_ * softmax.phi, std::accumulate(work.gap.begin(), work.gap.end(), 0.0), away_gap};
}

void SelfDictionary::finish_column(const SimplexColumns& C, const RowSoftmax& softmax, const double* r, std::size_t l,
                                   std::vector<int64_t>& vertex, SweepWork& work) const
{
    const std::size_t m = static_cast<std::size_t>(M()), n = static_cast<std::size_t>(N());
    const auto& column = C.columns[l];
    const std::size_t near_begin = softmax.near_start[l], near_end = softmax.near_start[l + 1];
    // <g_l, c_l> = (X c_l)^T r_l + sum_n c_nl (shift_n + lambda (Y - Y_zero)(n, l)), X c_l = r_l + x_l:
    // O(M + nnz(c_l)), no row of X read
    const double* x = &Xt_(l, 0);
    const double residual2 = blas::dot(r, r, m);
    double inner = residual2 + blas::dot(x, r, m), mass = 0.0, fit = x_norm_[l];
    // the near entries, left out of the search, with lambda (Y - Y_zero) added
    double near_min = HUGE_VAL, near_max = -HUGE_VAL;
    std::size_t near_row = n, near_max_row = n;
    for (std::size_t k = near_begin, e = 0; e < column.size(); ++e) {
        const auto i = static_cast<std::size_t>(column[e].row);
        inner += column[e].value * work.shift[i];
        mass += column[e].value;
        fit += column[e].value * x_norm_[i];
        if (k == near_end || softmax.near_rows[k] != column[e].row) continue;
        const double excess = lambda_ * softmax_excess(softmax, k), g = work.near_values[k++] + excess;
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
    const auto at = find_row(column, static_cast<int64_t>(argmin));
    const bool argmin_in_support = argmin < n && at != column.end() && at->row == static_cast<int64_t>(argmin);
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
        const double g = i == argmin ? minimum : work.shift[i] + blas::dot(&Xt_(i, 0), r, m);
        if (search_support) offer(g, i);
        if (g > support_max) support_max = g, away_row = i;
    }
    if (near_min < minimum || (near_min == minimum && near_row < argmin))
        argmin = near_row, minimum = near_min;
    // A vertex of the support that ties with the minimum up to the rounding of x_n^T (X c_l - x_l)
    // is an exact LMO answer too; preferring it keeps rounding noise from adding rows to C when the
    // column is already fitted (g_l ~ 0, Thm. 1).
    const double rounding = 16.0 * static_cast<double>(m) * std::numeric_limits<double>::epsilon() * x_norm_max_ * fit;
    const bool support = support_row < n && support_min <= minimum + rounding;
    vertex[l] = static_cast<int64_t>(support ? support_row : (argmin < n ? argmin : 0));
    // the gap <g_l, c_l> - min g_l; the dropped lambda/N shift adds lambda/N (1^T c_l - 1), zero on the
    // simplex, kept for the infeasible C = 0 start
    work.gap[l] = inner - minimum + lambda_ / static_cast<double>(n) * (mass - 1.0);
    work.residual2[l] = residual2;
    work.away[l] = away_row < n ? static_cast<int64_t>(away_row) : -1;
    work.away_value[l] = support_max;
    work.vertex_value[l] = support ? support_min : minimum;
    work.inner[l] = inner;
}

double SelfDictionary::objective(const Matrix& C) const
{
    require_shape(C, N(), N(), "C");
    const SimplexColumns S = SimplexColumns::from_dense(C);
    return 0.5 * residual_squared(S) + lambda_ * row_softmax(S).phi;
}

Matrix SelfDictionary::random_point(uint64_t seed) const
{
    const std::size_t n = static_cast<std::size_t>(N());
    Matrix C = xt::zeros<double>({n, n});
    Rng rng(seed);
    for (std::size_t l = 0; l < n; ++l) C(static_cast<std::size_t>(rng.uniform() * static_cast<double>(n)), l) = 1.0;
    return C;
}

Matrix SelfDictionary::feasible_point(const Matrix& C) const
{
    require_shape(C, N(), N(), "iterate");
    return xt::transpose(row_simplex_feasible(xt::transpose(C), 1e-8));
}

std::vector<int64_t> SelfDictionary::select(const SimplexColumns& C, double threshold) const
{
    const RowSoftmax softmax = row_softmax(C);
    std::vector<int64_t> rows;
    if (K_ > 0) {
        // ||C(n, :)||_inf largest first, the smaller index on ties; rows without a nonzero come last
        std::vector<int64_t> all(static_cast<std::size_t>(N()));
        std::iota(all.begin(), all.end(), 0);
        std::stable_sort(all.begin(), all.end(), [&](int64_t a, int64_t b) {
            return softmax.max[static_cast<std::size_t>(a)] > softmax.max[static_cast<std::size_t>(b)];
        });
        rows.assign(all.begin(), all.begin() + K_);
    } else {
        for (int64_t r : softmax.rows)
            if (softmax.max[static_cast<std::size_t>(r)] > threshold) rows.push_back(r);
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

SimplexColumns SelfDictionary::warm_start(std::size_t threads) const
{
    require(K_ > 0, FACTO_ERROR_INVALID_ARGUMENT, "the SPA warm start needs K");
    return SimplexColumns::from_selected(spa_picks_, simplex_least_squares(Xt_, spa_picks_, threads));
}

std::vector<OutputSpec> SelfDictionary::specs(int64_t selected) const
{
    return {{"selected", FACTO_OUTPUT_INT64, selected, 1},
            {"H", FACTO_OUTPUT_DOUBLE, selected, N()},
            {"nnz", FACTO_OUTPUT_INT64, 1, 1}};
}

std::vector<OutputSpec> SelfDictionary::output_specs(const SimplexColumns& C) const
{
    return specs(static_cast<int64_t>(select(C).size()));
}

std::vector<OutputSpec> SelfDictionary::output_specs() const { return specs(K_); }

Output SelfDictionary::output(const std::string& name, const SimplexColumns& C) const
{
    if (name == "nnz") return Output{specs(0)[2], {}, {C.nnz()}};
    std::vector<int64_t> selected = select(C);
    const std::vector<OutputSpec> shapes = specs(static_cast<int64_t>(selected.size()));
    if (name == "selected") return Output{shapes[0], {}, std::move(selected)};
    if (name == "H") {
        const Matrix H = xt::transpose(simplex_least_squares(Xt_, selected, resolve_threads(0)));
        return Output{shapes[1], std::vector<double>(H.begin(), H.end()), {}};
    }
    throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "unknown output '" + name + "' (self_dictionary has: selected, H, nnz)");
}

Output SelfDictionary::output(const std::string& name, const Matrix& C) const
{
    return output(name, SimplexColumns::from_dense(C));
}

}  // namespace facto
