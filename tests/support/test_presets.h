#pragma once
// A bundled hardware preset for a test, or the test stops with the library's message: the
// presets ship with Tandem, so one that does not load is a broken build, not a test outcome.
#include <QtGlobal>
#include <string>

#include "core/hardware/preset_library.h"

namespace tandem::test {

inline core::hardware::HardwarePoint presetOrDie(const std::string& name) {
    auto hw = core::hardware::PresetLibrary::preset(name);
    if (!hw) qFatal("%s", hw.message().c_str());
    return *hw;
}

}  // namespace tandem::test
