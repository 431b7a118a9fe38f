// Distributed SymNMF, NOMAD and MERIT: what one iteration of NoLips and of projected
// gradient, one outer iteration of burer_monteiro on points, and one MERIT iteration cost per rank on
// P = 1 .. 1024 ranks, compute measured here, communication by a model; not part of the tests.
//
// For each graph and P, rows split evenly in rank order (DistributedSymNMF's layout):
//   - compute: the slowest rank's local products (M_p X, X_p^T X_p, the gradient terms: the kernels
//     DistributedSymNMF::evaluate and ::gradient run), timed here block by block (best of 3), times the
//     products per iteration, plus the solver's elementwise work per iteration / P. Products per
//     iteration and the values each collective carries are counted on a one-process run of the real
//     solver (a counting Collectives), which also gives the one-process time per iteration;
//   - communication per product, three layouts, bytes sent per rank and modelled seconds with latency
//     alpha and inverse bandwidth beta per rank:
//       allgather (1D): the whole X to every rank, ring all-gather: alpha (P - 1) + beta 8 n r (P - 1) / P;
//       halo (1D, facto's): only the rows of X that rank p's columns touch outside its own rows (h_p,
//                     counted on the graph) from the ranks holding them: alpha m_p + beta 8 r h_p (m_p ranks);
//       2D (PLANC's): a sqrt P x sqrt P grid of blocks of M, X's row blocks gathered along grid
//                     columns and the partial products reduce-scattered along grid rows: 2 (alpha
//                     log2 sqrt P + beta 8 n r / sqrt P), with compute as 1D's divided evenly;
//     each plus the solver's sums (recursive doubling: log2 P rounds of alpha + beta 8 values).
// Prints per P: compute ms, bytes per rank and modelled ms per iteration for each layout, and the
// parallel efficiency T(1) / (P T(P)). The published scaling of [PLANC] (distributed SymNMF, about 70%
// efficiency at 4096 cores) is printed beside it for reference.
// NOMAD by points (DistributedNomad): every product and scalar is a sum of a few values (r d per
// product), no halo; the rows split evenly, so compute is the one-process time / P and communication
// the solver's sums, counted on a one-process run (recursive doubling as above). Gaussian blobs, n = 2^16,
// d = 64, K = 10, r = 2 K.
// MERIT by columns (SelfDictionary::distributed): each rank sweeps its columns against all of X
// (replicated), so compute is the one-process time / P; communication is Phi's row statistics (3 N values
// per sweep) and a few sums, counted the same way. Separable Dirichlet data, M = 64, N = 8192, K = 20,
// lambda by the paper's heuristic.
// Usage: bench_distributed [graph.mtx r] ... | nomad | merit (that one alone); without arguments: [DAB]'s TDT2
// similarity (r = 30) when the benchmark data directory holds it (measure.hpp's data_dir), a 2-D lattice of 2^20 nodes (8 neighbours, r = 30: local structure,
// the halo's best case) and a random graph of 2^18 nodes with 16 neighbours per row (r = 30: none).
// Environment: FACTO_ALPHA_US (default 2), FACTO_GBYTES_PER_S (default 12: InfiniBand HDR100-class).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/collectives.hpp"
#include "base/random.hpp"
#include "data/data.hpp"
#include "linalg/blas.hpp"
#include "linalg/sparse.hpp"
#include "measure.hpp"
#include "problems/distributed_nomad.hpp"
#include "problems/distributed_symnmf.hpp"
#include "problems/self_dictionary.hpp"
#include "problems/symnmf.hpp"
#include "solvers/registry.hpp"

using namespace facto;
using facto::bench::Clock;
using facto::bench::seconds_since;

