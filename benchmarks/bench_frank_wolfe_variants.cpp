// Frank-Wolfe's away-step and pairwise variants against vanilla Frank-Wolfe and projected gradient on
// simplicial SymNMF (not part of the tests). Every solver starts from the same seeded point and runs
// until its Frank-Wolfe gap is below 1e-13 f(start) or the time budget ends; the objective and the gap
// are recorded after every iteration. Printed: the best objective f*, each solver's time to reach
// f* (1 + 1e-8), and each solver's time to reach projected gradient's final objective (1 + 1e-8) as a
// ratio to projected gradient's own time.
// Usage: bench_frank_wolfe_variants satimage|digits [n (0 = all)] [seconds per solver] [trace.csv]
//   satimage: data/satimage.csv, a seeded subset of n points, features scaled to [-1, 1], Gaussian
//             kernel of bandwidth 1, k = 6;
//   digits:   scikit-learn's 8 x 8 digits (python3-sklearn), features standardized, Gaussian kernel of
//             bandwidth 64 (the number of features), k = 10.
#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <xtensor/xview.hpp>

#include "facto/data.hpp"
#include "facto/frank_wolfe.hpp"
#include "facto/projected_gradient.hpp"
#include "data/random.hpp"
#include "measure.hpp"

using namespace facto;

namespace {

struct Run {
    std::string name;
    std::vector<double> seconds, objective, gap;
};

Matrix digits()
{
    const std::string source = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz";
    const std::string csv = "/tmp/facto_digits.csv";
    if (std::system(("gzip -dc " + source + " > " + csv).c_str()) != 0)
        throw std::runtime_error("cannot read " + source + " (apt-get install python3-sklearn)");
    const Matrix all = read_matrix(csv);
    Matrix X = xt::view(all, xt::all(), xt::range(0, all.shape()[1] - 1));  // the last column is the label
    scale_columns(X, Scaling::ZScore);
    return X;
}

Matrix satimage_subset(std::size_t n)
{
    Matrix all = read_matrix("data/satimage.csv");
    scale_columns(all, Scaling::MinMax);
    if (n == 0 || n >= all.shape()[0]) return all;
    std::vector<std::size_t> rows(all.shape()[0]);
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    Rng rng(2024);
    for (std::size_t i = 0; i < n; ++i)  // the first n of a seeded shuffle
        std::swap(rows[i], rows[i + static_cast<std::size_t>(rng.uniform() * static_cast<double>(rows.size() - i))]);
    std::sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(n));
    Matrix X({n, all.shape()[1]});
    for (std::size_t i = 0; i < n; ++i) xt::row(X, static_cast<std::ptrdiff_t>(i)) = xt::row(all, static_cast<std::ptrdiff_t>(rows[i]));
    return X;
}

Run trace(Solver& solver, const std::string& name, const Matrix& W0, double budget, double gap_target)
{
    Run run{name, {}, {}, {}};
    solver.mutable_params().set_double("time_limit", budget);
    solver.mutable_params().set_double("objective_tolerance", 0.0);
    solver.mutable_params().set_double("tolerance", 0.0);
    solver.mutable_params().set_int("max_iterations", 10000000);
    solver.set_iterate(W0);
    const auto record = [&](const Progress& p) {
        run.seconds.push_back(p.elapsed_seconds);
        run.objective.push_back(p.objective);
        run.gap.push_back(p.stationarity);
        return p.stationarity <= gap_target;
    };
    record(solver.progress());
    solver.set_callback(record);
    solver.solve();
    return run;
}

double time_to(const Run& run, double target)
{
    for (std::size_t i = 0; i < run.objective.size(); ++i)
        if (run.objective[i] <= target) return run.seconds[i];
    return std::numeric_limits<double>::infinity();
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string data = argc > 1 ? argv[1] : "satimage";
    const std::size_t n = argc > 2 ? std::stoul(argv[2]) : 2000;
    const double budget = argc > 3 ? std::stod(argv[3]) : 60.0;
    const std::string csv = argc > 4 ? argv[4] : "";

    const bool is_digits = data == "digits";
    const Matrix X = is_digits ? digits() : satimage_subset(n);
    const int64_t k = is_digits ? 10 : 6;
    const auto problem =
        std::make_shared<const SimplicialSymNMF>(gaussian_affinity(X, is_digits ? 64.0 : 1.0), k);
    const Matrix W0 = problem->random_point(argc > 5 ? std::stoull(argv[5]) : 0);
    const double f0 = problem->objective(W0), gap_target = 1e-13 * f0;
    std::printf("%s: n = %lld, k = %lld, f(start) = %.10e, budget %.0f s, stop at gap <= %.2e\n", data.c_str(),
                static_cast<long long>(problem->n()), static_cast<long long>(k), f0, budget, gap_target);

    std::vector<Run> runs;
    const auto fw = [&](const char* variant, const char* rule) {
        FrankWolfe solver(problem);
        solver.mutable_params().set_string("variant", variant);
        solver.mutable_params().set_string("step_rule", rule);
        const std::string name = std::string(variant) + (std::string(variant) == "vanilla" ? std::string("/") + rule : "");
        runs.push_back(trace(solver, name, W0, budget, gap_target));
    };
    fw("vanilla", "open_loop");
    fw("vanilla", "line_search");
    fw("away", "auto");
    fw("pairwise", "auto");
    ProjectedGradient pgd(problem);
    runs.push_back(trace(pgd, "projected_gradient", W0, budget, gap_target));

    double best = std::numeric_limits<double>::infinity();
    for (const Run& r : runs) best = std::min(best, *std::min_element(r.objective.begin(), r.objective.end()));
    const Run& reference = runs.back();
    const double pgd_final = reference.objective.back(), pgd_time = time_to(reference, pgd_final * (1 + 1e-8));
    std::printf("best objective f* = %.12e; projected gradient ends at %.12e after %.2f s\n", best, pgd_final,
                reference.seconds.back());
    std::printf("%-26s %9s %19s %13s %12s %14s %10s\n", "solver", "iters", "final f", "final gap/f0",
                "s to f*+1e-8", "s to PGD final", "vs PGD");
    for (const Run& r : runs) {
        const double to_best = time_to(r, best * (1 + 1e-8)), to_pgd = time_to(r, pgd_final * (1 + 1e-8));
        std::printf("%-26s %9zu %19.12e %13.3e %12.3f %14.3f %10.3f\n", r.name.c_str(), r.objective.size() - 1,
                    r.objective.back(), r.gap.back() / f0, to_best, to_pgd, to_pgd / pgd_time);
    }
    if (!csv.empty()) {
        std::ofstream out(csv);
        out << "solver,seconds,objective,gap,best\n";
        out.precision(17);
        for (const Run& r : runs)
            for (std::size_t i = 0; i < r.objective.size(); ++i)
                out << r.name << ',' << r.seconds[i] << ',' << r.objective[i] << ',' << r.gap[i] << ',' << best << '\n';
    }
    return 0;
}
