#include "data/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>

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
    return std::make_unique<BytesInput>(std::move(text));
}

std::string read_regular_file(const std::string& path)
{
    // O_NOFOLLOW: a link is refused by the open itself, so nothing can swap one in after a check;
    // O_NONBLOCK: opening a FIFO returns at once (and is refused below) instead of waiting for a writer
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        const int error = errno;
        throw Error(FACTO_ERROR_IO, "cannot open '" + path + "': " +
                                        (error == ELOOP ? std::string("it is a symbolic link, which facto does not follow here")
                                                        : std::string(std::strerror(error))));
    }
    struct stat info {};
    std::string bytes;
    try {
        const int status = ::fstat(fd, &info), error = errno;
        require(status == 0, FACTO_ERROR_IO, "cannot read '" + path + "': " + std::strerror(error));
        require(S_ISREG(info.st_mode), FACTO_ERROR_IO,
                "'" + path + "' is not a regular file (" +
                    (S_ISDIR(info.st_mode) ? "a directory" : S_ISFIFO(info.st_mode) ? "a FIFO" : "a device or socket") + ")");
        require_memory(static_cast<double>(info.st_size), "reading '" + path + "'");
        bytes.resize(static_cast<std::size_t>(info.st_size));
        std::size_t done = 0;
        while (done < bytes.size()) {  // a file that shrinks while it is read ends early, and is read as short
            const ssize_t got = ::read(fd, &bytes[done], bytes.size() - done);
            const int error = errno;
            if (got < 0 && error == EINTR) continue;
            require(got >= 0, FACTO_ERROR_IO, "error while reading '" + path + "': " + std::strerror(error));
            if (got == 0) break;
            done += static_cast<std::size_t>(got);
        }
        bytes.resize(done);
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
    return bytes;
}

BytesInput::Buffer::Buffer(std::string& bytes)
{
    char* begin = bytes.empty() ? nullptr : &bytes[0];
    setg(begin, begin, begin + bytes.size());
}

BytesInput::Buffer::pos_type BytesInput::Buffer::seekoff(off_type offset, std::ios_base::seekdir from,
                                                         std::ios_base::openmode which)
{
    const off_type size = egptr() - eback();
    const off_type base = from == std::ios_base::beg ? 0 : from == std::ios_base::cur ? gptr() - eback() : size;
    if (!(which & std::ios_base::in) || offset < -base || offset > size - base) return pos_type(off_type(-1));
    setg(eback(), eback() + base + offset, egptr());
    return pos_type(base + offset);
}

BytesInput::Buffer::pos_type BytesInput::Buffer::seekpos(pos_type position, std::ios_base::openmode which)
{
    return seekoff(off_type(position), std::ios_base::beg, which);
}

BytesInput::BytesInput(std::string bytes) : std::istream(nullptr), bytes_(std::move(bytes)), buffer_(bytes_)
{
    rdbuf(&buffer_);
}

}  // namespace facto
