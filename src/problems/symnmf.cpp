#include "problems/symnmf.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "base/random.hpp"
#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"

namespace facto {

namespace {
// g = 2 (g - mx) on n entries; returns the sum of the stationarity terms min(x, g)^2.
double subtract_twice(const double* __restrict x, const double* __restrict mx, double* __restrict g, std::size_t n)
{
    double lanes[kPassLanes] = {};
    for_lanes(0, n, [&](std::size_t i, std::size_t lane) {
        g[i] = 2.0 * (g[i] - mx[i]);
        lanes[lane] += stationarity_term(true, x[i], g[i]);
    });
    return lanes_sum(lanes);
}
}  // namespace

SymNMF::SymNMF(Matrix M, int64_t r)
    : M_(std::move(M)), sparse_(false), n_(static_cast<int64_t>(M_.shape()[0])), r_(r)
{
    const int64_t cols = static_cast<int64_t>(M_.shape()[1]);
    require(n_ == cols && n_ > 0, FACTO_ERROR_DIMENSION,
            "M must be square and non-empty, got " + std::to_string(n_) + " x " + std::to_string(cols));
    validate_rank();
    require_finite(M_, "M");
    require_symmetric(M_, "M");
    M_norm_ = std::sqrt(blas::frobenius_dot(M_, M_));
}

SymNMF::SymNMF(CsrMatrix M, int64_t r) : sparse_M_(std::move(M)), sparse_(true), n_(sparse_M_.rows), r_(r)
{
    require(sparse_M_.rows == sparse_M_.cols && n_ > 0, FACTO_ERROR_DIMENSION,
            "M must be square and non-empty, got " + std::to_string(sparse_M_.rows) + " x " +
                std::to_string(sparse_M_.cols));
    validate_rank();
    require_symmetric(sparse_M_, "M");  // finiteness was checked when the CSR matrix was built
    M_norm_ = std::sqrt(frobenius_norm_squared(sparse_M_));
}

void SymNMF::validate_rank() const { require_rank_and_memory(n_, r_); }

void SymNMF::require_rank_and_memory(int64_t n, int64_t r)
{
    require(r >= 1 && r <= n, FACTO_ERROR_DIMENSION,
            "rank r = " + std::to_string(r) + " must satisfy 1 <= r <= n = " + std::to_string(n));
    // a solver's n x r arrays (iterate, M X, gradient, steps): eight of them at most
    require_memory(64.0 * static_cast<double>(n) * static_cast<double>(r),
                   "symnmf with n = " + std::to_string(n) + ", r = " + std::to_string(r));
}

double SymNMF::objective(const Matrix& X) const
{
    require_shape(X, n_, r_, "X");
    Evaluation e;
    return evaluate(X, e, 1);
}

Matrix SymNMF::random_point(uint64_t seed) const
{
    double sum_abs = 0.0;
    if (sparse_)
        for (double v : sparse_M_.values) sum_abs += std::fabs(v);
    else
        sum_abs = xt::sum(xt::abs(M_))();
    const double mean_abs = sum_abs / (static_cast<double>(n_) * static_cast<double>(n_));
    const double scale = 2.0 * std::sqrt(mean_abs / static_cast<double>(r_));
    Rng rng(seed);
    Matrix X({static_cast<std::size_t>(n_), static_cast<std::size_t>(r_)});
    for (auto& x : X) x = scale * rng.uniform();
    return X;
}

Matrix SymNMF::feasible_point(const Matrix& X) const
{
    require_shape(X, n_, r_, "iterate");
    require_finite(X, "iterate");
    require(xt::amin(X)() >= 0.0, FACTO_ERROR_INFEASIBLE, "iterate: symnmf needs X >= 0");
    return X;
}

std::vector<OutputSpec> SymNMF::output_specs() const { return {labels_spec(n())}; }

Output SymNMF::output(const std::string& name, const Matrix& X) const { return labels_output(name, X); }

void SymNMF::multiply(const Matrix& X, Matrix& MX, std::size_t threads) const
{
    if (sparse_)
        spmm(sparse_M_, X, MX, threads);
    else
        blas::gemm(false, false, 1.0, M_, X, 0.0, MX);
}

void SymNMF::multiply_row(int64_t i, const Matrix& X, double* out) const
{
    const std::size_t r = X.shape()[1];
    std::fill(out, out + r, 0.0);
    if (sparse_) {
        for (int64_t p = sparse_M_.indptr[i]; p < sparse_M_.indptr[i + 1]; ++p) {
            const double m = sparse_M_.values[p];
            const double* x = &X(static_cast<std::size_t>(sparse_M_.indices[p]), 0);
            for (std::size_t k = 0; k < r; ++k) out[k] += m * x[k];
        }
    } else {
        const auto ui = static_cast<std::size_t>(i);
        for (std::size_t j = 0; j < static_cast<std::size_t>(n_); ++j) {
            const double m = M_(ui, j);
            const double* x = &X(j, 0);
            for (std::size_t k = 0; k < r; ++k) out[k] += m * x[k];
        }
    }
}

double SymNMF::diagonal(int64_t i) const
{
    if (!sparse_) return M_(static_cast<std::size_t>(i), static_cast<std::size_t>(i));
    const auto begin = sparse_M_.indices.begin() + sparse_M_.indptr[i];
    const auto end = sparse_M_.indices.begin() + sparse_M_.indptr[i + 1];
    const auto it = std::lower_bound(begin, end, i);
    return it != end && *it == i ? sparse_M_.values[static_cast<std::size_t>(it - sparse_M_.indices.begin())] : 0.0;
}

double SymNMF::evaluate(const Matrix& X, Evaluation& e, std::size_t threads) const
{
    if (e.first.shape() != X.shape()) e.first = Matrix(X.shape());
    multiply(X, e.first, threads);
    return evaluate_given_product(X, e, threads);
}

double SymNMF::evaluate_given_product(const Matrix& X, Evaluation& e, std::size_t threads) const
{
    const std::size_t r = X.shape()[1];
    if (e.second.shape()[0] != r || e.second.shape()[1] != r) e.second = Matrix({r, r});
    blas::gram(X, e.second, threads);
    // eq. (37), halved: f = 1/2 (||M||^2 - 2 <MX, X> + ||X^T X||^2)
    return 0.5 * (M_norm_ * M_norm_ - 2.0 * blas::frobenius_dot(e.first, X) + blas::frobenius_dot(e.second, e.second));
}

double SymNMF::gradient(const Matrix& X, const Evaluation& e, Matrix& G, std::size_t threads) const
{
    // grad f = 2 (X X^T - M) X = 2 (X (X^T X) - M X): X (X^T X), then one pass that doubles it,
    // subtracts 2 M X and sums the stationarity measure.
    blas::times_small(X, e.second, G, threads);
    const auto sum = parallel_sums<1>(X.size(), kPassChunk, kPassGrain, threads, [&](std::size_t begin, std::size_t end, auto& s) {
        s[0] += subtract_twice(X.data() + begin, e.first.data() + begin, G.data() + begin, end - begin);
    });
    return std::sqrt(sum[0]);
}

void SymNMF::add_linear_product(const std::vector<MatrixEntry>& D, double scale, Matrix& out) const
{
    // column k of M D gains D_jk M(:, j) = D_jk M(j, :)^T (M is symmetric)
    const std::size_t r = out.shape()[1];
    double* o = out.data();
    for (const MatrixEntry& d : D) {
        const std::size_t j = d.index / r, k = d.index % r;
        const double v = scale * d.value;
        if (sparse_) {
            for (int64_t p = sparse_M_.indptr[j]; p < sparse_M_.indptr[j + 1]; ++p)
                o[static_cast<std::size_t>(sparse_M_.indices[static_cast<std::size_t>(p)]) * r + k] +=
                    v * sparse_M_.values[static_cast<std::size_t>(p)];
        } else {
            const double* m = &M_(j, 0);
            for (std::size_t i = 0; i < static_cast<std::size_t>(n_); ++i) o[i * r + k] += v * m[i];
        }
    }
}

}  // namespace facto
