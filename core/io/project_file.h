#pragma once
// A Tandem project: everything the desktop app and the CLI need to reproduce a session, as one
// versioned JSON document (ARCHITECTURE.md §5):
//   {"format": "tandem-project", "version": 1, "model": "gpt3-175b" or "models/x.json",
//    "hardware": <hardware object, hardware_json.h>, "training": <training object>,
//    "search": <search space document, search_space.h>, "run": {"explorer": "exhaustive",
//    "threads": 0, "objective": "throughput"}, "view": {"tab": "Schedule", ...},
//    "results": "results.json",
//    "search_models": ["bert-large", "models/y.json"]}
// "format", "version", "model" and "hardware" are required; the rest take their defaults
// (registry defaults, SearchSpace::phaze(), the exhaustive explorer on every core, no view
// state, no results, no extra search models). "search_models" are the models a search ranks
// together with "model" (a multi-model search: the geometric mean of each model's throughput
// over its reference-chip throughput); they are written only when there are some. A model or
// results path inside the project's folder is written relative to it, so a folder can be moved or
// shared whole; on reading, relative paths are resolved against the project's folder, so in memory
// they are always absolute (a zoo name stays a name). Every error names the source and the field; a
// newer version is refused with a clear message rather than half-read. Saving is atomic: the old
// file survives any failure.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/expected.h"
#include "core/hardware/hardware_point.h"
#include "core/hardware/training_config.h"
#include "core/search/explorer.h"
#include "core/search/search_objective.h"
#include "core/search/search_space.h"
#include "core/search/thread_pool.h"

namespace tandem::core::io {

struct ProjectFile {
    static constexpr std::string_view kFormat = "tandem-project";
    static constexpr int kVersion = 1;
    // ThreadPool takes 0 as "one thread per core" and at most ThreadPool::kMaxThreads.
    static constexpr std::int64_t kMaxThreads = search::ThreadPool::kMaxThreads;

    std::string model;  // zoo name, or an absolute path once loaded
    hardware::HardwarePoint hardware;
    hardware::TrainingConfig training;
    search::SearchSpace search = search::SearchSpace::phaze();
    search::ExplorerKind explorer = search::ExplorerKind::Exhaustive;  // written by its name
    std::int64_t threads = 0;                                          // 0: one per core
    // What the search ranks points by (search_objective.h); part of the fingerprint.
    search::SearchObjective objective = search::SearchObjective::Throughput;
    // Free-form UI state (selected tab, chosen layer, splitter sizes…). Values are written as
    // strings; a hand-written number or boolean is read as its JSON text ("2", "true").
    std::map<std::string, std::string> view;
    std::string results;  // path of a results JSON; empty: none
    // The models a search ranks besides `model` (zoo names, or absolute paths once loaded).
    std::vector<std::string> searchModels;

    bool operator==(const ProjectFile&) const = default;

    // `sourceName` prefixes every message; relative paths resolve against `directory`.
    static Expected<ProjectFile> parse(std::string_view text, std::string_view sourceName,
                                       const std::filesystem::path& directory);
    static Expected<ProjectFile> load(const std::filesystem::path& path);

    // Paths under `directory` are written relative to it. Pretty-printed, newline-terminated.
    std::string toJson(const std::filesystem::path& directory) const;

    // The part of the project a search's results depend on, as text: two projects with equal
    // fingerprints give equal search results. Left out: what every search point sets itself
    // (the accelerator fields a space searches — tensor and vector cores, lanes, global buffer,
    // the clock and HBM bandwidth when the space lists them, HBM capacity — and the microbatch
    // size and recompute), names and descriptions, and how the
    // search runs (explorer, threads), the view and the results path. An edit of the set-up's
    // chip therefore keeps a search's points current; a new model, cluster or space does not.
    std::string searchFingerprint() const;

    // Checks every section (registries, search space, thread count), then writes atomically.
    Status validate() const;
    Status save(const std::filesystem::path& path) const;
};

}  // namespace tandem::core::io
