// Benchmark of simplicial SymNMF on the bundled satimage data (Gaussian kernel, bandwidth 1, features
// scaled to [-1, 1], n = 6435, k = 6), not part of the tests:
//  (1) seconds for Frank-Wolfe with each step rule and for projected gradient to reach the same
//      objective from the same start, as ratios;
//  (2) the cost of one iteration of each divided by the cost of one P W GEMM of the same size,
//      measured in the same run.
// Usage: bench_simplicial_symnmf [data.csv] [seconds per solver] [k]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "solvers/simplicial_symnmf/frank_wolfe.hpp"
#include "solvers/simplicial_symnmf/projected_gradient.hpp"
#include "linalg/blas.hpp"
#include "measure.hpp"

using namespace facto;
using bench::Run;
using bench::time_to;
using bench::trace;
using bench::Clock;
using bench::median;

namespace {

// Median time of one iteration (the first is skipped: it may carry one-time setup such as ||P||_2).
double per_iteration(const Run& run)
{
    std::vector<double> d;
    for (std::size_t i = 2; i < run.seconds.size(); ++i) d.push_back(run.seconds[i] - run.seconds[i - 1]);
    return median(d);
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string path = argc > 1 ? argv[1] : "data/satimage.csv";
    const double budget = argc > 2 ? std::stod(argv[2]) : 20.0;
    const int64_t k = argc > 3 ? std::stoll(argv[3]) : 6;

    Matrix X = read_matrix(path);
    scale_columns(X, Scaling::MinMax);
    auto problem = std::make_shared<const SimplicialSymNMF>(gaussian_affinity(X, 1.0), k);
    const std::size_t n = static_cast<std::size_t>(problem->n());
    const Matrix W0 = problem->random_point(0);
    std::printf("satimage Gaussian kernel: n = %zu, k = %lld, budget %.0f s per solver\n", n, (long long)k, budget);

    // Reference: one P W GEMM (n x n times n x k) with OpenBLAS, median of 15.
    Matrix PW({n, static_cast<std::size_t>(k)});
    std::vector<double> gemm_times;
    for (int r = 0; r < 15; ++r) {
        const auto t0 = Clock::now();
        problem->multiply(W0, PW);
        gemm_times.push_back(bench::seconds_since(t0));
    }
    const double gemm = median(gemm_times);
    std::printf("GEMM P W: %.2f ms (%.1f GFLOP/s, %.1f GB/s of P)\n\n", 1e3 * gemm,
                2.0 * n * n * k / gemm * 1e-9, 8.0 * n * n / gemm * 1e-9);

    std::vector<Run> runs;
    for (const char* rule : {"line_search", "open_loop", "curvature"}) {
        FrankWolfe fw(problem);
        fw.mutable_params().set_string("step_rule", rule);
        runs.push_back(trace(fw, std::string("frank_wolfe/") + rule, W0, budget));
    }
    ProjectedGradient pgd(problem);
    runs.push_back(trace(pgd, "projected_gradient", W0, budget));

    // Target: the worst final objective among the solvers that make progress in the budget (the
    // curvature rule's step g/C with C ~ n^2 barely moves; it is reported but not used for the target).
    double target = -std::numeric_limits<double>::infinity();
    for (const Run& r : runs)
        if (r.name != "frank_wolfe/curvature") target = std::max(target, r.objective.back());
    const double reference_time = time_to(runs.back(), target);

    std::printf("start objective %.6e, common target %.6e\n", runs[0].objective[0], target);
    std::printf("%-28s %8s %14s %12s %12s %14s %12s\n", "solver", "iters", "final f", "to target s",
                "vs PGD", "ms/iteration", "vs GEMM");
    for (const Run& r : runs) {
        const double reach = time_to(r, target), it = per_iteration(r);
        std::printf("%-28s %8zu %14.6e %12.3f %12.3f %14.2f %12.2f\n", r.name.c_str(), r.objective.size() - 1,
                    r.objective.back(), reach, reach / reference_time, 1e3 * it, it / gemm);
    }
    return 0;
}
