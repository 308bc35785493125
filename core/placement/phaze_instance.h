#pragma once
// PHAZE's device-placement input and output files (PHAZE's public code). parse turns an input
// JSON into a PlacementProblem (times in ms and bandwidth in bytes/ms, as in the file: the
// phaze-compat model is unit-agnostic, so finalTimePerBatch comes out in ms like PHAZE's) plus the
// fixed baseline, applying PHAZE's validation rules as clear errors that name the key, the value
// and the allowed range — also where PHAZE itself aborts (a missing key, a wrong type). A fixed
// width that is not in the file is not an error: the baseline then reports that it does not fit.
// solve runs the exact solver and the baseline under phaze-compat; format writes PHAZE's output
// keys (alphabetical, 4-space indent) plus solve_seconds, with empty stages and null values when
// nothing fits, and fixedStrategyTimePerBatch null plus fixedStrategyError when the baseline fails.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/placement/fixed_strategy.h"
#include "core/placement/placement_problem.h"
#include "core/placement/placement_solver.h"

namespace tandem::core::placement {

struct PhazeInstance {
    PlacementProblem problem;
    FixedStrategy fixed;                // fixedPP, fixedTMPC, fixedDP, numTransformerLayers
    std::vector<std::int64_t> nodeIds;  // PHAZE id of each layer index
};

struct PhazeOutput {
    PlacementResult placement;
    FixedStrategyResult fixed;
    double solveSeconds = 0;
};

// `source` names the input in messages (usually the file path).
Expected<PhazeInstance> parsePhazeInstance(const std::string& jsonText, const std::string& source);
Expected<PhazeInstance> loadPhazeInstance(const std::string& path);

Expected<PhazeOutput> solvePhazeInstance(const PhazeInstance& instance,
                                         RunControl* control = nullptr);

std::string formatPhazeOutput(const PhazeInstance& instance, const PhazeOutput& output);

}  // namespace tandem::core::placement
