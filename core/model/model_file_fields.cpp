#include "core/model/model_file_fields.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/json_document.h"

namespace tandem::core::model::file_fields {

[[noreturn]] void fail(const std::string& path, const std::string& message) {
    throw ReadError{(path.empty() ? "" : path + ": ") + message};
}

std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}
std::string shown(const json& value) {
    return jsonExcerpt(value, 60);
}

void requireObject(const json& value, const std::string& path) {
    if (!value.is_object()) fail(path, "must be a JSON object, found " + shown(value));
}
void requireArray(const json& value, const std::string& path) {
    if (!value.is_array()) fail(path, "must be a JSON array, found " + shown(value));
}

void checkKeys(const json& object, const std::string& path,
               std::initializer_list<std::string_view> allowed) {
    for (const auto& item : object.items()) {
        if (std::find(allowed.begin(), allowed.end(), item.key()) != allowed.end()) continue;
        std::string list;
        for (std::string_view key : allowed) list += (list.empty() ? "" : ", ") + std::string(key);
        fail(join(path, item.key()), "unknown key (allowed here: " + list + ")");
    }
}

const json* find(const json& object, std::string_view key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

std::int64_t toInt(const json& value, const std::string& path, std::int64_t minimum) {
    if (value.is_number_unsigned() &&
        value.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
        fail(path, shown(value) + " does not fit in 64 bits");
    if (!value.is_number_integer()) fail(path, "must be an integer, found " + shown(value));
    const auto number = value.get<std::int64_t>();
    if (number < minimum) {
        fail(path,
             std::to_string(number) + " is out of range; it must be >= " + std::to_string(minimum));
    }
    return number;
}

std::int64_t intField(const json& object, const std::string& path, std::string_view key,
                      std::optional<std::int64_t> fallback, std::int64_t minimum) {
    const json* value = find(object, key);
    if (!value) {
        if (!fallback)
            fail(join(path, key), "is required (an integer >= " + std::to_string(minimum) + ")");
        return *fallback;
    }
    return toInt(*value, join(path, key), minimum);
}

std::string stringField(const json& object, const std::string& path, std::string_view key,
                        std::optional<std::string> fallback) {
    const json* value = find(object, key);
    if (!value) {
        if (!fallback) fail(join(path, key), "is required (a string)");
        return *fallback;
    }
    if (!value->is_string()) fail(join(path, key), "must be a string, found " + shown(*value));
    return value->get<std::string>();
}

std::string nameField(const json& object, const std::string& path) {
    std::string name = stringField(object, path, "name", std::nullopt);
    if (name.empty()) fail(join(path, "name"), "must not be empty");
    return name;
}

bool boolField(const json& object, const std::string& path, std::string_view key, bool fallback) {
    const json* value = find(object, key);
    if (!value) return fallback;
    if (!value->is_boolean()) {
        fail(join(path, key), "must be true or false, found " + shown(*value));
    }
    return value->get<bool>();
}

std::vector<std::int64_t> widthsField(const json& object, const std::string& path,
                                      std::vector<std::int64_t> fallback) {
    const json* value = find(object, "tensor_parallel_widths");
    if (!value) return fallback;
    const std::string at = join(path, "tensor_parallel_widths");
    requireArray(*value, at);
    // In both model forms: leaving the key out means the default widths, an empty list nothing.
    if (value->empty())
        fail(at, "must list at least one width (leave it out for the default widths)");
    std::vector<std::int64_t> widths;
    for (std::size_t i = 0; i < value->size(); ++i)
        widths.push_back(toInt((*value)[i], at + "[" + std::to_string(i) + "]", 1));
    return widths;
}

SizeExpression sizeField(const json& object, const std::string& path, std::string_view key,
                         std::int64_t fallback) {
    const json* value = find(object, key);
    if (!value) return SizeExpression::constant(fallback);
    const std::string at = join(path, key);
    if (value->is_string()) {
        auto expr = SizeExpression::parse(value->get<std::string>());
        if (!expr) fail(at, expr.message());
        return std::move(*expr);
    }
    if (!value->is_number()) {
        fail(at,
             "must be a non-negative integer or an expression string over b, s, t, e; "
             "found " +
                 shown(*value));
    }
    return SizeExpression::constant(toInt(*value, at, 0));
}

CyclesTemplate cyclesField(const json& object, const std::string& path, std::string_view key) {
    const json* value = find(object, key);
    CyclesTemplate cycles;
    if (!value) return cycles;
    if (value->is_string()) {
        cycles.expression = sizeField(object, path, key, 0);
        return cycles;
    }
    if (!value->is_number() || !std::isfinite(value->get<double>()) || value->get<double>() < 0 ||
        value->get<double>() > kMaxCyclesPerElement) {
        fail(join(path, key),
             "must be a number of cycles in [0, 1000000] (or an expression string), found " +
                 shown(*value));
    }
    cycles.number = value->get<double>();
    return cycles;
}

}  // namespace tandem::core::model::file_fields
