#include "solvers/nomad/nomad_dual_bound.hpp"

#include <cmath>
#include <limits>

#include "linalg/blas.hpp"
#include "linalg/krylov_schur.hpp"
#include "linalg/lanczos.hpp"

namespace facto {

namespace {

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

}  // namespace

double ky_fan_block_bound(std::size_t n, const std::function<void(const double*, double*)>& apply, const Matrix& Wt,
                          double norm, std::size_t lanczos_steps)
{
    const std::size_t m = Wt.shape()[0];
    // A W (as rows), H = W^T A W and the residual R = A W - W H
    Matrix AW({m, n}), H({m, m});
    for (std::size_t k = 0; k < m; ++k) apply(&Wt(k, 0), &AW(k, 0));
    blas::gemm(false, true, 1.0, Wt, AW, 0.0, H);
    for (std::size_t k = 0; k < m; ++k)
        for (std::size_t l = 0; l < k; ++l) H(k, l) = H(l, k) = 0.5 * (H(k, l) + H(l, k));
    blas::gemm(false, false, m, n, m, -1.0, H.data(), m, Wt.data(), n, 1.0, AW.data(), n);
    double residual = 0.0;  // ||R||_F
    for (double r : AW) residual += r * r;
    residual = std::sqrt(residual);
    // C's largest eigenvalue from above: -lambda_min of -(I - W W^T) A (I - W W^T) + norm W W^T, whose
    // W directions sit at norm, above the rest
    std::vector<double> along(m), x(n), start(n);
    for (std::size_t i = 0; i < n; ++i) start[i] = std::cos(static_cast<double>(i + 1));
    const auto project_out = [&](double* z, double* coefficients) {
        blas::gemm(false, false, m, 1, n, 1.0, Wt.data(), n, z, 1, 0.0, coefficients, 1);
        blas::gemm(true, false, n, 1, m, -1.0, Wt.data(), n, coefficients, 1, 1.0, z, 1);
    };
    std::vector<double> scratch(m);
    const Eigenpair rest = smallest_eigenpair(
        n,
        [&](const double* in, double* out) {
            std::copy(in, in + n, x.begin());
            project_out(x.data(), along.data());
            apply(x.data(), out);
            project_out(out, scratch.data());
            for (std::size_t i = 0; i < n; ++i) out[i] = -out[i];
            blas::gemm(true, false, n, 1, m, norm, Wt.data(), n, along.data(), 1, 1.0, out, 1);
        },
        start, 1e-6, lanczos_steps);
    const double c_max = -(rest.value - rest.residual);
    Vector h;
    blas::symmetric_eigen(H, h);
    double sum = 0.0;
    for (double value : h) sum += std::max(value, c_max);
    // the top-m sum of [[0, R^T], [R, 0]] is ||R||_* <= sqrt(m) ||R||_F; W orthonormal and H, R
    // computed to rounding: 8 m (n + m) eps norm for them
    return sum + std::sqrt(static_cast<double>(m)) * residual +
           8.0 * static_cast<double>(m * (n + m)) * std::numeric_limits<double>::epsilon() * norm;
}

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

double nomad_ky_fan_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K, std::size_t lanczos_steps,
                          std::size_t threads)
{
    const std::size_t n = D.n, m = static_cast<std::size_t>(K) - 1;
    if (K == 1 || n == 1) return mean_of_difference(D, Gamma);
    const double norm = norm_bound(D, Gamma);
    std::vector<double> d(n);
    // A x = J (D - Gamma) J x - norm (1^T x / n) 1: D - Gamma on 1-perp, the eigenvector 1 below the rest,
    // so that A's m <= n - 1 largest eigenvalues are those on 1-perp
    const auto apply = Spectraplex::on_complement(
        n,
        [&](const double* x, double* y) {
            multiply(D, x, y, threads);
            multiply(Gamma, x, d.data(), threads);
            for (std::size_t i = 0; i < n; ++i) y[i] -= d[i];
        },
        -norm);
    // a basis of 2 m + 20 vectors (at least 40), and 10 restarts' worth of products
    const std::size_t basis = std::min(n, std::max<std::size_t>(2 * m + 20, 40));
    const Eigenpairs pairs = extreme_eigenpairs(n, m, apply, Spectrum::LargestAlgebraic, 1e-8, 1, basis,
                                                static_cast<int64_t>(10 * basis));
    Matrix Wt({m, n});
    for (std::size_t k = 0; k < m; ++k)
        for (std::size_t i = 0; i < n; ++i) Wt(k, i) = pairs.vectors(i, k);
    return mean_of_difference(D, Gamma) + ky_fan_block_bound(n, apply, Wt, norm, lanczos_steps);
}

double nomad_dense_dual_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K)
{
    const std::size_t n = D.n, m = static_cast<std::size_t>(K) - 1;
    const double mean = mean_of_difference(D, Gamma);
    if (K == 1 || n == 1) return mean;
    // B = J (D - Gamma) J - c E, c = 2 norm: the spectrum on 1-perp, and -c for the vector 1, below it;
    // D - Gamma written into B straight from the triangles (B the one n x n matrix)
    const double norm = norm_bound(D, Gamma), c = 2.0 * norm;
    Matrix B = Matrix::from_shape({n, n});
    std::vector<double> row(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        const double* d = &D.values[D.start(i)];
        const double* g = &Gamma.values[Gamma.start(i)];
        for (std::size_t j = i; j < n; ++j) {
            const double b = d[j - i] - g[j - i];
            B(i, j) = B(j, i) = b;
            row[i] += b / static_cast<double>(n);
            if (j != i) row[j] += b / static_cast<double>(n);
        }
    }
    const double shift = (mean - c) / static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) B(i, j) += shift - row[i] - row[j];
    const Vector values = blas::symmetric_eigenvalues(B);
    double top = 0.0;
    for (std::size_t k = 0; k < m; ++k) top += values(n - 1 - k);
    // dsytrd and dsterf are backward stable: each eigenvalue within a small multiple of n eps ||B|| (<= 3
    // norm) of the exact one
    return mean + top + 8.0 * static_cast<double>(m * n) * std::numeric_limits<double>::epsilon() * 3.0 * norm;
}

double nomad_certified_dual_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K,
                                  std::size_t lanczos_steps, std::size_t threads)
{
    if (D.n <= blas::kDenseSpectrumLimit) return nomad_dense_dual_bound(D, Gamma, K);
    return nomad_ky_fan_bound(D, Gamma, K, lanczos_steps, threads);
}

}  // namespace facto
