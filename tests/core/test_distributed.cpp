// A problem distributed over processes, with P processes played by P threads of this test
// through in-process collectives: NoLips on the row blocks of a sparse SymNMF takes the single-process
// solver's steps (its iterates agree to 1e-12: only the order of the sums differs), every process stops
// at the same step whichever process's callback or request stops it, and an error of one process's
// data is an error on every process.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include <xtensor/xview.hpp>

#include "base/error.hpp"
#include "base/random.hpp"
#include "linalg/blas.hpp"
#include "linalg/gram_rows.hpp"
#include "linalg/lanczos.hpp"
#include "linalg/sparse.hpp"
#include "linalg/spectral_projected_gradient.hpp"
#include "metrics/metrics.hpp"
#include "data/data.hpp"
#include "problems/distributed_nomad.hpp"
#include "problems/distributed_symnmf.hpp"
#include "problems/nomad.hpp"
#include "problems/self_dictionary.hpp"
#include "sets/column_simplices.hpp"
#include "solvers/self_dictionary/self_dictionary_solver.hpp"
#include "problems/symnmf.hpp"
#include "solvers/registry.hpp"
#include "fixtures.hpp"

using namespace facto;
using namespace facto::test;

namespace {

// P processes as P threads: each collective posts this thread's buffer, waits for all, combines every
// buffer in rank order (the same result on every thread), and waits again before the buffers change.
class ThreadGroup {
public:
    explicit ThreadGroup(int64_t P)
        : size(P), slots(static_cast<std::size_t>(P)), ints(static_cast<std::size_t>(P)),
          counts(static_cast<std::size_t>(P * P))
    {
    }

    // Throws after a minute without every thread: a process out of step fails the test, not hangs it.
    void barrier()
    {
        std::unique_lock<std::mutex> lock(mutex_);
        const uint64_t generation = generation_;
        if (++arrived_ == size) {
            arrived_ = 0;
            ++generation_;
            wake_.notify_all();
        } else if (!wake_.wait_for(lock, std::chrono::seconds(60), [&] { return generation != generation_; })) {
            throw std::runtime_error("a process never reached this collective: the processes are out of step");
        }
    }

    const int64_t size;
    std::vector<const double*> slots;
    std::vector<const int64_t*> ints;
    std::vector<int64_t> counts;  // the all-to-all's send counts, P per process

private:
    std::mutex mutex_;
    std::condition_variable wake_;
    int64_t arrived_ = 0;
    uint64_t generation_ = 0;
};

class ThreadCollectives final : public Collectives {
public:
    ThreadCollectives(ThreadGroup& group, int64_t rank) : group_(group), rank_(rank) {}
    int64_t rank() const override { return rank_; }
    int64_t size() const override { return group_.size; }

    void sum(double* values, std::size_t count) const override
    {
        group_.slots[static_cast<std::size_t>(rank_)] = values;
        group_.barrier();
        std::vector<double> total(count, 0.0);
        for (const double* block : group_.slots)
            for (std::size_t k = 0; k < count; ++k) total[k] += block[k];
        group_.barrier();
        std::copy(total.begin(), total.end(), values);
    }

    using Collectives::max;
    void max(int64_t* values, std::size_t count) const override
    {
        group_.ints[static_cast<std::size_t>(rank_)] = values;
        group_.barrier();
        std::vector<int64_t> largest(values, values + count);
        for (const int64_t* block : group_.ints)
            for (std::size_t k = 0; k < count; ++k) largest[k] = std::max(largest[k], block[k]);
        group_.barrier();
        std::copy(largest.begin(), largest.end(), values);
    }

    void allgather(const double* mine, double* all, const std::vector<int64_t>& counts) const override
    {
        group_.slots[static_cast<std::size_t>(rank_)] = mine;
        group_.barrier();
        for (std::size_t p = 0; p < counts.size(); ++p) {
            std::copy(group_.slots[p], group_.slots[p] + counts[p], all);
            all += counts[p];
        }
        group_.barrier();
    }

    // Process q's block for p starts after q's blocks for the processes before p (their sizes posted in
    // `counts`, one row of P per process).
    void exchange(const double* send, const std::vector<int64_t>& send_counts, double* receive,
                  const std::vector<int64_t>& receive_counts) const override
    {
        const std::size_t P = static_cast<std::size_t>(group_.size), me = static_cast<std::size_t>(rank_);
        group_.slots[me] = send;
        std::copy(send_counts.begin(), send_counts.end(), group_.counts.begin() + static_cast<std::ptrdiff_t>(me * P));
        group_.barrier();
        bool matched = true;  // what q sends here is what this process expects from q (MPI would fail)
        for (std::size_t q = 0; q < P; ++q) {
            int64_t offset = 0;
            for (std::size_t p = 0; p < me; ++p) offset += group_.counts[q * P + p];
            const int64_t count = std::min(receive_counts[q], group_.counts[q * P + me]);
            matched = matched && receive_counts[q] == group_.counts[q * P + me];
            std::copy(group_.slots[q] + offset, group_.slots[q] + offset + count, receive);
            receive += receive_counts[q];
            received += receive_counts[q];
        }
        group_.barrier();
        if (!matched) throw std::runtime_error("exchange: a receive count differs from what its sender sends");
    }

    mutable int64_t received = 0;  // values received by exchange, in all

private:
    ThreadGroup& group_;
    int64_t rank_;
};

// A random sparse symmetric n x n M (about `density` of the pairs, entries in (0, 1]).
CsrMatrix random_graph(int64_t n, double density, uint64_t seed)
{
    Rng rng(seed);
    std::vector<int64_t> rows, cols;
    std::vector<double> values;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = i; j < n; ++j)
            if (rng.uniform() < density) {
                const double v = 1.0 - rng.uniform();
                rows.push_back(i), cols.push_back(j), values.push_back(v);
                if (i != j) rows.push_back(j), cols.push_back(i), values.push_back(v);
            }
    return csr_from_triplets(n, n, rows.data(), cols.data(), values.data(), static_cast<int64_t>(values.size()));
}

