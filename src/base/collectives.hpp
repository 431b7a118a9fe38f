// The collective operations of a problem whose data is distributed over processes, each holding a
// block of it: sums and maxima that every process receives, an all-gather and an all-to-all. The core has
// no MPI dependency: the C ABI passes a host's collectives (facto_collectives, e.g. MPI's) through this
// interface. Every process calls the same collectives in the same order, so every decision a solver
// takes from their results is the same on every process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "base/error.hpp"

namespace facto {

class Collectives {
public:
    virtual ~Collectives() = default;
    // This process's index, 0 <= rank < size, and the number of processes.
    virtual int64_t rank() const = 0;
    virtual int64_t size() const = 0;
    // values[k] = the sum over the processes of their values[k], k < count, the same to the last bit on
    // every process (the solvers' decisions rest on it).
    virtual void sum(double* values, std::size_t count) const = 0;
    // values[k] = the largest of the processes' values[k], k < count.
    virtual void max(int64_t* values, std::size_t count) const = 0;
    // The largest of the processes' value.
    int64_t max(int64_t value) const
    {
        max(&value, 1);
        return value;
    }
    // all = the processes' blocks in rank order; process p gives counts[p] values (mine: this one's).
    virtual void allgather(const double* mine, double* all, const std::vector<int64_t>& counts) const = 0;
    // All-to-all: this process sends send_counts[q] values to process q (the blocks of `send` in rank
    // order) and receives receive_counts[q] values from process q (the blocks of `receive` in rank
    // order); process q's send count to p equals p's receive count from q.
    virtual void exchange(const double* send, const std::vector<int64_t>& send_counts, double* receive,
                          const std::vector<int64_t>& receive_counts) const = 0;
};

// The largest of the processes' values, which are >= 0: the bit patterns of nonnegative doubles order
// as the values do, so the integer maximum of the patterns is exact.
inline void max_of_nonnegative(const Collectives& c, double* values, std::size_t count)
{
    std::vector<int64_t> bits(count);
    if (count > 0) std::memcpy(bits.data(), values, count * sizeof(double));
    c.max(bits.data(), count);
    if (count > 0) std::memcpy(values, bits.data(), count * sizeof(double));
}
inline double max_of_nonnegative(const Collectives& c, double value)
{
    max_of_nonnegative(c, &value, 1);
    return value;
}

// The same on a group that may be absent (nullptr: one process, nothing to combine): the sums, the
// largest of values >= 0, and whether any process says true.
inline void sum_over(const Collectives* c, double* values, std::size_t count)
{
    if (c) c->sum(values, count);
}
inline double largest_over(const Collectives* c, double value) { return c ? max_of_nonnegative(*c, value) : value; }
inline bool any_over(const Collectives* c, bool mine) { return c ? c->max(int64_t{mine}) != 0 : mine; }

// Runs `checks` (which may throw Error) on every process, then throws on every process if it threw on
// any: its own Error where it threw, elsewhere an Error of the same kind saying that another process
// refused its part. Without this, the processes that passed would wait in their next collective for
// the one that failed.
template <class Checks>
void agree_on_errors(const Collectives& c, const Checks& checks)
{
    int64_t failed = 0;  // -status of this process's error
    std::string message;
    try {
        checks();
    } catch (const Error& e) {
        failed = -static_cast<int64_t>(e.status());
        message = e.what();
    } catch (const std::bad_alloc&) {
        failed = -static_cast<int64_t>(FACTO_ERROR_OUT_OF_MEMORY);
        message = "out of memory";
    } catch (const std::exception& e) {
        failed = -static_cast<int64_t>(FACTO_ERROR_INTERNAL);
        message = std::string("internal error: ") + e.what();
    }
    const int64_t worst = c.max(failed);
    if (failed != 0) throw Error(static_cast<facto_status>(-failed), message);
    if (worst != 0)
        throw Error(static_cast<facto_status>(-worst), "another process refused its part of the problem (its error "
                                                       "says why)");
}

// The same on a group that may be absent (nullptr: one process, `checks` run as they are).
template <class Checks>
void agree_on_errors(const Collectives* c, const Checks& checks)
{
    if (c)
        agree_on_errors(*c, checks);
    else
        checks();
}

}  // namespace facto
