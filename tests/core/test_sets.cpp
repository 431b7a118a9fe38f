// The feasible sets of src/sets/: the row simplices' O(nk) LMO and gap (Alg. 2) against brute force
// over all vertices, projections against their optimality conditions, validation of given points, the
// column simplices' sparse iterate against its dense form, NOMAD's feasible factors' restoration and
// reduced gradient against their defining properties.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <xtensor/xview.hpp>

#include "base/error.hpp"
#include "sets/column_simplices.hpp"
#include "sets/dominant_diagonal.hpp"
#include "sets/kmeans_factors.hpp"
#include "sets/orthant.hpp"
#include "sets/row_simplices.hpp"
#include "sets/spectraplex.hpp"
#include "linalg/blas.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

BOOST_AUTO_TEST_SUITE(sets)

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

BOOST_AUTO_TEST_CASE(orthant_projection_is_optimal_and_validation_names_the_set)
{
    Matrix X = random_matrix(12, 3, 21);
    const Matrix original = X;
    NonnegativeOrthant::project(X);
    BOOST_TEST(xt::amin(X)() >= 0.0);
    // <x - y, z - y> <= 0 for every z >= 0: checked on random nonnegative z
    for (uint64_t seed = 0; seed < 10; ++seed) {
        const Matrix Z = xt::abs(random_matrix(12, 3, 40 + seed));
        BOOST_TEST(xt::sum((original - X) * (Z - X))() <= 1e-14);
    }
    BOOST_TEST(xt::allclose(NonnegativeOrthant::feasible_point(X, "symnmf"), X, 0.0, 0.0));
    BOOST_TEST(status_of([&] { NonnegativeOrthant::feasible_point(original, "symnmf"); }) == FACTO_ERROR_INFEASIBLE);
}

BOOST_AUTO_TEST_CASE(column_simplices_keep_the_columns_of_their_dense_form_on_the_simplex)
{
    const ColumnSimplices set(6);
    const Matrix random = set.random_point(5);
    for (std::size_t l = 0; l < 6; ++l) {
        BOOST_TEST(xt::sum(xt::view(random, xt::all(), l))() == 1.0);  // one vertex per column
        BOOST_TEST(xt::amax(xt::view(random, xt::all(), l))() == 1.0);
    }
    Matrix C0 = xt::eye<double>(6);
    C0(4, 4) = 0.0;
    C0(0, 4) = 1.0;  // column 4 = e_0
    SimplexColumns C = SimplexColumns::from_dense(C0);
    BOOST_TEST(C.to_dense() == C0);
    // Frank-Wolfe toward row 2 by 1/4, then a pairwise step of 1/8 from row 2 to row 5 (exact in binary)
    C.frank_wolfe_update(4, 2, 0.25);
    BlockDirection pairwise;
    pairwise.kind = BlockDirection::pairwise;
    pairwise.s = 5;
    pairwise.a = 2;
    C.away_or_pairwise_update(4, pairwise, 0.125, false);
    BOOST_TEST(C.value(4, 0) == 0.75);
    BOOST_TEST(C.value(4, 2) == 0.125);
    BOOST_TEST(C.value(4, 5) == 0.125);
    BOOST_TEST(!C.contains(4, 1));
    BOOST_TEST(C.nnz() == 8);
    const Matrix C1 = C.to_dense();
    BOOST_TEST(xt::allclose(set.feasible_point(C1, 1e-12), C1, 0.0, 0.0));
    Matrix off = C1;
    off(0, 1) += 1e-6;
    BOOST_TEST(status_of([&] { set.feasible_point(off, 1e-8); }) == FACTO_ERROR_INFEASIBLE);
}

