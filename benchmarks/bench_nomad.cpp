// [TSC] (Tepper, Sengupta & Chklovskii): NOMAD by nomad_cgm; not part of the tests.
//
//   bench_nomad rings            two rings, n = 200, K = 16 (the peer comparison): the time and
//                                objective at which the reference implementation's stopping rule
//                                (max [Q]_- < 1e-2 K / n and RMS of [Q]_- < 1e-4) first holds, against
//                                the reference's quoted 120.32 in ~90 s on this machine
//   bench_nomad fashion [class] [K] [max_outer] [out.csv]
//                                the scale run: the 6000 training images of one Fashion-MNIST class
//                                (Debian's dataset-fashion-mnist; default class 0, K = 128, like the
//                                paper's MNIST zeros) by nomad_cgm: seconds, peak resident memory against
//                                4 dense n x n matrices, seconds per inner step against the products
//                                with the packed gradient it made (each timed alone, the same run), and
//                                the 2-D embedding written as CSV (x, y, mean intensity) for the plot
//   bench_nomad points [n|test|all] [K] [seconds] [methods]
//                                the large runs: NOMAD on Fashion-MNIST's points (D never formed)
//                                by burer_monteiro with each inner method of the comma-separated list
//                                (default sphere,lbfgsb: the default form and the paper's) against
//                                Lloyd's k-means on the same points; n: the first n test images
//   bench_nomad bound [n|all] [K] [iterations] [admm_seconds]
//                                the certificate at scale: on the first n Fashion-MNIST test images
//                                (or all 70,000 images), the upper bounds of NOMAD's optimum facto computes
//                                in linear memory (the clustering certificate of kernel k-means; the
//                                spectral bound; the partition dual bound with K, 4 K and 16 K parts, up to
//                                256) with
//                                their seconds, against the lower bounds of burer_monteiro's Tr(D Q) and
//                                Lloyd's k-means Tr(D X), and for n <= 2000 against nomad_admm's certified
//                                optimum (dense D, at most admm_seconds)
//   bench_nomad exact [seconds]  small instances: noisy two rings (n = 30, 100, 200) solved to
//                                a duality gap of 1e-6 by nomad_admm, by nomad_cgm, by auto (the
//                                default), and by burer_monteiro in both forms (sphere, the default,
//                                and lbfgsb; the gap column their certificate's) polished by nomad_admm, against coinor-csdp's optimum where it runs
//                                (n <= 100): seconds to 1e-4 and to 1e-6 of the optimum (objective and
//                                feasibility); then the peer comparison on two rings, n = 1000, K = 16:
//                                when each solver first meets the reference's stopping rule (largest
//                                negative entry 1e-2 K / n) with Tr(D Q) >= the reference's 609.68, and
//                                nomad_admm's certified optimum (its dual bound); each run at most `seconds`
//   bench_nomad scale [n_max] [csdp_max] [out.csv]
//                                Fig. 15: seconds vs n (K = 16, noisy two rings, n = 100 ... n_max) for
//                                nomad_cgm (both step rules; the line search to n = 1000) and nomad_admm
//                                (to n = 2000; also to a certified gap and feasibility of 1e-4, at most
//                                300 s) to that rule, burer_monteiro with its
//                                defaults (r = 2 K, feasible to 1e-6), and coinor-csdp's interior-point
//                                solve while n <= csdp_max (default 100: its Schur complement has
//                                (n^2 / 2)^2 entries; 74 s at n = 100), with the objectives relative to
//                                the exact one where csdp ran
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <xtensor/xview.hpp>

#include "csdp_reference.hpp"
#include "data/data.hpp"
#include "facto/facto.h"
#include "problems/nomad.hpp"
#include "solvers/nomad/nomad_cgm.hpp"
#include "solvers/nomad/nomad_partition_bound.hpp"
#include "solvers/registry.hpp"
#include "linalg/symmetric.hpp"
#include "linalg/parallel.hpp"
#include "metrics/metrics.hpp"
#include "measure.hpp"

using namespace facto;

