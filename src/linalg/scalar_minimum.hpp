// Minimization of a function of one variable on an interval, for line searches whose function is
// costly to evaluate (MERIT's common factor: f at a trial point costs a pass over C).
#pragma once

#include <functional>

namespace facto {

// A minimizer of f on [lo, hi] (lo < hi, tolerance > 0: throws Error(INVALID_ARGUMENT) otherwise), f
// unimodal there (convex, for instance), by Brent's method
// (Brent 1973, Ch. 5): parabolic interpolation through the best three points, golden-section steps
// where the parabola is not trusted. Stops when the bracket around the best point x is within
// 2 (tolerance + 1.5e-8 |x|); never evaluates f at lo or hi. Returns the best point evaluated and f
// there. On a quadratic it needs a handful of evaluations where golden section alone needs
// ~log(1 / tolerance) / 0.48.
struct ScalarMinimum {
    double x, value;
};
ScalarMinimum minimize_on_interval(const std::function<double(double)>& f, double lo, double hi, double tolerance);

}  // namespace facto
