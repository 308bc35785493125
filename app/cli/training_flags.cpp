#include "app/cli/training_flags.h"

#include <optional>
#include <string>

#include "core/common/text_excerpt.h"

namespace tandem::cli {

namespace hw = tandem::core::hardware;

namespace {

// --interleave V|auto or --zero Z|auto: an integer in [min, max], or auto (`chosen`: the
// placement chooses); absent: `current` stays.
core::Expected<std::int64_t> integerOrAuto(const CliArguments& args, const std::string& name,
                                           std::int64_t current, std::int64_t min, std::int64_t max,
                                           std::int64_t chosen) {
    if (args.value(name) == std::optional<std::string>("auto")) return chosen;
    const auto value = args.integer(name, current, min, max);
    if (!value) return core::Error{value.message() + ", or auto (the placement chooses)"};
    return *value;
}

}  // namespace

std::vector<FlagSpec> trainingFlags() {
    std::vector<FlagSpec> flags;
    flags.push_back({"sequence-parallel", "",
                     "Megatron's sequence parallelism: norms, dropout and residuals split over "
                     "the tensor-parallel group (decoder transformers); =auto: the placement "
                     "tries it off and on and keeps the faster",
                     false, "auto"});
    const std::vector<FlagSpec> rest = {
        {"flash-attention", "",
         "each attention core as one fused kernel (FlashAttention, as Megatron-Core "
         "with Transformer Engine runs it)"},
        {"interleave", "V|auto",
         "interleaved 1F1B with V model chunks per device (default 1); auto: the "
         "placement chooses V among strategies of equal stages"},
        {"zero", "0|1|2|3|auto",
         "ZeRO over the D replicas: 1 shards the optimizer state (Megatron-Core's "
         "distributed optimizer), 2 the gradients too, 3 the parameters too "
         "(default 0); auto: the placement chooses"},
        {"overlap-grad-reduce", "",
         "reduce gradient buckets during the last microbatch's backward pass "
         "(Megatron-Core's --overlap-grad-reduce)"},
        {"overlap-param-gather", "",
         "gather updated parameters during the next forward pass (with --zero 1 or "
         "more; Megatron-Core's --overlap-param-gather)"},
        {"tp-comm-overlap", "",
         "pipeline tensor-parallel collectives with their GEMMs (with "
         "--sequence-parallel; Transformer Engine's userbuffers)"},
        {"overlap-p2p-comm", "",
         "hide interleaved 1F1B's point-to-point transfers behind the neighbouring chunks' "
         "compute (with --interleave V >= 2 or auto; Megatron-LM's default for interleaved "
         "schedules)"},
        {"grad-reduce-in-bf16", "",
         "with bf16 or fp8, accumulate and reduce gradients in bf16 instead of "
         "Megatron's default fp32 gradient buffer (Megatron's --grad-reduce-in-bf16)"},
        {"optimizer", "sgd|adam", "optimizer state accounting (default adam)"},
    };
    flags.insert(flags.end(), rest.begin(), rest.end());
    return flags;
}

core::Status applyTrainingFlags(const CliArguments& args, hw::TrainingConfig& training) {
    if (args.has("sequence-parallel")) {
        // --sequence-parallel, or --sequence-parallel=auto: the placement tries both.
        const std::string value = args.value("sequence-parallel").value_or("");
        if (value.empty())
            training.sequenceParallel = hw::SequenceParallel::On;
        else if (value == "auto")
            training.sequenceParallel = hw::SequenceParallel::Auto;
        else
            return core::Error{"--sequence-parallel=" + core::textExcerpt(value) +
                               ": the flag alone turns it on; =auto lets the placement choose"};
    }
    if (args.has("flash-attention")) training.flashAttention = true;
    const auto interleave =
        integerOrAuto(args, "interleave", training.interleave, 1, 1024, hw::kInterleaveChosen);
    if (!interleave) return interleave.error();
    training.interleave = *interleave;
    const auto zero = integerOrAuto(args, "zero", training.zero, 0, 3, hw::kZeroChosen);
    if (!zero) return zero.error();
    training.zero = *zero;
    if (args.has("overlap-grad-reduce")) training.overlapGradReduce = true;
    if (args.has("overlap-param-gather")) training.overlapParamGather = true;
    if (args.has("tp-comm-overlap")) training.tpCommOverlap = true;
    if (args.has("overlap-p2p-comm")) training.overlapP2pComm = true;
    if (args.has("grad-reduce-in-bf16")) training.gradReduceInBf16 = true;
    if (const auto o = args.value("optimizer"); o && !hw::parseOptimizer(*o, training.optimizer))
        return core::Error{"--optimizer = '" + core::textExcerpt(*o) +
                           "' is not one of: sgd, adam"};
    return core::Status::success();
}

}  // namespace tandem::cli
