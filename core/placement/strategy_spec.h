#pragma once
// A Megatron-style strategy P,T,D as a user fixes it (`tandem-cli place --strategy P,T,D`, or the
// training fields strategyPipeline, strategyTensor and strategyData of a set-up): P pipeline
// stages of equal layer counts, T-way tensor parallelism, D data-parallel replicas.
#include <cstdint>
#include <optional>
#include <string>

#include "core/hardware/training_config.h"

namespace tandem::core::placement {

struct StrategySpec {
    std::int64_t pipeline = 1;  // P
    std::int64_t tensor = 1;    // T
    std::int64_t data = 1;      // D
};

// "P,T,D" as the CLI's --strategy takes it: "8,8,16".
inline std::string strategyText(const StrategySpec& s) {
    return std::to_string(s.pipeline) + "," + std::to_string(s.tensor) + "," +
           std::to_string(s.data);
}

// The strategy a training configuration fixes; nullopt when its three strategy fields are 0
// (the placement search chooses). The registry's check refuses a partly set strategy.
inline std::optional<StrategySpec> fixedStrategyIn(const hardware::TrainingConfig& training) {
    if (training.strategyPipeline <= 0 || training.strategyTensor <= 0 ||
        training.strategyData <= 0)
        return std::nullopt;
    return StrategySpec{training.strategyPipeline, training.strategyTensor, training.strategyData};
}

}  // namespace tandem::core::placement
