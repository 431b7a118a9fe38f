// Minimization over a set given by its projection, by the spectral projected gradient method (Birgin,
// Martinez & Raydan 2000): projected steps along -g scaled by the Barzilai-Borwein length s^T s / s^T y,
// accepted by a nonmonotone Armijo search against the largest of the last M values; on a convex set
// (a box) along the segment to the projected point (SPG2, with safeguarded quadratic interpolation), on
// the nonnegative part of a sphere, which is not convex, along the projection arc P(x - t step g)
// (SPG1's search, halving t). One function evaluation per iteration in the common case and O(n) work
// besides, where L-BFGS-B spends O(m n) per iteration on its Cauchy point and subspace solve (what
// NOMAD's factor with n r ~ 10^6 unknowns pays for).
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

// P(x) onto {x >= 0, ||x|| = radius, each row's norm at most `largest`}, x a row-major matrix of n values
// in rows of `columns`: row i of P(x) is min(c, largest / ||[x_i]_+||) [x_i]_+ with c > 0 such that the
// norm is radius (c = radius / ||[x]_+|| while no row reaches `largest`; else found by Newton's steps on
// the rows not capped, increasing to c in finitely many). With `collectives`, x is this process's block of
// rows and the norm is the whole matrix's; out may be x. Where fewer than (radius / largest)^2 rows have
// a positive entry the nearest points are not unique; the constant matrix of norm radius is taken instead.
void project_to_nonnegative_sphere(const double* x, std::size_t n, std::size_t columns, double radius, double largest,
                                   double* out, const Collectives* collectives = nullptr);

// The contract of minimize_in_box_spg over that set (the projection above; the search along the
// projection arc); the measure is ||P(x - g) - x||_inf, zero exactly at a stationary point whose radial
// part of g is below 1 per unit of x.
LbfgsbResult minimize_on_nonnegative_sphere_spg(std::vector<double>& x, std::size_t columns, double radius, double largest,
                                                const std::function<double(const double*, double*)>& fg,
                                                const LbfgsbSettings& settings,
                                                const Collectives* collectives = nullptr);

// ||P(x - g) - x||_inf with P the projection above, the measure minimize_on_nonnegative_sphere_spg stops
// on (with `collectives` over every block).
double sphere_projected_gradient(const double* x, const double* g, std::size_t n, std::size_t columns, double radius,
                                 double largest, const Collectives* collectives = nullptr);

// The method on a set within x >= 0 given by a retraction (gradient projection in Rosen's sense):
// retract(v, out) puts out := a point of the set near [v]_+ (false where it finds none, which shortens
// the step; out may be v); fg returns f and its reduced gradient, which vanishes on x's support and is
// >= 0 off it at a stationary point; the search runs along the arc retract(x - t step g), the length
// without a previous one reach / ||g||; the measure is ||[x - g]_+ - x||_inf. A start off the set is
// refused (Error NUMERICAL). Else the contract of minimize_in_box_spg.
LbfgsbResult minimize_by_retraction_spg(std::vector<double>& x, const std::function<bool(const double*, double*)>& retract,
                                        double reach, const std::function<double(const double*, double*)>& fg,
                                        const LbfgsbSettings& settings, const Collectives* collectives = nullptr);

}  // namespace facto
