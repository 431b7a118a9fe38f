// The readers check a header's sizes against the bytes that follow it before allocating anything.
#pragma once

#include <cstddef>
#include <istream>

namespace facto {

// Bytes from the current position of `in` to the end of the file (0 when the stream has failed or is
// at its end); the position is kept.
inline std::size_t bytes_left(std::istream& in)
{
    if (!in.good()) return 0;
    const std::streampos here = in.tellg();
    in.seekg(0, std::ios::end);
    const std::streamoff left = in.tellg() - here;
    in.seekg(here);
    return left > 0 ? static_cast<std::size_t>(left) : 0;
}

}  // namespace facto
