#include "linalg/spectral_projected_gradient.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

#include "base/error.hpp"
#include "linalg/blas.hpp"

namespace facto {

double box_projected_gradient(const double* x, const double* g, std::size_t n, double lower, double upper)
{
    double largest = 0.0;
    for (std::size_t k = 0; k < n; ++k) largest = std::max(largest, std::fabs(std::clamp(x[k] - g[k], lower, upper) - x[k]));
    return largest;
}

namespace {

// The method over a set given by its projection project(v, out) (out := P(v), out may be v; collective
// when distributed; false where P(v) was not found, a trial the search then shortens) and stationarity measure; `convex`: search along the segment to P(x - step g), else along
// the arc P(x - t step g). When `reach` is finite (on the nonnegative sphere, its radius) the length
// without a previous call's (settings.step) or after a step of nonpositive curvature (s^T y <= 0) is
// reach / ||g||, where the box's is 1 / ||P(x - g) - x||_inf or the longest: those jump across the
// sphere, where the nonmonotone search can accept a spike (one entry, stationary).
LbfgsbResult spg(std::vector<double>& x, const std::function<bool(const double*, double*)>& project, bool convex,
                 double reach,
                 const std::function<double(const double*, const double*)>& measure,
                 const std::function<double(const double*, double*)>& fg, const LbfgsbSettings& settings,
                 const Collectives* collectives)
{
    constexpr double gamma = 1e-4, shortest = 1e-30, longest = 1e30;
    const std::size_t n = x.size();
    std::vector<double> g(n), trial(n), g_trial(n), d(n);
    require(project(x.data(), x.data()), FACTO_ERROR_NUMERICAL, "SPG: the start has no point on the set");
    double f = fg(x.data(), g.data());
    require(std::isfinite(f), FACTO_ERROR_NUMERICAL, "SPG: the function is not finite at the start");
    const auto sum = [&](double* values, std::size_t count) { sum_over(collectives, values, count); };
    const auto interrupted = [&] { return any_over(collectives, settings.interrupted && settings.interrupted()); };
    LbfgsbResult result;
    result.projected_gradient = measure(x.data(), g.data());
    double step = settings.step > 0.0                ? settings.step
                  : result.projected_gradient > 0.0 ? 1.0 / result.projected_gradient
                                                    : 1.0;
    const auto reach_step = [&](const std::vector<double>& gradient) {  // reach / ||gradient||
        double squares = blas::dot(gradient.data(), gradient.data(), n);
        sum(&squares, 1);
        return squares > 0.0 ? reach / std::sqrt(squares) : longest;
    };
    if (settings.step <= 0.0 && std::isfinite(reach)) step = reach_step(g);
    std::deque<double> recent{f};
    const double eps = std::numeric_limits<double>::epsilon();
    while (result.projected_gradient > settings.pgtol && result.iterations < settings.max_iterations &&
           !interrupted()) {
        // d = P(x - step g) - x, and the nonmonotone Armijo search: along d (safeguarded quadratic
        // interpolation, SPG2's), or along the arc (halving t, SPG1's)
        const auto arc = [&](double t) {  // the slope, NaN where the projection failed
            for (std::size_t k = 0; k < n; ++k) d[k] = x[k] - t * step * g[k];
            if (!project(d.data(), trial.data())) return std::numeric_limits<double>::quiet_NaN();
            for (std::size_t k = 0; k < n; ++k) d[k] = trial[k] - x[k];
            double slope = blas::dot(g.data(), d.data(), n);
            sum(&slope, 1);
            return slope;
        };
        const double slope = arc(1.0);
        double along_arc = slope;  // g^T (P(x - t step g) - x) at the current t
        const double reference = *std::max_element(recent.begin(), recent.end());
        double t = 1.0, f_trial = 0.0;
        bool stopped = false;  // a stop request between trials: x stays
        for (int backtracks = 0;; ++backtracks) {
            if (convex)
                for (std::size_t k = 0; k < n; ++k) trial[k] = x[k] + t * d[k];
            f_trial = std::isnan(along_arc) ? std::numeric_limits<double>::infinity() : fg(trial.data(), g_trial.data());
            const double decrease = convex ? t * slope : along_arc;
            if ((std::isfinite(f_trial) && f_trial <= reference + gamma * decrease) || backtracks == 60) break;
            if ((stopped = interrupted())) break;
            if (convex) {
                const double quadratic = -0.5 * t * t * slope / (f_trial - f - t * slope);
                t = std::isfinite(quadratic) && quadratic >= 0.1 * t && quadratic <= 0.9 * t ? quadratic : 0.5 * t;
            } else {
                t *= 0.5;
                along_arc = arc(t);
            }
        }
        if (stopped || std::isnan(along_arc)) break;  // stopped, or no point on the set along the arc: x stays
        require(std::isfinite(f_trial), FACTO_ERROR_NUMERICAL, "SPG: the function became non-finite");
        // the Barzilai-Borwein length s^T s / s^T y
        double products[2] = {0.0, 0.0};  // s^T s, s^T y
        for (std::size_t k = 0; k < n; ++k) {
            const double s = trial[k] - x[k], y = g_trial[k] - g[k];
            products[0] += s * s, products[1] += s * y;
        }
        sum(products, 2);
        step = products[1] > 0.0 ? std::clamp(products[0] / products[1], shortest, longest) : longest;
        if (!(products[1] > 0.0) && std::isfinite(reach)) step = reach_step(g_trial);
        // progress against the window's largest value (a nonmonotone step may rise above f)
        const double change = (reference - f_trial) / std::max({std::fabs(reference), std::fabs(f_trial), 1.0});
        x.swap(trial), g.swap(g_trial), f = f_trial;
        recent.push_back(f);
        if (recent.size() > static_cast<std::size_t>(std::max(settings.memory, 1))) recent.pop_front();
        ++result.iterations;
        result.projected_gradient = measure(x.data(), g.data());
        if (change <= settings.factr * eps) break;
    }
    result.step = step;
    return result;
}

}  // namespace

LbfgsbResult minimize_in_box_spg(std::vector<double>& x, double lower, double upper,
                                 const std::function<double(const double*, double*)>& fg,
                                 const LbfgsbSettings& settings, const Collectives* collectives)
{
    const std::size_t n = x.size();
    const auto project = [&](const double* v, double* out) {
        for (std::size_t k = 0; k < n; ++k) out[k] = std::clamp(v[k], lower, upper);
        return true;
    };
    const auto measure = [&](const double* at, const double* g) {
        return largest_over(collectives, box_projected_gradient(at, g, n, lower, upper));
    };
    return spg(x, project, true, std::numeric_limits<double>::infinity(), measure, fg, settings, collectives);
}

void project_to_nonnegative_sphere(const double* x, std::size_t n, std::size_t columns, double radius, double largest,
                                   double* out, const Collectives* collectives)
{
    // with s_i = ||[x_i]_+||^2, h(c) = sum_i min(c^2 s_i, largest^2) = c^2 S(c) + largest^2 N(c) (S the
    // uncapped rows' squares, N the capped rows' count) grows with c; from c = radius / ||[x]_+||, where
    // h <= radius^2, the step c := sqrt((radius^2 - largest^2 N) / S) stays below the root and ends when
    // the capped set stops growing
    const std::size_t rows = columns > 0 ? n / columns : 0;
    std::vector<double> squares(rows, 0.0);
    double sums[3] = {0.0, 0.0, static_cast<double>(n)};  // S, the rows with a positive entry, the entries
    for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t k = 0; k < columns; ++k) {
            const double v = std::max(x[i * columns + k], 0.0);
            squares[i] += v * v;
        }
        sums[0] += squares[i], sums[1] += squares[i] > 0.0;
    }
    sum_over(collectives, sums, 3);
    const double target = radius * radius, cap = largest * largest;
    if (!(sums[0] > 0.0) || sums[1] * cap < target) {  // too few rows to reach the radius
        std::fill(out, out + n, radius / std::sqrt(std::max(sums[2], 1.0)));
        return;
    }
    double c = radius / std::sqrt(sums[0]), capped = -1.0;
    for (int step = 0; step < 100 && std::isfinite(cap); ++step) {
        double terms[2] = {0.0, 0.0};  // S(c), N(c)
        for (std::size_t i = 0; i < rows; ++i) {
            if (c * c * squares[i] >= cap) terms[1] += 1.0;
            else terms[0] += squares[i];
        }
        sum_over(collectives, terms, 2);
        if (terms[1] == capped || !(terms[0] > 0.0)) break;
        capped = terms[1];
        c = std::sqrt(std::max(target - cap * terms[1], 0.0) / terms[0]);
    }
    for (std::size_t i = 0; i < rows; ++i) {
        const double t = c * c * squares[i] > cap ? largest / std::sqrt(squares[i]) : c;
        for (std::size_t k = 0; k < columns; ++k) out[i * columns + k] = t * std::max(x[i * columns + k], 0.0);
    }
}

