// facto's own dense kernels against xtensor-blas references.
#include <boost/test/unit_test.hpp>

#include "fixtures.hpp"
#include "linalg/blas.hpp"

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

BOOST_AUTO_TEST_SUITE_END()
