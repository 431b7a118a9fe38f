// A model on disk: a directory of one .npy per array and model.json naming the format, the kind, the
// arrays and the caller's settings (docs/architecture.md, "Saved models: untrusted input"). Everything read
// is untrusted: names are the kind's own or refused, files are regular files opened without following a
// link, and the model is checked whole (check_model) before it is returned.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "data/input_file.hpp"
#include "models/model.hpp"

namespace facto {

namespace {
constexpr const char* kFormat = "facto model";
constexpr int kFormatVersion = 1;

// JSON read for model.json's members: each value follows RFC 8259's grammar (objects and arrays to a depth
// of 64; inside a string a backslash takes the next character as it is) and is returned as its raw text, a
// string's without its quotes and backslashes.
struct JsonReader {
    const std::string& text;
    const std::string& path;
    std::size_t at = 0;

    [[noreturn]] void fail(const std::string& what) const
    {
        throw Error(FACTO_ERROR_PARSE, "'" + path + "': " + what + " at byte " + std::to_string(at));
    }
    void skip()
    {
        while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    }
    void expect(char c)
    {
        skip();
        if (at >= text.size() || text[at] != c) fail(std::string("expected '") + c + "'");
        ++at;
    }
    bool next_is(char c)
    {
        skip();
        return at < text.size() && text[at] == c;
    }
    std::string string()
    {
        expect('"');
        std::string out;
        while (at < text.size() && text[at] != '"') {
            if (text[at] == '\\' && at + 1 < text.size()) ++at;
            out.push_back(text[at++]);
        }
        if (at >= text.size()) fail("unterminated string");
        ++at;
        return out;
    }
    // Moves past one value: a string, an object, an array, a number, true, false or null.
    void skip_value(int depth)
    {
        skip();
        if (depth > 64) fail("values nested more than 64 deep");
        if (next_is('"')) {
            string();
        } else if (next_is('{') || next_is('[')) {
            const char close = text[at++] == '{' ? '}' : ']';
            for (bool first = true; !next_is(close); first = false) {
                if (!first) expect(',');
                if (close == '}') {
                    string();
                    expect(':');
                }
                skip_value(depth + 1);
            }
            ++at;
        } else {
            const std::size_t start = at;
            while (at < text.size() && text[at] != '\0' && std::strchr("0123456789+-.eEtruefalsn", text[at])) ++at;
            const std::string word = text.substr(start, at - start);
            if (!number(word) && word != "true" && word != "false" && word != "null") fail("expected a value");
        }
    }
    // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, matched by hand (strtod would follow the locale)
    static bool number(const std::string& w)
    {
        std::size_t i = 0;
        const auto digits = [&] {
            const std::size_t first = i;
            while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
            return i > first;
        };
        const auto next = [&](const char* set) { return i < w.size() && std::strchr(set, w[i]) && ++i; };
        next("-");
        if (!next("0") && !digits()) return false;
        if (next(".") && !digits()) return false;
        if (next("eE")) {
            next("+-");
            if (!digits()) return false;
        }
        return i == w.size();
    }
    // One value's raw text (a string's without quotes).
    std::string value()
    {
        skip();
        if (next_is('"')) return string();
        const std::size_t start = at;
        skip_value(0);
        return text.substr(start, at - start);
    }
    std::vector<std::string> strings(const std::string& raw) const
    {
        JsonReader inner{raw, path};
        std::vector<std::string> out;
        inner.expect('[');
        while (!inner.next_is(']')) {
            if (!out.empty()) inner.expect(',');
            out.push_back(inner.string());
        }
        return out;
    }
};

// The members of model.json that facto reads (others are kept out of the way, for later formats).
struct ModelFile {
    std::string format, version, kind, settings = "{}";
    std::vector<std::string> arrays;
};

ModelFile parse_model_file(const std::string& text, const std::string& path)
{
    JsonReader json{text, path};
    ModelFile file;
    json.expect('{');
    while (!json.next_is('}')) {
        const std::string key = json.string();
        json.expect(':');
        const std::string value = json.value();
        if (key == "format") file.format = value;
        else if (key == "format_version") file.version = value;
        else if (key == "kind") file.kind = value;
        else if (key == "arrays") file.arrays = json.strings(value);
        else if (key == "settings") file.settings = value;
        if (!json.next_is('}')) json.expect(',');
    }
    ++json.at;
    json.skip();
    if (json.at != text.size()) json.fail("text after the JSON object");
    return file;
}

// Settings are one JSON object: an object's text and nothing after it (else they could add members to
// model.json, "arrays" among them).
void require_object(const std::string& settings)
{
    const std::string name = "settings",
                      what = "the settings must be a JSON object ({...}), got '" + settings.substr(0, 40) + "'";
    try {
        JsonReader json{settings, name};
        json.skip();
        require(json.next_is('{'), FACTO_ERROR_INVALID_ARGUMENT, what);
        json.value();
        json.skip();
        require(json.at == settings.size(), FACTO_ERROR_INVALID_ARGUMENT, what + " (text after the object)");
    } catch (const Error& e) {
        throw Error(FACTO_ERROR_INVALID_ARGUMENT, e.status() == FACTO_ERROR_INVALID_ARGUMENT ? e.what() : what);
    }
}

std::string in_directory(const std::string& directory, const std::string& file)
{
    return (std::filesystem::path(directory) / file).string();
}

bool exists_here(const std::string& path)  // a link counts, whatever it points to
{
    std::error_code error;
    return std::filesystem::exists(std::filesystem::symlink_status(path, error));
}

// The files of the facto model saved in `directory` before (model.json and its arrays, by the names its
// kind has: a name from the file can never reach out of the directory), none without a model.json;
// Error(IO) for a model.json that is not a facto model's, which saving must not replace.
std::set<std::string> previous_model_files(const std::string& directory)
{
    const std::string path = in_directory(directory, "model.json");
    if (!exists_here(path)) return {};
    ModelFile file;
    try {
        file = parse_model_file(read_regular_file(path), path);
        require(file.format == kFormat, FACTO_ERROR_PARSE, "its format is '" + file.format + "'");
    } catch (const Error& e) {
        throw Error(FACTO_ERROR_IO, "'" + path + "' is there and is not a facto model's (" + e.what() +
                                        "): facto does not replace it; save to another directory or remove it");
    }
    std::set<std::string> own = {"model.json"};
    const std::vector<std::string> names = array_names(file.kind);
    for (const std::string& name : file.arrays)
        if (std::find(names.begin(), names.end(), name) != names.end()) own.insert(name + ".npy");
    return own;
}

// The message of a failed system call, from the errno it left.
std::string system_error(const std::string& what, int error) { return what + ": " + std::strerror(error); }

// A new file in `directory`, created exclusively under a temporary name (so never through a link, nor over
// another file), with the permissions of the regular file it will replace (`replaces`, when there is one),
// given its contents by write(file) and closed; returns its path. Error(IO).
template <class Write>
std::string write_temporary(const std::string& directory, const std::string& name, const std::string& replaces,
                            Write&& write)
{
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0;; ++attempt) {
        const std::string path = in_directory(directory, "." + name + "." + std::to_string(::getpid()) + "." +
                                                             std::to_string(counter++) + ".tmp");
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        const int error = errno;
        if (fd < 0 && error == EEXIST && attempt < 100) continue;
        require(fd >= 0, FACTO_ERROR_IO, system_error("cannot create '" + path + "'", error));
        struct stat previous {};
        if (::lstat(replaces.c_str(), &previous) == 0 && S_ISREG(previous.st_mode)) ::fchmod(fd, previous.st_mode & 07777);
        std::FILE* file = ::fdopen(fd, "wb");
        if (!file) ::close(fd);
        try {
            require(file != nullptr, FACTO_ERROR_IO, "cannot write '" + path + "'");
            write(file);
            const bool closed = std::fclose(file) == 0;
            file = nullptr;
            require(closed, FACTO_ERROR_IO, "error while writing '" + path + "'");
        } catch (...) {
            if (file) std::fclose(file);
            ::unlink(path.c_str());
            throw;
        }
        return path;
    }
}

// The written file `temporary` put at `path`: over the previous model's file (`replace`: renamed over it, a
// link there replaced rather than followed), or at a new name, where it never replaces a file made there
// since the check (a hard link, which fails on an existing name; a rename where the file system has none).
void put_in_place(const std::string& temporary, const std::string& path, bool replace)
{
    if (!replace) {
        if (::link(temporary.c_str(), path.c_str()) == 0) {
            ::unlink(temporary.c_str());
            return;
        }
        const int error = errno;
        require(error == EPERM || error == ENOTSUP || error == EOPNOTSUPP || error == EXDEV, FACTO_ERROR_IO,
                system_error("cannot write '" + path + "'", error));
        require(!exists_here(path), FACTO_ERROR_IO,
                "'" + path + "' appeared while the model was saved: facto does not replace it");
    }
    const int renamed = std::rename(temporary.c_str(), path.c_str()), error = errno;
    require(renamed == 0, FACTO_ERROR_IO, system_error("cannot replace '" + path + "'", error));
}
}  // namespace

