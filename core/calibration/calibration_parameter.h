#pragma once
// The hardware parameters a calibration may fit (ARCHITECTURE.md §1.13, docs/cost-model.md
// "Calibrating to your cluster"), each named by its registry key with its section
// ("accelerator.tensorCoreEfficiency") and given *physical* bounds: the values a real chip or
// cluster can have, narrower than the registry's validation range (an efficiency of 0.01 is a
// valid description but no GEMM on a working GPU runs at 1 % of peak). A fit never leaves
// these bounds, and a starting value outside them is an error, not clamped.
// The table lists every parameter the cost model has had or is getting; only those the
// parameter registry of this build knows are available, so a parameter joins calibration
// when its registry entry appears. Values are read and written through the registry by key
// (generic getters and setters), never by field access; units are the registry's, SI.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"
#include "core/hardware/hardware_point.h"
#include "core/hardware/parameter_spec.h"

namespace tandem::core::calibration {

struct CalibrationParameter {
    std::string_view key;  // "accelerator.tensorCoreEfficiency"
    double lower = 0;      // physical bounds, inclusive, in the registry's SI unit
    double upper = 0;
    std::string_view why;  // where the bounds come from, one sentence
    bool operator==(const CalibrationParameter& other) const { return key == other.key; }
};

// Every parameter of the table, whether or not this build's registry has it.
std::span<const CalibrationParameter> calibrationTable();
// The table's parameters this build's registry knows, in table order.
std::vector<CalibrationParameter> availableCalibrationParameters();
// "accelerator.tensorCoreEfficiency, accelerator.hbmEfficiency, …" (the available ones).
std::string calibrationKeyList();

// By full key ("cluster.hopLatencySeconds") or the key alone ("hopLatencySeconds"). Errors: an
// unknown key, or one of the table this build's registry does not have, listing the available.
Expected<CalibrationParameter> findCalibrationParameter(std::string_view key);

// The registry record of a parameter (label, unit, kind); null only for a parameter that is
// not available (findCalibrationParameter never returns one).
const hardware::ParameterSpec* registrySpec(const CalibrationParameter& parameter);
// The parameter's value in `point`, through the registry.
double parameterValue(const hardware::HardwarePoint& point, const CalibrationParameter& parameter);
// Stores `value` (rounded for an integer parameter) after the registry's check; the error
// names the key and the allowed range.
Status setParameterValue(hardware::HardwarePoint& point, const CalibrationParameter& parameter,
                         double value);

// One value as people read it: "0.800", "2.00 µs", "400 cycles" (units.h formatters).
std::string formatParameterValue(const CalibrationParameter& parameter, double value);

}  // namespace tandem::core::calibration
