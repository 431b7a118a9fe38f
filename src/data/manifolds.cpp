// The synthetic manifolds of [TSC] (Sec. 3, Figs. 1, 4, 5, 9) and
// the Gram matrix NOMAD takes as input.
#include <algorithm>
#include <cmath>
#include <string>

#include "base/collectives.hpp"
#include "base/random.hpp"
#include "data/data.hpp"
#include "base/error.hpp"
#include "linalg/blas.hpp"

namespace facto {

namespace {

constexpr double kTwoPi = 6.283185307179586;

void add_noise(Matrix& X, double noise, uint64_t seed)
{
    require(noise >= 0.0 && std::isfinite(noise), FACTO_ERROR_INVALID_ARGUMENT,
            "noise must be finite and >= 0, got " + value_text(noise));
    if (noise == 0.0) return;
    Rng rng(seed);
    for (double& x : X) x += noise * rng.normal();
}

void require_points(int64_t n, int64_t at_least, const char* what)
{
    require(n >= at_least, FACTO_ERROR_DIMENSION,
            std::string(what) + ": n must be >= " + std::to_string(at_least) + ", got " + std::to_string(n));
}

}  // namespace

LabeledPoints two_rings(int64_t n, double factor, double noise, uint64_t seed)
{
    require_points(n, 2, "two_rings");
    require(factor > 0.0 && factor < 1.0, FACTO_ERROR_INVALID_ARGUMENT,
            "two_rings: factor must be in (0, 1), got " + value_text(factor));
    // n / 2 points evenly spaced on the unit circle, the rest on the circle of radius `factor`
    const std::size_t outer = static_cast<std::size_t>(n) / 2, inner = static_cast<std::size_t>(n) - outer;
    LabeledPoints p{Matrix({static_cast<std::size_t>(n), 2}), std::vector<int64_t>(static_cast<std::size_t>(n))};
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
        const bool is_outer = i < outer;
        const std::size_t k = is_outer ? i : i - outer, count = is_outer ? outer : inner;
        const double t = kTwoPi * static_cast<double>(k) / static_cast<double>(count), r = is_outer ? 1.0 : factor;
        p.X(i, 0) = r * std::cos(t);
        p.X(i, 1) = r * std::sin(t);
        p.labels[i] = is_outer ? 0 : 1;
    }
    add_noise(p.X, noise, seed);
    return p;
}

LabeledPoints trefoil_knot(int64_t n)
{
    require_points(n, 1, "trefoil_knot");
    LabeledPoints p{Matrix({static_cast<std::size_t>(n), 3}), std::vector<int64_t>(static_cast<std::size_t>(n), 0)};
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
        const double t = kTwoPi * static_cast<double>(i) / static_cast<double>(n);
        p.X(i, 0) = std::sin(t) + 2.0 * std::sin(2.0 * t);
        p.X(i, 1) = std::cos(t) - 2.0 * std::cos(2.0 * t);
        p.X(i, 2) = -std::sin(3.0 * t);
    }
    return p;
}

LabeledPoints two_moons(int64_t n, double noise, uint64_t seed)
{
    require_points(n, 2, "two_moons");
    // n / 2 points on the upper unit semicircle, the rest on the lower one shifted by (1, -1/2),
    // each evenly spaced in angle over [0, pi]
    const std::size_t upper = static_cast<std::size_t>(n) / 2, lower = static_cast<std::size_t>(n) - upper;
    LabeledPoints p{Matrix({static_cast<std::size_t>(n), 2}), std::vector<int64_t>(static_cast<std::size_t>(n))};
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
        const bool is_upper = i < upper;
        const std::size_t k = is_upper ? i : i - upper, count = is_upper ? upper : lower;
        const double t = count > 1 ? 0.5 * kTwoPi * static_cast<double>(k) / static_cast<double>(count - 1) : 0.0;
        p.X(i, 0) = is_upper ? std::cos(t) : 1.0 - std::cos(t);
        p.X(i, 1) = is_upper ? std::sin(t) : 0.5 - std::sin(t);
        p.labels[i] = is_upper ? 0 : 1;
    }
    add_noise(p.X, noise, seed);
    return p;
}

