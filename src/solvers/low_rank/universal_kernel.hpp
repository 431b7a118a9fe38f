// The universal quartic kernel of [DAB] (eq. 6):  h(X) = alpha/4 ||X||^4 + sigma/2 ||X||^2,
// grad h(X) = (alpha ||X||^2 + sigma) X, and its Bregman iteration map (eq. 7, 8; eq. 14 with the
// projection onto X >= 0).
#pragma once

#include "linalg/matrix.hpp"

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

// D_h(Y, X) = h(Y) - h(X) - <grad h(X), Y - X> (eq. 3) from a = ||X||^2, c = <X, Y - X> and
// delta = ||Y - X||^2, written as the sum of nonnegative terms
//     alpha/4 (||Y||^2 - ||X||^2)^2 + (alpha a + sigma)/2 ||Y - X||^2,   ||Y||^2 - ||X||^2 = 2c + delta,
// so it keeps its relative accuracy when Y - X is tiny (no difference of large h values).
inline double universal_bregman(double alpha, double sigma, double a, double c, double delta)
{
    const double change = 2.0 * c + delta;
    return 0.25 * alpha * change * change + 0.5 * (alpha * a + sigma) * delta;
}

// <X, D>, ||D||^2 and <G, D> for D = T - X, and ||T||^2: what the decrease test (22) and D_h need.
struct Displacement {
    double x_d = 0.0, d_d = 0.0, g_d = 0.0, t_t = 0.0;
};

// The two passes of the map T = Pi(U) / tau_sigma(alpha ||Pi(U)||^2), U = s X - lambda G (eq. 8 with
// s = alpha ||X||^2 + sigma), Pi the projection onto U >= 0 when `nonnegative` (eq. 14), the identity
// otherwise (eq. 7). U is never stored. Both run on `threads` threads; their sums are taken over
// fixed chunks, so the result does not depend on the thread count.
// Pass 1: T = Pi(U); returns ||T||^2. T must not alias X or G.
double universal_numerator(const Matrix& X, double s, const Matrix& G, double lambda, bool nonnegative, Matrix& T,
                           std::size_t threads);
// Pass 1 on one chunk of n entries (what universal_numerator runs per chunk); t must not alias x or g.
double universal_numerator_chunk(const double* x, const double* g, double* t, std::size_t n, double s, double lambda,
                                 bool nonnegative);
// Pass 2: T := scale T (scale = 1 / tau); returns the Displacement of T from X. T must not alias X or G.
Displacement universal_rescale(const Matrix& X, const Matrix& G, double scale, Matrix& T, std::size_t threads);

// The whole map in place on a given U, on one thread (for short vectors).
void universal_map(Matrix& U, double alpha, double sigma, bool nonnegative);

}  // namespace facto