namespace {

using bench::Clock;
using bench::seconds_since;

struct Run {
    double seconds, objective, rmse, worst;
    int64_t iterations;
    bool reached;
};

// nomad_cgm until the reference's stopping rule holds (or max_iterations).
Run solve(const Matrix& D, int64_t K, int64_t max_iterations, const char* step_rule = "open_loop")
{
    auto problem = std::make_shared<const Nomad>(D, K);
    auto solver = make_solver(problem, "nomad_cgm");
    solver->mutable_params().set_int("max_iterations", max_iterations);
    solver->mutable_params().set_string("step_rule", step_rule);
    solver->mutable_params().set_double("tolerance", 0.0);
    Run run{0.0, 0.0, 0.0, 0.0, 0, false};
    solver->set_callback([&](const Progress& p) {
        const std::vector<double> f = solver->output("feasibility").doubles;  // timed outside the solver
        run.reached = p.stationarity < 1e-2 && f[0] < 1e-4;  // stationarity >= max [Q]_- n / K
        return run.reached;
    });
    solver->solve();
    const std::vector<double> f = solver->output("feasibility").doubles;
    run.seconds = solver->progress().elapsed_seconds;
    run.objective = solver->progress().objective;
    run.iterations = solver->progress().iteration;
    run.rmse = f[0];
    run.worst = f[1] * static_cast<double>(D.shape()[0]) / static_cast<double>(K);
    return run;
}

// nomad_admm with its defaults (at most `seconds`): `rule` at the first iterate that meets nomad_cgm's
// stopping rule above, and the returned run at a certified gap and feasibility of 1e-4.
Run solve_admm(const Matrix& D, int64_t K, double seconds, Run& rule)
{
    auto solver = make_solver(std::make_shared<const Nomad>(D, K), "nomad_admm");
    solver->mutable_params().set_double("tolerance", 1e-4);
    solver->mutable_params().set_double("feasibility_tolerance", 1e-4);
    solver->mutable_params().set_double("time_limit", seconds);
    rule = Run{NAN, NAN, NAN, NAN, 0, false};
    solver->set_callback([&](const Progress& p) {
        if (!rule.reached && p.stationarity < 1e-2 && solver->output("feasibility").doubles[0] < 1e-4)
            rule = Run{p.elapsed_seconds, p.objective, NAN, NAN, p.iteration, true};
        return false;
    });
    const bool converged = solver->solve() == FACTO_CONVERGED;
    const Progress& p = solver->progress();
    return Run{p.elapsed_seconds, p.objective, NAN, NAN, p.iteration, converged};
}

// burer_monteiro with its defaults, timed from the start (its symmetric NMF start included).
Run solve_burer_monteiro(const Matrix& D, int64_t K)
{
    auto solver = make_solver(std::make_shared<const Nomad>(D, K), "burer_monteiro");
    const auto t0 = Clock::now();
    const int32_t reason = solver->solve();
    const double seconds = seconds_since(t0);
    const std::vector<double> f = solver->output("feasibility").doubles;
    return Run{seconds, solver->progress().objective, f[2], f[3], solver->progress().iteration,
               reason == FACTO_CONVERGED};
}

void rings()
{
    const Matrix D = nomad_gram(two_rings(200, 0.5, 0.0, 0).X);
    const Run r = solve(D, 16, 5000);
    std::printf("two rings, n = 200, K = 16: %s after %lld outer iterations, %.2f s\n",
                r.reached ? "the reference's stopping rule holds" : "the rule did not hold",
                static_cast<long long>(r.iterations), r.seconds);
    std::printf("  Tr(D Q) = %.4f (reference 120.32: %+.2e relative); RMS [Q]_- %.2e, max [Q]_- n / K %.2e\n",
                r.objective, (r.objective - 120.32) / 120.32, r.rmse, r.worst);
    std::printf("  against the reference's ~90 s: %.0fx\n", 90.0 / r.seconds);
}

void scale(int64_t n_max, int64_t csdp_max, const std::string& csv)
{
    std::FILE* out = std::fopen(csv.c_str(), "w");
    if (out) std::fprintf(out, "n,method,seconds,objective,iterations,reached\n");
    const auto record = [&](int64_t n, const char* method, double seconds, double objective, int64_t iterations,
                            bool reached) {
        if (out)
            std::fprintf(out, "%lld,%s,%.4f,%.10g,%lld,%d\n", static_cast<long long>(n), method, seconds, objective,
                         static_cast<long long>(iterations), reached ? 1 : 0);
    };
    std::printf("%6s | %9s %11s %6s | %9s %11s %6s | %9s %11s %4s %8s | %9s %11s | %9s %9s %9s | %9s %11s %9s "
                "%11s %6s\n", "n", "cgm s", "Tr(DQ)", "iters", "cgm-ls s", "Tr(DQ)", "iters", "bm s", "Tr(DQ)", "its",
                "rowsum", "csdp s", "Tr(DQ)", "cgm rel", "cgm-ls", "bm rel", "admm s", "Tr(DQ)", "1e-4 s", "Tr(DQ)",
                "its");
    for (int64_t n : {100, 200, 500, 1000, 2000, 4000, 8000}) {
        if (n > n_max) break;
        const Matrix D = nomad_gram(two_rings(n, 0.5, 0.02, 1).X);
        // the line search needs ~3x the time of the open-loop steps on these rings: up to n = 1000 only
        const Run open = solve(D, 16, 3000);
        const Run line = n <= 1000 ? solve(D, 16, 3000, "line_search") : Run{NAN, NAN, NAN, NAN, 0, false};
        const Run bm = solve_burer_monteiro(D, 16);
        // nomad_admm's dense eigendecompositions: up to n = 2000 (0.7 s per step there)
        Run admm_rule{NAN, NAN, NAN, NAN, 0, false};
        const Run admm = n <= 2000 ? solve_admm(D, 16, 300.0, admm_rule) : admm_rule;
        double exact = NAN, exact_seconds = NAN;
        if (n <= csdp_max) {
            const auto t0 = Clock::now();
            exact = test::csdp_objective(D, 16, "bench_nomad_csdp");
            exact_seconds = seconds_since(t0);
        }
        // relative to csdp's optimum where it ran, else to the better nomad_cgm objective
        const double reference = std::isfinite(exact) ? exact : std::max(open.objective, line.objective);
        std::printf("%6lld | %9.2f %11.4f %6lld | %9.2f %11.4f %6lld | %9.2f %11.4f %4lld %8.1e | %9.2f %11.4f | "
                    "%9.2e %9.2e %9.2e | %9.2f %11.4f %9.2f %11.4f %6lld%s\n",
                    static_cast<long long>(n), open.seconds, open.objective, static_cast<long long>(open.iterations),
                    line.seconds, line.objective, static_cast<long long>(line.iterations), bm.seconds, bm.objective,
                    static_cast<long long>(bm.iterations), bm.rmse, exact_seconds, exact,
                    (open.objective - reference) / reference, (line.objective - reference) / reference,
                    (bm.objective - reference) / reference, admm_rule.seconds, admm_rule.objective, admm.seconds,
                    admm.objective, static_cast<long long>(admm.iterations), admm.reached ? "" : " (not reached)");
        std::fflush(stdout);
        record(n, "nomad_cgm", open.seconds, open.objective, open.iterations, open.reached);
        if (n <= 1000) record(n, "nomad_cgm line_search", line.seconds, line.objective, line.iterations, line.reached);
        record(n, "burer_monteiro", bm.seconds, bm.objective, bm.iterations, bm.reached);
        if (n <= 2000) {
            record(n, "nomad_admm", admm_rule.seconds, admm_rule.objective, admm_rule.iterations, admm_rule.reached);
            record(n, "nomad_admm gap 1e-4", admm.seconds, admm.objective, admm.iterations, admm.reached);
        }
        if (std::isfinite(exact)) record(n, "coinor-csdp", exact_seconds, exact, 0, true);
    }
    if (out) std::fclose(out);
}

// A NOMAD solver run to a duality gap and feasibility of 1e-6 (or `seconds`), from `start` when it is
// not empty: every iteration's (seconds, Tr(D Q), feasibility), and where it ended.
struct Trace {
    std::vector<std::array<double, 3>> history;
    double seconds = 0.0, objective = 0.0, gap = 0.0, feasibility = 0.0, bound = NAN;
    int32_t reason = 0;
    // The first time `holds(objective, feasibility)` (NaN if never), plus `offset`.
    template <class Rule>
    double first(Rule holds, double offset = 0.0) const
    {
        for (const auto& [seconds, objective, feasibility] : history)
            if (holds(objective, feasibility)) return seconds + offset;
        return NAN;
    }
    // The first time the objective was within `within` of `optimum`, the feasibility measure too.
    double within(double optimum, double within, double offset = 0.0) const
    {
        return first([&](double f, double v) { return std::fabs(f - optimum) <= within * optimum && v <= within; },
                     offset);
    }
};
Trace trace(const std::shared_ptr<const Nomad>& problem, const char* algorithm, double seconds,
            const Matrix& start = Matrix{})
{
    auto solver = make_solver(problem, algorithm);
    solver->mutable_params().set_double("tolerance", 1e-6);
    solver->mutable_params().set_double("feasibility_tolerance", 1e-6);
    solver->mutable_params().set_int("max_iterations", 1000000);
    solver->mutable_params().set_double("time_limit", seconds);
    Trace t;
    solver->set_callback([&](const Progress& p) {
        t.history.push_back({p.elapsed_seconds, p.objective, p.feasibility});
        return false;
    });
    if (start.size() > 0) solver->set_iterate(start);
    t.reason = solver->solve();
    const Progress& p = solver->progress();
    t.seconds = p.elapsed_seconds;
    t.objective = p.objective;
    t.gap = p.stationarity;
    t.feasibility = p.feasibility;
    t.bound = solver->output("upper_bound").doubles[0];
    return t;
}

void exact(double seconds)
{
    std::printf("%5s %3s %11s | %-26s %9s %9s %9s %11s %9s %9s %10s\n", "n", "K", "optimum", "solver", "s to 1e-4",
                "s to 1e-6", "s (end)", "Tr(D Q)", "gap", "feas", "stop");
    for (const auto& size : {std::pair<int64_t, int64_t>{30, 4}, {100, 16}, {200, 16}}) {
        const int64_t n = size.first, K = size.second;
        const Matrix D = nomad_gram(two_rings(n, 0.5, 0.02, 1).X);
        auto problem = std::make_shared<const Nomad>(D, K);
        // the optimum: csdp's where it runs, else nomad_admm's final objective (its bound brackets it)
        const Trace admm = trace(problem, "nomad_admm", seconds);
        double optimum = n <= 100 ? test::csdp_objective(D, K, "bench_nomad_exact") : NAN;
        const bool certified = std::isfinite(optimum);
        if (!certified) optimum = admm.objective;
        const auto row = [&](const char* name, const Trace& t, double offset) {
            std::printf("%5lld %3lld %11.6f | %-26s %9.2f %9.2f %9.2f %11.6f %9.1e %9.1e %10s\n",
                        static_cast<long long>(n), static_cast<long long>(K), optimum, name,
                        t.within(optimum, 1e-4, offset), t.within(optimum, 1e-6, offset), t.seconds + offset,
                        t.objective, t.gap, t.feasibility,
                        bench::stop_name(t.reason));
            std::fflush(stdout);
        };
        row(certified ? "nomad_admm" : "nomad_admm (self)", admm, 0.0);
        row("nomad_cgm", trace(problem, "nomad_cgm", seconds), 0.0);
        row("auto (the default)", trace(problem, "auto", seconds), 0.0);
        // burer_monteiro with its defaults (the sphere form) and the paper's form, each with its
        // certificate (upper_bound, in the gap column), then polished by nomad_admm
        for (const char* inner : {"sphere", "lbfgsb"}) {
            auto factored = make_solver(problem, "burer_monteiro");
            factored->mutable_params().set_string("inner_method", inner);
            factored->solve();
            const Progress& p = factored->progress();
            const double bound = factored->output("upper_bound").doubles[0];
            std::printf("%5lld %3lld %11.6f | %-26s %9s %9s %9.2f %11.6f %9.1e %9.1e %10s\n", static_cast<long long>(n),
                        static_cast<long long>(K), optimum, (std::string("burer_monteiro ") + inner).c_str(), "", "",
                        p.elapsed_seconds, p.objective, (bound - p.objective) / std::fabs(bound), p.feasibility,
                        bench::stop_name(p.stop_reason));
            row("  then nomad_admm (total)", trace(problem, "nomad_admm", seconds, factored->iterate()), p.elapsed_seconds);
        }
    }
    // the peer comparison: the reference stops at max [Q]_- <= 1e-2 K / n with Tr(D Q) = 609.68 (~200 s);
    // nomad_cgm's and nomad_admm's feasibility is max [Q]_- n / K or the equality residuals, which their
    // iterates keep to rounding
    const int64_t n = 1000, K = 16;
    auto problem = std::make_shared<const Nomad>(nomad_gram(two_rings(n, 0.5, 0.0, 0).X), K);
    for (const char* algorithm : {"nomad_admm", "nomad_cgm"}) {
        const Trace t = trace(problem, algorithm, seconds);
        const double at_rule = t.first([](double f, double v) { return v <= 1e-2 && f >= 609.68; });
        std::printf("two rings, n = 1000, K = 16, %s: the reference's rule with Tr(D Q) >= 609.68 first at %.2f s "
                    "(reference ~200 s: %.0fx); after %.1f s Tr(D Q) = %.6f, dual bound %.6f, gap %.1e, "
                    "feasibility %.1e\n",
                    algorithm, at_rule, 200.0 / at_rule, t.seconds, t.objective, t.bound, t.gap, t.feasibility);
        std::fflush(stdout);
    }
}

// Fashion-MNIST images (pixels / 255, one image per row) of the IDX set `set` ("train" or "t10k"),
// those of class `label` only unless it is -1, and their classes appended to *classes when given;
// empty, with a message, when the package is not installed.
Matrix fashion_images(const std::string& set, int label, std::vector<int64_t>* classes = nullptr)
{
    const std::string dir = "/usr/share/datasets/fashion-mnist/";
    const auto read = [](const std::string& path) {
        std::string bytes;
        std::FILE* pipe = popen(("gzip -dc " + path).c_str(), "r");
        if (!pipe) return bytes;
        char buffer[1 << 16];
        for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) bytes.append(buffer, got);
        pclose(pipe);
        return bytes;
    };
    const std::string images = read(dir + set + "-images-idx3-ubyte.gz"), labels = read(dir + set + "-labels-idx1-ubyte.gz");
    const std::size_t count = labels.size() > 8 ? labels.size() - 8 : 0, pixels = 28 * 28;
    if (count == 0 || images.size() < 16 + count * pixels) {
        std::fprintf(stderr, "bench_nomad: install dataset-fashion-mnist (bash benchmarks/run.sh nomad does)\n");
        return Matrix{};
    }
    const auto keep = [&](std::size_t i) { return label < 0 || static_cast<unsigned char>(labels[8 + i]) == label; };
    std::size_t n = 0;
    for (std::size_t i = 0; i < count; ++i) n += keep(i);
    Matrix X({n, pixels});
    for (std::size_t i = 0, row = 0; i < count; ++i)
        if (keep(i)) {
            for (std::size_t p = 0; p < pixels; ++p) X(row, p) = static_cast<unsigned char>(images[16 + i * pixels + p]) / 255.0;
            if (classes) classes->push_back(static_cast<unsigned char>(labels[8 + i]));
            ++row;
        }
    return X;
}

