// facto's own dense kernels against xtensor-blas references.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "fixtures.hpp"
#include "linalg/blas.hpp"
#include "linalg/krylov_schur.hpp"
#include "linalg/lanczos.hpp"
#include "linalg/alternating_nmf.hpp"
#include "linalg/nonnegative_least_squares.hpp"
#include "linalg/sparse.hpp"
#include "linalg/product_argmin.hpp"
#include "linalg/spectral_projected_gradient.hpp"

using namespace facto;
using namespace facto::test;

BOOST_AUTO_TEST_SUITE(linalg)

BOOST_AUTO_TEST_CASE(gram_is_a_transpose_a_for_every_shape)
{
    // k on both sides of the kernel's limit (64) and of its blocks of 4 and 8; n across row chunks
    // (64) and groups (1024).
    for (std::size_t k : {1, 3, 4, 5, 8, 13, 30, 64, 65, 70})
        for (std::size_t n : {1, 7, 64, 65, 1500, 2049}) {
            const Matrix A = random_matrix(n, k, 100 * k + n);
            Matrix C({k, k});
            blas::gram(A, C, 2);
            const Matrix expected = xt::linalg::dot(xt::transpose(A), A);
            BOOST_TEST_CONTEXT("n " << n << " k " << k)
            BOOST_TEST(xt::allclose(C, expected, 1e-13, 1e-12 * static_cast<double>(n)));
            BOOST_TEST(C == xt::transpose(C));
        }
}

BOOST_AUTO_TEST_CASE(gram_does_not_depend_on_the_thread_count)
{
    const Matrix A = random_matrix(5000, 30, 7);
    Matrix one({30, 30}), many({30, 30});
    blas::gram(A, one, 1);
    for (std::size_t threads : {2, 3, 7}) {
        blas::gram(A, many, threads);
        BOOST_TEST(many == one);  // bitwise
    }
}

BOOST_AUTO_TEST_CASE(times_small_is_a_times_s_for_every_shape)
{
    for (std::size_t k : {1, 3, 4, 5, 8, 13, 30, 64, 65})
        for (std::size_t n : {1, 3, 4, 7, 513, 1030}) {
            const Matrix A = random_matrix(n, k, 10 * k + n), S = random_matrix(k, k, 7 * k + n);
            Matrix C({n, k}), many({n, k});
            blas::times_small(A, S, C, 1);
            BOOST_TEST_CONTEXT("n " << n << " k " << k)
            BOOST_TEST(xt::allclose(C, xt::linalg::dot(A, S), 1e-13, 1e-12 * static_cast<double>(k)));
            blas::times_small(A, S, many, 3);
            BOOST_TEST(many == C);  // rows are independent: bitwise the same on any thread count
        }
}

