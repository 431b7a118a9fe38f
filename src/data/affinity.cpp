#include <cmath>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xview.hpp>

#include "data/data.hpp"
#include "base/error.hpp"
#include "linalg/blas.hpp"

namespace facto {

ColumnScaling column_scaling(const Matrix& X, Scaling scaling)
{
    const std::size_t n = X.shape()[0], p = X.shape()[1];
    ColumnScaling s{scaling, Vector({p}, 0.0), Vector({p}, 0.0)};
    if (scaling == Scaling::None) return s;
    for (std::size_t j = 0; j < p; ++j) {
        const auto column = xt::view(X, xt::all(), j);
        if (scaling == Scaling::MinMax) {
            s.first(j) = xt::amin(column)();
            s.second(j) = xt::amax(column)();
        } else {
            const double mean = xt::mean(column)();
            s.first(j) = mean;
            s.second(j) = std::sqrt(xt::sum(xt::square(column - mean))() / static_cast<double>(n));
        }
    }
    return s;
}

void scale_columns(Matrix& X, const ColumnScaling& s)
{
    if (s.scaling == Scaling::None) return;
    require(X.shape()[1] == s.first.size(), FACTO_ERROR_DIMENSION,
            "the rows to scale have " + std::to_string(X.shape()[1]) + " columns, the scaling was learnt on " +
                std::to_string(s.first.size()));
    for (std::size_t j = 0; j < X.shape()[1]; ++j) {
        auto column = xt::view(X, xt::all(), j);
        if (s.scaling == Scaling::MinMax) {
            const double lo = s.first(j), hi = s.second(j);
            if (hi > lo)
                column = 2.0 * (column - lo) / (hi - lo) - 1.0;
            else
                column.fill(0.0);
        } else {
            const double mean = s.first(j), sd = s.second(j);
            if (sd > 0.0)
                column = (column - mean) / sd;
            else
                column.fill(0.0);
        }
    }
}

void scale_columns(Matrix& X, Scaling scaling) { scale_columns(X, column_scaling(X, scaling)); }

Matrix gaussian_affinity(const Matrix& X, double bandwidth)
{
    require(std::isfinite(bandwidth) && bandwidth > 0.0, FACTO_ERROR_OUT_OF_RANGE,
            "bandwidth must be positive and finite, got " + value_text(bandwidth));
    require_finite(X, "X");
    const std::size_t n = X.shape()[0];
    // ||x_i - x_j||^2 = ||x_i||^2 + ||x_j||^2 - 2 <x_i, x_j>, the inner products from one GEMM.
    Matrix P({n, n});
    blas::gemm(false, true, 1.0, X, X, 0.0, P);
    const Vector squared_norms = xt::diagonal(P);
    for (std::size_t i = 0; i < n; ++i) {
        double* row = &P(i, 0);
        for (std::size_t j = 0; j < n; ++j) {
            const double d2 = std::max(squared_norms(i) + squared_norms(j) - 2.0 * row[j], 0.0);
            row[j] = std::exp(-d2 / bandwidth);
        }
        row[i] = 1.0;
    }
    return P;
}

Matrix gaussian_cross_affinity(const Matrix& Y, const Matrix& X, double bandwidth)
{
    require(std::isfinite(bandwidth) && bandwidth > 0.0, FACTO_ERROR_OUT_OF_RANGE,
            "bandwidth must be positive and finite, got " + value_text(bandwidth));
    require(Y.shape()[1] == X.shape()[1], FACTO_ERROR_DIMENSION,
            "the new points have " + std::to_string(Y.shape()[1]) + " features, the fitted ones " +
                std::to_string(X.shape()[1]));
    require_finite(Y, "the new points");
    const std::size_t m = Y.shape()[0], n = X.shape()[0];
    // ||y_l - x_j||^2 = ||y_l||^2 + ||x_j||^2 - 2 <y_l, x_j>, the inner products from one GEMM.
    Matrix P({m, n});
    blas::gemm(false, true, 1.0, Y, X, 0.0, P);
    const Vector y2 = xt::sum(xt::square(Y), {1}), x2 = xt::sum(xt::square(X), {1});
    for (std::size_t l = 0; l < m; ++l) {
        double* row = &P(l, 0);
        for (std::size_t j = 0; j < n; ++j) row[j] = std::exp(-std::max(y2(l) + x2(j) - 2.0 * row[j], 0.0) / bandwidth);
    }
    return P;
}

}  // namespace facto
