#include "core/validation/measured_run_set.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/common/embedded_resources.h"
#include "core/common/json_document.h"
#include "core/common/text_file.h"

namespace tandem::core::validation {

namespace {

constexpr std::string_view kFolder = "validation/";
constexpr const char* kSetKeys[] = {"format",   "version",  "name",     "source", "licence",
                                    "hardware", "defaults", "runs_csv", "runs"};
constexpr const char* kDefaultKeys[] = {"vocab",
                                        "vocab_padding",
                                        "sequence",
                                        "recompute",
                                        "optimizer",
                                        "precision",
                                        "sequence_parallel",
                                        "interleave",
                                        "zero",
                                        "flash_attention",
                                        "overlap_grad_reduce",
                                        "overlap_param_gather",
                                        "tp_comm_overlap",
                                        "overlap_p2p_comm",
                                        "grad_reduce_in_bf16",
                                        "tied_embeddings"};
constexpr const char* kRunKeys[] = {"name",
                                    "hidden",
                                    "heads",
                                    "layers",
                                    "sequence",
                                    "tensor",
                                    "pipeline",
                                    "data",
                                    "gpus",
                                    "global_batch",
                                    "microbatch",
                                    "measured_tflops_per_gpu",
                                    "measured_iteration_s"};

std::string_view embedded(const std::string& path) {
    for (const EmbeddedFile& file : embeddedResources())
        if (file.path == path) return file.content;
    return {};
}

Status integerKey(const nlohmann::json& object, const char* key, std::int64_t& out,
                  const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end()) return Status::success();
    if (!it->is_number_integer())
        return Error{where + key + ": " + jsonShown(*it) + " is not an integer"};
    out = it->get<std::int64_t>();
    return Status::success();
}

Status stringKey(const nlohmann::json& object, const char* key, std::string& out,
                 const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end()) return Status::success();
    if (!it->is_string()) return Error{where + key + ": " + jsonShown(*it) + " is not a string"};
    out = it->get<std::string>();
    return Status::success();
}

// The "defaults" object: the fields a set's runs share (and a CSV's columns may leave out).
Status readDefaults(const nlohmann::json& root, RunDefaults& defaults, std::int64_t& sequence,
                    const std::string& path) {
    const auto it = root.find("defaults");
    if (it == root.end()) return Status::success();
    const std::string where = path + ": defaults.";
    if (!it->is_object()) return Error{path + ": defaults must be an object"};
    if (Status s = checkJsonKeys(*it, kDefaultKeys, path + ": defaults: "); !s) return s;
    std::string recompute = "on", optimizer = "adam", precision = "2";
    for (auto [key, target] :
         {std::pair{"vocab", &defaults.vocab}, std::pair{"vocab_padding", &defaults.vocabPadding},
          std::pair{"sequence", &sequence}, std::pair{"interleave", &defaults.interleave},
          std::pair{"zero", &defaults.zero}})
        if (Status s = integerKey(*it, key, *target, where); !s) return s;
    for (auto [key, target] :
         {std::pair{"recompute", &recompute}, std::pair{"optimizer", &optimizer},
          std::pair{"precision", &precision}})
        if (Status s = stringKey(*it, key, *target, where); !s) return s;
    if (!hardware::parseRecompute(recompute, defaults.recompute))
        return Error{where + "recompute: \"" + recompute + "\" is not off, on, selective or auto"};
    if (!hardware::parseOptimizer(optimizer, defaults.optimizer))
        return Error{where + "optimizer: \"" + optimizer + "\" is not sgd or adam"};
    if (!parsePrecision(precision, defaults.bytesPerElement, defaults.precision))
        return Error{where + "precision: \"" + precision + "\" is not fp8, fp16, bf16 or fp32"};
    for (auto [key, target] : {std::pair{"sequence_parallel", &defaults.sequenceParallel},
                               std::pair{"flash_attention", &defaults.flashAttention},
                               std::pair{"overlap_grad_reduce", &defaults.overlapGradReduce},
                               std::pair{"overlap_param_gather", &defaults.overlapParamGather},
                               std::pair{"tp_comm_overlap", &defaults.tpCommOverlap},
                               std::pair{"overlap_p2p_comm", &defaults.overlapP2pComm},
                               std::pair{"grad_reduce_in_bf16", &defaults.gradReduceInBf16},
                               std::pair{"tied_embeddings", &defaults.tiedEmbeddings}})
        if (const auto flag = it->find(key); flag != it->end()) {
            if (!flag->is_boolean()) return Error{where + key + " must be true or false"};
            *target = flag->get<bool>();
        }
    return Status::success();
}