Matrix fashion_class(int label) { return fashion_images("train", label); }

// One burer_monteiro run of points(): inner method `inner` (the paper's lbfgsb takes the kmeans start
// on points, the default sphere the random one), its time, peak memory, answer, bound and labels.
void points_by(const std::shared_ptr<const Nomad>& problem, const std::vector<int64_t>& classes, double seconds,
               const std::string& inner, const std::string& which)
{
    const std::size_t n = static_cast<std::size_t>(problem->n());
    const int64_t K = problem->K();
    const double baseline = bench::resident_mib("VmRSS:");
    bench::reset_peak();
    auto t0 = Clock::now();
    auto solver = make_solver(problem, "burer_monteiro");
    solver->mutable_params().set_double("time_limit", seconds);
    solver->mutable_params().set_string("inner_method", inner);
    const int32_t stop = solver->solve();
    const double solve_seconds = seconds_since(t0);
    t0 = Clock::now();
    const std::vector<int64_t> labels = solver->output("labels").ints;
    const bool by_kmeans = solver->output("label_rule").ints[0] == LabelRule::kKmeans;
    const double bound = solver->output("upper_bound").doubles[0], output_seconds = seconds_since(t0);
    const double peak = bench::resident_mib("VmHWM:") - baseline;
    const std::vector<double> f = solver->output("feasibility").doubles;
    const Progress& p = solver->progress();
    std::printf("Fashion-MNIST %s: n = %zu, d = 784, K = %lld, burer_monteiro (%s): %s after %lld outer iterations, "
                "%.1f s (labels and bound %.1f s), peak %.0f MiB above the data (D's triangle would take %.0f MiB)\n",
                which.c_str(), n, static_cast<long long>(K), inner.c_str(),
                bench::stop_name(stop),
                static_cast<long long>(p.iteration), solve_seconds, output_seconds, peak,
                8.0 * double(n) * double(n) / 2.0 / (1024.0 * 1024.0));
    std::printf("  Tr(D Q) %.6f, upper bound %.6f (gap %.2e relative), max |Q 1 - 1| %.1e, |Tr Q - K| %.1e, "
                "labels by %s, accuracy %.4f\n",
                p.objective, bound, (bound - p.objective) / std::fabs(bound), f[2], f[3],
                by_kmeans ? "k-means" : "components", clustering_accuracy(labels, classes));
}

