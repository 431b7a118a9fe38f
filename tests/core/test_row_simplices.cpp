// The feasible set: the O(nk) LMO and gap (Alg. 2) against brute force over all vertices, the
// projection against its optimality condition, validation of given points.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "base/error.hpp"
#include "sets/row_simplices.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

BOOST_AUTO_TEST_SUITE(row_simplices)

BOOST_AUTO_TEST_CASE(lmo_and_gap_match_brute_force_over_all_vertices)
{
    const std::size_t n = 4, k = 3;
    for (uint64_t seed = 0; seed < 5; ++seed) {
        const Matrix G = random_matrix(n, k, 100 + seed);
        const Matrix W = RowSimplices(n, k).random_point(200 + seed);
        std::vector<int64_t> vertex, away;
        const double gap = RowSimplices::linear_minimizer(G, W, vertex, away).frank_wolfe;

        // Enumerate the k^n vertices of the product of simplices: min_S <G, S>.
        double best = std::numeric_limits<double>::infinity();
        std::vector<int64_t> best_vertex;
        std::vector<int64_t> choice(n, 0);
        for (std::size_t code = 0; code < 81; ++code) {
            std::size_t c = code;
            double value = 0.0;
            for (std::size_t i = 0; i < n; ++i, c /= k) {
                choice[i] = static_cast<int64_t>(c % k);
                value += G(i, c % k);
            }
            if (value < best) best = value, best_vertex = choice;
        }
        const double brute_gap = xt::sum(G * W)() - best;
        BOOST_TEST(gap == brute_gap, boost::test_tools::tolerance(1e-12));
        BOOST_TEST(gap >= 0.0);
        BOOST_TEST(vertex == best_vertex);
    }
}

BOOST_AUTO_TEST_CASE(gap_is_zero_at_the_minimizing_vertex_of_a_linear_function)
{
    const Matrix G = random_matrix(5, 3, 7);
    Matrix W = xt::zeros<double>({5, 3});
    std::vector<int64_t> vertex, away;
    RowSimplices::linear_minimizer(G, W, vertex, away);
    for (std::size_t i = 0; i < 5; ++i) W(i, static_cast<std::size_t>(vertex[i])) = 1.0;
    const RowSimplexGaps gaps = RowSimplices::linear_minimizer(G, W, vertex, away);
    BOOST_TEST(gaps.frank_wolfe == 0.0);
    BOOST_TEST(gaps.away == 0.0);  // one vertex per row: the away vertex is the LMO vertex
    BOOST_TEST(away == vertex);
}

BOOST_AUTO_TEST_CASE(projection_lands_on_the_simplex_and_is_optimal)
{
    Matrix X = 3.0 * random_matrix(20, 5, 11);
    const Matrix original = X;
    RowSimplices::project(X);
    for (std::size_t i = 0; i < 20; ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < 5; ++j) {
            BOOST_TEST(X(i, j) >= 0.0);
            sum += X(i, j);
        }
        BOOST_TEST(sum == 1.0, boost::test_tools::tolerance(1e-14));
    }
    // Optimality of y = proj(x): <x - y, z - y> <= 0 for every z in the set (tested on random z).
    for (uint64_t seed = 0; seed < 20; ++seed) {
        const Matrix Z = RowSimplices(20, 5).random_point(seed);
        for (std::size_t i = 0; i < 20; ++i) {
            double inner = 0.0;
            for (std::size_t j = 0; j < 5; ++j) inner += (original(i, j) - X(i, j)) * (Z(i, j) - X(i, j));
            BOOST_TEST(inner <= 1e-12);
        }
    }
    // A point already in the set is its own projection.
    Matrix inside = RowSimplices(6, 4).random_point(3);
    const Matrix before = inside;
    RowSimplices::project(inside);
    BOOST_TEST(xt::allclose(inside, before, 0.0, 1e-15));
}

BOOST_AUTO_TEST_CASE(projection_of_huge_entries_stays_on_the_simplex)
{
    // the projection of a row whose entries dwarf the 1 of the sum: the largest entry's vertex, or
    // the midpoint of two equal largest entries (it once returned 0: x - theta with theta = x - 1
    // rounded to x)
    Matrix X = {{1e200, 0.0, -1e200}, {-3e199, 2e200, 2e200}, {5e150, 5e150 + 1e136, 1.0}};
    RowSimplices::project(X);
    const Matrix expected = {{1.0, 0.0, 0.0}, {0.0, 0.5, 0.5}, {0.0, 1.0, 0.0}};
    BOOST_TEST(X == expected);
}

BOOST_AUTO_TEST_CASE(validation_of_given_points)
{
    Matrix W = RowSimplices(4, 3).random_point(1);
    BOOST_TEST(xt::allclose(RowSimplices(4, 3).feasible_point(W, 1e-9), W, 0.0, 1e-15));
    const auto validate = [](const Matrix& X) { return status_of([&] { RowSimplices(4, 3).feasible_point(X, 1e-9); }); };
    Matrix negative = W;
    negative(1, 1) = -1e-3;
    BOOST_TEST(validate(negative) == FACTO_ERROR_INFEASIBLE);
    Matrix off = W;
    off(2, 0) += 1e-6;
    BOOST_TEST(validate(off) == FACTO_ERROR_INFEASIBLE);
    Matrix infinite = W;
    infinite(0, 0) = std::numeric_limits<double>::infinity();
    BOOST_TEST(validate(infinite) == FACTO_ERROR_NOT_FINITE);
}

BOOST_AUTO_TEST_SUITE_END()
