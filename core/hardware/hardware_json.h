#pragma once
// Hardware and training configurations as JSON. A hardware file reads
//   {"format": "tandem-hardware", "version": 1, "name": "...", "description": "...",
//    "accelerator": {"numTensorCores": 8, ...}, "cluster": {"devices": 1024, ...}}
// "format" and "version" are required (they keep a model or project file from being read as
// hardware); "name" defaults to the file's stem and "description" to empty. Inside "accelerator"
// and "cluster", every key is a registry key (parameter_registry.h); a key that is not given
// takes its registry default, so a file may state only what differs from the TPUv4-like
// reference, while an unknown key is an error that lists the valid ones. Integer parameters
// accept any integral JSON number (34359738368 or 3.4359738368e10), choices their names.
// Every error names the source, the field, the value, the unit and the allowed range; values
// are never clamped. Only hardware_json.cpp includes <nlohmann/json.hpp>; the object-level API
// below (for project files that embed these sections) uses the forward declarations.
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/common/expected.h"
#include "core/hardware/hardware_point.h"
#include "core/hardware/training_config.h"

namespace tandem::core::hardware {

// `sourceName` prefixes every message (a path, or e.g. "preset tpuv4-like").
Expected<HardwarePoint> parseHardwareJson(std::string_view text, std::string_view sourceName);

// Missing files, directories, unreadable and empty files are errors naming the path.
Expected<HardwarePoint> loadHardwareFile(const std::filesystem::path& path);

// Pretty-printed, keys in registry order, ending with a newline. The point is not validated.
std::string toHardwareJson(const HardwarePoint& point);

// Validates, then writes atomically (temp file in the same directory, fsync, rename): on any
// failure the previous file is untouched and no temp file is left behind.
Status saveHardwareFile(const std::filesystem::path& path, const HardwarePoint& point);

// Training section, same conventions: {"globalBatch": 4096, ..., "recompute": "off"}.
std::string toTrainingJson(const TrainingConfig& training);
Expected<TrainingConfig> parseTrainingJson(std::string_view text, std::string_view sourceName);

// Object-level forms for documents that embed these sections. `context` prefixes messages, e.g.
// "project.tandem: hardware".
nlohmann::json hardwareToJsonObject(const HardwarePoint& point);
Expected<HardwarePoint> hardwareFromJsonObject(const nlohmann::json& object,
                                               std::string_view context,
                                               std::string_view defaultName = {});
nlohmann::json trainingToJsonObject(const TrainingConfig& training);
Expected<TrainingConfig> trainingFromJsonObject(const nlohmann::json& object,
                                                std::string_view context);

}  // namespace tandem::core::hardware