void save_model(const Model& model, const std::string& directory, const std::string& settings)
{
    require_object(settings);
    check_model(model);
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    require(std::filesystem::is_directory(directory, error), FACTO_ERROR_IO,
            "cannot make the directory '" + directory + "'" + (error ? ": " + error.message() : std::string()));
    // what is saved, and what it may replace: nothing but the previous model's own files
    std::vector<std::string> files;
    std::string names;
    for (const auto& entry : model.arrays) {
        files.push_back(entry.first + ".npy");
        names += (names.empty() ? "" : ", ") + models::quoted(entry.first);
    }
    files.push_back("model.json");
    const std::set<std::string> own = previous_model_files(directory);
    for (const std::string& file : files)
        require(!exists_here(in_directory(directory, file)) || own.count(file), FACTO_ERROR_IO,
                "'" + in_directory(directory, file) +
                    "' is there and is not a file of the facto model saved there: facto does not replace it; save to "
                    "another directory or remove it");
    // every file written new; then the previous model.json removed, so that until the new one is in place
    // the directory holds no model rather than a mix of two; the files put in place, model.json last
    std::vector<std::string> written;
    try {
        for (const auto& array : model.arrays) {
            const std::string path = in_directory(directory, array.first + ".npy");
            written.push_back(write_temporary(directory, array.first + ".npy", path,
                                              [&](std::FILE* file) { write_npy(file, array.second, path); }));
        }
        std::ostringstream json;
        json << "{\n  \"format\": " << models::quoted(kFormat) << ",\n  \"format_version\": " << kFormatVersion
             << ",\n  \"facto_version\": \"" << FACTO_VERSION_MAJOR << '.' << FACTO_VERSION_MINOR << '.' << FACTO_VERSION_PATCH
             << "\",\n  \"kind\": " << models::quoted(model.kind) << ",\n  \"arrays\": [" << names << "],\n  \"settings\": " << settings
             << "\n}\n";
        const std::string text = json.str(), path = in_directory(directory, "model.json");
        written.push_back(write_temporary(directory, "model.json", path, [&](std::FILE* file) {
            require(std::fwrite(text.data(), 1, text.size(), file) == text.size(), FACTO_ERROR_IO,
                    "error while writing '" + path + "'");
        }));
        const int removed = own.empty() ? 0 : ::unlink(path.c_str()), removal = errno;
        require(removed == 0 || removal == ENOENT, FACTO_ERROR_IO, system_error("cannot replace '" + path + "'", removal));
        for (std::size_t f = 0; f < files.size(); ++f) {
            put_in_place(written[f], in_directory(directory, files[f]), own.count(files[f]) > 0);
            written[f].clear();
        }
    } catch (...) {
        for (const std::string& path : written)
            if (!path.empty()) ::unlink(path.c_str());
        throw;
    }
    for (const std::string& file : own)  // the previous model's arrays that this one has not
        if (std::find(files.begin(), files.end(), file) == files.end()) ::unlink(in_directory(directory, file).c_str());
}

