#include "core/hardware/json_text.h"

#include <nlohmann/json.hpp>

namespace tandem::core::hardware {

std::string jsonShown(const nlohmann::json& value) {
    // dump() throws on invalid UTF-8 (possible in names set through the API); replace it.
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > 40) {
        std::size_t cut = 37;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
        text = text.substr(0, cut) + "...";
    }
    return std::string(value.type_name()) + " " + text;
}

std::string jsonKeyList(std::span<const char* const> keys) {
    std::string list;
    for (const char* key : keys) list += (list.empty() ? "" : ", ") + std::string(key);
    return list;
}

Status checkJsonKeys(const nlohmann::json& object, std::span<const char* const> keys,
                     const std::string& where) {
    for (const auto& item : object.items()) {
        bool known = false;
        for (const char* key : keys) known = known || item.key() == key;
        if (!known)
            return Error{where + "unknown key \"" + item.key() + "\"; valid keys are " +
                         jsonKeyList(keys)};
    }
    return Status::success();
}

Expected<nlohmann::json> parseJsonText(std::string_view text, std::string_view sourceName,
                                       std::string_view expected) {
    const std::string prefix = std::string(sourceName) + ": ";
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return Error{prefix + "the file is empty; expected " + std::string(expected)};
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        std::string reason = e.what();
        // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep line and column.
        if (const std::size_t close = reason.find("] "); close != std::string::npos)
            reason = reason.substr(close + 2);
        return Error{prefix + "invalid JSON: " + reason};
    }
}

}  // namespace tandem::core::hardware
