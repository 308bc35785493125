#include "core/hardware/preset_library.h"

#include <algorithm>
#include <system_error>

#include "core/common/embedded_resources.h"
#include "core/hardware/hardware_json.h"

namespace tandem::core::hardware {

namespace {

struct LoadedPreset {
    std::string resourcePath;
    Expected<HardwarePoint> point;
};

constexpr std::string_view kPrefix = "hardware/";

// Earlier preset names that keep working: the same description under the name asked for, so
// commands, project files and outputs that say "a100-like" read as before.
struct Alias {
    std::string_view name;
    std::string_view target;
};
constexpr Alias kAliases[] = {{"a100-like", "a100-80gb"}};

bool isHardwareResource(std::string_view path) {
    return path.substr(0, kPrefix.size()) == kPrefix && path.size() > 5 &&
           path.substr(path.size() - 5) == ".json";
}

// Parsed once; a broken built-in file keeps its error so preset() can report it.
const std::vector<LoadedPreset>& presets() {
    static const std::vector<LoadedPreset> loaded = [] {
        std::vector<LoadedPreset> result;
        for (const EmbeddedFile& file : embeddedResources()) {
            if (!isHardwareResource(file.path)) continue;
            const std::string source = "built-in resources/" + std::string(file.path);
            result.push_back({std::string(file.path), parseHardwareJson(file.content, source)});
        }
        std::sort(result.begin(), result.end(), [](const auto& a, const auto& b) {
            const std::string& x = a.point.ok() ? a.point->name : a.resourcePath;
            const std::string& y = b.point.ok() ? b.point->name : b.resourcePath;
            return x < y;
        });
        return result;
    }();
    return loaded;
}

// The name a preset is found by: its "name", or the file stem when the file did not parse.
std::string presetName(const LoadedPreset& preset) {
    if (preset.point.ok()) return preset.point->name;
    return std::filesystem::path(preset.resourcePath).stem().string();
}

// The preset called `name` (an alias: its target, renamed), or null.
const Expected<HardwarePoint>* findPreset(std::string_view name) {
    for (const LoadedPreset& preset : presets())
        if (presetName(preset) == name) return &preset.point;
    static const std::vector<Expected<HardwarePoint>> aliased = [] {
        std::vector<Expected<HardwarePoint>> points;
        for (const Alias& alias : kAliases) {
            Expected<HardwarePoint> point =
                Error{"the preset " + std::string(alias.target) + " that " +
                      std::string(alias.name) + " names is missing"};
            for (const LoadedPreset& preset : presets())
                if (presetName(preset) == alias.target && preset.point.ok()) {
                    HardwarePoint renamed = *preset.point;
                    renamed.name = std::string(alias.name);
                    renamed.description = "The " + std::string(alias.target) +
                                          " preset under its earlier name. " +
                                          preset.point->description;
                    point = std::move(renamed);
                }
            points.push_back(std::move(point));
        }
        return points;
    }();
    for (std::size_t i = 0; i < std::size(kAliases); ++i)
        if (kAliases[i].name == name) return &aliased[i];
    return nullptr;
}

}  // namespace

std::vector<PresetInfo> PresetLibrary::list() {
    std::vector<PresetInfo> result;
    for (const LoadedPreset& preset : presets())
        if (preset.point.ok()) result.push_back({preset.point->name, preset.point->description});
    for (const Alias& alias : kAliases)
        if (const auto* point = findPreset(alias.name); point && point->ok())
            result.push_back({(*point)->name, (*point)->description});
    std::sort(result.begin(), result.end(),
              [](const PresetInfo& a, const PresetInfo& b) { return a.name < b.name; });
    return result;
}

std::string PresetLibrary::nameList() {
    std::vector<std::string> all;
    for (const LoadedPreset& preset : presets()) all.push_back(presetName(preset));
    for (const Alias& alias : kAliases) all.emplace_back(alias.name);
    std::sort(all.begin(), all.end());
    std::string names;
    for (const std::string& name : all) {
        if (!names.empty()) names += ", ";
        names += name;
    }
    return names.empty() ? "none" : names;
}

Expected<HardwarePoint> PresetLibrary::preset(std::string_view name) {
    if (const auto* point = findPreset(name)) return *point;
    return Error{"unknown hardware preset '" + std::string(name) +
                 "'; available presets: " + nameList()};
}

Expected<HardwarePoint> PresetLibrary::resolveHardware(std::string_view nameOrPath) {
    if (nameOrPath.empty())
        return Error{"no hardware given: expected a preset name (" + nameList() +
                     ") or the path of a hardware JSON file"};
    const bool looksLikePath =
        nameOrPath.find('/') != std::string_view::npos ||
        (nameOrPath.size() > 5 && nameOrPath.substr(nameOrPath.size() - 5) == ".json");
    if (looksLikePath) return loadHardwareFile(std::filesystem::path(nameOrPath));
    if (const auto* point = findPreset(nameOrPath)) return *point;
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::path(nameOrPath), ec))
        return loadHardwareFile(std::filesystem::path(nameOrPath));
    return Error{"unknown hardware '" + std::string(nameOrPath) +
                 "': not a preset (available: " + nameList() + ") and no such file"};
}

}  // namespace tandem::core::hardware