BOOST_AUTO_TEST_CASE(product_column_argmin_finds_the_first_smallest_entry_off_the_listed_rows)
{
    // m across the kernel's depth (1, 7, 64, 300), n across its tiles of 8 rows and panels, b across
    // groups of 6 columns; rows 5 and n - 3 are equal with a shift far below the others', so they tie
    // for the minimum of every column: the first of them wins unless it is listed. Listed entries
    // come back with their values.
    for (std::size_t m : {1, 7, 64, 300})
        for (std::size_t n : {9, 203, 2500}) {
            const std::size_t b = 13, twin = n - 3;
            Matrix A = random_matrix(n, m, m + n), B = random_matrix(b, m, 2 * m + n);
            std::vector<double> shift(n);
            for (std::size_t i = 0; i < n; ++i) shift[i] = std::sin(static_cast<double>(i));
            for (std::size_t k = 0; k < m; ++k) A(twin, k) = A(5, k);
            shift[5] = shift[twin] = -1e3;
            // column l lists rows l, l + 1, ... up to l % 4 of them, and column 2 lists row 5 too
            std::vector<std::size_t> start{0};
            std::vector<int64_t> rows;
            for (std::size_t l = 0; l < b; ++l) {
                if (l == 2) rows.push_back(5);
                for (std::size_t j = 0; j < l % 4; ++j) rows.push_back(static_cast<int64_t>((l + j) % n));
                const auto column = rows.begin() + static_cast<std::ptrdiff_t>(start.back());
                std::sort(column, rows.end());
                rows.erase(std::unique(column, rows.end()), rows.end());
                start.push_back(rows.size());
            }
            std::vector<std::size_t> where(b), where3(b);
            std::vector<double> value(b), value3(b), listed(rows.size(), NAN), listed3(rows.size(), NAN);
            const ListedRows one{start.data(), rows.data(), listed.data()};
            const ListedRows three{start.data(), rows.data(), listed3.data()};
            product_column_argmin(A.data(), n, shift.data(), B.data(), b, m, one, where.data(), value.data(), 1);
            product_column_argmin(A.data(), n, shift.data(), B.data(), b, m, three, where3.data(), value3.data(), 3);
            const auto g = [&](std::size_t i, std::size_t l) {
                double sum = shift[i];
                for (std::size_t k = 0; k < m; ++k) sum += A(i, k) * B(l, k);
                return sum;
            };
            BOOST_TEST_CONTEXT("m " << m << " n " << n) {
                BOOST_TEST(where == where3);
                BOOST_TEST(value == value3);  // bitwise: every entry is computed the same way on any split
                BOOST_TEST(listed == listed3);
                for (std::size_t l = 0; l < b; ++l)
                    for (std::size_t e = start[l]; e < start[l + 1]; ++e)
                        BOOST_TEST(listed[e] == g(static_cast<std::size_t>(rows[e]), l),
                                   boost::test_tools::tolerance(1e-12));
                for (std::size_t l = 0; l < b; ++l) {
                    const bool five_excluded = std::binary_search(&rows[start[l]], &rows[start[l + 1]], int64_t{5});
                    BOOST_TEST(where[l] == (five_excluded ? twin : std::size_t{5}));
                    double expected = HUGE_VAL;
                    for (std::size_t i = 0; i < n; ++i)
                        if (!std::binary_search(&rows[start[l]], &rows[start[l + 1]], static_cast<int64_t>(i)))
                            expected = std::min(expected, g(i, l));
                    BOOST_TEST(value[l] == expected, boost::test_tools::tolerance(1e-12));
                }
            }
        }
}

BOOST_AUTO_TEST_CASE(product_column_argmin_skips_nan_and_reports_columns_with_every_row_listed)
{
    const std::size_t n = 20, m = 3, b = 2;
    Matrix A = random_matrix(n, m, 1), B = random_matrix(b, m, 2);
    std::vector<double> shift(n, 0.0);
    shift[4] = -1e3;
    A(4, 1) = std::nan("");  // the would-be minimum of every column is NaN
    std::vector<std::size_t> start{0, 0, n};
    std::vector<int64_t> rows(n);
    for (std::size_t i = 0; i < n; ++i) rows[i] = static_cast<int64_t>(i);  // column 1 lists every row
    std::vector<std::size_t> where(b);
    std::vector<double> value(b), listed(n);
    product_column_argmin(A.data(), n, shift.data(), B.data(), b, m, {start.data(), rows.data(), listed.data()},
                          where.data(), value.data(), 2);
    BOOST_TEST(std::isnan(listed[4]));
    BOOST_TEST(where[0] != 4u);
    BOOST_TEST(where[0] < n);
    BOOST_TEST(std::isfinite(value[0]));
    BOOST_TEST(where[1] == n);
    BOOST_TEST(value[1] == HUGE_VAL);
}

