#pragma once
// Measured training runs bundled with Tandem (resources/validation/*.json, with their sources)
// and the native cost model's prediction of each (`tandem-cli validate`). A run is a GPT model
// (heads, hidden, layers; vocabulary and sequence length shared by the set) trained with full
// recomputation and mixed-precision Adam under a fixed Megatron strategy (P, T, D) on the set's
// hardware preset. The microbatch is not published, so the prediction takes the fastest one
// that fits (1, 2, 4, … up to the per-replica batch), as a user tuning the run would. Achieved
// TFLOP/s per GPU follow the paper's formula F = 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) over the
// iteration time and the GPUs.
#include <cstdint>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/common/run_control.h"
#include "core/placement/strategy_evaluation.h"

namespace tandem::core::placement {

struct MeasuredRun {
    std::string name;
    std::int64_t heads = 0, hidden = 0, layers = 0;
    std::int64_t tensor = 1, pipeline = 1, gpus = 1, globalBatch = 1;
    double measuredTflopsPerGpu = 0;
};

struct MeasuredRunSet {
    std::string name, source, hardware;
    std::int64_t vocab = 0, sequence = 0;
    std::vector<MeasuredRun> runs;
};

struct RunPrediction {
    MeasuredRun run;
    bool fits = false;
    std::string reason;  // when nothing fits
    std::int64_t microbatch = 0;
    double timePerBatchSeconds = 0;
    double predictedTflopsPerGpu = 0;
    double error = 0;  // predicted / measured − 1
};

// The bundled set of that name ("megatron-a100").
Expected<MeasuredRunSet> measuredRunSet(const std::string& name);

// Megatron's FLOPs per iteration with full recomputation (the paper's 96 formula).
double megatronIterationFlops(const MeasuredRun& run, std::int64_t vocab, std::int64_t sequence);

Expected<std::vector<RunPrediction>> predictRuns(const MeasuredRunSet& set,
                                                 RunControl* control = nullptr);

}  // namespace tandem::core::placement
