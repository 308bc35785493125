#include "core/io/project_file.h"

#include <exception>
#include <nlohmann/json.hpp>

#include <span>
#include <system_error>
#include "core/common/json_document.h"

#include "core/common/text_file.h"
#include "core/hardware/hardware_json.h"
#include "core/hardware/parameter_registry.h"
#include "core/model/model_zoo.h"
#include "core/search/explorer.h"

namespace tandem::core::io {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

namespace fs = std::filesystem;

constexpr const char* kTopLevelKeys[] = {"format", "version", "model", "hardware", "training",
                                         "search", "run",     "view",  "results",  "search_models"};
constexpr const char* kRunKeys[] = {"explorer", "threads", "objective"};

bool isZooName(const std::string& model) {
    for (const auto& entry : model::zooModels())
        if (entry.name == model) return true;
    return false;
}

// A path inside `directory` (or below it) relative to it, any other path as it is.
std::string relativeIfInside(const std::string& text, const fs::path& directory) {
    if (text.empty() || directory.empty()) return text;
    std::error_code ec;
    fs::path path = fs::path(text);
    if (!path.is_absolute()) path = fs::absolute(path, ec);
    fs::path base = fs::absolute(directory, ec);
    if (ec) return text;
    const fs::path relative = path.lexically_normal().lexically_relative(base.lexically_normal());
    if (relative.empty() || *relative.begin() == "..") return path.lexically_normal().string();
    return relative.generic_string();
}

std::string resolved(const std::string& text, const fs::path& directory) {
    const fs::path path(text);
    if (text.empty() || path.is_absolute() || directory.empty()) return text;
    return (directory / path).lexically_normal().string();
}

Status checkHeader(const json& root, const std::string& prefix) {
    const auto format = root.find("format");
    if (format == root.end())
        return Error{prefix + "missing \"format\": \"tandem-project\"; is this a project file?"};
    if (!format->is_string() || format->get<std::string>() != ProjectFile::kFormat)
        return Error{prefix + "format = " + jsonText(*format) +
                     " is not a project: expected \"tandem-project\""};
    const auto version = root.find("version");
    if (version == root.end()) return Error{prefix + "missing \"version\": 1"};
    if (!version->is_number_integer() || version->get<std::int64_t>() < 1)
        return Error{prefix + "version must be a positive integer (1), found " +
                     jsonShown(*version)};
    if (version->get<std::int64_t>() > ProjectFile::kVersion)
        return Error{prefix + "version " + jsonText(*version) +
                     " was written by a newer Tandem; this one reads version " +
                     std::to_string(ProjectFile::kVersion)};
    return Status::success();
}

Status readRun(const json& run, ProjectFile& project, const std::string& prefix) {
    if (!run.is_object())
        return Error{prefix +
                     "run must be a JSON object {\"explorer\": ..., \"threads\": ...}, "
                     "found " +
                     jsonShown(run)};
    if (Status s = checkJsonKeys(run, kRunKeys, prefix + "run: "); !s.ok()) return s;
    if (run.contains("explorer")) {
        const json& name = run["explorer"];
        if (!name.is_string())
            return Error{prefix +
                         "run.explorer must be a string (exhaustive, phaze or pruned), "
                         "found " +
                         jsonShown(name)};
        auto kind = search::parseExplorerKind(name.get<std::string>());
        if (!kind) return Error{prefix + "run.explorer: " + kind.message()};
        project.explorer = *kind;
    }
    if (run.contains("objective")) {
        const json& name = run["objective"];
        if (!name.is_string())
            return Error{prefix +
                         "run.objective must be a string (throughput, throughput-per-watt or "
                         "cost), found " +
                         jsonShown(name)};
        auto kind = search::parseSearchObjective(name.get<std::string>());
        if (!kind) return Error{prefix + "run.objective: " + kind.message()};
        project.objective = *kind;
    }
    if (run.contains("threads")) {
        const json& threads = run["threads"];
        if (!threads.is_number_integer() || threads.get<std::int64_t>() < 0 ||
            threads.get<std::int64_t>() > ProjectFile::kMaxThreads)
            return Error{prefix + "run.threads = " + jsonText(threads) +
                         " is out of range: must be an integer in [0, " +
                         std::to_string(ProjectFile::kMaxThreads) + "] (0: one per core)"};
        project.threads = threads.get<std::int64_t>();
    }
    return Status::success();
}

Status readView(const json& view, ProjectFile& project, const std::string& prefix) {
    if (!view.is_object())
        return Error{prefix + "view must be a JSON object, found " + jsonShown(view)};
    for (const auto& item : view.items()) {
        const json& value = item.value();
        if (value.is_string())
            project.view[item.key()] = value.get<std::string>();
        else if (value.is_number() || value.is_boolean())
            project.view[item.key()] = jsonText(value);
        else
            return Error{prefix + "view." + item.key() +
                         " must be a string, number or boolean, found " + jsonShown(value)};
    }
    return Status::success();
}

Expected<std::string> pathField(const json& root, const char* key, const std::string& prefix,
                                const std::string& what) {
    const json& value = root[key];
    if (!value.is_string())
        return Error{prefix + key + " must be a string (" + what + "), found " + jsonShown(value)};
    if (value.get<std::string>().empty()) return Error{prefix + key + " is empty: give " + what};
    return value.get<std::string>();
}

Expected<ProjectFile> fromJson(const json& root, const std::string& source,
                               const fs::path& directory) {
    const std::string prefix = source + ": ";
    if (!root.is_object())
        return Error{prefix + "expected a JSON object {\"format\": \"tandem-project\", ...} at " +
                     "the top level, found " + jsonShown(root)};
    if (Status s = checkJsonKeys(root, kTopLevelKeys, prefix); !s.ok()) return Error{s.message()};
    if (Status s = checkHeader(root, prefix); !s.ok()) return Error{s.message()};
    ProjectFile project;

    if (!root.contains("model"))
        return Error{prefix + "missing \"model\": a zoo name (" + [] {
            std::string names;
            for (const auto& e : model::zooModels()) names += (names.empty() ? "" : ", ") + e.name;
            return names;
        }() + ") or the path of a model file"};
    Expected<std::string> model =
        pathField(root, "model", prefix, "a zoo name or the path of a model file");
    if (!model.ok()) return model.error();
    project.model = isZooName(*model) ? *model : resolved(*model, directory);

    if (!root.contains("hardware"))
        return Error{prefix +
                     "missing \"hardware\": a {\"format\": \"tandem-hardware\", ...} "
                     "object"};
    Expected<hardware::HardwarePoint> point =
        hardware::hardwareFromJsonObject(root["hardware"], prefix + "hardware", "hardware");
    if (!point.ok()) return point.error();
    project.hardware = std::move(*point);

    if (root.contains("training")) {
        Expected<hardware::TrainingConfig> training =
            hardware::trainingFromJsonObject(root["training"], prefix + "training");
        if (!training.ok()) return training.error();
        project.training = *training;
    }
    if (root.contains("search")) {
        const json& search = root["search"];
        if (!search.is_object())
            return Error{prefix +
                         "search must be a {\"format\": \"tandem-search-space\", ...} "
                         "object, found " +
                         jsonShown(search)};
        Expected<search::SearchSpace> space =
            search::SearchSpace::parseJson(jsonText(search), prefix + "search");
        if (!space.ok()) return space.error();
        project.search = std::move(*space);
    }
    if (root.contains("run"))
        if (Status s = readRun(root["run"], project, prefix); !s.ok()) return Error{s.message()};
    if (root.contains("view"))
        if (Status s = readView(root["view"], project, prefix); !s.ok()) return Error{s.message()};
    if (root.contains("results")) {
        Expected<std::string> results =
            pathField(root, "results", prefix, "the path of a results JSON file");
        if (!results.ok()) return results.error();
        project.results = resolved(*results, directory);
    }
    if (root.contains("search_models")) {
        const json& models = root["search_models"];
        if (!models.is_array())
            return Error{prefix +
                         "search_models must be an array of zoo names or model file paths, "
                         "found " +
                         jsonShown(models)};
        for (const json& name : models) {
            if (!name.is_string() || name.get<std::string>().empty())
                return Error{prefix +
                             "search_models: each entry must be a zoo name or the path of a "
                             "model file, found " +
                             jsonShown(name)};
            const std::string text = name.get<std::string>();
            project.searchModels.push_back(isZooName(text) ? text : resolved(text, directory));
        }
    }
    return project;
}

}  // namespace

