// [ZG] Sec. 5 (Table 1, Figs. 2-3), not part of the tests: on each dataset of Table 1, P the
// Gaussian kernel of bandwidth 1 on features scaled to [-1, 1], the penalty method, projected gradient
// and Frank-Wolfe (Alg. 1 as printed: vanilla steps with the curvature rule; and facto's open-loop and
// pairwise variants) from the same start, each stopped by the paper's rule (consecutive objectives
// within 1e-3, or 50 iterations) or a cap of seconds. Writes every iterate's seconds, objective and
// feasibility to <out>/zg_trace.csv (plot.py draws Figs. 2 and 3 from it) and prints a table:
// iterations, seconds, final objective (for the penalty method also at the row-wise projection of its
// infeasible iterate, the point Fig. 2 compares), feasibility, and the peak resident memory of the
// dataset's run (P is n x n doubles).
// Usage: bench_zg <data dir from zg_data.sh> <out dir> [seconds cap per solver] [dataset ...]
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "problems/simplicial_symnmf.hpp"
#include "sets/row_simplices.hpp"
#include "solvers/registry.hpp"
#include "measure.hpp"

using namespace facto;

namespace {

struct Dataset {
    const char* name;    // Table 1's
    const char* file;    // what zg_data.sh wrote for it
    int64_t k;           // Table 1's k
};

struct Method {
    const char* label;
    const char* solver;
    const char* variant;    // frank_wolfe's, or nullptr
    const char* step_rule;  // vanilla frank_wolfe's, or nullptr
};

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_zg <data dir> <out dir> [seconds cap] [dataset ...]\n");
        return 2;
    }
    const std::string dir = argv[1], out = argv[2];
    const double cap = argc > 3 ? std::stod(argv[3]) : 600.0;
    const Dataset all[] = {{"blood", "blood", 10}, {"yeast", "vowel", 10}, {"satimage", "satimage", 6},
                           {"pendigits", "letters", 100}};
    std::vector<Dataset> datasets;
    for (const Dataset& d : all) {
        bool wanted = argc <= 4;
        for (int a = 4; a < argc; ++a) wanted = wanted || d.name == std::string(argv[a]);
        if (wanted) datasets.push_back(d);
    }
    const Method methods[] = {{"penalty method", "penalty_method", nullptr, nullptr},
                              {"PGD", "projected_gradient", nullptr, nullptr},
                              {"FW (Alg. 1: curvature rule)", "frank_wolfe", "vanilla", "curvature"},
                              {"FW (open loop)", "frank_wolfe", "vanilla", "open_loop"},
                              {"FW (pairwise)", "frank_wolfe", "pairwise", nullptr}};
    std::ofstream trace(out + "/zg_trace.csv");
    trace << "dataset,method,iteration,seconds,objective,feasibility\n";
    std::printf("%-10s %-6s %-4s %-24s %6s %9s %16s %16s %10s %9s\n", "dataset", "n", "k", "method", "iters", "seconds",
                "final f", "f (projected)", "feasible", "peak MiB");
    for (const Dataset& d : datasets) {
        bench::reset_peak();
        Matrix X = read_matrix(dir + "/" + d.file + ".csv");
        scale_columns(X, Scaling::MinMax);
        auto problem = std::make_shared<const SimplicialSymNMF>(gaussian_affinity(X, 1.0), d.k);
        const Matrix W0 = problem->random_point(0);  // the same start for every method, as the paper
        for (const Method& m : methods) {
            auto solver = make_solver(problem, m.solver);
            Params& p = solver->mutable_params();
            if (m.variant) p.set_string("variant", m.variant);
            if (m.step_rule) p.set_string("step_rule", m.step_rule);
            p.set_int("max_iterations", 50);  // the paper's cap on (outer) iterations
            p.set_double("tolerance", 0.0);
            p.set_double("objective_tolerance", 0.0);
            p.set_double("time_limit", cap);
            solver->set_iterate(W0);
            double previous = solver->progress().objective;
            trace << d.name << ',' << m.label << ",0,0," << previous << ',' << solver->progress().feasibility << '\n';
            solver->set_callback([&](const Progress& q) {
                trace << d.name << ',' << m.label << ',' << q.iteration << ',' << q.elapsed_seconds << ',' << q.objective
                      << ',' << q.feasibility << '\n';
                const bool settled = std::fabs(q.objective - previous) < 1e-3;  // the paper's rule
                previous = q.objective;
                return settled;
            });
            solver->solve();
            const Progress& q = solver->progress();
            Matrix projection = solver->iterate();
            RowSimplices::project(projection);
            std::printf("%-10s %-6lld %-4lld %-24s %6lld %9.2f %16.8e %16.8e %10.1e %9.0f\n", d.name,
                        static_cast<long long>(problem->n()), static_cast<long long>(d.k), m.label,
                        static_cast<long long>(q.iteration), q.elapsed_seconds, q.objective,
                        problem->objective(projection), q.feasibility, bench::resident_mib("VmHWM:"));
            std::fflush(stdout);
        }
    }
    return 0;
}
