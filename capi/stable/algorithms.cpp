// facto_problem_kind_*, facto_algorithm_*, facto_problem_param_*: the registry (src/solvers/registry.cpp),
// which algorithms exist for which problem kind, each kind's default, and each kind's named parameters
// with their defaults, for every front end to read.
#include <string>

#include "../handles.hpp"

#include "solvers/registry.hpp"

using facto::capi::copy_versioned;
using facto::capi::guarded;
using facto::capi::require_pointer;

namespace {

// The algorithms of `kind`; Error(INVALID_ARGUMENT) listing the kinds when it has none.
std::vector<facto::AlgorithmInfo> algorithms_of(const char* kind)
{
    require_pointer(kind, "kind");
    auto algorithms = facto::algorithms_for(kind);
    if (algorithms.empty()) {
        std::string kinds;
        for (const char* k : facto::problem_kinds()) kinds += std::string(kinds.empty() ? "" : ", ") + k;
        throw facto::Error(FACTO_ERROR_INVALID_ARGUMENT,
                           "no problem kind '" + std::string(kind) + "' (kinds: " + kinds + ")");
    }
    return algorithms;
}

// The named parameters of `kind` (after the kind itself is checked).
const std::vector<facto::ParamSpec>& parameters_of(const char* kind)
{
    algorithms_of(kind);
    return facto::problem_parameters(kind);
}

}  // namespace

extern "C" {

int64_t facto_problem_kind_count(void)
{
    try {
        return static_cast<int64_t>(facto::problem_kinds().size());
    } catch (...) {  // out of memory for a vector of ten pointers
        return 0;
    }
}

const char* facto_problem_kind_name(int64_t index)
{
    try {
        const auto kinds = facto::problem_kinds();
        return index >= 0 && index < static_cast<int64_t>(kinds.size()) ? kinds[static_cast<std::size_t>(index)]
                                                                         : nullptr;
    } catch (...) {
        return nullptr;
    }
}

facto_status facto_algorithm_count(const char* kind, int64_t* count)
{
    return guarded(nullptr, [&] {
        require_pointer(count, "count");
        *count = static_cast<int64_t>(algorithms_of(kind).size());
        return FACTO_OK;
    });
}

facto_status facto_algorithm_describe(const char* kind, int64_t index, facto_algorithm_info* info)
{
    return guarded(nullptr, [&] {
        const auto algorithms = algorithms_of(kind);
        facto::require(index >= 0 && index < static_cast<int64_t>(algorithms.size()), FACTO_ERROR_OUT_OF_RANGE,
                       "algorithm index " + std::to_string(index) + " is outside [0, " +
                           std::to_string(algorithms.size()) + ") for kind '" + kind + "'");
        const facto::AlgorithmInfo& a = algorithms[static_cast<std::size_t>(index)];
        copy_versioned(facto_algorithm_info{sizeof(facto_algorithm_info), a.is_default ? 1 : 0, a.name, a.description},
                       info);
        return FACTO_OK;
    });
}

facto_status facto_problem_param_count(const char* kind, int64_t* count)
{
    return guarded(nullptr, [&] {
        require_pointer(count, "count");
        *count = static_cast<int64_t>(parameters_of(kind).size());
        return FACTO_OK;
    });
}

facto_status facto_problem_param_info(const char* kind, int64_t index, facto_param_info* info)
{
    return guarded(nullptr, [&] {
        const auto& specs = parameters_of(kind);
        facto::require(index >= 0 && index < static_cast<int64_t>(specs.size()), FACTO_ERROR_OUT_OF_RANGE,
                       "parameter index " + std::to_string(index) + " is outside [0, " + std::to_string(specs.size()) +
                           ") for kind '" + kind + "'");
        facto::capi::copy_param_info(specs[static_cast<std::size_t>(index)], info);
        return FACTO_OK;
    });
}

}  // extern "C"
