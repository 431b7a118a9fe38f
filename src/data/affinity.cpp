#include <algorithm>
#include <cmath>
#include <vector>

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

namespace {
// ||y_l - x_j||^2 = ||y_l||^2 + ||x_j||^2 - 2 <y_l, x_j> (m x n), the inner products from one GEMM,
// clipped at 0 (rounding).
Matrix squared_distances(const Matrix& Y, const Matrix& X)
{
    const std::size_t m = Y.shape()[0], n = X.shape()[0];
    Matrix D2({m, n});
    blas::gemm(false, true, 1.0, Y, X, 0.0, D2);
    const Vector y2 = xt::sum(xt::square(Y), {1}), x2 = xt::sum(xt::square(X), {1});
    for (std::size_t l = 0; l < m; ++l) {
        double* row = &D2(l, 0);
        for (std::size_t j = 0; j < n; ++j) row[j] = std::max(y2(l) + x2(j) - 2.0 * row[j], 0.0);
    }
    return D2;
}

// The median rule of resolve_bandwidth on the squared distances of a point set (n x n).
double median_rule(const Matrix& D2)
{
    const std::size_t n = D2.shape()[0];
    std::vector<double> pairs;
    pairs.reserve(n * (n - 1) / 2);
    for (std::size_t i = 0; i < n; ++i) pairs.insert(pairs.end(), &D2(i, 0) + i + 1, &D2(i, 0) + n);
    const auto median = [](std::vector<double>& v) {
        const auto middle = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
        std::nth_element(v.begin(), middle, v.end());
        return *middle;
    };
    double m = pairs.empty() ? 0.0 : median(pairs);
    if (m == 0.0) {  // at least half the pairs coincide: the median of the others
        pairs.erase(std::remove(pairs.begin(), pairs.end(), 0.0), pairs.end());
        m = pairs.empty() ? 4.0 : median(pairs);
    }
    return 0.25 * m;
}

void require_bandwidth(double bandwidth, bool resolved)
{
    require(std::isfinite(bandwidth) && (resolved ? bandwidth > 0.0 : bandwidth >= 0.0), FACTO_ERROR_OUT_OF_RANGE,
            std::string("bandwidth must be finite and ") + (resolved ? "> 0" : ">= 0 (0: the median rule)") + ", got " +
                value_text(bandwidth));
}

Matrix kernel(Matrix D2, double bandwidth)
{
    D2 = xt::exp(-D2 / bandwidth);
    return D2;
}
}  // namespace

double resolve_bandwidth(const Matrix& X, double bandwidth)
{
    require_bandwidth(bandwidth, false);
    if (bandwidth > 0.0) return bandwidth;
    require_finite(X, "X");
    return median_rule(squared_distances(X, X));
}

Matrix gaussian_affinity(const Matrix& X, double bandwidth)
{
    require_bandwidth(bandwidth, false);
    require_finite(X, "X");
    Matrix D2 = squared_distances(X, X);
    const double b = bandwidth > 0.0 ? bandwidth : median_rule(D2);
    Matrix P = kernel(std::move(D2), b);
    for (std::size_t i = 0; i < P.shape()[0]; ++i) P(i, i) = 1.0;
    return P;
}

Matrix gaussian_cross_affinity(const Matrix& Y, const Matrix& X, double bandwidth)
{
    require_bandwidth(bandwidth, true);
    require(Y.shape()[1] == X.shape()[1], FACTO_ERROR_DIMENSION,
            "the new points have " + std::to_string(Y.shape()[1]) + " features, the fitted ones " +
                std::to_string(X.shape()[1]));
    require_finite(Y, "the new points");
    return kernel(squared_distances(Y, X), bandwidth);
}

}  // namespace facto