BOOST_AUTO_TEST_CASE(lanczos_finds_the_smallest_eigenpair_that_lapack_finds)
{
    // with and without restarts (steps 5 and 40), a tight and a loose tolerance, and 0 (below rounding:
    // converges at rounding level instead of restarting until max_products)
    for (std::size_t n : {1, 7, 60, 300})
        for (std::size_t steps : {5, 40})
            for (double tolerance : {1e-10, 1e-3, 0.0}) {
                const Matrix B = random_matrix(n, n, 3 * n + steps);
                Matrix A = B + xt::transpose(B), P = A;
                Vector lambda;
                blas::symmetric_eigen(P, lambda);
                std::vector<double> v(n, 1.0);
                int64_t calls = 0;
                const Eigenpair pair = smallest_eigenpair(
                    n,
                    [&](const double* x, double* y) {
                        ++calls;
                        for (std::size_t i = 0; i < n; ++i) {
                            double sum = 0.0;
                            for (std::size_t j = 0; j < n; ++j) sum += A(i, j) * x[j];
                            y[i] = sum;
                        }
                    },
                    v, tolerance, steps, 100000);
                const double scale = std::max(std::fabs(lambda(0)), std::fabs(lambda(n - 1)));
                BOOST_TEST_CONTEXT("n " << n << " steps " << steps << " tolerance " << tolerance) {
                    BOOST_TEST(pair.converged);
                    BOOST_TEST(pair.products == calls);
                    if (n <= steps) BOOST_TEST(calls <= static_cast<int64_t>(n));  // n vectors span the space
                    // the true residual of the returned unit vector, and the eigenvalue it bounds
                    double residual = 0.0, length = 0.0;
                    for (std::size_t i = 0; i < n; ++i) {
                        double sum = -pair.value * v[i];
                        for (std::size_t j = 0; j < n; ++j) sum += A(i, j) * v[j];
                        residual += sum * sum;
                        length += v[i] * v[i];
                    }
                    BOOST_TEST(std::sqrt(length) == 1.0, boost::test_tools::tolerance(1e-12));
                    BOOST_TEST(std::sqrt(residual) <= 2 * tolerance * scale + 1e-12 * scale);
                    BOOST_TEST(pair.value >= lambda(0) - 1e-12 * scale);  // a Ritz value bounds it above
                    // Kato-Temple: the error of the Ritz value is at most residual^2 / (lambda_1 - value)
                    const double gap = n > 1 ? lambda(1) - pair.value : scale;
                    BOOST_TEST(pair.value - lambda(0) <= residual / gap + 1e-12 * scale);
                }
            }
}

BOOST_AUTO_TEST_CASE(eigenvalues_alone_are_those_of_the_full_eigendecomposition)
{
    // symmetric_eigenvalues (dsytrd, dsterf) against dsyev / dsyevd, with a repeated eigenvalue (a
    // rank-deficient A), on both sides of dsyev's n <= 64
    for (std::size_t n : {1, 7, 150}) {
        const Matrix G = random_matrix(n, n / 2 + 1, 700 + n);
        Matrix A({n, n});
        blas::gemm(false, true, 1.0, G, G, 0.0, A);  // rank n / 2 + 1: eigenvalue -1 repeated below
        for (std::size_t i = 0; i < n; ++i) A(i, i) -= 1.0;
        Matrix full = A;
        Vector all;
        blas::symmetric_eigen(full, all);
        Matrix work = A;
        const Vector values = blas::symmetric_eigenvalues(work);
        BOOST_TEST_REQUIRE(values.size() == n);
        const double scale = std::max(std::fabs(all(0)), std::fabs(all(n - 1)));
        for (std::size_t k = 0; k < n; ++k) BOOST_TEST(std::fabs(values(k) - all(k)) <= 1e-12 * scale);
    }
}

BOOST_AUTO_TEST_CASE(lanczos_is_deterministic)
{
    const std::size_t n = 200;
    const Matrix B = random_matrix(n, n, 9);
    const Matrix A = B + xt::transpose(B);
    const auto apply = [&](const double* x, double* y) {
        for (std::size_t i = 0; i < n; ++i) {
            double sum = 0.0;
            for (std::size_t j = 0; j < n; ++j) sum += A(i, j) * x[j];
            y[i] = sum;
        }
    };
    std::vector<double> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] = std::cos(static_cast<double>(i));
    const Eigenpair first = smallest_eigenpair(n, apply, a, 1e-8, 12);
    const Eigenpair second = smallest_eigenpair(n, apply, b, 1e-8, 12);
    BOOST_TEST(first.value == second.value);
    BOOST_TEST(a == b);
}

