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
#include "linalg/target_clones.hpp"

namespace facto {

namespace {
// exp(a) for a <= 0, without glibc's slow underflow path: with mu = 1e-5 most arguments of the
// softmax are far below -745, where exp is 0 in double.
double exp_nonpositive(double a) { return a < -746.0 ? 0.0 : std::exp(a); }

// The first i minimizing g[i], and that minimum: eight lanes keep their own minimum and its first
// index (so the compiler can vectorize the scan), then the lanes are merged.
FACTO_TARGET_CLONES
std::pair<std::size_t, double> first_argmin(const double* __restrict g, std::size_t n)
{
    constexpr std::size_t L = 8;
    double best[L];
    std::size_t where[L];
    for (std::size_t l = 0; l < L; ++l) best[l] = HUGE_VAL, where[l] = n;
    std::size_t i = 0;
    for (; i + L <= n; i += L)
        for (std::size_t l = 0; l < L; ++l) {
            const double v = g[i + l];
            const bool smaller = v < best[l];
            best[l] = smaller ? v : best[l];
            where[l] = smaller ? i + l : where[l];
        }
    for (; i < n; ++i)
        if (g[i] < best[0] || (g[i] == best[0] && i < where[0])) best[0] = g[i], where[0] = i;
    std::size_t j = where[0];
    double minimum = best[0];
    for (std::size_t l = 1; l < L; ++l)
        if (best[l] < minimum || (best[l] == minimum && where[l] < j)) minimum = best[l], j = where[l];
    if (j == n) j = 0, minimum = g[0];  // every entry NaN: keep the first index
    return {j, minimum};
}
}  // namespace

int64_t SimplexColumns::nnz() const
{
    int64_t count = 0;
    for (const auto& column : columns) count += static_cast<int64_t>(column.size());
    return count;
}

void SimplexColumns::frank_wolfe_update(std::size_t l, int64_t row, double alpha)
{
    auto& column = columns[l];
    if (alpha >= 1.0) {
        column.assign(1, Entry{row, 1.0});
        return;
    }
    bool found = false;
    for (Entry& e : column) {
        e.value *= 1.0 - alpha;
        if (e.row == row) {
            e.value += alpha;
            found = true;
        }
    }
    if (found) return;
    // grow by an eighth, not by doubling: columns only ever gain one entry per iteration, and a
    // doubled capacity would leave up to half of C's memory unused
    if (column.size() == column.capacity()) column.reserve(column.size() + std::max<std::size_t>(4, column.size() / 8));
    column.push_back(Entry{row, alpha});
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
    SimplexColumns S;
    S.columns.resize(Ht.shape()[0]);
    for (std::size_t l = 0; l < S.columns.size(); ++l) {
        const double* h = &Ht(l, 0);
        S.columns[l].reserve(static_cast<std::size_t>(std::count_if(h, h + selected.size(), [](double v) { return v > 0.0; })));
        for (std::size_t k = 0; k < selected.size(); ++k)
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

SelfDictionary::SelfDictionary(Matrix X, int64_t K, double lambda, double mu)
    : Xt_(xt::transpose(X)), K_(K), lambda_(lambda), mu_(mu)
{
    require(N() >= 2 && M() >= 1, FACTO_ERROR_DIMENSION,
            "X must be M x N with M >= 1 and N >= 2, got " + std::to_string(M()) + " x " + std::to_string(N()));
    require(K >= 0 && K <= N(), FACTO_ERROR_DIMENSION,
            "K = " + std::to_string(K) + " must be 0 (unknown) or satisfy 1 <= K <= N = " + std::to_string(N()));
    require(mu > 0.0 && std::isfinite(mu), FACTO_ERROR_INVALID_ARGUMENT, "mu must be positive and finite");
    require(std::isfinite(lambda), FACTO_ERROR_INVALID_ARGUMENT, "lambda must be finite (negative = heuristic)");
    require_finite(Xt_, "X");
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

RowSoftmax SelfDictionary::row_softmax(const SimplexColumns& C) const
{
    const std::size_t n = static_cast<std::size_t>(N());
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
    for (const auto& column : C.columns)
        for (const auto& e : column) {
            const auto i = static_cast<std::size_t>(e.row);
            s.sum[i] += exp_nonpositive((e.value - s.max[i]) / mu_);
        }
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
    double norm2 = 0.0;
    for (std::size_t k = 0; k < m; ++k) norm2 += r[k] * r[k];
    return norm2;
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
    residual_rows(C, {0, static_cast<std::size_t>(N())}, R.data(), nullptr, threads);
}

void SelfDictionary::residual_rows(const SimplexColumns& C, Range columns, double* rows, double* norms2,
                                   std::size_t threads) const
{
    const std::size_t m = static_cast<std::size_t>(M());
    parallel_for(columns.end - columns.begin, grain_for(m), threads, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t c = lo; c < hi; ++c) {
            const double norm2 = residual_column(C, columns.begin + c, rows + c * m);
            if (norms2) norms2[c] = norm2;
        }
    });
}

void SelfDictionary::gradient_tile(const SimplexColumns& C, const RowSoftmax& softmax, const std::vector<double>& shift,
                                   const double* R_columns, Range columns, Range rows, Matrix& Gt,
                                   std::size_t threads) const
{
    const std::size_t b = columns.end - columns.begin, h = rows.end - rows.begin, m = static_cast<std::size_t>(M());
    if (Gt.shape()[0] != b || Gt.shape()[1] != h) Gt = Matrix({b, h});
    // Gt = shift(rows) + R(columns, :) X(:, rows): every row starts as the shared part of lambda's term,
    // and the GEMM adds the tile of X^T (X C - X), transposed, onto it (beta = 1: OpenBLAS's beta = 0
    // pass that zeroes C took a third of the GEMM's time at N = 1000)
    parallel_for(b, grain_for(h), threads, [&](std::size_t lo, std::size_t hi) {
        for (std::size_t c = lo; c < hi; ++c) std::copy(&shift[rows.begin], &shift[rows.begin] + h, &Gt(c, 0));
    });
    blas::gemm(false, true, b, h, m, 1.0, R_columns, m, &Xt_(rows.begin, 0), m, 1.0, Gt.data(), h);
    // + lambda (Y - Y_zero) on the support of each column (Alg. 1 lines 15-16)
    if (lambda_ > 0.0)
        parallel_for(b, grain_for(h), threads, [&](std::size_t lo, std::size_t hi) {
            for (std::size_t c = lo; c < hi; ++c)
                for (const auto& e : C.columns[columns.begin + c]) {
                    const auto i = static_cast<std::size_t>(e.row);
                    if (i >= rows.begin && i < rows.end) Gt(c, i - rows.begin) += lambda_ * softmax_excess(softmax, e);
                }
        });
}

double SelfDictionary::softmax_excess(const RowSoftmax& softmax, const SimplexColumns::Entry& e) const
{
    const auto i = static_cast<std::size_t>(e.row);
    return exp_nonpositive((e.value - softmax.max[i]) / mu_) / softmax.sum[i] - softmax.zero[i];
}

void SelfDictionary::row_shift(const RowSoftmax& softmax, std::vector<double>& shift) const
{
    const double inverse_n = 1.0 / static_cast<double>(N());
    shift.assign(static_cast<std::size_t>(N()), 0.0);
    for (int64_t r : softmax.rows)
        shift[static_cast<std::size_t>(r)] = lambda_ * (softmax.zero[static_cast<std::size_t>(r)] - inverse_n);
}

SelfDictionary::Sweep SelfDictionary::sweep(const SimplexColumns& C, const Matrix* R, std::vector<int64_t>& vertex,
                                            int64_t tile_columns, std::size_t threads, SweepWork& work) const
{
    const std::size_t m = static_cast<std::size_t>(M());
    const std::size_t n = static_cast<std::size_t>(N());
    const std::size_t b = static_cast<std::size_t>(std::clamp<int64_t>(tile_columns, 1, N()));
    const std::size_t h = std::min(n, std::max<std::size_t>(256, kTileEntries / b));  // rows of G per tile
    const RowSoftmax softmax = row_softmax(C);
    row_shift(softmax, work.shift);
    vertex.assign(n, 0);
    work.gap.assign(n, 0.0);
    work.columns.resize(b);
    work.residual2.assign(R ? 0 : n, 0.0);
    for (std::size_t c0 = 0; c0 < n; c0 += b) {
        const Range columns{c0, std::min(n, c0 + b)};
        const std::size_t width = columns.end - columns.begin;
        std::fill(work.columns.begin(), work.columns.begin() + static_cast<std::ptrdiff_t>(width), ColumnScan{});
        // the block's residual rows: R's, or formed here in O(M nnz) (a sliver of the block's GEMM
        // when N is large)
        const double* R_columns = R ? &(*R)(c0, 0) : nullptr;
        if (!R) {
            if (work.Rb.shape()[0] != b || work.Rb.shape()[1] != m) work.Rb = Matrix({b, m});
            residual_rows(C, columns, work.Rb.data(), &work.residual2[c0], threads);
            R_columns = work.Rb.data();
        }
        // Alg. 1 line 17, tile by tile down the columns: the first row of smallest g_l = Gt(c, :),
        // and g_l on the support of c_l (the gap's inner product, the LMO's tie rule)
        for (std::size_t r0 = 0; r0 < n; r0 += h) {
            const Range rows{r0, std::min(n, r0 + h)};
            gradient_tile(C, softmax, work.shift, R_columns, columns, rows, work.Gt, threads);
            parallel_for(width, grain_for(rows.end - rows.begin), threads, [&](std::size_t lo, std::size_t hi) {
                for (std::size_t c = lo; c < hi; ++c) {
                    const double* g = &work.Gt(c, 0);
                    ColumnScan& scan = work.columns[c];
                    const auto [i, g_min] = first_argmin(g, rows.end - rows.begin);
                    if (g_min < scan.min) scan.argmin = r0 + i, scan.min = g_min;
                    for (const auto& e : C.columns[columns.begin + c]) {
                        const auto row = static_cast<std::size_t>(e.row);
                        if (row < rows.begin || row >= rows.end) continue;
                        const double ge = g[row - r0];
                        scan.inner += e.value * ge;
                        if (scan.support_row < 0 || ge < scan.support_min) scan.support_row = e.row, scan.support_min = ge;
                    }
                }
            });
        }
        for (std::size_t c = 0; c < width; ++c) {
            const std::size_t l = columns.begin + c;
            const ColumnScan& scan = work.columns[c];
            double mass = 0.0, fit = x_norm_[l];
            for (const auto& e : C.columns[l]) {
                mass += e.value;
                fit += e.value * x_norm_[static_cast<std::size_t>(e.row)];
            }
            // A vertex of the support that ties with the minimum up to the rounding of
            // x_n^T (X c_l - x_l) is an exact LMO answer too; preferring it keeps rounding noise
            // from adding rows to C when the column is already fitted (g_l ~ 0, Thm. 1).
            const double rounding =
                16.0 * static_cast<double>(M()) * std::numeric_limits<double>::epsilon() * x_norm_max_ * fit;
            const bool support = scan.support_row >= 0 && scan.support_min <= scan.min + rounding;
            vertex[l] = support ? scan.support_row : static_cast<int64_t>(scan.argmin < n ? scan.argmin : 0);
            // the gap <g_l, c_l> - min g_l; the dropped lambda/N shift adds lambda/N (1^T c_l - 1), zero
            // on the simplex, kept for the infeasible C = 0 start
            work.gap[l] = scan.inner - scan.min + lambda_ / static_cast<double>(n) * (mass - 1.0);
        }
    }
    const double residual2 =
        R ? blas::frobenius_dot(*R, *R) : std::accumulate(work.residual2.begin(), work.residual2.end(), 0.0);
    return {0.5 * residual2 + lambda_ * softmax.phi, std::accumulate(work.gap.begin(), work.gap.end(), 0.0)};
}

double SelfDictionary::objective(const Matrix& C) const
{
    require(C.shape()[0] == static_cast<std::size_t>(N()) && C.shape()[1] == static_cast<std::size_t>(N()),
            FACTO_ERROR_DIMENSION, "C must be " + std::to_string(N()) + " x " + std::to_string(N()));
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
    require(C.shape()[0] == static_cast<std::size_t>(N()) && C.shape()[1] == static_cast<std::size_t>(N()),
            FACTO_ERROR_DIMENSION, "iterate must be " + std::to_string(N()) + " x " + std::to_string(N()) + ", got " +
                                       std::to_string(C.shape()[0]) + " x " + std::to_string(C.shape()[1]));
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
