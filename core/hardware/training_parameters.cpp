#include "core/hardware/registry_fields.h"

namespace tandem::core::hardware {

using namespace registry_fields;

namespace {

Status checkTraining(const TrainingConfig& training, std::string_view section) {
    const std::string s(section);
    if (training.tpCommOverlap && training.sequenceParallel == SequenceParallel::Off)
        return Error{
            s + ".tpCommOverlap = on needs " + s +
            ".sequenceParallel = on (or auto): Transformer Engine overlaps the all-gathers and "
            "reduce-scatters of sequence parallelism with their GEMMs (Megatron-Core "
            "refuses --tp-comm-overlap without --sequence-parallel)"};
    if (training.overlapParamGather && training.zero == 0)
        return Error{
            s + ".overlapParamGather = on needs " + s +
            ".zero >= 1 (or auto): only a sharded optimizer gathers its updated parameters "
            "(Megatron-Core's --overlap-param-gather needs --use-distributed-optimizer)"};
    if (training.overlapP2pComm && training.interleave == 1)
        return Error{s + ".overlapP2pComm = on needs " + s +
                     ".interleave >= 2 (or auto): only the interleaved schedule overlaps its "
                     "point-to-point transfers (Megatron-LM turns the overlap off for plain "
                     "1F1B)"};
    const int fixed = (training.strategyPipeline > 0) + (training.strategyTensor > 0) +
                      (training.strategyData > 0);
    if (fixed != 0 && fixed != 3)
        return Error{s + ".strategyPipeline, " + s + ".strategyTensor and " + s +
                     ".strategyData fix a strategy P,T,D together: set all three (each >= 1), or "
                     "all three to 0 to let the placement search choose"};
    if (training.microbatch > training.globalBatch)
        return Error{std::string(section) + ".microbatch = " + std::to_string(training.microbatch) +
                     " is larger than " + std::string(section) +
                     ".globalBatch = " + std::to_string(training.globalBatch) +
                     ": must be an integer in [1, globalBatch] (samples)"};
    if (training.globalBatch % training.microbatch != 0)
        return Error{s + ".globalBatch = " + std::to_string(training.globalBatch) +
                     " is not a multiple of " + s +
                     ".microbatch = " + std::to_string(training.microbatch) +
                     ": a batch splits into whole microbatches (Megatron requires it); use a "
                     "multiple of the microbatch, or a microbatch that divides the global batch"};
    return Status::success();
}

ParameterSpec choice(std::string_view key, std::string_view label, std::string_view description,
                     std::vector<std::string_view> names, int defaultIndex = 0) {
    return choiceIn("Training", key, label, description, std::move(names), defaultIndex);
}

ParameterRegistry<TrainingConfig> makeTrainingRegistry() {
    using T = TrainingConfig;
    const double maxBatch = double(1 << 24);
    return ParameterRegistry<T>(
        "training",
        {
            field<&T::globalBatch>(integer("globalBatch", "Global batch", "samples", "Training",
                                           "Samples per training iteration over all replicas.",
                                           4096, 1, maxBatch)),
            field<&T::microbatch>(integer(
                "microbatch", "Microbatch", "samples", "Training",
                "Samples per microbatch flowing through the pipeline; at most the global batch.", 1,
                1, maxBatch)),
            field<&T::sequenceLength>(
                integer("sequenceLength", "Sequence length", "tokens", "Training",
                        "Tokens per sample; 0 takes the model's own default.", 0, 0, 1 << 20)),
            field<&T::recompute>(choice(
                "recompute", "Recompute activations",
                "Recompute activations in the backward pass instead of storing them: off; on "
                "(Megatron's full recomputation: keep each layer's input, rerun its forward); "
                "selective (rerun only attention scores, softmax and dropout); auto (per "
                "pipeline stage, the fastest of off, selective and on that fits).",
                {toString(Recompute::Off), toString(Recompute::On), toString(Recompute::Auto),
                 toString(Recompute::Selective)})),
            field<&T::optimizer>(
                choice("optimizer", "Optimizer",
                       "Optimizer state kept in HBM: sgd (weights + gradients) or adam "
                       "(mixed-precision Adam, 16 bytes per parameter; the default, as every "
                       "large training run uses it).",
                       {toString(Optimizer::Sgd), toString(Optimizer::Adam)}, 1)),
            field<&T::sequenceParallel>(choice(
                "sequenceParallel", "Sequence parallelism",
                "Megatron's sequence parallelism (Korthikanti et al. 2022): norms, dropout, bias "
                "and residual adds work on 1/t of the tokens and keep 1/t of their activations; "
                "each all-reduce becomes a reduce-scatter and an all-gather. Decoder "
                "transformers only. Auto: the placement tries both and keeps the faster.",
                {toString(SequenceParallel::Off), toString(SequenceParallel::On),
                 toString(SequenceParallel::Auto)})),
            field<&T::interleave>(advanced(integer(
                "interleave", "Interleaved stages", "chunks", "Training",
                "Interleaved 1F1B (Narayanan et al. 2021): model chunks per pipeline device. "
                "The pipeline bubble shrinks V-fold, point-to-point traffic grows V-fold (hidden "
                "behind compute with overlapP2pComm); 1 is "
                "plain 1F1B; 0 (auto): the placement chooses V among Megatron-style strategies "
                "of equal stages. A design-space search needs 1.",
                1, 0, 1024))),
            field<&T::zero>(advanced(integer(
                "zero", "ZeRO stage", "stage", "Training",
                "Shard over the data-parallel replicas (Rajbhandari et al. 2020): 0 nothing; 1 "
                "the optimizer state (Megatron-Core's distributed optimizer); 2 the gradients "
                "too, reduce-scattered every microbatch; 3 the parameters too, gathered layer "
                "by layer in every forward and backward pass (DeepSpeed ZeRO-3, FSDP); -1 "
                "(auto): the placement chooses the stage. A design-space search needs 0.",
                0, -1, 3))),
            field<&T::flashAttention>(choice(
                "flashAttention", "FlashAttention",
                "Each attention core (scores, mask, softmax, dropout, context) as one fused "
                "kernel that keeps its score tiles on chip (Dao et al. 2022; Megatron-Core with "
                "Transformer Engine): no s²-sized tensors in HBM or memory, a causal decoder "
                "skips its masked half. Off: the separate kernels of 2021-era Megatron-LM.",
                {"off", "on"})),
            field<&T::overlapGradReduce>(choice(
                "overlapGradReduce", "Overlap gradient reduce",
                "Reduce the gradients in buckets during the last microbatch's backward pass, as "
                "Megatron-Core's --overlap-grad-reduce does; off: after the backward pass.",
                {"off", "on"})),
            field<&T::overlapParamGather>(choice(
                "overlapParamGather", "Overlap parameter gather",
                "Gather the updated parameter shards in buckets during the next forward pass "
                "(Megatron-Core's --overlap-param-gather; needs ZeRO 1 or more).",
                {"off", "on"})),
            field<&T::tpCommOverlap>(choice(
                "tpCommOverlap", "Overlap tensor-parallel comm",
                "Pipeline each tensor-parallel all-gather and reduce-scatter with its GEMM in "
                "chunks, as Transformer Engine's userbuffers do (Megatron-Core's "
                "--tp-comm-overlap; needs sequence parallelism).",
                {"off", "on"})),
            field<&T::overlapP2pComm>(advanced(choice(
                "overlapP2pComm", "Overlap pipeline transfers",
                "Issue the interleaved schedule's point-to-point transfers asynchronously and "
                "hide them behind the neighbouring chunks' compute, as Megatron-LM does by "
                "default for interleaved 1F1B (off: --no-overlap-p2p-communication, or "
                "2021-era Megatron-LM). Needs interleave >= 2 or auto.",
                {"off", "on"}))),
            field<&T::gradReduceInBf16>(advanced(choice(
                "gradReduceInBf16", "Reduce gradients in bf16",
                "With bf16 or fp8 GEMMs, accumulate and reduce the gradients in bf16 (Megatron's "
                "--grad-reduce-in-bf16). Off: Megatron's default for bf16, an fp32 gradient "
                "buffer (4 bytes per parameter held and reduced) under ZeRO 0 and 1. fp16 "
                "training and ZeRO 2 and 3 keep 2-byte gradients either way.",
                {"off", "on"}))),
            field<&T::strategyPipeline>(integer(
                "strategyPipeline", "Strategy: stages P", "stages", "Training",
                "A fixed Megatron-style strategy P,T,D instead of the placement search (as "
                "tandem-cli place --strategy P,T,D): P pipeline stages of equal layer counts, "
                "or, when P does not divide the layers, of one layer more or less with the "
                "lighter ones at the ends (as BLOOM-176B and Llama 3 405B were trained). 0 in "
                "all three: the search chooses.",
                0, 0, double(1 << 20))),
            field<&T::strategyTensor>(integer(
                "strategyTensor", "Strategy: tensor-parallel T", "devices", "Training",
                "A fixed strategy's T-way tensor parallelism (a width the model can be split "
                "into). 0 in all three: the search chooses.",
                0, 0, double(1 << 20))),
            field<&T::strategyData>(integer(
                "strategyData", "Strategy: replicas D", "replicas", "Training",
                "A fixed strategy's D data-parallel replicas; P·T·D devices in all. 0 in all "
                "three: the search chooses.",
                0, 0, double(1 << 20))),
        },
        &checkTraining);
}

}  // namespace

const ParameterRegistry<TrainingConfig>& trainingParameters() {
    static const ParameterRegistry<TrainingConfig> registry = makeTrainingRegistry();
    return registry;
}

}  // namespace tandem::core::hardware
