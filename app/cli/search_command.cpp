#include "app/cli/search_command.h"

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "app/cli/budget_flags.h"
#include "app/cli/cli_run_control.h"
#include "app/cli/mpi_job.h"
#include "app/cli/output_file.h"
#include "app/cli/search_summary.h"
#include "app/cli/split_search.h"
#include "app/cli/training_flags.h"
#include "core/common/system_memory.h"
#include "core/common/text_excerpt.h"
#include "core/common/units.h"
#include "core/hardware/parameter_registry.h"
#include "core/importers/model_loader.h"
#include "core/io/project_file.h"
#include "core/io/search_results_json.h"
#include "core/io/search_run_info.h"
#include "core/io/search_setup.h"
#include "core/placement/cost_model_kind.h"
#include "core/search/search_footprint.h"
#include "core/search/search_grid.h"
#include "core/search/search_run.h"
#include "core/search/thread_pool.h"

namespace tandem::cli {

namespace se = tandem::core::search;

namespace {

// The request the flags ask for (core::io::makeSearchSetup): a project (the GUI's file)
// supplies the model, the space, the training and the explorer; flags given as well override it.
core::Expected<core::io::SearchSetup> searchSetupFrom(const CliArguments& args) {
    std::optional<core::io::ProjectFile> project;
    const std::string projectPath = args.value("project").value_or("");
    if (args.value("project")) {
        auto loaded = core::io::ProjectFile::load(projectPath);
        if (!loaded) return loaded.error();
        project = std::move(*loaded);
    }
    core::io::SearchOverrides overrides;
    overrides.models = args.values("model");
    if (overrides.models.empty() && !project)
        return core::Error{"--model is required (a zoo name or a model file), or --project FILE"};
    overrides.space = args.value("space").value_or("");
    if (args.value("space") && overrides.space.empty())
        return core::Error{"--space needs \"phaze\" or a search space file (.json)"};
    // Each flag is range-checked only when given: its default is the project's or the space's.
    const auto optionalInteger =
        [&](const char* name, std::int64_t min,
            std::int64_t max) -> core::Expected<std::optional<std::int64_t>> {
        if (!args.value(name)) return std::optional<std::int64_t>();
        auto value = args.integer(name, min, min, max);
        if (!value) return value.error();
        return std::optional<std::int64_t>(*value);
    };
    auto devices = optionalInteger("devices", 1, 1000000);
    if (!devices) return devices.error();
    overrides.devices = *devices;
    if (const auto name = args.value("explorer")) {
        auto kind = se::parseExplorerKind(*name);
        if (!kind) return kind.error();
        overrides.explorer = *kind;
    }
    if (const auto name = args.value("objective")) {
        auto kind = se::parseSearchObjective(*name);
        if (!kind) return core::Error{"--" + kind.message()};
        overrides.objective = *kind;
    }
    auto threads = optionalInteger("threads", 0, se::ThreadPool::kMaxThreads);
    if (!threads) return threads.error();
    if (threads->has_value()) overrides.threads = int(**threads);
    auto batch = optionalInteger("global-batch", 1, 1 << 24);
    if (!batch) return batch.error();
    overrides.globalBatch = *batch;
    if (const auto c = args.value("cost-model")) {
        core::placement::CostModelKind kind{};
        if (!core::placement::parseCostModel(*c, kind))
            return core::Error{"--cost-model = '" + core::textExcerpt(*c) +
                               "' is not one of: native, phaze-compat"};
        overrides.costModel = kind;
    }
    auto setup = core::io::makeSearchSetup(project ? &*project : nullptr, projectPath, overrides,
                                           core::importers::loadModel);
    if (!setup) return setup.error();
    // Training and precision flags change the project's (or the defaults') where given.
    core::hardware::TrainingConfig& training = setup->request.training;
    if (auto status = applyTrainingFlags(args, training); !status)
        return core::Error{status.message()};
    if (auto status = core::hardware::trainingParameters().validate(training); !status)
        return core::Error{status.message()};
    if (const auto text = args.value("precision")) {
        core::hardware::AcceleratorConfig& base = setup->request.space.base.accelerator;
        bool known = false;
        for (const auto p : {core::hardware::Precision::Fp16, core::hardware::Precision::Bf16,
                             core::hardware::Precision::Fp8})
            if (core::hardware::toString(p) == *text) {
                base.precision = p;
                known = true;
            }
        if (!known)
            return core::Error{"--precision = '" + core::textExcerpt(*text) +
                               "' is not one of: fp16, bf16, fp8"};
        if (auto status = core::hardware::acceleratorParameters().validate(base); !status)
            return core::Error{"--precision " + *text + ": " + status.message()};
    }
    return setup;
}

// After the outputs are written: a warning about a checkpoint that could not be written, or,
// for a cancelled search, what the outputs hold and how to resume; the exit code.
int searchExitCode(const CliArguments& args, const CliRunControl& run,
                   const SplitExploration& explored,
                   const std::optional<std::filesystem::path>& checkpoint,
                   const se::SearchStatistics& stats, bool cancelled, std::ostream& err) {
    const bool checkpointFailed = !explored.checkpointError.empty();
    const std::int64_t checkpointHolds = explored.resumed + explored.checkpointWritten;
    if (!cancelled) {
        if (checkpointFailed)
            err << "tandem-cli search: warning: " << explored.checkpointError
                << "; the search went on without the checkpoint and its results are "
                   "complete ("
                << stats.evaluated << " of " << stats.pointsInSpace
                << " points); the checkpoint holds " << checkpointHolds << " of them\n";
        return kExitOk;
    }
    const std::string why = run.interruptedBy() != 0 ? run.interruptedText()
                                                     : std::string("interrupted on another rank");
    err << "tandem-cli search: " << why << " after " << stats.evaluated << " of "
        << stats.pointsInSpace << " points; "
        << (args.value("json") || args.value("csv")
                ? "the results written hold the points that finished (\"cancelled\": true)"
                : "the summary above covers the points that finished");
    if (checkpointFailed)
        err << "; the checkpoint holds " << checkpointHolds << " of them ("
            << explored.checkpointError
            << "): once it can be written, run the same command again to resume from those and "
               "evaluate the rest";
    else if (checkpoint)
        err << "; run the same command again to resume from the checkpoint";
    err << "\n";
    return run.interruptedBy() != 0 ? run.interruptedExitCode() : 128 + SIGTERM;
}

// Which part of the search this process runs: a shard (--shard K/N), with a checkpoint to resume
// from (--checkpoint FILE), or its share of an MPI job. Split runs need the exhaustive explorer.
struct RunPart {
    core::io::SearchShard shard;
    std::optional<std::filesystem::path> checkpoint;
    bool split = false;
};

core::Expected<RunPart> runPartFrom(const CliArguments& args, const se::SearchRequest& request,
                                    bool ranks) {
    RunPart part;
    if (const auto text = args.value("shard")) {
        auto parsed = parseShard(*text);
        if (!parsed) return parsed.error();
        part.shard = *parsed;
    }
    if (const auto path = args.value("checkpoint")) {
        if (path->empty()) return core::Error{"--checkpoint needs a file name"};
        part.checkpoint = *path;
    }
    part.split = part.shard.count > 0 || part.checkpoint || ranks;
    if (part.split && request.explorer != se::ExplorerKind::Exhaustive)
        return core::Error{
            "--shard, --checkpoint and mpirun split the exhaustive search, but this one "
            "uses the " +
            std::string(se::toString(request.explorer)) +
            " explorer, which picks each point from the ones before it; use --explorer "
            "exhaustive, or run it whole in one process"};
    return part;
}

// The grid of the request, sized before any work (search_footprint.h): a space this machine
// cannot hold is refused, saying into how many shards to split it, and a long one is announced
// (by rank 0 only).
core::Expected<se::SearchGrid> gridThatFits(const core::io::SearchSetup& setup,
                                            const core::io::SearchShard& shard, const MpiJob& job,
                                            std::ostream& err) {
    const se::SearchRequest& request = setup.request;
    auto grid = se::SearchGrid::create(request.space);
    if (!grid) return core::Error{setup.spaceMessage(grid.message())};
    const int threadsInAll =
        (request.threads > 0 ? request.threads : se::ThreadPool::defaultThreadCount()) * job.size();
    const se::SearchFootprint footprint = se::estimateSearchFootprint(
        grid->chipCount(), grid->optionsPerChip(), std::int64_t(request.models.size()),
        threadsInAll, shard.index, shard.count);
    if (auto fits = se::checkSearchMemory(footprint, core::availableMemoryBytes()); !fits)
        return core::Error{fits.message()};
    if (const std::string warning = se::longSearchWarning(footprint);
        !warning.empty() && job.rank() == 0)
        err << "tandem-cli search: warning: " << warning << "\n";
    return grid;
}

// Starts a split run (split_search.h) of `searchRun`'s grid; a checkpoint that cannot be written
// later is reported through `run` as a warning, and points the checkpoint holds twice as a note.
core::Expected<SplitStart> startSplitRun(const se::SearchRun& searchRun,
                                         const core::io::SearchRunInfo& info,
                                         const std::optional<std::filesystem::path>& checkpoint,
                                         CliRunControl& run, std::ostream& err) {
    auto onCheckpointFailure = [&run](const std::string& message) {
        run.warn("tandem-cli search: " + message +
                 "; the search goes on without the checkpoint and writes its results when it ends");
    };
    auto started = startSplit(searchRun.grid(), info, checkpoint, onCheckpointFailure);
    if (started && started->duplicates > 0)
        err << "tandem-cli search: note: " << checkpoint->string() << ": " << started->duplicates
            << " points appear twice (two runs wrote into it at once) with the same results; one "
               "of each is kept\n";
    return started;
}

// Runs the search: whole in this process, or (when split: `start` holds the shard's queue and
// checkpoint) from the queue, shared with the other ranks of an MPI job.
SplitExploration explore(se::SearchRun& searchRun, std::optional<SplitStart> start, MpiJob& job,
                         core::RunControl& control) {
    if (!start) {
        SplitExploration whole;
        whole.results = searchRun.explore(&control);
        return whole;
    }
    QueueExplorer viaRanks;
    if (job.size() > 1)
        viaRanks = [&](se::ChunkQueue& work, std::vector<se::EvaluatedPoint> done,
                       const se::PointCallback& onPoint) {
            return job.explore(searchRun, work, std::move(done), control, onPoint);
        };
    return exploreSplit(searchRun, std::move(*start), control, viaRanks);
}

// The summary's lines on how the search ran: its MPI ranks, its shard (of `shardPoints`
// points), its checkpoint.
void printHowItRan(std::ostream& summary, const MpiJob& job, int threads,
                   const core::io::SearchShard& shard, std::size_t shardPoints,
                   const std::optional<std::filesystem::path>& checkpoint,
                   const SplitExploration& explored) {
    if (job.size() > 1)
        summary << "MPI: " << job.size() << " ranks × " << threads
                << " threads shared the points on demand\n";
    if (shard.count > 0)
        summary << "Shard " << shard.index << "/" << shard.count << ": "
                << core::formatCount(double(shardPoints)) << " points (the chips c with c mod "
                << shard.count << " = " << shard.index - 1
                << "); join the shards with 'tandem-cli merge --json OUT FILES…'\n";
    if (checkpoint)
        summary << "Checkpoint " << checkpoint->string() << ": "
                << core::formatCount(double(explored.resumed)) << " points resumed from it, "
                << core::formatCount(double(explored.checkpointWritten)) << " added"
                << (explored.checkpointError.empty() ? "" : " before writing it failed") << "\n";
}

int runSearch(const CliArguments& args, std::ostream& out, std::ostream& err) {
    // Under mpirun every rank runs this function; all of them join the job first, and each
    // must reach agree() once, failing or not, so that no rank waits for one that gave up.
    auto joined = MpiJob::join();
    if (!joined) {
        err << "tandem-cli search: " << joined.message() << "\n";
        return kExitBadInput;
    }
    MpiJob& job = **joined;
    const bool ranks = job.size() > 1;
    const std::string who = ranks ? " (MPI rank " + std::to_string(job.rank()) + ")" : "";
    bool agreed = false;
    auto fail = [&](const std::string& message) {
        err << "tandem-cli search" << who << ": " << message << "\n";
        if (ranks && !agreed) {
            agreed = true;
            (void)job.agree("");  // tells the other ranks that this one cannot go on
        } else if (ranks && job.rank() == 0) {
            job.abort(kExitBadInput);  // the workers wait for chunks that will never come
        }
        return kExitBadInput;
    };
    auto setup = searchSetupFrom(args);
    if (!setup) return fail(setup.message());
    se::SearchRequest& request = setup->request;
    const std::vector<std::string>& models = setup->modelSpecs;

    // The budget is checked before any work; each point's plan trains at the sequence length.
    const auto budget = budgetFrom(args, double(core::placement::trainedSequenceLength(
                                             request.training, request.models.front().get())));
    if (!budget) return fail(budget.message());

    auto part = runPartFrom(args, request, ranks);
    if (!part) return fail(part.message());
    const core::io::SearchShard shard = part->shard;
    const std::optional<std::filesystem::path>& checkpoint = part->checkpoint;
    const bool split = part->split;
    auto info = core::io::describeSearchRun(models, request, shard);
    if (!info) return fail(info.message());

    auto grid = gridThatFits(*setup, shard, job, err);
    if (!grid) return fail(grid.message());

    CliRunControl run("search", err, args.has("quiet") || job.rank() != 0);
    auto prepared = se::SearchRun::prepare(request, std::move(*grid));
    if (!prepared) return fail(setup->spaceMessage(prepared.message()));
    se::SearchRun& searchRun = **prepared;
    // Only rank 0 keeps (and locks) the checkpoint: the points of every rank reach it. A write
    // that fails is reported at once; the search goes on without the checkpoint.
    std::optional<SplitStart> start;
    std::unique_ptr<se::CheckpointLock> checkpointLock;  // held until the results are written
    if (split) {
        auto started =
            startSplitRun(searchRun, *info, job.rank() == 0 ? checkpoint : std::nullopt, run, err);
        if (!started) return fail(started.message());
        start = std::move(*started);
        checkpointLock = std::move(start->lock);
    }
    if (ranks) {
        agreed = true;
        if (auto status = job.agree(info->toJson()); !status) {
            err << "tandem-cli search" << who << ": " << status.message() << "\n";
            return kExitBadInput;
        }
    }
    SplitExploration explored = explore(searchRun, std::move(start), job, run.control());
    run.endProgress();
    const bool cancelled = explored.results.statistics().cancelled;
    if (job.rank() != 0) return run.interruptedBy() != 0 ? run.interruptedExitCode() : kExitOk;

    const se::SearchOutcome outcome =
        searchRun.report(std::make_shared<const se::SearchResults>(std::move(explored.results)));
    core::io::SearchReport report = core::io::makeSearchReport(outcome, request.space.base);
    report.run = *info;
    report.budget = *budget;
    printHowItRan(summaryStream(args, out, err), job, searchRun.threads(), shard,
                  outcome.results->points().size(), checkpoint, explored);
    if (auto status = writeSearchOutputs(args, request, outcome, report, out, err); !status)
        return fail(status.message());
    return searchExitCode(args, run, explored, checkpoint, outcome.results->statistics(), cancelled,
                          err);
}

// "exhaustive (default), phaze or pruned", from core's names and default.
template <typename Kind, std::size_t N>
std::string choicesHelp(const std::array<Kind, N>& kinds, Kind byDefault) {
    std::string help;
    for (std::size_t i = 0; i < N; ++i) {
        if (i > 0) help += i + 1 == N ? " or " : ", ";
        help += se::toString(kinds[i]);
        if (kinds[i] == byDefault) help += " (default)";
    }
    return help;
}

}  // namespace

Command searchCommand() {
    std::vector<FlagSpec> flags = {
        {"model", "M", "zoo name or model file; repeat for a multi-model search", true},
        {"project", "FILE",
         "a Tandem project (model and search_models, hardware, training, space, explorer)"},
        {"space", "S", "'phaze' (default) or a search-space JSON file"},
        {"explorer", "E", choicesHelp(se::kExplorerKinds, se::SearchRequest{}.explorer)},
        {"objective", "O",
         "rank points by " + choicesHelp(se::kSearchObjectives, se::SearchRequest{}.objective) +
             " (samples/s, samples per joule, samples per device-hour); each point's plan is "
             "its fastest"},
        {"threads", "N", "worker threads, at most 256 (default: one per core)"},
        {"devices", "N", "devices in the cluster (default: the space's, 1,024)"},
        {"global-batch", "B", "samples per training step (default 4,096)"},
        {"cost-model", "C", "native (default) or phaze-compat"},
        {"json", "FILE",
         "write every point, the Pareto front, plans and baselines as JSON ('-': "
         "standard output)"},
        {"csv", "FILE",
         "write one row per point as CSV, units in the header ('-': standard output)"},
        {"shard", "K/N",
         "search only shard K of N (chips c with c mod N = K − 1), for job arrays; join the "
         "shards' --json files with 'tandem-cli merge'"},
        {"checkpoint", "FILE",
         "keep finished points in FILE (every 2 s); run again with the same FILE to resume; one "
         "run at a time (it holds FILE.lock)"},
        {"quiet", "", "no progress line on stderr"},
        {"precision", "fp16|bf16|fp8",
         "the number format of every chip's GEMMs (default: the space's base chip's)"},
    };
    for (auto& f : trainingFlags()) flags.push_back(f);
    for (auto& f : budgetFlags()) flags.push_back(f);
    return {"search",
            "co-search the accelerator and the placement over a design space",
            flags,
            runSearch,
            {}};
}

}  // namespace tandem::cli
