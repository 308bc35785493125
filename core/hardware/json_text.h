#pragma once
// Small helpers every JSON reader of user files shares, so that their messages read alike: a
// value shown as "<type> <text>" cut at 40 characters (never inside a UTF-8 sequence), and the
// check that an object holds only known keys ("unknown key "x"; valid keys are a, b, c").
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>

#include "core/common/expected.h"

namespace tandem::core::hardware {

std::string jsonShown(const nlohmann::json& value);
std::string jsonKeyList(std::span<const char* const> keys);
// `where` prefixes the message (e.g. "project.tandem: run: ").
Status checkJsonKeys(const nlohmann::json& object, std::span<const char* const> keys,
                     const std::string& where);

}  // namespace tandem::core::hardware
