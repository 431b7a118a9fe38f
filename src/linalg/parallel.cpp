#include "linalg/parallel.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

namespace facto {

namespace {

// Waits up to kSpin for ready() to hold, checking it between CPU pauses; true if it did. Waking a
// sleeping thread costs ~25 us on this VM (a parallel_for with two sleeps: ~50 us), as much as a pass
// over a MERIT iterate at N = 1000, whose iteration runs three parallel_for back to back.
constexpr std::chrono::microseconds kSpin{100};

template <class Ready>
bool spin_until(const Ready& ready)
{
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (unsigned i = 1;; ++i) {
        if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (i % 64 == 0 && std::chrono::steady_clock::now() > until) return false;
    }
}

// The helper threads of one calling thread. run() hands part p of a job to helper p (the caller
// runs part 0) and returns when every helper is done. Between jobs, helpers spin for kSpin and then
// sleep on a condition variable; the caller waits for them the same way.
class Workers {
public:
    explicit Workers(std::size_t helpers)
    {
        for (std::size_t id = 1; id <= helpers; ++id) threads_.emplace_back([this, id] { serve(id); });
    }
    ~Workers()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (auto& t : threads_) t.join();
    }
    Workers(const Workers&) = delete;
    Workers& operator=(const Workers&) = delete;

    std::size_t helpers() const { return threads_.size(); }

    // part(p) for p in [0, parts), parts <= helpers() + 1; part must not throw.
    void run(std::size_t parts, const std::function<void(std::size_t)>& part)
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &part;
            parts_ = parts;
            pending_.store(threads_.size(), std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
        }
        wake_.notify_all();
        part(0);
        if (spin_until([this] { return pending_.load(std::memory_order_acquire) == 0; })) return;
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
    }

private:
    void serve(std::size_t id)
    {
        uint64_t seen = 0;
        for (;;) {
            const auto posted = [&] { return generation_.load(std::memory_order_acquire) != seen; };
            if (!spin_until(posted)) {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || posted(); });
                if (stop_) return;
            }
            std::size_t parts;
            const std::function<void(std::size_t)>* job;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                if (stop_) return;
                seen = generation_.load(std::memory_order_relaxed);
                parts = parts_;
                job = job_;
            }
            if (id < parts) (*job)(id);
            if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                std::lock_guard<std::mutex> lock(mutex_);  // a caller that went to sleep is woken
                done_.notify_one();
            }
        }
    }

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(std::size_t)>* job_ = nullptr;  // job_, parts_ and stop_ are guarded by mutex_
    std::size_t parts_ = 0;
    bool stop_ = false;
    std::atomic<uint64_t> generation_{0};
    std::atomic<std::size_t> pending_{0};
};

thread_local std::unique_ptr<Workers> workers;  // this thread's helpers, created on demand
thread_local pid_t workers_pid = 0;             // the process that started them
thread_local bool in_parallel = false;          // inside a parallel_for: nested ones run serially

Workers& workers_for(std::size_t helpers)
{
    if (workers && workers_pid != getpid()) {
        // Forked: the helpers exist only in the parent. Their handles cannot be joined here, so the
        // object is abandoned (a few hundred bytes in the child) instead of destroyed.
        static_cast<void>(workers.release());
    }
    if (!workers || workers->helpers() < helpers) {
        workers.reset();
        workers = std::make_unique<Workers>(helpers);
        workers_pid = getpid();
    }
    return *workers;
}

}  // namespace

std::size_t resolve_threads(long long threads)
{
    if (threads > 0) return static_cast<std::size_t>(threads);
    return std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

void parallel_for(std::size_t count, std::size_t grain, std::size_t threads,
                  const std::function<void(std::size_t, std::size_t)>& body)
{
    const std::size_t parts = std::max<std::size_t>(1, std::min(threads, count / std::max<std::size_t>(grain, 1)));
    if (parts == 1 || in_parallel) return body(0, count);
    std::vector<std::exception_ptr> errors(parts);
    const std::function<void(std::size_t)> part = [&](std::size_t p) {
        in_parallel = true;
        try {
            body(count * p / parts, count * (p + 1) / parts);
        } catch (...) {
            errors[p] = std::current_exception();
        }
        in_parallel = false;
    };
    workers_for(parts - 1).run(parts, part);
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace facto
