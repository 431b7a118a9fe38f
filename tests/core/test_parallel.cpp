// facto's own parallel loops: every index once, sums that do not depend on the thread count,
// exceptions carried to the caller, nested loops, callers on many threads, and a forked child.
#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

#include "linalg/parallel.hpp"

using namespace facto;

namespace {

// Each index of [0, count) visited exactly once by parallel_for on `threads` threads.
bool covers_once(std::size_t count, std::size_t grain, std::size_t threads)
{
    std::vector<std::atomic<int>> seen(count);
    parallel_for(count, grain, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) seen[i].fetch_add(1);
    });
    for (const auto& s : seen)
        if (s.load() != 1) return false;
    return true;
}

double harmonic_sum(std::size_t count, std::size_t threads)
{
    return parallel_sums<1>(count, 1000, 1000, threads, [](std::size_t begin, std::size_t end, auto& sum) {
        for (std::size_t i = begin; i < end; ++i) sum[0] += 1.0 / static_cast<double>(i + 1);
    })[0];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(parallel)

BOOST_AUTO_TEST_CASE(every_index_is_visited_once)
{
    for (std::size_t threads : {1, 2, 3, 8})
        for (std::size_t count : {0, 1, 7, 1000, 100003})
            for (std::size_t grain : {1, 64, 5000}) BOOST_TEST(covers_once(count, grain, threads));
}

BOOST_AUTO_TEST_CASE(sums_do_not_depend_on_the_thread_count)
{
    const double one = harmonic_sum(123457, 1);
    for (std::size_t threads : {2, 3, 5, 16}) BOOST_TEST(harmonic_sum(123457, threads) == one);  // bitwise
    BOOST_TEST(one == std::log(123457.0) + 0.5772156649, boost::test_tools::tolerance(1e-5));
}

BOOST_AUTO_TEST_CASE(an_exception_in_any_part_reaches_the_caller)
{
    for (std::size_t failing : {0, 3999}) {
        bool caught = false;
        try {
            parallel_for(4000, 10, 4, [&](std::size_t begin, std::size_t end) {
                if (begin <= failing && failing < end) throw std::runtime_error("part failed");
            });
        } catch (const std::runtime_error&) {
            caught = true;
        }
        BOOST_TEST(caught);
        BOOST_TEST(covers_once(4000, 10, 4));  // the workers still serve the next loop
    }
}

BOOST_AUTO_TEST_CASE(nested_loops_run_serially_inside_a_part)
{
    std::vector<std::atomic<int>> seen(64 * 64);
    parallel_for(64, 1, 4, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            parallel_for(64, 1, 4, [&](std::size_t b, std::size_t e) {
                for (std::size_t j = b; j < e; ++j) seen[i * 64 + j].fetch_add(1);
            });
    });
    for (const auto& s : seen) BOOST_REQUIRE(s.load() == 1);
}

BOOST_AUTO_TEST_CASE(callers_on_many_threads_each_get_their_own_workers)
{
    std::atomic<int> failures{0};
    std::vector<std::thread> callers;
    for (int c = 0; c < 6; ++c)
        callers.emplace_back([&] {
            for (int round = 0; round < 50; ++round)
                if (!covers_once(5000, 100, 3) || harmonic_sum(20000, 3) != harmonic_sum(20000, 1)) ++failures;
        });
    for (auto& t : callers) t.join();
    BOOST_TEST(failures.load() == 0);
}

BOOST_AUTO_TEST_CASE(a_forked_child_starts_its_own_workers)
{
    BOOST_REQUIRE(covers_once(10000, 10, 2));  // this thread now has a helper, which fork does not copy
    const double expected = harmonic_sum(50000, 1);
    const pid_t child = fork();
    BOOST_REQUIRE(child >= 0);
    if (child == 0) _exit(covers_once(10000, 10, 2) && harmonic_sum(50000, 2) == expected ? 0 : 1);
    int status = 0;
    BOOST_REQUIRE(waitpid(child, &status, 0) == child);
    BOOST_TEST(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
