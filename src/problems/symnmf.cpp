#include "facto/symnmf.hpp"

#include <cmath>
#include <string>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "data/random.hpp"
#include "facto/error.hpp"
#include "linalg/blas.hpp"

namespace facto {

SymNMF::SymNMF(Matrix M, int64_t r) : M_(std::move(M)), r_(r)
{
    const int64_t rows = static_cast<int64_t>(M_.shape()[0]), cols = static_cast<int64_t>(M_.shape()[1]);
    require(rows == cols && rows > 0, FACTO_ERROR_DIMENSION,
            "M must be square and non-empty, got " + std::to_string(rows) + " x " + std::to_string(cols));
    require(r >= 1 && r <= rows, FACTO_ERROR_DIMENSION,
            "rank r = " + std::to_string(r) + " must satisfy 1 <= r <= n = " + std::to_string(rows));
    require_finite(M_, "M");
    require_symmetric(M_, "M");
    M_norm_ = std::sqrt(blas::frobenius_dot(M_, M_));
}

double SymNMF::objective(const Matrix& X) const
{
    require(X.shape()[0] == M_.shape()[0] && static_cast<int64_t>(X.shape()[1]) == r_, FACTO_ERROR_DIMENSION,
            "X must be " + std::to_string(n()) + " x " + std::to_string(r_));
    Matrix MX(X.shape()), XtX({X.shape()[1], X.shape()[1]});
    multiply(X, MX);
    blas::gram(X, XtX);
    return objective(X, MX, XtX);
}

Matrix SymNMF::random_point(uint64_t seed) const
{
    const double scale = 2.0 * std::sqrt(xt::mean(xt::abs(M_))() / static_cast<double>(r_));
    Rng rng(seed);
    Matrix X({M_.shape()[0], static_cast<std::size_t>(r_)});
    for (auto& x : X) x = scale * rng.uniform();
    return X;
}

Matrix SymNMF::feasible_point(const Matrix& X) const
{
    require(X.shape()[0] == M_.shape()[0] && static_cast<int64_t>(X.shape()[1]) == r_, FACTO_ERROR_DIMENSION,
            "iterate must be " + std::to_string(n()) + " x " + std::to_string(r_) + ", got " +
                std::to_string(X.shape()[0]) + " x " + std::to_string(X.shape()[1]));
    require_finite(X, "iterate");
    require(xt::amin(X)() >= 0.0, FACTO_ERROR_INFEASIBLE, "iterate: symnmf needs X >= 0");
    return X;
}

std::vector<OutputSpec> SymNMF::output_specs() const { return {labels_spec(n())}; }

Output SymNMF::output(const std::string& name, const Matrix& X) const { return labels_output(name, X); }

void SymNMF::multiply(const Matrix& X, Matrix& MX) const { blas::gemm(false, false, 1.0, M_, X, 0.0, MX); }

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
