#include "core/validation/measured_run.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace tandem::core::validation {

namespace {

std::string text(std::int64_t v) {
    return std::to_string(v);
}

Status inRange(const char* what, std::int64_t value, std::int64_t min, std::int64_t max) {
    if (value >= min && value <= max) return Status::success();
    return Error{std::string(what) + " " + text(value) + " is out of range; allowed " + text(min) +
                 " to " + text(max)};
}

}  // namespace

std::int64_t paddedVocab(const GptShape& shape, std::int64_t t) {
    const std::int64_t unit =
        std::max<std::int64_t>(1, shape.vocabPadding) * std::max<std::int64_t>(1, t);
    return (shape.vocab + unit - 1) / unit * unit;
}

Status validateMeasuredRun(const MeasuredRun& run) {
    const GptShape& m = run.model;
    struct Range {
        const char* what;
        std::int64_t value, min, max;
    };
    const Range ranges[] = {
        {"hidden size", m.hidden, 1, kMaxRunHidden},
        {"attention heads", m.heads, 1, kMaxRunHidden},
        {"layers", m.layers, 1, kMaxRunLayers},
        {"sequence length", m.sequence, 1, kMaxRunSequence},
        {"vocabulary", m.vocab, 1, kMaxRunVocab},
        {"vocabulary padding", m.vocabPadding, 1, 1 << 16},
        {"GPUs", run.gpus, 1, kMaxRunGpus},
        {"tensor parallelism t", run.tensor, 1, kMaxRunGpus},
        {"pipeline parallelism p", run.pipeline, 1, kMaxRunGpus},
        {"data parallelism d", run.data, 1, kMaxRunGpus},
        {"global batch", run.globalBatch, 1, kMaxRunBatch},
        {"microbatch", run.microbatch, 0, kMaxRunBatch},
        {"interleave", run.interleave, 1, kMaxRunLayers},
    };
    for (const Range& r : ranges)
        if (Status s = inRange(r.what, r.value, r.min, r.max); !s) return s;
    if (run.tensor * run.pipeline * run.data != run.gpus)
        return Error{"t·p·d = " + text(run.tensor) + "·" + text(run.pipeline) + "·" +
                     text(run.data) + " = " + text(run.tensor * run.pipeline * run.data) +
                     " but the run has " + text(run.gpus) + " GPUs; t·p·d must equal the GPUs"};
    if (m.hidden % m.heads != 0)
        return Error{"hidden size " + text(m.hidden) + " is not divisible by the " + text(m.heads) +
                     " attention heads"};
    if (m.heads % run.tensor != 0)
        return Error{"the " + text(m.heads) + " attention heads are not divisible by t = " +
                     text(run.tensor) + "; tensor parallelism splits the heads"};
    if (m.layers % run.pipeline != 0)
        return Error{"the " + text(m.layers) + " layers are not divisible by p = " +
                     text(run.pipeline) + "; pipeline stages hold equal numbers of layers"};
    if (run.globalBatch % run.data != 0)
        return Error{"global batch " + text(run.globalBatch) + " is not a multiple of d = " +
                     text(run.data) + " (each replica trains an equal share)"};
    if (run.microbatch > 0 && run.globalBatch % (run.microbatch * run.data) != 0)
        return Error{"global batch " + text(run.globalBatch) +
                     " is not a multiple of microbatch × d = " + text(run.microbatch) + " × " +
                     text(run.data) + " (Megatron-LM splits it into equal microbatches)"};
    if (run.interleave > 1) {
        if (run.pipeline < 2)
            return Error{"interleave " + text(run.interleave) +
                         " needs p >= 2 (p = 1 has no "
                         "pipeline to interleave); use interleave 1"};
        if (m.layers % (run.pipeline * run.interleave) != 0)
            return Error{"interleave " + text(run.interleave) + ": the " + text(m.layers) +
                         " layers do not split into p × interleave = " +
                         text(run.pipeline * run.interleave) + " equal model chunks"};
    }
    if (run.sequenceParallel && m.sequence % run.tensor != 0)
        return Error{"sequence parallelism splits the " + text(m.sequence) +
                     " tokens of a sequence over t = " + text(run.tensor) +
                     ", which does not divide them"};
    if (run.zero < 0 || run.zero > 3)
        return Error{"ZeRO stage " + text(run.zero) + " is not allowed; use 0, 1, 2 or 3"};
    if (run.tpCommOverlap && !run.sequenceParallel)
        return Error{
            "tp_comm_overlap needs sequence_parallel (Megatron-Core overlaps the "
            "collectives of sequence parallelism only)"};
    if (run.overlapP2pComm && run.interleave < 2)
        return Error{
            "overlap_p2p_comm needs interleave >= 2 (only the interleaved schedule overlaps its "
            "point-to-point transfers)"};
    if (run.overlapParamGather && run.zero < 1)
        return Error{
            "overlap_param_gather needs zero >= 1 (only a sharded optimizer gathers its "
            "parameters)"};
    if (run.bytesPerElement != 1 && run.bytesPerElement != 2 && run.bytesPerElement != 4 &&
        run.bytesPerElement != 8)
        return Error{"bytes per element " + text(run.bytesPerElement) +
                     " is not allowed; use 1, 2, 4 or 8 (fp8, fp16/bf16, fp32, fp64)"};
    if (!(run.measuredSeconds >= kMinRunSeconds) || !(run.measuredSeconds <= kMaxRunSeconds))
        return Error{"measured iteration time " + std::to_string(run.measuredSeconds) +
                     " s is out of range; allowed 1e-6 s to 1e6 s"};
    if (!(run.measuredTflopsPerGpu >= 0) || !std::isfinite(run.measuredTflopsPerGpu))
        return Error{"measured TFLOP/s per GPU must be a finite number >= 0"};
    return Status::success();
}

double megatronIterationFlops(const MeasuredRun& run) {
    const double B = double(run.globalBatch), s = double(run.model.sequence),
                 l = double(run.model.layers), h = double(run.model.hidden),
                 V = double(paddedVocab(run.model, run.tensor));
    return 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
}

double tflopsPerGpu(const MeasuredRun& run, double iterationSeconds) {
    return megatronIterationFlops(run) / (iterationSeconds * double(run.gpus)) / 1e12;
}

double secondsForTflops(const MeasuredRun& run, double tflops) {
    return megatronIterationFlops(run) / (tflops * 1e12 * double(run.gpus));
}

bool parsePrecision(std::string_view text, std::int64_t& bytesPerElement,
                    std::optional<hardware::Precision>& precision) {
    using hardware::Precision;
    std::string lower;
    for (char c : text) lower += char(std::tolower(static_cast<unsigned char>(c)));
    struct Name {
        const char* name;
        std::int64_t bytes;
        std::optional<Precision> format;
    };
    const Name names[] = {
        {"fp8", 2, Precision::Fp8},   {"1", 2, Precision::Fp8},  {"fp16", 2, Precision::Fp16},
        {"bf16", 2, Precision::Bf16}, {"2", 2, std::nullopt},    {"fp32", 4, std::nullopt},
        {"4", 4, std::nullopt},       {"fp64", 8, std::nullopt}, {"8", 8, std::nullopt}};
    for (const Name& n : names) {
        if (lower == n.name) {
            bytesPerElement = n.bytes;
            precision = n.format;
            return true;
        }
    }
    return false;
}

}  // namespace tandem::core::validation
