#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "data/bytes_left.hpp"
#include "data/data.hpp"
#include "data/input_file.hpp"
#include "base/error.hpp"

namespace facto {

namespace {

// Value of `key` in the header dict, e.g. "'descr': '<f8'" -> "'<f8'" (up to the next ',' or '}'
// outside parentheses).
std::string header_field(const std::string& header, const std::string& key, const std::string& path)
{
    const std::size_t at = header.find("'" + key + "'");
    require(at != std::string::npos, FACTO_ERROR_PARSE, "'" + path + "': npy header has no '" + key + "'");
    std::size_t p = header.find(':', at) + 1;
    while (p < header.size() && header[p] == ' ') ++p;
    std::size_t q = p;
    int depth = 0;
    while (q < header.size() && !(depth == 0 && (header[q] == ',' || header[q] == '}'))) {
        if (header[q] == '(') ++depth;
        if (header[q] == ')') --depth;
        ++q;
    }
    return header.substr(p, q - p);
}

// A shape tuple as numpy writes it: "(3,)", "(2, 4)" (Python 2's "(2L, 4L)" too); 1-D or 2-D.
std::vector<std::size_t> parse_shape(const std::string& text, const std::string& path)
{
    const auto bad = [&](const std::string& why) {
        return Error(FACTO_ERROR_PARSE, "'" + path + "': npy shape " + text + " " + why);
    };
    if (text.size() < 2 || text.front() != '(' || text.back() != ')') throw bad("is not a tuple");
    std::vector<std::size_t> shape;
    std::size_t p = 1;
    const std::size_t end = text.size() - 1;
    const auto skip_spaces = [&] {
        while (p < end && text[p] == ' ') ++p;
    };
    for (skip_spaces(); p < end; skip_spaces()) {
        const std::size_t start = p;
        while (p < end && text[p] >= '0' && text[p] <= '9') ++p;
        if (p == start) throw bad("has a dimension that is not a nonnegative integer");
        if (p - start > 15) throw bad("has a dimension above 10^15");
        shape.push_back(std::stoull(text.substr(start, p - start)));
        if (p < end && text[p] == 'L') ++p;
        skip_spaces();
        if (p < end && text[p] != ',') throw bad("has a dimension that is not a nonnegative integer");
        ++p;
    }
    require(shape.size() == 1 || shape.size() == 2, FACTO_ERROR_UNSUPPORTED,
            "'" + path + "': only 1-D and 2-D arrays are supported, shape is " + text);
    return shape;
}

// The value of one little-endian T at `bytes`.
template <class T>
double value_at(const char* bytes)
{
    T v;
    std::memcpy(&v, bytes, sizeof(T));
    return static_cast<double>(v);
}

// The dtypes read_npy takes, with their widths and readers.
struct Dtype {
    const char* descr;
    std::size_t width;
    double (*read)(const char*);
};
constexpr Dtype kDtypes[] = {{"'<f8'", 8, value_at<double>}, {"'<f4'", 4, value_at<float>},
                             {"'<i8'", 8, value_at<int64_t>}, {"'<i4'", 4, value_at<int32_t>},
                             {"'|u1'", 1, value_at<uint8_t>}, {"'<u1'", 1, value_at<uint8_t>}};

// Whether T holds v unchanged (NaN passes on to the finiteness check). Beyond float's range the cast
// itself is undefined: checked before it.
template <class T>
bool holds(double v)
{
    if (std::isnan(v) || std::isinf(v)) return true;
    return std::fabs(v) <= static_cast<double>(std::numeric_limits<T>::max()) &&
           static_cast<double>(static_cast<T>(v)) == v;
}

[[noreturn]] void refuse_single(double v, std::size_t i, std::size_t j, const std::string& path)
{
    throw Error(FACTO_ERROR_UNSUPPORTED, "'" + path + "': entry (" + std::to_string(i) + ", " + std::to_string(j) +
                                             ") = " + value_text(v) +
                                             " is not held exactly in single precision: read it in double precision");
}

// read_npy's values in T (double, or float where it holds them: `holds`).
template <class T>
xt::xtensor<T, 2> npy_values(std::istream& in, const std::string& path)
{
    char magic[8];
    in.read(magic, 8);
    require(in.good() && std::memcmp(magic, "\x93NUMPY", 6) == 0, FACTO_ERROR_PARSE, "'" + path + "' is not an .npy file");
    const int major = static_cast<unsigned char>(magic[6]);
    uint32_t header_length = 0;
    unsigned char length_bytes[4] = {0, 0, 0, 0};
    in.read(reinterpret_cast<char*>(length_bytes), major == 1 ? 2 : 4);
    for (int b = (major == 1 ? 1 : 3); b >= 0; --b) header_length = header_length * 256 + length_bytes[b];
    require(in.good() && header_length < (1u << 20), FACTO_ERROR_PARSE, "'" + path + "': bad npy header length");
    std::string header(header_length, '\0');
    in.read(header.data(), header_length);
    require(in.good(), FACTO_ERROR_PARSE, "'" + path + "': truncated npy header");

    const std::string descr = header_field(header, "descr", path);
    const bool fortran = header_field(header, "fortran_order", path).find("True") != std::string::npos;
    const std::vector<std::size_t> shape = parse_shape(header_field(header, "shape", path), path);
    const std::size_t rows = shape[0], cols = shape.size() == 2 ? shape[1] : 1;

    const Dtype* dtype = nullptr;
    for (const Dtype& d : kDtypes)
        if (descr == d.descr) dtype = &d;
    require(dtype != nullptr, FACTO_ERROR_UNSUPPORTED,
            "'" + path + "': dtype " + descr + " is not supported (use little-endian float64/float32/int64/int32 or uint8)");
    // The header's shape must fit in the bytes that follow it (checked without overflow before
    // anything is allocated).
    const std::size_t available = bytes_left(in), width = dtype->width;
    require(cols == 0 || rows <= available / width / cols, FACTO_ERROR_PARSE,
            "'" + path + "': data shorter than the header's shape");
    if (rows == 0 || cols == 0) return xt::xtensor<T, 2>({rows, cols});  // (10^15, 0) is empty: no loop over its rows
    require_memory(static_cast<double>(sizeof(T)) * static_cast<double>(rows) * static_cast<double>(cols),
                   "'" + path + (sizeof(T) == 8 ? "' as doubles" : "' in single precision"));
    xt::xtensor<T, 2> X({rows, cols});
    // read in chunks of 1 MiB, each value put in place as it is converted: memory is X's and a chunk's
    std::vector<char> chunk(std::size_t{1} << 20);
    const std::size_t per_chunk = chunk.size() / width, total = rows * cols;
    for (std::size_t done = 0; done < total;) {
        const std::size_t count = std::min(per_chunk, total - done);
        in.read(chunk.data(), static_cast<std::streamsize>(count * width));
        require(static_cast<std::size_t>(in.gcount()) == count * width, FACTO_ERROR_PARSE,
                "'" + path + "': data shorter than the header's shape");
        for (std::size_t t = 0; t < count; ++t, ++done) {
            const double v = dtype->read(chunk.data() + t * width);
            if (!holds<T>(v)) refuse_single(v, fortran ? done % rows : done / cols, fortran ? done / rows : done % cols, path);
            if (fortran)
                X(done % rows, done / rows) = static_cast<T>(v);
            else
                X.data()[done] = static_cast<T>(v);
        }
    }
    return X;
}

// read_npy's values in T from the file at `path`.
template <class T>
xt::xtensor<T, 2> npy_file(const std::string& path)
{
    const std::unique_ptr<std::istream> file = open_input(path);
    require(file->good(), FACTO_ERROR_IO, "cannot open '" + path + "' for reading");
    return npy_values<T>(*file, path);
}

bool npy_named(const std::string& path) { return path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0; }

}  // namespace

Matrix read_npy(std::istream& in, const std::string& path) { return npy_values<double>(in, path); }

Matrix read_npy(const std::string& path) { return npy_file<double>(path); }

void write_npy(std::FILE* file, const Matrix& X, const std::string& path)
{
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(X.shape()[0]) + ", " +
                         std::to_string(X.shape()[1]) + "), }";
    header.append(63 - (10 + header.size()) % 64, ' ');  // the data start 64-byte aligned, as numpy writes
    header.push_back('\n');
    const auto length = static_cast<uint16_t>(header.size());
    const unsigned char prefix[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<unsigned char>(length & 0xff),
                                      static_cast<unsigned char>(length >> 8)};
    bool ok = std::fwrite(prefix, 1, 10, file) == 10 && std::fwrite(header.data(), 1, header.size(), file) == header.size();
    ok = ok && std::fwrite(X.data(), sizeof(double), X.size(), file) == X.size();  // little-endian hosts only, as read_npy
    require(ok && std::fflush(file) == 0, FACTO_ERROR_IO, "error while writing '" + path + "'");
}

Matrix read_matrix(const std::string& path)
{
    Matrix X = npy_named(path) ? read_npy(path) : read_csv(path);
    require_finite(X, path.c_str());
    return X;
}

SingleMatrix read_matrix_single(const std::string& path)
{
    SingleMatrix X;
    if (npy_named(path)) {
        X = npy_file<float>(path);
    } else {
        const Matrix values = read_csv(path);
        X = SingleMatrix(values.shape());
        for (std::size_t i = 0; i < values.shape()[0]; ++i)
            for (std::size_t j = 0; j < values.shape()[1]; ++j) {
                if (!holds<float>(values(i, j))) refuse_single(values(i, j), i, j, path);
                X(i, j) = static_cast<float>(values(i, j));
            }
    }
    require_finite(rows_of(X), path.c_str());
    return X;
}

}  // namespace facto