Expected<ProjectFile> ProjectFile::parse(std::string_view text, std::string_view sourceName,
                                         const fs::path& directory) {
    const std::string prefix = std::string(sourceName) + ": ";
    auto root =
        parseJsonDocument(text, sourceName, "a project {\"format\": \"tandem-project\", ...}");
    if (!root) return Error{root.message()};
    try {
        return fromJson(*root, std::string(sourceName), directory);
    } catch (const std::exception& e) {
        return Error{prefix + "unexpected error while reading JSON: " + e.what()};
    }
}

Expected<ProjectFile> ProjectFile::load(const fs::path& path) {
    Expected<std::string> text = readTextFile(path);
    if (!text.ok()) return text.error();
    std::error_code ec;
    fs::path absolute = fs::absolute(path, ec);
    if (ec) absolute = path;
    return parse(*text, path.string(), absolute.parent_path());
}

std::string ProjectFile::searchFingerprint() const {
    ProjectFile p = *this;
    for (hardware::HardwarePoint* point : {&p.hardware, &p.search.base}) {
        hardware::AcceleratorConfig& a = point->accelerator;
        for (const search::SearchedField& f : search::kSearchedFields)
            if (p.search.searches(f)) search::parameterOf(f).set(a, 0);
        a.hbmCapacityBytes = 0;
        point->name.clear();
        point->description.clear();
    }
    p.training.microbatch = 0;
    p.training.recompute = hardware::Recompute::Off;
    p.explorer = search::ExplorerKind::Exhaustive;
    p.threads = 0;
    p.view.clear();
    p.results.clear();
    return p.toJson("/");
}