namespace {

// One process that counts what the solver asks of the collectives: calls and values per operation.
class CountingCollectives final : public Collectives {
public:
    int64_t rank() const override { return 0; }
    int64_t size() const override { return 1; }
    void sum(double*, std::size_t count) const override { ++sums, summed += static_cast<double>(count); }
    using Collectives::max;
    void max(int64_t*, std::size_t count) const override { ++maxima, summed += static_cast<double>(count); }
    void allgather(const double* mine, double* all, const std::vector<int64_t>& counts) const override
    {
        std::copy(mine, mine + counts[0], all);
    }
    void exchange(const double* send, const std::vector<int64_t>& send_counts, double* receive,
                  const std::vector<int64_t>&) const override
    {
        std::copy(send, send + send_counts[0], receive);
        ++exchanges;
    }
    void reset() const { sums = exchanges = maxima = 0, summed = 0.0; }
    mutable int64_t sums = 0, exchanges = 0, maxima = 0;  // exchanges: one per product (the halo)
    mutable double summed = 0.0;  // values summed or maximized
};

struct Graph {
    std::string name;
    CsrMatrix M;
    int64_t r;
};

// Rows in [first, first + count) of M.
CsrMatrix row_block(const CsrMatrix& M, int64_t first, int64_t count)
{
    std::vector<int64_t> rows(static_cast<std::size_t>(count));
    for (int64_t i = 0; i < count; ++i) rows[static_cast<std::size_t>(i)] = first + i;
    return select_rows(M, rows);
}

int64_t block_start(int64_t n, int64_t P, int64_t p) { return p * n / P; }

// A symmetric graph from its upper-triangle edges (weights 1), each edge stored both ways.
CsrMatrix symmetric_graph(int64_t n, const std::vector<std::pair<int64_t, int64_t>>& edges)
{
    std::vector<int64_t> rows, cols;
    std::vector<double> values;
    for (const auto& [i, j] : edges) {
        rows.push_back(i), cols.push_back(j), values.push_back(1.0);
        if (i != j) rows.push_back(j), cols.push_back(i), values.push_back(1.0);
    }
    return csr_from_triplets(n, n, rows.data(), cols.data(), values.data(), static_cast<int64_t>(values.size()));
}

// The side x side lattice, each node joined to its 8 neighbours, numbered row by row.
CsrMatrix lattice(int64_t side)
{
    std::vector<std::pair<int64_t, int64_t>> edges;
    for (int64_t y = 0; y < side; ++y)
        for (int64_t x = 0; x < side; ++x)
            for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 1}, {0, 1}, {1, 1}})
                if (x + dx >= 0 && x + dx < side && y + dy < side)
                    edges.emplace_back(y * side + x, (y + dy) * side + x + dx);
    return symmetric_graph(side * side, edges);
}

// n nodes, each joined to `degree` / 2 uniformly random others (about `degree` per row once mirrored).
CsrMatrix random_graph(int64_t n, int64_t degree, uint64_t seed)
{
    Rng rng(seed);
    std::vector<std::pair<int64_t, int64_t>> edges;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < degree / 2; ++k) {
            const auto j = static_cast<int64_t>(rng.uniform() * static_cast<double>(n));
            if (j != i) edges.emplace_back(i, j);
        }
    return symmetric_graph(n, edges);
}

// Best of three timings of f.
template <class F>
double best_of_three(const F& f)
{
    double best = 1e300;
    for (int k = 0; k < 3; ++k) {
        const auto t0 = Clock::now();
        f();
        best = std::min(best, seconds_since(t0));
    }
    return best;
}

// The local products of rank p (rows [first, first + count)) at X: M_p X, X_p^T X_p, the gradient terms.
double local_product_seconds(const CsrMatrix& block, const Matrix& X, int64_t first)
{
    const std::size_t r = X.shape()[1], rows = static_cast<std::size_t>(block.rows);
    Matrix Xp({rows, r}), MX({rows, r}), XtX({r, r}), G({rows, r});
    std::copy(X.begin() + first * static_cast<int64_t>(r), X.begin() + (first + block.rows) * static_cast<int64_t>(r),
              Xp.begin());
    return best_of_three([&] {
        spmm(block, X, MX, 1);
        blas::gram(Xp, XtX, 1);
        symnmf_gradient_terms(Xp, MX, XtX, G, 1);
    });
}