// Krylov-Schur against dsyev on A = Q diag(lambda) Q^T with a known spectrum: the K wanted eigenvalues
// to the residual bound, each vector's residual ||A v - lambda v|| within the tolerance, orthonormality.
BOOST_AUTO_TEST_CASE(krylov_schur_finds_the_extreme_eigenpairs_of_a_known_spectrum)
{
    const std::size_t n = 300, K = 4;
    Matrix Q = random_matrix(n, n, 41);
    Matrix R = Matrix::from_shape({n, n});
    blas::gemm(true, false, 1.0, Q, Q, 0.0, R);
    Vector unused;
    blas::symmetric_eigen(R, unused);  // rows of R: an orthonormal basis
    std::vector<double> spectrum(n);
    for (std::size_t i = 0; i < n; ++i) spectrum[i] = -0.8 + 1.6 * static_cast<double>(i) / static_cast<double>(n);
    spectrum[0] = 5.0, spectrum[1] = -4.5, spectrum[2] = 4.0, spectrum[3] = 3.0, spectrum[4] = -2.0;
    Matrix A = xt::zeros<double>({n, n});
    for (std::size_t l = 0; l < n; ++l)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) A(i, j) += R(l, i) * spectrum[l] * R(l, j);
    auto apply = [&](const double* x, double* y) {
        for (std::size_t i = 0; i < n; ++i) y[i] = blas::dot(&A(i, 0), x, n);
    };
    const double tolerance = 1e-10;
    const std::vector<std::pair<Spectrum, std::vector<double>>> cases = {
        {Spectrum::LargestAlgebraic, {5.0, 4.0, 3.0, 0.0}},  // the fourth: the largest of the bulk
        {Spectrum::LargestMagnitude, {5.0, -4.5, 4.0, 3.0}}};
    for (const auto& [which, expected] : cases) {
        const Eigenpairs E = extreme_eigenpairs(n, K, apply, which, tolerance, 3);
        BOOST_TEST(E.converged);
        std::vector<double> want = expected;
        if (which == Spectrum::LargestAlgebraic) {
            std::vector<double> sorted = spectrum;
            std::sort(sorted.rbegin(), sorted.rend());
            want[3] = sorted[3];
        }
        for (std::size_t k = 0; k < K; ++k) {
            // a Ritz value with residual r is within r of an eigenvalue (and r^2 / gap of it)
            BOOST_TEST(std::abs(E.values(k) - want[k]) <= 10.0 * tolerance * 5.0);
            std::vector<double> v(n), Av(n);
            for (std::size_t i = 0; i < n; ++i) v[i] = E.vectors(i, k);
            apply(v.data(), Av.data());
            double residual = 0.0;
            for (std::size_t i = 0; i < n; ++i) residual += std::pow(Av[i] - E.values(k) * v[i], 2);
            BOOST_TEST(std::sqrt(residual) <= 10.0 * tolerance * 5.0);
            for (std::size_t l = 0; l <= k; ++l) {
                double dot = 0.0;
                for (std::size_t i = 0; i < n; ++i) dot += E.vectors(i, k) * E.vectors(i, l);
                BOOST_TEST(std::abs(dot - (l == k ? 1.0 : 0.0)) <= 1e-12);
            }
        }
    }
}

// Rank-deficient operators break the Lanczos recurrence: the basis restarts on a fresh direction and
// the eigenpairs are still exact (a projector of rank 2 in R^50, K = 3 asks for a zero eigenvalue too).
BOOST_AUTO_TEST_CASE(krylov_schur_survives_an_invariant_subspace)
{
    const std::size_t n = 50;
    Matrix U = random_matrix(n, 2, 9);
    Matrix G = Matrix::from_shape({2, 2});
    blas::gemm(true, false, 1.0, U, U, 0.0, G);
    auto apply = [&](const double* x, double* y) {  // y = U U^T x
        double c0 = 0.0, c1 = 0.0;
        for (std::size_t i = 0; i < n; ++i) c0 += U(i, 0) * x[i], c1 += U(i, 1) * x[i];
        for (std::size_t i = 0; i < n; ++i) y[i] = U(i, 0) * c0 + U(i, 1) * c1;
    };
    const Eigenpairs E = extreme_eigenpairs(n, 3, apply, Spectrum::LargestAlgebraic, 1e-12, 4);
    BOOST_TEST(E.converged);
    Vector lambda;
    blas::symmetric_eigen(G, lambda);  // the nonzero eigenvalues of U U^T are those of U^T U
    BOOST_TEST(std::abs(E.values(0) - lambda(1)) <= 1e-10 * lambda(1));
    BOOST_TEST(std::abs(E.values(1) - lambda(0)) <= 1e-10 * lambda(1));
    BOOST_TEST(std::abs(E.values(2)) <= 1e-10 * lambda(1));
}

