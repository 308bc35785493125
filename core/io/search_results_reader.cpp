#include "core/io/search_results_reader.h"

#include <charconv>
#include <climits>
#include <cmath>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/common/json_document.h"
#include "core/common/text_file.h"
#include "core/hardware/hardware_json.h"
#include "core/hardware/parameter_registry.h"
#include "core/io/search_results_fields.h"
#include "core/io/search_results_scan.h"
#include "core/io/search_run_info.h"
#include "core/search/search_space.h"

namespace tandem::core::io {
namespace {

using nlohmann::json;
using namespace results_json;

constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t(4) << 30;

// The top-level members of one file, read with messages "<source>: <key>: ...".
struct TopLevel {
    const json& members;
    std::string source;

    std::string at(std::string_view key) const { return source + ": " + std::string(key); }
    const json& get(std::string_view key) const {
        const auto it = members.find(key);
        if (it == members.end()) throw ReadError(at(key) + ": missing");
        return *it;
    }
    std::int64_t integer(std::string_view key, std::int64_t min, std::int64_t max) const {
        return integerValue(get(key), at(key), min, max);
    }
};

// The searched fields of `point` (and its HBM capacity) on the base accelerator; an optional
// field the point left out (NaN, search_results_fields.h) keeps the base's value.
hardware::AcceleratorConfig onBase(hardware::AcceleratorConfig base,
                                   const hardware::AcceleratorConfig& point) {
    for (const search::SearchedField& f : search::kSearchedFields) {
        const auto& field = search::parameterOf(f);
        const double value = field.get(point);
        if (!std::isnan(value)) field.set(base, value);
    }
    base.hbmCapacityBytes = point.hbmCapacityBytes;
    return base;
}

bool sameOptions(const search::SearchPoint& a, const search::SearchPoint& b) {
    return a.microbatchSize == b.microbatchSize && a.recompute == b.recompute &&
           a.hbmCapacityBytes() == b.hbmCapacityBytes();
}

bool sameChip(const search::SearchPoint& a, const search::SearchPoint& b) {
    hardware::AcceleratorConfig x = a.accelerator, y = b.accelerator;
    x.hbmCapacityBytes = y.hbmCapacityBytes = 0;
    return x == y;
}

std::vector<std::string> modelNames(const TopLevel& top) {
    const json& list = top.get("models");
    requireArray(list, top.at("models"));
    std::vector<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i)
        names.push_back(stringValue(list[i], top.at("models[" + std::to_string(i) + "]")));
    return names;
}

// "base_hardware" in the hardware file's form. A search's base may have no name, which a
// hardware file may not: such a base reads under a stand-in name that is then cleared again.
hardware::HardwarePoint baseHardwareOf(const TopLevel& top) {
    const json& object = top.get("base_hardware");
    const auto name = object.is_object() ? object.find("name") : object.end();
    const bool unnamed =
        name != object.end() && name->is_string() && name->get_ref<const std::string&>().empty();
    json named;
    if (unnamed) {
        named = object;
        named.erase("name");
    }
    Expected<hardware::HardwarePoint> base =
        hardware::hardwareFromJsonObject(unnamed ? named : object, top.at("base_hardware"));
    if (!base.ok()) throw ReadError(base.message());
    if (unnamed) base->name.clear();
    return std::move(base).value();
}

// "run" (search_run_info.h), when the file has one.
std::optional<SearchRunInfo> runOf(const TopLevel& top) {
    const auto it = top.members.find("run");
    if (it == top.members.end()) return std::nullopt;
    Expected<SearchRunInfo> run = SearchRunInfo::parseJson(
        it->dump(-1, ' ', false, json::error_handler_t::replace), top.at("run"));
    if (!run.ok()) throw ReadError(run.message());
    return std::move(run).value();
}

search::SearchStatistics statisticsOf(const TopLevel& top, std::size_t pointCount) {
    search::SearchStatistics s;
    s.explorer = stringValue(top.get("explorer"), top.at("explorer"));
    s.threads = int(top.integer("threads", 0, INT_MAX));
    s.evaluated = top.integer("evaluated", 0, kMaxInteger);
    s.pointsInSpace = top.integer("points_in_space", 0, kMaxInteger);
    s.skipped = top.integer("skipped", 0, kMaxInteger);
    s.cancelled = booleanValue(top.get("cancelled"), top.at("cancelled"));
    s.wallSeconds = numberValue(top.get("elapsed_s"), top.at("elapsed_s"), 0);
    if (std::uint64_t(s.evaluated) != pointCount)
        throw ReadError(top.at("evaluated") + ": " + std::to_string(s.evaluated) +
                        " does not match the " + std::to_string(pointCount) +
                        " points the file lists");
    if (s.evaluated > s.pointsInSpace)
        throw ReadError(top.at("points_in_space") + ": " + std::to_string(s.pointsInSpace) +
                        " is fewer than the " + std::to_string(s.evaluated) +
                        " points the file lists");
    return s;
}

// Completes the points read by the scan: accelerator fields from the base, the objective, the
// per-model throughputs' count and the index numbering of search_results_reader.h.
void completePoints(std::vector<search::EvaluatedPoint>& points, const TopLevel& top,
                    const hardware::AcceleratorConfig& base, std::size_t modelCount,
                    std::int64_t pointsInSpace, search::SearchObjective objective) {
    const bool withIndex = !points.empty() && points.front().point.index >= 0;
    const bool withChip = !points.empty() && points.front().point.chipIndex >= 0;
    std::int64_t chip = -1;
    for (std::size_t i = 0; i < points.size(); ++i) {
        search::EvaluatedPoint& e = points[i];
        const auto where = [&] { return top.at("points[" + std::to_string(i) + "]"); };
        e.point.accelerator = onBase(base, e.point.accelerator);
        if (std::isnan(e.objective)) {
            if (modelCount > 1 || objective != search::SearchObjective::Throughput)
                throw ReadError(where() + ".objective: missing");
            e.objective = e.throughputSamplesPerSecond;
        }
        const std::size_t n = e.modelThroughputsSamplesPerSecond.size();
        if (n != 0 && n != modelCount)
            throw ReadError(where() + ".model_throughputs_samples_per_s: " + std::to_string(n) +
                            " throughputs for " + std::to_string(modelCount) + " models");
        if ((e.point.index >= 0) != withIndex)
            throw ReadError(where() + ".index: " + (withIndex ? "missing" : "given") +
                            ", unlike points[0]'s (every point has one or none does)");
        if ((e.point.chipIndex >= 0) != withChip)
            throw ReadError(where() + ".chip_index: " + (withChip ? "missing" : "given") +
                            ", unlike points[0]'s (every point has one or none does)");
        if (!withIndex) e.point.index = std::int64_t(i);
        if (withIndex && i > 0 && e.point.index <= points[i - 1].point.index)
            throw ReadError(where() + ".index: " + std::to_string(e.point.index) +
                            " does not follow the previous point's " +
                            std::to_string(points[i - 1].point.index) +
                            " (points are listed in index order)");
        if (e.point.index >= pointsInSpace)
            throw ReadError(where() + ".index: " + std::to_string(e.point.index) +
                            " is past the space's " + std::to_string(pointsInSpace) + " points");
        if (!withChip) {
            if (i == 0 || !sameChip(e.point, points[i - 1].point)) ++chip;
            e.point.chipIndex = chip;
        }
    }
}

void checkPositions(const TopLevel& top, std::string_view key, std::size_t count) {
    const json& list = top.get(key);
    requireArray(list, top.at(key));
    for (std::size_t i = 0; i < list.size(); ++i)
        integerValue(list[i], top.at(std::string(key) + "[" + std::to_string(i) + "]"), 0,
                     std::int64_t(count) - 1);
}

// The position a "plans" key names: decimal digits, below `count`.
std::size_t positionOf(const std::string& key, std::size_t count, const std::string& where) {
    std::uint64_t value = 0;
    const char* end = key.data() + key.size();
    const auto [ptr, ec] = std::from_chars(key.data(), end, value);
    const bool digits =
        !key.empty() && ptr == end && ec == std::errc() && (key.size() == 1 || key.front() != '0');
    if (!digits || value >= count)
        throw ReadError(where + ": key " + jsonExcerpt(json(key.substr(0, 64))) +
                        " is not the position of a point (0 to " +
                        std::to_string(count == 0 ? 0 : count - 1) + ", " + std::to_string(count) +
                        " points)");
    return std::size_t(value);
}

// Numbers a baseline's point (search_results_reader.h): the equal searched point's numbers, or
// chip 0 and the option's offset for the reference chip's own grid.
void numberBaselinePoint(search::SearchPoint& p, int which, const search::SearchResults& results,
                         std::int64_t optionsPerChip) {
    if (p.chipIndex < 0) p.chipIndex = 0;
    if (p.index >= 0) return;  // the file carries it
    p.index = 0;
    const bool reference = which == 0 || which == 1 || which == 4;
    if (reference && optionsPerChip == 0) return;
    for (const search::EvaluatedPoint& e : results.points()) {
        if (!sameOptions(e.point, p)) continue;
        if (reference) {
            p.index = e.point.index % optionsPerChip;
            return;
        }
        if (sameChip(e.point, p) && e.point.areaSquareMillimetres == p.areaSquareMillimetres) {
            p.index = e.point.index;
            p.chipIndex = e.point.chipIndex;
            return;
        }
    }
}

SearchModelReport modelReport(const TopLevel& top, const std::string& name, std::size_t modelCount,
                              const search::SearchResults& results,
                              const hardware::AcceleratorConfig& base) {
    SearchModelReport report;
    report.name = name;
    LayerNames layers;
    const bool multi = modelCount > 1;
    const json& plans = top.get("plans");
    requireObject(plans, top.at("plans"));
    std::map<std::size_t, const json*> byPosition;  // numeric order, not the keys' text order
    for (const auto& [key, value] : plans.items())
        byPosition.emplace(positionOf(key, results.points().size(), top.at("plans")), &value);
    for (const auto& [position, value] : byPosition) {
        const std::string where = top.at("plans." + std::to_string(position));
        if (!multi) {
            report.plans[position] = planFromJson(*value, where, layers);
            continue;
        }
        requireObject(*value, where);
        if (const auto it = value->find(name); it != value->end())
            report.plans[position] = planFromJson(*it, where + "." + name, layers);
    }

    const json& all = top.get("baselines");
    requireObject(all, top.at("baselines"));
    const std::string where = top.at(multi ? "baselines." + name : "baselines");
    const json& mine = multi ? member(all, name, top.at("baselines")) : all;
    report.baselines = baselinesFromJson(mine, where, layers);
    report.baselines.referenceInSpace =
        booleanValue(top.get("reference_in_space"), top.at("reference_in_space"));
    report.baselines.partial = results.statistics().cancelled;

    // The options per chip, known when the file holds every point of the space.
    const auto& s = results.statistics();
    const std::int64_t chips =
        results.points().empty() ? 0 : results.points().back().point.chipIndex + 1;
    const bool complete =
        s.evaluated == s.pointsInSpace && chips > 0 && s.pointsInSpace % chips == 0;
    const std::int64_t optionsPerChip = complete ? s.pointsInSpace / chips : 0;
    const auto outcomes = outcomesOf(report.baselines);
    for (int i = 0; i < search::kBaselineCount; ++i) {
        search::BaselineOutcome& o = *outcomes[std::size_t(i)];
        if (!o.available) continue;
        o.point.accelerator = onBase(base, o.point.accelerator);
        numberBaselinePoint(o.point, i, results, optionsPerChip);
    }
    report.layerNames = layers.names();
    return report;
}

SearchReport assemble(std::string_view text, std::string_view sourceName) {
    std::vector<search::EvaluatedPoint> points;
    json members;
    if (Status scanned = scanSearchResults(text, sourceName, points, members); !scanned.ok())
        throw ReadError(scanned.message());
    const TopLevel top{members, std::string(sourceName)};
    if (!members.contains("format"))
        throw ReadError(top.source +
                        ": no \"format\" key: not a Tandem search-results file (expected "
                        "{\"format\": \"tandem-search-results\", \"version\": 1, ...})");
    const std::int64_t version = top.integer("version", 1, kMaxInteger);
    if (version != 1)
        throw ReadError(top.at("version") + ": " + std::to_string(version) +
                        " is newer than this Tandem reads (1)");
    const std::vector<std::string> names = modelNames(top);

    SearchReport report;
    report.baseHardware = baseHardwareOf(top);
    report.run = runOf(top);
    if (top.members.contains("objective")) {  // older files ranked by throughput
        auto kind =
            search::parseSearchObjective(stringValue(top.get("objective"), top.at("objective")));
        if (!kind) throw ReadError(top.at("objective") + ": " + kind.message());
        report.objective = *kind;
    }

    search::SearchStatistics statistics = statisticsOf(top, points.size());
    completePoints(points, top, report.baseHardware.accelerator, names.size(),
                   statistics.pointsInSpace, report.objective);
    auto results =
        std::make_shared<const search::SearchResults>(std::move(points), std::move(statistics));
    const std::size_t count = results->points().size();
    checkPositions(top, "pareto", count);
    checkPositions(top, "pareto_by_hbm", count);
    if (const json& best = top.get("best"); !best.is_null())
        integerValue(best, top.at("best"), 0, std::int64_t(count) - 1);
    booleanValue(top.get("reference_in_space"), top.at("reference_in_space"));

    if (names.empty() && !top.get("plans").empty())
        throw ReadError(top.at("plans") + ": plans given, but the file names no model");
    for (std::size_t m = 0; m < names.size(); ++m)
        report.models.push_back(
            modelReport(top, names[m], names.size(), *results, report.baseHardware.accelerator));
    report.results = std::move(results);
    return report;
}

}  // namespace

Expected<SearchReport> parseSearchReportJson(std::string_view text, std::string_view sourceName) {
    try {
        return assemble(text, sourceName);
    } catch (const ReadError& e) {
        return Error{e.what()};
    } catch (const std::bad_alloc&) {
        return Error{std::string(sourceName) + ": not enough memory to read the search results"};
    } catch (const std::exception& e) {
        return Error{std::string(sourceName) + ": unexpected error while reading: " + e.what()};
    }
}

Expected<SearchReport> loadSearchReportJson(const std::filesystem::path& path) {
    Expected<std::string> text = readTextFile(path, kMaxFileBytes);
    if (!text.ok()) return text.error();
    return parseSearchReportJson(*text, path.string());
}

}  // namespace tandem::core::io