// The large runs: NOMAD on Fashion-MNIST's points (the 10,000 test images, or all 70,000) by
// burer_monteiro, D never formed, against Lloyd's k-means (k-means++ starts) on the same points: time,
// peak resident memory, Tr(D Q) or Tr(D X), feasibility, the certified upper bound, and the accuracy
// of the labels against the ten classes.
void points(const std::string& which, int64_t K, double seconds, const std::string& methods)
{
    std::vector<int64_t> classes;
    Matrix X = fashion_images("t10k", -1, &classes);
    if (which == "all" && X.size() > 0) {
        std::vector<int64_t> train_classes;
        const Matrix train = fashion_images("train", -1, &train_classes);
        X = xt::concatenate(xt::xtuple(train, X), 0);
        classes.insert(classes.begin(), train_classes.begin(), train_classes.end());
    } else if (which != "test" && X.size() > 0) {  // the first n test images
        const std::size_t first = std::min<std::size_t>(X.shape()[0], std::stoull(which));
        X = Matrix(xt::view(X, xt::range(0, first), xt::all()));
        classes.resize(first);
    }
    if (X.size() == 0) return;
    auto problem = Nomad::from_points(X, K);
    for (std::size_t from = 0; from <= methods.size();) {  // each inner method of the comma-separated list
        const std::size_t to = std::min(methods.find(',', from), methods.size());
        points_by(problem, classes, seconds, methods.substr(from, to - from), which);
        from = to + 1;
    }
    auto t0 = Clock::now();
    const std::vector<int64_t> lloyd = kmeans(X, K, 3, 1);
    const double lloyd_seconds = seconds_since(t0);
    const NomadBound lloyd_bound = problem->clustering_bound(lloyd, resolve_threads(0));
    std::printf("  k-means (Lloyd, k-means++, 3 replicates): %.1f s, Tr(D X) %.6f, its certificate %.6f, accuracy %.4f\n",
                lloyd_seconds, lloyd_bound.clustering, lloyd_bound.bound, clustering_accuracy(lloyd, classes));
}

