// The opaque handles of facto.h and the guard that turns every C++ failure into a status code and a
// stored message, so that no exception ever crosses the C boundary.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "base/error.hpp"
#include "facto/facto.h"
#include "facto/facto_experimental.h"
#include "models/model.hpp"
#include "problems/problem.hpp"
#include "solvers/solver.hpp"
#include "linalg/sparse.hpp"

struct facto_problem {
    std::shared_ptr<const facto::Problem> problem;
    mutable std::string last_error;
};

struct facto_solver {
    std::unique_ptr<facto::Solver> solver;
    mutable std::string last_error;
    facto_callback callback = nullptr;
    void* user_data = nullptr;
    facto_destroy destroy = nullptr;

    void release_user_data()
    {
        if (destroy) destroy(user_data);
        callback = nullptr;
        user_data = nullptr;
        destroy = nullptr;
    }
    ~facto_solver() { release_user_data(); }
};

struct facto_model {
    facto::Model model;
    mutable std::string last_error;
    mutable std::string description;  // facto_model_describe's
};

struct facto_matrix {
    facto::Matrix values;
    facto::SingleMatrix single;  // instead of values when read by facto_matrix_read_float (in_single)
    bool in_single = false;
};

struct facto_sparse {
    facto::CsrMatrix values;
};

// The host's collective operations (capi/distributed/collectives.cpp), shared with the problems built on them.
struct facto_collectives {
    std::shared_ptr<const facto::Collectives> collectives;
};

namespace facto::capi {

// The thread-local message of failures without a usable handle.
std::string& thread_error();

// Runs `body` (returning facto_status); exceptions become statuses, their message goes to `sink`
// (a handle's last_error) or, when sink is NULL, to the thread-local message. `sink` is cleared first.
template <class Body>
facto_status guarded(std::string* sink, Body&& body) noexcept
{
    std::string& out = sink ? *sink : thread_error();
    try {
        out.clear();
        return body();
    } catch (const facto::Error& e) {
        out = e.what();
        return e.status();
    } catch (const std::bad_alloc&) {
        out = "out of memory";
        return FACTO_ERROR_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        out = std::string("internal error: ") + e.what();
        return FACTO_ERROR_INTERNAL;
    } catch (...) {
        out = "internal error: unknown exception";
        return FACTO_ERROR_INTERNAL;
    }
}

// Runs `checks` of a call's arguments; on a distributed problem on every process together
// (agree_on_errors), so that an argument refused on one process is refused on all instead of leaving
// the others waiting in the call's first collective.
template <class Checks>
void agreed(const facto::Problem& problem, const Checks& checks)
{
    facto::agree_on_errors(problem.collectives(), checks);
}

// Throws Error(NULL_POINTER) naming `what` when p is NULL.
inline void require_pointer(const void* p, const char* what)
{
    facto::require(p != nullptr, FACTO_ERROR_NULL_POINTER, std::string(what) + " is NULL");
}

// Copies `full` into the caller's versioned struct (facto.h: the caller sets struct_size), as much as
// its struct_size holds; the first two 32-bit fields are the least it may hold.
template <class T>
void copy_versioned(T full, T* out)
{
    require_pointer(out, "struct pointer");
    const std::size_t minimum = offsetof(T, struct_size) + 2 * sizeof(uint32_t);
    facto::require(out->struct_size >= minimum, FACTO_ERROR_INVALID_ARGUMENT,
                   "struct_size " + std::to_string(out->struct_size) + " is too small (set it to sizeof the struct)");
    const std::size_t size = std::min<std::size_t>(out->struct_size, sizeof(T));
    full.struct_size = static_cast<uint32_t>(size);
    std::memcpy(out, &full, size);
}

// One parameter's record (a solver's or a problem kind's) into the caller's facto_param_info.
inline void copy_param_info(const facto::ParamSpec& p, facto_param_info* info)
{
    copy_versioned(facto_param_info{sizeof(facto_param_info), static_cast<int32_t>(p.type), p.name, p.description,
                                    p.default_double, p.lower_double, p.upper_double, p.default_int, p.lower_int,
                                    p.upper_int, p.default_string, p.choices},
                   info);
}

}  // namespace facto::capi
