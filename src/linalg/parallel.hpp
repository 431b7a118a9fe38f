// facto's own parallel loops (BLAS calls use OpenBLAS's threads, set by OPENBLAS_NUM_THREADS).
//
// The helper threads belong to the thread that calls: each calling thread gets its own workers on
// first use, keeps them between calls (starting threads per call cost ~25 us, as much as a pass over
// an n x r iterate) and joins them when it exits. Distinct solvers on distinct threads therefore never
// share or wait for each other's workers; a parallel_for inside a parallel_for runs serially; a
// process forked while workers exist starts fresh workers in the child.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <vector>

namespace facto {

// Threads to use for `threads` = 0 (all hardware threads) or a positive request.
std::size_t resolve_threads(long long threads);

// Calls body(begin, end) on disjoint contiguous ranges covering [0, count), on up to `threads`
// threads (the caller's included), none shorter than `grain`. Each index is handled by exactly one
// call, so results do not depend on the thread count when body's work per index does not.
void parallel_for(std::size_t count, std::size_t grain, std::size_t threads,
                  const std::function<void(std::size_t, std::size_t)>& body);

// Passes over an n x r iterate sum over chunks of kPassChunk entries, each in kPassLanes independent
// lanes: for_lanes calls f(i, lane) for i in [begin, end); with the lanes' sums added at the end, the
// compiler can vectorize a reduction that it must otherwise keep in order, one add after another. A
// thread takes at least kPassGrain entries: below that, waking a helper costs more than it saves
// (docs/benchmarks.md, "Kernels").
constexpr std::size_t kPassChunk = 8192, kPassLanes = 8, kPassGrain = 4 * kPassChunk;

template <class F>
inline void for_lanes(std::size_t begin, std::size_t end, F&& f)
{
    std::size_t i = begin;
    for (; i + kPassLanes <= end; i += kPassLanes)
        for (std::size_t lane = 0; lane < kPassLanes; ++lane) f(i + lane, lane);
    for (; i < end; ++i) f(i, 0);
}

// The lanes' sums added, in lane order.
inline double lanes_sum(const double (&lanes)[kPassLanes])
{
    double sum = 0.0;
    for (double v : lanes) sum += v;
    return sum;
}

// The grain of a loop whose index carries `entries` values of work: a thread takes at least ~64k
// values, below which waking one costs more than it saves.
inline std::size_t grain_for(std::size_t entries)
{
    return std::max<std::size_t>(1, (std::size_t{1} << 16) / std::max<std::size_t>(entries, 1));
}

// Reductions that do not depend on the thread count: [0, count) is cut into fixed chunks of `chunk`
// indices, body(begin, end, sums) adds one chunk's terms into N zeroed sums, and the chunks' sums are
// added in chunk order. A thread takes at least `grain` indices.
template <std::size_t N, class Body>
std::array<double, N> parallel_sums(std::size_t count, std::size_t chunk, std::size_t grain, std::size_t threads,
                                    const Body& body)
{
    const std::size_t chunks = (count + chunk - 1) / chunk;
    std::vector<std::array<double, N>> partial(chunks, std::array<double, N>{});
    parallel_for(chunks, (grain + chunk - 1) / chunk, threads, [&](std::size_t first, std::size_t last) {
        for (std::size_t c = first; c < last; ++c)
            body(c * chunk, std::min(count, (c + 1) * chunk), partial[c]);
    });
    std::array<double, N> total{};
    for (const auto& p : partial)
        for (std::size_t k = 0; k < N; ++k) total[k] += p[k];
    return total;
}

}  // namespace facto
