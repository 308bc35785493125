#include "core/common/json_document.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/common/text_excerpt.h"

namespace tandem::core {

namespace {

using nlohmann::json;

constexpr std::size_t kShownChars = 40;
constexpr std::size_t kShownPathChars = 80;  // a deeper place shows its innermost 80 characters

// "line L, column C" after `position` bytes (as nlohmann counts; columns in bytes).
std::string placeOf(std::string_view text, std::size_t position) {
    std::size_t line = 1, column = 0;
    for (std::size_t i = 0; i < position && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 0;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Cuts `text` to at most `limit` bytes by the one excerpting rule (text_excerpt.h).
std::string cutUtf8(std::string_view text, std::size_t limit) {
    return textExcerpt(text, limit);
}

// Appends a compact rendering of `value` to `out` until `out` is longer than `budget`; each
// nesting level appends a character first, so the recursion is at most `budget` deep.
void appendShown(const json& value, std::string& out, std::size_t budget) {
    if (out.size() > budget) return;
    if (value.is_object() || value.is_array()) {
        const bool object = value.is_object();
        out += object ? '{' : '[';
        bool first = true;
        for (auto it = value.begin(); it != value.end() && out.size() <= budget; ++it) {
            if (!first) out += ',';
            first = false;
            if (object) out += jsonText(json(cutUtf8(it.key(), budget))) + ':';
            appendShown(*it, out, budget);
        }
        if (out.size() <= budget) out += object ? '}' : ']';
    } else if (value.is_string()) {
        out += jsonText(json(cutUtf8(value.get<std::string>(), budget + 4)));
    } else {
        out += value.dump();
    }
}

// A SAX handler that builds the document like nlohmann's own DOM parser, and refuses too deep
// nesting, duplicate keys and numbers out of range with the place where they occur.
class DocumentBuilder {
public:
    explicit DocumentBuilder(std::string_view text) : text_(text) {}

    bool null() { return put(json(nullptr)); }
    bool boolean(bool v) { return put(json(v)); }
    bool number_integer(json::number_integer_t v) { return put(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
    bool number_float(json::number_float_t v, const json::string_t&) { return put(json(v)); }
    bool string(json::string_t& v) { return put(json(std::move(v))); }
    bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }

    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& k) {
        if (stack_.back()->contains(k))
            return fail("duplicate key \"" + cutUtf8(k, kShownChars) + "\" in " + path(false) +
                        " (each key may appear once per object)");
        key_ = std::move(k);
        return true;
    }

    bool parse_error(std::size_t position, const std::string& token, const json::exception& e) {
        if (e.id == 406)  // nlohmann's "number overflow"
            return fail("the number " + cutUtf8(token, 24) + " at " + path() + " (" +
                        placeOf(text_, position) +
                        ") is out of range: a JSON number must fit a double (at most about "
                        "1.8e308)");
        std::string reason = e.what();
        // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep line and column.
        if (const std::size_t close = reason.find("] "); close != std::string::npos)
            reason = reason.substr(close + 2);
        return fail("invalid JSON: " + reason);
    }

    json& root() { return root_; }
    const std::string& error() const { return error_; }

private:
    bool fail(std::string message) {
        error_ = std::move(message);
        return false;
    }

    // The place of the value being read, as "accelerator.numTensorCores" or "layers[3]".
    std::string path(bool withCurrent = true) const {
        std::string out;
        for (const std::string& segment : segments_) out += segment;
        if (withCurrent && !stack_.empty())
            out += stack_.back()->is_array() ? "[" + std::to_string(stack_.back()->size()) + "]"
                                             : "." + cutUtf8(key_, kShownChars);
        if (!out.empty() && out[0] == '.') out.erase(0, 1);
        if (out.size() > kShownPathChars) out = "..." + out.substr(out.size() - kShownPathChars);
        return out.empty() ? "the top level" : out;
    }

    json* place(json value) {
        if (stack_.empty()) {
            root_ = std::move(value);
            return &root_;
        }
        json& parent = *stack_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        json& slot = parent[key_];
        slot = std::move(value);
        return &slot;
    }

    bool put(json value) {
        place(std::move(value));
        return true;
    }

    // Pointers into the document stay valid: a container on the stack only grows after all its
    // open children are closed.
    bool open(json container) {
        if (stack_.size() >= std::size_t(kMaxJsonDepth))
            return fail("nested deeper than " + std::to_string(kMaxJsonDepth) +
                        " levels of arrays and objects at " + path());
        std::string segment;
        if (!stack_.empty())
            segment = stack_.back()->is_array() ? "[" + std::to_string(stack_.back()->size()) + "]"
                                                : "." + cutUtf8(key_, kShownChars);
        stack_.push_back(place(std::move(container)));
        segments_.push_back(std::move(segment));
        return true;
    }

    bool close() {
        stack_.pop_back();
        segments_.pop_back();
        return true;
    }

    std::string_view text_;
    json root_;
    std::vector<json*> stack_;           // open containers, outermost first
    std::vector<std::string> segments_;  // each open container's place in its parent
    std::string key_;                    // the last key read in the innermost object
    std::string error_;
};

}  // namespace

std::string jsonText(const json& value, int indent) {
    return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string jsonText(const nlohmann::ordered_json& value, int indent) {
    return value.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

Expected<nlohmann::json> parseJsonDocument(std::string_view text, std::string_view sourceName,
                                           std::string_view expected) {
    const std::string prefix = std::string(sourceName) + ": ";
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return Error{prefix + "the file is empty; expected " + std::string(expected)};
    DocumentBuilder builder(text);
    bool ok = false;
    try {
        ok = json::sax_parse(text, &builder);
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        return Error{prefix + "invalid JSON: " + cutUtf8(e.what(), 200)};
    }
    if (!ok) return Error{prefix + builder.error()};
    return std::move(builder.root());
}

std::string jsonExcerpt(const nlohmann::json& value, std::size_t maxChars) {
    maxChars = std::max<std::size_t>(maxChars, 8);
    std::string text;
    appendShown(value, text, maxChars);
    return cutUtf8(std::move(text), maxChars);
}

std::string jsonShown(const nlohmann::json& value) {
    return std::string(value.type_name()) + " " + jsonExcerpt(value, kShownChars);
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
            return Error{where + "unknown key \"" + cutUtf8(item.key(), kShownChars) +
                         "\"; valid keys are " + jsonKeyList(keys)};
    }
    return Status::success();
}

}  // namespace tandem::core
