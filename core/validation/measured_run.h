#pragma once
// One measured training run (ARCHITECTURE.md §1.12): a GPT trained Megatron-style with a given
// strategy on a number of GPUs, and what was measured — the iteration time, and for runs
// published as achieved TFLOP/s per GPU (Narayanan et al. 2021) that figure as well. A GPT here
// is Megatron's: pre-LN decoder, FFN = 4 × hidden, GeLU, learned positions, tied embeddings,
// biases and dropout; its vocabulary is padded as Megatron pads it, to a multiple of
// vocabPadding × t (--make-vocab-size-divisible-by, 128 by default; 1 = unpadded).
// validateMeasuredRun() is the one place that says what a run may hold; readers prefix its
// message with the file and line. Units are SI (seconds); sizes are counts.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/expected.h"
#include "core/hardware/accelerator_config.h"
#include "core/hardware/training_config.h"

namespace tandem::core::validation {

struct GptShape {
    std::int64_t hidden = 0;
    std::int64_t heads = 0;
    std::int64_t layers = 0;
    std::int64_t sequence = 0;      // tokens per sample
    std::int64_t vocab = 0;         // the tokenizer's vocabulary, before padding
    std::int64_t vocabPadding = 1;  // pad to a multiple of vocabPadding × t
    bool tiedEmbeddings = true;     // the logits reuse the token embedding (Megatron's default)
    bool operator==(const GptShape&) const = default;
};

// The vocabulary the model is built with at tensor-parallel width t.
std::int64_t paddedVocab(const GptShape& shape, std::int64_t t);

struct MeasuredRun {
    std::string name;  // "GPT 1.7B", or "runs.csv:12" for a row of a file
    GptShape model;
    std::int64_t gpus = 1;
    std::int64_t tensor = 1;    // t
    std::int64_t pipeline = 1;  // p
    std::int64_t data = 1;      // d; t·p·d = gpus
    std::int64_t globalBatch = 1;
    std::int64_t microbatch = 0;  // 0: not published, the fastest that fits is taken
    hardware::Recompute recompute =
        hardware::Recompute::On;  // off, on, selective, or auto (per stage, the fastest that fits:
                                  // not published)
    bool sequenceParallel = false;
    std::int64_t interleave = 1;  // model chunks per device (interleaved 1F1B when > 1)
    std::int64_t zero = 0;        // ZeRO stage over d (1: Megatron's distributed optimizer)
    bool flashAttention = false;  // fused attention kernels (FlashAttention)
    // Megatron-Core's --overlap-grad-reduce, --overlap-param-gather, --tp-comm-overlap.
    bool overlapGradReduce = false;
    bool overlapParamGather = false;
    bool tpCommOverlap = false;
    bool overlapP2pComm = false;    // Megatron-LM's overlap_p2p_comm (interleaved 1F1B only)
    bool gradReduceInBf16 = false;  // Megatron's --grad-reduce-in-bf16 (bf16 and fp8 only)
    hardware::Optimizer optimizer = hardware::Optimizer::Adam;
    std::int64_t bytesPerElement = 2;  // fp16 / bf16 / fp8 (fp8 GEMMs, bf16 elsewhere)
    // The GEMMs' format when the run names one (the hardware's own when not, or for fp32).
    std::optional<hardware::Precision> precision;
    double measuredSeconds = 0;       // iteration time
    double measuredTflopsPerGpu = 0;  // as published, when the source gives it; else 0
};

// The limits validateMeasuredRun() keeps (absurd values are input errors, not runs).
inline constexpr std::int64_t kMaxRunGpus = 1 << 20;
inline constexpr std::int64_t kMaxRunHidden = 1 << 20;
inline constexpr std::int64_t kMaxRunLayers = 4096;
inline constexpr std::int64_t kMaxRunSequence = 1 << 20;
inline constexpr std::int64_t kMaxRunVocab = 1 << 24;
inline constexpr std::int64_t kMaxRunBatch = 1 << 24;
inline constexpr double kMinRunSeconds = 1e-6;
inline constexpr double kMaxRunSeconds = 1e6;

// Empty when the run can be predicted, else what is wrong and what is allowed (no location:
// the caller names the file and line). Checks ranges, t·p·d = gpus, heads dividing hidden, t
// dividing heads, p dividing layers, the global batch a multiple of d (and of microbatch × d
// when the microbatch is given), interleaving (V ≥ 2 needs p ≥ 2 and V·p dividing layers),
// sequence parallelism's t dividing the sequence, a ZeRO stage of 0 to 3, 1, 2, 4 or 8 bytes per
// element, and an iteration time from kMinRunSeconds to kMaxRunSeconds.
Status validateMeasuredRun(const MeasuredRun& run);

// Megatron's FLOPs per iteration with full recomputation (Narayanan et al. 2021, eq. 3):
// 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)), V the padded vocabulary at the run's t.
double megatronIterationFlops(const MeasuredRun& run);
// The achieved TFLOP/s per GPU that formula gives for an iteration time.
double tflopsPerGpu(const MeasuredRun& run, double iterationSeconds);
// The iteration time that gives `tflops` per GPU (how a published TFLOP/s figure is measured).
double secondsForTflops(const MeasuredRun& run, double tflops);

// Precision names, case-insensitive: "fp16", "bf16" (2 bytes, that GEMM format), "fp8" (as
// Transformer Engine runs it: fp8 GEMMs, 2 bytes elsewhere), "fp32" (4), "fp64" (8), or the
// bytes per element themselves ("2", "4", "8"; "1" is fp8). false for anything else.
bool parsePrecision(std::string_view text, std::int64_t& bytesPerElement,
                    std::optional<hardware::Precision>& precision);

}  // namespace tandem::core::validation
