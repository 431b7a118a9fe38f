#include "solvers/nomad_dual_bound.hpp"

#include <cmath>

namespace facto {

double nomad_dual_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K, const Spectraplex& set,
                        std::vector<double>& v, std::size_t threads)
{
    const std::size_t n = D.n;
    // <D - Gamma, E> = 1^T (D - Gamma) 1 / n
    const double mean = (total(D) - total(Gamma)) / static_cast<double>(n);
    if (K == 1 || n == 1) return mean;
    const double norm = std::sqrt(inner(D, D)) + std::sqrt(inner(Gamma, Gamma));
    std::vector<double> d(n);
    // lambda_max(J (D - Gamma) J) = -lambda_min(J (Gamma - D) J), the smallest at least the Ritz value
    // minus its residual
    const Eigenpair pair = set.linear_minimizer(
        [&](const double* x, double* y) {
            multiply(Gamma, x, y, threads);
            multiply(D, x, d.data(), threads);
            for (std::size_t i = 0; i < n; ++i) y[i] -= d[i];
        },
        norm, v, 1e-6);
    return mean - (static_cast<double>(K) - 1.0) * (pair.value - pair.residual);
}

}  // namespace facto