Expected<MeasuredRun> readRun(const nlohmann::json& r, const RunDefaults& defaults,
                              std::int64_t sequence, const std::string& path, std::size_t index) {
    const std::string at = path + ": runs[" + std::to_string(index) + "]";
    if (!r.is_object()) return Error{at + " must be an object"};
    if (Status s = checkJsonKeys(r, kRunKeys, at + ": "); !s) return Error{s.message()};
    MeasuredRun run = defaults.run();
    run.model.sequence = sequence;
    run.data = 0;
    const std::string where = at + ".";
    if (Status s = stringKey(r, "name", run.name, where); !s) return Error{s.message()};
    for (auto [key, target] :
         {std::pair{"hidden", &run.model.hidden}, std::pair{"heads", &run.model.heads},
          std::pair{"layers", &run.model.layers}, std::pair{"sequence", &run.model.sequence},
          std::pair{"tensor", &run.tensor}, std::pair{"pipeline", &run.pipeline},
          std::pair{"data", &run.data}, std::pair{"gpus", &run.gpus},
          std::pair{"global_batch", &run.globalBatch}, std::pair{"microbatch", &run.microbatch}})
        if (Status s = integerKey(r, key, *target, where); !s) return Error{s.message()};
    if (run.data == 0 && run.tensor > 0 && run.pipeline > 0)
        run.data = run.gpus / (run.tensor * run.pipeline);
    const bool tflops = r.contains("measured_tflops_per_gpu");
    if (tflops == r.contains("measured_iteration_s"))
        return Error{at + ": give one of measured_tflops_per_gpu and measured_iteration_s"};
    const auto& measured = tflops ? r["measured_tflops_per_gpu"] : r["measured_iteration_s"];
    if (!measured.is_number() || !(measured.get<double>() > 0))
        return Error{where + (tflops ? "measured_tflops_per_gpu" : "measured_iteration_s") + ": " +
                     jsonShown(measured) + " is not a number above 0"};
    if (run.name.empty()) run.name = "run " + std::to_string(index + 1);
    if (tflops) {
        run.measuredTflopsPerGpu = measured.get<double>();
        run.measuredSeconds = 1;  // placeholder so that validation sees a time
    } else {
        run.measuredSeconds = measured.get<double>();
    }
    if (Status s = validateMeasuredRun(run); !s)
        return Error{at + " (" + run.name + "): " + s.message()};
    if (tflops) run.measuredSeconds = secondsForTflops(run, run.measuredTflopsPerGpu);
    return run;
}

}  // namespace

std::vector<std::string> bundledRunSetNames() {
    std::vector<std::string> names;
    for (const EmbeddedFile& file : embeddedResources()) {
        const std::string_view path = file.path;
        if (path.substr(0, kFolder.size()) == kFolder && path.size() > kFolder.size() + 5 &&
            path.substr(path.size() - 5) == ".json")
            names.emplace_back(path.substr(kFolder.size(), path.size() - kFolder.size() - 5));
    }
    std::sort(names.begin(), names.end());
    return names;
}

