#include "linalg/symmetric_operator.hpp"

#include <algorithm>
#include <cmath>

#include <xtensor/xmath.hpp>

#include "linalg/blas.hpp"

namespace facto {

int64_t SymmetricOperator::n() const
{
    if (const auto* s = std::get_if<CsrMatrix>(&storage_)) return s->rows;
    return static_cast<int64_t>(std::get<Matrix>(storage_).shape()[0]);
}

double SymmetricOperator::frobenius_norm_squared() const
{
    if (const auto* s = std::get_if<CsrMatrix>(&storage_)) return facto::frobenius_norm_squared(*s);
    const Matrix& M = std::get<Matrix>(storage_);
    return blas::frobenius_dot(M, M);
}

double SymmetricOperator::sum_abs() const
{
    if (const auto* s = std::get_if<CsrMatrix>(&storage_)) return facto::sum_abs(*s);
    return xt::sum(xt::abs(std::get<Matrix>(storage_)))();
}

void SymmetricOperator::multiply(const Matrix& X, Matrix& Y, std::size_t threads) const
{
    if (const auto* s = std::get_if<CsrMatrix>(&storage_))
        spmm(*s, X, Y, threads);
    else
        blas::gemm(false, false, 1.0, std::get<Matrix>(storage_), X, 0.0, Y);
}

void SymmetricOperator::multiply_row(int64_t i, const Matrix& X, double* out) const
{
    const std::size_t r = X.shape()[1];
    std::fill(out, out + r, 0.0);
    if (const auto* s = std::get_if<CsrMatrix>(&storage_)) {
        for (int64_t p = s->indptr[i]; p < s->indptr[i + 1]; ++p) {
            const double m = s->values[p];
            const double* x = &X(static_cast<std::size_t>(s->indices[p]), 0);
            for (std::size_t k = 0; k < r; ++k) out[k] += m * x[k];
        }
        return;
    }
    const Matrix& M = std::get<Matrix>(storage_);
    const auto ui = static_cast<std::size_t>(i);
    for (std::size_t j = 0; j < M.shape()[1]; ++j) {
        const double m = M(ui, j);
        const double* x = &X(j, 0);
        for (std::size_t k = 0; k < r; ++k) out[k] += m * x[k];
    }
}

double SymmetricOperator::diagonal(int64_t i) const
{
    const auto* s = std::get_if<CsrMatrix>(&storage_);
    if (!s) return std::get<Matrix>(storage_)(static_cast<std::size_t>(i), static_cast<std::size_t>(i));
    const auto begin = s->indices.begin() + s->indptr[i];
    const auto end = s->indices.begin() + s->indptr[i + 1];
    const auto it = std::lower_bound(begin, end, i);
    return it != end && *it == i ? s->values[static_cast<std::size_t>(it - s->indices.begin())] : 0.0;
}

void SymmetricOperator::add_column(std::size_t j, double v, std::size_t k, double* out, std::size_t r) const
{
    if (const auto* s = std::get_if<CsrMatrix>(&storage_)) {
        for (int64_t p = s->indptr[j]; p < s->indptr[j + 1]; ++p)
            out[static_cast<std::size_t>(s->indices[static_cast<std::size_t>(p)]) * r + k] +=
                v * s->values[static_cast<std::size_t>(p)];
        return;
    }
    const Matrix& M = std::get<Matrix>(storage_);
    const double* m = &M(j, 0);
    for (std::size_t i = 0; i < M.shape()[1]; ++i) out[i * r + k] += v * m[i];
}

}  // namespace facto
