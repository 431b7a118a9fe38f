#include "linalg/polynomial.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace facto {

namespace {

// Root of the monotone function d on [a, b], where d(a) and d(b) have opposite signs.
template <class F>
double bisect(const F& d, double a, double b)
{
    double da = d(a);
    for (int it = 0; it < 200 && b - a > 1e-16 * std::max(1.0, std::fabs(a)); ++it) {
        const double m = 0.5 * (a + b);
        const double dm = d(m);
        if (dm == 0.0) return m;
        if ((dm < 0.0) == (da < 0.0)) {
            a = m;
            da = dm;
        } else {
            b = m;
        }
    }
    return 0.5 * (a + b);
}

// Roots in (0, 1) of a x^2 + b x + c (numerically stable form).
std::vector<double> quadratic_roots_in_unit_interval(double a, double b, double c)
{
    std::vector<double> roots;
    if (a == 0.0) {
        if (b != 0.0) roots.push_back(-c / b);
    } else {
        const double disc = b * b - 4.0 * a * c;
        if (disc >= 0.0) {
            const double q = -0.5 * (b + std::copysign(std::sqrt(disc), b));
            roots.push_back(q / a);
            if (q != 0.0) roots.push_back(c / q);
        }
    }
    std::vector<double> inside;
    for (double r : roots)
        if (r > 0.0 && r < 1.0) inside.push_back(r);
    std::sort(inside.begin(), inside.end());
    return inside;
}

}  // namespace

double minimize_quartic_on_unit_interval(double c1, double c2, double c3, double c4)
{
    const auto value = [&](double g) { return g * (c1 + g * (c2 + g * (c3 + g * c4))); };
    const auto slope = [&](double g) { return c1 + g * (2.0 * c2 + g * (3.0 * c3 + g * 4.0 * c4)); };

    // Breakpoints where the slope is monotone in between: 0, roots of the second derivative, 1.
    std::vector<double> knots{0.0};
    for (double r : quadratic_roots_in_unit_interval(12.0 * c4, 6.0 * c3, 2.0 * c2)) knots.push_back(r);
    knots.push_back(1.0);

    double best = 0.0, best_value = 0.0;
    const auto consider = [&](double g) {
        const double v = value(g);
        if (v < best_value) {
            best = g;
            best_value = v;
        }
    };
    consider(1.0);
    for (std::size_t i = 0; i + 1 < knots.size(); ++i) {
        const double a = knots[i], b = knots[i + 1];
        const double sa = slope(a), sb = slope(b);
        if (sa <= 0.0 && sb >= 0.0) consider(bisect(slope, a, b));
    }
    return best;
}

double argmin_depressed_quartic_nonnegative(double P, double Q)
{
    const auto cubic = [&](double y) { return y * (y * y + P) + Q; };
    const auto value = [&](double y) { return y * (0.25 * y * y * y + 0.5 * P * y + Q); };
    double roots[3];
    int count = 0;
    const double D = 0.25 * Q * Q + P * P * P / 27.0;
    if (D > 0.0) {
        const double u = std::cbrt(-0.5 * Q - std::copysign(std::sqrt(D), Q));  // |u^3| = |Q|/2 + sqrt(D)
        roots[count++] = u != 0.0 ? u - P / (3.0 * u) : 0.0;
    } else if (P < 0.0) {
        const double m = 2.0 * std::sqrt(-P / 3.0);
        const double theta = std::acos(std::clamp(3.0 * Q / (P * m), -1.0, 1.0)) / 3.0;
        for (int k = 0; k < 3; ++k) roots[count++] = m * std::cos(theta - 2.0943951023931953 * k);
    }
    double best = 0.0, best_value = 0.0;
    for (int k = 0; k < count; ++k) {
        double y = roots[k];
        for (int it = 0; it < 2; ++it) {
            const double slope = 3.0 * y * y + P;
            const double next = slope != 0.0 ? y - cubic(y) / slope : y;
            if (std::fabs(cubic(next)) < std::fabs(cubic(y))) y = next;
        }
        if (y > 0.0 && value(y) < best_value) {
            best = y;
            best_value = value(y);
        }
    }
    return best;
}

}  // namespace facto
