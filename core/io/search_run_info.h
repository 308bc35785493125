#pragma once
// Which run produced a search's results: the Tandem version, what was searched (the models, the
// space with its base hardware and cluster, the training set-up, the explorer — as a ProjectFile,
// written by ProjectFile's own serialiser), the cost model, a digest of each model file and the
// shard of the search this run covered. A results file carries it as "run"
// (search_results_json.h), so that shards of one search can be merged, shards of different
// searches refused, and a checkpoint can refuse to resume a different search.
//
// JSON (toJson, one line):
//   {"tandem_version": "0.3.0", "project": {<ProjectFile JSON without run.threads and view>},
//    "cost_model": "native", "model_digests": ["zoo", "fnv1a64:0123456789abcdef"],
//    "shard": {"index": 2, "count": 4}}
// "shard" is written only for a shard (count > 0). Model file paths are absolute; a digest is
// "zoo" for a zoo model and "fnv1a64:" + 16 lowercase hex digits of the FNV-1a 64-bit hash of the
// file's bytes otherwise, one per model (project.model, then project.searchModels). A base
// hardware without a name (allowed in a search, not in a hardware file) is written without
// "name" and reads back unnamed. Doubles read back bit for bit. parseJson reads strictly: every
// member but "shard" is required, unknown keys and wrong types are refused, messages name the
// source and the field.
//
// Not part of a run: the thread count (any gives the same results, ARCHITECTURE.md §3.8), the
// project's view state and results path (all cleared), and the schedule options (a search uses
// the defaults). The space's base hardware is the project's hardware; toSearchRequest takes it
// from project.hardware.
//
// io may not include importers (ARCHITECTURE.md §8), so toSearchRequest is handed the model
// loader: the CLI and the app pass importers::loadModel (zoo names, native, Hugging Face and
// ONNX files); model::resolveModel reads zoo names and native files only.
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"
#include "core/io/project_file.h"
#include "core/model/model_source.h"
#include "core/search/search_run.h"

namespace tandem::core::io {

// One of `count` shards of a search, 1-based; count 0: not a shard (the whole search).
struct SearchShard {
    int index = 0;
    int count = 0;
    bool operator==(const SearchShard&) const = default;
};

struct SearchRunInfo {
    std::string version;  // core::version() of the Tandem that ran it
    // model, searchModels, hardware (= the space's base, cluster included), training, search
    // (the space) and explorer; threads, view and results are cleared.
    ProjectFile project;
    std::string costModel = "native";       // placement::toString(CostModelKind)
    std::vector<std::string> modelDigests;  // one per model: "zoo" or "fnv1a64:<16 hex digits>"
    SearchShard shard;
    bool operator==(const SearchRunInfo&) const = default;

    // A compact one-line JSON object (no newline, none at the end either).
    std::string toJson() const;
    // `sourceName` prefixes every message ("results.json: run").
    static Expected<SearchRunInfo> parseJson(std::string_view text, std::string_view sourceName);
};

// Loads a model from a zoo name or a file path (importers::loadModel's signature).
using ModelLoader = std::function<Expected<model::ModelSourcePtr>(const std::string& nameOrPath)>;

// "fnv1a64:" + 16 lowercase hex digits of the FNV-1a 64-bit hash of the file's bytes. Errors: a
// path that is not a regular file or cannot be read, named with the system's reason.
Expected<std::string> modelFileDigest(const std::filesystem::path& path);

// The run that searches `request` with these model specs (zoo names or file paths as the user
// gave them; specs[0] is the main model, the rest the multi-model companions, in the order
// request.models was loaded from them). File paths are made absolute (lexically normal).
// Errors: no model, a spec count unlike request.models.size(), a model file that cannot be read for
// its digest, a shard with count < 0 or index outside 1..count (index 0 when count is 0).
Expected<SearchRunInfo> describeSearchRun(const std::vector<std::string>& modelSpecs,
                                          const search::SearchRequest& request,
                                          SearchShard shard = {});

// What differs between two runs, ignoring the shard: one human-readable entry per differing
// part, in this order: "Tandem version (0.3.0 vs 0.4.0)", "models (gpt2-xl vs bert-large,
// gpt3-175b)", "model file contents (/abs/x.onnx changed)" (a model both runs name at the same
// place whose digests differ), "search space (microbatchSizes)", "hardware and cluster
// (cluster.devices)", "training (globalBatch)" — each with the first differing key of that
// part's JSON —, "explorer (exhaustive vs pruned)", "cost model (native vs phaze-compat)".
// Names and descriptions of the space and its hardware do not count (they change no result).
// Empty when the runs match.
std::vector<std::string> differences(const SearchRunInfo& a, const SearchRunInfo& b);

// The request the run describes, with `threads` worker threads: each model loaded with
// `loadModel` after checking that a model file's digest still matches ("<path>: the model file
// changed since the search ran (digest … then, … now)"), space = project.search with
// space.base = project.hardware, training, explorer, and the cost model parsed (an unknown
// name is an error). Errors: a model file that changed or cannot be read, a loader error, an
// unknown cost model, a digest list that does not match the models.
Expected<search::SearchRequest> toSearchRequest(const SearchRunInfo& info,
                                                const ModelLoader& loadModel, int threads = 0);

}  // namespace tandem::core::io
