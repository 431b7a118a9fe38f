// The readers' way into a file: plain or gzip-compressed (the shared data sets ship as .gz), or, for a
// saved model's files, a regular file read whole without following a symbolic link.
#pragma once

#include <istream>
#include <memory>
#include <streambuf>
#include <string>

namespace facto {

// `path` opened for reading. A gzip file (recognized by its contents, not its name) is decompressed
// whole into memory first, checked against the memory available as it grows, so every reader sees
// plain bytes and can seek. Error(IO) when the file cannot be opened or its compressed data are corrupt.
std::unique_ptr<std::istream> open_input(const std::string& path);

// The bytes of `path`, which must be a regular file reached without a symbolic link in its last
// component: Error(IO) naming it for a link, a directory, a FIFO, a device or a file that cannot be
// read (a FIFO is refused, not waited on), OUT_OF_MEMORY when its size exceeds the memory available.
// No decompression: the bytes as they are on disk.
std::string read_regular_file(const std::string& path);

// A seekable input stream over bytes it holds in memory (no copy is made of them).
class BytesInput : public std::istream {
public:
    explicit BytesInput(std::string bytes);
    BytesInput(const BytesInput&) = delete;  // the buffer points into bytes_
    BytesInput& operator=(const BytesInput&) = delete;

private:
    class Buffer : public std::streambuf {
    public:
        explicit Buffer(std::string& bytes);

    protected:
        pos_type seekoff(off_type offset, std::ios_base::seekdir from, std::ios_base::openmode which) override;
        pos_type seekpos(pos_type position, std::ios_base::openmode which) override;
    };
    std::string bytes_;
    Buffer buffer_;
};

}  // namespace facto
