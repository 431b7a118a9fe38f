// facto_solver_*: parameters, iterating, progress, callback and results.
#include <algorithm>
#include <cstddef>
#include <cstring>

#include "../handles.hpp"

#include "solvers/nomad/multilayer_nomad.hpp"
#include "solvers/registry.hpp"

using facto::capi::copy_versioned;
using facto::capi::guarded;
using facto::capi::require_pointer;

namespace {

std::string* sink(const facto_solver* s) { return s ? &s->last_error : nullptr; }

facto_progress to_c(const facto::Progress& p)
{
    return facto_progress{sizeof(facto_progress), p.stop_reason, p.iteration,     p.objective,
                          p.stationarity,      p.step_size,   p.relative_change, p.elapsed_seconds,
                          p.feasibility,       p.tolerance};
}

// The spec of the solver's output `name`; UNKNOWN_PARAMETER listing the outputs when there is none.
facto::OutputSpec spec_of(const facto_solver* s, const char* name)
{
    require_pointer(s, "solver");
    require_pointer(name, "name");
    std::string known;
    for (const facto::OutputSpec& spec : s->solver->output_specs()) {
        if (std::strcmp(spec.name, name) == 0) return spec;
        known += std::string(known.empty() ? "" : ", ") + spec.name;
    }
    throw facto::Error(FACTO_ERROR_UNKNOWN_PARAMETER,
                       std::string("unknown output '") + name + "' (this solver has: " + known + ")");
}

facto::Output output_of(const facto_solver* s, const char* name)
{
    spec_of(s, name);
    return s->solver->output(name);
}

template <class T>
facto_status copy_output(const facto_solver* s, const char* name, T* out, int64_t capacity, int32_t layout,
                         int32_t type)
{
    return guarded(sink(s), [&] {
        const facto::Output o = output_of(s, name);
        facto::require(o.spec.type == type, FACTO_ERROR_PARAMETER_TYPE,
                       std::string("output '") + name + "' has another element type");
        const T* values;
        if constexpr (std::is_same_v<T, double>)
            values = o.doubles.data();
        else
            values = o.ints.data();
        facto::copy_out(values, o.spec.rows, o.spec.cols, out, capacity, layout);
        return FACTO_OK;
    });
}

}  // namespace

extern "C" {

facto_status facto_solver_new(facto_problem* problem, const char* algorithm, facto_solver** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(problem, "problem");
        require_pointer(algorithm, "algorithm");
        auto handle = std::make_unique<facto_solver>();
        handle->solver = facto::make_solver(problem->problem, algorithm);
        *out = handle.release();
        return FACTO_OK;
    });
}

void facto_solver_free(facto_solver* solver) { delete solver; }

facto_status facto_solver_new_nomad_layer(const facto_solver* previous, int64_t K, facto_solver** out)
{
    return guarded(nullptr, [&] {
        require_pointer(out, "out");
        *out = nullptr;
        require_pointer(previous, "previous");
        auto handle = std::make_unique<facto_solver>();
        handle->solver = facto::next_nomad_layer(*previous->solver, K);
        *out = handle.release();
        return FACTO_OK;
    });
}

const char* facto_solver_algorithm(const facto_solver* solver) { return solver ? solver->solver->algorithm() : nullptr; }

const char* facto_solver_last_error(const facto_solver* solver)
{
    return solver ? solver->last_error.c_str() : facto_last_error();
}

facto_status facto_solver_param_count(const facto_solver* s, int64_t* count)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        require_pointer(count, "count");
        *count = static_cast<int64_t>(s->solver->params().specs().size());
        return FACTO_OK;
    });
}

facto_status facto_solver_param_info(const facto_solver* s, int64_t index, facto_param_info* info)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        const auto& specs = s->solver->params().specs();
        facto::require(index >= 0 && index < static_cast<int64_t>(specs.size()), FACTO_ERROR_OUT_OF_RANGE,
                       "parameter index " + std::to_string(index) + " is outside [0, " + std::to_string(specs.size()) + ")");
        facto::capi::copy_param_info(specs[static_cast<std::size_t>(index)], info);
        return FACTO_OK;
    });
}

facto_status facto_solver_set_double(facto_solver* s, const char* name, double value)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        require_pointer(name, "name");
        s->solver->mutable_params().set_double(name, value);
        return FACTO_OK;
    });
}

facto_status facto_solver_set_int(facto_solver* s, const char* name, int64_t value)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        require_pointer(name, "name");
        s->solver->mutable_params().set_int(name, value);
        return FACTO_OK;
    });
}

facto_status facto_solver_set_string(facto_solver* s, const char* name, const char* value)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        require_pointer(name, "name");
        require_pointer(value, "value");
        s->solver->mutable_params().set_string(name, value);
        return FACTO_OK;
    });
}

facto_status facto_solver_get_double(const facto_solver* s, const char* name, double* value)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        require_pointer(name, "name");
        require_pointer(value, "value");
        *value = s->solver->params().get_double(name);
        return FACTO_OK;
    });
}