// FGNSR's row polyhedron: the projection is feasible and no point of a fine grid of diagonal values
// (each with the other entries clipped optimally) is closer to the input; zero weights are handled.
BOOST_AUTO_TEST_CASE(dominant_diagonal_projection_is_the_nearest_feasible_row)
{
    Rng rng(31);
    const std::size_t N = 40;
    std::vector<DominantDiagonal::Break> scratch;
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<double> w(N), z(N);
        for (std::size_t l = 0; l < N; ++l) w[l] = l == 7 ? 0.0 : 0.2 + rng.uniform();
        for (double& v : z) v = (trial % 3 == 0 ? 2.0 : 0.5) * rng.normal() + (trial % 5 == 0 ? 1.0 : 0.0);
        const std::size_t i = static_cast<std::size_t>(trial) % N;
        std::vector<double> x = z;
        DominantDiagonal(w).project_row(x.data(), i, scratch);
        // the distance from z when the diagonal is d and every other entry is clipped to [0, c_l d]
        auto distance = [&](double d) {
            double sum = (d - z[i]) * (d - z[i]);
            for (std::size_t l = 0; l < N; ++l) {
                if (l == i) continue;
                const double cap = w[i] == 0.0 ? HUGE_VAL : w[l] / w[i] * d;
                const double v = std::clamp(z[l], 0.0, cap);
                sum += (v - z[l]) * (v - z[l]);
            }
            return sum;
        };
        double found = 0.0;
        BOOST_TEST(x[i] >= 0.0);
        BOOST_TEST(x[i] <= 1.0);
        for (std::size_t l = 0; l < N; ++l) {
            found += (x[l] - z[l]) * (x[l] - z[l]);
            BOOST_TEST(x[l] >= 0.0);
            if (l != i) BOOST_TEST(w[i] * x[l] <= w[l] * x[i] * (1.0 + 1e-15) + 1e-300);
        }
        double best = HUGE_VAL;
        for (int k = 0; k <= 20000; ++k) best = std::min(best, distance(k / 20000.0));
        BOOST_TEST(found <= best + 1e-12 * (1.0 + best));
        BOOST_TEST(std::abs(found - distance(x[i])) <= 1e-12 * (1.0 + found));
    }
}

BOOST_AUTO_TEST_CASE(spectraplex_projection_satisfies_the_variational_inequality)
{
    // P = Pi(A) onto C = {P psd, Tr P = t, P 1 = 0} iff <A - P, H - P> <= 0 for every H in C; C is the
    // convex hull of t v v^T (||v|| = 1, v^T 1 = 0), so checking every such vertex along random v and
    // along P's own eigenvectors (where the inequality is tight on P's support) tests the projection.
    const std::size_t n = 12;
    for (uint64_t seed = 0; seed < 6; ++seed) {
        const double t = seed % 2 ? 3.0 : 0.25 * static_cast<double>(seed + 1);
        Matrix G = random_matrix(n, n, 300 + seed), A = 0.5 * (G + xt::transpose(G));
        if (seed == 5) A *= 1e-3;  // eigenvalues well below t / n: P keeps all of them, shifted up
        Matrix P;
        const std::size_t rank = Spectraplex::project(A, t, P);
        BOOST_TEST(rank >= 1u);
        double trace = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            trace += P(i, i);
            double row = 0.0;
            for (std::size_t j = 0; j < n; ++j) row += P(i, j);
            BOOST_TEST(std::fabs(row) <= 1e-12 * t);
        }
        BOOST_TEST(trace == t, boost::test_tools::tolerance(1e-12));
        Matrix eigenvectors = P;
        Vector values;
        blas::symmetric_eigen(eigenvectors, values);
        BOOST_TEST(values(0) >= -1e-12 * t);
        const Matrix R = A - P;
        const double at_P = blas::frobenius_dot(R, P);
        Rng rng(400 + seed);
        for (std::size_t trial = 0; trial < 40 + n; ++trial) {
            std::vector<double> v(n);
            if (trial < n) {
                for (std::size_t j = 0; j < n; ++j) v[j] = eigenvectors(trial, j);
            } else {
                for (double& x : v) x = rng.normal();
            }
            double mean = 0.0;
            for (double x : v) mean += x / static_cast<double>(n);
            double norm2 = 0.0;
            for (double& x : v) {
                x -= mean;
                norm2 += x * x;
            }
            if (norm2 < 1e-20) continue;  // the eigenvector 1 (P 1 = 0)
            double vRv = 0.0;
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j) vRv += v[i] * R(i, j) * v[j];
            BOOST_TEST(t * vRv / norm2 - at_P <= 1e-10 * (1.0 + std::fabs(at_P)));
        }
    }
}

