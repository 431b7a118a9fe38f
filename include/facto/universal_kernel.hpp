// The universal quartic kernel of Dragomir et al. (eq. 6):  h(X) = alpha/4 ||X||^4 + sigma/2 ||X||^2,
// grad h(X) = (alpha ||X||^2 + sigma) X, and its Bregman iteration map (eq. 7, 8; eq. 14 with the
// projection onto X >= 0).
#pragma once

#include "facto/matrix.hpp"

namespace facto {

// tau_sigma(c): the real root z >= sigma of z^2 (z - sigma) = c, for c >= 0, sigma >= 0.
// Not Cardano's formula (eq. 9, which also has alpha where sigma belongs, and whose c - sqrt(Delta)
// cancels): w = z - sigma solves (sigma + w)^2 w = c, convex in w, so Newton from the upper bound
// min(c^(1/3), c / sigma^2) decreases monotonically to the root; w stays relatively accurate for tiny c
// and nothing overflows for c up to 1e300.
double universal_tau(double sigma, double c);

// h(X) from ||X||^2.
inline double universal_h(double alpha, double sigma, double norm_squared)
{
    return 0.25 * alpha * norm_squared * norm_squared + 0.5 * sigma * norm_squared;
}

// In place, U := T = P(U) / tau_sigma(alpha ||P(U)||^2) with P the projection onto U >= 0 when
// `nonnegative` (eq. 14), the identity otherwise (eq. 7). U = grad h(X) - lambda grad f(X) (eq. 8).
void universal_map(Matrix& U, double alpha, double sigma, bool nonnegative);

}  // namespace facto
