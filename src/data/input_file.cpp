#include "data/input_file.hpp"

#include <zlib.h>

#include <fstream>
#include <sstream>

#include "base/error.hpp"
#include "linalg/matrix.hpp"

namespace facto {

std::unique_ptr<std::istream> open_input(const std::string& path)
{
    gzFile gz = gzopen(path.c_str(), "rb");
    require(gz != nullptr, FACTO_ERROR_IO, "cannot open '" + path + "' for reading");
    if (gzdirect(gz)) {
        gzclose(gz);
        auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
        require(in->good(), FACTO_ERROR_IO, "cannot open '" + path + "' for reading");
        return in;
    }
    std::string text;
    char chunk[1 << 16];
    for (;;) {
        const int got = gzread(gz, chunk, sizeof chunk);
        if (got <= 0) {
            int code = Z_OK;
            const char* message = gzerror(gz, &code);
            const std::string reason = got < 0 || code != Z_OK ? message : "";
            gzclose(gz);
            require(reason.empty(), FACTO_ERROR_IO, "'" + path + "': corrupt gzip data (" + reason + ")");
            break;
        }
        if (text.size() + static_cast<std::size_t>(got) > text.capacity())
            require_memory(2.0 * static_cast<double>(text.size() + static_cast<std::size_t>(got)),
                           "the decompressed contents of '" + path + "'");
        text.append(chunk, static_cast<std::size_t>(got));
    }
    return std::make_unique<std::istringstream>(std::move(text), std::ios::binary);
}

}  // namespace facto
