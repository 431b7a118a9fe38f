#include <charconv>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "data/input_file.hpp"
#include "base/error.hpp"

namespace facto {

namespace {

// Splits a line on ',' or else ';' if it contains one, otherwise on runs of blanks (spaces, tabs), and parses
// each field; returns false at the first field that is not a number (`bad_field`, 1-based).
bool parse_line(const std::string& line, std::vector<double>& fields, std::size_t& bad_field)
{
    fields.clear();
    char separator = 0;  // 0: fields separated by runs of blanks
    for (char c : {',', ';'})
        if (line.find(c) != std::string::npos) {
            separator = c;
            break;
        }
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    const auto ends_field = [&](char c) { return separator ? c == separator : blank(c); };
    const char* p = line.data();
    const char* end = p + line.size();
    while (p < end) {
        while (p < end && blank(*p)) ++p;
        if (!separator && p == end) break;
        const char* start = p;
        while (p < end && !ends_field(*p)) ++p;
        const char* stop = p;
        while (stop > start && blank(stop[-1])) --stop;
        double value = 0.0;
        const char* first = start + (start < stop && *start == '+');
        const auto [ptr, ec] = std::from_chars(first, stop, value);
        if (start == stop || ec != std::errc() || ptr != stop) {
            bad_field = fields.size() + 1;
            return false;
        }
        fields.push_back(value);
        if (separator && p < end) ++p;
    }
    return true;
}

}  // namespace

Matrix read_csv(const std::string& path)
{
    const std::unique_ptr<std::istream> file = open_input(path);
    std::istream& in = *file;
    require(in.good(), FACTO_ERROR_IO, "cannot open '" + path + "' for reading");
    std::vector<double> values, fields;
    std::string line;
    std::size_t cols = 0, rows = 0, line_number = 0;
    while (std::getline(in, line)) {
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        std::size_t bad_field = 0;
        if (!parse_line(line, fields, bad_field)) {
            if (rows == 0 && line_number == 1) continue;  // header
            throw Error(FACTO_ERROR_PARSE, "'" + path + "' line " + std::to_string(line_number) + ", field " +
                                               std::to_string(bad_field) + ": not a number");
        }
        if (rows == 0) cols = fields.size();
        require(fields.size() == cols, FACTO_ERROR_PARSE,
                "'" + path + "' line " + std::to_string(line_number) + " has " + std::to_string(fields.size()) +
                    " fields, the first row has " + std::to_string(cols));
        values.insert(values.end(), fields.begin(), fields.end());
        ++rows;
    }
    require(!in.bad(), FACTO_ERROR_IO, "error while reading '" + path + "'");
    require(rows > 0, FACTO_ERROR_PARSE, "'" + path + "' holds no numeric rows");
    Matrix X({rows, cols});
    std::copy(values.begin(), values.end(), X.begin());
    return X;
}

void write_csv(const std::string& path, const Matrix& X)
{
    std::FILE* f = std::fopen(path.c_str(), "w");
    require(f != nullptr, FACTO_ERROR_IO, "cannot open '" + path + "' for writing");
    bool ok = true;
    for (std::size_t i = 0; i < X.shape()[0] && ok; ++i)
        for (std::size_t j = 0; j < X.shape()[1] && ok; ++j)
            ok = std::fprintf(f, j + 1 < X.shape()[1] ? "%.17g," : "%.17g\n", X(i, j)) > 0;
    ok = std::fclose(f) == 0 && ok;
    require(ok, FACTO_ERROR_IO, "error while writing '" + path + "'");
}

}  // namespace facto
