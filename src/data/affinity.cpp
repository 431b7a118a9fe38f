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

ColumnScaling column_scaling(const Matrix& X, Scaling scaling) { return column_scaling(rows_of(X), scaling); }

ColumnScaling column_scaling(const DenseRows& X, Scaling scaling)
{
    ColumnScaling s{scaling, Vector({X.p}, 0.0), Vector({X.p}, 0.0)};
    if (scaling == Scaling::None || X.p == 0) return s;  // (no loop over the rows of a (10^15, 0) matrix)
    if (scaling == Scaling::MinMax) {
        for (std::size_t i = 0; i < X.n; ++i)  // row by row: the rows are read in the order they lie
            for (std::size_t j = 0; j < X.p; ++j) {
                s.first(j) = i == 0 ? X(i, j) : std::min(s.first(j), X(i, j));
                s.second(j) = i == 0 ? X(i, j) : std::max(s.second(j), X(i, j));
            }
        return s;
    }
    for (std::size_t i = 0; i < X.n; ++i)
        for (std::size_t j = 0; j < X.p; ++j) s.first(j) += X(i, j);
    s.first /= static_cast<double>(X.n);
    for (std::size_t i = 0; i < X.n; ++i)
        for (std::size_t j = 0; j < X.p; ++j) s.second(j) += (X(i, j) - s.first(j)) * (X(i, j) - s.first(j));
    s.second = xt::sqrt(s.second / static_cast<double>(X.n));
    return s;
}

namespace {

// Column c's map x -> (x - origin) * factor + shift: MinMax's [low, high] to [-1, 1], ZScore's (x -
// mean) / sd, a constant column to 0.
struct ColumnMap {
    double origin, factor, shift;
};

ColumnMap column_map(const ColumnScaling& s, std::size_t c)
{
    const double a = s.first(c), b = s.second(c);
    if (s.scaling == Scaling::MinMax) return b > a ? ColumnMap{a, 2.0 / (b - a), -1.0} : ColumnMap{0.0, 0.0, 0.0};
    return b > 0.0 ? ColumnMap{a, 1.0 / b, 0.0} : ColumnMap{0.0, 0.0, 0.0};
}

}  // namespace

ScaledRows::ScaledRows(const DenseRows& X, const ColumnScaling* scaling) : rows(X)
{
    if (!scaling || scaling->scaling == Scaling::None) return;
    require(scaling->first.size() == X.p, FACTO_ERROR_DIMENSION,
            "the rows to scale have " + std::to_string(X.p) + " columns, the scaling was learnt on " +
                std::to_string(scaling->first.size()));
    for (std::size_t c = 0; c < X.p; ++c) {
        const ColumnMap map = column_map(*scaling, c);
        origin.push_back(map.origin);
        factor.push_back(map.factor);
        shift.push_back(map.shift);
    }
}

void scale_columns(Matrix& X, const ColumnScaling& s)
{
    const ScaledRows scaled(rows_of(X), &s);  // each value read, then overwritten by its scaled value
    if (!scaled.scaled()) return;
    for (std::size_t i = 0; i < X.shape()[0]; ++i)
        for (std::size_t j = 0; j < X.shape()[1]; ++j) X(i, j) = scaled(i, j);
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
