// [DAB] Fig. 1 (Dragomir et al.): every SymNMF solver of facto on the paper's own similarity
// matrices (TDT2 r = 30, Reuters r = 25, ORL r = 40), from the same seeded start and for the same time
// budget; not part of the tests. Prints, per dataset and solver: iterations, the cost of one
// iteration as a ratio to one product M X and to one evaluation of f and grad f (M X, X^T X,
// X (X^T X)) measured in the same run, the final relative gap
// (f - f_min) / f_min with f_min the best objective any solver reached, the seconds to reach gaps of
// 1e-3 and 1e-4, and the clustering accuracy at the end of the budget. Times of one iteration and of
// the references are medians over the run, the references timed between its iterations. With several
// seeded starts, each number is the mean over the starts (the references: the first start's), and
// <out>/<dataset>_trace.csv holds Fig. 1's curve: the objective averaged over the starts on a grid of
// 200 times (each start's value at a time being its last iterate's by then), as a gap to f_min; every
// start's own trace goes to
// <out>/<dataset>_starts.csv. A budget of 0 takes the authors' notebook's: 20 s for TDT2 and Reuters,
// 10 s for ORL.
// Usage: bench_symnmf [seconds per solver] [out dir] [seeds]
//                     [datasets: a comma-separated subset of tdt2,reuters,orl; all by default]
// The matrices and labels are read from symnmf/ in the benchmark data directory (measure.hpp's data_dir).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "metrics/metrics.hpp"
#include "solvers/registry.hpp"
#include "sets/row_simplices.hpp"
#include "problems/symnmf.hpp"
#include "linalg/blas.hpp"
#include "measure.hpp"

using namespace facto;
using bench::data_file;
using bench::median;
using Clock = std::chrono::steady_clock;