namespace {
// Near NOMAD's factors with soft rows: the scaled indicators of 3 clusters of 20 points in columns 0-2
// and, in column 3 + c, positive entries on the rows of clusters c and c + 1 (so Q = Y Y^T is not block
// diagonal: on blocks, Q 1 = 1 and Tr Q = K force a hard clustering, where the trace's constraint repeats
// the rows' and J J^T is singular; here, once restored, J's condition number is about 17); `noise` more
// on the support
std::vector<double> soft_factor(double noise, uint64_t seed)
{
    const std::size_t n = 60, r = 6;
    Rng rng(seed);
    std::vector<double> Y(n * r, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        Y[i * r + i / 20] = 1.0 / std::sqrt(20.0);
        Y[i * r + 3 + i / 20] = 0.1 * rng.uniform();
        Y[i * r + 3 + (i / 20 + 2) % 3] = 0.1 * rng.uniform();
    }
    for (double& y : Y)
        if (y > 0.0) y *= 1.0 + noise * (rng.uniform() - 0.5);
    return Y;
}
}  // namespace

BOOST_AUTO_TEST_CASE(kmeans_factors_are_restored_onto_the_set_by_a_normal_correction)
{
    // Gauss-Newton from far (the soft factor: row sums off by 0.2, entries clipped at 0 on the way, so
    // the sweeps converge linearly) and from near (a point of the set moved by 1e-4 on its support, as a
    // gradient projection step does, here relative 1e-3: a few sweeps): feasible to 1e-12, nonnegative, nothing outside the
    // support; from near, the correction is normal to the set to first order: its tangent part, what
    // reduce keeps of it, is O(step^2), here below 1e-3 of the correction
    const KmeansFactors set(60, 6, 3.0, nullptr);
    std::vector<double> far = soft_factor(0.3, 5);
    BOOST_TEST(set.violation(far.data()) > 0.1);
    BOOST_TEST(!set.restore(far.data(), 1e-12, 3));  // not in 3 sweeps
    BOOST_TEST(set.restore(far.data(), 1e-12, 100));
    BOOST_TEST(set.violation(far.data()) <= 1e-12);
    for (double y : far) BOOST_TEST(y >= 0.0);
    Rng rng(8);
    std::vector<double> near = far;
    for (double& y : near) y *= 1.0 + 1e-3 * (rng.uniform() - 0.5);  // relative: no entry crosses 0
    const std::vector<double> start = near;
    BOOST_TEST(set.violation(near.data()) > 1e-6);
    BOOST_TEST(set.restore(near.data(), 1e-12));
    BOOST_TEST(set.violation(near.data()) <= 1e-12);
    std::vector<double> step(near.size()), R(near.size()), x;
    double moved = 0.0;
    for (std::size_t k = 0; k < near.size(); ++k) {
        BOOST_TEST(near[k] >= 0.0);
        if (start[k] == 0.0) BOOST_TEST(near[k] == 0.0);
        step[k] = near[k] - start[k];
        moved = std::max(moved, std::fabs(step[k]));
    }
    BOOST_TEST(moved > 0.0);
    set.reduce(near.data(), step.data(), x, R.data());
    double tangent = 0.0;
    for (std::size_t k = 0; k < near.size(); ++k)
        if (near[k] > 0.0) tangent = std::max(tangent, std::fabs(R[k]));
    BOOST_TEST(tangent <= 1e-3 * moved);
    // a row without support cannot reach row sum 1 on it: refused, not forced
    std::vector<double> Y = far;
    for (std::size_t k = 0; k < 6; ++k) Y[k] = 0.0;
    BOOST_TEST(!set.restore(Y.data(), 1e-12));
}

