// Brent's method (linalg/scalar_minimum.hpp) on functions whose minimizer is known in closed form:
// smooth, kinked, nearly nonsmooth (MERIT's smoothed maximum) and at the interval's end.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "base/error.hpp"
#include "linalg/scalar_minimum.hpp"

using namespace facto;

namespace {

// The minimizer of f on [0, 1] to 1e-12, how many times f was evaluated and whether every point was
// strictly inside (0, 1).
struct Counted {
    ScalarMinimum best;
    int evaluations;
    bool inside;
};
template <class F>
Counted minimized(F f)
{
    int evaluations = 0;
    bool inside = true;
    const ScalarMinimum best = minimize_on_interval(
        [&](double x) {
            ++evaluations;
            inside = inside && x > 0.0 && x < 1.0;
            return f(x);
        },
        0.0, 1.0, 1e-12);
    return {best, evaluations, inside};
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
}

// A minimum at an end of the interval: the answer approaches it to the tolerance, f never evaluated
// at the ends.
BOOST_AUTO_TEST_CASE(approaches_a_minimum_at_the_interval_end)
{
    const Counted c = minimized([](double x) { return x; });
    BOOST_TEST(c.inside);
    BOOST_TEST(c.best.x <= 4e-12);
    BOOST_TEST(c.best.value == c.best.x);  // the value returned is f's at the point returned
    BOOST_TEST(minimized([](double x) { return -x; }).inside);
    // at x ~ 1 the bracket's end condition is 2 (1e-12 + 1.5e-8): the relative term dominates
    BOOST_TEST(minimized([](double x) { return -x; }).best.x >= 1.0 - 2.0 * (1e-12 + 1.5e-8));
}

// An empty interval, or no tolerance (the loop would need the bracket to shrink below rounding), is
// refused.
BOOST_AUTO_TEST_CASE(refuses_an_empty_interval_or_no_tolerance)
{
    const auto f = [](double x) { return x * x; };
    BOOST_CHECK_THROW(minimize_on_interval(f, 1.0, 1.0, 1e-12), Error);
    BOOST_CHECK_THROW(minimize_on_interval(f, 0.0, 1.0, 0.0), Error);
}

// Parabolic steps: on a smooth function the evaluations are a fraction of golden section's
// ceil(log(1e-12) / log(0.618)) = 58 for the same bracket; on a quadratic the first parabola is exact.
BOOST_AUTO_TEST_CASE(smooth_functions_take_few_evaluations)
{
    BOOST_TEST(minimized([](double x) { return (x - 0.3) * (x - 0.3); }).evaluations <= 12);
    BOOST_TEST(minimized([](double x) { return std::exp(3.0 * x) - 5.0 * x; }).evaluations <= 20);
}

BOOST_AUTO_TEST_SUITE_END()
