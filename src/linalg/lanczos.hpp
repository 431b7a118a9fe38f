// The smallest algebraic eigenpair of a large symmetric operator given only by its products, for the
// linear step of conditional gradient methods over the spectraplex (NOMAD, [TSC] Alg. 1-2), whose
// accuracy may be loose early on. facto's own Lanczos rather than ARPACK: ARPACK's dsaupd keeps its
// state in Fortran SAVE variables, so two solvers on two threads cannot use it at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "base/collectives.hpp"

namespace facto {

struct Eigenpair {
    double value;      // the Ritz value, an upper bound of the smallest eigenvalue
    double residual;   // ||A v - value v||
    int64_t products;  // products with A made
    bool converged;    // residual <= tolerance * scale before max_products
};

// Lanczos with full reorthogonalization, restarted from the current Ritz vector every `steps`
// products: v (n values, nonzero; normalized here) is the start vector on entry and the unit Ritz
// vector on exit. Stops once ||A v - value v|| <= max(tolerance, n eps) * scale, scale being the
// largest |Ritz value| seen (an estimate of ||A||), once n vectors span the space (the pair is then
// exact up to rounding), or after max_products. apply(x, y) sets y = A x; A must be
// symmetric. Deterministic: the same start vector gives the same result.
// With collectives, A is n x n with its rows distributed over the processes: v is this process's block
// of the vector (any size, the blocks in rank order making n), apply is collective and maps this
// block of x to this block of A x, and every inner product is summed over the processes (one sum per
// inner product: the arithmetic of one process, the same decisions on all).
Eigenpair smallest_eigenpair(std::size_t n, const std::function<void(const double*, double*)>& apply,
                             std::vector<double>& v, double tolerance, std::size_t steps = 40,
                             int64_t max_products = 2000, const Collectives* collectives = nullptr);

}  // namespace facto
