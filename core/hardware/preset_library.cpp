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

}  // namespace

std::vector<PresetInfo> PresetLibrary::list() {
    std::vector<PresetInfo> result;
    for (const LoadedPreset& preset : presets())
        if (preset.point.ok()) result.push_back({preset.point->name, preset.point->description});
    return result;
}

std::string PresetLibrary::nameList() {
    std::string names;
    for (const LoadedPreset& preset : presets()) {
        if (!names.empty()) names += ", ";
        names += presetName(preset);
    }
    return names.empty() ? "none" : names;
}

Expected<HardwarePoint> PresetLibrary::preset(std::string_view name) {
    for (const LoadedPreset& preset : presets())
        if (presetName(preset) == name) return preset.point;
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
    for (const LoadedPreset& preset : presets())
        if (presetName(preset) == nameOrPath) return preset.point;
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::path(nameOrPath), ec))
        return loadHardwareFile(std::filesystem::path(nameOrPath));
    return Error{"unknown hardware '" + std::string(nameOrPath) +
                 "': not a preset (available: " + nameList() + ") and no such file"};
}

}  // namespace tandem::core::hardware
