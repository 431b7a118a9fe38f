// facto's own parallel loops (BLAS calls use OpenBLAS's threads, set by OPENBLAS_NUM_THREADS).
#pragma once

#include <cstddef>
#include <functional>

namespace facto {

// Threads to use for `threads` = 0 (all hardware threads) or a positive request.
std::size_t resolve_threads(long long threads);

// Calls body(begin, end) on disjoint contiguous ranges covering [0, count), on up to `threads`
// threads (the caller's included), none shorter than `grain`. Each index is handled by exactly one
// call, so results do not depend on the thread count when body's work per index does not.
void parallel_for(std::size_t count, std::size_t grain, std::size_t threads,
                  const std::function<void(std::size_t, std::size_t)>& body);

}  // namespace facto