namespace {

struct Dataset {
    const char* name;
    const char* matrix;
    const char* labels;
    int64_t r;
    double hals_mu;  // the paper's tuned mu of SymHALS and SymANLS: 0.1 for text, 0.01 for images
    double budget;   // seconds per solver and start in the authors' notebook
};

struct Run {
    std::string solver;
    uint64_t seed;
    std::vector<double> seconds, objective;
    std::vector<double> products, evaluations;  // reference timings taken between iterations
    int64_t iterations = 0;
    double accuracy = 0.0;
};

// Seconds of one call of f, after one untimed call (warm caches, like the solver's own products).
double seconds_of(const std::function<void()>& f)
{
    f();
    const auto t0 = Clock::now();
    f();
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The median time of one iteration of a run.
double median_iteration(const Run& run)
{
    std::vector<double> steps;
    for (std::size_t i = 1; i < run.seconds.size(); ++i) steps.push_back(run.seconds[i] - run.seconds[i - 1]);
    return median(steps);
}

// The run's objective at time t: its last iterate's by then (the start's at t = 0).
double objective_at(const Run& run, double t)
{
    std::size_t i = 0;
    while (i + 1 < run.seconds.size() && run.seconds[i + 1] <= t) ++i;
    return run.objective[i];
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
    const double budget_given = argc > 1 ? std::stod(argv[1]) : 0.0;
    const std::string out = argc > 2 ? argv[2] : ".";
    const int seeds = argc > 3 ? std::stoi(argv[3]) : 1;
    const std::string chosen = argc > 4 ? "," + std::string(argv[4]) + "," : ",tdt2,reuters,orl,";
    const Dataset datasets[] = {{"tdt2", "tdt2_similarity.mtx", "tdt2_labels.csv", 30, 0.1, 20.0},
                                {"reuters", "reuters_similarity.mtx", "reuters_labels.csv", 25, 0.1, 20.0},
                                {"orl", "orl_similarity.csv", "orl_labels.csv", 40, 0.01, 10.0}};
    const char* solvers[] = {"nolips", "projected_gradient", "beta_snmf", "coordinate_descent", "sym_hals", "sym_anls"};
    std::printf("%d seeded start(s), threads: OpenBLAS default, SpMM 2\n", seeds);
    for (const Dataset& ds : datasets) {
        if (chosen.find("," + std::string(ds.name) + ",") == std::string::npos) continue;
        const double budget = budget_given > 0.0 ? budget_given : ds.budget;
        const std::string path = data_file("symnmf/" + std::string(ds.matrix));
        std::shared_ptr<const SymNMF> problem =
            path.size() > 4 && path.substr(path.size() - 4) == ".mtx"
                ? std::make_shared<const SymNMF>(read_matrix_market(path), ds.r)
                : std::make_shared<const SymNMF>(read_matrix(path), ds.r);
        const Matrix label_column = read_matrix(data_file("symnmf/" + std::string(ds.labels)));
        std::vector<int64_t> truth(label_column.begin(), label_column.end());

        // The references, timed in the callback (outside the solver's clock) every 4th iteration of the
        // first start (at ~2 ms each against NoLips's ~3 ms iteration they would add 60% of wall time
        // to every start), so that they see the machine in the same state as the iterations next to
        // them (this VM's speed jumps by up to 2x from one second to the next): one product M X (SpMM
        // or GEMM), and one evaluation of f and its gradient (M X, X^T X, X (X^T X) and a pass), the
        // work any first-order iteration does at least once.
        const Matrix X0 = problem->random_point(1);
        Matrix MX(X0.shape()), G(X0.shape());
        LowRankProblem::Evaluation e;

        std::vector<Run> runs;
        for (const char* name : solvers)
            for (int s = 1; s <= seeds; ++s) {
                auto solver = make_solver(problem, name);
                if (solver->params().has("mu")) solver->mutable_params().set_double("mu", ds.hals_mu);
                solver->mutable_params().set_double("time_limit", budget);
                solver->mutable_params().set_double("objective_tolerance", 0.0);
                solver->mutable_params().set_double("tolerance", 0.0);
                solver->mutable_params().set_int("max_iterations", 10000000);
                solver->mutable_params().set_int("threads", 2);
                solver->set_iterate(problem->random_point(static_cast<uint64_t>(s)));
                Run run{name, static_cast<uint64_t>(s), {solver->progress().elapsed_seconds}, {solver->progress().objective},
                        {}, {}};
                solver->set_callback([&](const Progress& p) {
                    run.seconds.push_back(p.elapsed_seconds);
                    run.objective.push_back(p.objective);
                    if (s == 1 && p.iteration % 4 == 0) {  // the first start's: they cost wall time, not budget
                        run.products.push_back(seconds_of([&] { problem->M().multiply(X0, MX, 2); }));
                        run.evaluations.push_back(seconds_of([&] {
                            problem->evaluate(X0, e, 2);
                            problem->gradient(X0, e, G, 2);
                        }));
                    }
                    return false;
                });
                solver->solve();
                run.iterations = solver->progress().iteration;
                run.accuracy = clustering_accuracy(row_argmax(solver->iterate()), truth);
                runs.push_back(std::move(run));
            }
        double f_min = std::numeric_limits<double>::infinity();
        for (const Run& run : runs) f_min = std::min(f_min, run.objective.back());
        std::ofstream trace(out + "/" + ds.name + (seeds > 1 ? "_starts.csv" : "_trace.csv"));
        trace << "solver,seed,seconds,relative_gap\n";
        if (seeds > 1) {  // Fig. 1: the objective averaged over the starts, on a common grid of times
            std::ofstream mean(out + "/" + ds.name + "_trace.csv");
            mean << "solver,seed,seconds,relative_gap\n";
            for (const char* name : solvers)
                for (int j = 0; j <= 200; ++j) {
                    const double t = budget * j / 200.0;
                    double f = 0.0;
                    for (const Run& run : runs)
                        if (run.solver == name) f += objective_at(run, t) / seeds;
                    mean << name << ",mean," << t << ',' << (f - f_min) / f_min << '\n';
                }
        }
        std::printf("\n%s: n = %lld, r = %lld, M %s, %g s per solver and start; f_min = %.10e\n", ds.name,
                    static_cast<long long>(problem->n()), static_cast<long long>(ds.r),
                    problem->sparse() ? "sparse" : "dense", budget, f_min);
        std::printf("  %-20s %10s %8s %8s %8s %8s %8s %12s %10s %10s %9s\n", "solver", "iterations", "ms/iter", "M X ms",
                    "vs M X", "f+g ms", "vs f+g", "final gap", "t(1e-3)", "t(1e-4)", "accuracy");
        for (const char* name : solvers) {
            double iterations = 0, per_iteration = 0, product = 0, evaluation = 0, gap = 0, t3 = 0, t4 = 0, accuracy = 0;
            for (const Run& run : runs) {
                if (run.solver != name) continue;
                for (std::size_t i = 0; i < run.seconds.size(); ++i)
                    trace << name << ',' << run.seed << ',' << run.seconds[i] << ','
                          << (run.objective[i] - f_min) / f_min << '\n';
                iterations += static_cast<double>(run.iterations) / seeds;
                per_iteration += median_iteration(run) / seeds;
                if (run.seed == 1) product = median(run.products), evaluation = median(run.evaluations);
                gap += (run.objective.back() - f_min) / f_min / seeds;
                t3 += time_to(run, f_min * (1 + 1e-3)) / seeds;
                t4 += time_to(run, f_min * (1 + 1e-4)) / seeds;
                accuracy += run.accuracy / seeds;
            }
            std::printf("  %-20s %10.0f %8.2f %8.2f %8.2f %8.2f %8.2f %12.3e %10.2f %10.2f %9.4f\n", name, iterations,
                        1e3 * per_iteration, 1e3 * product, per_iteration / product, 1e3 * evaluation,
                        per_iteration / evaluation, gap, t3, t4, accuracy);
        }
    }
    return 0;
}
