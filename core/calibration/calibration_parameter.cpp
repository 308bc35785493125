#include "core/calibration/calibration_parameter.h"

#include <array>
#include <cmath>

#include "core/common/units.h"
#include "core/hardware/parameter_registry.h"

namespace tandem::core::calibration {

namespace {

// Bounds: docs/cost-model.md gives each parameter's measured range; these are wider than
// those ranges (a fit may find a cluster unlike a DGX) but exclude what no working machine does.
constexpr std::array kTable{
    CalibrationParameter{"accelerator.tensorCoreEfficiency", 0.3, 1.0,
                         "large GEMMs sustain 70–85 % of an A100's tensor-core peak; below 30 % "
                         "a GEMM would be slower than on its CUDA cores"},
    CalibrationParameter{"accelerator.hbmEfficiency", 0.3, 1.0,
                         "memory-bound kernels reach 60–90 % of HBM bandwidth; below 30 % is a "
                         "broken kernel, not a property of the chip"},
    CalibrationParameter{"accelerator.operatorOverheadSeconds", 0.0, 20e-6,
                         "kernel launch gaps are 1–3 µs in profiler traces; 20 µs is a "
                         "synchronising kernel on every operator"},
    CalibrationParameter{"accelerator.hostOverheadSeconds", 0.0, 200e-6,
                         "the framework's per-operator host time; 200 µs is a Python-bound "
                         "training loop"},
    CalibrationParameter{"accelerator.tensorCoreTileOverheadCycles", 0.0, 4000.0,
                         "prologue and epilogue cycles of one GEMM tile; 4,000 is longer than "
                         "a whole 128-deep tile"},
    CalibrationParameter{"cluster.collectiveEfficiency", 0.2, 1.0,
                         "NCCL reaches about 75 % of NVLink and InfiniBand rates; below 20 % "
                         "is a misconfigured network"},
    CalibrationParameter{"cluster.hopLatencySeconds", 0.0, 50e-6,
                         "one ring step costs a few µs on NVLink and InfiniBand; 50 µs is "
                         "TCP over Ethernet"},
    CalibrationParameter{"cluster.collectiveLatencySeconds", 0.0, 100e-6,
                         "the fixed start-up of one NCCL collective is 10–30 µs; 100 µs is a "
                         "collective launched from the host and synchronised"},
    CalibrationParameter{"cluster.dataParallelOverlap", 0.0, 1.0,
                         "the share of the gradient all-reduce hidden behind the backward pass "
                         "is a fraction by definition"},
};

std::string_view sectionOf(std::string_view key) {
    const auto dot = key.find('.');
    return dot == std::string_view::npos ? std::string_view{} : key.substr(0, dot);
}

std::string_view nameOf(std::string_view key) {
    const auto dot = key.find('.');
    return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

// Calls f(registry) for the registry of the key's section; false for another section.
template <class F>
bool withRegistry(std::string_view section, F&& f) {
    if (section == hardware::acceleratorParameters().section()) {
        f(hardware::acceleratorParameters(), &hardware::HardwarePoint::accelerator);
        return true;
    }
    if (section == hardware::clusterParameters().section()) {
        f(hardware::clusterParameters(), &hardware::HardwarePoint::cluster);
        return true;
    }
    return false;
}

}  // namespace

std::span<const CalibrationParameter> calibrationTable() {
    return kTable;
}

const hardware::ParameterSpec* registrySpec(const CalibrationParameter& parameter) {
    const hardware::ParameterSpec* spec = nullptr;
    withRegistry(sectionOf(parameter.key), [&](const auto& registry, auto) {
        if (const auto* p = registry.find(nameOf(parameter.key))) spec = &p->spec;
    });
    return spec;
}

std::vector<CalibrationParameter> availableCalibrationParameters() {
    std::vector<CalibrationParameter> out;
    for (const CalibrationParameter& p : kTable)
        if (registrySpec(p)) out.push_back(p);
    return out;
}

std::string calibrationKeyList() {
    std::string list;
    for (const CalibrationParameter& p : availableCalibrationParameters())
        list += (list.empty() ? "" : ", ") + std::string(p.key);
    return list;
}

Expected<CalibrationParameter> findCalibrationParameter(std::string_view key) {
    for (const CalibrationParameter& p : kTable) {
        if (p.key != key && nameOf(p.key) != key) continue;
        if (!registrySpec(p))
            return Error{"'" + std::string(key) +
                         "' is not a parameter of this build's cost model; calibratable "
                         "parameters: " +
                         calibrationKeyList()};
        return p;
    }
    return Error{"'" + std::string(key) +
                 "' is not a calibratable parameter; use one of: " + calibrationKeyList()};
}

double parameterValue(const hardware::HardwarePoint& point, const CalibrationParameter& parameter) {
    double value = 0;
    withRegistry(sectionOf(parameter.key), [&](const auto& registry, auto member) {
        if (const auto* p = registry.find(nameOf(parameter.key))) value = p->get(point.*member);
    });
    return value;
}

Status setParameterValue(hardware::HardwarePoint& point, const CalibrationParameter& parameter,
                         double value) {
    Status status = Error{"'" + std::string(parameter.key) + "' is not in the parameter registry"};
    withRegistry(sectionOf(parameter.key), [&](const auto& registry, auto member) {
        const auto* p = registry.find(nameOf(parameter.key));
        if (!p) return;
        const double stored =
            p->spec.kind == hardware::ParameterKind::Real ? value : std::round(value);
        status = registry.assign(point.*member, *p, stored);
    });
    return status;
}

std::string formatParameterValue(const CalibrationParameter& parameter, double value) {
    const hardware::ParameterSpec* spec = registrySpec(parameter);
    if (spec && spec->unit == "s") return formatSeconds(value);
    if (spec && spec->kind != hardware::ParameterKind::Real) {
        const std::string unit(spec->unit);
        return formatFixed(value, 0) + (unit.empty() ? "" : " " + unit);
    }
    return formatFixed(value, 3);
}

}  // namespace tandem::core::calibration
