#include "linalg/power_iteration.hpp"

#include <cmath>

#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>

#include "linalg/blas.hpp"

namespace facto {

double spectral_norm_symmetric(const Matrix& A, double relative_tolerance, int max_iterations)
{
    const std::size_t n = A.shape()[0];
    if (n == 0) return 0.0;
    Vector v = xt::ones<double>({n}) / std::sqrt(static_cast<double>(n));
    Vector w = xt::zeros<double>({n});
    double estimate = 0.0;
    for (int it = 0; it < max_iterations; ++it) {
        blas::gemv(A, v, w);
        const double norm = std::sqrt(xt::sum(w * w)());
        if (norm == 0.0) return 0.0;
        const double previous = estimate;
        estimate = norm;  // ||A v|| with ||v|| = 1 converges to |lambda_max| from below
        xt::noalias(v) = w / norm;
        if (std::fabs(estimate - previous) <= relative_tolerance * estimate) break;
    }
    return estimate;
}

}  // namespace facto