// HALS reaches the KKT point of nonnegative least squares: a gradient >= 0 where H = 0 and = 0 where
// H > 0, to a tolerance relative to the start's projected gradient.
BOOST_AUTO_TEST_CASE(nonnegative_least_squares_meets_the_kkt_conditions)
{
    const Matrix W = xt::abs(random_matrix(40, 5, 12)), X = random_matrix(40, 30, 13);
    Matrix G = Matrix::from_shape({5, 5}), B = Matrix::from_shape({5, 30});
    blas::gemm(true, false, 1.0, W, W, 0.0, G);
    blas::gemm(true, false, 1.0, W, X, 0.0, B);
    Matrix H = xt::zeros<double>({5, 30});
    const double start = projected_gradient_norm(G, B, H);
    const int sweeps = nonnegative_least_squares(G, B, H, 1e-12, 10000);
    BOOST_TEST(sweeps < 10000);
    BOOST_TEST(xt::amin(H)() >= 0.0);
    BOOST_TEST(projected_gradient_norm(G, B, H) <= 1e-12 * start);
    BOOST_TEST(xt::sum(xt::equal(H, 0.0))() > 0u);  // the constraint binds somewhere (X has mixed signs)
}

// Alternating HALS on a sparse matrix: no step raises 1/2 ||F - W H||^2; on F = W* H* exactly
// (nonnegative, rank 4, H* half zeros) a start near the planted factors converges toward the exact fit
// (its projected gradients vanishing with it) until a step's gain is below rounding; tolerance 1 stops
// after one step.
BOOST_AUTO_TEST_CASE(alternating_nmf_never_raises_the_fit_and_finds_an_exact_factorization)
{
    const std::size_t D = 50, N = 40, K = 4;
    Matrix Wp = xt::abs(random_matrix(D, K, 61)), Hp = xt::abs(random_matrix(K, N, 62));
    Hp = xt::where(random_matrix(K, N, 63) > 0.0, Hp, 0.0);
    Matrix dense = Matrix::from_shape({D, N});
    blas::gemm(false, false, 1.0, Wp, Hp, 0.0, dense);
    std::vector<int64_t> row, col;
    std::vector<double> value;
    for (std::size_t d = 0; d < D; ++d)
        for (std::size_t n = 0; n < N; ++n)
            if (dense(d, n) != 0.0) row.push_back(static_cast<int64_t>(d)), col.push_back(static_cast<int64_t>(n)), value.push_back(dense(d, n));
    const CsrMatrix F = csr_from_triplets(static_cast<int64_t>(D), static_cast<int64_t>(N), row.data(), col.data(), value.data(),
                                          static_cast<int64_t>(value.size()));
    const CsrMatrix Ft = transpose(F);
    const auto fit = [&](const Matrix& W, const Matrix& H) {
        Matrix WH = Matrix::from_shape({D, N});
        blas::gemm(false, false, 1.0, W, H, 0.0, WH);
        return 0.5 * xt::sum(xt::square(dense - WH))();
    };
    Matrix W = xt::abs(random_matrix(D, K, 64)), H = xt::abs(random_matrix(K, N, 65));
    double last = fit(W, H);
    BOOST_TEST(alternating_nmf(F, Ft, W, H, 1.0, 100, 1) == 1);
    for (int step = 0; step < 200; ++step) {
        BOOST_TEST_REQUIRE(fit(W, H) <= last * (1.0 + 1e-14));
        last = fit(W, H);
        alternating_nmf(F, Ft, W, H, 0.0, 1, 1);
    }
    W = Wp * (1.0 + 0.1 * random_matrix(D, K, 66)), H = Hp * (1.0 + 0.1 * random_matrix(K, N, 67)) + 0.01;
    const double start = fit(W, H);
    alternating_nmf(F, Ft, W, H, 1e-15, 20000, 2);
    BOOST_TEST(xt::amin(W)() >= 0.0);
    BOOST_TEST(xt::amin(H)() >= 0.0);
    BOOST_TEST(fit(W, H) <= 1e-6 * start);  // HALS's rate slows near the fit's zeros
    Matrix G = Matrix::from_shape({K, K}), B = Matrix::from_shape({K, N});
    blas::gemm(true, false, 1.0, W, W, 0.0, G);
    blas::gemm(true, false, 1.0, W, dense, 0.0, B);
    BOOST_TEST(projected_gradient_norm(G, B, H) <= 1e-5 * std::sqrt(xt::sum(xt::square(B))()));
}

