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

const char* facto_status_string(facto_status status) { return facto::status_name(status); }

}  // extern "C"
