#pragma once
// The building blocks of the parameter registries (parameter_registry.cpp and
// training_parameters.cpp): units, ranges and the spec constructors every field is made with.
// Internal to core/hardware.
#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/hardware/parameter_registry.h"

namespace tandem::core::hardware::registry_fields {

constexpr double kKiB = 1024.0;
constexpr double kMiB = 1024.0 * kKiB;
constexpr double kGiB = 1024.0 * kMiB;
constexpr double kTiB = 1024.0 * kGiB;
// Bandwidths up to 1 PB/s: three orders of magnitude above any link or HBM in use today, far
// enough below overflow that products with sizes stay finite.
constexpr double kMaxBandwidth = 1e15;
// And down to 1 MB/s, slower than any memory or network an accelerator has been built with: a
// bandwidth near zero (5e-324 B/s is a positive double) turns every latency into infinity.
constexpr double kMinBandwidth = 1e6;

inline ParameterSpec integer(std::string_view key, std::string_view label, std::string_view unit,
                             std::string_view group, std::string_view description,
                             double defaultValue, double minValue, double maxValue) {
    ParameterSpec spec;
    spec.key = key;
    spec.label = label;
    spec.unit = unit;
    spec.group = group;
    spec.description = description;
    spec.kind = ParameterKind::Integer;
    spec.defaultValue = defaultValue;
    spec.minValue = minValue;
    spec.maxValue = maxValue;
    return spec;
}

inline ParameterSpec real(std::string_view key, std::string_view label, std::string_view unit,
                          std::string_view group, std::string_view description, double defaultValue,
                          double minValue, double maxValue, bool minExclusive) {
    ParameterSpec spec =
        integer(key, label, unit, group, description, defaultValue, minValue, maxValue);
    spec.kind = ParameterKind::Real;
    spec.minExclusive = minExclusive;
    return spec;
}

inline ParameterSpec searchedOnPowersOfTwo(ParameterSpec spec) {
    spec.searchPowerOfTwo = true;
    return spec;
}

inline ParameterSpec withDefault(double value, ParameterSpec spec) {
    spec.defaultValue = value;
    return spec;
}

// The operator estimates that read the field (ParameterSpec::costUse): operator_estimator.cpp's
// gemmCost, vectorCost and collectiveCost.
inline ParameterSpec costOf(std::uint8_t use, ParameterSpec spec) {
    spec.costUse = use;
    return spec;
}

inline ParameterSpec advanced(ParameterSpec spec) {
    spec.advanced = true;
    return spec;
}

// A fraction of an ideal rate: 1 is PHAZE's ideal, below 1 % is a typo (and would turn
// latencies into near-infinities).
inline ParameterSpec efficiency(std::string_view key, std::string_view label,
                                std::string_view group, std::string_view description,
                                double defaultValue = 1.0) {
    return advanced(
        real(key, label, "fraction", group, description, defaultValue, 0.01, 1.0, false));
}

// An energy parameter (core/energy): advanced, in the Energy group, from 0 to maxValue, read by
// no operator's cost.
inline ParameterSpec energy(std::string_view key, std::string_view label, std::string_view unit,
                            std::string_view description, double defaultValue, double maxValue) {
    return advanced(
        real(key, label, unit, "Energy", description, defaultValue, 0, maxValue, false));
}

inline ParameterSpec choiceIn(std::string_view group, std::string_view key, std::string_view label,
                              std::string_view description, std::vector<std::string_view> names,
                              int defaultIndex = 0) {
    ParameterSpec spec =
        integer(key, label, "", group, description, defaultIndex, 0, double(names.size()) - 1);
    spec.kind = ParameterKind::Choice;
    spec.choices = std::move(names);
    return spec;
}

}  // namespace tandem::core::hardware::registry_fields
