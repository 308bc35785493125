// SearchSpace as JSON (the format is described in search_space.h). The only file of core/search
// that includes <nlohmann/json.hpp>.
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>

#include "core/common/json_document.h"
#include "core/common/text_file.h"
#include "core/hardware/hardware_json.h"
#include "core/hardware/preset_library.h"
#include "core/search/search_space.h"

namespace tandem::core::search {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr std::string_view kFormat = "tandem-search-space";
constexpr int kVersion = 1;
constexpr const char* kTopLevelKeys[] = {"format",
                                         "version",
                                         "name",
                                         "base",
                                         "accelerator",
                                         "areaBudgetSquareMillimetres",
                                         "minAreaFraction",
                                         "allowAreaExtrapolation",
                                         "hbmCapacityBytes",
                                         "microbatchSizes",
                                         "recompute",
                                         "tensorParallelWidths"};
// The keys of "accelerator": the searched fields' registry keys.
const auto kAcceleratorKeys = [] {
    std::array<const char*, std::size(kSearchedFields)> keys{};
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = kSearchedFields[i].key.data();
    return keys;
}();
constexpr std::string_view kTied = "tensorCoreCols";
constexpr std::string_view kModelWidths = "model";

// A JSON number that is an integer (written as 8 or as 8.0e0) inside int64.
Expected<std::int64_t> integerValue(const json& value, const std::string& field) {
    if (value.is_number_integer()) {
        if (value.is_number_unsigned() && value.get<std::uint64_t>() > std::uint64_t(INT64_MAX))
            return Error{field + " = " + value.dump() + " is too large for a 64-bit integer"};
        return value.get<std::int64_t>();
    }
    if (value.is_number_float()) {
        const double number = value.get<double>();
        if (std::isfinite(number) && std::trunc(number) == number && std::fabs(number) < 9.2e18)
            return std::int64_t(number);
    }
    return Error{field + " must be an integer, found " + jsonShown(value)};
}

// [v, ...] or {"powersOfTwo": {"min": a, "max": b}}.
Expected<std::vector<std::int64_t>> integerList(const json& value, const std::string& field) {
    std::vector<std::int64_t> values;
    if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            Expected<std::int64_t> v =
                integerValue(value[i], field + "[" + std::to_string(i) + "]");
            if (!v.ok()) return v.error();
            values.push_back(*v);
        }
        return values;
    }
    const char* const rangeKeys[] = {"powersOfTwo"};
    const char* const boundKeys[] = {"min", "max"};
    const std::string form =
        " must be a list of integers or {\"powersOfTwo\": {\"min\": a, "
        "\"max\": b}}";
    if (!value.is_object() || !value.contains("powersOfTwo"))
        return Error{field + form + ", found " + jsonShown(value)};
    if (Status s = checkJsonKeys(value, rangeKeys, field + ": "); !s.ok())
        return Error{s.message()};
    const json& range = value["powersOfTwo"];
    if (!range.is_object() || !range.contains("min") || !range.contains("max"))
        return Error{field + form + ", found " + jsonShown(value)};
    if (Status s = checkJsonKeys(range, boundKeys, field + ".powersOfTwo: "); !s.ok())
        return Error{s.message()};
    Expected<std::int64_t> min = integerValue(range["min"], field + ".powersOfTwo.min");
    if (!min.ok()) return min.error();
    Expected<std::int64_t> max = integerValue(range["max"], field + ".powersOfTwo.max");
    if (!max.ok()) return max.error();
    values = SearchSpace::powersOfTwo(*min, *max);
    if (values.empty())
        return Error{field + ".powersOfTwo = {min " + std::to_string(*min) + ", max " +
                     std::to_string(*max) +
                     "} is not a range: min and max must be powers of two ≥ 1 with min ≤ max"};
    return values;
}

Expected<double> numberValue(const json& value, const std::string& field) {
    if (!value.is_number()) return Error{field + " must be a number, found " + jsonShown(value)};
    return value.get<double>();
}

Status readAccelerator(const json& object, SearchSpace& space, const std::string& prefix) {
    if (!object.is_object())
        return Error{prefix + "\"accelerator\" must be a JSON object, found " + jsonShown(object)};
    if (Status s = checkJsonKeys(object, kAcceleratorKeys, prefix + "accelerator: "); !s.ok())
        return s;
    for (const SearchedField& f : kSearchedFields) {
        const std::string key(f.key);
        if (!object.contains(key)) continue;
        const json& value = object[key];
        const std::string field = prefix + "accelerator." + key;
        if (f.values == &SearchSpace::vectorCoreLanes && value.is_string()) {
            if (value.get<std::string>() != kTied)
                return Error{field + " = " + value.dump() +
                             " is not valid: must be \"tensorCoreCols\" (tied) or a list"};
            space.vectorLanes = VectorLanesRule::TiedToTensorCoreCols;
            space.vectorCoreLanes.clear();
            continue;
        }
        Expected<std::vector<std::int64_t>> values = integerList(value, field);
        if (!values.ok()) return values.error();
        if (f.values == &SearchSpace::vectorCoreLanes) space.vectorLanes = VectorLanesRule::Free;
        space.*f.values = std::move(*values);
    }
    return Status::success();
}

