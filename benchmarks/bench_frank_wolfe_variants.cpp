// Frank-Wolfe's away-step and pairwise variants against vanilla Frank-Wolfe and projected gradient
// (not part of the tests). Every solver starts from the same point and runs until its Frank-Wolfe gap
// is below 1e-13 f(start) or the time budget ends; the objective and the gap are recorded after every
// iteration. Printed: the best objective f*, each solver's time to reach f* (1 + 1e-8), and each
// solver's time to reach projected gradient's final objective (1 + 1e-8) as a ratio to projected
// gradient's own time.
//   bench_frank_wolfe_variants symnmf satimage|digits|orl [n (0 = all)] [seconds per solver] [seeds] [trace.csv]
//     simplicial SymNMF from the seeded random points 0 .. seeds - 1:
//     satimage: data/satimage.csv, a seeded subset of n points, features scaled to [-1, 1], Gaussian
//               kernel of bandwidth 1, k = 6;
//     digits:   scikit-learn's 8 x 8 digits (python3-sklearn), features standardized, Gaussian kernel
//               of bandwidth 64 (the number of features), k = 10;
//     orl:      [DAB]'s ORL similarity matrix (symnmf/orl_similarity.csv of the benchmark data
//               directory, n = 400), k = 40.
//   bench_frank_wolfe_variants merit [lambda (-1 = the paper's heuristic)] [seconds per solver] [trace.csv]
//     MERIT on Table I's setting (M = 80, N = 200, K = 40, 10 dB), mu = 1e-5, from the SPA warm start;
//     the baseline is projected gradient on the dense C (columns projected onto the simplex, Armijo
//     backtracking as facto's projected_gradient for SymNMF), written here.
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

#include "data/data.hpp"
#include "solvers/simplicial_symnmf/frank_wolfe.hpp"
#include "solvers/self_dictionary/merit.hpp"
#include "solvers/simplicial_symnmf/projected_gradient.hpp"
#include "sets/row_simplices.hpp"
#include "linalg/blas.hpp"
#include "linalg/parallel.hpp"
#include "base/random.hpp"
#include "measure.hpp"

using namespace facto;
using bench::Run;
using bench::time_to;
using bench::trace;