// h_p and m_p of the halo layout: the rows outside rank p's block that its columns touch, and the
// ranks that hold them (mark: n entries, -1 or the last rank that counted the row).
std::pair<int64_t, int64_t> halo(const CsrMatrix& M, int64_t P, int64_t p, std::vector<int64_t>& mark)
{
    const int64_t n = M.rows, first = block_start(n, P, p), last = block_start(n, P, p + 1);
    int64_t rows = 0, talks = 0;
    std::vector<bool> holder(static_cast<std::size_t>(P), false);
    for (int64_t k = M.indptr[first]; k < M.indptr[last]; ++k) {
        const int64_t j = M.indices[k];
        if ((j >= first && j < last) || mark[j] == p) continue;
        mark[j] = p, ++rows;
        const int64_t owner = ((j + 1) * P + n - 1) / n - 1;  // the q with start(q) <= j < start(q + 1)
        if (!holder[static_cast<std::size_t>(owner)]) holder[static_cast<std::size_t>(owner)] = true, ++talks;
    }
    return {rows, talks};
}

void run(const Graph& g, const char* algorithm, double alpha, double beta)
{
    const int64_t n = g.M.rows, r = g.r;
    // the real solver on one process: products per iteration, values per collective, seconds per iteration
    auto counter = std::make_shared<CountingCollectives>();
    auto problem = std::make_shared<const DistributedSymNMF>(g.M, n, 0, r, counter);
    auto solver = make_solver(problem, algorithm);
    solver->mutable_params().set_int("max_iterations", 30);
    solver->mutable_params().set_int("threads", 1);  // one core per rank, as the blocks are timed
    solver->mutable_params().set_double("tolerance", 0.0);
    solver->mutable_params().set_double("objective_tolerance", 0.0);
    solver->initialize();
    counter->reset();
    const auto t0 = Clock::now();
    solver->solve();
    const double iterations = static_cast<double>(solver->progress().iteration);
    const double seconds_per_iteration = seconds_since(t0) / iterations;
    const double products = static_cast<double>(counter->exchanges) / iterations;
    const double sum_rounds = static_cast<double>(counter->sums) / iterations;
    const double sum_values = counter->summed / iterations;
    const Matrix X = solver->iterate();
    const double product_seconds = local_product_seconds(g.M, X, 0);
    const double elementwise = std::max(seconds_per_iteration - products * product_seconds, 0.0);
    std::printf("\n%s, %s: n = %lld, nnz = %lld, r = %lld; one process: %.3f ms per iteration, %.2f products "
                "(%.3f ms each), %.1f sums of %.0f values in all per iteration\n",
                g.name.c_str(), algorithm, static_cast<long long>(n), static_cast<long long>(g.M.nnz()),
                static_cast<long long>(r), 1e3 * seconds_per_iteration, products, 1e3 * product_seconds, sum_rounds,
                sum_values);
    std::printf("%6s %11s | %12s %11s %6s | %12s %11s %6s | %12s %11s %6s\n", "P", "compute ms", "allgather B",
                "ms/iter", "eff", "halo B", "ms/iter", "eff", "2D B", "ms/iter", "eff");
    std::vector<int64_t> mark(static_cast<std::size_t>(n), -1);
    for (int64_t P = 1; P <= 1024 && P <= n; P *= 2) {
        double slowest = 0.0, halo_bytes = 0.0, halo_seconds = 0.0;
        std::fill(mark.begin(), mark.end(), -1);
        for (int64_t p = 0; p < P; ++p) {
            const int64_t first = block_start(n, P, p), count = block_start(n, P, p + 1) - first;
            slowest = std::max(slowest, local_product_seconds(row_block(g.M, first, count), X, first));
            const auto [rows, talks] = halo(g.M, P, p, mark);
            halo_bytes = std::max(halo_bytes, 8.0 * static_cast<double>(r * rows));
            halo_seconds = std::max(halo_seconds, alpha * static_cast<double>(talks) + beta * 8.0 * static_cast<double>(r * rows));
        }
        const double compute = products * slowest + elementwise / static_cast<double>(P);
        const double rounds = std::log2(static_cast<double>(P));
        const double sums = sum_rounds * rounds * alpha + rounds * beta * 8.0 * sum_values;
        const double gather_bytes = 8.0 * static_cast<double>(n * r) * static_cast<double>(P - 1) / static_cast<double>(P);
        const double gather = products * (alpha * static_cast<double>(P - 1) + beta * gather_bytes);
        const double side = std::sqrt(static_cast<double>(P));
        const double grid_bytes = P == 1 ? 0.0 : 2.0 * 8.0 * static_cast<double>(n * r) / side;
        const double grid = P == 1 ? 0.0 : products * 2.0 * (alpha * std::log2(side) + beta * grid_bytes / 2.0);
        const double one = seconds_per_iteration;
        const auto efficiency = [&](double t) { return one / (static_cast<double>(P) * t); };
        const double t_gather = compute + gather + sums, t_halo = compute + products * halo_seconds + sums;
        const double t_grid = products * product_seconds / static_cast<double>(P) + elementwise / static_cast<double>(P) +
                              grid + sums;
        std::printf("%6lld %11.3f | %12.3g %11.3f %6.2f | %12.3g %11.3f %6.2f | %12.3g %11.3f %6.2f\n",
                    static_cast<long long>(P), 1e3 * compute, products * gather_bytes, 1e3 * t_gather,
                    efficiency(t_gather), products * halo_bytes, 1e3 * t_halo, efficiency(t_halo),
                    products * grid_bytes, 1e3 * t_grid, efficiency(t_grid));
    }
}

