#pragma once
// The JSON file of `tandem-cli search --json FILE` and the GUI's results export:
//   {"format": "tandem-search-results", "version": 1, "models": [names], "explorer", "threads",
//    "base_hardware", "run": which run produced the file (search_run_info.h; only when known),
//    "points": [{"index", "chip_index" (the grid's numbers), "hardware": {searched accelerator
//                fields}, "area_mm2", "microbatch",
//                "recompute", "hbm_bytes", "status", "throughput_samples_per_s",
//                "fixed_throughput_samples_per_s", "plan": {"tensor_parallel", "data_parallel",
//                "stages", "interleave", "zero", "sequence_parallel", "devices_used",
//                "time_per_batch_s"} or null, and for a feasible single-model point
//                "energy_j_per_iteration", "average_power_w" and, with a token budget,
//                "days_to_train", "device_hours", "energy_mwh" (and "cost" with a price)}],
//    "pareto": [positions in points, by area], "pareto_by_hbm": [...], "best": position or null,
//    "plans": {"<position>": full plan (placement_json's form), for the Pareto points and the
//              best}, "baselines": {"reference_fixed", "reference_placed", "searched_fixed",
//              "joint", and the attribution chain "placement_only", "chip_only",
//              "chip_and_placement", "same_hbm" (search_baselines.h): each {"available",
//              "throughput_samples_per_s", "joint_factor", "point": {...}, "plan" or "message"}},
//              "reference_in_space",
//    "evaluated", "points_in_space", "skipped", "cancelled", "elapsed_s"}
// "objective" (after "threads") names what the points are ranked by (search_objective.h); a file
// without it ranked by throughput. Each point carries its "objective" value unless that is the
// throughput of a single-model search.
// The accelerator fields a space does not search (HBM bandwidth, clock, bytes per element) and
// the cluster are written once, in "base_hardware", which keeps the full PHAZE space (704,640
// points) near 250 MB. A multi-model search adds per point "objective" (the geometric mean of
// the normalised throughputs) and "model_throughputs_samples_per_s", writes "plans" values as
// one plan per model, and "baselines" as one such object per model, keyed by model name.
// Numbers are written so that they read back exactly.
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/expected.h"
#include "core/io/placement_json.h"
#include "core/io/search_run_info.h"
#include "core/placement/plan.h"
#include "core/search/search_baselines.h"
#include "core/search/search_results.h"
#include "core/search/search_run.h"
#include "core/search/search_space.h"

namespace tandem::core::io {

struct SearchModelReport {
    std::string name;
    std::vector<std::string> layerNames;  // to name each stage's layers in full plans
    search::SearchBaselines baselines;
    // Full plans by position in results.points() (the Pareto points and the best).
    std::map<std::size_t, std::shared_ptr<const placement::Plan>> plans;
};

struct SearchReport {
    std::shared_ptr<const search::SearchResults> results;
    hardware::HardwarePoint baseHardware;
    std::vector<SearchModelReport> models;  // one per model, search order
    // Which run produced the results (versions, models, space, shard); empty when not known
    // (a file written before runs were recorded, or a report built without one).
    std::optional<SearchRunInfo> run;
    search::SearchObjective objective = search::SearchObjective::Throughput;
    // A token budget (search --tokens): each feasible point and plan also says what training on
    // it takes. Not read back.
    std::optional<BudgetContext> budget;
};

// The report of a run, as `tandem-cli search --json` and the app's export write it.
SearchReport makeSearchReport(const search::SearchOutcome& outcome,
                              const hardware::HardwarePoint& baseHardware);

std::string searchReportToJson(const SearchReport& report);
Status saveSearchReportJson(const std::filesystem::path& path, const SearchReport& report);

}  // namespace tandem::core::io
