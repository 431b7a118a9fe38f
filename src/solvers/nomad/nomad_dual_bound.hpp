// NOMAD's Lagrangian dual bound at a multiplier Gamma <= 0 of Q >= 0 (nomad_cgm and nomad_admm). Every
// feasible Q has Q psd, Q 1 = 1, Tr Q = K and, being nonnegative with unit row sums, Q <= I; so
//     Tr(D Q) <= Tr((D - Gamma) Q) <= max over {Q psd, Q <= I, Q 1 = 1, Tr Q = K} of Tr((D - Gamma) Q)
//              = <D - Gamma, E> + (sum of the K - 1 largest eigenvalues of J (D - Gamma) J on 1-perp)
// (E = 1 1^T / n, J = I - E; Ky Fan: Q - E has K - 1 eigenvalues' worth of trace in [0, 1] on 1-perp).
// Dropping Q <= I gives the weaker (K - 1) lambda_max, the bound the method of multipliers' dual
// function is ([TSC] eq. 14).
//
// Which evaluation can be trusted: a Krylov method (Lanczos, Krylov-Schur) returns Ritz values with
// small residuals, each near *some* eigenvalue; when its start vector has almost nothing of the top
// eigenvector, it converges to a lower one and the "bound" falls below the optimum. Warm-started
// Lanczos did exactly that inside nomad_admm on two rings (n = 200 ... 1000, K = 16): 118.9 for a true
// 123.8, 595.5 for 619.0, while the multiplier moved the top eigenvector. So the bound facto reports
// as a certificate is `nomad_certified_dual_bound`: a dense eigenvalue decomposition (backward stable)
// up to n = blas::kDenseSpectrumLimit, which gives the Ky Fan form outright; above it the Krylov-Schur
// Ky Fan form (a random start; the rest of the spectrum by one Lanczos solve from a fixed start), an
// estimate that is valid when those find the top eigenvalues. The warm-started Lanczos form
// (`nomad_dual_bound`) stays as nomad_cgm's cheap estimate between certificates.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "linalg/symmetric.hpp"
#include "sets/spectraplex.hpp"

namespace facto {

// The lambda_max form by Lanczos, warm-started: an estimate (see above). D and Gamma as upper
// triangles (Gamma's entries <= 0 are not checked: any symmetric Gamma <= 0 gives a valid bound). `v`
// (n values) is the Lanczos start, on return the eigenvector, for the next call.
double nomad_dual_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K, const Spectraplex& set,
                        std::vector<double>& v, std::size_t threads);

// The Ky Fan form (at K = 2 the lambda_max form, up to the eigensolvers' accuracy; <D - Gamma, E> at
// K = 1 or n = 1), from a Krylov-Schur block (10 restarts' worth of products at most; a block that has
// not converged gives a looser value). Deterministic.
double nomad_ky_fan_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K, std::size_t lanczos_steps,
                          std::size_t threads);

// An upper bound of the sum of the m largest eigenvalues of a symmetric n x n A (apply(x, y): y = A x;
// norm >= ||A||_2) from any m x n Wt with orthonormal rows W^T: with H = W^T A W, R = A W - W H and C the
// compression of A to W-perp, A = diag(H, C) + [[0, R^T], [R, 0]] in the basis [W, W-perp]; Ky Fan sums
// are subadditive, the second part's is ||R||_* <= sqrt(m) ||R||_F, and C's eigenvalues are at most one
// Lanczos bound c, so the sum is at most sum_i max(h_i, c) + sqrt(m) ||R||_F (h: H's eigenvalues), plus
// a rounding margin. Tight when W spans the top eigenvectors.
double ky_fan_block_bound(std::size_t n, const std::function<void(const double*, double*)>& apply, const Matrix& Wt,
                          double norm, std::size_t lanczos_steps);

// The Ky Fan form from a dense eigenvalue decomposition of J (D - Gamma) J, with a margin for its
// rounding. O(n^2) memory.
double nomad_dense_dual_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K);

// The bound the solvers certify with: nomad_dense_dual_bound up to blas::kDenseSpectrumLimit, above it
// nomad_ky_fan_bound, an estimate (see above).
double nomad_certified_dual_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K,
                                  std::size_t lanczos_steps, std::size_t threads);

// The stationarity measure of the solvers that report that bound: |bound - Tr(D Q)| / max(|bound|,
// |Tr(D Q)|) (Tr(D Q) can exceed the bound while Q has negative entries).
inline double relative_duality_gap(double bound, double objective)
{
    const double scale = std::max(std::fabs(bound), std::fabs(objective));
    return scale > 0.0 ? std::fabs(bound - objective) / scale : 0.0;
}

}  // namespace facto
