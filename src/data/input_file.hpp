// The readers' way into a file: plain or gzip-compressed (the shared data sets ship as .gz).
#pragma once

#include <istream>
#include <memory>
#include <string>

namespace facto {

// `path` opened for reading. A gzip file (recognized by its contents, not its name) is decompressed
// whole into memory first, checked against the memory available as it grows, so every reader sees
// plain bytes and can seek. Error(IO) when the file cannot be opened or its compressed data are corrupt.
std::unique_ptr<std::istream> open_input(const std::string& path);

}  // namespace facto