// Per P: the one-process time / P, the collectives' bytes per rank (recursive doubling) and the modelled
// time per iteration, for a solver that made `rounds` collectives of `values` values in all per iteration.
void print_divided_scaling(double one, double rounds, double values, double alpha, double beta)
{
    std::printf("%6s %11s %12s %11s %6s\n", "P", "compute ms", "sums B", "ms/iter", "eff");
    for (int64_t P = 1; P <= 1024; P *= 2) {
        const double steps = std::log2(static_cast<double>(P)), compute = one / static_cast<double>(P);
        const double bytes = steps * 8.0 * values;
        const double t = compute + rounds * steps * alpha + beta * bytes;
        std::printf("%6lld %11.3f %12.3g %11.3f %6.2f\n", static_cast<long long>(P), 1e3 * compute, bytes, 1e3 * t,
                    one / (static_cast<double>(P) * t));
    }
}

// A distributed solver run on one process through the counting collectives for `iterations`
// iterations (one thread; fewer when it converges first): seconds, collectives and values reduced per
// iteration.
struct PerIteration {
    double seconds, rounds, values;
};
PerIteration count_iterations(Solver& solver, const CountingCollectives& counter, int64_t iterations)
{
    solver.mutable_params().set_int("max_iterations", iterations);
    solver.mutable_params().set_int("threads", 1);
    solver.initialize();
    counter.reset();
    const auto t0 = Clock::now();
    solver.solve();
    const double done = static_cast<double>(solver.progress().iteration);
    if (!(done > 0.0)) throw std::runtime_error("the solver stopped before its first iteration: nothing to measure");
    return {seconds_since(t0) / done, static_cast<double>(counter.sums + counter.maxima) / done, counter.summed / done};
}

