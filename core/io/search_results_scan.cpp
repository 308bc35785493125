#include "core/io/search_results_scan.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "core/common/json_document.h"
#include "core/io/search_results_fields.h"

namespace tandem::core::io::results_json {
namespace {

using nlohmann::json;

// The writer spends about 330 bytes of text per point; reserving for that many points (at most)
// avoids most regrowth of a vector that may hold 700,000 of them.
constexpr std::size_t kBytesPerPoint = 320;

bool isScannedKey(std::string_view key) {
    return std::any_of(std::begin(kScannedKeys), std::end(kScannedKeys),
                       [&](const char* k) { return key == k; });
}

// "line L, column C" after `position` bytes, as nlohmann counts them.
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

// `text` as a JSON string, cut to about 40 characters (keys and formats of hostile files).
std::string asJsonString(std::string_view text) {
    return jsonExcerpt(json(std::string(text.substr(0, 64))), 40);
}

// The SAX handler. Three modes: at the top level and in the points array it reads the structure
// itself; inside a kept member or a point it builds a tree (stack_ non-empty); inside an unknown
// member it only counts depth (skipDepth_ > 0).
class Scanner {
public:
    Scanner(std::string_view text, std::string_view source,
            std::vector<search::EvaluatedPoint>& points, json& members)
        : text_(text), source_(source), points_(points), members_(members) {
        members_ = json::object();
    }

