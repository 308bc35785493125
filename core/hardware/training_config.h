#pragma once
// How the model is trained: batch sizes, sequence length, activation recomputation and the
// optimizer whose state must fit in HBM. Defaults are PHAZE's (global batch 4,096) except the
// optimizer: Adam, as every large training run uses (PHAZE's DP input states its own).
#include <cstdint>
#include <string_view>

namespace tandem::core::hardware {

// Off: keep every activation. On: Megatron's full recomputation (keep each layer's input, rerun
// its forward in the backward pass). Auto: per pipeline stage, the cheapest setting that fits.
// Selective: Korthikanti et al.'s, rerun only the attention core (scores, softmax, dropout).
enum class Recompute { Off, On, Auto, Selective };
enum class Optimizer { Sgd, Adam };  // Adam = mixed-precision Adam, 16 bytes per parameter
// Megatron's sequence parallelism: off, on, or auto (the placement builds the model both ways
// and keeps the faster plan; core/placement/model_placement.h).
enum class SequenceParallel { Off, On, Auto };

std::string_view toString(Recompute r);
std::string_view toString(Optimizer o);
std::string_view toString(SequenceParallel s);
bool parseRecompute(std::string_view text, Recompute& out);
bool parseOptimizer(std::string_view text, Optimizer& out);
bool parseSequenceParallel(std::string_view text, SequenceParallel& out);

// The values of `interleave` and `zero` that leave them to the placement, which then chooses
// among Megatron-style strategies (core/placement/strategy_choice.h); "auto" on the CLI.
inline constexpr std::int64_t kInterleaveChosen = 0;
inline constexpr std::int64_t kZeroChosen = -1;

struct TrainingConfig {
    std::int64_t globalBatch = 4096;  // samples per iteration
    std::int64_t microbatch = 1;      // samples per microbatch
    std::int64_t sequenceLength = 0;  // tokens per sample; 0 = the model's default
    Recompute recompute = Recompute::Off;
    Optimizer optimizer = Optimizer::Adam;
    // Megatron's sequence parallelism: norms, dropout, bias and residual adds split over the
    // tensor-parallel group; all-reduces become reduce-scatter + all-gather. Auto: the
    // placement chooses.
    SequenceParallel sequenceParallel = SequenceParallel::Off;
    // Interleaved 1F1B: model chunks per pipeline device (1: plain 1F1B). The bubble shrinks
    // to (p − 1)/(V·m) of the ideal time; point-to-point traffic grows V-fold.
    // kInterleaveChosen: the placement chooses V (core/placement/strategy_choice.h).
    std::int64_t interleave = 1;
    // ZeRO (Rajbhandari et al. 2020) over the d data-parallel replicas: 0 none; 1 optimizer
    // state sharded (Megatron-Core's distributed optimizer); 2 gradients too; 3 parameters too
    // (DeepSpeed ZeRO-3, PyTorch FSDP). docs/cost-model.md, "ZeRO". kZeroChosen: the placement
    // chooses the stage.
    std::int64_t zero = 0;
    // FlashAttention (Dao et al. 2022; Megatron-Core with Transformer Engine): each attention
    // core is one fused kernel that keeps its score tiles on chip. docs/cost-model.md.
    bool flashAttention = false;
    // Overlap as Megatron-Core schedules it (docs/cost-model.md, "Overlap"): gradient buckets
    // reduced during the last microbatch's backward pass (--overlap-grad-reduce); updated
    // parameters gathered during the next forward pass (--overlap-param-gather, needs ZeRO ≥ 1);
    // tensor-parallel collectives pipelined with their GEMMs as Transformer Engine's userbuffers
    // do (--tp-comm-overlap, needs sequence parallelism).
    bool overlapGradReduce = false;
    bool overlapParamGather = false;
    bool tpCommOverlap = false;
    // Interleaved 1F1B's point-to-point transfers issued asynchronously and hidden behind the
    // neighbouring chunks' compute (Megatron-LM's default for interleaved schedules, which
    // --no-overlap-p2p-communication turns off; needs interleave ≥ 2 or auto).
    bool overlapP2pComm = false;
    // bf16 and fp8 training reduce the gradients in bf16 (Megatron-LM's --grad-reduce-in-bf16)
    // instead of Megatron's default fp32 gradient buffer (docs/cost-model.md, "Precision").
    bool gradReduceInBf16 = false;
    // A fixed Megatron-style strategy P,T,D for the placement (0, 0, 0: the search chooses).
    std::int64_t strategyPipeline = 0;
    std::int64_t strategyTensor = 0;
    std::int64_t strategyData = 0;
    bool operator==(const TrainingConfig&) const = default;
};

}  // namespace tandem::core::hardware