// The certificate at scale: every upper bound facto computes in linear memory against the lower
// bounds of two feasible points, and the exact optimum where nomad_admm can reach it.
void bound(const std::string& which, int64_t K, int iterations, double admm_seconds)
{
    std::vector<int64_t> classes;
    Matrix X = fashion_images("t10k", -1, &classes);
    if (which == "all" && X.size() > 0)
        X = xt::concatenate(xt::xtuple(fashion_images("train", -1), X), 0);
    else if (X.size() > 0)
        X = Matrix(xt::view(X, xt::range(0, std::min<std::size_t>(X.shape()[0], std::stoull(which))), xt::all()));
    if (X.size() == 0) return;
    const std::size_t n = X.shape()[0], threads = resolve_threads(0);
    auto problem = Nomad::from_points(X, K);
    auto t0 = Clock::now();
    auto solver = make_solver(problem, "burer_monteiro");
    solver->solve();
    std::printf("Fashion-MNIST, n = %zu, K = %lld: burer_monteiro Tr(D Q) %.6f (%.1f s, max |Q 1 - 1| %.1e)\n", n,
                static_cast<long long>(K), solver->progress().objective, seconds_since(t0),
                solver->output("feasibility").doubles[2]);
    t0 = Clock::now();
    const std::vector<int64_t> lloyd = kmeans(X, K, 3, 1);
    std::printf("  k-means (Lloyd, k-means++, 3 replicates) Tr(D X) %.6f (%.1f s)\n", problem->clustering_objective(lloyd, threads),
                seconds_since(t0));
    if (n <= 2000) {
        t0 = Clock::now();
        auto admm = make_solver(std::make_shared<const Nomad>(nomad_gram(X), K), "nomad_admm");
        admm->mutable_params().set_double("time_limit", admm_seconds);
        admm->mutable_params().set_double("tolerance", 1e-6);
        admm->solve();
        std::printf("  nomad_admm (dense D): Tr(D Q) %.6f, dual bound %.6f (%.1f s): the optimum\n", admm->progress().objective,
                    admm->output("upper_bound").doubles[0], seconds_since(t0));
    }
    t0 = Clock::now();
    const NomadBound clustering = problem->clustering_bound(kernel_kmeans(problem->D(), K, 0, 100, threads), threads);
    std::printf("  upper bounds: clustering certificate (kernel k-means) %.6f (%.1f s)\n", clustering.bound, seconds_since(t0));
    for (const int64_t parts : {K, 4 * K, 16 * K}) {
        if (parts > 256 && parts != K) continue;  // (r + 2 K')^3 per step: 16 K parts only while small
        PartitionBoundSettings settings;
        settings.parts = parts;
        settings.iterations = iterations;
        settings.threads = threads;
        t0 = Clock::now();
        const PartitionBound b = nomad_partition_bound(*problem->D().factor(), K, settings);
        if (parts == K) std::printf("    spectral (r = %lld) %.6f\n", static_cast<long long>(b.rank), b.spectral);
        std::printf("    partition dual, %lld parts, %d iterations: %.6f (%.1f s)\n", static_cast<long long>(parts),
                    b.iterations, b.bound, seconds_since(t0));
        std::fflush(stdout);
    }
}