facto_status facto_solver_get_int(const facto_solver* s, const char* name, int64_t* value)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        require_pointer(name, "name");
        require_pointer(value, "value");
        *value = s->solver->params().get_int(name);
        return FACTO_OK;
    });
}

facto_status facto_solver_get_string(const facto_solver* s, const char* name, const char** value)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        require_pointer(name, "name");
        require_pointer(value, "value");
        *value = s->solver->params().get_string(name).c_str();
        return FACTO_OK;
    });
}

facto_status facto_solver_reset_params(facto_solver* s)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        s->solver->mutable_params().reset();
        return FACTO_OK;
    });
}

facto_status facto_solver_set_iterate(facto_solver* s, const double* X, int64_t rows, int64_t cols, int64_t ld,
                                      int32_t layout)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        facto::Matrix start;
        facto::capi::agreed(s->solver->problem(), [&] { start = facto::copy_in(X, rows, cols, ld, layout, "X"); });
        s->solver->set_iterate(start);
        return FACTO_OK;
    });
}

facto_status facto_solver_step(facto_solver* s)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        return s->solver->step();
    });
}

facto_status facto_solver_solve(facto_solver* s)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        return s->solver->solve();
    });
}

facto_status facto_solver_request_stop(facto_solver* s)
{
    if (!s) {
        facto::capi::thread_error() = "solver is NULL";
        return FACTO_ERROR_NULL_POINTER;
    }
    s->solver->request_stop();  // no message bookkeeping on the handle: this may run on another thread
    return FACTO_OK;
}

facto_status facto_solver_progress(const facto_solver* s, facto_progress* progress)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        copy_versioned(to_c(s->solver->progress()), progress);
        return FACTO_OK;
    });
}

facto_status facto_solver_set_callback(facto_solver* s, facto_callback callback, void* user_data, facto_destroy destroy)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        facto::require(!s->solver->in_callback(), FACTO_ERROR_BAD_STATE,
                       "set_callback is not allowed inside the solver's own callback");
        s->release_user_data();
        s->callback = callback;
        s->user_data = user_data;
        s->destroy = destroy;
        if (!callback) {
            s->solver->set_callback(nullptr);
            return FACTO_OK;
        }
        facto_solver* handle = s;
        s->solver->set_callback([handle](const facto::Progress& p) {
            const facto_progress c = to_c(p);
            return handle->callback(handle, &c, handle->user_data) != 0;
        });
        return FACTO_OK;
    });
}

facto_status facto_solver_iterate_shape(const facto_solver* s, int64_t* rows, int64_t* cols)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        require_pointer(rows, "rows");
        require_pointer(cols, "cols");
        const auto shape = s->solver->problem().iterate_shape();
        *rows = shape[0];
        *cols = shape[1];
        return FACTO_OK;
    });
}

facto_status facto_solver_copy_iterate(const facto_solver* s, double* out, int64_t capacity, int32_t layout)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        const facto::Matrix& X = s->solver->iterate();
        facto::copy_out(X.data(), static_cast<int64_t>(X.shape()[0]), static_cast<int64_t>(X.shape()[1]), out, capacity,
                        layout);
        return FACTO_OK;
    });
}

facto_status facto_solver_output_count(const facto_solver* s, int64_t* count)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        require_pointer(count, "count");
        *count = static_cast<int64_t>(s->solver->output_specs().size());
        return FACTO_OK;
    });
}

facto_status facto_solver_output_name(const facto_solver* s, int64_t index, const char** name)
{
    return guarded(sink(s), [&] {
        require_pointer(s, "solver");
        require_pointer(name, "name");
        const auto specs = s->solver->output_specs();
        facto::require(index >= 0 && index < static_cast<int64_t>(specs.size()), FACTO_ERROR_OUT_OF_RANGE,
                       "output index " + std::to_string(index) + " is outside [0, " + std::to_string(specs.size()) + ")");
        *name = specs[static_cast<std::size_t>(index)].name;
        return FACTO_OK;
    });
}

facto_status facto_solver_output_shape(const facto_solver* s, const char* name, int32_t* type, int64_t* rows,
                                       int64_t* cols)
{
    return guarded(sink(s), [&] {
        require_pointer(type, "type");
        require_pointer(rows, "rows");
        require_pointer(cols, "cols");
        const facto::OutputSpec spec = spec_of(s, name);
        *type = spec.type;
        *rows = spec.rows;
        *cols = spec.cols;
        return FACTO_OK;
    });
}

facto_status facto_solver_copy_output_double(const facto_solver* s, const char* name, double* out, int64_t capacity,
                                             int32_t layout)
{
    return copy_output(s, name, out, capacity, layout, FACTO_OUTPUT_DOUBLE);
}

facto_status facto_solver_copy_output_int64(const facto_solver* s, const char* name, int64_t* out, int64_t capacity,
                                            int32_t layout)
{
    return copy_output(s, name, out, capacity, layout, FACTO_OUTPUT_INT64);
}

}  // extern "C"
