// Version, status names and the thread-local error message.
#include "../handles.hpp"

namespace facto::capi {
std::string& thread_error()
{
    thread_local std::string message;
    return message;
}
}  // namespace facto::capi

#define FACTO_STRINGIFY2(x) #x
#define FACTO_STRINGIFY(x) FACTO_STRINGIFY2(x)

extern "C" {

int32_t facto_version_number(void) { return FACTO_VERSION_NUMBER; }

const char* facto_version(void)
{
    return FACTO_STRINGIFY(FACTO_VERSION_MAJOR) "." FACTO_STRINGIFY(FACTO_VERSION_MINOR) "." FACTO_STRINGIFY(
        FACTO_VERSION_PATCH);
}

const char* facto_last_error(void) { return facto::capi::thread_error().c_str(); }

const char* facto_status_string(facto_status status)
{
    switch (status) {
    case FACTO_OK: return "FACTO_OK";
    case FACTO_CONVERGED: return "FACTO_CONVERGED";
    case FACTO_ITERATION_LIMIT: return "FACTO_ITERATION_LIMIT";
    case FACTO_TIME_LIMIT: return "FACTO_TIME_LIMIT";
    case FACTO_STOPPED_BY_CALLBACK: return "FACTO_STOPPED_BY_CALLBACK";
    case FACTO_STOPPED_BY_REQUEST: return "FACTO_STOPPED_BY_REQUEST";
    case FACTO_STALLED: return "FACTO_STALLED";
    case FACTO_ERROR_INVALID_ARGUMENT: return "FACTO_ERROR_INVALID_ARGUMENT";
    case FACTO_ERROR_NULL_POINTER: return "FACTO_ERROR_NULL_POINTER";
    case FACTO_ERROR_NOT_FINITE: return "FACTO_ERROR_NOT_FINITE";
    case FACTO_ERROR_DIMENSION: return "FACTO_ERROR_DIMENSION";
    case FACTO_ERROR_NOT_SYMMETRIC: return "FACTO_ERROR_NOT_SYMMETRIC";
    case FACTO_ERROR_UNKNOWN_PARAMETER: return "FACTO_ERROR_UNKNOWN_PARAMETER";
    case FACTO_ERROR_PARAMETER_TYPE: return "FACTO_ERROR_PARAMETER_TYPE";
    case FACTO_ERROR_OUT_OF_RANGE: return "FACTO_ERROR_OUT_OF_RANGE";
    case FACTO_ERROR_BUFFER_TOO_SMALL: return "FACTO_ERROR_BUFFER_TOO_SMALL";
    case FACTO_ERROR_UNSUPPORTED: return "FACTO_ERROR_UNSUPPORTED";
    case FACTO_ERROR_BAD_STATE: return "FACTO_ERROR_BAD_STATE";
    case FACTO_ERROR_OUT_OF_MEMORY: return "FACTO_ERROR_OUT_OF_MEMORY";
    case FACTO_ERROR_IO: return "FACTO_ERROR_IO";
    case FACTO_ERROR_PARSE: return "FACTO_ERROR_PARSE";
    case FACTO_ERROR_NUMERICAL: return "FACTO_ERROR_NUMERICAL";
    case FACTO_ERROR_INFEASIBLE: return "FACTO_ERROR_INFEASIBLE";
    case FACTO_ERROR_INTERNAL: return "FACTO_ERROR_INTERNAL";
    default: return "unknown status";
    }
}

}  // extern "C"
