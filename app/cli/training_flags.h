#pragma once
// The training flags `place` and `search` share: sequence parallelism, FlashAttention, the
// interleaving V, the ZeRO stage, the three overlaps and the optimizer. Each changes its field
// only when given, so that a project's training (search --project) keeps what no flag names.
#include <vector>

#include "app/cli/cli_arguments.h"
#include "core/common/expected.h"
#include "core/hardware/training_config.h"

namespace tandem::cli {

// The training flags place and search share (--sequence-parallel[=auto], --interleave, --zero,
// the overlaps, --optimizer, …); with auto, each point chooses.
std::vector<FlagSpec> trainingFlags();

// Applies the flags given to `training`; errors name the flag and what it takes. The result is
// not validated as a whole (the caller does, with the rest of its fields).
core::Status applyTrainingFlags(const CliArguments& args, core::hardware::TrainingConfig& training);

}  // namespace tandem::cli
