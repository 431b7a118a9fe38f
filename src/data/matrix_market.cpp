// Matrix Market reader (the NIST exchange format: a "%%MatrixMarket matrix <format> <field> <symmetry>"
// banner, '%' comments, a size line, then entries).
#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "data/bytes_left.hpp"
#include "data/data.hpp"
#include "data/input_file.hpp"
#include "base/error.hpp"
#include "linalg/matrix.hpp"

namespace facto {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace

CsrMatrix read_matrix_market(const std::string& path)
{
    const std::unique_ptr<std::istream> file = open_input(path);
    std::istream& in = *file;
    require(static_cast<bool>(in), FACTO_ERROR_IO, "cannot open '" + path + "'");
    std::string line;
    std::getline(in, line);
    std::istringstream banner(line);
    std::string tag, object, format, field, symmetry;
    banner >> tag >> object >> format >> field >> symmetry;
    require(tag == "%%MatrixMarket" && lower(object) == "matrix", FACTO_ERROR_PARSE,
            path + ": line 1 is not a '%%MatrixMarket matrix' banner");
    format = lower(format), field = lower(field), symmetry = lower(symmetry);
    require(format == "coordinate" || format == "array", FACTO_ERROR_UNSUPPORTED, path + ": format '" + format + "'");
    require(field == "real" || field == "integer" || field == "double" || (field == "pattern" && format == "coordinate"),
            FACTO_ERROR_UNSUPPORTED, path + ": field '" + field + "' (real, integer or pattern only)");
    require(symmetry == "general" || symmetry == "symmetric", FACTO_ERROR_UNSUPPORTED,
            path + ": symmetry '" + symmetry + "' (general or symmetric only)");
    int64_t line_number = 1;
    while (std::getline(in, line)) {
        ++line_number;
        if (!line.empty() && line[0] != '%' && line.find_first_not_of(" \t\r") != std::string::npos) break;
    }
    std::istringstream size_line(line);
    int64_t rows = -1, cols = -1, entries = -1;
    size_line >> rows >> cols;
    if (format == "coordinate") size_line >> entries;
    require(!size_line.fail() && (size_line >> std::ws).eof() && rows >= 0 && cols >= 0 &&
                (format == "array" || entries >= 0),
            FACTO_ERROR_PARSE,
            path + ": line " + std::to_string(line_number) + ": bad size line (want " +
                (format == "array" ? "rows cols" : "rows cols entries") + ", nonnegative integers only)");
    // every entry but the last takes two characters at least ("1\n"): a size line declaring more than
    // the rest of the file holds is refused before anything is allocated (and rows * cols cannot overflow)
    const double declared = format == "array" ? static_cast<double>(rows) * static_cast<double>(cols)
                                              : static_cast<double>(entries);
    const std::size_t room = (bytes_left(in) + 1) / 2;
    require(declared <= static_cast<double>(room), FACTO_ERROR_PARSE,
            path + ": line " + std::to_string(line_number) + ": the size line declares " + value_text(declared) +
                " entries, but the rest of the file holds " + std::to_string(room) + " at most");
    entries = static_cast<int64_t>(declared);
    const std::size_t stored = static_cast<std::size_t>(entries) * (symmetry == "symmetric" ? 2 : 1);
    require_memory(24.0 * static_cast<double>(stored), path + ": " + std::to_string(entries) + " entries");
    std::vector<int64_t> row, col;
    std::vector<double> value;
    row.reserve(stored);
    col.reserve(stored);
    value.reserve(stored);
    for (int64_t k = 0; k < entries; ++k) {
        int64_t i = 0, j = 0;
        double v = 1.0;
        bool ok = true;
        if (format == "coordinate") {
            ok = static_cast<bool>(in >> i >> j);
            if (ok && field != "pattern") ok = static_cast<bool>(in >> v);
        } else {
            ok = static_cast<bool>(in >> v);
            i = k % rows + 1;  // column-major
            j = k / rows + 1;
        }
        require(ok, FACTO_ERROR_PARSE, path + ": entry " + std::to_string(k + 1) + " of " + std::to_string(entries) +
                                           " is missing or not numeric");
        require(i >= 1 && i <= rows && j >= 1 && j <= cols, FACTO_ERROR_PARSE,
                path + ": entry " + std::to_string(k + 1) + " has index (" + std::to_string(i) + ", " +
                    std::to_string(j) + ") outside " + std::to_string(rows) + " x " + std::to_string(cols));
        row.push_back(i - 1);
        col.push_back(j - 1);
        value.push_back(v);
        if (symmetry == "symmetric" && i != j) {
            row.push_back(j - 1);
            col.push_back(i - 1);
            value.push_back(v);
        }
    }
    return csr_from_triplets(rows, cols, row.data(), col.data(), value.data(), static_cast<int64_t>(value.size()));
}

}  // namespace facto
