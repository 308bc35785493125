#pragma once
// The field readers behind the native model file reader (model_file_reader.cpp): each reads one
// JSON value at a path and throws ReadError naming that path, the value and what is allowed. The
// reader catches ReadError at its boundary; nothing else sees these functions.
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/graph_template.h"
#include "core/model/size_expression.h"

namespace tandem::core::model::file_fields {

using json = nlohmann::json;

struct ReadError {
    std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& message);
std::string join(const std::string& path, std::string_view key);
std::string shown(const json& value);
void requireObject(const json& value, const std::string& path);
void requireArray(const json& value, const std::string& path);
void checkKeys(const json& object, const std::string& path,
               std::initializer_list<std::string_view> allowed);
const json* find(const json& object, std::string_view key);
std::int64_t toInt(const json& value, const std::string& path, std::int64_t minimum);
std::int64_t intField(const json& object, const std::string& path, std::string_view key,
                      std::optional<std::int64_t> fallback, std::int64_t minimum);
std::string stringField(const json& object, const std::string& path, std::string_view key,
                        std::optional<std::string> fallback);
std::string nameField(const json& object, const std::string& path);
bool boolField(const json& object, const std::string& path, std::string_view key, bool fallback);
std::vector<std::int64_t> widthsField(const json& object, const std::string& path,
                                      std::vector<std::int64_t> fallback);
SizeExpression sizeField(const json& object, const std::string& path, std::string_view key,
                         std::int64_t fallback);
CyclesTemplate cyclesField(const json& object, const std::string& path, std::string_view key);

template <class E>
E enumField(const json& object, const std::string& path, std::string_view key, E fallback,
            bool (*parse)(std::string_view, E&), std::string_view allowed) {
    const json* value = find(object, key);
    if (!value) return fallback;
    E result{};
    if (!value->is_string() || !parse(value->get<std::string>(), result)) {
        fail(join(path, key),
             shown(*value) + " is not allowed (allowed: " + std::string(allowed) + ")");
    }
    return result;
}

}  // namespace tandem::core::model::file_fields