    bool null() { return value(json(nullptr)); }
    bool boolean(bool v) { return value(json(v)); }
    bool number_integer(json::number_integer_t v) { return value(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return value(json(v)); }
    bool number_float(json::number_float_t v, const json::string_t&) { return value(json(v)); }
    bool string(json::string_t& v) { return value(json(std::move(v))); }
    bool binary(json::binary_t&) { return fail("binary values are not JSON"); }
    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(json::string_t& k) {
        if (skipDepth_ > 0) return true;
        if (!stack_.empty()) {
            if (stack_.back()->contains(k))
                return fail("duplicate key " + asJsonString(k) + " in " + containerPlace() +
                            " (each key may appear once per object)");
            key_ = std::move(k);
            return true;
        }
        if (depth_ == 1) {
            if (!seenTopKeys_.insert(k).second)
                return fail("duplicate key " + asJsonString(k) +
                            " at the top level (each key may appear once per object)");
            topKey_ = std::move(k);
        }
        return true;
    }

    bool parse_error(std::size_t position, const std::string& token, const json::exception& e) {
        if (e.id == 406)  // nlohmann's "number overflow"
            return fail("the number " + token.substr(0, 24) + " at " + placeOf(text_, position) +
                        " is out of range: a JSON number must fit a double (at most about "
                        "1.8e308)");
        std::string reason = e.what();
        // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep line and column.
        if (const std::size_t close = reason.find("] "); close != std::string::npos)
            reason = reason.substr(close + 2);
        return fail("invalid JSON: " + reason);
    }

    const std::string& error() const { return error_; }

private:
    bool fail(std::string message) {
        error_ = std::string(source_) + ": " + std::move(message);
        return false;
    }

    std::string pointPlace() const { return "points[" + std::to_string(points_.size()) + "]"; }
    std::string containerPlace() const { return capturingPoint_ ? pointPlace() : topKey_; }

    bool value(json v) {
        if (skipDepth_ > 0) return true;
        if (!stack_.empty()) {
            place(std::move(v));
            return true;
        }
        if (depth_ == 0)
            return fail(
                "expected a JSON object {\"format\": \"tandem-search-results\", ...} at the top "
                "level, found " +
                jsonShown(v));
        if (depth_ == 1) return topValue(std::move(v));
        return fail(pointPlace() + ": expected an object, found " + jsonShown(v));  // in points
    }

    bool topValue(json v) {
        if (topKey_ == "points") return fail("points: expected an array, found " + jsonShown(v));
        if (topKey_ == "format") {
            if (!v.is_string())
                return fail("format: expected the string \"tandem-search-results\", found " +
                            jsonShown(v));
            if (v.get_ref<const std::string&>() != kFormat)
                return fail(otherFormatMessage(v.get_ref<const std::string&>()));
        }
        if (isScannedKey(topKey_)) members_[topKey_] = std::move(v);
        return true;
    }

    json* place(json v) {
        json& parent = *stack_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        json& slot = parent[key_];
        slot = std::move(v);
        return &slot;
    }

    // Pointers into a tree stay valid: a container on the stack only grows after all its open
    // children are closed.
    bool open(json container) {
        if (depth_ >= kMaxJsonDepth)
            return fail("nested deeper than " + std::to_string(kMaxJsonDepth) +
                        " levels of arrays and objects" +
                        (topKey_.empty() ? std::string() : " in " + containerPlace()));
        const bool object = container.is_object();
        ++depth_;
        if (skipDepth_ > 0) return true;
        if (!stack_.empty()) {
            stack_.push_back(place(std::move(container)));
            return true;
        }
        if (depth_ == 1) {
            if (!object)
                return fail(
                    "expected a JSON object {\"format\": \"tandem-search-results\", ...} at the "
                    "top level, found an array");
            return true;
        }
        if (depth_ == 2) {
            if (topKey_ == "points") {
                if (object) return fail("points: expected an array, found an object");
                inPoints_ = true;
                points_.reserve(points_.size() + text_.size() / kBytesPerPoint);
                return true;
            }
            if (topKey_ == "format")
                return fail("format: expected the string \"tandem-search-results\", found " +
                            std::string(object ? "an object" : "an array"));
            if (!isScannedKey(topKey_)) {
                skipDepth_ = depth_;
                return true;
            }
            json& slot = members_[topKey_];
            slot = std::move(container);
            stack_.push_back(&slot);
            capturingPoint_ = false;
            return true;
        }
        // depth 3, directly in the points array (deeper levels are captured or skipped).
        if (!object) return fail(pointPlace() + ": expected an object, found an array");
        point_ = json::object();
        stack_.push_back(&point_);
        capturingPoint_ = true;
        return true;
    }

    bool close() {
        const int closing = depth_--;
        if (skipDepth_ > 0) {
            if (closing == skipDepth_) skipDepth_ = 0;
            return true;
        }
        if (!stack_.empty()) {
            stack_.pop_back();
            if (stack_.empty() && capturingPoint_) return finishPoint();
            return true;
        }
        if (inPoints_ && closing == 2) inPoints_ = false;
        return true;
    }

    bool finishPoint() {
        try {
            points_.push_back(
                evaluatedPointFromJson(point_, std::string(source_) + ": " + pointPlace()));
        } catch (const ReadError& e) {
            error_ = e.what();
            return false;
        }
        point_ = json();
        capturingPoint_ = false;
        return true;
    }

    std::string_view text_;
    std::string_view source_;
    std::vector<search::EvaluatedPoint>& points_;
    json& members_;
    int depth_ = 0;      // open arrays and objects
    int skipDepth_ = 0;  // > 0: inside an unknown member opened at this depth
    bool inPoints_ = false;
    bool capturingPoint_ = false;
    json point_;                // the points[] entry being read
    std::vector<json*> stack_;  // open containers of the tree being built, outermost first
    std::string key_;           // the last key read in the innermost object of that tree
    std::string topKey_;        // the last top-level key
    std::set<std::string> seenTopKeys_;
    std::string error_;
};

}  // namespace

Status scanSearchResults(std::string_view text, std::string_view source,
                         std::vector<search::EvaluatedPoint>& points, json& members) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return Error{std::string(source) +
                     ": the file is empty; expected a tandem-search-results JSON object"};
    Scanner scanner(text, source, points, members);
    if (!json::sax_parse(text, &scanner)) return Error{scanner.error()};
    return Status::success();
}

std::string otherFormatMessage(std::string_view format) {
    struct Known {
        std::string_view format, what;
    };
    static constexpr Known kKnown[] = {{"tandem-project", "a Tandem project file"},
                                       {"tandem-model", "a Tandem model file"},
                                       {"tandem-hardware", "a Tandem hardware file"},
                                       {"tandem-search-space", "a Tandem search-space file"}};
    for (const Known& k : kKnown)
        if (format == k.format)
            return "this is " + std::string(k.what) + " (format \"" + std::string(format) +
                   "\"), not search results (format \"tandem-search-results\")";
    return "format " + asJsonString(format) +
           " is not \"tandem-search-results\": this is not a Tandem search-results file";
}

}  // namespace tandem::core::io::results_json
