#include "facto/universal_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <xtensor/xmath.hpp>

#include "linalg/blas.hpp"

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

void universal_map(Matrix& U, double alpha, double sigma, bool nonnegative)
{
    if (nonnegative)
        for (auto& u : U) u = std::max(u, 0.0);  // Pi_+ (eq. 14)
    const double z = universal_tau(sigma, alpha * blas::frobenius_dot(U, U));
    U /= z;
}

}  // namespace facto