// Rows first .. first + count - 1 of A.
CsrMatrix row_block(const CsrMatrix& A, int64_t first, int64_t count)
{
    std::vector<int64_t> rows(static_cast<std::size_t>(count));
    for (int64_t i = 0; i < count; ++i) rows[static_cast<std::size_t>(i)] = first + i;
    return select_rows(A, rows);
}

// The first row of process p's block when n rows are split as evenly as possible over P processes.
int64_t block_start(int64_t n, int64_t P, int64_t p) { return n * p / P; }

// Runs `body(rank, collectives)` on P threads; rethrows the first exception a thread threw.
void run_processes(int64_t P, const std::function<void(int64_t, std::shared_ptr<const Collectives>)>& body)
{
    ThreadGroup group(P);
    std::vector<std::exception_ptr> failures(static_cast<std::size_t>(P));
    std::vector<std::thread> threads;
    for (int64_t p = 0; p < P; ++p)
        threads.emplace_back([&, p] {
            try {
                body(p, std::make_shared<ThreadCollectives>(group, p));
            } catch (...) {
                failures[static_cast<std::size_t>(p)] = std::current_exception();
            }
        });
    for (auto& t : threads) t.join();
    for (const auto& f : failures)
        if (f) std::rethrow_exception(f);
}

std::shared_ptr<const DistributedSymNMF> block_problem(const CsrMatrix& M, int64_t r, int64_t P, int64_t p,
                                                       std::shared_ptr<const Collectives> c)
{
    const int64_t first = block_start(M.rows, P, p), count = block_start(M.rows, P, p + 1) - first;
    return std::make_shared<const DistributedSymNMF>(row_block(M, first, count), M.rows, first, r, std::move(c));
}

// Largest |a - b| relative to the largest |b|.
double relative_difference(const Matrix& a, const Matrix& b)
{
    double diff = 0.0, size = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        diff = std::max(diff, std::fabs(a.data()[i] - b.data()[i]));
        size = std::max(size, std::fabs(b.data()[i]));
    }
    return diff / size;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(distributed)

BOOST_AUTO_TEST_CASE(solvers_on_row_blocks_take_the_single_process_steps)
{
    // The same products and sums in another order: each step's rounding differs by a few ulps of the
    // terms, far below 1e-12 after 150 steps of a method that contracts towards a stationary point.
    const CsrMatrix M = random_graph(90, 0.08, 3);
    const int64_t r = 4, iterations = 150;
    const auto configure = [&](Solver& solver) {
        solver.mutable_params().set_int("seed", 5);
        solver.mutable_params().set_int("max_iterations", iterations);
        solver.mutable_params().set_double("tolerance", 0.0);
        solver.mutable_params().set_double("objective_tolerance", 0.0);
    };
    for (const char* algorithm : {"nolips", "projected_gradient"}) {
        auto single = make_solver(std::make_shared<const SymNMF>(M, r), algorithm);
        configure(*single);
        if (single->params().has("reuse_products"))  // no product reuse on row blocks: the same arithmetic
            single->mutable_params().set_int("reuse_products", 0);
        BOOST_TEST(single->solve() == FACTO_ITERATION_LIMIT);
        const Matrix& expected = single->iterate();
        for (const int64_t P : {1, 2, 3, 4}) {
            Matrix gathered(expected.shape());
            std::vector<double> objectives(static_cast<std::size_t>(P)), steps(static_cast<std::size_t>(P));
            std::vector<int32_t> reasons(static_cast<std::size_t>(P));
            run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {  // no assertion on a thread
                auto solver = make_solver(block_problem(M, r, P, p, std::move(c)), algorithm);
                configure(*solver);
                reasons[static_cast<std::size_t>(p)] = solver->solve();
                const Matrix& block = solver->iterate();
                std::copy(block.begin(), block.end(), gathered.begin() + block_start(M.rows, P, p) * r);
                objectives[static_cast<std::size_t>(p)] = solver->progress().objective;
                steps[static_cast<std::size_t>(p)] = solver->progress().step_size;
            });
            BOOST_TEST_CONTEXT(algorithm << ", P = " << P)
            {
                BOOST_TEST(relative_difference(gathered, expected) <= 1e-12);
                for (std::size_t p = 0; p < objectives.size(); ++p) {
                    BOOST_TEST(reasons[p] == FACTO_ITERATION_LIMIT);
                    BOOST_TEST(std::fabs(objectives[p] - single->progress().objective) <=
                               1e-12 * single->progress().objective);
                    BOOST_TEST(steps[p] == single->progress().step_size);  // the same line searches
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(one_process_stopping_stops_every_process_at_the_same_step)
{
    const CsrMatrix M = random_graph(60, 0.1, 4);
    const int64_t P = 3;
    std::vector<int64_t> iterations(P);
    std::vector<int32_t> reasons(P);
    // the callback on process 2 alone asks to stop at iteration 7
    run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
        auto solver = make_solver(block_problem(M, 3, P, p, std::move(c)), "nolips");
        solver->mutable_params().set_double("tolerance", 0.0);
        if (p == 2) solver->set_callback([](const Progress& progress) { return progress.iteration >= 7; });
        reasons[static_cast<std::size_t>(p)] = solver->solve();
        iterations[static_cast<std::size_t>(p)] = solver->progress().iteration;
    });
    for (int64_t p = 0; p < P; ++p) {
        BOOST_TEST(reasons[static_cast<std::size_t>(p)] == FACTO_STOPPED_BY_CALLBACK);
        BOOST_TEST(iterations[static_cast<std::size_t>(p)] == 7);
    }
    // a stop requested on process 1 before the solve ends every process's first step
    run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
        auto solver = make_solver(block_problem(M, 3, P, p, std::move(c)), "nolips");
        solver->mutable_params().set_double("tolerance", 0.0);
        if (p == 1) solver->request_stop();
        reasons[static_cast<std::size_t>(p)] = solver->solve();
        iterations[static_cast<std::size_t>(p)] = solver->progress().iteration;
    });
    for (int64_t p = 0; p < P; ++p) {
        BOOST_TEST(reasons[static_cast<std::size_t>(p)] == FACTO_STOPPED_BY_REQUEST);
        BOOST_TEST(iterations[static_cast<std::size_t>(p)] == 1);
    }
    // a callback that throws on process 0: it rethrows there, the others stop at the same step
    std::vector<facto_status> thrown(P);
    run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
        auto solver = make_solver(block_problem(M, 3, P, p, std::move(c)), "nolips");
        solver->mutable_params().set_double("tolerance", 0.0);
        if (p == 0)
            solver->set_callback([](const Progress& progress) -> bool {
                if (progress.iteration == 4) throw Error(FACTO_ERROR_INTERNAL, "from the callback");
                return false;
            });
        thrown[static_cast<std::size_t>(p)] = status_of([&] { reasons[static_cast<std::size_t>(p)] = solver->solve(); });
        iterations[static_cast<std::size_t>(p)] = solver->progress().iteration;
    });
    BOOST_TEST(thrown[0] == FACTO_ERROR_INTERNAL);
    for (int64_t p = 0; p < P; ++p) {
        if (p > 0) BOOST_TEST(thrown[static_cast<std::size_t>(p)] == FACTO_OK);
        if (p > 0) BOOST_TEST(reasons[static_cast<std::size_t>(p)] == FACTO_STOPPED_BY_CALLBACK);
        BOOST_TEST(iterations[static_cast<std::size_t>(p)] == 4);
    }
}