namespace {

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

void report(const std::vector<Run>& runs, const std::string& csv, const std::string& label)
{
    double best = std::numeric_limits<double>::infinity();
    for (const Run& r : runs) best = std::min(best, *std::min_element(r.objective.begin(), r.objective.end()));
    const Run& reference = runs.back();
    const double pgd_final = reference.objective.back(), pgd_time = time_to(reference, pgd_final * (1 + 1e-8));
    std::printf("best objective f* = %.12e; projected gradient ends at %.12e after %.2f s\n", best, pgd_final,
                reference.seconds.back());
    std::printf("%-22s %9s %19s %13s %12s %14s %10s\n", "solver", "iters", "final f", "final gap/f0",
                "s to f*+1e-8", "s to PGD final", "vs PGD");
    for (const Run& r : runs) {
        const double to_best = time_to(r, best * (1 + 1e-8)), to_pgd = time_to(r, pgd_final * (1 + 1e-8));
        std::printf("%-22s %9zu %19.12e %13.3e %12.3f %14.3f %10.3f\n", r.name.c_str(), r.objective.size() - 1,
                    r.objective.back(), r.gap.back() / r.objective.front(), to_best, to_pgd, to_pgd / pgd_time);
    }
    if (csv.empty()) return;
    std::ofstream out(csv, std::ios::app);
    if (out.tellp() == 0) out << "instance,solver,seconds,objective,gap,best\n";
    out.precision(17);
    for (const Run& r : runs)
        for (std::size_t i = 0; i < r.objective.size(); ++i)
            out << label << ',' << r.name << ',' << r.seconds[i] << ',' << r.objective[i] << ',' << r.gap[i] << ','
                << best << '\n';
}

int symnmf(const std::string& data, std::size_t n, double budget, uint64_t seeds, const std::string& csv)
{
    const bool is_digits = data == "digits", is_orl = data == "orl";
    const int64_t k = is_orl ? 40 : is_digits ? 10 : 6;
    const auto problem = std::make_shared<const SimplicialSymNMF>(
        is_orl ? read_matrix(bench::data_file("symnmf/orl_similarity.csv"))
               : gaussian_affinity(is_digits ? digits() : satimage_subset(n), is_digits ? 64.0 : 1.0),
        k);
    for (uint64_t seed = 0; seed < seeds; ++seed) {
        const Matrix W0 = problem->random_point(seed);
        const double f0 = problem->objective(W0), gap_target = 1e-13 * f0;
        std::printf("\n%s: n = %lld, k = %lld, start seed %llu, f(start) = %.10e, budget %.0f s, stop at gap <= %.2e\n",
                    data.c_str(), static_cast<long long>(problem->n()), static_cast<long long>(k),
                    static_cast<unsigned long long>(seed), f0, budget, gap_target);
        std::vector<Run> runs;
        for (const char* name : {"vanilla/open_loop", "vanilla/line_search", "away", "pairwise"}) {
            FrankWolfe solver(problem);
            const std::string variant(name);
            solver.mutable_params().set_string("variant", variant.substr(0, variant.find('/')));
            if (variant.find('/') != std::string::npos)
                solver.mutable_params().set_string("step_rule", variant.substr(variant.find('/') + 1));
            runs.push_back(trace(solver, name, W0, budget, gap_target));
        }
        ProjectedGradient pgd(problem);
        runs.push_back(trace(pgd, "projected_gradient", W0, budget, gap_target));
        report(runs, csv, data + "_n" + std::to_string(problem->n()) + "_seed" + std::to_string(seed));
    }
    return 0;
}

// Projected gradient on MERIT's objective with a dense C (N x N): the baseline for the variants.
Run merit_projected_gradient(const SelfDictionary& problem, const Matrix& C0, double budget, double gap_target)
{
    const std::size_t n = static_cast<std::size_t>(problem.N());
    const Matrix X = xt::transpose(problem.Xt());
    const auto gradient = [&](const Matrix& C, Matrix& G) {
        Matrix R = -X;
        blas::gemm(false, false, 1.0, X, C, 1.0, R);
        blas::gemm(true, false, 1.0, X, R, 0.0, G);  // X^T (X C - X)
        for (std::size_t i = 0; i < n; ++i) {        // + lambda Y, Y the row-wise softmax of C / mu
            double top = C(i, 0), sum = 0.0;
            for (std::size_t j = 0; j < n; ++j) top = std::max(top, C(i, j));
            for (std::size_t j = 0; j < n; ++j) sum += std::exp((C(i, j) - top) / problem.mu());
            for (std::size_t j = 0; j < n; ++j) G(i, j) += problem.lambda() * std::exp((C(i, j) - top) / problem.mu()) / sum;
        }
    };
    const auto fw_gap = [&](const Matrix& C, const Matrix& G) {
        double gap = 0.0;
        for (std::size_t l = 0; l < n; ++l) {
            double inner = 0.0, lowest = G(0, l);
            for (std::size_t i = 0; i < n; ++i) inner += C(i, l) * G(i, l), lowest = std::min(lowest, G(i, l));
            gap += inner - lowest;
        }
        return gap;
    };
    Run run{"projected_gradient", {}, {}, {}};
    const auto t0 = bench::Clock::now();
    Matrix C = C0, G({n, n}), trial;
    double f = problem.objective(C), step = 1.0;
    gradient(C, G);
    run.seconds.push_back(0.0), run.objective.push_back(f), run.gap.push_back(fw_gap(C, G));
    while (bench::seconds_since(t0) < budget && run.gap.back() > gap_target) {
        bool accepted = false;
        for (double t = step / 0.5; t > 1e-20; t *= 0.5) {
            Matrix Ct = xt::transpose(C - t * G);  // columns of C are rows of C^T
            RowSimplices::project(Ct);
            trial = xt::transpose(Ct);
            const double f_trial = problem.objective(trial);
            if (f_trial <= f + 0.01 * xt::sum(G * (trial - C))()) {
                C = trial, f = f_trial, step = t, accepted = true;
                break;
            }
        }
        if (!accepted) break;
        gradient(C, G);
        run.seconds.push_back(bench::seconds_since(t0)), run.objective.push_back(f), run.gap.push_back(fw_gap(C, G));
    }
    return run;
}

int merit(double lambda, double budget, const std::string& csv)
{
    const SeparableData data = separable_dirichlet(80, 200, 40, 10.0, 40000);
    const auto problem = std::make_shared<const SelfDictionary>(data.X, 40, lambda, 1e-5);
    const Matrix C0 = problem->warm_start(resolve_threads(0)).to_dense();
    const double f0 = problem->objective(C0), gap_target = 1e-13 * f0;
    std::printf("\nMERIT, Table I setting (M = 80, N = 200, K = 40, 10 dB), lambda = %.6g, mu = 1e-5: f(SPA start) = "
                "%.10e, budget %.0f s\n", problem->lambda(), f0, budget);
    std::vector<Run> runs;
    for (const char* variant : {"vanilla", "away", "pairwise"}) {
        Merit solver(problem);
        solver.mutable_params().set_string("variant", variant);
        runs.push_back(trace(solver, variant, C0, budget, gap_target));
        const Output selected = solver.output("selected");
        std::printf("  %-9s selects the planted anchors: %s\n", variant, selected.ints == data.anchors ? "yes" : "no");
    }
    runs.push_back(merit_projected_gradient(*problem, C0, budget, gap_target));
    report(runs, csv, lambda == 0.0 ? "merit_lambda0" : "merit_heuristic_lambda");
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "symnmf";
    if (mode == "merit")
        return merit(argc > 2 ? std::stod(argv[2]) : -1.0, argc > 3 ? std::stod(argv[3]) : 10.0, argc > 4 ? argv[4] : "");
    if (mode == "symnmf")
        return symnmf(argc > 2 ? argv[2] : "satimage", argc > 3 ? std::stoul(argv[3]) : 2000,
                      argc > 4 ? std::stod(argv[4]) : 20.0, argc > 5 ? std::stoull(argv[5]) : 3, argc > 6 ? argv[6] : "");
    std::fprintf(stderr, "usage: bench_frank_wolfe_variants symnmf satimage|digits|orl [n] [seconds] [seeds] [csv] | "
                         "merit [lambda] [seconds] [csv]\n");
    return 2;
}
