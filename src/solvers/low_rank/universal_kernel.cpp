#include "solvers/low_rank/universal_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "linalg/parallel.hpp"

namespace facto {

double universal_tau(double sigma, double c)
{
    if (!(c > 0.0)) return sigma;
    double w = std::cbrt(c);  // an upper bound on the root: (sigma + w)^2 w >= w^3 = c
    if (sigma > 0.0) w = std::min(w, c / (sigma * sigma));  // also one: (sigma + w)^2 w >= sigma^2 w = c
    for (int it = 0; it < 200; ++it) {
        const double s = sigma + w;
        const double next = w - (s * s * w - c) / (s * (s + 2.0 * w));  // Newton on (sigma + w)^2 w - c
        if (!(next < w)) break;  // monotone from above: no decrease left means converged
        w = next;
    }
    return sigma + w;
}

// The pointers never alias (restrict lets the compiler vectorize the lanes); the scalars are values,
// so no store can change them.
double universal_numerator_chunk(const double* __restrict x, const double* __restrict g, double* __restrict t,
                                 std::size_t n, double s, double lambda, bool nonnegative)
{
    const double floor = nonnegative ? 0.0 : -std::numeric_limits<double>::infinity();
    double tt[kPassLanes] = {};
    for_lanes(0, n, [&](std::size_t i, std::size_t lane) {
        t[i] = std::max(s * x[i] - lambda * g[i], floor);  // eq. (8), projected as in eq. (14)
        tt[lane] += t[i] * t[i];
    });
    return lanes_sum(tt);
}

namespace {

void rescale_chunk(const double* __restrict x, const double* __restrict g, double* __restrict t, std::size_t n,
                   double scale, std::array<double, 4>& sum)
{
    double xd[kPassLanes] = {}, dd[kPassLanes] = {}, gd[kPassLanes] = {}, tt[kPassLanes] = {};
    for_lanes(0, n, [&](std::size_t i, std::size_t l) {
        t[i] *= scale;
        const double d = t[i] - x[i];
        xd[l] += x[i] * d;
        dd[l] += d * d;
        gd[l] += g[i] * d;
        tt[l] += t[i] * t[i];
    });
    for (std::size_t l = 0; l < kPassLanes; ++l) {
        sum[0] += xd[l];
        sum[1] += dd[l];
        sum[2] += gd[l];
        sum[3] += tt[l];
    }
}

}  // namespace

double universal_numerator(const Matrix& X, double s, const Matrix& G, double lambda, bool nonnegative, Matrix& T,
                           std::size_t threads)
{
    return parallel_sums<1>(X.size(), kPassChunk, kPassGrain, threads, [&](std::size_t begin, std::size_t end, auto& sum) {
        sum[0] += universal_numerator_chunk(X.data() + begin, G.data() + begin, T.data() + begin, end - begin, s,
                                            lambda, nonnegative);
    })[0];
}

Displacement universal_rescale(const Matrix& X, const Matrix& G, double scale, Matrix& T, std::size_t threads)
{
    const auto sums = parallel_sums<4>(X.size(), kPassChunk, kPassGrain, threads, [&](std::size_t begin, std::size_t end, auto& sum) {
        rescale_chunk(X.data() + begin, G.data() + begin, T.data() + begin, end - begin, scale, sum);
    });
    return {sums[0], sums[1], sums[2], sums[3]};
}

void universal_map(Matrix& U, double alpha, double sigma, bool nonnegative)
{
    double norm2 = 0.0;
    for (double& u : U) {
        if (nonnegative) u = std::max(u, 0.0);  // eq. (14)
        norm2 += u * u;
    }
    const double scale = 1.0 / universal_tau(sigma, alpha * norm2);  // eq. (7)
    for (double& u : U) u *= scale;
}

}  // namespace facto
