#include "facto/symnmf.hpp"

#include <cmath>
#include <string>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "data/random.hpp"
#include "facto/error.hpp"
#include "linalg/blas.hpp"

namespace facto {

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

void SymNMF::validate_rank() const
{
    require(r_ >= 1 && r_ <= n_, FACTO_ERROR_DIMENSION,
            "rank r = " + std::to_string(r_) + " must satisfy 1 <= r <= n = " + std::to_string(n_));
}

double SymNMF::objective(const Matrix& X) const
{
    require(static_cast<int64_t>(X.shape()[0]) == n_ && static_cast<int64_t>(X.shape()[1]) == r_,
            FACTO_ERROR_DIMENSION, "X must be " + std::to_string(n_) + " x " + std::to_string(r_));
    Matrix MX(X.shape()), XtX({X.shape()[1], X.shape()[1]});
    multiply(X, MX);
    blas::gram(X, XtX);
    return objective(X, MX, XtX);
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
    require(static_cast<int64_t>(X.shape()[0]) == n_ && static_cast<int64_t>(X.shape()[1]) == r_,
            FACTO_ERROR_DIMENSION, "iterate must be " + std::to_string(n_) + " x " + std::to_string(r_) + ", got " +
                std::to_string(X.shape()[0]) + " x " + std::to_string(X.shape()[1]));
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

double SymNMF::objective(const Matrix& X, const Matrix& MX, const Matrix& XtX) const
{
    // eq. (37), halved: f = 1/2 (||M||^2 - 2 <MX, X> + ||X^T X||^2)
    return 0.5 * (M_norm_ * M_norm_ - 2.0 * blas::frobenius_dot(MX, X) + blas::frobenius_dot(XtX, XtX));
}

void SymNMF::gradient(const Matrix& X, const Matrix& MX, const Matrix& XtX, Matrix& G) const
{
    // grad f = 2 (X X^T - M) X = 2 (X (X^T X) - M X)
    xt::noalias(G) = -2.0 * MX;
    blas::gemm(false, false, 2.0, X, XtX, 1.0, G);
}

}  // namespace facto
