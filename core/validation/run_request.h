#pragma once
// How a measured run becomes a placement request (ARCHITECTURE.md §1.12), in one place for the
// cached predictor (run_predictor.h) and for anyone evaluating a run directly:
// - the model is the zoo's megatron-gpt2-2.5b (a Megatron GPT) with the run's hidden size,
//   heads, layers, FFN = 4·hidden, its maximum sequence the run's, and the vocabulary padded
//   at the run's t (paddedVocab);
// - the hardware is the given one with cluster.devices = the run's GPUs (devices per node at
//   most that), and bytes per element the run's precision;
// - training: the run's global batch, microbatch, sequence, recompute, optimizer, sequence
//   parallelism and interleave; the strategy is (p, t, d);
// - a run whose microbatch is not given tries 1, 2, 4, … — the powers of two that divide the
//   per-replica batch (global batch / d) — and the fastest that fits wins (ties: the smaller).
#include <cstdint>
#include <vector>

#include "core/common/expected.h"
#include "core/hardware/hardware_point.h"
#include "core/model/model_source.h"
#include "core/model/transformer_spec.h"
#include "core/placement/model_placement.h"
#include "core/placement/strategy_evaluation.h"
#include "core/validation/measured_run.h"

namespace tandem::core::validation {

// The zoo's Megatron GPT (megatron-gpt2-2.5b), whose switches every run's model keeps.
Expected<model::TransformerSpec> megatronGptSpec();
// The GPT the run trains, at its t (the vocabulary padding depends on t); the second form
// starts from a megatronGptSpec() read once.
Expected<model::ModelSourcePtr> gptModelSource(const MeasuredRun& run);
Expected<model::ModelSourcePtr> gptModelSource(const MeasuredRun& run,
                                               const model::TransformerSpec& base);

hardware::HardwarePoint runHardware(const hardware::HardwarePoint& hardware,
                                    const MeasuredRun& run);
hardware::TrainingConfig runTraining(const MeasuredRun& run, std::int64_t microbatch);
placement::StrategySpec runStrategy(const MeasuredRun& run);
std::vector<std::int64_t> microbatchCandidates(const MeasuredRun& run);

// The whole request for one run at one microbatch, with a newly built model source.
Expected<placement::ModelPlacementRequest> runRequest(const MeasuredRun& run,
                                                      std::int64_t microbatch,
                                                      const hardware::HardwarePoint& hardware);

}  // namespace tandem::core::validation