std::string ProjectFile::toJson(const fs::path& directory) const {
    ordered_json root = ordered_json::object();
    root["format"] = std::string(kFormat);
    root["version"] = kVersion;
    root["model"] = isZooName(model) ? model : relativeIfInside(model, directory);
    // Through the section texts, which keep their keys in registry order.
    root["hardware"] = ordered_json::parse(hardware::toHardwareJson(hardware));
    root["training"] = ordered_json::parse(hardware::toTrainingJson(training));
    root["search"] = ordered_json::parse(search.toJson());
    root["run"] = ordered_json{{"explorer", std::string(search::toString(explorer))},
                               {"threads", threads},
                               {"objective", std::string(search::toString(objective))}};
    ordered_json viewObject = ordered_json::object();
    for (const auto& [key, value] : view) viewObject[key] = value;
    root["view"] = std::move(viewObject);
    if (!results.empty()) root["results"] = relativeIfInside(results, directory);
    if (!searchModels.empty()) {
        ordered_json models = ordered_json::array();
        for (const std::string& name : searchModels)
            models.push_back(isZooName(name) ? name : relativeIfInside(name, directory));
        root["search_models"] = std::move(models);
    }
    return jsonText(root, 2) + "\n";
}

Status ProjectFile::validate() const {
    if (model.empty()) return Error{"project: model is empty: choose a zoo model or a model file"};
    if (hardware.name.empty()) return Error{"project: hardware has no name"};
    for (const std::string& name : searchModels)
        if (name.empty()) return Error{"project: search_models holds an empty name"};
    if (Status s = hardware::acceleratorParameters().validate(hardware.accelerator); !s.ok())
        return Error{"project: hardware: " + s.message()};
    if (Status s = hardware::clusterParameters().validate(hardware.cluster); !s.ok())
        return Error{"project: hardware: " + s.message()};
    if (Status s = hardware::trainingParameters().validate(training); !s.ok())
        return Error{"project: training: " + s.message()};
    if (Status s = search.validate(); !s.ok()) return Error{"project: " + s.message()};
    // Only a value cast from outside the enum fails: its name would not read back.
    if (auto kind = search::parseExplorerKind(search::toString(explorer)); !kind)
        return Error{"project: run.explorer: " + kind.message()};
    if (threads < 0 || threads > kMaxThreads)
        return Error{"project: run.threads = " + std::to_string(threads) +
                     " is out of range: must be an integer in [0, " + std::to_string(kMaxThreads) +
                     "] (0: one per core)"};
    return Status::success();
}

Status ProjectFile::save(const fs::path& path) const {
    if (Status s = validate(); !s.ok())
        return Error{"cannot save " + path.string() + ": " + s.message()};
    std::error_code ec;
    fs::path absolute = fs::absolute(path, ec);
    if (ec) absolute = path;
    std::string text;
    try {
        text = toJson(absolute.parent_path());
    } catch (const std::exception& e) {
        return Error{"cannot save " + path.string() + ": " + e.what()};
    }
    return writeFileAtomically(path, text);
}

}  // namespace tandem::core::io
