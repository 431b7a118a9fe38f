// NOMAD's Lagrangian dual bound at a multiplier Gamma <= 0 of Q >= 0 (nomad_cgm and nomad_admm): for
// every feasible Q,
//     Tr(D Q) <= Tr((D - Gamma) Q) <= max over {Q psd, Q 1 = 1, Tr Q = K} of Tr((D - Gamma) Q)
//              = <D - Gamma, E> + (K - 1) lambda_max(J (D - Gamma) J on 1-perp),
// E = 1 1^T / n, J = I - E; the eigenvalue is bounded by a Lanczos Ritz value plus its residual, so the
// bound holds whatever the multiplier and however accurate the eigenproblem.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "linalg/symmetric.hpp"
#include "sets/spectraplex.hpp"

namespace facto {

// D and Gamma as upper triangles (Gamma's entries <= 0 are not checked: any symmetric Gamma <= 0 gives
// a valid bound). `v` (n values) is the Lanczos start, on return the eigenvector, for the next call.
double nomad_dual_bound(const PackedSymmetric& D, const PackedSymmetric& Gamma, int64_t K, const Spectraplex& set,
                        std::vector<double>& v, std::size_t threads);

// The stationarity measure of the solvers that report that bound: |bound - Tr(D Q)| / max(|bound|,
// |Tr(D Q)|) (Tr(D Q) can exceed the bound while Q has negative entries).
inline double relative_duality_gap(double bound, double objective)
{
    const double scale = std::max(std::fabs(bound), std::fabs(objective));
    return scale > 0.0 ? std::fabs(bound - objective) / scale : 0.0;
}

}  // namespace facto
