#pragma once
// The JSON files under resources/ (hardware presets, model zoo), compiled into the library so the
// CLI and the GUI find them wherever they run. Paths are relative to resources/, e.g.
// "hardware/tpuv4-like.json".
#include <span>
#include <string_view>

namespace tandem::core {

struct EmbeddedFile {
    std::string_view path;
    std::string_view content;
};

std::span<const EmbeddedFile> embeddedResources();

}  // namespace tandem::core
