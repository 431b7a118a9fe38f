#include "facto/universal_kernel.hpp"

#include <algorithm>
#include <cmath>

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

void universal_map(const Matrix& X, double s, const Matrix& G, double lambda, double alpha, double sigma,
                   bool nonnegative, Matrix& T)
{
    const std::size_t size = X.size();
    const double *x = X.data(), *g = G.data();
    double* t = T.data();
    double norm2 = 0.0;
    for (std::size_t i = 0; i < size; ++i) {
        const double u = s * x[i] - lambda * g[i];     // eq. (8)
        t[i] = nonnegative ? std::max(u, 0.0) : u;      // Pi_+ (eq. 14)
        norm2 += t[i] * t[i];
    }
    const double z = universal_tau(sigma, alpha * norm2);  // eq. (7)
    for (std::size_t i = 0; i < size; ++i) t[i] /= z;
}

}  // namespace facto
