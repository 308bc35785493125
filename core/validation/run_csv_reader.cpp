#include "core/validation/run_csv_reader.h"

#include <charconv>
#include <cmath>
#include <map>
#include <optional>

#include "core/common/text_file.h"
#include "core/validation/run_csv_columns.h"

namespace tandem::core::validation {

namespace {

// A cell as messages show it: quoted, at most 40 bytes (never cut inside a UTF-8 sequence).
std::string shown(std::string_view cell) {
    if (cell.size() <= 40) return "\"" + std::string(cell) + "\"";
    std::size_t cut = 40;
    while (cut > 0 && (static_cast<unsigned char>(cell[cut]) & 0xC0) == 0x80) --cut;
    return "\"" + std::string(cell.substr(0, cut)) + "…\"";
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

// Splits one line into cells; an error text when a quote is not closed.
Expected<std::vector<std::string>> splitCells(std::string_view line) {
    std::vector<std::string> cells(1);
    bool quoted = false, wasQuoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c != '"') {
                cells.back() += c;
            } else if (i + 1 < line.size() && line[i + 1] == '"') {
                cells.back() += '"';
                ++i;
            } else {
                quoted = false;
            }
        } else if (c == ',') {
            cells.emplace_back();
            wasQuoted = false;
        } else if (c == '"' && !wasQuoted && trim(cells.back()).empty()) {
            cells.back().clear();
            quoted = wasQuoted = true;
        } else {
            cells.back() += c;
        }
    }
    if (quoted) return Error{"a quoted cell is not closed on this line"};
    for (std::string& cell : cells) cell = std::string(trim(cell));
    return cells;
}

struct Row {
    const std::string* source;
    std::size_t line;
    const std::vector<std::string>* cells;
    const std::map<RunColumn, std::size_t>* columns;

    std::string where(RunColumn c) const {
        return *source + ": line " + std::to_string(line) + ", column " +
               std::to_string(columns->at(c) + 1) + " (" + std::string(runColumnSpec(c).name) +
               "): ";
    }
    const std::string* cell(RunColumn c) const {
        const auto it = columns->find(c);
        return it == columns->end() ? nullptr : &(*cells)[it->second];
    }
};

Status integer(const Row& row, RunColumn c, std::int64_t min, std::int64_t max, std::int64_t& out) {
    const std::string* cell = row.cell(c);
    if (!cell) return Status::success();
    std::int64_t value = 0;
    const char* end = cell->data() + cell->size();
    const auto [ptr, ec] = std::from_chars(cell->data(), end, value);
    if (ec != std::errc{} || ptr != end || value < min || value > max || cell->empty())
        return Error{row.where(c) + shown(*cell) + " is not an integer from " +
                     std::to_string(min) + " to " + std::to_string(max)};
    out = value;
    return Status::success();
}

Status seconds(const Row& row, RunColumn c, double scale, double& out) {
    const std::string* cell = row.cell(c);
    if (!cell) return Status::success();
    double value = 0;
    const char* end = cell->data() + cell->size();
    const auto [ptr, ec] = std::from_chars(cell->data(), end, value);
    if (ec != std::errc{} || ptr != end || cell->empty() || !std::isfinite(value) ||
        !(value * scale >= kMinRunSeconds) || !(value * scale <= kMaxRunSeconds))
        return Error{
            row.where(c) + shown(*cell) + " is not a time from " +
            (scale == 1 ? std::string("1e-6 s to 1e6 s") : std::string("0.001 ms to 1e9 ms"))};
    out = value * scale;
    return Status::success();
}

Status words(const Row& row, RunColumn c) {
    const std::string* cell = row.cell(c);
    const char* allowed = c == RunColumn::Recompute ? "off, on, selective or auto"
                          : c == RunColumn::SequenceParallel || c == RunColumn::FlashAttention ||
                                  c == RunColumn::OverlapGradReduce ||
                                  c == RunColumn::OverlapParamGather ||
                                  c == RunColumn::TpCommOverlap || c == RunColumn::OverlapP2pComm ||
                                  c == RunColumn::GradReduceInBf16
                              ? "true/false, yes/no, on/off or 1/0"
                          : c == RunColumn::Optimizer ? "sgd or adam"
                          : c == RunColumn::Precision ? "fp8, fp16, bf16, fp32, fp64, 1, 2, 4 or 8"
                                                      : "a number or auto";
    return Error{row.where(c) + shown(*cell) + " is not allowed; use " + allowed};
}

