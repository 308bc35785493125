#pragma once
// The built-in hardware presets. Each is a hardware JSON file under resources/hardware/ that is
// compiled into the library (core/common/embedded_resources.h), so users can read and copy the
// very file the program uses, and the CLI works from any directory. Presets are parsed once, on
// first use, with the same validation as user files; the name of a preset is its "name" field.
// resolveHardware() is what `--hardware H` means: a preset name, or else the path of a hardware
// JSON file.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"
#include "core/hardware/hardware_point.h"

namespace tandem::core::hardware {

struct PresetInfo {
    std::string name;
    std::string description;
};

class PresetLibrary {
public:
    // Every valid built-in preset, sorted by name.
    static std::vector<PresetInfo> list();

    // "a100-40gb, a100-80gb, a100-like, …" (aliases included) for messages and help.
    static std::string nameList();

    // An unknown name is an error listing the available names.
    static Expected<HardwarePoint> preset(std::string_view name);

    // A preset name, or a path to a hardware JSON file. Text containing a path separator or
    // ending in ".json" is always a path; otherwise a preset name wins over a file of that name
    // in the current directory.
    static Expected<HardwarePoint> resolveHardware(std::string_view nameOrPath);
};

}  // namespace tandem::core::hardware
