#include "core/validation/run_request.h"

#include "core/model/model_zoo.h"
#include "core/model/transformer_source.h"

namespace tandem::core::validation {

Expected<model::TransformerSpec> megatronGptSpec() {
    // A GPT as Megatron-LM trains it: the zoo's Megatron GPT-2, given each run's dimensions.
    auto base = model::zooModel("megatron-gpt2-2.5b");
    if (!base) return base.error();
    const auto* transformer = dynamic_cast<const model::TransformerSource*>(&(*base)->underlying());
    if (!transformer) return Error{"megatron-gpt2-2.5b is not a transformer"};
    return transformer->spec();
}

Expected<model::ModelSourcePtr> gptModelSource(const MeasuredRun& run) {
    auto base = megatronGptSpec();
    if (!base) return base.error();
    return gptModelSource(run, *base);
}

Expected<model::ModelSourcePtr> gptModelSource(const MeasuredRun& run,
                                               const model::TransformerSpec& base) {
    const GptShape& m = run.model;
    model::TransformerSpec spec = base;
    spec.layers = m.layers;
    spec.hidden = m.hidden;
    spec.heads = m.heads;
    spec.kvHeads = 0;
    spec.ffn = 4 * m.hidden;
    spec.vocab = paddedVocab(m, run.tensor);
    spec.tiedEmbeddings = m.tiedEmbeddings;
    spec.maxSequence = m.sequence;
    spec.tensorParallelWidths = {};
    spec.baseline = {};
    spec.name = "gpt-h" + std::to_string(m.hidden) + "-a" + std::to_string(m.heads) + "-l" +
                std::to_string(m.layers) + "-s" + std::to_string(m.sequence) + "-v" +
                std::to_string(spec.vocab) + (m.tiedEmbeddings ? "" : "-untied");
    spec.description = "GPT of a measured run";
    auto source = model::TransformerSource::create(spec);
    if (!source) return source.error();
    return model::ModelSourcePtr(*source);
}

hardware::HardwarePoint runHardware(const hardware::HardwarePoint& hardware,
                                    const MeasuredRun& run) {
    hardware::HardwarePoint out = hardware;
    out.accelerator.bytesPerElement = run.bytesPerElement;
    if (run.precision) out.accelerator.precision = *run.precision;
    out.cluster.devices = run.gpus;
    if (out.cluster.devicesPerNode > run.gpus) out.cluster.devicesPerNode = run.gpus;
    return out;
}

hardware::TrainingConfig runTraining(const MeasuredRun& run, std::int64_t microbatch) {
    hardware::TrainingConfig training;
    training.globalBatch = run.globalBatch;
    training.microbatch = microbatch;
    training.sequenceLength = run.model.sequence;
    training.recompute = run.recompute;
    training.optimizer = run.optimizer;
    training.sequenceParallel =
        run.sequenceParallel ? hardware::SequenceParallel::On : hardware::SequenceParallel::Off;
    training.flashAttention = run.flashAttention;
    training.overlapGradReduce = run.overlapGradReduce;
    training.overlapParamGather = run.overlapParamGather;
    training.tpCommOverlap = run.tpCommOverlap;
    training.overlapP2pComm = run.overlapP2pComm;
    training.gradReduceInBf16 = run.gradReduceInBf16;
    training.zero = run.zero;
    training.interleave = run.interleave;
    return training;
}

placement::StrategySpec runStrategy(const MeasuredRun& run) {
    return {run.pipeline, run.tensor, run.data};
}

std::vector<std::int64_t> microbatchCandidates(const MeasuredRun& run) {
    if (run.microbatch > 0) return {run.microbatch};
    const std::int64_t perReplica = run.globalBatch / std::max<std::int64_t>(1, run.data);
    std::vector<std::int64_t> out;
    for (std::int64_t b = 1; b <= perReplica; b *= 2)
        if (perReplica % b == 0) out.push_back(b);
    return out;
}

Expected<placement::ModelPlacementRequest> runRequest(const MeasuredRun& run,
                                                      std::int64_t microbatch,
                                                      const hardware::HardwarePoint& hardware) {
    auto source = gptModelSource(run);
    if (!source) return source.error();
    placement::ModelPlacementRequest request;
    request.model = std::move(source).value();
    request.hardware = runHardware(hardware, run);
    request.training = runTraining(run, microbatch);
    return request;
}

}  // namespace tandem::core::validation
