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
