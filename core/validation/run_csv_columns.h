#pragma once
// The columns a measured-runs CSV may hold (run_csv_reader.h): one table of canonical names,
// the other spellings accepted for each, and whether the column is required. Header cells are
// compared after normalizeColumnName(): ASCII lower case, '#', '(' and ')' dropped, '_' and '-'
// as spaces, runs of spaces collapsed, ends trimmed — "# GPUs" is "gpus", "iteration time
// (ms)" and "Iteration_Time_ms" are "iteration time ms".
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tandem::core::validation {

enum class RunColumn {
    Gpus,
    GlobalBatch,
    Microbatch,
    Hidden,
    Heads,
    Layers,
    Sequence,
    Tensor,
    Data,
    Pipeline,
    IterationMs,
    IterationS,
    Recompute,
    SequenceParallel,
    Interleave,
    Zero,
    FlashAttention,
    OverlapGradReduce,
    OverlapParamGather,
    TpCommOverlap,
    OverlapP2pComm,
    GradReduceInBf16,
    Optimizer,
    Precision,
    Vocab,
    VocabPadding,
    Name,
};

struct RunColumnSpec {
    RunColumn column;
    std::string_view name;                      // canonical, as the bundled file spells it
    std::span<const std::string_view> aliases;  // normalised
    bool required;  // the iteration time is required as one of its two columns
};

std::span<const RunColumnSpec> runColumns();
std::string normalizeColumnName(std::string_view header);
// The column whose normalised name or alias equals `normalized`.
std::optional<RunColumn> findRunColumn(std::string_view normalized);
const RunColumnSpec& runColumnSpec(RunColumn column);

}  // namespace tandem::core::validation
