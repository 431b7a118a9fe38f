// Many solvers on many threads at once: every solver of every problem kind, two per problem (sharing
// it), and Frank-Wolfe on a problem large enough (n = 2100) that each solver's own loops split over its
// two threads, all started together; every iterate must equal, bit for bit, the one the same solver
// reaches alone. Run under ThreadSanitizer by tests/run.sh.
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "solvers/registry.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

namespace {

struct Job {
    std::shared_ptr<const Problem> problem;
    std::string algorithm;
    int64_t seed;
    std::string variant;  // frank_wolfe's, or empty
    Matrix serial, concurrent;
};

Matrix run(const Job& job)
{
    auto solver = make_solver(job.problem, job.algorithm);
    solver->mutable_params().set_int("seed", job.seed);
    solver->mutable_params().set_int("max_iterations", 15);
    solver->mutable_params().set_int("threads", 2);
    if (!job.variant.empty()) solver->mutable_params().set_string("variant", job.variant);
    solver->solve();
    return solver->iterate();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(concurrency)

BOOST_AUTO_TEST_CASE(solvers_on_many_threads_match_their_serial_runs_bit_for_bit)
{
    std::vector<Job> jobs;
    for (const auto& problem : one_of_each_kind())
        for (const auto& [algorithm, is_default, description] : algorithms_for(problem->kind()))
            for (int64_t seed : {1, 2}) jobs.push_back({problem, algorithm, seed, "", {}, {}});
    const auto large = make_problem(random_affinity(2100, 3, 9), 4);
    for (const char* variant : {"vanilla", "pairwise"})
        for (int64_t seed : {1, 2}) jobs.push_back({large, "frank_wolfe", seed, variant, {}, {}});
    for (Job& job : jobs) job.serial = run(job);
    std::vector<std::thread> threads;
    for (Job& job : jobs) threads.emplace_back([&job] { job.concurrent = run(job); });
    for (std::thread& t : threads) t.join();
    for (const Job& job : jobs) {
        BOOST_TEST_CONTEXT(job.problem->kind() << " / " << job.algorithm << " " << job.variant << ", seed " << job.seed)
        {
            BOOST_REQUIRE(job.serial.shape() == job.concurrent.shape());
            BOOST_TEST(std::memcmp(job.serial.data(), job.concurrent.data(), job.serial.size() * sizeof(double)) == 0);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
