#pragma once
// Measured runs from a CSV file (`tandem-cli validate --runs FILE.csv`, and the bundled
// resources/validation/single-node-a100.csv). The first non-blank line is the header; columns
// are found by name, in any order, ignoring case, spacing, '_', '-', parentheses and '#' (so
// the bundled file's "# GPUs,…,iteration time (ms)" and "gpus,…,iteration_time_ms" both read):
//   required  gpus · global batch · hidden size · attention heads · layers · sequence length ·
//             tensor parallelism · data parallelism · pipeline parallelism ·
//             iteration time (ms) or iteration time (s)
//   optional  micro batch (a number, or "auto": the fastest that fits) · recompute (off, on,
//             selective) · sequence parallel (true/false, yes/no, on/off, 1/0) · interleave ·
//             optimizer (sgd, adam) · precision (fp8, fp16, bf16, fp32, fp64 or the bytes per
//             element) · vocab · vocab padding · name
// Columns left out take `RunDefaults` (the bundled set's: GPT-2's 50,257 tokens padded to a
// multiple of 128·t, full recomputation, Adam, fp16, no sequence parallelism, plain 1F1B,
// microbatch "auto"). Cells are plain or double-quoted ("" inside quotes is a quote); a line
// whose first character is '#' after the header is a comment; blank lines are skipped; CRLF
// and a UTF-8 byte-order mark are accepted. Everything else is an Error naming the source,
// line and column and what is allowed — an unknown or repeated column, a missing one, a row
// with too few or too many cells, a cell that is not a number of the allowed range, a row that
// validateMeasuredRun() refuses, no rows at all, more than kMaxCsvRuns rows; the file reader
// also refuses directories, special files and files over kMaxCsvBytes (readTextFile). Runs are
// named "line N". Never throws, never skips a row silently.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"
#include "core/validation/measured_run.h"

namespace tandem::core::validation {

struct RunDefaults {
    std::int64_t vocab = 50257;  // GPT-2's tokenizer
    std::int64_t vocabPadding = 128;
    bool tiedEmbeddings = true;
    hardware::Recompute recompute = hardware::Recompute::On;
    bool sequenceParallel = false;
    std::int64_t interleave = 1;
    std::int64_t zero = 0;
    bool flashAttention = false;
    bool overlapGradReduce = false;
    bool overlapParamGather = false;
    bool tpCommOverlap = false;
    bool overlapP2pComm = false;
    bool gradReduceInBf16 = false;
    hardware::Optimizer optimizer = hardware::Optimizer::Adam;
    std::int64_t bytesPerElement = 2;
    std::optional<hardware::Precision> precision;  // the hardware's own

    // A run that has these settings and nothing else yet (the CSV and JSON readers' start).
    MeasuredRun run() const;
};

inline constexpr std::uintmax_t kMaxCsvBytes = std::uintmax_t(16) << 20;
inline constexpr std::size_t kMaxCsvRuns = 100000;

// `source` names the text in messages ("runs.csv").
Expected<std::vector<MeasuredRun>> parseRunsCsv(std::string_view text, const std::string& source,
                                                const RunDefaults& defaults = {});

// readTextFile (regular files up to kMaxCsvBytes), then parseRunsCsv with the path as source.
Expected<std::vector<MeasuredRun>> readRunsCsv(const std::filesystem::path& path,
                                               const RunDefaults& defaults = {});

// The column names as the header of a written file would spell them, for help and messages.
std::string runsCsvColumnList();

}  // namespace tandem::core::validation