Status readOptions(const json& root, SearchSpace& space, const std::string& prefix) {
    if (root.contains("areaBudgetSquareMillimetres")) {
        Expected<double> v = numberValue(root["areaBudgetSquareMillimetres"],
                                         prefix + "areaBudgetSquareMillimetres");
        if (!v.ok()) return v.error();
        space.areaBudgetSquareMillimetres = *v;
    }
    if (root.contains("minAreaFraction")) {
        Expected<double> v = numberValue(root["minAreaFraction"], prefix + "minAreaFraction");
        if (!v.ok()) return v.error();
        space.minAreaFraction = *v;
    }
    if (root.contains("allowAreaExtrapolation")) {
        const json& v = root["allowAreaExtrapolation"];
        if (!v.is_boolean())
            return Error{prefix + "allowAreaExtrapolation must be true or false, found " +
                         jsonShown(v)};
        space.allowAreaExtrapolation = v.get<bool>();
    }
    const std::pair<const char*, std::vector<std::int64_t>*> lists[] = {
        {"hbmCapacityBytes", &space.hbmCapacityBytes}, {"microbatchSizes", &space.microbatchSizes}};
    for (const auto& [key, target] : lists) {
        if (!root.contains(key)) continue;
        Expected<std::vector<std::int64_t>> values = integerList(root[key], prefix + key);
        if (!values.ok()) return values.error();
        *target = std::move(*values);
    }
    if (root.contains("recompute")) {
        const json& list = root["recompute"];
        if (!list.is_array())
            return Error{prefix + "recompute must be a list of \"off\", \"on\", \"auto\", found " +
                         jsonShown(list)};
        space.recompute.clear();
        for (std::size_t i = 0; i < list.size(); ++i) {
            hardware::Recompute r{};
            if (!list[i].is_string() || !hardware::parseRecompute(list[i].get<std::string>(), r))
                return Error{prefix + "recompute[" + std::to_string(i) + "] = " +
                             jsonShown(list[i]) + " is not valid: must be one of off, on, auto"};
            space.recompute.push_back(r);
        }
    }
    if (root.contains("tensorParallelWidths")) {
        const json& widths = root["tensorParallelWidths"];
        if (widths.is_string() && widths.get<std::string>() == kModelWidths) {
            space.tensorParallelWidths.clear();
        } else if (widths.is_array() || widths.is_object()) {
            // A list, or {"powersOfTwo": …} (how toJson writes a run of powers of two).
            Expected<std::vector<std::int64_t>> values =
                integerList(widths, prefix + "tensorParallelWidths");
            if (!values.ok()) return values.error();
            if (values->empty())
                return Error{prefix +
                             "tensorParallelWidths is an empty list: give widths, or "
                             "\"model\" for each model's own"};
            space.tensorParallelWidths = std::move(*values);
        } else {
            return Error{prefix +
                         "tensorParallelWidths must be \"model\", a list of integers or "
                         "{\"powersOfTwo\": {\"min\": a, \"max\": b}}, "
                         "found " +
                         jsonShown(widths)};
        }
    }
    return Status::success();
}

Status checkHeader(const json& root, const std::string& prefix) {
    const auto format = root.find("format");
    if (format == root.end())
        return Error{prefix +
                     "missing \"format\": \"tandem-search-space\"; is this a search "
                     "space file?"};
    if (!format->is_string() || format->get<std::string>() != kFormat)
        return Error{prefix + "format = " + format->dump() +
                     " is not a search space: expected \"tandem-search-space\""};
    const auto version = root.find("version");
    if (version == root.end()) return Error{prefix + "missing \"version\": 1"};
    if (!version->is_number_integer() || version->get<std::int64_t>() < 1)
        return Error{prefix + "version must be a positive integer (1), found " +
                     jsonShown(*version)};
    if (version->get<std::int64_t>() > kVersion)
        return Error{prefix + "version " + version->dump() +
                     " was written by a newer Tandem; this one reads version 1"};
    return Status::success();
}

