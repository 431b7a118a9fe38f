// NOMAD's Lagrangian dual bound at a multiplier Gamma <= 0 of Q >= 0 (nomad_cgm and nomad_admm). Every
// feasible Q has Q psd, Q 1 = 1, Tr Q = K and, being nonnegative with unit row sums, Q <= I; so
//     Tr(D Q) <= Tr((D - Gamma) Q) <= max over {Q psd, Q <= I, Q 1 = 1, Tr Q = K} of Tr((D - Gamma) Q)
//              = <D - Gamma, E> + (sum of the K - 1 largest eigenvalues of J (D - Gamma) J on 1-perp)
// (E = 1 1^T / n, J = I - E; Ky Fan: Q - E has K - 1 eigenvalues' worth of trace in [0, 1] on 1-perp).
// Dropping Q <= I gives the weaker (K - 1) lambda_max, the bound the method of multipliers' dual
// function is (paper 003 eq. 14). Both are evaluated so that they hold whatever the eigensolvers'
// accuracy: lambda_max by a Lanczos Ritz value plus its residual; the Ky Fan sum through a block of
// Ritz vectors W (Krylov-Schur), A <= diag(W^T A W + eta, C + eta) in the basis [W, W-perp] with
// eta >= ||A W - W (W^T A W)||_2 and C the rest of A, whose largest eigenvalue is one more Lanczos
// bound. The second costs K - 1 eigenpairs (on two rings, n = 200, K = 16: ~14 ms, where a whole outer
// iteration of nomad_cgm takes ~3 ms), so nomad_cgm evaluates it only where it can decide convergence (`tighter_dual_bound`).
// nomad_admm does not: near its fixed point the multiplier is nearly optimal, where the K - 1 largest
// eigenvalues coincide and both forms agree (measured: the same iterations to 1e-5 ... 1e-7 on noisy
// rings, n = 100, K = 16, at +0.4-0.9 s).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "linalg/symmetric.hpp"
#include "sets/spectraplex.hpp"

namespace facto {

// The lambda_max form. D and Gamma as upper triangles (Gamma's entries <= 0 are not checked: any
// symmetric Gamma <= 0 gives a valid bound). `v` (n values) is the Lanczos start, on return the
// eigenvector, for the next call.
double nomad_dual_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K, const Spectraplex& set,
                        std::vector<double>& v, std::size_t threads);

// The Ky Fan form (at K = 2 the lambda_max form to 1e-8 instead of 1e-6; <D - Gamma, E> at K = 1 or
// n = 1). Deterministic.
double nomad_ky_fan_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K, const Spectraplex& set,
                          std::size_t threads);

// What nomad_cgm reports: `bound` (the lambda_max form at Gamma), lowered to the Ky Fan
// form when the iterate's feasibility meets its tolerance and the relative duality gap against `bound`
// does not (then the tighter form can end the solve; elsewhere its cost would buy nothing).
double tighter_dual_bound(double bound, double objective, double feasibility, double tolerance,
                          double feasibility_tolerance, const PackedSymmetric& D, const PackedSymmetric& Gamma,
                          int64_t K, const Spectraplex& set, std::size_t threads);

// The stationarity measure of the solvers that report that bound: |bound - Tr(D Q)| / max(|bound|,
// |Tr(D Q)|) (Tr(D Q) can exceed the bound while Q has negative entries).
inline double relative_duality_gap(double bound, double objective)
{
    const double scale = std::max(std::fabs(bound), std::fabs(objective));
    return scale > 0.0 ? std::fabs(bound - objective) / scale : 0.0;
}

}  // namespace facto
