#pragma once
// Moves a whole configuration struct to and from the flat value list a ParameterEditor shows,
// through the registry's getters and setters, so the editors never name a struct field. Values
// are SI doubles in registry order (a choice as its index), exactly as the registry stores them.
#include <span>
#include <vector>

#include "core/hardware/parameter_registry.h"

namespace tandem::ui {

template <class Config>
std::vector<core::hardware::ParameterSpec> specsOf(
    const core::hardware::ParameterRegistry<Config>& registry) {
    std::vector<core::hardware::ParameterSpec> specs;
    for (const auto& p : registry.parameters()) specs.push_back(p.spec);
    return specs;
}

template <class Config>
std::vector<double> valuesOf(const core::hardware::ParameterRegistry<Config>& registry,
                             const Config& config) {
    std::vector<double> values;
    for (const auto& p : registry.parameters()) values.push_back(p.get(config));
    return values;
}

// Values must have passed each spec's check (ParameterEditor only keeps such values).
template <class Config>
Config configFrom(const core::hardware::ParameterRegistry<Config>& registry,
                  std::span<const double> values, Config config = {}) {
    const auto parameters = registry.parameters();
    for (std::size_t i = 0; i < parameters.size() && i < values.size(); ++i)
        parameters[i].set(config, values[i]);
    return config;
}

}  // namespace tandem::ui
