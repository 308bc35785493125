#include "app/cli/search_summary.h"

#include "app/cli/place_output.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "app/cli/output_file.h"
#include "app/cli/text_table.h"
#include "core/common/units.h"
#include "core/hardware/chip_description.h"
#include "core/search/search_space.h"

namespace tandem::cli {

namespace se = tandem::core::search;
namespace hw = tandem::core::hardware;
using core::formatFixed;
using core::formatSeconds;

namespace {

std::string count(double n) {
    return core::formatCount(n);
}

std::string throughput(double samplesPerSecond) {
    return core::formatThroughput(samplesPerSecond);
}

// An optional searched field's value (clock, HBM bandwidth) with its unit.
std::string searchedValue(const se::SearchedField& f, double value) {
    const std::string_view unit = se::parameterOf(f).spec.unit;
    if (unit == "Hz") return core::formatFrequency(value);
    if (unit == "B/s") return core::formatRate(value, "B");
    return hw::formatNumber(value) + " " + std::string(unit);
}

// The point's chip, with the optional fields the space searches, and its options.
std::string pointText(const se::SearchPoint& p, const se::SearchSpace& space) {
    std::string searched;
    for (const se::SearchedField* f : se::optionalSearchedFields())
        if (space.searches(*f))
            searched += " · " + std::string(se::parameterOf(*f).spec.label) + " " +
                        searchedValue(*f, se::parameterOf(*f).get(p.accelerator));
    return hw::describeChip(p.accelerator) + searched + " · HBM " +
           core::formatBytes(double(p.hbmCapacityBytes())) + " · " +
           formatFixed(p.areaSquareMillimetres, 1) + " mm² · mbs " +
           std::to_string(p.microbatchSize) + " · recompute " +
           std::string(hw::toString(p.recompute));
}

// "t 8, d 16, 8 stages", then ", V 2", ", ZeRO 1" and ", sequence parallel" for what a plan
// runs beyond plain 1F1B without ZeRO.
std::string shapeText(std::int64_t t, std::int64_t d, std::int64_t stages, std::int64_t interleave,
                      std::int64_t zero, bool sequenceParallel) {
    std::string text = "t " + std::to_string(t) + ", d " + std::to_string(d) + ", " +
                       core::countText(stages, "stage", "stages");
    if (interleave > 1) text += ", V " + std::to_string(interleave);
    if (zero > 0) text += ", ZeRO " + std::to_string(zero);
    if (sequenceParallel) text += ", sequence parallel";
    return text;
}

std::string planText(const std::shared_ptr<const core::placement::Plan>& plan) {
    if (!plan) return "";
    return shapeText(plan->tensorParallel, plan->dataParallel, std::int64_t(plan->stages.size()),
                     plan->interleave, plan->zero, plan->sequenceParallel);
}

void printBaselines(std::ostream& out, const se::ModelSearchReport& report, bool multi,
                    const se::SearchSpace& space) {
    const se::SearchBaselines& b = report.baselines;
    const std::pair<const char*, const se::BaselineOutcome*> rows[] = {
        {"reference chip + fixed strategy", &b.referenceFixed},
        {"reference chip + Tandem placement", &b.referencePlaced},
        {"searched chip + fixed strategy", &b.searchedFixed},
        {"  same options: reference chip + placement", &b.placementOnly},
        {"  same options: searched chip + fixed", &b.chipOnly},
        {"  same options: searched chip + placement", &b.chipAndPlacement},
        {"  same HBM: searched point + placement", &b.sameHbm},
        {multi       ? "chosen chip + Tandem placement"
         : b.partial ? "best so far (cancelled)"
                     : "joint optimum",
         &b.joint}};
    TextTable table({"baseline", "throughput", "joint ×", "plan", "point"},
                    {false, true, true, false, false});
    for (const auto& [name, o] : rows) {
        if (!o->available) {
            table.addRow({name, "—", "—", "", o->message});
            continue;
        }
        const double factor = b.factorOver(*o);
        table.addRow({name, throughput(o->throughputSamplesPerSecond),
                      factor > 0 ? formatFixed(factor, 2) + "×" : "—", planText(o->plan),
                      pointText(o->point, space)});
    }
    table.print(out, "  ");
    if (!b.referenceInSpace)
        out << "  note: the reference chip is not among the searched chips, so the joint "
               "optimum may fall below the reference baselines.\n";
}

// The commonest reasons points did not fit (at most three, most frequent first, ties in text
// order), so a search whose space holds runs that cannot happen says why without the CSV.
void printInfeasibleReasons(std::ostream& out, const se::SearchResults& r) {
    std::map<std::string, std::int64_t> reasons;
    std::int64_t total = 0;
    for (const se::EvaluatedPoint& p : r.points())
        if (!p.feasible() && p.status != se::PointStatus::Cancelled) {
            ++reasons[p.message.empty() ? std::string("no reason recorded") : p.message];
            ++total;
        }
    if (total == 0) return;
    std::vector<std::pair<std::string, std::int64_t>> sorted(reasons.begin(), reasons.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    out << "Not feasible: " << count(double(total)) << " points; most often:\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(3, sorted.size()); ++i)
        out << "  " << count(double(sorted[i].second)) << " × " << sorted[i].first << "\n";
    if (sorted.size() > 3)
        out << "  (" << count(double(sorted.size() - 3))
            << " other reasons: each point's is in the CSV and JSON)\n";
}

}  // namespace

void printSearchSummary(std::ostream& out, const se::SearchRequest& request,
                        const se::SearchOutcome& outcome, const core::io::BudgetContext* budget) {
    const se::SearchResults& r = *outcome.results;
    const se::SearchStatistics& s = r.statistics();
    const bool multi = request.models.size() > 1;
    std::string names;
    for (const auto& m : outcome.models) names += (names.empty() ? "" : ", ") + m.name;
    const auto feasible = std::count_if(r.points().begin(), r.points().end(),
                                        [](const se::EvaluatedPoint& p) { return p.feasible(); });
    out << "Search: " << names << " over '" << request.space.name << "' ("
        << count(double(outcome.chips)) << " chips, " << count(double(s.pointsInSpace))
        << " points), " << s.explorer << " explorer, " << s.threads << " threads";
    if (outcome.objective != se::SearchObjective::Throughput)
        out << ", ranked by " << se::objectiveTitle(outcome.objective) << " ("
            << se::objectiveUnit(outcome.objective) << ")";
    out << "\n";
    // A merge explores nothing itself: its time is the shards' (their elapsed times summed).
    const double seconds = outcome.timings.search > 0 ? outcome.timings.search : s.wallSeconds;
    out << "Evaluated " << count(double(s.evaluated)) << " points (" << count(double(feasible))
        << " feasible";
    if (s.skipped) out << ", " << count(double(s.skipped)) << " skipped by the bound";
    if (s.carried) out << "; " << count(double(s.carried)) << " of them from before";
    out << ") in " << formatSeconds(seconds) << " ("
        << formatFixed(double(s.evaluated - s.carried) / std::max(1e-9, seconds), 0) << " points/s)"
        << (s.cancelled ? " — CANCELLED: partial results" : "") << "\n";
    printInfeasibleReasons(out, r);
    if (!r.best()) {
        out << "No point fits: every configuration runs out of HBM or fails (see the CSV/JSON "
               "for each point's reason).\n";
    } else {
        const se::EvaluatedPoint& best = r.points()[*r.best()];
        out << (s.cancelled ? "Best point so far: " : "Best point: ")
            << pointText(best.point, request.space) << "\n  ";
        if (multi) {
            const std::string what(se::objectiveTitle(outcome.objective));
            out << "objective " << formatFixed(best.objective, 3) << " (geometric mean of " << what
                << " / reference-chip " << what << ")";
            for (std::size_t m = 0; m < outcome.models.size(); ++m)
                out << "; " << outcome.models[m].name << " "
                    << throughput(best.modelThroughputsSamplesPerSecond[m]);
            out << "\n";
        } else {
            const se::PlanShape& shape = best.planShape;
            out << throughput(best.throughputSamplesPerSecond) << " with "
                << shapeText(shape.tensorParallel, shape.dataParallel, shape.stages,
                             shape.interleave, shape.zero, shape.sequenceParallel)
                << ", " << formatSeconds(shape.timePerBatchSeconds) << " per batch";
            if (outcome.objective != se::SearchObjective::Throughput)
                out << "; " << se::formatObjective(outcome.objective, best.objective);
            out << "\n";
            const auto& plans = outcome.models.front().plans;
            if (const auto plan = plans.find(*r.best()); plan != plans.end() && plan->second)
                printPlanEnergy(out, *plan->second, budget);
        }
    }
    out << "Pareto front: " << r.paretoByArea().size() << " points ("
        << se::objectiveTitle(outcome.objective) << " vs area), " << r.paretoByHbm().size()
        << " (vs HBM)\n";
    for (const se::ModelSearchReport& m : outcome.models) {
        out << "\nBaselines for " << m.name << ":\n";
        if (outcome.objective != se::SearchObjective::Throughput)
            out << "  (compared in throughput; the joint optimum is the best point by "
                << se::objectiveTitle(outcome.objective) << ")\n";
        printBaselines(out, m, multi, request.space);
    }
    const se::SearchTimings& t = outcome.timings;
    out << "\nTime per phase: graphs " << formatSeconds(t.graphs) << ", reference chip "
        << formatSeconds(t.reference) << ", search " << formatSeconds(seconds);
    if (t.search > 0) {
        out << " wall (CPU: estimate " << formatSeconds(t.estimateCpu) << ", schedule "
            << formatSeconds(t.scheduleCpu) << ", placement " << formatSeconds(t.placementCpu)
            << ")";
    } else {  // merged: the parts' own times, which the results files carry
        out << " in the parts (their times summed)";
    }
    out << ", plans and baselines " << formatSeconds(t.reports) << "; total "
        << formatSeconds(t.total) << "\n";
}

std::ostream& summaryStream(const CliArguments& args, std::ostream& out, std::ostream& err) {
    return args.value("json") == std::string(kStandardOutput) ||
                   args.value("csv") == std::string(kStandardOutput)
               ? err
               : out;
}

core::Status writeSearchOutputs(const CliArguments& args, const se::SearchRequest& request,
                                const se::SearchOutcome& outcome,
                                const core::io::SearchReport& report, std::ostream& out,
                                std::ostream& err) {
    if (const auto path = args.value("json")) {
        if (auto status = writeOutputFile(*path, core::io::searchReportToJson(report), out, err);
            !status)
            return status;
    }
    if (const auto path = args.value("csv")) {
        if (auto status = writeOutputFile(*path, outcome.results->toCsv(), out, err); !status)
            return status;
    }
    printSearchSummary(summaryStream(args, out, err), request, outcome,
                       report.budget ? &*report.budget : nullptr);
    return {};
}

}  // namespace tandem::cli
