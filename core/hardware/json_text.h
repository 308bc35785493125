#pragma once
// Small helpers every JSON reader of user files shares, so that their messages read alike: a
// value shown as "<type> <text>" cut at 40 characters (never inside a UTF-8 sequence), and the
// check that an object holds only known keys ("unknown key "x"; valid keys are a, b, c"), and
// parsing a document with the same messages for an empty file and for invalid JSON.
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>

#include "core/common/expected.h"

namespace tandem::core::hardware {

std::string jsonShown(const nlohmann::json& value);
std::string jsonKeyList(std::span<const char* const> keys);
// `where` prefixes the message (e.g. "project.tandem: run: ").
Status checkJsonKeys(const nlohmann::json& object, std::span<const char* const> keys,
                     const std::string& where);

// "<sourceName>: the file is empty; expected <expected>" or "<sourceName>: invalid JSON: <reason
// with line and column>".
Expected<nlohmann::json> parseJsonText(std::string_view text, std::string_view sourceName,
                                       std::string_view expected);

}  // namespace tandem::core::hardware
