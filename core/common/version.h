// The one version number of Tandem: CMake's project version, compiled into version.cpp. The CLI
// prints it for `tandem-cli --version`, the app for --version and in Help ▸ About.
#pragma once

#include <string_view>

namespace tandem::core {

// "MAJOR.MINOR.PATCH", as in the top-level CMakeLists.txt's project() call.
std::string_view version();

}  // namespace tandem::core