Expected<SearchSpace> fromJson(const json& root, std::string_view sourceName) {
    const std::string prefix = std::string(sourceName) + ": ";
    if (!root.is_object())
        return Error{prefix +
                     "expected a JSON object {\"format\": \"tandem-search-space\", ...} "
                     "at the top level, found " +
                     jsonShown(root)};
    if (Status s = checkJsonKeys(root, kTopLevelKeys, prefix); !s.ok()) return Error{s.message()};
    if (Status s = checkHeader(root, prefix); !s.ok()) return Error{s.message()};
    SearchSpace space = SearchSpace::phaze();
    if (root.contains("name")) {
        if (!root["name"].is_string())
            return Error{prefix + "name must be a string, found " + jsonShown(root["name"])};
        space.name = root["name"].get<std::string>();
    }
    if (root.contains("base")) {
        const json& base = root["base"];
        Expected<hardware::HardwarePoint> point =
            base.is_string() ? hardware::PresetLibrary::preset(base.get<std::string>())
                             : hardware::hardwareFromJsonObject(base, prefix + "base", "base");
        if (!point.ok())
            return Error{base.is_string() ? prefix + "base: " + point.message() : point.message()};
        space.base = std::move(*point);
    }
    if (root.contains("accelerator"))
        if (Status s = readAccelerator(root["accelerator"], space, prefix); !s.ok())
            return Error{s.message()};
    if (Status s = readOptions(root, space, prefix); !s.ok()) return Error{s.message()};
    // validate() prefixes "search space: "; name the source as well.
    if (Status s = space.validate(); !s.ok()) return Error{prefix + s.message()};
    return space;
}

// A list that is a run of consecutive powers of two (at least three of them) is written in the
// range form, which reads back to the same list and keeps files short.
ordered_json listToJson(const std::vector<std::int64_t>& values) {
    if (values.size() >= 3 && SearchSpace::powersOfTwo(values.front(), values.back()) == values)
        return ordered_json{
            {"powersOfTwo", ordered_json{{"min", values.front()}, {"max", values.back()}}}};
    return ordered_json(values);
}

}  // namespace

std::string SearchSpace::toJson() const {
    ordered_json root = ordered_json::object();
    root["format"] = std::string(kFormat);
    root["version"] = kVersion;
    root["name"] = name;
    // Through the hardware file's text, which keeps its keys in registry order.
    root["base"] = ordered_json::parse(hardware::toHardwareJson(base));
    ordered_json accelerator = ordered_json::object();
    for (const SearchedField& f : kSearchedFields) {
        const std::string key(f.key);
        if (f.values == &SearchSpace::vectorCoreLanes &&
            vectorLanes == VectorLanesRule::TiedToTensorCoreCols)
            accelerator[key] = std::string(kTied);
        else if (searches(f))  // an optional field not searched is left out
            accelerator[key] = listToJson(this->*f.values);
    }
    root["accelerator"] = std::move(accelerator);
    root["areaBudgetSquareMillimetres"] = areaBudgetSquareMillimetres;
    root["minAreaFraction"] = minAreaFraction;
    root["allowAreaExtrapolation"] = allowAreaExtrapolation;
    root["hbmCapacityBytes"] = listToJson(hbmCapacityBytes);
    root["microbatchSizes"] = listToJson(microbatchSizes);
    ordered_json recomputeNames = ordered_json::array();
    for (hardware::Recompute r : recompute) recomputeNames.push_back(hardware::toString(r));
    root["recompute"] = std::move(recomputeNames);
    if (tensorParallelWidths.empty())
        root["tensorParallelWidths"] = std::string(kModelWidths);
    else
        root["tensorParallelWidths"] = listToJson(tensorParallelWidths);
    return jsonText(root, 2) + "\n";
}

Expected<SearchSpace> SearchSpace::parseJson(std::string_view text, std::string_view sourceName) {
    const std::string prefix = std::string(sourceName) + ": ";
    auto root = parseJsonDocument(text, sourceName,
                                  "a search space {\"format\": \"tandem-search-space\", ...}");
    if (!root) return Error{root.message()};
    try {
        return fromJson(*root, sourceName);
    } catch (const std::exception& e) {
        return Error{prefix + "unexpected error while reading JSON: " + e.what()};
    }
}

Expected<SearchSpace> SearchSpace::loadFile(const std::filesystem::path& path) {
    Expected<std::string> text = readTextFile(path);
    if (!text.ok()) return text.error();
    return parseJson(*text, path.string());
}

Status SearchSpace::saveFile(const std::filesystem::path& path) const {
    if (Status s = validate(); !s.ok()) return Error{path.string() + ": " + s.message()};
    return writeFileAtomically(path, toJson());
}

}  // namespace tandem::core::search