void fashion(int label, int64_t K, int64_t max_outer, const std::string& csv)
{
    const Matrix X = fashion_class(label);
    if (X.size() == 0) return;
    const std::size_t n = X.shape()[0];
    const double baseline = bench::resident_mib("VmRSS:");
    bench::reset_peak();
    auto t0 = Clock::now();
    auto problem = std::make_shared<const Nomad>(nomad_gram(X), K);
    const double setup = seconds_since(t0);
    NomadCgm solver(problem);
    solver.mutable_params().set_int("max_iterations", max_outer);
    solver.mutable_params().set_double("tolerance", 0.0);
    std::printf("Fashion-MNIST class %d: n = %zu, K = %lld; Gram matrix and problem %.2f s\n", label, n,
                static_cast<long long>(K), setup);
    solver.set_callback([&](const Progress& p) {
        if (p.iteration % 10 == 0)
            std::printf("  outer %4lld  %8.1f s  Tr(D Q) %.6g  stationarity %.3e  products %lld\n",
                        static_cast<long long>(p.iteration), p.elapsed_seconds, p.objective, p.stationarity,
                        static_cast<long long>(solver.products())), std::fflush(stdout);
        return false;
    });
    solver.solve();
    const double peak = bench::resident_mib("VmHWM:") - baseline, dense = 8.0 * n * n / (1024.0 * 1024.0);
    const Progress& p = solver.progress();
    const std::vector<double> f = solver.output("feasibility").doubles;
    // the same product Lanczos makes, on a packed n x n matrix, timed alone
    std::vector<double> x(n, 1.0), y(n);
    const std::size_t threads = resolve_threads(0);
    t0 = Clock::now();
    int products = 0;
    while (seconds_since(t0) < 2.0 || products < 5) problem->D().multiply(x.data(), y.data(), threads), ++products;
    const double product = seconds_since(t0) / products;
    const double steps = static_cast<double>(p.iteration * solver.params().get_int("inner_iterations"));
    const double per_step = p.elapsed_seconds / steps, per_step_products = solver.products() / steps;
    std::printf("  %lld outer iterations (%.0f inner steps) in %.1f s: Tr(D Q) = %.6g, RMS [Q]_- %.2e, max [Q]_- n / K "
                "%.2e, row sums %.1e, trace %.1e\n",
                static_cast<long long>(p.iteration), steps, p.elapsed_seconds, p.objective, f[0],
                f[1] * static_cast<double>(n) / static_cast<double>(K), f[2], f[3]);
    std::printf("  peak resident memory %.0f MiB = %.2f dense n x n matrices (target < 4)\n", peak, peak / dense);
    std::printf("  inner step %.3f s, %.1f products of %.4f s each: %.2f x the products' time\n", per_step,
                per_step_products, product, per_step / (per_step_products * product));
    const Output embedding = solver.output("embedding");
    if (std::FILE* out = std::fopen(csv.c_str(), "w")) {
        std::fprintf(out, "x,y,intensity\n");
        for (std::size_t i = 0; i < n; ++i) {
            double mean = 0.0;
            for (std::size_t k = 0; k < X.shape()[1]; ++k) mean += X(i, k) / static_cast<double>(X.shape()[1]);
            std::fprintf(out, "%.8g,%.8g,%.6f\n", embedding.doubles[2 * i], embedding.doubles[2 * i + 1], mean);
        }
        std::fclose(out);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "rings";
    if (mode == "rings") rings();
    else if (mode == "fashion")
        fashion(argc > 2 ? std::stoi(argv[2]) : 0, argc > 3 ? std::stoll(argv[3]) : 128,
                argc > 4 ? std::stoll(argv[4]) : 300, argc > 5 ? argv[5] : "nomad_fashion_embedding.csv");
    else if (mode == "points")
        points(argc > 2 ? argv[2] : "test", argc > 3 ? std::stoll(argv[3]) : 10, argc > 4 ? std::stod(argv[4]) : 300.0,
               argc > 5 ? argv[5] : "sphere,lbfgsb");
    else if (mode == "bound")
        bound(argc > 2 ? argv[2] : "10000", argc > 3 ? std::stoll(argv[3]) : 10, argc > 4 ? std::stoi(argv[4]) : 200,
              argc > 5 ? std::stod(argv[5]) : 300.0);
    else if (mode == "exact")
        exact(argc > 2 ? std::stod(argv[2]) : 120.0);
    else if (mode == "scale")
        scale(argc > 2 ? std::stoll(argv[2]) : 4000, argc > 3 ? std::stoll(argv[3]) : 100,
              argc > 4 ? argv[4] : "nomad_fig15.csv");
    else {
        std::fprintf(stderr, "usage: bench_nomad rings | exact [seconds] | scale [n_max] [csdp_max] [out.csv] | "
                             "fashion [class] [K] [max_outer] [out.csv] | points [test|all] [K] [seconds] "
                             "[methods] | bound [n|all] [K] [iterations] [admm_seconds]\n");
        return 2;
    }
    return 0;
}