// Block principal pivoting solves the problem exactly: the KKT conditions hold to the rounding of the
// Cholesky solves, from a cold start, from a warm one, and with a zero column in W (G(k, k) = 0).
BOOST_AUTO_TEST_CASE(block_principal_pivoting_solves_nonnegative_least_squares_exactly)
{
    for (std::size_t K : {1, 5, 12}) {
        Matrix W = xt::abs(random_matrix(60, K, 20 + K));
        const Matrix X = random_matrix(60, 200, 30 + K);
        if (K > 1) xt::view(W, xt::all(), 1) = 0.0;
        Matrix G = Matrix::from_shape({K, K}), B = Matrix::from_shape({K, 200});
        blas::gemm(true, false, 1.0, W, W, 0.0, G);
        blas::gemm(true, false, 1.0, W, X, 0.0, B);
        const double scale = projected_gradient_norm(G, B, xt::zeros<double>({K, std::size_t{200}}));
        Matrix cold = xt::zeros<double>({K, std::size_t{200}});
        nonnegative_least_squares_exact(G, B, cold);
        BOOST_TEST_CONTEXT("K " << K)
        {
            BOOST_TEST(xt::amin(cold)() >= 0.0);
            BOOST_TEST(projected_gradient_norm(G, B, cold) <= 1e-12 * scale);
            if (K > 1) BOOST_TEST(xt::amax(xt::abs(xt::view(cold, 1, xt::all())))() == 0.0);
            Matrix hals = xt::zeros<double>({K, std::size_t{200}});
            nonnegative_least_squares(G, B, hals, 1e-13, 100000);
            BOOST_TEST(xt::allclose(cold, hals, 1e-7, 1e-9));  // the minimizer is unique (W's other columns independent)
            Matrix warm = cold + 0.5 * xt::abs(random_matrix(K, 200, 40 + K));  // a perturbed passive set
            nonnegative_least_squares_exact(G, B, warm);
            BOOST_TEST(xt::allclose(warm, cold, 1e-10, 1e-12));
        }
    }
}

BOOST_AUTO_TEST_CASE(spectral_projected_gradient_meets_the_box_kkt_conditions)
{
    // a strictly convex quadratic 1/2 x^T A x - b^T x over [0, 1]^40, A = R^T R + I/10, with b such that
    // some bounds bind: the minimizer is unique, so SPG and L-BFGS-B must reach the same point, and
    // there the projected gradient vanishes (entries at 0 have g >= 0, at 1 g <= 0, inside g = 0)
    const std::size_t n = 40;
    const Matrix R = random_matrix(n, n, 11);
    Matrix A({n, n});
    blas::gemm(true, false, 1.0, R, R, 0.0, A);
    for (std::size_t i = 0; i < n; ++i) A(i, i) += 0.1;
    std::vector<double> b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = 20.0 * std::sin(static_cast<double>(3 * i + 1));
    int evaluations = 0;
    const auto f = [&](const double* x, double* g) {
        ++evaluations;
        double value = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            g[i] = -b[i];
            for (std::size_t j = 0; j < n; ++j) g[i] += A(i, j) * x[j];
            value += x[i] * (0.5 * (g[i] + b[i]) - b[i]);
        }
        return value;
    };
    LbfgsbSettings settings;
    settings.pgtol = 1e-10;
    settings.factr = 0.0;
    settings.max_iterations = 100000;
    std::vector<double> spg(n, 0.5), lbfgsb(n, 0.5), g(n);
    const LbfgsbResult result = minimize_in_box_spg(spg, 0.0, 1.0, f, settings);
    minimize_in_box(lbfgsb, 0.0, 1.0, f, settings);
    BOOST_TEST(result.projected_gradient <= 1e-10);
    f(spg.data(), g.data());
    std::size_t at_bounds = 0;
    for (std::size_t i = 0; i < n; ++i) {
        BOOST_TEST((spg[i] >= 0.0 && spg[i] <= 1.0));
        BOOST_TEST(std::fabs(std::clamp(spg[i] - g[i], 0.0, 1.0) - spg[i]) <= 1e-10);
        BOOST_TEST(std::fabs(spg[i] - lbfgsb[i]) <= 1e-8);  // A's smallest eigenvalue 0.1: 1e-9 / 0.1 and rounding
        at_bounds += spg[i] == 0.0 || spg[i] == 1.0;
    }
    BOOST_TEST(at_bounds > 0u);
    BOOST_TEST(at_bounds < n);
    // an interruption stops it at once, after the first evaluation
    evaluations = 0;
    settings.interrupted = [] { return true; };
    std::vector<double> x(n, 0.5);
    BOOST_TEST(minimize_in_box_spg(x, 0.0, 1.0, f, settings).iterations == 0);
    BOOST_TEST(evaluations == 1);
}

