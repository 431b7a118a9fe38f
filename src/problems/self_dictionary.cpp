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

namespace facto {

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
    if (!found) column.push_back(Entry{row, alpha});
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
    for (std::size_t l = 0; l < S.columns.size(); ++l)
        for (std::size_t k = 0; k < selected.size(); ++k)
            if (Ht(l, k) > 0.0) S.columns[l].push_back(Entry{selected[k], Ht(l, k)});
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
        // Sec. V-B: SPA picks K columns, C0(picks, :) = H from the simplex-constrained least squares
        SuccessiveProjection spa(Xt_);
        for (int64_t k = 0; k < K_; ++k) spa.next();
        warm_start_ =
            SimplexColumns::from_selected(spa.selected(), simplex_least_squares(Xt_, spa.selected(), resolve_threads(0)));
    }
    if (lambda_ < 0.0) lambda_ = std::sqrt(residual_squared(warm_start_)) / static_cast<double>(K_);  // Sec. V-A
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
            s.sum[i] = static_cast<double>(static_cast<int64_t>(n) - count[i]) * std::exp(-s.max[i] / mu_);
        }
    for (const auto& column : C.columns)
        for (const auto& e : column) {
            const auto i = static_cast<std::size_t>(e.row);
            s.sum[i] += std::exp((e.value - s.max[i]) / mu_);
        }
    for (int64_t r : s.rows) {
        const auto i = static_cast<std::size_t>(r);
        s.zero[i] = std::exp(-s.max[i] / mu_) / s.sum[i];
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

double SelfDictionary::gradient_block(const SimplexColumns& C, const RowSoftmax& softmax, int64_t begin, int64_t end,
                                      Matrix& Gt, Matrix& Rt) const
{
    const std::size_t b = static_cast<std::size_t>(end - begin);
    const double inverse_n = 1.0 / static_cast<double>(N());
    if (Rt.shape()[0] != b || Rt.shape()[1] != static_cast<std::size_t>(M()))
        Rt = Matrix({b, static_cast<std::size_t>(M())});
    if (Gt.shape()[0] != b || Gt.shape()[1] != static_cast<std::size_t>(N()))
        Gt = Matrix({b, static_cast<std::size_t>(N())});
    // Rt(l, :) = (X c_l - x_l)^T (Alg. 1 line 14, inner product)
    double residual2 = 0.0;
    for (std::size_t c = 0; c < b; ++c) residual2 += residual_column(C, static_cast<std::size_t>(begin) + c, &Rt(c, 0));
    // Gt = Rt X (block x N): the block's columns of X^T (X C - X), one GEMM
    blas::gemm(false, true, 1.0, Rt, Xt_, 0.0, Gt);
    // + lambda (Y - 1/N) (Alg. 1 lines 15-16); Y = 1/N on rows of C without a nonzero
    if (lambda_ > 0.0)
        for (std::size_t c = 0; c < b; ++c) {
            const std::size_t l = static_cast<std::size_t>(begin) + c;
            double* g = &Gt(c, 0);
            for (int64_t r : softmax.rows) g[r] += lambda_ * (softmax.zero[static_cast<std::size_t>(r)] - inverse_n);
            for (const auto& e : C.columns[l]) {
                const auto i = static_cast<std::size_t>(e.row);
                const double y = std::exp((e.value - softmax.max[i]) / mu_) / softmax.sum[i];
                g[i] += lambda_ * (y - softmax.zero[i]);
            }
        }
    return residual2;
}

SelfDictionary::Sweep SelfDictionary::sweep(const SimplexColumns& C, std::vector<int64_t>& vertex, int64_t block,
                                            std::size_t threads, SweepWork& work) const
{
    const std::size_t n = static_cast<std::size_t>(N());
    const std::size_t b = static_cast<std::size_t>(std::clamp<int64_t>(block, 1, N()));
    const RowSoftmax softmax = row_softmax(C);
    vertex.assign(n, 0);
    std::vector<double>& gap = work.gap;
    gap.assign(n, 0.0);
    double residual2 = 0.0;
    for (std::size_t begin = 0; begin < n; begin += b) {
        const std::size_t end = std::min(n, begin + b);
        residual2 += gradient_block(C, softmax, static_cast<int64_t>(begin), static_cast<int64_t>(end), work.Gt, work.Rt);
        const Matrix& Gt = work.Gt;
        // Alg. 1 line 17 and the gap <g_l, c_l> - min g_l (the dropped lambda/N shift adds
        // lambda/N (1^T c_l - 1), zero on the simplex, kept for the infeasible C = 0 start)
        parallel_for(end - begin, 16, threads, [&](std::size_t lo, std::size_t hi) {
            for (std::size_t c = lo; c < hi; ++c) {
                const std::size_t l = begin + c;
                const double* g = &Gt(c, 0);
                const std::size_t j = static_cast<std::size_t>(std::min_element(g, g + n) - g);
                double inner = 0.0, mass = 0.0, fit = x_norm_[l];
                int64_t best = -1;  // the support's smallest gradient entry
                for (const auto& e : C.columns[l]) {
                    inner += e.value * g[e.row];
                    mass += e.value;
                    fit += e.value * x_norm_[static_cast<std::size_t>(e.row)];
                    if (best < 0 || g[e.row] < g[best]) best = e.row;
                }
                // A vertex of the support that ties with the minimum up to the rounding of
                // x_n^T (X c_l - x_l) is an exact LMO answer too; preferring it keeps rounding noise
                // from adding rows to C when the column is already fitted (g_l ~ 0, Thm. 1).
                const double rounding = 16.0 * static_cast<double>(M()) * std::numeric_limits<double>::epsilon() *
                                        x_norm_max_ * fit;
                vertex[l] = best >= 0 && g[best] <= g[j] + rounding ? best : static_cast<int64_t>(j);
                gap[l] = inner - g[j] + lambda_ / static_cast<double>(n) * (mass - 1.0);
            }
        });
    }
    return {0.5 * residual2 + lambda_ * softmax.phi, std::accumulate(gap.begin(), gap.end(), 0.0)};
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

const SimplexColumns& SelfDictionary::warm_start() const
{
    require(K_ > 0, FACTO_ERROR_INVALID_ARGUMENT, "the SPA warm start needs K");
    return warm_start_;
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