void run_nomad(double alpha, double beta)
{
    const int64_t n = 1 << 16, d = 64, K = 10;
    Matrix centers({static_cast<std::size_t>(K), static_cast<std::size_t>(d)});
    Rng rng(3);
    for (double& c : centers) c = 4.0 * (rng.uniform() - 0.5);
    const Matrix X = gaussian_blobs(n, centers, 1.0, 5).X;
    auto counter = std::make_shared<CountingCollectives>();
    auto solver = make_solver(std::make_shared<const DistributedNomad>(X, n, 0, K, counter), "burer_monteiro");
    const PerIteration one = count_iterations(*solver, *counter, 5);
    std::printf("\nNOMAD burer_monteiro on points: n = %lld, d = %lld, K = %lld, r = %lld; one process: %.1f ms per outer "
                "iteration, %.0f sums and maxima, %.0f values in all, per outer iteration\n",
                static_cast<long long>(n), static_cast<long long>(d), static_cast<long long>(K),
                static_cast<long long>(solver->output("factor").spec.cols), 1e3 * one.seconds, one.rounds, one.values);
    print_divided_scaling(one.seconds, one.rounds, one.values, alpha, beta);
}

void run_merit(double alpha, double beta)
{
    const int64_t M = 64, N = 8192, K = 20;
    const SeparableData data = separable_dirichlet(M, N, K, 20.0, 1);
    auto counter = std::make_shared<CountingCollectives>();
    auto solver = make_solver(SelfDictionary::distributed(data.X, N, 0, K, -1.0, 1e-5, counter), "merit");
    solver->mutable_params().set_string("variant", "vanilla");  // the iteration the scaling model counts
    solver->mutable_params().set_double("tolerance", 0.0);
    const PerIteration one = count_iterations(*solver, *counter, 5);
    std::printf("\nMERIT (vanilla) by columns: M = %lld, N = %lld, K = %lld; one process: %.1f ms per iteration, %.0f "
                "sums and maxima, %.0f values in all, per iteration; X (%.0f MB) on every rank\n",
                static_cast<long long>(M), static_cast<long long>(N), static_cast<long long>(K), 1e3 * one.seconds,
                one.rounds, one.values, 8e-6 * static_cast<double>(M * N));
    print_divided_scaling(one.seconds, one.rounds, one.values, alpha, beta);
}

}  // namespace

int main(int argc, char** argv)
{
    const double alpha = 1e-6 * (std::getenv("FACTO_ALPHA_US") ? std::atof(std::getenv("FACTO_ALPHA_US")) : 2.0);
    const double beta =
        1e-9 / (std::getenv("FACTO_GBYTES_PER_S") ? std::atof(std::getenv("FACTO_GBYTES_PER_S")) : 12.0);
    const std::string only = argc == 2 ? argv[1] : "";
    const bool nomad_only = only == "nomad", merit_only = only == "merit";
    std::vector<Graph> graphs;
    for (int a = 1; !nomad_only && !merit_only && a + 1 < argc; a += 2) graphs.push_back({argv[a], read_matrix_market(argv[a]), std::atoll(argv[a + 1])});
    if (argc == 1) {
        if (bench::has_data("symnmf/tdt2_similarity.mtx"))
            graphs.push_back({"TDT2 similarity", read_matrix_market(bench::data_file("symnmf/tdt2_similarity.mtx")), 30});
        else
            std::printf("(TDT2 skipped: %s/symnmf/tdt2_similarity.mtx is missing; bash benchmarks/fetch_data.sh gets it)\n",
                        bench::data_dir().c_str());
        graphs.push_back({"lattice 1024 x 1024", lattice(1024), 30});
        graphs.push_back({"random graph", random_graph(1 << 18, 16, 7), 30});
    }
    std::printf("network model: latency alpha = %.2g us, bandwidth %.3g GB/s per rank; compute measured on one core\n",
                1e6 * alpha, 1e-9 / beta);
    std::printf("PLANC (Eswar et al., distributed-memory SymNMF, 2D layout): about 70%% parallel efficiency at 4096 "
                "cores, as published\n");
    for (const Graph& g : graphs)
        for (const char* algorithm : {"nolips", "projected_gradient"}) run(g, algorithm, alpha, beta);
    if (argc == 1 || nomad_only) run_nomad(alpha, beta);
    if (argc == 1 || merit_only) run_merit(alpha, beta);
    return 0;
}