// A yes/no column: true/false, yes/no, on/off or 1/0 (case-insensitive); absent keeps `out`.
Status yesNo(const Row& row, RunColumn c, bool& out) {
    const std::string* cell = row.cell(c);
    if (!cell) return Status::success();
    const std::string v = lower(*cell);
    if (v == "true" || v == "yes" || v == "on" || v == "1")
        out = true;
    else if (v == "false" || v == "no" || v == "off" || v == "0")
        out = false;
    else
        return words(row, c);
    return Status::success();
}

Status readOptional(const Row& row, MeasuredRun& run) {
    if (const std::string* cell = row.cell(RunColumn::Microbatch); cell && lower(*cell) == "auto")
        run.microbatch = 0;
    else if (Status s = integer(row, RunColumn::Microbatch, 1, kMaxRunBatch, run.microbatch); !s)
        return Error{s.message() + " (or auto: the fastest that fits)"};
    if (const std::string* cell = row.cell(RunColumn::Recompute)) {
        const std::string v = lower(*cell);
        if (!hardware::parseRecompute(v, run.recompute)) return words(row, RunColumn::Recompute);
    }
    if (Status s = yesNo(row, RunColumn::SequenceParallel, run.sequenceParallel); !s) return s;
    if (Status s = yesNo(row, RunColumn::FlashAttention, run.flashAttention); !s) return s;
    if (Status s = yesNo(row, RunColumn::OverlapGradReduce, run.overlapGradReduce); !s) return s;
    if (Status s = yesNo(row, RunColumn::OverlapParamGather, run.overlapParamGather); !s) return s;
    if (Status s = yesNo(row, RunColumn::TpCommOverlap, run.tpCommOverlap); !s) return s;
    if (Status s = yesNo(row, RunColumn::OverlapP2pComm, run.overlapP2pComm); !s) return s;
    if (Status s = yesNo(row, RunColumn::GradReduceInBf16, run.gradReduceInBf16); !s) return s;
    if (Status s = integer(row, RunColumn::Zero, 0, 3, run.zero); !s) return s;
    if (const std::string* cell = row.cell(RunColumn::Optimizer))
        if (!hardware::parseOptimizer(lower(*cell), run.optimizer))
            return words(row, RunColumn::Optimizer);
    if (const std::string* cell = row.cell(RunColumn::Precision))
        if (!parsePrecision(*cell, run.bytesPerElement, run.precision))
            return words(row, RunColumn::Precision);
    if (Status s = integer(row, RunColumn::Interleave, 1, kMaxRunLayers, run.interleave); !s)
        return s;
    if (Status s = integer(row, RunColumn::Vocab, 1, kMaxRunVocab, run.model.vocab); !s) return s;
    if (Status s = integer(row, RunColumn::VocabPadding, 1, 1 << 16, run.model.vocabPadding); !s)
        return s;
    if (const std::string* cell = row.cell(RunColumn::Name); cell && !cell->empty()) {
        if (cell->size() > 200)
            return Error{row.where(RunColumn::Name) + shown(*cell) +
                         " is too long; names have at most 200 characters"};
        run.name = *cell;
    }
    return Status::success();
}

}  // namespace

MeasuredRun RunDefaults::run() const {
    MeasuredRun run;
    run.model.vocab = vocab;
    run.model.vocabPadding = vocabPadding;
    run.model.tiedEmbeddings = tiedEmbeddings;
    run.recompute = recompute;
    run.sequenceParallel = sequenceParallel;
    run.interleave = interleave;
    run.zero = zero;
    run.flashAttention = flashAttention;
    run.overlapGradReduce = overlapGradReduce;
    run.overlapParamGather = overlapParamGather;
    run.tpCommOverlap = tpCommOverlap;
    run.overlapP2pComm = overlapP2pComm;
    run.gradReduceInBf16 = gradReduceInBf16;
    run.optimizer = optimizer;
    run.bytesPerElement = bytesPerElement;
    run.precision = precision;
    return run;
}

