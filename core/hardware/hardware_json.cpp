#include "core/hardware/hardware_json.h"

#include <exception>
#include <nlohmann/json.hpp>

#include "core/common/json_document.h"
#include "core/common/text_file.h"
#include "core/hardware/parameter_registry.h"

namespace tandem::core::hardware {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr std::string_view kFormat = "tandem-hardware";
constexpr int kVersion = 1;
constexpr const char* kTopLevelKeys[] = {"format",      "version",     "name",
                                         "description", "accelerator", "cluster"};

// Keys in registry order; integers as JSON integers, choices by name. Templated on the JSON
// type so files keep registry order (ordered_json) while embedding APIs return plain json.
template <class Json, class Config>
Json sectionToJson(const ParameterRegistry<Config>& registry, const Config& config) {
    Json object = Json::object();
    for (const auto& p : registry.parameters()) {
        const double value = p.get(config);
        const std::string key(p.spec.key);
        if (p.spec.kind == ParameterKind::Choice) {
            const int index = static_cast<int>(value);
            object[key] = index >= 0 && std::size_t(index) < p.spec.choices.size()
                              ? std::string(p.spec.choices[std::size_t(index)])
                              : std::string("invalid");
        } else if (p.spec.kind == ParameterKind::Integer && value > -9e18 && value < 9e18) {
            object[key] = static_cast<std::int64_t>(value);
        } else {
            object[key] = value;
        }
    }
    return object;
}

// Reads a registry section: keys not given keep their defaults, unknown keys are errors.
template <class Config>
Expected<Config> sectionFromJson(const json& object, const ParameterRegistry<Config>& registry,
                                 std::string_view context) {
    const std::string prefix = std::string(context) + ": ";
    const std::string section(registry.section());
    if (!object.is_object())
        return Error{prefix + "\"" + section + "\" must be a JSON object, found " +
                     jsonShown(object)};
    Config config = registry.defaults();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const std::string& key = it.key();
        const json& value = it.value();
        const Parameter<Config>* p = registry.find(key);
        if (p == nullptr)
            return Error{prefix + "unknown key " + section + "." + key + "; valid keys are " +
                         registry.keyList()};
        const std::string field = section + "." + key;
        double number = 0;
        if (p->spec.kind == ParameterKind::Choice) {
            if (!value.is_string())
                return Error{prefix + field + " must be a string, " + p->spec.describeRange() +
                             "; found " + jsonShown(value)};
            const int index = p->spec.choiceIndex(value.get<std::string>());
            if (index < 0)
                return Error{prefix + field + " = " + jsonText(value) +
                             " is not a valid choice: must be " + p->spec.describeRange()};
            number = index;
        } else {
            if (!value.is_number())
                return Error{prefix + field + " must be a number, " + p->spec.describeRange() +
                             "; found " + jsonShown(value)};
            number = value.get<double>();
        }
        if (Status status = registry.assign(config, *p, number); !status.ok())
            return Error{prefix + status.message()};
    }
    if (Status status = registry.validate(config); !status.ok())
        return Error{prefix + status.message()};
    return config;
}

// Parses text into a JSON value; empty text and syntax errors become messages.
template <class Json>
Json hardwareToJson(const HardwarePoint& point) {
    Json root = Json::object();
    root["format"] = std::string(kFormat);
    root["version"] = kVersion;
    root["name"] = point.name;
    root["description"] = point.description;
    root["accelerator"] = sectionToJson<Json>(acceleratorParameters(), point.accelerator);
    root["cluster"] = sectionToJson<Json>(clusterParameters(), point.cluster);
    return root;
}

Status checkHeader(const json& root, const std::string& prefix) {
    const auto format = root.find("format");
    if (format == root.end())
        return Error{prefix + "missing \"format\": \"tandem-hardware\"; is this a hardware file?"};
    if (!format->is_string() || format->get<std::string>() != kFormat)
        return Error{prefix + "format = " + jsonText(*format) +
                     " is not a hardware file: expected \"tandem-hardware\""};
    const auto version = root.find("version");
    if (version == root.end()) return Error{prefix + "missing \"version\": 1"};
    if (!version->is_number_integer() || version->get<std::int64_t>() < 1)
        return Error{prefix + "version must be a positive integer (1), found " +
                     jsonShown(*version)};
    if (version->get<std::int64_t>() > kVersion)
        return Error{prefix + "version " + jsonText(*version) +
                     " was written by a newer Tandem; this one reads version 1"};
    return Status::success();
}

Expected<std::string> optionalString(const json& root, const char* key, std::string fallback,
                                     const std::string& prefix) {
    const auto it = root.find(key);
    if (it == root.end()) return fallback;
    if (!it->is_string())
        return Error{prefix + "\"" + key + "\" must be a string, found " + jsonShown(*it)};
    return it->get<std::string>();
}

