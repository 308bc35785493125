#pragma once
// Reads back the search-results JSON that search_results_json.h writes (`tandem-cli search
// --json FILE`, the app's "Export results as JSON"), single-model and multi-model forms, into a
// SearchReport. The file is streamed with nlohmann's SAX parser: the points (704,640 for the full
// PHAZE space, ~250 MB) are converted one at a time and never held as a JSON tree, so memory
// stays near the text plus the EvaluatedPoints (about twice the file's size at the peak); only
// the small sections (base hardware, plans, baselines, fronts) are built as trees. Numbers read
// back exactly as written.
//
// What comes back:
//  - results: every point with its status, throughput, fixed-strategy throughput, plan shape
//    (null "plan" → zeros), area, microbatch, recompute and accelerator: the searched fields
//    from the point, hbmCapacityBytes from "hbm_bytes", every other field (bandwidth, clock,
//    bytes per element, efficiencies, …) from "base_hardware". The objective is "objective"
//    (multi-model) or the throughput (single-model, which is what the evaluator sets), and the
//    per-model throughputs come from "model_throughputs_samples_per_s". The statistics: explorer,
//    threads, evaluated, points_in_space, skipped, cancelled, elapsed_s (wallSeconds). Fronts and
//    the best point are derived again by SearchResults; the file's "pareto", "pareto_by_hbm" and
//    "best" are only checked to be positions of its points.
//  - SearchPoint::index and chipIndex: the writer stores them as "index" and "chip_index",
//    which are read and checked. Files written before that lack them; then they are exact
//    when the file holds every point of the space (evaluated = points_in_space): the index is
//    the position, the chip index the chip's rank among the file's chips. A partial file
//    (cancelled, or pruned with skipped points) gets the same numbering, which keeps the order —
//    so the fronts and the best point — but not the grid's numbers. Baseline points take the
//    numbers of the equal point in the results (searched_fixed, joint, chip_only,
//    chip_and_placement, same_hbm); the reference-chip ones (reference_fixed, reference_placed,
//    placement_only), which lie on their own one-chip grid, get chip index 0 and their option's
//    offset within a chip of a complete file (0 in a partial one).
//  - models: name; the kBaselineCount outcomes (available, throughput, point, plan when
//    written, message when not available); referenceInSpace (one flag in the file, given to
//    every model); partial = "cancelled" (the reference chip's grid is never cancelled); the full
//    plans by position (a null plan stays a null entry).
//  - plans (full and baseline) as placement_json writes them: throughput, time per batch, t, d,
//    microbatch, microbatches per pipeline, recompute, sequence parallelism, interleave, bubble
//    fraction, Lmax, sync and optimizer step, devices used, breakdown, model FLOPs, MFU, and per
//    stage its layers, devices, forward/backward seconds, recompute flags, in-flight
//    microbatches and memory. Derived again: devicesPerPipeline (Σ stage devices), each stage's
//    position (S − k), memory.freeBytes (capacity − total), pipelineSeconds
//    (CostModel::timePerBatch without sync) and loadSeconds (forward + backward, equal to the
//    solver's up to rounding).
//  - run: the file's "run" (search_run_info.h) read with SearchRunInfo::parseJson, its
//    messages naming "<source>: run"; empty for a file without one (written before runs were
//    recorded).
//  - layerNames: the file has no list of them, only the names its plans give each stage's
//    layers. They are rebuilt in the order the plans list them (full plans by position, then the
//    baselines), and each plan's layer indices point into that list; this is the model's own
//    numbering whenever its layers are numbered in pipeline order (as for the zoo transformers
//    the tests search; a model whose topological order differs reads back renumbered).
//    A layer the writer gave as a number (no name known) keeps that number.
//
// Not carried by the format, so left at their defaults: EvaluatedPoint::message (why a point is
// not feasible), schedules, seconds, plan and baselinePlan (the search keeps no per-point plans;
// the shown ones are the models' plans), SearchStatistics::boundViolations, a baseline's joint
// factor (derived: SearchBaselines::factorOver), a multi-model normaliser, and in each plan
// costModel (Native), StagePlan::parameterBytes (0) and the per-device map Plan::devices (empty,
// as the search stores it; placement::assignDevices rebuilds it from the cluster's devices).
//
// Errors name the source and the field ("results.json: points[12].throughput_samples_per_s:
// expected a number, found string \"abc\""). Invalid or truncated JSON, nesting deeper than
// kMaxJsonDepth, duplicate keys, wrong types, negative counts, out-of-range chip fields and
// positions past the points are refused; a file of another Tandem format (project, model,
// hardware, search space) is refused saying what it is. Keys this reader does not know are
// ignored, so a newer writer's additions read.
#include <filesystem>
#include <string_view>

#include "core/common/expected.h"
#include "core/io/search_results_json.h"

namespace tandem::core::io {

// `sourceName` prefixes every message (a path, or e.g. "pasted results").
Expected<SearchReport> parseSearchReportJson(std::string_view text, std::string_view sourceName);

// Reads the file (up to 4 GiB; missing, unreadable and special files are errors naming the path)
// and parses it with the path as the source name.
Expected<SearchReport> loadSearchReportJson(const std::filesystem::path& path);

}  // namespace tandem::core::io
