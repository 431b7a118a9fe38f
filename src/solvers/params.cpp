#include "solvers/params.hpp"

#include <algorithm>
#include <cmath>

#include "base/error.hpp"

namespace facto {

ParamSpec real_param(const char* name, double def, double lower, double upper, const char* description)
{
    ParamSpec s{name, ParamType::Double, description};
    s.default_double = def;
    s.lower_double = lower;
    s.upper_double = upper;
    return s;
}

ParamSpec int_param(const char* name, int64_t def, int64_t lower, int64_t upper, const char* description)
{
    ParamSpec s{name, ParamType::Int, description};
    s.default_int = def;
    s.lower_int = lower;
    s.upper_int = upper;
    s.default_double = static_cast<double>(def);
    s.lower_double = static_cast<double>(lower);
    s.upper_double = static_cast<double>(upper);
    return s;
}

ParamSpec choice_param(const char* name, const char* def, const char* choices, const char* description)
{
    ParamSpec s{name, ParamType::String, description};
    s.default_string = def;
    s.choices = choices;
    return s;
}

Params::Params(std::vector<ParamSpec> specs) : specs_(std::move(specs)), values_(specs_.size()) { reset(); }

void Params::reset()
{
    std::vector<Value> before = values_;
    for (std::size_t i = 0; i < specs_.size(); ++i) {
        values_[i].d = specs_[i].default_double;
        values_[i].i = specs_[i].default_int;
        values_[i].s = specs_[i].default_string ? specs_[i].default_string : "";
    }
    settle(std::move(before));
}

void Params::settle(std::vector<Value> before)
{
    try {
        if (check_) check_(*this);
    } catch (...) {
        values_ = std::move(before);
        throw;
    }
    for (const auto& load : loaders_) load();
}

void Params::assign(const Params& other)
{
    require(other.specs_.size() == specs_.size(), FACTO_ERROR_INTERNAL, "assigning parameters of another table");
    for (std::size_t i = 0; i < specs_.size(); ++i)
        require(std::string_view(other.specs_[i].name) == specs_[i].name && other.specs_[i].type == specs_[i].type,
                FACTO_ERROR_INTERNAL, "assigning parameters of another table");
    std::vector<Value> before = values_;
    values_ = other.values_;
    settle(std::move(before));
}

bool Params::has(std::string_view name) const
{
    for (const auto& s : specs_)
        if (name == s.name) return true;
    return false;
}

void Params::commit(std::size_t i, Value value)
{
    std::swap(values_[i], value);
    try {
        if (check_) check_(*this);
    } catch (...) {
        std::swap(values_[i], value);
        throw;
    }
    for (const auto& load : loaders_) load();
}

void Params::bind_loader(std::function<void()> load)
{
    load();
    loaders_.push_back(std::move(load));
}

void Params::bind(std::string_view name, double& field)
{
    const std::size_t i = index_of(name, ParamType::Double, true);
    bind_loader([this, i, &field] { field = values_[i].d; });
}

void Params::bind(std::string_view name, int64_t& field)
{
    const std::size_t i = index_of(name, ParamType::Int, false);
    bind_loader([this, i, &field] { field = values_[i].i; });
}

namespace {
// The choices of a String parameter, in the order of its '|'-separated list.
std::vector<std::string_view> choices_of(const ParamSpec& spec)
{
    const std::string_view list = spec.choices;
    std::vector<std::string_view> choices;
    for (std::size_t start = 0; start <= list.size();) {
        const std::size_t end = std::min(list.find('|', start), list.size());
        choices.push_back(list.substr(start, end - start));
        start = end + 1;
    }
    return choices;
}

const char* type_name(ParamType t)
{
    switch (t) {
    case ParamType::Double: return "double";
    case ParamType::Int: return "int";
    case ParamType::String: return "string";
    }
    return "?";
}

}  // namespace

void Params::require_choices(std::size_t i, std::vector<std::string_view> names) const
{
    std::vector<std::string_view> choices = choices_of(specs_[i]);
    std::sort(choices.begin(), choices.end());
    std::sort(names.begin(), names.end());
    require(names == choices, FACTO_ERROR_INTERNAL,
            std::string("parameter '") + specs_[i].name + "': the bound values are not one per choice");
}

std::size_t Params::index_of(std::string_view name, ParamType wanted, bool allow_int_as_double) const
{
    for (std::size_t i = 0; i < specs_.size(); ++i) {
        if (name != specs_[i].name) continue;
        const ParamType t = specs_[i].type;
        const bool ok = t == wanted || (allow_int_as_double && wanted == ParamType::Double && t == ParamType::Int);
        require(ok, FACTO_ERROR_PARAMETER_TYPE,
                "parameter '" + std::string(name) + "' is of type " + type_name(t) + ", not " + type_name(wanted));
        return i;
    }
    std::string known;
    for (const auto& s : specs_) known += std::string(known.empty() ? "" : ", ") + s.name;
    throw Error(FACTO_ERROR_UNKNOWN_PARAMETER, "unknown parameter '" + std::string(name) + "' (known: " + known + ")");
}

void Params::set_double(std::string_view name, double value)
{
    const std::size_t i = index_of(name, ParamType::Double, false);
    const ParamSpec& s = specs_[i];
    require(value >= s.lower_double && value <= s.upper_double, FACTO_ERROR_OUT_OF_RANGE,
            "parameter '" + std::string(name) + "' = " + value_text(value) + " is outside [" + value_text(s.lower_double) +
                ", " + value_text(s.upper_double) + "]");
    commit(i, Value{value, 0, {}});
}

void Params::set_int(std::string_view name, int64_t value)
{
    for (const auto& s : specs_)
        if (name == s.name && s.type == ParamType::Double) return set_double(name, static_cast<double>(value));
    const std::size_t i = index_of(name, ParamType::Int, false);
    const ParamSpec& s = specs_[i];
    require(value >= s.lower_int && value <= s.upper_int, FACTO_ERROR_OUT_OF_RANGE,
            "parameter '" + std::string(name) + "' = " + std::to_string(value) + " is outside [" +
                std::to_string(s.lower_int) + ", " + std::to_string(s.upper_int) + "]");
    commit(i, Value{static_cast<double>(value), value, {}});
}

void Params::set_string(std::string_view name, std::string_view value)
{
    const std::size_t i = index_of(name, ParamType::String, false);
    const std::vector<std::string_view> choices = choices_of(specs_[i]);
    require(std::find(choices.begin(), choices.end(), value) != choices.end(), FACTO_ERROR_OUT_OF_RANGE,
            "parameter '" + std::string(name) + "' = '" + std::string(value) + "' is not one of " + specs_[i].choices);
    commit(i, Value{0.0, 0, std::string(value)});
}

double Params::get_double(std::string_view name) const { return values_[index_of(name, ParamType::Double, true)].d; }
int64_t Params::get_int(std::string_view name) const { return values_[index_of(name, ParamType::Int, false)].i; }
const std::string& Params::get_string(std::string_view name) const
{
    return values_[index_of(name, ParamType::String, false)].s;
}

}  // namespace facto