BOOST_AUTO_TEST_CASE(an_error_in_one_process_data_is_an_error_on_every_process)
{
    const CsrMatrix M = random_graph(40, 0.15, 5);
    const int64_t P = 3;
    std::vector<facto_status> statuses(P);
    const auto each_status = [&](const std::function<void(int64_t, std::shared_ptr<const Collectives>)>& make) {
        run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
            statuses[static_cast<std::size_t>(p)] = status_of([&] { make(p, std::move(c)); });
        });
        return statuses;
    };
    // process 1's rows have the wrong number of columns
    for (facto_status s : each_status([&](int64_t p, std::shared_ptr<const Collectives> c) {
             const int64_t first = block_start(40, P, p), count = block_start(40, P, p + 1) - first;
             CsrMatrix rows = row_block(M, first, count);
             if (p == 1) rows.cols = 39;
             DistributedSymNMF(std::move(rows), 40, first, 2, std::move(c));
         }))
        BOOST_TEST(s == FACTO_ERROR_DIMENSION);
    // the blocks leave a gap (process 2 starts one row late and is one row short)
    for (facto_status s : each_status([&](int64_t p, std::shared_ptr<const Collectives> c) {
             int64_t first = block_start(40, P, p), count = block_start(40, P, p + 1) - first;
             if (p == 2) ++first, --count;
             DistributedSymNMF(row_block(M, first, count), 40, first, 2, std::move(c));
         }))
        BOOST_TEST(s == FACTO_ERROR_DIMENSION);
    // one entry of process 0's rows lost its mirror in process 2's
    for (facto_status s : each_status([&](int64_t p, std::shared_ptr<const Collectives> c) {
             const int64_t first = block_start(40, P, p), count = block_start(40, P, p + 1) - first;
             CsrMatrix rows = row_block(M, first, count);
             if (p == 0) {  // the first entry off the diagonal
                 int64_t i = 0, k = 0;
                 while (k == rows.indptr[i + 1] || rows.indices[k] == first + i) {
                     if (k == rows.indptr[i + 1]) ++i;
                     else ++k;
                 }
                 rows.values[k] += 0.5;
             }
             DistributedSymNMF(std::move(rows), 40, first, 2, std::move(c));
         }))
        BOOST_TEST(s == FACTO_ERROR_NOT_SYMMETRIC);
    // process 2 says n = 41
    for (facto_status s : each_status([&](int64_t p, std::shared_ptr<const Collectives> c) {
             const int64_t first = block_start(40, P, p), count = block_start(40, P, p + 1) - first;
             CsrMatrix rows = row_block(M, first, count);
             const int64_t n = p == 2 ? 41 : 40;
             rows.cols = n;
             DistributedSymNMF(std::move(rows), n, first, 2, std::move(c));
         }))
        BOOST_TEST(s == FACTO_ERROR_DIMENSION);
    // an infeasible start on process 1 only
    for (facto_status s : each_status([&](int64_t p, std::shared_ptr<const Collectives> c) {
             auto problem = block_problem(M, 2, P, p, std::move(c));
             auto solver = make_solver(problem, "nolips");
             Matrix X = problem->random_point(1);
             if (p == 1) X(0, 0) = -1.0;
             solver->set_iterate(X);
         }))
        BOOST_TEST(s == FACTO_ERROR_INFEASIBLE);
}

BOOST_AUTO_TEST_CASE(processes_without_rows_take_part)
{
    // n = 5 over P = 7 processes: processes 0 and 3 hold no row and still agree with one process
    const CsrMatrix M = random_graph(5, 0.8, 6);
    auto single = make_solver(std::make_shared<const SymNMF>(M, 2), "nolips");
    single->mutable_params().set_int("seed", 2);
    single->mutable_params().set_int("max_iterations", 40);
    single->mutable_params().set_int("reuse_products", 0);
    single->solve();
    const int64_t P = 7;
    Matrix gathered(single->iterate().shape());
    std::vector<int64_t> rows(P);
    run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
        auto problem = block_problem(M, 2, P, p, std::move(c));
        auto solver = make_solver(problem, "nolips");
        solver->mutable_params().set_int("seed", 2);
        solver->mutable_params().set_int("max_iterations", 40);
        solver->solve();
        rows[static_cast<std::size_t>(p)] = problem->iterate_shape()[0];
        std::copy(solver->iterate().begin(), solver->iterate().end(), gathered.begin() + block_start(5, P, p) * 2);
    });
    BOOST_TEST(rows[0] == 0);
    BOOST_TEST(rows[3] == 0);
    BOOST_TEST(relative_difference(gathered, single->iterate()) <= 1e-12);
}

