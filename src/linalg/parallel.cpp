#include "linalg/parallel.hpp"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace facto {

std::size_t resolve_threads(long long threads)
{
    if (threads > 0) return static_cast<std::size_t>(threads);
    return std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

void parallel_for(std::size_t count, std::size_t grain, std::size_t threads,
                  const std::function<void(std::size_t, std::size_t)>& body)
{
    const std::size_t parts = std::max<std::size_t>(1, std::min(threads, count / std::max<std::size_t>(grain, 1)));
    if (parts == 1) return body(0, count);
    std::vector<std::thread> workers;
    std::vector<std::exception_ptr> errors(parts);
    const auto run = [&](std::size_t p) {
        try {
            body(count * p / parts, count * (p + 1) / parts);
        } catch (...) {
            errors[p] = std::current_exception();
        }
    };
    for (std::size_t p = 1; p < parts; ++p) workers.emplace_back(run, p);
    run(0);
    for (auto& w : workers) w.join();
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace facto
