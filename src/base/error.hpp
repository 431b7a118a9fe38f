// The one exception type of the core. Every failure carries a facto_status (facto.h) and a message
// that names the offending argument; the C ABI turns it into a return code and a stored message.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "facto/facto.h"

namespace facto {

class Error : public std::runtime_error {
public:
    Error(facto_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
    facto_status status() const noexcept { return status_; }

private:
    facto_status status_;
};

// The status's name as facto.h spells it ("FACTO_CONVERGED"), "unknown status" for any other value.
inline const char* status_name(int32_t status)
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

// Throws Error(status, message) when `condition` is false. The message is built before the test:
// inside loops over matrix entries, test first and build the message only on failure.
inline void require(bool condition, facto_status status, const std::string& message)
{
    if (!condition) throw Error(status, message);
}

// A value for an error message, in the shortest of %g's forms ("0.5", "1e+300", "nan", "-inf").
inline std::string value_text(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

}  // namespace facto
