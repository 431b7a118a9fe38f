// The feasible set of NOMAD's conditional gradient method ([TSC] Alg. 2), in the shifted
// variable P = Q - 1 1^T / n: the spectraplex with an orthogonality vector,
//     { P psd,  Tr P = K - 1,  P 1 = 0 },
// whose extreme points are (K - 1) v v^T with ||v|| = 1 and v^T 1 = 0. Its LMO at A is the smallest
// eigenvector of J A J on 1-perp (J = I - 1 1^T / n), and the LMO's value (K - 1) lambda_min(J A J)
// also gives NOMAD's Lagrangian dual bound. Its Euclidean projection (nomad_admm) is spectral.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "linalg/lanczos.hpp"
#include "linalg/matrix.hpp"

namespace facto {

class Spectraplex {
public:
    // lanczos_steps: Lanczos vectors kept before a restart.
    explicit Spectraplex(std::size_t lanczos_steps) : lanczos_steps_(lanczos_steps) {}
    // The LMO's direction at A, given by its products with uncentred vectors and a norm >= ||A||: the
    // smallest eigenpair of J A J on 1-perp, from v (on return the unit eigenvector, v^T 1 = 0) to
    // `accuracy`. J A J plus norm (1^T x / n) 1 moves the eigenvector 1 above the rest of the spectrum.
    Eigenpair linear_minimizer(const std::function<void(const double*, double*)>& product_with, double norm,
                               std::vector<double>& v, double accuracy) const;

    // x -> J A J x + shift (1^T x / n) 1 for n-vectors, A given by its products with (centred) vectors:
    // A on 1-perp, and the eigenvector 1 at `shift` (above A's spectrum on 1-perp for the smallest
    // eigenpairs, below it for the largest).
    static std::function<void(const double*, double*)>
    on_complement(std::size_t n, const std::function<void(const double*, double*)>& product_with, double shift);

    // The Euclidean projection P of a symmetric n x n A onto { P psd, Tr P = trace, P 1 = 0 } (trace >= 0):
    // the eigenvalues of J A J on 1-perp projected onto the simplex { x >= 0, sum x = trace }, its
    // eigenvectors kept. Dense (LAPACK), O(n^3). Returns P's rank.
    static std::size_t project(const Matrix& A, double trace, Matrix& P);

private:
    std::size_t lanczos_steps_;
};

}  // namespace facto
