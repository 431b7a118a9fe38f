// The exact quartic line search against a fine grid.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "base/random.hpp"
#include "linalg/polynomial.hpp"

BOOST_AUTO_TEST_SUITE(polynomial)

BOOST_AUTO_TEST_CASE(minimizer_on_unit_interval_beats_a_fine_grid)
{
    facto::Rng rng(42);
    for (int trial = 0; trial < 500; ++trial) {
        const double c1 = 4 * rng.normal(), c2 = 4 * rng.normal(), c3 = 4 * rng.normal(),
                     c4 = trial % 5 == 0 ? 0.0 : 4 * rng.normal();
        const auto f = [&](double g) { return g * (c1 + g * (c2 + g * (c3 + g * c4))); };
        const double gamma = facto::minimize_quartic_on_unit_interval(c1, c2, c3, c4);
        BOOST_TEST(gamma >= 0.0);
        BOOST_TEST(gamma <= 1.0);
        double grid_best = f(0.0);
        for (int i = 1; i <= 20000; ++i) grid_best = std::min(grid_best, f(i / 20000.0));
        BOOST_TEST(f(gamma) <= grid_best + 1e-12);
    }
}

BOOST_AUTO_TEST_CASE(interior_minimizer_is_a_root_of_the_derivative)
{
    // f(g) = (g - 0.3)^2 (g + 1)^2 - const has its minimum at 0.3: expand the coefficients.
    // (g^2 + 0.7 g - 0.3)^2 = g^4 + 1.4 g^3 + (0.49 - 0.6) g^2 - 0.42 g + 0.09
    const double gamma = facto::minimize_quartic_on_unit_interval(-0.42, -0.11, 1.4, 1.0);
    BOOST_TEST(gamma == 0.3, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_SUITE_END()