Model load_model(const std::string& directory)
{
    const std::string path = in_directory(directory, "model.json");
    std::string text;
    try {
        text = read_regular_file(path);
    } catch (const Error& e) {
        throw Error(e.status(), std::string(e.what()) + " (is '" + directory + "' a saved model's directory?)");
    }
    const ModelFile file = parse_model_file(text, path);
    require(file.format == kFormat, FACTO_ERROR_PARSE, "'" + path + "' is not a facto model (format '" + file.format + "')");
    require(file.version == std::to_string(kFormatVersion), FACTO_ERROR_UNSUPPORTED,
            "'" + path + "' has format_version " + file.version + "; this facto reads " + std::to_string(kFormatVersion));
    require(!file.arrays.empty(), FACTO_ERROR_PARSE, "'" + path + "' lists no arrays");
    try {
        require_object(file.settings);
    } catch (const Error& e) {
        throw Error(FACTO_ERROR_PARSE, "'" + path + "': " + e.what());
    }
    // the kind's rules, each name checked against the kind's before a file is opened (none can name a path),
    // the arrays read, then the whole model checked
    const auto in_model = [&](const Error& e) { return Error(e.status(), "the model in '" + directory + "': " + e.what()); };
    Model model;
    try {
        model = empty_model(file.kind);
        for (const std::string& name : file.arrays) require_array_name(model.kind, name);
    } catch (const Error& e) {
        throw in_model(e);
    }
    for (const std::string& name : file.arrays) {
        require(!model.has(name), FACTO_ERROR_PARSE, "'" + path + "' lists the array '" + name + "' twice");
        const std::string array = in_directory(directory, name + ".npy");
        BytesInput bytes(read_regular_file(array));
        Matrix values = read_npy(bytes, array);
        try {
            set_array(model, name, std::move(values));
        } catch (const Error& e) {
            throw Error(e.status(), "'" + array + "': " + e.what());
        }
    }
    try {
        check_model(model);
    } catch (const Error& e) {
        throw in_model(e);
    }
    model.settings = file.settings;
    return model;
}

}  // namespace facto