BOOST_AUTO_TEST_CASE(kmeans_factors_reduce_a_gradient_to_its_tangent_part)
{
    // At a point of the set, R = G - J^T x with the least-squares multipliers x: J (M o R) = 0 (central
    // differences of the constraints along M o R vanish), <G, T> = <R, T> along a tangent T,
    // and a gradient that is J^T x0 itself reduces to 0
    const std::size_t n = 60, r = 6;
    const KmeansFactors set(n, r, 3.0, nullptr);
    std::vector<double> Y = soft_factor(0.3, 6);
    BOOST_TEST_REQUIRE(set.restore(Y.data(), 1e-13, 100));
    const auto constraints = [&](const std::vector<double>& Z) {  // (Z Z^T 1, ||Z||^2)
        std::vector<double> c(n + 1, 0.0), u(r, 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < r; ++k) u[k] += Z[i * r + k], c[n] += Z[i * r + k] * Z[i * r + k];
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < r; ++k) c[i] += Z[i * r + k] * u[k];
        return c;
    };
    const auto masked = [&](std::vector<double> V) {
        for (std::size_t k = 0; k < V.size(); ++k)
            if (!(Y[k] > 0.0)) V[k] = 0.0;
        return V;
    };
    const Matrix G = random_matrix(n, r, 11), H = random_matrix(n, r, 12);
    std::vector<double> R(n * r), T(n * r), x, ignored;
    set.reduce(Y.data(), G.data(), x, R.data());
    set.reduce(Y.data(), H.data(), ignored, T.data());
    const std::vector<double> D = masked(R);
    T = masked(T);  // a tangent direction on the support
    const double h = 1e-5;
    std::vector<double> up = Y, down = Y;
    for (std::size_t k = 0; k < Y.size(); ++k) up[k] += h * D[k], down[k] -= h * D[k];
    // against the constraints' change along M o G itself: 1e-8, the conjugate gradients' 1e-10 relative
    // residual times the norms between a residual and one entry (the central difference of a quadratic
    // is exact but for rounding, 1e-16 / h)
    std::vector<double> up_G = Y, down_G = Y;
    for (std::size_t k = 0; k < Y.size(); ++k)
        if (Y[k] > 0.0) up_G[k] += h * G.data()[k], down_G[k] -= h * G.data()[k];
    const std::vector<double> cu = constraints(up), cd = constraints(down), cu_G = constraints(up_G), cd_G = constraints(down_G);
    double along_support = 0.0, along_reduced = 0.0;
    for (std::size_t i = 0; i <= n; ++i) {
        along_support = std::max(along_support, std::fabs(cu_G[i] - cd_G[i]) / (2.0 * h));
        along_reduced = std::max(along_reduced, std::fabs(cu[i] - cd[i]) / (2.0 * h));
    }
    BOOST_TEST(along_reduced <= 1e-8 * along_support);
    double along_G = 0.0, along_R = 0.0;
    for (std::size_t k = 0; k < Y.size(); ++k) along_G += G.data()[k] * T[k], along_R += R[k] * T[k];
    BOOST_TEST(along_G == along_R, boost::test_tools::tolerance(1e-9));
    // G0 = J^T x0 = x0 u^T + 1 (Y^T x0)^T + 2 x0_n Y everywhere
    std::vector<double> x0(n + 1), u(r, 0.0), v(r, 0.0), G0(n * r), R0(n * r), found;
    Rng rng(13);
    for (double& value : x0) value = rng.normal();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k) u[k] += Y[i * r + k], v[k] += Y[i * r + k] * x0[i];
    double largest = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k) {
            G0[i * r + k] = x0[i] * u[k] + v[k] + 2.0 * x0[n] * Y[i * r + k];
            largest = std::max(largest, std::fabs(G0[i * r + k]));
        }
    set.reduce(Y.data(), G0.data(), found, R0.data());
    for (double value : R0) BOOST_TEST(std::fabs(value) <= 1e-8 * largest);
}

BOOST_AUTO_TEST_SUITE_END()