BOOST_AUTO_TEST_CASE(spg_on_the_nonnegative_sphere_finds_the_perron_vector)
{
    // The projection: radius [x]_+ / ||[x]_+||, and the constant vector where no entry is positive
    const std::vector<double> v{3.0, -1.0, 4.0, 0.0};
    std::vector<double> p(4);
    constexpr double none = std::numeric_limits<double>::infinity();  // no upper bound
    project_to_nonnegative_sphere(v.data(), 4, 1, 2.0, none, p.data());
    BOOST_TEST(p[0] == 1.2, boost::test_tools::tolerance(1e-15));
    BOOST_TEST(p[1] == 0.0);
    BOOST_TEST(p[2] == 1.6, boost::test_tools::tolerance(1e-15));
    const std::vector<double> negative{-1.0, -2.0, -3.0, -4.0};
    project_to_nonnegative_sphere(negative.data(), 4, 1, 2.0, none, p.data());
    for (double value : p) BOOST_TEST(value == 1.0);
    // rows of norm at most 1 (one column: entries): min(c [v]_+, 1) with c = 1 has norm 1.5 (1 + 1 + 0.25)
    const std::vector<double> w{3.0, -1.0, 4.0, 0.0, 0.5};
    std::vector<double> capped(5);
    project_to_nonnegative_sphere(w.data(), 5, 1, 1.5, 1.0, capped.data());
    const std::vector<double> expected{1.0, 0.0, 1.0, 0.0, 0.5};
    for (std::size_t k = 0; k < 5; ++k) BOOST_TEST(capped[k] == expected[k], boost::test_tools::tolerance(1e-15));
    // min -x^T A x over x >= 0, ||x|| = 2, A entrywise positive: the answer is 2 v, v A's Perron vector
    // (positive, unique); from a start with zeros, which the arc search must leave
    const std::size_t n = 30;
    Matrix A({n, n});
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) A(i, j) = 1.0 + 0.5 * std::cos(static_cast<double>(i * j + i + j));
    A = 0.5 * (A + xt::transpose(A));
    Vector values;
    Matrix vectors = A;
    blas::symmetric_eigen(vectors, values);
    std::vector<double> perron(n);
    const double sign = vectors(n - 1, 0) > 0.0 ? 1.0 : -1.0;
    for (std::size_t i = 0; i < n; ++i) perron[i] = 2.0 * sign * vectors(n - 1, i);  // P's rows
    const auto f = [&](const double* x, double* g) {
        double value = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            g[i] = 0.0;
            for (std::size_t j = 0; j < n; ++j) g[i] -= 2.0 * A(i, j) * x[j];
            value += 0.5 * x[i] * g[i];
        }
        return value;
    };
    LbfgsbSettings settings;
    settings.pgtol = 1e-10;
    settings.factr = 0.0;
    settings.max_iterations = 10000;
    std::vector<double> x(n, 0.0);
    x[0] = x[1] = 1.0;
    const LbfgsbResult result = minimize_on_nonnegative_sphere_spg(x, 1, 2.0, none, f, settings);
    BOOST_TEST(result.projected_gradient <= 1e-10);
    BOOST_TEST(result.step > 0.0);
    // the one stationary point with a zero entry j would need (A x)_j <= 0, impossible for A > 0: 2 v is the
    // only one, and A's eigengap (its top eigenvalue near n, the others near 0.5 n at most) keeps a point
    // stationary to 1e-10 within 1e-8 of it
    for (std::size_t i = 0; i < n; ++i) BOOST_TEST(std::fabs(x[i] - perron[i]) <= 1e-8);
    std::vector<double> g(n);
    f(x.data(), g.data());
    BOOST_TEST(sphere_projected_gradient(x.data(), g.data(), n, 1, 2.0, none) <= 1e-10);
}

BOOST_AUTO_TEST_SUITE_END()
