// Brent's method (linalg/scalar_minimum.hpp) on functions whose minimizer is known in closed form:
// smooth, kinked, nearly nonsmooth (MERIT's smoothed maximum) and at the interval's end.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "linalg/scalar_minimum.hpp"

using namespace facto;

namespace {

// The minimizer of f on [0, 1] to 1e-12, and how many times f was evaluated.
struct Counted {
    ScalarMinimum best;
    int evaluations;
};
template <class F>
Counted minimized(F f)
{
    int evaluations = 0;
    const ScalarMinimum best = minimize_on_interval(
        [&](double x) {
            ++evaluations;
            return f(x);
        },
        0.0, 1.0, 1e-12);
    return {best, evaluations};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(scalar_minimum)

// The bracket's end condition allows 2 (1e-12 + 1.5e-8 |x|) around x: ~1e-8 at x ~ 0.3.
BOOST_AUTO_TEST_CASE(finds_known_minimizers_within_its_tolerance)
{
    const auto quadratic = [](double x) { return (x - 0.3) * (x - 0.3); };
    const auto exponential = [](double x) { return std::exp(3.0 * x) - 5.0 * x; };  // minimizer log(5 / 3) / 3
    const auto kinked = [](double x) { return std::abs(x - 0.7) + 0.1 * (x - 0.2) * (x - 0.2); };  // 0.7: 0.1 < 1
    const double mu = 1e-5;  // mu log(e^{(x - 0.4) / mu} + e^{(0.4 - x) / mu}), written without overflow
    const auto smoothed = [mu](double x) {
        const double t = std::abs(x - 0.4) / mu;
        return mu * (t + std::log1p(std::exp(-2.0 * t))) + 0.05 * x;  // minimizer 0.4 - mu atanh(0.05)
    };
    BOOST_TEST(std::abs(minimized(quadratic).best.x - 0.3) <= 2e-8);
    BOOST_TEST(std::abs(minimized(exponential).best.x - std::log(5.0 / 3.0) / 3.0) <= 2e-8);
    BOOST_TEST(std::abs(minimized(kinked).best.x - 0.7) <= 3e-8);
    BOOST_TEST(std::abs(minimized(smoothed).best.x - (0.4 - mu * std::atanh(0.05))) <= 2e-8);
    const Counted q = minimized(quadratic);
    BOOST_TEST(q.best.value == quadratic(q.best.x));
}

// A minimum at an end of the interval: f increasing, so the answer approaches 0 to the tolerance
// (f is never evaluated at the ends).
BOOST_AUTO_TEST_CASE(approaches_a_minimum_at_the_interval_end)
{
    const Counted c = minimized([](double x) { return x; });
    BOOST_TEST(c.best.x > 0.0);
    BOOST_TEST(c.best.x <= 4e-12);
}

// Parabolic steps: on a smooth function the evaluations are a fraction of golden section's
// ceil(log(1e-12) / log(0.618)) = 58 for the same bracket; on a quadratic the first parabola is exact.
BOOST_AUTO_TEST_CASE(smooth_functions_take_few_evaluations)
{
    BOOST_TEST(minimized([](double x) { return (x - 0.3) * (x - 0.3); }).evaluations <= 12);
    BOOST_TEST(minimized([](double x) { return std::exp(3.0 * x) - 5.0 * x; }).evaluations <= 20);
}

BOOST_AUTO_TEST_SUITE_END()
