// facto_collectives_*: the host's collective operations (MPI's or another's) behind facto::Collectives.
#include "../handles.hpp"

#include <string>

using facto::capi::guarded;
using facto::capi::require_pointer;

namespace {

class HostCollectives final : public facto::Collectives {
public:
    HostCollectives(int64_t rank, int64_t size, facto_sum_fn sum, facto_max_fn max, facto_allgather_fn allgather,
                    facto_exchange_fn exchange, void* user_data, facto_destroy destroy)
        : rank_(rank), size_(size), sum_(sum), max_(max), allgather_(allgather), exchange_(exchange),
          user_data_(user_data), destroy_(destroy)
    {
    }
    ~HostCollectives() override
    {
        if (destroy_) destroy_(user_data_);
    }
    HostCollectives(const HostCollectives&) = delete;
    HostCollectives& operator=(const HostCollectives&) = delete;

    int64_t rank() const override { return rank_; }
    int64_t size() const override { return size_; }
    void sum(double* values, std::size_t count) const override
    {
        run("sum", [&] { return sum_(user_data_, values, static_cast<int64_t>(count)); });
    }
    void max(int64_t* values, std::size_t count) const override
    {
        run("max", [&] { return max_(user_data_, values, static_cast<int64_t>(count)); });
    }
    void allgather(const double* mine, double* all, const std::vector<int64_t>& counts) const override
    {
        run("allgather",
            [&] { return allgather_(user_data_, mine, all, counts.data(), static_cast<int64_t>(counts.size())); });
    }
    void exchange(const double* send, const std::vector<int64_t>& send_counts, double* receive,
                  const std::vector<int64_t>& receive_counts) const override
    {
        run("exchange", [&] {
            return exchange_(user_data_, send, send_counts.data(), receive, receive_counts.data(),
                             static_cast<int64_t>(send_counts.size()));
        });
    }

private:
    // Calls the host's operation; a nonzero return is FACTO_ERROR_IO, with the message the operation
    // gave to facto_set_last_error (the thread's message is cleared before the call).
    template <class Operation>
    static void run(const char* what, const Operation& operation)
    {
        std::string& message = facto::capi::thread_error();
        message.clear();
        const int32_t status = operation();
        if (status == 0) return;
        throw facto::Error(FACTO_ERROR_IO, std::string("the collective operation '") + what +
                                               "' failed (the host returned " + std::to_string(status) + ")" +
                                               (message.empty() ? "" : ": " + message));
    }

    int64_t rank_, size_;
    facto_sum_fn sum_;
    facto_max_fn max_;
    facto_allgather_fn allgather_;
    facto_exchange_fn exchange_;
    void* user_data_;
    facto_destroy destroy_;
};

}  // namespace

facto_status facto_collectives_new(int64_t rank, int64_t size, facto_sum_fn sum, facto_max_fn max,
                                   facto_allgather_fn allgather, facto_exchange_fn exchange, void* user_data,
                                   facto_destroy destroy, facto_collectives** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(reinterpret_cast<const void*>(sum), "sum");
        require_pointer(reinterpret_cast<const void*>(max), "max");
        require_pointer(reinterpret_cast<const void*>(allgather), "allgather");
        require_pointer(reinterpret_cast<const void*>(exchange), "exchange");
        facto::require(size >= 1 && rank >= 0 && rank < size, FACTO_ERROR_INVALID_ARGUMENT,
                       "rank must satisfy 0 <= rank < size, got rank " + std::to_string(rank) + " of " +
                           std::to_string(size));
        auto handle = std::make_unique<facto_collectives>();
        handle->collectives = std::make_shared<HostCollectives>(rank, size, sum, max, allgather, exchange, user_data, destroy);
        *out = handle.release();
        return FACTO_OK;
    });
}

void facto_collectives_free(facto_collectives* collectives) { delete collectives; }

facto_status facto_set_last_error(facto_status status, const char* message)
{
    try {
        facto::capi::thread_error() = message ? message : "";
    } catch (const std::bad_alloc&) {
        facto::capi::thread_error().clear();  // too long to copy: no message rather than a stale one
    }
    return status;
}
