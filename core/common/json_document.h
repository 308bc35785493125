#pragma once
// The one front door for JSON documents users hand to Tandem (models, hardware, search spaces,
// projects, PHAZE instances, Hugging Face configs), so every reader refuses the same things
// with the same messages, and a hostile file cannot crash a reader:
// - an empty file: "<source>: the file is empty; expected <expected>";
// - invalid JSON: "<source>: invalid JSON at line L, column C: <reason>";
// - nesting deeper than kMaxJsonDepth arrays/objects (no Tandem format needs more than about 8;
//   a 100,000-level document would otherwise overflow the stack of any recursive reader);
// - a number that no double holds (1e999) or a duplicate key within one object (a silent
//   "last one wins" would hide a typo): both named with their place in the document.
// jsonShown() prints at most a short excerpt of a value and never recurses without bound, so
// error messages stay short whatever the value is. checkJsonKeys() refuses unknown keys and
// lists the valid ones.
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>

#include "core/common/expected.h"

namespace tandem::core {

inline constexpr int kMaxJsonDepth = 64;

// Parses `text`; errors start with "<sourceName>: ". `expected` says what the document should
// be ("a tandem-hardware JSON object") for the empty-file message.
Expected<nlohmann::json> parseJsonDocument(std::string_view text, std::string_view sourceName,
                                           std::string_view expected);

// The compact JSON text of `value`, cut at `maxChars` characters (never inside a UTF-8
// sequence, "..." marking the cut); only as much of the value is visited as is shown.
std::string jsonExcerpt(const nlohmann::json& value, std::size_t maxChars = 40);

// The JSON text of `value` for output (indent < 0: compact). Strings Tandem did not check, such
// as an ONNX node name or a file name, may hold invalid UTF-8: each invalid byte becomes U+FFFD,
// so writing a document never fails on a user's bytes.
std::string jsonText(const nlohmann::json& value, int indent = -1);
std::string jsonText(const nlohmann::ordered_json& value, int indent = -1);

// "<type> <excerpt>", e.g. "number 42", "string \"abc\"", "array [1,2,3]".
std::string jsonShown(const nlohmann::json& value);

// "a, b, c".
std::string jsonKeyList(std::span<const char* const> keys);

// Refuses keys of `object` that are not in `keys`: "<where>unknown key "x"; valid keys are ...".
Status checkJsonKeys(const nlohmann::json& object, std::span<const char* const> keys,
                     const std::string& where);

}  // namespace tandem::core