BOOST_AUTO_TEST_CASE(a_product_receives_only_the_rows_its_columns_touch)
{
    // M tridiagonal, n = 40 over P = 4: a product needs, besides a block's own rows, the row just above
    // and the row just below it (the halo), r values each, not the whole X
    const int64_t n = 40, r = 3, P = 4;
    std::vector<int64_t> rows, cols;
    std::vector<double> values;
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = std::max<int64_t>(i - 1, 0); j <= std::min(i + 1, n - 1); ++j)
            rows.push_back(i), cols.push_back(j), values.push_back(i == j ? 2.0 : 1.0);
    const CsrMatrix M = csr_from_triplets(n, n, rows.data(), cols.data(), values.data(), static_cast<int64_t>(values.size()));
    auto single = std::make_shared<const SymNMF>(M, r);
    const Matrix X = single->random_point(4);
    LowRankProblem::Evaluation whole;
    const double f = single->evaluate(X, whole, 1);
    std::vector<int64_t> received(P);
    std::vector<double> objectives(P);
    Matrix product(X.shape());
    run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
        const auto* counter = dynamic_cast<const ThreadCollectives*>(c.get());
        auto problem = block_problem(M, r, P, p, c);
        const int64_t first = block_start(n, P, p), count = block_start(n, P, p + 1) - first;
        Matrix block({static_cast<std::size_t>(count), static_cast<std::size_t>(r)});
        std::copy(X.begin() + first * r, X.begin() + (first + count) * r, block.begin());
        const int64_t before = counter->received;
        LowRankProblem::Evaluation e;
        objectives[static_cast<std::size_t>(p)] = problem->evaluate(block, e, 1);
        received[static_cast<std::size_t>(p)] = counter->received - before;
        std::copy(e.first.begin(), e.first.end(), product.begin() + first * r);
    });
    for (int64_t p = 0; p < P; ++p) {
        BOOST_TEST(received[p] == ((p == 0 || p == P - 1) ? 1 : 2) * r);
        BOOST_TEST(std::fabs(objectives[p] - f) <= 1e-12 * f);
    }
    BOOST_TEST(relative_difference(product, whole.first) <= 1e-15);  // the same sums, in the same order
}

BOOST_AUTO_TEST_CASE(spg_on_blocks_takes_the_single_process_steps)
{
    // f(x) = sum_k a_k (x_k - c_k)^2 / 2 + (sum_k x_k - s)^2 / 2 on [0, 1]^m: the last term couples the
    // blocks, so fg sums over the processes like a distributed problem's; an interruption on one
    // process stops every process at the same iteration
    const std::size_t m = 50;
    std::vector<double> a(m), c(m), start(m);
    Rng rng(11);
    for (std::size_t k = 0; k < m; ++k) a[k] = 0.5 + 1.5 * rng.uniform(), c[k] = 2.0 * rng.uniform() - 0.5, start[k] = rng.uniform();
    const double s = 7.0;
    const auto fg_of = [&](std::size_t first, std::size_t count, const Collectives* group) {
        return [&, first, count, group](const double* x, double* g) {
            double sums[2] = {0.0, 0.0};  // the separable part, sum x
            for (std::size_t k = 0; k < count; ++k) {
                const double d = x[k] - c[first + k];
                sums[0] += 0.5 * a[first + k] * d * d, sums[1] += x[k];
            }
            if (group) group->sum(sums, 2);
            for (std::size_t k = 0; k < count; ++k) g[k] = a[first + k] * (x[k] - c[first + k]) + (sums[1] - s);
            return sums[0] + 0.5 * (sums[1] - s) * (sums[1] - s);
        };
    };
    LbfgsbSettings settings;
    settings.pgtol = 1e-10;
    settings.factr = 0.0;
    std::vector<double> expected = start;
    const LbfgsbResult single = minimize_in_box_spg(expected, 0.0, 1.0, fg_of(0, m, nullptr), settings);
    BOOST_TEST(single.projected_gradient <= 1e-10);
    for (const int64_t P : {1, 2, 3, 4}) {
        std::vector<double> together(m);
        std::vector<int> iterations(static_cast<std::size_t>(P)), interrupted(static_cast<std::size_t>(P));
        run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> group) {
            const auto first = static_cast<std::size_t>(block_start(static_cast<int64_t>(m), P, p));
            const auto count = static_cast<std::size_t>(block_start(static_cast<int64_t>(m), P, p + 1)) - first;
            std::vector<double> x(start.begin() + first, start.begin() + first + count);
            const LbfgsbResult r = minimize_in_box_spg(x, 0.0, 1.0, fg_of(first, count, group.get()), settings, group.get());
            iterations[static_cast<std::size_t>(p)] = r.iterations;
            std::copy(x.begin(), x.end(), together.begin() + first);
            LbfgsbSettings once = settings;  // the last process's time runs out at its fourth check
            int checks = 0;
            if (p == P - 1) once.interrupted = [&checks] { return ++checks > 3; };
            std::vector<double> y(start.begin() + first, start.begin() + first + count);
            interrupted[static_cast<std::size_t>(p)] =
                minimize_in_box_spg(y, 0.0, 1.0, fg_of(first, count, group.get()), once, group.get()).iterations;
        });
        BOOST_TEST_CONTEXT("P = " << P)
        {
            double diff = 0.0;
            for (std::size_t k = 0; k < m; ++k) diff = std::max(diff, std::fabs(together[k] - expected[k]));
            BOOST_TEST(diff <= 1e-12);
            for (std::size_t p = 0; p < iterations.size(); ++p) {
                BOOST_TEST(iterations[p] == single.iterations);
                BOOST_TEST(interrupted[p] == 3);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(kernel_kmeans_on_blocks_of_points_finds_the_single_process_clustering)
{
    // D = F F^T of 90 points in 3 dimensions around 5 centres, plus a K = 8 run that empties clusters
    // (more clusters than groups): the same labels from P = 1 .. 4 blocks of rows as from all of D
    const std::size_t n = 90, d = 3;
    Matrix F({n, d});
    Rng rng(21);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < d; ++j) F(i, j) = static_cast<double>((i * (j + 2)) % 5) + 0.3 * (rng.uniform() - 0.5);
    const GramOperator whole = GramOperator::factored(F);
    for (const int64_t K : {5, 8}) {
        const std::vector<int64_t> expected = kernel_kmeans(whole, K, 3, 100, 1);
        for (const int64_t P : {1, 2, 3, 4}) {
            std::vector<int64_t> labels(n, -1);
            run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
                const auto first = static_cast<std::size_t>(block_start(static_cast<int64_t>(n), P, p));
                const auto count = static_cast<std::size_t>(block_start(static_cast<int64_t>(n), P, p + 1)) - first;
                Matrix block({count, d});
                std::copy(F.begin() + static_cast<std::ptrdiff_t>(first * d),
                          F.begin() + static_cast<std::ptrdiff_t>((first + count) * d), block.begin());
                const std::vector<int64_t> mine = kernel_kmeans(factor_rows(block, first, n, c.get()), K, 3, 100);
                std::copy(mine.begin(), mine.end(), labels.begin() + static_cast<std::ptrdiff_t>(first));
            });
            BOOST_TEST_CONTEXT("K = " << K << ", P = " << P) { BOOST_TEST(labels == expected); }
        }
    }
}

