#include "linalg/scalar_minimum.hpp"

#include <cmath>

#include "base/error.hpp"

namespace facto {

ScalarMinimum minimize_on_interval(const std::function<double(double)>& f, double lo, double hi, double tolerance)
{
    // tolerance > 0 ends the loop: every step moves by at least it and the bracket shrinks
    require(lo < hi && tolerance > 0.0, FACTO_ERROR_INVALID_ARGUMENT,
            "minimize_on_interval needs lo < hi and a positive tolerance");
    const double golden = 0.5 * (3.0 - std::sqrt(5.0));  // the golden section's smaller part
    const double relative = 1.5e-8;                        // ~ sqrt(machine epsilon): f is flat to rounding below it
    // x: the best point so far; w: the second best; v: the previous w. a < x < b brackets the minimum.
    double a = lo, b = hi;
    double x = a + golden * (b - a), w = x, v = x;
    double fx = f(x), fw = fx, fv = fx;
    double step = 0.0, previous = 0.0;  // the last step and the one before it
    for (;;) {
        const double middle = 0.5 * (a + b), tol = relative * std::abs(x) + tolerance, tol2 = 2.0 * tol;
        if (std::abs(x - middle) <= tol2 - 0.5 * (b - a)) break;
        bool parabolic = false;
        if (std::abs(previous) > tol) {
            // the parabola through (v, fv), (w, fw), (x, fx): its vertex is x + p / q
            const double r = (x - w) * (fx - fv), s = (x - v) * (fx - fw);
            double p = (x - v) * s - (x - w) * r, q = 2.0 * (s - r);
            if (q > 0.0) p = -p;
            q = std::abs(q);
            // trusted when it moves less than half the step before last and stays inside (a, b)
            if (std::abs(p) < std::abs(0.5 * q * previous) && p > q * (a - x) && p < q * (b - x)) {
                previous = step;
                step = p / q;
                const double u = x + step;
                if (u - a < tol2 || b - u < tol2) step = x < middle ? tol : -tol;
                parabolic = true;
            }
        }
        if (!parabolic) {  // into the larger of the two parts
            previous = (x < middle ? b : a) - x;
            step = golden * previous;
        }
        const double u = x + (std::abs(step) >= tol ? step : (step > 0.0 ? tol : -tol));
        const double fu = f(u);
        if (fu <= fx) {
            (u < x ? b : a) = x;
            v = w, fv = fw, w = x, fw = fx, x = u, fx = fu;
        } else {
            (u < x ? a : b) = u;
            if (fu <= fw || w == x) {
                v = w, fv = fw, w = u, fw = fu;
            } else if (fu <= fv || v == x || v == w) {
                v = u, fv = fu;
            }
        }
    }
    return {x, fx};
}

}  // namespace facto