namespace {

// A tandem-validation JSON set read from `text` (named `path` in errors); `readCsv` gives the
// content of its "runs_csv" file.
Expected<MeasuredRunSet> parseRunSet(
    std::string_view text, const std::string& path, const std::string& name,
    const std::function<Expected<std::string>(const std::string&)>& readCsv) {
    auto root = parseJsonDocument(text, path, "a tandem-validation JSON object");
    if (!root) return root.error();
    if (!root->is_object()) return Error{path + ": expected a tandem-validation JSON object"};
    if (Status s = checkJsonKeys(*root, kSetKeys, path + ": "); !s) return Error{s.message()};
    if (!root->contains("format") || (*root)["format"] != "tandem-validation" ||
        !root->contains("version") || (*root)["version"] != 2)
        return Error{path + ": expected \"format\": \"tandem-validation\", \"version\": 2"};
    MeasuredRunSet set;
    set.name = name;
    std::string csv;
    for (auto [key, target] : {std::pair{"source", &set.source}, std::pair{"licence", &set.licence},
                               std::pair{"hardware", &set.hardware}, std::pair{"runs_csv", &csv}})
        if (Status s = stringKey(*root, key, *target, path + ": "); !s) return Error{s.message()};
    RunDefaults defaults;
    std::int64_t sequence = 0;
    if (Status s = readDefaults(*root, defaults, sequence, path); !s) return Error{s.message()};
    if (csv.empty() == !root->contains("runs"))
        return Error{path + ": give the runs either inline (\"runs\") or as a CSV (\"runs_csv\")"};
    if (!csv.empty()) {
        auto content = readCsv(csv);
        if (!content) return content.error();
        auto runs = parseRunsCsv(*content, csv, defaults);
        if (!runs) return runs.error();
        set.runs = std::move(runs).value();
    } else {
        const nlohmann::json& runs = (*root)["runs"];
        if (!runs.is_array() || runs.empty())
            return Error{path + ": runs must be a non-empty array"};
        for (std::size_t i = 0; i < runs.size(); ++i) {
            auto run = readRun(runs[i], defaults, sequence, path, i);
            if (!run) return run.error();
            set.runs.push_back(std::move(run).value());
        }
    }
    set.tflopsPublished = std::all_of(set.runs.begin(), set.runs.end(), [](const MeasuredRun& r) {
        return r.measuredTflopsPerGpu > 0;
    });
    return set;
}

}  // namespace

Expected<MeasuredRunSet> bundledRunSet(const std::string& name) {
    const std::string path = std::string(kFolder) + name + ".json";
    const std::string_view text = embedded(path);
    if (text.empty()) {
        std::string list;
        for (const std::string& n : bundledRunSetNames()) list += (list.empty() ? "" : ", ") + n;
        return Error{"no bundled set of measured runs named '" + name + "'; the sets are " + list};
    }
    return parseRunSet(text, path, name, [&](const std::string& csv) -> Expected<std::string> {
        const std::string csvPath = std::string(kFolder) + csv;
        const std::string_view content = embedded(csvPath);
        if (content.empty()) return Error{path + ": runs_csv: no bundled file " + csvPath};
        return std::string(content);
    });
}

Expected<MeasuredRunSet> runSetFromFile(const std::filesystem::path& path,
                                        const std::string& hardware) {
    auto text = readTextFile(path, kMaxCsvBytes);
    if (!text) return text.error();
    const auto first = text->find_first_not_of(" \t\r\n");
    const bool json = first != std::string::npos && (*text)[first] == '{';
    MeasuredRunSet set;
    if (json) {
        // Its runs_csv lies beside it.
        auto parsed = parseRunSet(*text, path.string(), path.filename().string(),
                                  [&](const std::string& csv) -> Expected<std::string> {
                                      return readTextFile(path.parent_path() / csv, kMaxCsvBytes);
                                  });
        if (!parsed) return parsed.error();
        set = std::move(parsed).value();
        if (set.source.empty()) set.source = "measured runs read from " + path.string();
    } else {
        auto runs = parseRunsCsv(*text, path.string(), RunDefaults{});
        if (!runs) return runs.error();
        set.name = path.filename().string();
        set.source = "measured runs read from " + path.string();
        set.runs = std::move(runs).value();
    }
    if (set.hardware.empty()) set.hardware = hardware;
    return set;
}

}  // namespace tandem::core::validation
