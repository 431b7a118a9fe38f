#include "linalg/parallel.hpp"

#include <unistd.h>

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

namespace facto {

namespace {

// The helper threads of one calling thread. run() hands part p of a job to helper p (the caller
// runs part 0) and returns when every helper is done; helpers sleep on a condition variable between
// jobs (a spin before sleeping measured no faster here, and would take cycles from OpenBLAS's threads).
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
            pending_ = threads_.size();
            ++generation_;
        }
        wake_.notify_all();
        part(0);
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return pending_ == 0; });
    }

private:
    void serve(std::size_t id)
    {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
            if (id < parts_) {
                const std::function<void(std::size_t)>& job = *job_;
                lock.unlock();
                job(id);
                lock.lock();
            }
            if (--pending_ == 0) done_.notify_one();
        }
    }

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(std::size_t)>* job_ = nullptr;  // the fields below are guarded by mutex_
    std::size_t parts_ = 0, pending_ = 0;
    uint64_t generation_ = 0;
    bool stop_ = false;
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
