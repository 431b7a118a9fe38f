#include <cmath>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xview.hpp>

#include "data/data.hpp"
#include "base/error.hpp"
#include "linalg/blas.hpp"

namespace facto {

void scale_columns(Matrix& X, Scaling scaling)
{
    if (scaling == Scaling::None) return;
    const std::size_t n = X.shape()[0];
    for (std::size_t j = 0; j < X.shape()[1]; ++j) {
        auto column = xt::view(X, xt::all(), j);
        if (scaling == Scaling::MinMax) {
            const double lo = xt::amin(column)(), hi = xt::amax(column)();
            if (hi > lo)
                column = 2.0 * (column - lo) / (hi - lo) - 1.0;
            else
                column.fill(0.0);
        } else {
            const double mean = xt::mean(column)();
            const double sd = std::sqrt(xt::sum(xt::square(column - mean))() / static_cast<double>(n));
            if (sd > 0.0)
                column = (column - mean) / sd;
            else
                column.fill(0.0);
        }
    }
}

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

}  // namespace facto
