#pragma once
// How the model is trained: batch sizes, sequence length, activation recomputation and the
// optimizer whose state must fit in HBM. Defaults are PHAZE's (global batch 4,096).
#include <cstdint>
#include <string_view>

namespace tandem::core::hardware {

enum class Recompute { Off, On, Auto };
enum class Optimizer { Sgd, Adam };  // Adam = mixed-precision Adam, 16 bytes per parameter

std::string_view toString(Recompute r);
std::string_view toString(Optimizer o);
bool parseRecompute(std::string_view text, Recompute& out);
bool parseOptimizer(std::string_view text, Optimizer& out);

struct TrainingConfig {
    std::int64_t globalBatch = 4096;  // samples per iteration
    std::int64_t microbatch = 1;      // samples per microbatch
    std::int64_t sequenceLength = 0;  // tokens per sample; 0 = the model's default
    Recompute recompute = Recompute::Off;
    Optimizer optimizer = Optimizer::Sgd;
    bool operator==(const TrainingConfig&) const = default;
};

}  // namespace tandem::core::hardware