BOOST_AUTO_TEST_CASE(lanczos_on_blocks_finds_the_single_process_eigenpair)
{
    // a symmetric 60 x 60 A with rows over P processes (apply gathers x, multiplies its rows): the
    // smallest eigenpair, the products and the residual of one process, from the same start
    const std::size_t n = 60;
    Matrix A({n, n});
    Rng rng(5);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j) A(i, j) = A(j, i) = rng.uniform() - 0.5 + (i == j ? 0.1 * static_cast<double>(i) : 0.0);
    std::vector<double> start(n);
    for (double& x : start) x = rng.uniform() - 0.5;
    std::vector<double> expected = start;
    const auto multiply = [&](std::size_t first, std::size_t count, const double* x, double* y) {
        for (std::size_t i = 0; i < count; ++i) y[i] = blas::dot(&A(first + i, 0), x, n);
    };
    const Eigenpair single = smallest_eigenpair(n, [&](const double* x, double* y) { multiply(0, n, x, y); }, expected,
                                                1e-10, 12);
    BOOST_TEST(single.converged);
    for (const int64_t P : {1, 2, 3, 4}) {
        std::vector<double> vector(n);
        std::vector<Eigenpair> pairs(static_cast<std::size_t>(P));
        run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
            std::vector<int64_t> counts;
            for (int64_t q = 0; q < P; ++q)
                counts.push_back(block_start(static_cast<int64_t>(n), P, q + 1) - block_start(static_cast<int64_t>(n), P, q));
            const auto first = static_cast<std::size_t>(block_start(static_cast<int64_t>(n), P, p));
            const auto count = static_cast<std::size_t>(counts[static_cast<std::size_t>(p)]);
            std::vector<double> v(start.begin() + static_cast<std::ptrdiff_t>(first),
                                  start.begin() + static_cast<std::ptrdiff_t>(first + count)), x(n);
            pairs[static_cast<std::size_t>(p)] = smallest_eigenpair(n, [&](const double* block, double* y) {
                c->allgather(block, x.data(), counts);
                multiply(first, count, x.data(), y);
            }, v, 1e-10, 12, 2000, c.get());
            std::copy(v.begin(), v.end(), vector.begin() + static_cast<std::ptrdiff_t>(first));
        });
        BOOST_TEST_CONTEXT("P = " << P)
        {
            double diff = 0.0;
            for (std::size_t i = 0; i < n; ++i) diff = std::max(diff, std::fabs(vector[i] - expected[i]));
            BOOST_TEST(diff <= 1e-10);
            for (const Eigenpair& pair : pairs) {
                BOOST_TEST(std::fabs(pair.value - single.value) <= 1e-12 * std::fabs(single.value));
                BOOST_TEST(pair.products == single.products);
                BOOST_TEST(pair.converged);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(burer_monteiro_on_blocks_of_points_takes_the_single_process_steps)
{
    // NOMAD's Burer-Monteiro heuristic on points distributed by rows: the kernel k-means start, the SPG
    // solves of (33a), the multiplier updates and an escape that adds a column take the single-process
    // decisions, so the blocks of Y agree with its Y up to the order of the sums: to 1e-12 of the box
    // [0, 1] that holds Y. Only over a few short outer iterations: SPG's nonmonotone BB steps amplify a
    // difference of the sums' rounding about tenfold per 10 inner steps on this instance (measured:
    // 1e-12 after 40, 1e-6 after 120), which no summation order escapes. The tolerances are loose so
    // that the escape comes after the first outer iteration. Two rings of 40 points.
    const Matrix X = two_rings(40, 0.5, 0.02, 3).X;
    const int64_t n = static_cast<int64_t>(X.shape()[0]), K = 4, outer = 2;
    const auto configure = [&](Solver& solver) {
        solver.mutable_params().set_int("seed", 2);
        solver.mutable_params().set_int("max_iterations", outer);
        solver.mutable_params().set_string("inner_method", "spg");
        solver.mutable_params().set_int("inner_iterations", 10);
        solver.mutable_params().set_double("tolerance", 3e-2);
        solver.mutable_params().set_double("feasibility_tolerance", 0.1);
    };
    auto single = make_solver(Nomad::from_points(X, K), "burer_monteiro");
    configure(*single);
    const int32_t reason = single->solve();
    const Output factor = single->output("factor");
    const std::size_t r = static_cast<std::size_t>(factor.spec.cols);
    BOOST_TEST_REQUIRE(r > static_cast<std::size_t>(K));  // an escape added a column
    const std::vector<int64_t> labels = single->output("labels").ints;
    const std::vector<double> feasibility = single->output("feasibility").doubles;
    for (const int64_t P : {1, 2, 3, 4}) {
        std::vector<double> gathered(factor.doubles.size(), -1.0), objectives(static_cast<std::size_t>(P));
        std::vector<int64_t> gathered_labels(labels.size(), -1);
        std::vector<int32_t> reasons(static_cast<std::size_t>(P));
        std::vector<std::vector<double>> feasibilities(static_cast<std::size_t>(P));
        run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {  // no assertion on a thread
            const int64_t first = block_start(n, P, p), count = block_start(n, P, p + 1) - first;
            const Matrix block = xt::view(X, xt::range(first, first + count), xt::all());
            auto solver = make_solver(std::make_shared<const DistributedNomad>(block, n, first, K, std::move(c)),
                                      "burer_monteiro");
            configure(*solver);
            reasons[static_cast<std::size_t>(p)] = solver->solve();
            objectives[static_cast<std::size_t>(p)] = solver->progress().objective;
            const Output Y = solver->output("factor");
            if (Y.spec.cols == static_cast<int64_t>(r))
                std::copy(Y.doubles.begin(), Y.doubles.end(), gathered.begin() + first * static_cast<int64_t>(r));
            const std::vector<int64_t> mine = solver->output("labels").ints;
            std::copy(mine.begin(), mine.end(), gathered_labels.begin() + first);
            feasibilities[static_cast<std::size_t>(p)] = solver->output("feasibility").doubles;
        });
        BOOST_TEST_CONTEXT("P = " << P)
        {
            double diff = 0.0;
            for (std::size_t k = 0; k < gathered.size(); ++k) diff = std::max(diff, std::fabs(gathered[k] - factor.doubles[k]));
            BOOST_TEST(diff <= 1e-12);
            BOOST_TEST(gathered_labels == labels, boost::test_tools::per_element());
            for (std::size_t p = 0; p < reasons.size(); ++p) {
                BOOST_TEST(reasons[p] == reason);
                BOOST_TEST(std::fabs(objectives[p] - single->progress().objective) <= 1e-12 * single->progress().objective);
                for (std::size_t k = 0; k < 4; ++k)  // residuals near 1e-5: agreement relative to 1
                    BOOST_TEST(std::fabs(feasibilities[p][k] - feasibility[k]) <= 1e-12);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_distributed_nomad_refuses_what_needs_all_the_data_on_one_process)
{
    const Matrix X = two_rings(10, 0.5, 0.02, 1).X;
    const int64_t n = static_cast<int64_t>(X.shape()[0]);
    std::vector<std::vector<facto_status>> statuses(2);  // no assertion on a thread
    run_processes(2, [&](int64_t p, std::shared_ptr<const Collectives> c) {
        const int64_t first = block_start(n, 2, p), count = block_start(n, 2, p + 1) - first;
        const Matrix block = xt::view(X, xt::range(first, first + count), xt::all());
        auto solver = make_solver(std::make_shared<const DistributedNomad>(block, n, first, 3, c), "burer_monteiro");
        std::vector<facto_status>& mine = statuses[static_cast<std::size_t>(p)];
        mine.push_back(status_of([&] { solver->mutable_params().set_string("inner_method", "lbfgsb"); }));
        mine.push_back(status_of([&] { solver->mutable_params().set_string("start", "symnmf"); }));
        mine.push_back(status_of([&] {
            solver->set_iterate(Matrix({static_cast<std::size_t>(count), static_cast<std::size_t>(n)}, 0.0));
        }));
        // K differing between the processes is refused on both
        mine.push_back(status_of([&] { DistributedNomad(block, n, first, 3 + p, c); }));
    });
    for (const auto& mine : statuses) {
        BOOST_TEST(mine[0] == FACTO_ERROR_UNSUPPORTED);
        BOOST_TEST(mine[1] == FACTO_ERROR_UNSUPPORTED);
        BOOST_TEST(mine[2] == FACTO_ERROR_UNSUPPORTED);
        BOOST_TEST(mine[3] == FACTO_ERROR_DIMENSION);
    }
}

BOOST_AUTO_TEST_CASE(merit_on_blocks_of_columns_takes_the_single_process_steps)
{
    // MERIT with the data points (columns of X) and the columns of C distributed: every column's sweep,
    // step and residual are local, f, the gaps and Phi's row statistics are sums and maxima over the
    // processes, so the blocks of C agree with the single-process C up to the order of those sums (the
    // vertices are the same: argmins of the same products, ties within rounding going to the first
    // row). Vanilla MERIT (Alg. 1) with the paper's lambda heuristic from the SPA start, whose least
    // squares make every column's support a tie of the gradient (this instance once broke them by the
    // last bits on 4 processes), pairwise steps on MERIT(0), and MERIT(0) from C = 0. Not pairwise or
    // away steps with lambda > 0: their common factor comes from a line search on f, which fixes
    // it only to sqrt(eps), so the order of the sums moves it by 1e-10 and the runs part.
    const SeparableData data = separable_dirichlet(12, 60, 4, 25.0, 3);
    const int64_t N = 60, K = 4, iterations = 40;
    struct Case {
        const char* variant;
        double lambda;
        const char* warm_start;
    };
    for (const Case& c : {Case{"vanilla", -1.0, "spa"}, Case{"pairwise", 0.0, "spa"}, Case{"vanilla", 0.0, "none"}}) {
        const auto configure = [&](Solver& solver) {
            solver.mutable_params().set_string("variant", c.variant);
            solver.mutable_params().set_string("warm_start", c.warm_start);
            solver.mutable_params().set_int("max_iterations", iterations);
            solver.mutable_params().set_double("tolerance", 0.0);
            solver.mutable_params().set_double("objective_tolerance", 0.0);
        };
        auto single = make_solver(std::make_shared<const SelfDictionary>(data.X, K, c.lambda, 1e-5), "merit");
        configure(*single);
        BOOST_TEST_REQUIRE(single->solve() == FACTO_ITERATION_LIMIT);
        const Matrix expected = single->iterate();
        const std::vector<int64_t> selected = single->output("selected").ints;
        for (const int64_t P : {1, 2, 3, 4}) {
            Matrix gathered(expected.shape(), -1.0);
            std::vector<double> objectives(static_cast<std::size_t>(P)), gaps(static_cast<std::size_t>(P));
            std::vector<std::vector<int64_t>> selections(static_cast<std::size_t>(P));
            run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> collectives) {  // no assertion on a thread
                const int64_t first = block_start(N, P, p), count = block_start(N, P, p + 1) - first;
                const Matrix block = xt::view(data.X, xt::all(), xt::range(first, first + count));
                auto solver = make_solver(SelfDictionary::distributed(block, N, first, K, c.lambda, 1e-5, collectives),
                                          "merit");
                configure(*solver);
                solver->solve();
                xt::view(gathered, xt::all(), xt::range(first, first + count)) = solver->iterate();
                objectives[static_cast<std::size_t>(p)] = solver->progress().objective;
                gaps[static_cast<std::size_t>(p)] = solver->progress().stationarity;
                selections[static_cast<std::size_t>(p)] = solver->output("selected").ints;
            });
            BOOST_TEST_CONTEXT(c.variant << ", lambda " << c.lambda << ", P = " << P)
            {
                BOOST_TEST(relative_difference(gathered, expected) <= 1e-12);
                for (std::size_t p = 0; p < objectives.size(); ++p) {
                    BOOST_TEST(std::fabs(objectives[p] - single->progress().objective) <=
                               1e-12 * single->progress().objective);
                    BOOST_TEST(std::fabs(gaps[p] - single->progress().stationarity) <=
                               1e-10 * single->progress().stationarity);
                    BOOST_TEST(selections[p] == selected, boost::test_tools::per_element());
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(nomad_and_merit_processes_without_data_take_part)
{
    // 9 points over P = 12 processes: processes 0, 4 and 8 hold none; burer_monteiro's factor and MERIT's
    // C still agree with one process's
    const Matrix points = two_rings(9, 0.5, 0.02, 4).X;
    const SeparableData data = separable_dirichlet(6, 9, 3, 30.0, 2);
    const int64_t n = 9, P = 12;
    const auto configure = [](Solver& solver, bool nomad) {
        solver.mutable_params().set_int("max_iterations", 3);
        if (nomad) solver.mutable_params().set_string("inner_method", "spg");
        if (nomad) solver.mutable_params().set_int("inner_iterations", 10);
    };
    auto nomad = make_solver(Nomad::from_points(points, 2), "burer_monteiro");
    auto merit = make_solver(std::make_shared<const SelfDictionary>(data.X, 3, -1.0, 1e-5), "merit");
    configure(*nomad, true);
    configure(*merit, false);
    nomad->solve();
    merit->solve();
    const std::vector<double> factor = nomad->output("factor").doubles;
    const std::size_t r = static_cast<std::size_t>(nomad->output("factor").spec.cols);
    const Matrix& C = merit->iterate();
    std::vector<double> gathered_factor(factor.size(), -1.0);
    Matrix gathered_C(C.shape(), -1.0);
    std::vector<int64_t> held(static_cast<std::size_t>(P));
    run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
        const int64_t first = block_start(n, P, p), count = block_start(n, P, p + 1) - first;
        held[static_cast<std::size_t>(p)] = count;
        const Matrix block = xt::view(points, xt::range(first, first + count), xt::all());
        auto a = make_solver(std::make_shared<const DistributedNomad>(block, n, first, 2, c), "burer_monteiro");
        configure(*a, true);
        a->solve();
        a->iterate();  // Q's rows gathered once; the second call reads them on every process (also on
        a->iterate();  // one without rows, whose Q block is empty)
        const std::vector<double> mine = a->output("factor").doubles;
        if (mine.size() == static_cast<std::size_t>(count) * r)
            std::copy(mine.begin(), mine.end(), gathered_factor.begin() + first * static_cast<int64_t>(r));
        const Matrix columns = xt::view(data.X, xt::all(), xt::range(first, first + count));
        auto b = make_solver(SelfDictionary::distributed(columns, n, first, 3, -1.0, 1e-5, c), "merit");
        configure(*b, false);
        b->solve();
        xt::view(gathered_C, xt::all(), xt::range(first, first + count)) = b->iterate();
    });
    BOOST_TEST(held[0] == 0);
    BOOST_TEST(held[4] == 0);
    double diff = 0.0;
    for (std::size_t k = 0; k < factor.size(); ++k) diff = std::max(diff, std::fabs(gathered_factor[k] - factor[k]));
    BOOST_TEST(diff <= 1e-12);
    BOOST_TEST(relative_difference(gathered_C, C) <= 1e-12);
}

BOOST_AUTO_TEST_CASE(nomad_and_merit_processes_stop_and_fail_together)
{
    // As for SymNMF: a callback or a stop request on one process stops every process at the same step,
    // and one process's bad data or start fails every process (none is left waiting in a collective).
    const Matrix points = two_rings(12, 0.5, 0.02, 5).X;
    const SeparableData data = separable_dirichlet(8, 24, 3, 30.0, 4);
    const int64_t n = static_cast<int64_t>(points.shape()[0]), N = 24, P = 3;
    const auto nomad_block = [&](int64_t p, std::shared_ptr<const Collectives> c, double poison) {
        const int64_t first = block_start(n, P, p), count = block_start(n, P, p + 1) - first;
        Matrix block = xt::view(points, xt::range(first, first + count), xt::all());
        block(0, 0) += poison;
        return std::make_shared<const DistributedNomad>(block, n, first, 2, std::move(c));
    };
    const auto merit_block = [&](int64_t p, std::shared_ptr<const Collectives> c, double poison, double lambda) {
        const int64_t first = block_start(N, P, p), count = block_start(N, P, p + 1) - first;
        Matrix block = xt::view(data.X, xt::all(), xt::range(first, first + count));
        block(0, 0) += poison;
        return SelfDictionary::distributed(block, N, first, 3, lambda, 1e-5, std::move(c));
    };
    const auto configure = [](Solver& solver) {
        solver.mutable_params().set_double("tolerance", 0.0);
        if (solver.params().has("inner_iterations")) solver.mutable_params().set_int("inner_iterations", 5);
    };
    std::vector<int32_t> reasons(P);
    std::vector<int64_t> iterations(P);
    for (const char* which : {"burer_monteiro", "merit"}) {
        // process 2's callback stops at iteration 2; then a stop requested on process 1 before the solve
        for (const bool by_request : {false, true}) {
            run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
                auto solver = std::string(which) == "merit" ? make_solver(merit_block(p, c, 0.0, -1.0), which)
                                                            : make_solver(nomad_block(p, c, 0.0), which);
                configure(*solver);
                if (!by_request && p == 2) solver->set_callback([](const Progress& progress) { return progress.iteration >= 2; });
                if (by_request && p == 1) solver->request_stop();
                reasons[static_cast<std::size_t>(p)] = solver->solve();
                iterations[static_cast<std::size_t>(p)] = solver->progress().iteration;
            });
            BOOST_TEST_CONTEXT(which << (by_request ? ", a request" : ", a callback"))
            for (int64_t p = 0; p < P; ++p) {
                BOOST_TEST(reasons[static_cast<std::size_t>(p)] ==
                           (by_request ? FACTO_STOPPED_BY_REQUEST : FACTO_STOPPED_BY_CALLBACK));
                BOOST_TEST(iterations[static_cast<std::size_t>(p)] == iterations[0]);
                BOOST_TEST(iterations[static_cast<std::size_t>(p)] == (by_request ? 1 : 2));
            }
        }
    }
    std::vector<facto_status> statuses(P);
    const auto each_status = [&](const std::function<void(int64_t, std::shared_ptr<const Collectives>)>& make) {
        run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
            statuses[static_cast<std::size_t>(p)] = status_of([&] { make(p, std::move(c)); });
        });
        return statuses;
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // a NaN in process 1's points, and in its columns of X
    for (facto_status s : each_status([&](int64_t p, std::shared_ptr<const Collectives> c) { nomad_block(p, c, p == 1 ? nan : 0.0); }))
        BOOST_TEST(s == FACTO_ERROR_NOT_FINITE);
    for (facto_status s : each_status([&](int64_t p, std::shared_ptr<const Collectives> c) { merit_block(p, c, p == 1 ? nan : 0.0, -1.0); }))
        BOOST_TEST(s == FACTO_ERROR_NOT_FINITE);
    // process 2 gives another lambda
    for (facto_status s : each_status([&](int64_t p, std::shared_ptr<const Collectives> c) { merit_block(p, c, 0.0, p == 2 ? 0.1 : 0.2); }))
        BOOST_TEST(s == FACTO_ERROR_DIMENSION);
    // a block starting beyond any N (no overflow in the check)
    for (facto_status s : each_status([&](int64_t p, std::shared_ptr<const Collectives> c) {
             const int64_t first = p == 0 ? std::numeric_limits<int64_t>::max() : block_start(N, P, p);
             const int64_t count = block_start(N, P, p + 1) - block_start(N, P, p);
             SelfDictionary::distributed(xt::view(data.X, xt::all(), xt::range(0, count)), N, first, 3, 0.0, 1e-5, c);
         }))
        BOOST_TEST(s == FACTO_ERROR_DIMENSION);
    // a column of C off the simplex on process 0 alone
    for (facto_status s : each_status([&](int64_t p, std::shared_ptr<const Collectives> c) {
             auto problem = merit_block(p, c, 0.0, 0.0);
             auto solver = make_solver(problem, "merit");
             Matrix C = problem->random_point(1);
             if (p == 0) C(0, 0) += 0.5;
             solver->set_iterate(C);
         }))
        BOOST_TEST(s == FACTO_ERROR_INFEASIBLE);
}

BOOST_AUTO_TEST_CASE(merit_on_blocks_started_from_a_given_c_takes_the_single_process_steps)
{
    // set_iterate on the blocks: each process gives its columns of the same C0 (the processes' random
    // points are the single-process one's columns), and the runs agree as from MERIT's own start
    const SeparableData data = separable_dirichlet(10, 30, 3, 25.0, 6);
    const int64_t N = 30, K = 3, P = 3;
    const auto configure = [](Solver& solver) {
        solver.mutable_params().set_int("max_iterations", 20);
        solver.mutable_params().set_double("tolerance", 0.0);
        solver.mutable_params().set_double("objective_tolerance", 0.0);
    };
    auto problem = std::make_shared<const SelfDictionary>(data.X, K, 0.0, 1e-5);
    auto single = make_solver(problem, "merit");
    configure(*single);
    const Matrix C0 = problem->random_point(7);
    single->set_iterate(C0);
    single->solve();
    const Matrix expected = single->iterate();
    Matrix gathered(expected.shape(), -1.0), starts(C0.shape(), -1.0);
    std::vector<double> objectives(P);
    run_processes(P, [&](int64_t p, std::shared_ptr<const Collectives> c) {
        const int64_t first = block_start(N, P, p), count = block_start(N, P, p + 1) - first;
        auto mine = SelfDictionary::distributed(xt::view(data.X, xt::all(), xt::range(first, first + count)), N, first,
                                                K, 0.0, 1e-5, c);
        auto solver = make_solver(mine, "merit");
        configure(*solver);
        const Matrix C = mine->random_point(7);
        xt::view(starts, xt::all(), xt::range(first, first + count)) = C;
        solver->set_iterate(C);
        solver->solve();
        xt::view(gathered, xt::all(), xt::range(first, first + count)) = solver->iterate();
        objectives[static_cast<std::size_t>(p)] = solver->progress().objective;
    });
    BOOST_TEST(relative_difference(starts, C0) == 0.0);
    BOOST_TEST(relative_difference(gathered, expected) <= 1e-12);
    for (double f : objectives) BOOST_TEST(std::fabs(f - single->progress().objective) <= 1e-12 * single->progress().objective);
}

BOOST_AUTO_TEST_SUITE_END()
