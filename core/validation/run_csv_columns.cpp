#include "core/validation/run_csv_columns.h"

#include <array>

namespace tandem::core::validation {

namespace {

using Names = std::span<const std::string_view>;

constexpr std::string_view kGpus[] = {"gpus", "num gpus", "gpu count"};
constexpr std::string_view kGlobalBatch[] = {"global batch", "global batch size"};
constexpr std::string_view kMicrobatch[] = {"micro batch", "microbatch", "micro batch size",
                                            "microbatch size"};
constexpr std::string_view kHidden[] = {"hidden size", "hidden"};
constexpr std::string_view kHeads[] = {"attention heads", "heads", "num attention heads"};
constexpr std::string_view kLayers[] = {"layers", "num layers"};
constexpr std::string_view kSequence[] = {"sequence length", "sequence", "seq length"};
constexpr std::string_view kTensor[] = {"tensor parallelism", "tensor parallel", "tp", "t"};
constexpr std::string_view kData[] = {"data parallelism", "data parallel", "dp", "d"};
constexpr std::string_view kPipeline[] = {"pipeline parallelism", "pipeline parallel", "pp", "p"};
constexpr std::string_view kIterationMs[] = {"iteration time ms"};
constexpr std::string_view kIterationS[] = {"iteration time s"};
constexpr std::string_view kRecompute[] = {"recompute", "recomputation"};
constexpr std::string_view kSequenceParallel[] = {"sequence parallel", "sequence parallelism"};
constexpr std::string_view kInterleave[] = {"interleave"};
constexpr std::string_view kZero[] = {"zero", "zero stage"};
constexpr std::string_view kFlashAttention[] = {"flash attention"};
constexpr std::string_view kOverlapGradReduce[] = {"overlap grad reduce"};
constexpr std::string_view kOverlapParamGather[] = {"overlap param gather"};
constexpr std::string_view kTpCommOverlap[] = {"tp comm overlap"};
constexpr std::string_view kOverlapP2pComm[] = {"overlap p2p comm"};
constexpr std::string_view kGradReduceInBf16[] = {"grad reduce in bf16"};
constexpr std::string_view kOptimizer[] = {"optimizer"};
constexpr std::string_view kPrecision[] = {"precision"};
constexpr std::string_view kVocab[] = {"vocab", "vocabulary"};
constexpr std::string_view kVocabPadding[] = {"vocab padding", "vocabulary padding"};
constexpr std::string_view kName[] = {"name"};

constexpr std::array<RunColumnSpec, 27> kColumns{{
    {RunColumn::Gpus, "GPUs", Names(kGpus), true},
    {RunColumn::GlobalBatch, "global batch", Names(kGlobalBatch), true},
    {RunColumn::Microbatch, "micro batch", Names(kMicrobatch), false},
    {RunColumn::Hidden, "hidden size", Names(kHidden), true},
    {RunColumn::Heads, "attention heads", Names(kHeads), true},
    {RunColumn::Layers, "# layers", Names(kLayers), true},
    {RunColumn::Sequence, "sequence length", Names(kSequence), true},
    {RunColumn::Tensor, "tensor parallelism", Names(kTensor), true},
    {RunColumn::Data, "data parallelism", Names(kData), true},
    {RunColumn::Pipeline, "pipeline parallelism", Names(kPipeline), true},
    {RunColumn::IterationMs, "iteration time (ms)", Names(kIterationMs), false},
    {RunColumn::IterationS, "iteration time (s)", Names(kIterationS), false},
    {RunColumn::Recompute, "recompute", Names(kRecompute), false},
    {RunColumn::SequenceParallel, "sequence_parallel", Names(kSequenceParallel), false},
    {RunColumn::Interleave, "interleave", Names(kInterleave), false},
    {RunColumn::Zero, "zero", Names(kZero), false},
    {RunColumn::FlashAttention, "flash_attention", Names(kFlashAttention), false},
    {RunColumn::OverlapGradReduce, "overlap_grad_reduce", Names(kOverlapGradReduce), false},
    {RunColumn::OverlapParamGather, "overlap_param_gather", Names(kOverlapParamGather), false},
    {RunColumn::TpCommOverlap, "tp_comm_overlap", Names(kTpCommOverlap), false},
    {RunColumn::OverlapP2pComm, "overlap_p2p_comm", Names(kOverlapP2pComm), false},
    {RunColumn::GradReduceInBf16, "grad_reduce_in_bf16", Names(kGradReduceInBf16), false},
    {RunColumn::Optimizer, "optimizer", Names(kOptimizer), false},
    {RunColumn::Precision, "precision", Names(kPrecision), false},
    {RunColumn::Vocab, "vocab", Names(kVocab), false},
    {RunColumn::VocabPadding, "vocab_padding", Names(kVocabPadding), false},
    {RunColumn::Name, "name", Names(kName), false},
}};

}  // namespace

std::span<const RunColumnSpec> runColumns() {
    return kColumns;
}

std::string normalizeColumnName(std::string_view header) {
    std::string out;
    bool space = false;
    for (char c : header) {
        if (c == '#' || c == '(' || c == ')') continue;
        if (c == '_' || c == '-' || c == ' ' || c == '\t') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
    }
    return out;
}

std::optional<RunColumn> findRunColumn(std::string_view normalized) {
    for (const RunColumnSpec& spec : kColumns)
        for (std::string_view alias : spec.aliases)
            if (alias == normalized) return spec.column;
    return std::nullopt;
}

const RunColumnSpec& runColumnSpec(RunColumn column) {
    for (const RunColumnSpec& spec : kColumns)
        if (spec.column == column) return spec;
    return kColumns.front();  // unreachable: every column is in the table
}

}  // namespace tandem::core::validation