Expected<HardwarePoint> hardwareFromJson(const json& root, std::string_view context,
                                         std::string_view defaultName) {
    const std::string prefix = std::string(context) + ": ";
    if (!root.is_object())
        return Error{prefix +
                     "expected a JSON object {\"format\": \"tandem-hardware\", ...} at "
                     "the top level, found " +
                     jsonShown(root)};
    for (const auto& item : root.items()) {
        bool known = false;
        for (const char* key : kTopLevelKeys) known = known || item.key() == key;
        if (!known)
            return Error{prefix + "unknown key \"" + item.key() +
                         "\"; valid keys are format, version, name, description, accelerator, "
                         "cluster"};
    }
    if (Status header = checkHeader(root, prefix); !header.ok()) return Error{header.message()};
    HardwarePoint point;
    Expected<std::string> name = optionalString(root, "name", std::string(defaultName), prefix);
    if (!name.ok()) return name.error();
    if (name->empty()) return Error{prefix + "\"name\" must not be empty"};
    Expected<std::string> description = optionalString(root, "description", "", prefix);
    if (!description.ok()) return description.error();
    point.name = *name;
    point.description = *description;
    const json empty = json::object();
    const auto accelerator = root.find("accelerator");
    Expected<AcceleratorConfig> a = sectionFromJson(
        accelerator == root.end() ? empty : *accelerator, acceleratorParameters(), context);
    if (!a.ok()) return a.error();
    point.accelerator = *a;
    const auto cluster = root.find("cluster");
    Expected<ClusterConfig> c =
        sectionFromJson(cluster == root.end() ? empty : *cluster, clusterParameters(), context);
    if (!c.ok()) return c.error();
    point.cluster = *c;
    return point;
}

Error unexpected(std::string_view context, const std::exception& e) {
    return Error{std::string(context) + ": unexpected error while reading JSON: " + e.what()};
}

}  // namespace

Expected<HardwarePoint> parseHardwareJson(std::string_view text, std::string_view sourceName) {
    try {
        Expected<json> root = parseJsonDocument(text, sourceName, "a tandem-hardware JSON object");
        if (!root.ok()) return root.error();
        const std::string stem = std::filesystem::path(sourceName).stem().string();
        return hardwareFromJson(*root, sourceName, stem.empty() ? "hardware" : stem);
    } catch (const std::exception& e) {
        return unexpected(sourceName, e);
    }
}

Expected<HardwarePoint> loadHardwareFile(const std::filesystem::path& path) {
    Expected<std::string> text = readTextFile(path);
    if (!text.ok()) return text.error();
    return parseHardwareJson(*text, path.string());
}

std::string toHardwareJson(const HardwarePoint& point) {
    return jsonText(hardwareToJson<ordered_json>(point), 2) + "\n";
}

Status saveHardwareFile(const std::filesystem::path& path, const HardwarePoint& point) {
    const std::string prefix = "cannot save " + path.string() + ": ";
    if (point.name.empty()) return Error{prefix + "the hardware point has no name"};
    if (Status s = acceleratorParameters().validate(point.accelerator); !s.ok())
        return Error{prefix + s.message()};
    if (Status s = clusterParameters().validate(point.cluster); !s.ok())
        return Error{prefix + s.message()};
    return writeFileAtomically(path, toHardwareJson(point));
}

std::string toTrainingJson(const TrainingConfig& training) {
    return jsonText(sectionToJson<ordered_json>(trainingParameters(), training), 2) + "\n";
}

Expected<TrainingConfig> parseTrainingJson(std::string_view text, std::string_view sourceName) {
    try {
        Expected<json> root = parseJsonDocument(text, sourceName, "a training JSON object");
        if (!root.ok()) return root.error();
        return sectionFromJson(*root, trainingParameters(), sourceName);
    } catch (const std::exception& e) {
        return unexpected(sourceName, e);
    }
}

json hardwareToJsonObject(const HardwarePoint& point) {
    return hardwareToJson<json>(point);
}

Expected<HardwarePoint> hardwareFromJsonObject(const json& object, std::string_view context,
                                               std::string_view defaultName) {
    try {
        return hardwareFromJson(object, context, defaultName.empty() ? "hardware" : defaultName);
    } catch (const std::exception& e) {
        return unexpected(context, e);
    }
}

json trainingToJsonObject(const TrainingConfig& training) {
    return sectionToJson<json>(trainingParameters(), training);
}

Expected<TrainingConfig> trainingFromJsonObject(const json& object, std::string_view context) {
    try {
        return sectionFromJson(object, trainingParameters(), context);
    } catch (const std::exception& e) {
        return unexpected(context, e);
    }
}

}  // namespace tandem::core::hardware
