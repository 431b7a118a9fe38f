// Several extreme eigenpairs of a large symmetric operator given only by its products: the top-K
// eigenvectors of an adjacency matrix (community detection, [NFW] Sec. V-C) and the leading
// singular subspace of a word-word matrix (topic modeling, Sec. V-B). Lanczos with full
// reorthogonalization, restarted by Krylov-Schur (Stewart 2001): the wanted Ritz vectors are kept and
// the basis grown from them again, so no single start vector has to carry all K directions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "linalg/matrix.hpp"

namespace facto {

enum class Spectrum { LargestAlgebraic, LargestMagnitude };

struct Eigenpairs {
    Vector values;     // K Ritz values, in the order wanted (decreasing value, or decreasing |value|)
    Matrix vectors;    // n x K, orthonormal columns
    int64_t products;  // products with A made
    bool converged;    // every pair's residual ||A v - value v|| <= tolerance * max |value|
};

// The K eigenpairs of A (n x n, symmetric; apply(x, y) sets y = A x) that come first in `which`, by a
// basis of `basis` vectors (0: min(n, max(2K + 20, 40)); at least K + 1 unless it is n), started from
// a Gaussian vector drawn from `seed`. Stops when all K residuals meet the tolerance or after
// max_products. Deterministic for a given seed.
Eigenpairs extreme_eigenpairs(std::size_t n, std::size_t K, const std::function<void(const double*, double*)>& apply,
                              Spectrum which, double tolerance, uint64_t seed, std::size_t basis = 0,
                              int64_t max_products = 100000);

}  // namespace facto