namespace {

Expected<MeasuredRun> readRow(const Row& row, const RunDefaults& defaults) {
    MeasuredRun run = defaults.run();
    run.name = "line " + std::to_string(row.line);
    struct Field {
        RunColumn column;
        std::int64_t* target;
        std::int64_t max;
    };
    const Field fields[] = {
        {RunColumn::Gpus, &run.gpus, kMaxRunGpus},
        {RunColumn::GlobalBatch, &run.globalBatch, kMaxRunBatch},
        {RunColumn::Hidden, &run.model.hidden, kMaxRunHidden},
        {RunColumn::Heads, &run.model.heads, kMaxRunHidden},
        {RunColumn::Layers, &run.model.layers, kMaxRunLayers},
        {RunColumn::Sequence, &run.model.sequence, kMaxRunSequence},
        {RunColumn::Tensor, &run.tensor, kMaxRunGpus},
        {RunColumn::Data, &run.data, kMaxRunGpus},
        {RunColumn::Pipeline, &run.pipeline, kMaxRunGpus},
    };
    for (const Field& f : fields)
        if (Status s = integer(row, f.column, 1, f.max, *f.target); !s) return Error{s.message()};
    if (Status s = seconds(row, RunColumn::IterationMs, 1e-3, run.measuredSeconds); !s)
        return Error{s.message()};
    if (Status s = seconds(row, RunColumn::IterationS, 1.0, run.measuredSeconds); !s)
        return Error{s.message()};
    if (Status s = readOptional(row, run); !s) return Error{s.message()};
    if (Status s = validateMeasuredRun(run); !s)
        return Error{*row.source + ": line " + std::to_string(row.line) + ": " + s.message()};
    return run;
}

// The header's columns by index; errors for unknown, repeated and missing columns.
Expected<std::map<RunColumn, std::size_t>> readHeader(const std::vector<std::string>& cells,
                                                      const std::string& where) {
    std::map<RunColumn, std::size_t> columns;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const std::string at = where + ", column " + std::to_string(i + 1) + ": ";
        const auto column = findRunColumn(normalizeColumnName(cells[i]));
        if (!column)
            return Error{at + "unknown column " + shown(cells[i]) + "; the columns are " +
                         runsCsvColumnList()};
        if (!columns.emplace(*column, i).second)
            return Error{at + "column " + shown(cells[i]) + " repeats column " +
                         std::to_string(columns.at(*column) + 1)};
    }
    for (const RunColumnSpec& spec : runColumns())
        if (spec.required && !columns.count(spec.column))
            return Error{where + ": the header has no column " + shown(spec.name) +
                         "; required are " + runsCsvColumnList()};
    const bool ms = columns.count(RunColumn::IterationMs), s = columns.count(RunColumn::IterationS);
    if (ms == s)
        return Error{where + (ms ? ": give the iteration time once, in ms or in s"
                                 : ": the header has no column \"iteration time (ms)\" or "
                                   "\"iteration time (s)\"; required are " +
                                       runsCsvColumnList())};
    return columns;
}

}  // namespace

std::string runsCsvColumnList() {
    std::string required, optional;
    for (const RunColumnSpec& spec : runColumns()) {
        std::string& list =
            spec.required || spec.column == RunColumn::IterationMs ? required : optional;
        if (spec.column == RunColumn::IterationS) continue;
        list += (list.empty() ? "" : ", ") + std::string(spec.name);
        if (spec.column == RunColumn::IterationMs) list += " or iteration time (s)";
    }
    return required + "; optional: " + optional;
}

Expected<std::vector<MeasuredRun>> parseRunsCsv(std::string_view text, const std::string& source,
                                                const RunDefaults& defaults) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    std::optional<std::map<RunColumn, std::size_t>> columns;
    std::vector<MeasuredRun> runs;
    std::size_t lineNumber = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++lineNumber;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const std::string where = source + ": line " + std::to_string(lineNumber);
        if (line.find('\0') != std::string_view::npos)
            return Error{where + ": holds a NUL byte; expected a text CSV file"};
        if (trim(line).empty()) continue;
        if (columns && trim(line).front() == '#') continue;
        auto cells = splitCells(line);
        if (!cells) return Error{where + ": " + cells.message()};
        if (!columns) {
            auto header = readHeader(*cells, where);
            if (!header) return header.error();
            columns = std::move(header).value();
            continue;
        }
        if (cells->size() != columns->size())
            return Error{where + ": " + std::to_string(cells->size()) +
                         " cells, but the header has " + std::to_string(columns->size()) +
                         " columns"};
        if (runs.size() == kMaxCsvRuns)
            return Error{where + ": more than " + std::to_string(kMaxCsvRuns) +
                         " runs; split the file"};
        auto run = readRow(Row{&source, lineNumber, &*cells, &*columns}, defaults);
        if (!run) return run.error();
        runs.push_back(std::move(run).value());
    }
    if (!columns)
        return Error{source + ": the file is empty; expected a CSV file with a header line (" +
                     runsCsvColumnList() + ") and one line per run"};
    if (runs.empty()) return Error{source + ": the file has a header but no runs"};
    return runs;
}

Expected<std::vector<MeasuredRun>> readRunsCsv(const std::filesystem::path& path,
                                               const RunDefaults& defaults) {
    auto text = readTextFile(path, kMaxCsvBytes);
    if (!text) return text.error();
    return parseRunsCsv(*text, path.string(), defaults);
}

}  // namespace tandem::core::validation
