#include "solvers/nomad_dual_bound.hpp"

#include <cmath>
#include <limits>

#include "linalg/blas.hpp"
#include "linalg/krylov_schur.hpp"
#include "linalg/lanczos.hpp"

namespace facto {

namespace {

double mean(const double* x, std::size_t n)
{
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += x[i];
    return sum / static_cast<double>(n);
}

// <D - Gamma, E> = 1^T (D - Gamma) 1 / n
double mean_of_difference(const PackedSymmetric& D, const PackedSymmetric& Gamma)
{
    return (total(D) - total(Gamma)) / static_cast<double>(D.n);
}

// ||D||_F + ||Gamma||_F >= ||D - Gamma||_2
double norm_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma)
{
    return std::sqrt(inner(D, D)) + std::sqrt(inner(Gamma, Gamma));
}

// The sum of the m largest eigenvalues of A = J (D - Gamma) J on 1-perp, from above (the header's block
// argument), for 1 <= m <= n - 1 and norm >= ||D - Gamma||_2.
double ky_fan_sum(const PackedSymmetric& D, const PackedSymmetric& Gamma, std::size_t m, double norm,
                  const Spectraplex& set, std::size_t threads)
{
    const std::size_t n = D.n;
    std::vector<double> centred(n), d(n);
    // A_hat x = J (D - Gamma) J x - norm (1^T x / n) 1: A on 1-perp, and the eigenvector 1 at -norm, below
    // the rest, so that A_hat's m largest eigenvalues are A's on 1-perp
    const auto apply = [&](const double* x, double* y) {
        const double centre = mean(x, n);
        for (std::size_t i = 0; i < n; ++i) centred[i] = x[i] - centre;
        multiply(D, centred.data(), y, threads);
        multiply(Gamma, centred.data(), d.data(), threads);
        for (std::size_t i = 0; i < n; ++i) y[i] -= d[i];
        const double back = mean(y, n);
        for (std::size_t i = 0; i < n; ++i) y[i] -= back + norm * centre;
    };
    const std::size_t basis = std::min(n, std::max<std::size_t>(2 * m + 20, 40));
    const Eigenpairs pairs = extreme_eigenpairs(n, m, apply, Spectrum::LargestAlgebraic, 1e-8, 1, basis,
                                                static_cast<int64_t>(10 * basis));
    // W's columns (rows of Wt), A_hat W, H = W^T A_hat W and the residual R = A_hat W - W H
    Matrix Wt({m, n}), AW({m, n}), H({m, m});
    for (std::size_t k = 0; k < m; ++k) {
        for (std::size_t i = 0; i < n; ++i) Wt(k, i) = pairs.vectors(i, k);
        apply(&Wt(k, 0), &AW(k, 0));
    }
    blas::gemm(false, true, 1.0, Wt, AW, 0.0, H);
    for (std::size_t k = 0; k < m; ++k)
        for (std::size_t l = 0; l < k; ++l) H(k, l) = H(l, k) = 0.5 * (H(k, l) + H(l, k));
    blas::gemm(false, false, m, n, m, -1.0, H.data(), m, Wt.data(), n, 1.0, AW.data(), n);
    double eta = 0.0;  // ||R||_F >= ||R||_2
    for (double r : AW) eta += r * r;
    eta = std::sqrt(eta);
    // C's largest eigenvalue from above: -lambda_min of -(I - W W^T) A_hat (I - W W^T) + norm W W^T, whose
    // W directions sit at norm, above the rest
    std::vector<double> c(m), x(n), start(n);
    for (std::size_t i = 0; i < n; ++i) start[i] = std::cos(static_cast<double>(i + 1));
    const auto project_out = [&](double* z) {
        blas::gemm(false, false, m, 1, n, 1.0, Wt.data(), n, z, 1, 0.0, c.data(), 1);
        blas::gemm(true, false, n, 1, m, -1.0, Wt.data(), n, c.data(), 1, 1.0, z, 1);
        return c;
    };
    const Eigenpair rest = smallest_eigenpair(
        n,
        [&](const double* in, double* out) {
            std::copy(in, in + n, x.begin());
            const std::vector<double> along = project_out(x.data());
            apply(x.data(), out);
            project_out(out);
            for (std::size_t i = 0; i < n; ++i) out[i] = -out[i];
            blas::gemm(true, false, n, 1, m, norm, Wt.data(), n, along.data(), 1, 1.0, out, 1);
        },
        start, 1e-6, set.lanczos_steps());
    const double c_max = -(rest.value - rest.residual);
    Vector h;
    blas::symmetric_eigen(H, h);
    double sum = 0.0;
    for (double value : h) sum += std::max(value, c_max);
    // W orthonormal and H, R computed to rounding: 8 m (n + m) eps norm covers them
    return sum + static_cast<double>(m) * eta +
           8.0 * static_cast<double>(m * (n + m)) * std::numeric_limits<double>::epsilon() * norm;
}

}  // namespace

double nomad_dual_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K, const Spectraplex& set,
                        std::vector<double>& v, std::size_t threads)
{
    const std::size_t n = D.n;
    if (K == 1 || n == 1) return mean_of_difference(D, Gamma);
    std::vector<double> d(n);
    // lambda_max(J (D - Gamma) J) = -lambda_min(J (Gamma - D) J), the smallest at least the Ritz value
    // minus its residual
    const Eigenpair pair = set.linear_minimizer(
        [&](const double* x, double* y) {
            multiply(Gamma, x, y, threads);
            multiply(D, x, d.data(), threads);
            for (std::size_t i = 0; i < n; ++i) y[i] -= d[i];
        },
        norm_bound(D, Gamma), v, 1e-6);
    return mean_of_difference(D, Gamma) - (static_cast<double>(K) - 1.0) * (pair.value - pair.residual);
}

double nomad_ky_fan_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K, const Spectraplex& set,
                          std::size_t threads)
{
    const std::size_t n = D.n;
    if (K == 1 || n == 1) return mean_of_difference(D, Gamma);
    return mean_of_difference(D, Gamma) +
           ky_fan_sum(D, Gamma, static_cast<std::size_t>(K) - 1, norm_bound(D, Gamma), set, threads);
}

double tighter_dual_bound(double bound, double objective, double feasibility, double tolerance,
                          double feasibility_tolerance, const PackedSymmetric& D, const PackedSymmetric& Gamma,
                          int64_t K, const Spectraplex& set, std::size_t threads)
{
    if (!(feasibility <= feasibility_tolerance) || relative_duality_gap(bound, objective) <= tolerance) return bound;
    return std::min(bound, nomad_ky_fan_bound(D, Gamma, K, set, threads));
}

}  // namespace facto
