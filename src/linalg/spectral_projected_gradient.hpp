// Bound-constrained minimization by the spectral projected gradient method (Birgin, Martinez & Raydan
// 2000, SPG2): projected steps along -g scaled by the Barzilai-Borwein length s^T s / s^T y, accepted
// by a nonmonotone Armijo search against the largest of the last M values. One function evaluation
// per iteration in the common case and O(n) work besides, where L-BFGS-B spends O(m n) per iteration
// on its Cauchy point and subspace solve (what NOMAD's factor with n r ~ 10^6 unknowns pays for).
#pragma once

#include <functional>
#include <vector>

#include "base/collectives.hpp"
#include "linalg/lbfgsb.hpp"

namespace facto {

// ||clip(x - g, lower, upper) - x||_inf (n values each): the projected gradient's largest entry, the
// measure L-BFGS-B and SPG stop on.
double box_projected_gradient(const double* x, const double* g, std::size_t n, double lower, double upper);

// The contract of minimize_in_box (L-BFGS-B): minimizes f over lower <= x_i <= upper from x, in place,
// until the projected gradient's largest entry is at most settings.pgtol, f's relative decrease below
// the largest of the last M values is below settings.factr * eps, max_iterations, or
// settings.interrupted();
// settings.memory is the nonmonotone window M. Returns the iterations and the final projected gradient.
// With `collectives`, x is this process's block of the variables (the blocks of all the processes in
// rank order being the whole x) and fg, itself collective, returns the whole f and this block of the
// gradient: the inner products and the projected gradient are taken over every block, and an
// interruption on any process stops every process at the same iteration.
LbfgsbResult minimize_in_box_spg(std::vector<double>& x, double lower, double upper,
                                 const std::function<double(const double*, double*)>& fg,
                                 const LbfgsbSettings& settings, const Collectives* collectives = nullptr);

}  // namespace facto