LabeledPoints gaussian_blobs(int64_t n, const Matrix& centers, double deviation, uint64_t seed)
{
    require_points(n, 1, "gaussian_blobs");
    require(centers.shape()[0] >= 1 && centers.shape()[1] >= 1, FACTO_ERROR_DIMENSION,
            "gaussian_blobs: give at least one center");
    require(deviation >= 0.0 && std::isfinite(deviation), FACTO_ERROR_INVALID_ARGUMENT,
            "gaussian_blobs: deviation must be finite and >= 0, got " + value_text(deviation));
    // the points split as evenly as they can between the centers, in center order
    const std::size_t blobs = centers.shape()[0], d = centers.shape()[1], points = static_cast<std::size_t>(n);
    LabeledPoints p{Matrix({points, d}), std::vector<int64_t>(points)};
    Rng rng(seed);
    for (std::size_t i = 0, c = 0, taken = 0; i < points; ++i, ++taken) {
        if (taken == points / blobs + (c < points % blobs ? 1 : 0)) ++c, taken = 0;
        for (std::size_t k = 0; k < d; ++k) p.X(i, k) = centers(c, k) + deviation * rng.normal();
        p.labels[i] = static_cast<int64_t>(c);
    }
    return p;
}

Centring nomad_centring(const DenseRows& X, const Collectives* collectives)
{
    const std::size_t n = X.n, d = X.p;
    require_finite(X, "X");  // before the collectives: a process refusing alone would leave the others in them
    // the points' count and column sums (each over i in order), with the processes' when distributed
    std::vector<double> sums(d + 1, 0.0);
    sums[d] = static_cast<double>(n);
    double largest = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        double norm2 = 0.0;
        for (std::size_t k = 0; k < d; ++k) {
            const double v = X(i, k);
            sums[k] += v;
            norm2 += v * v;
        }
        largest = std::max(largest, std::sqrt(norm2));
    }
    sum_over(collectives, sums.data(), sums.size());
    require(sums[d] >= 1.0 && d >= 1, FACTO_ERROR_DIMENSION, "nomad: the points X must have at least one row and one column");
    largest = largest_over(collectives, largest);
    require(largest > 0.0, FACTO_ERROR_INVALID_ARGUMENT, "nomad: every point is 0");
    Centring c{std::vector<double>(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(d)), 1.0 / largest};
    for (double& m : c.mean) m /= sums[d];
    return c;
}

Matrix nomad_features(const DenseRows& X, const Collectives* collectives)
{
    // Y = (X - mean of the rows) / max_i ||x_i|| (the paper's input, Sec. 1)
    const Centring c = nomad_centring(X, collectives);
    Matrix Y({X.n, X.p});
    for (std::size_t i = 0; i < X.n; ++i)
        for (std::size_t k = 0; k < X.p; ++k) Y(i, k) = (X(i, k) - c.mean[k]) * c.scale;
    return Y;
}

Centring nomad_centring(const CsrMatrix& X)
{
    require(X.rows >= 1 && X.cols >= 1, FACTO_ERROR_DIMENSION, "nomad: the points X must have at least one row and one column");
    Centring c{std::vector<double>(static_cast<std::size_t>(X.cols), 0.0), 0.0};
    double largest = 0.0;
    for (int64_t i = 0; i < X.rows; ++i) {
        double norm2 = 0.0;
        for (int64_t p = X.indptr[static_cast<std::size_t>(i)]; p < X.indptr[static_cast<std::size_t>(i) + 1]; ++p) {
            const double v = X.values[static_cast<std::size_t>(p)];
            c.mean[static_cast<std::size_t>(X.indices[static_cast<std::size_t>(p)])] += v;
            norm2 += v * v;
        }
        largest = std::max(largest, std::sqrt(norm2));
    }
    require(largest > 0.0, FACTO_ERROR_INVALID_ARGUMENT, "nomad: every point is 0");
    for (double& m : c.mean) m /= static_cast<double>(X.rows);
    c.scale = 1.0 / largest;
    return c;
}

Matrix nomad_gram(const Matrix& X)
{
    const Matrix Y = nomad_features(X);
    const std::size_t n = Y.shape()[0];
    Matrix D({n, n});
    blas::gemm(false, true, 1.0, Y, Y, 0.0, D);
    for (std::size_t i = 0; i < n; ++i)  // exactly symmetric (the GEMM may sum D_ij and D_ji apart)
        for (std::size_t j = 0; j < i; ++j) D(i, j) = D(j, i);
    return D;
}

}  // namespace facto
