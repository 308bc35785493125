#include "app/cli/merge_command.h"

#include <map>
#include <set>
#include <utility>

#include "app/cli/search_summary.h"
#include "app/cli/split_search.h"
#include "core/common/text_excerpt.h"
#include "core/common/version.h"
#include "core/importers/model_loader.h"
#include "core/io/search_results_reader.h"
#include "core/io/search_run_info.h"
#include "core/search/search_run.h"
#include "core/search/stored_point_check.h"
#include "core/search/thread_pool.h"

namespace tandem::cli {

namespace se = tandem::core::search;
namespace io = tandem::core::io;

namespace {

std::string shardName(const io::SearchShard& shard) {
    return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

std::string joined(const std::vector<std::string>& parts) {
    std::string text;
    for (const std::string& part : parts) text += (text.empty() ? "" : "; ") + part;
    return text;
}

// The shards named on the command line, read and checked to be the complete parts of one
// search (same run, same N, each K once, none interrupted); `fileOfShard` maps K to its file.
core::Expected<std::vector<io::SearchReport>> readShards(const std::vector<std::string>& files,
                                                         std::map<int, std::string>& fileOfShard) {
    std::vector<io::SearchReport> shards;
    for (const std::string& path : files) {
        auto report = io::loadSearchReportJson(path);
        const std::string file = core::textExcerpt(path);  // as messages quote it
        if (!report) return report.error();
        if (!report->run)
            return core::Error{
                file +
                ": says nothing of the run that wrote it (no \"run\"), so it cannot be "
                "checked against the other shards; write shards with 'tandem-cli search "
                "--shard K/N --json FILE'"};
        const io::SearchRunInfo& run = *report->run;
        if (run.shard.count == 0)
            return core::Error{file +
                               ": holds a whole search, not a shard; there is nothing to merge"};
        if (!shards.empty()) {
            const io::SearchRunInfo& first = *shards.front().run;
            if (const auto differ = io::differences(first, run); !differ.empty())
                return core::Error{file + " and " + core::textExcerpt(files.front()) +
                                   " are shards of different searches: " + joined(differ)};
            if (run.shard.count != first.shard.count)
                return core::Error{file + " is shard " + shardName(run.shard) + " but " +
                                   core::textExcerpt(files.front()) + " is shard " +
                                   shardName(first.shard) + "; the shards of one search share N"};
        }
        if (const auto [it, added] = fileOfShard.emplace(run.shard.index, file); !added)
            return core::Error{file + " and " + it->second + " are both shard " +
                               shardName(run.shard)};
        const auto& stats = report->results->statistics();
        if (stats.cancelled)
            return core::Error{
                file + ": shard " + shardName(run.shard) + " was interrupted after " +
                std::to_string(stats.evaluated) +
                " points; run it again (with --checkpoint to keep what it did) and merge "
                "the complete file"};
        shards.push_back(std::move(*report));
    }
    const io::SearchRunInfo& first = *shards.front().run;
    std::string missing;
    for (int k = 1; k <= first.shard.count; ++k)
        if (!fileOfShard.count(k))
            missing += (missing.empty() ? "" : ", ") + shardName({k, first.shard.count});
    if (!missing.empty())
        return core::Error{
            "shard" + std::string(missing.find(',') == std::string::npos ? " " : "s ") + missing +
            " missing: give every shard K = 1 … " + std::to_string(first.shard.count)};

    return shards;
}

// Every point of the shards in one result set, each checked against the grid (its shard, and
// what a stored point cannot hold: storedPointInconsistency); the shards' points are freed.
core::Expected<std::shared_ptr<const se::SearchResults>> joinShardPoints(
    std::vector<io::SearchReport>& shards, std::map<int, std::string>& fileOfShard,
    const se::SearchRun& run, const se::SearchRequest& request) {
    const se::SearchGrid& grid = run.grid();
    std::vector<se::EvaluatedPoint> points;
    points.reserve(std::size_t(grid.pointCount()));
    se::SearchStatistics statistics;
    statistics.explorer = std::string(se::toString(se::ExplorerKind::Exhaustive));
    statistics.threads = run.threads();
    statistics.pointsInSpace = grid.pointCount();
    for (std::size_t s = 0; s < shards.size(); ++s) {
        const io::SearchShard& shard = shards[s].run->shard;
        std::int64_t expected = 0;
        for (std::int64_t i = 0; i < grid.pointCount(); i += grid.optionsPerChip())
            if (inShard(shard, i, grid.optionsPerChip())) expected += grid.optionsPerChip();
        const auto& shardPoints = shards[s].results->points();
        if (std::int64_t(shardPoints.size()) != expected)
            return core::Error{fileOfShard[shard.index] + ": shard " + shardName(shard) +
                               " holds " + std::to_string(shardPoints.size()) +
                               " points, not its " + std::to_string(expected)};
        for (se::EvaluatedPoint p : shardPoints) {
            const std::int64_t index = p.point.index;
            if (index < 0 || index >= grid.pointCount() ||
                !inShard(shard, index, grid.optionsPerChip()))
                return core::Error{fileOfShard[shard.index] + ": point " + std::to_string(index) +
                                   " is not in shard " + shardName(shard)};
            p.point = grid.point(index);
            if (const std::string wrong = se::storedPointInconsistency(
                    p, request.training.globalBatch, request.space.base.cluster.devices,
                    request.objective);
                !wrong.empty())
                return core::Error{fileOfShard[shard.index] + ": point " + std::to_string(index) +
                                   " holds " + wrong +
                                   "; the file was edited or damaged: run shard " +
                                   shardName(shard) + " again"};
            points.push_back(std::move(p));
        }
        statistics.wallSeconds += shards[s].results->statistics().wallSeconds;
        shards[s].results.reset();  // the points are copied; free the shard's
    }
    return std::make_shared<const se::SearchResults>(std::move(points), statistics);
}

int runMerge(const CliArguments& args, std::ostream& out, std::ostream& err) {
    auto fail = [&err](const std::string& message) {
        err << "tandem-cli merge: " << message << "\n";
        return kExitBadInput;
    };
    const std::vector<std::string>& files = args.operands();
    if (files.empty())
        return fail(
            "no shards given: tandem-cli merge --json OUT FILES… (the --json files of "
            "'tandem-cli search --shard K/N')");
    if (!args.value("json") && !args.value("csv"))
        return fail("say where the merged results go: --json OUT (and/or --csv OUT)");
    const auto threads = args.integer("threads", 0, 0, se::ThreadPool::kMaxThreads);
    if (!threads) return fail(threads.message());

    // Read every shard and check that they are the parts of one search.
    std::map<int, std::string> fileOfShard;
    auto read = readShards(files, fileOfShard);
    if (!read) return fail(read.message());
    std::vector<io::SearchReport>& shards = *read;
    const io::SearchRunInfo& first = *shards.front().run;

    // The whole search's results: every point, plans and baselines derived again.
    auto request = io::toSearchRequest(first, core::importers::loadModel, int(*threads));
    if (!request) return fail(request.message());
    auto prepared = se::SearchRun::prepare(*request);
    if (!prepared) return fail(prepared.message());
    se::SearchRun& run = **prepared;
    const se::SearchGrid& grid = run.grid();
    auto joined = joinShardPoints(shards, fileOfShard, run, *request);
    if (!joined) return fail(joined.message());
    const std::shared_ptr<const se::SearchResults>& merged = *joined;
    // The points that decide the outcome (the best, both Pareto fronts) and a fixed sample of
    // the rest (one in kSampleEvery, and each shard's first) are evaluated again: an edited
    // value that would change the answer cannot pass, and other edits are caught by sample.
    constexpr std::size_t kSampleEvery = 251;  // prime: the sample spreads over every option
    std::set<std::size_t> check(merged->paretoByArea().begin(), merged->paretoByArea().end());
    check.insert(merged->paretoByHbm().begin(), merged->paretoByHbm().end());
    if (merged->best()) check.insert(*merged->best());
    // The shards by K, and the shard a point comes from (chips c with c mod N = K − 1).
    std::vector<std::size_t> shardByK(std::size_t(first.shard.count) + 1);
    for (std::size_t s = 0; s < shards.size(); ++s)
        shardByK[std::size_t(shards[s].run->shard.index)] = s;
    auto shardOf = [&](std::size_t position) {
        const std::int64_t chip = merged->points()[position].point.index / grid.optionsPerChip();
        return shardByK[std::size_t(chip % first.shard.count) + 1];
    };
    std::vector<char> sampled(shards.size(), 0);
    for (std::size_t i = 0; i < merged->points().size(); ++i)
        if (i % kSampleEvery == 0 || !std::exchange(sampled[shardOf(i)], 1)) check.insert(i);
    if (const auto differ = run.rederive(*merged, {check.begin(), check.end()}); !differ.empty()) {
        std::string list;
        for (std::size_t k = 0; k < differ.size() && k < 3; ++k) {
            const auto& [position, what] = differ[k];
            const io::SearchShard& shard = shards[shardOf(position)].run->shard;
            list += "\n  " + fileOfShard[shard.index] + " (shard " + shardName(shard) +
                    "), point " + std::to_string(merged->points()[position].point.index) + ": " +
                    what;
        }
        if (differ.size() > 3) list += "\n  and " + std::to_string(differ.size() - 3) + " more";
        return fail(
            "stored results disagree with the same points evaluated again, so a shard "
            "was edited, damaged or written by another Tandem version (" +
            std::string(core::version()) + " here):" + list +
            "\nrun those shards again with this version and merge the new files");
    }
    const se::SearchOutcome outcome = run.report(merged);
    io::SearchReport report = io::makeSearchReport(outcome, request->space.base);
    report.run = first;
    report.run->shard = {};
    summaryStream(args, out, err) << "Merged " << shards.size() << " shards of "
                                  << first.shard.count << "\n";
    if (auto status = writeSearchOutputs(args, *request, outcome, report, out, err); !status)
        return fail(status.message());
    return kExitOk;
}

}  // namespace

Command mergeCommand() {
    std::vector<FlagSpec> flags = {
        {"json", "FILE", "write the whole search's results as JSON ('-': standard output)"},
        {"csv", "FILE", "write one row per point as CSV ('-': standard output)"},
        {"threads", "N", "threads for re-deriving plans and baselines (default: one per core)"},
    };
    return {"merge", "join the results files of a search's shards (search --shard K/N)", flags,
            runMerge, "FILES…"};
}

}  // namespace tandem::cli
