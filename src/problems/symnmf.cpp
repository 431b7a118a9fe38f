#include "problems/symnmf.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "base/random.hpp"
#include "base/error.hpp"
#include "linalg/blas.hpp"
#include "linalg/nonnegative_least_squares.hpp"
#include "linalg/parallel.hpp"
#include "linalg/sparse.hpp"

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

namespace {
// M validated (square and non-empty, then the rank, then finite, symmetric to 1e-10 relative;
// symmetrized exactly).
Matrix validated(Matrix M, int64_t r)
{
    const int64_t rows = static_cast<int64_t>(M.shape()[0]), cols = static_cast<int64_t>(M.shape()[1]);
    require(rows == cols && rows > 0, FACTO_ERROR_DIMENSION,
            "M must be square and non-empty, got " + std::to_string(rows) + " x " + std::to_string(cols));
    SymNMF::require_rank_and_memory(rows, r);
    require_finite(M, "M");
    require_symmetric(M, "M");
    return M;
}

// Sparse M validated (square and non-empty, then the rank, then every stored entry mirrored; finiteness
// was checked when the CSR matrix was built).
CsrMatrix validated(CsrMatrix M, int64_t r)
{
    require(M.rows == M.cols && M.rows > 0, FACTO_ERROR_DIMENSION,
            "M must be square and non-empty, got " + std::to_string(M.rows) + " x " + std::to_string(M.cols));
    SymNMF::require_rank_and_memory(M.rows, r);
    require_symmetric(M, "M");
    return M;
}
}  // namespace

SymNMF::SymNMF(Matrix M, int64_t r) : SymNMF(SymmetricOperator(validated(std::move(M), r)), r) {}

SymNMF::SymNMF(CsrMatrix M, int64_t r) : SymNMF(SymmetricOperator(validated(std::move(M), r)), r) {}

SymNMF::SymNMF(SymmetricOperator M, int64_t r)
    : M_(std::move(M)), n_(M_.n()), r_(r), M_norm_(std::sqrt(M_.frobenius_norm_squared()))
{
}

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

Matrix symnmf_random_point(int64_t n, int64_t r, double mean_abs, uint64_t seed, int64_t first, int64_t rows)
{
    const double scale = 2.0 * std::sqrt(mean_abs / static_cast<double>(r));
    Rng rng(seed);
    for (int64_t k = 0; k < first * r; ++k) rng.uniform();  // the draws of the rows before `first`
    Matrix X({static_cast<std::size_t>(rows < 0 ? n : rows), static_cast<std::size_t>(r)});
    for (auto& x : X) x = scale * rng.uniform();
    return X;
}

Matrix SymNMF::random_point(uint64_t seed) const
{
    return symnmf_random_point(n_, r_, M_.sum_abs() / (static_cast<double>(n_) * static_cast<double>(n_)), seed);
}

Matrix SymNMF::feasible_point(const Matrix& X) const
{
    require_shape(X, n_, r_, "iterate");
    return set().feasible_point(X, "symnmf");
}

std::vector<OutputSpec> SymNMF::output_specs() const { return {labels_spec(n())}; }

Output SymNMF::output(const std::string& name, const Matrix& X) const { return labels_output(name, X); }

double SymNMF::evaluate(const Matrix& X, Evaluation& e, std::size_t threads) const
{
    if (e.first.shape() != X.shape()) e.first = Matrix(X.shape());
    M_.multiply(X, e.first, threads);
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

double symnmf_gradient_terms(const Matrix& X, const Matrix& MX, const Matrix& XtX, Matrix& G, std::size_t threads)
{
    // grad f = 2 (X X^T - M) X = 2 (X (X^T X) - M X): X (X^T X), then one pass that doubles it,
    // subtracts 2 M X and sums the stationarity measure.
    blas::times_small(X, XtX, G, threads);
    const auto sum = parallel_sums<1>(X.size(), kPassChunk, kPassGrain, threads, [&](std::size_t begin, std::size_t end, auto& s) {
        s[0] += subtract_twice(X.data() + begin, MX.data() + begin, G.data() + begin, end - begin);
    });
    return sum[0];
}

double SymNMF::gradient(const Matrix& X, const Evaluation& e, Matrix& G, std::size_t threads) const
{
    return std::sqrt(symnmf_gradient_terms(X, e.first, e.second, G, threads));
}

void SymNMF::add_linear_product(const std::vector<MatrixEntry>& D, double scale, Matrix& out) const
{
    // column k of M D gains D_jk M(:, j) = D_jk M(j, :)^T (M is symmetric)
    const std::size_t r = out.shape()[1];
    double* o = out.data();
    for (const MatrixEntry& d : D) {
        const std::size_t j = d.index / r, k = d.index % r;
        M_.add_column(j, scale * d.value, k, o, r);
    }
}

namespace {

// The rows of new points from MX = M_new X (m x r, row l = X^T m_l): row l minimizes ||m_l - X h||
// over h >= 0, by block principal pivoting on X^T X.
Matrix nonnegative_rows(const Matrix& X, const Matrix& MX)
{
    const std::size_t r = X.shape()[1];
    Matrix G({r, r});
    blas::gemm(true, false, 1.0, X, X, 0.0, G);  // X^T X
    const Matrix B = xt::transpose(MX);         // column l: X^T m_l
    Matrix H = xt::zeros<double>({r, MX.shape()[0]});
    nonnegative_least_squares_exact(G, B, H);
    return xt::transpose(H);
}

void require_new_similarities(const Matrix& X, int64_t columns)
{
    require(columns == static_cast<int64_t>(X.shape()[0]), FACTO_ERROR_DIMENSION,
            "the new points' similarities must have one column per fitted point (" + std::to_string(X.shape()[0]) +
                "), got " + std::to_string(columns));
    require_finite(X, "X");
}

}  // namespace

Matrix SymNMF::apply(const Matrix& X, const Matrix& M_new)
{
    require_new_similarities(X, static_cast<int64_t>(M_new.shape()[1]));
    require_finite(M_new, "M_new");
    Matrix MX({M_new.shape()[0], X.shape()[1]});
    blas::gemm(false, false, 1.0, M_new, X, 0.0, MX);
    return nonnegative_rows(X, MX);
}

Matrix SymNMF::apply(const Matrix& X, const CsrMatrix& M_new)
{
    require_new_similarities(X, M_new.cols);  // M_new's values are finite by construction (csr_from_*)
    Matrix MX({static_cast<std::size_t>(M_new.rows), X.shape()[1]});
    spmm(M_new, X, MX, 1);
    return nonnegative_rows(X, MX);
}

}  // namespace facto
