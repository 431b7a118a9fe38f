// Solver settings: a table of typed parameters with defaults, bounds and one-line descriptions
// (OSQP/HiGHS style), kept apart from the solver's state. facto.h exposes the table by name; the
// solvers read typed fields bound to it (HiGHS's option records), never a name inside an iteration.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace facto {

enum class ParamType : int32_t { Double = 1, Int = 2, String = 3 };

struct ParamSpec {
    const char* name;
    ParamType type;
    const char* description;
    double default_double = 0.0, lower_double = 0.0, upper_double = 0.0;
    int64_t default_int = 0, lower_int = 0, upper_int = 0;
    const char* default_string = nullptr;
    const char* choices = nullptr;  // '|'-separated, for String
};

ParamSpec real_param(const char* name, double def, double lower, double upper, const char* description);
ParamSpec int_param(const char* name, int64_t def, int64_t lower, int64_t upper, const char* description);
ParamSpec choice_param(const char* name, const char* def, const char* choices, const char* description);

class Params {
public:
    // Refuses a combination of values by throwing Error (see set_check).
    using Check = std::function<void(const Params&)>;

    explicit Params(std::vector<ParamSpec> specs);
    // Bindings point into this object: it stays where it was built.
    Params(const Params&) = delete;
    Params& operator=(const Params&) = delete;

    const std::vector<ParamSpec>& specs() const { return specs_; }
    bool has(std::string_view name) const;

    // Runs after every set and reset; when it throws, the change is undone and the error passes on.
    void set_check(Check check) { check_ = std::move(check); }

    // Typed settings: `field` holds the parameter's value from now on, updated after every set and
    // reset that passes the check. A Double parameter binds a double, an Int one an int64_t (or a
    // double), a String one an enum with a value for each of its choices.
    void bind(std::string_view name, double& field);
    void bind(std::string_view name, int64_t& field);
    template <class E>
    void bind(std::string_view name, E& field, std::vector<std::pair<std::string_view, E>> values)
    {
        const std::size_t i = index_of(name, ParamType::String, false);
        std::vector<std::string_view> names;
        for (const auto& v : values) names.push_back(v.first);
        require_choices(i, std::move(names));
        bind_loader([this, i, &field, values = std::move(values)] {
            for (const auto& v : values)
                if (v.first == values_[i].s) field = v.second;
        });
    }

    // Setters validate type and bounds (and the check) and throw Error naming the parameter.
    void set_double(std::string_view name, double value);
    void set_int(std::string_view name, int64_t value);  // also accepted by Double parameters
    void set_string(std::string_view name, std::string_view value);
    void reset();
    // Every value of `other`, a table of the same specs (another solver of the same algorithm), checked
    // once as a whole; Error(INTERNAL) when the specs differ.
    void assign(const Params& other);

    double get_double(std::string_view name) const;  // also reads Int parameters
    int64_t get_int(std::string_view name) const;
    const std::string& get_string(std::string_view name) const;

private:
    struct Value {
        double d = 0.0;
        int64_t i = 0;
        std::string s;
    };
    std::size_t index_of(std::string_view name, ParamType wanted, bool allow_int_as_double) const;
    // values_[i] = value, undone when the check throws; then the bound fields are loaded.
    void commit(std::size_t i, Value value);
    // The check on the values now set: on failure values_ = before and the error passes on; then the
    // bound fields are loaded.
    void settle(std::vector<Value> before);
    // Throws Error(INTERNAL) unless `names` are the choices of String parameter i, each once (any order).
    void require_choices(std::size_t i, std::vector<std::string_view> names) const;
    // Adds a loader of a bound field and runs it once.
    void bind_loader(std::function<void()> load);

    std::vector<ParamSpec> specs_;
    std::vector<Value> values_;
    Check check_;
    std::vector<std::function<void()>> loaders_;
};

}  // namespace facto
