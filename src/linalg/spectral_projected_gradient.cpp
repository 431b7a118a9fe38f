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

LbfgsbResult minimize_in_box_spg(std::vector<double>& x, double lower, double upper,
                                 const std::function<double(const double*, double*)>& fg,
                                 const LbfgsbSettings& settings, const Collectives* collectives)
{
    constexpr double gamma = 1e-4, shortest = 1e-30, longest = 1e30;
    const std::size_t n = x.size();
    for (double& v : x) v = std::clamp(v, lower, upper);
    std::vector<double> g(n), trial(n), g_trial(n), d(n);
    double f = fg(x.data(), g.data());
    require(std::isfinite(f), FACTO_ERROR_NUMERICAL, "SPG: the function is not finite at the start");
    const auto projected_gradient = [&] {
        return largest_over(collectives, box_projected_gradient(x.data(), g.data(), n, lower, upper));
    };
    const auto sum = [&](double* values, std::size_t count) { sum_over(collectives, values, count); };
    const auto interrupted = [&] { return any_over(collectives, settings.interrupted && settings.interrupted()); };
    LbfgsbResult result;
    result.projected_gradient = projected_gradient();
    double step = result.projected_gradient > 0.0 ? 1.0 / result.projected_gradient : 1.0;
    std::deque<double> recent{f};
    const double eps = std::numeric_limits<double>::epsilon();
    while (result.projected_gradient > settings.pgtol && result.iterations < settings.max_iterations &&
           !interrupted()) {
        // d = P(x - step g) - x, and the nonmonotone Armijo search along it (safeguarded quadratic
        // interpolation, SPG2's line search)
        for (std::size_t k = 0; k < n; ++k) d[k] = std::clamp(x[k] - step * g[k], lower, upper) - x[k];
        double slope = blas::dot(g.data(), d.data(), n);
        sum(&slope, 1);
        const double reference = *std::max_element(recent.begin(), recent.end());
        double t = 1.0, f_trial = 0.0;
        for (int backtracks = 0;; ++backtracks) {
            for (std::size_t k = 0; k < n; ++k) trial[k] = x[k] + t * d[k];
            f_trial = fg(trial.data(), g_trial.data());
            if ((std::isfinite(f_trial) && f_trial <= reference + gamma * t * slope) || backtracks == 60) break;
            const double quadratic = -0.5 * t * t * slope / (f_trial - f - t * slope);
            t = std::isfinite(quadratic) && quadratic >= 0.1 * t && quadratic <= 0.9 * t ? quadratic : 0.5 * t;
        }
        require(std::isfinite(f_trial), FACTO_ERROR_NUMERICAL, "SPG: the function became non-finite");
        // the Barzilai-Borwein length s^T s / s^T y
        double products[2] = {0.0, 0.0};  // s^T s, s^T y
        for (std::size_t k = 0; k < n; ++k) {
            const double s = trial[k] - x[k], y = g_trial[k] - g[k];
            products[0] += s * s, products[1] += s * y;
        }
        sum(products, 2);
        step = products[1] > 0.0 ? std::clamp(products[0] / products[1], shortest, longest) : longest;
        // progress against the window's largest value (a nonmonotone step may rise above f)
        const double change = (reference - f_trial) / std::max({std::fabs(reference), std::fabs(f_trial), 1.0});
        x.swap(trial), g.swap(g_trial), f = f_trial;
        recent.push_back(f);
        if (recent.size() > static_cast<std::size_t>(std::max(settings.memory, 1))) recent.pop_front();
        ++result.iterations;
        result.projected_gradient = projected_gradient();
        if (change <= settings.factr * eps) break;
    }
    return result;
}

}  // namespace facto