double sphere_projected_gradient(const double* x, const double* g, std::size_t n, std::size_t columns, double radius,
                                 double largest, const Collectives* collectives)
{
    std::vector<double> v(n);
    for (std::size_t k = 0; k < n; ++k) v[k] = x[k] - g[k];
    project_to_nonnegative_sphere(v.data(), n, columns, radius, largest, v.data(), collectives);
    double moved = 0.0;
    for (std::size_t k = 0; k < n; ++k) moved = std::max(moved, std::fabs(v[k] - x[k]));
    return largest_over(collectives, moved);
}

LbfgsbResult minimize_on_nonnegative_sphere_spg(std::vector<double>& x, std::size_t columns, double radius,
                                                double largest, const std::function<double(const double*, double*)>& fg,
                                                const LbfgsbSettings& settings, const Collectives* collectives)
{
    const std::size_t n = x.size();
    const auto project = [&](const double* v, double* out) {
        project_to_nonnegative_sphere(v, n, columns, radius, largest, out, collectives);
        return true;
    };
    const auto measure = [&](const double* at, const double* g) {
        return sphere_projected_gradient(at, g, n, columns, radius, largest, collectives);
    };
    return spg(x, project, false, radius, measure, fg, settings, collectives);
}

LbfgsbResult minimize_by_retraction_spg(std::vector<double>& x, const std::function<bool(const double*, double*)>& retract,
                                        double reach, const std::function<double(const double*, double*)>& fg,
                                        const LbfgsbSettings& settings, const Collectives* collectives)
{
    const std::size_t n = x.size();
    const auto measure = [&](const double* at, const double* g) {
        return largest_over(collectives, box_projected_gradient(at, g, n, 0.0, std::numeric_limits<double>::infinity()));
    };
    return spg(x, retract, false, reach, measure, fg, settings, collectives);
}

}  // namespace facto
