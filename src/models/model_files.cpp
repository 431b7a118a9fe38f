// A model on disk: a directory of one .npy per array and model.json naming the format, the kind, the
// arrays and the caller's settings (docs/architecture.md, "Saved models").
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "models/model.hpp"

namespace facto {

namespace {
constexpr const char* kFormat = "facto model";
constexpr int kFormatVersion = 1;

// The top-level members of model.json: strings, numbers (as text), arrays of strings and objects
// (their raw text). Enough JSON for the file save_model writes and for hand edits of it.
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
    // Any value, as its raw text (a string's without quotes).
    std::string value()
    {
        skip();
        if (next_is('"')) return string();
        const std::size_t start = at;
        if (next_is('{') || next_is('[')) {
            int depth = 0;
            bool quoted = false;
            for (; at < text.size(); ++at) {
                const char c = text[at];
                if (quoted) {
                    if (c == '\\') ++at;
                    else if (c == '"') quoted = false;
                } else if (c == '"') {
                    quoted = true;
                } else if (c == '{' || c == '[') {
                    ++depth;
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    ++at;
                    return text.substr(start, at - start);
                }
            }
            fail("unbalanced brackets");
        }
        while (at < text.size() && text[at] != ',' && text[at] != '}' && !std::isspace(static_cast<unsigned char>(text[at]))) ++at;
        if (at == start) fail("expected a value");
        return text.substr(start, at - start);
    }
    std::vector<std::string> strings(const std::string& raw) const
    {
        std::string copy = raw;
        JsonReader inner{copy, path};
        std::vector<std::string> out;
        inner.expect('[');
        while (!inner.next_is(']')) {
            out.push_back(inner.string());
            if (!inner.next_is(']')) inner.expect(',');
        }
        return out;
    }
};

std::string quoted(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    return out + "\"";
}

void require_object(const std::string& settings)
{
    const std::size_t first = settings.find_first_not_of(" \t\r\n"), last = settings.find_last_not_of(" \t\r\n");
    require(first != std::string::npos && settings[first] == '{' && settings[last] == '}', FACTO_ERROR_INVALID_ARGUMENT,
            "the settings must be a JSON object ({...}), got '" + settings.substr(0, 40) + "'");
}
}  // namespace

void save_model(const Model& model, const std::string& directory, const std::string& settings)
{
    require_object(settings);
    require(!model.arrays.empty(), FACTO_ERROR_BAD_STATE, "the " + model.kind + " model has no arrays to save");
    namespace fs = std::filesystem;
    std::error_code error;
    fs::create_directories(directory, error);
    require(fs::is_directory(directory), FACTO_ERROR_IO,
            "cannot make the directory '" + directory + "'" + (error ? ": " + error.message() : std::string()));
    std::string names;
    for (const auto& [name, values] : model.arrays) {
        write_npy((fs::path(directory) / (name + ".npy")).string(), values);
        names += (names.empty() ? "" : ", ") + quoted(name);
    }
    const std::string path = (fs::path(directory) / "model.json").string();
    std::ofstream out(path);
    require(out.good(), FACTO_ERROR_IO, "cannot open '" + path + "' for writing");
    out << "{\n  \"format\": " << quoted(kFormat) << ",\n  \"format_version\": " << kFormatVersion
        << ",\n  \"facto_version\": \"" << FACTO_VERSION_MAJOR << '.' << FACTO_VERSION_MINOR << '.' << FACTO_VERSION_PATCH
        << "\",\n  \"kind\": " << quoted(model.kind) << ",\n  \"arrays\": [" << names << "],\n  \"settings\": " << settings
        << "\n}\n";
    out.close();
    require(!out.fail(), FACTO_ERROR_IO, "error while writing '" + path + "'");
}

Model load_model(const std::string& directory)
{
    namespace fs = std::filesystem;
    const std::string path = (fs::path(directory) / "model.json").string();
    std::ifstream in(path);
    require(in.good(), FACTO_ERROR_IO, "cannot open '" + path + "': is '" + directory + "' a saved model's directory?");
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    JsonReader json{text, path};
    std::string format, version, kind, arrays, settings = "{}";
    json.expect('{');
    while (!json.next_is('}')) {
        const std::string key = json.string();
        json.expect(':');
        const std::string value = json.value();
        if (key == "format") format = value;
        else if (key == "format_version") version = value;
        else if (key == "kind") kind = value;
        else if (key == "arrays") arrays = value;
        else if (key == "settings") settings = value;
        if (!json.next_is('}')) json.expect(',');
    }
    require(format == kFormat, FACTO_ERROR_PARSE, "'" + path + "' is not a facto model (format '" + format + "')");
    require(version == std::to_string(kFormatVersion), FACTO_ERROR_UNSUPPORTED,
            "'" + path + "' has format_version " + version + "; this facto reads " + std::to_string(kFormatVersion));
    require(!arrays.empty(), FACTO_ERROR_PARSE, "'" + path + "' lists no arrays");
    Model model = empty_model(kind);
    for (const std::string& name : json.strings(arrays))
        set_array(model, name, read_npy((fs::path(directory) / (name + ".npy")).string()));
    model.settings = settings;
    return model;
}

}  // namespace facto
