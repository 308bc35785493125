#include "core/io/search_results_json.h"

#include <nlohmann/json.hpp>

#include "core/common/json_document.h"
#include "core/common/text_file.h"
#include "core/hardware/hardware_json.h"
#include "core/hardware/parameter_registry.h"
#include "core/hardware/parameter_spec.h"
#include "core/io/placement_json.h"

namespace tandem::core::io {
namespace {

using Json = nlohmann::ordered_json;
using hardware::formatNumber;

// The searched accelerator fields, written by hand: the points array is most of the file and
// building a JSON tree for 700,000 points would cost more memory than the search itself. An
// optional field (search_space.h) is written only where it differs from the base's value, so a
// search that does not vary it writes what PHAZE's results always held.
void appendChip(std::string& out, const hardware::AcceleratorConfig& a,
                const hardware::AcceleratorConfig& base) {
    char separator = '{';
    for (const search::SearchedField& f : search::kSearchedFields) {
        const auto& field = search::parameterOf(f);
        const double value = field.get(a);
        if (f.optional && value == field.get(base)) continue;
        out += separator;
        out += '"';
        out += f.key;
        out += "\":";
        out += f.optional ? formatNumber(value) : std::to_string(std::int64_t(value));
        separator = ',';
    }
    out += '}';
}

void appendPointFields(std::string& out, const search::SearchPoint& p,
                       const hardware::AcceleratorConfig& base) {
    out += "{\"index\":" + std::to_string(p.index);
    out += ",\"chip_index\":" + std::to_string(p.chipIndex);
    out += ",\"hardware\":";
    appendChip(out, p.accelerator, base);
    out += ",\"area_mm2\":" + formatNumber(p.areaSquareMillimetres);
    out += ",\"microbatch\":" + std::to_string(p.microbatchSize);
    out += ",\"recompute\":\"" + std::string(hardware::toString(p.recompute)) + "\"";
    out += ",\"hbm_bytes\":" + std::to_string(p.hbmCapacityBytes());
}

// Energy and, with a budget, what training at the point takes (single model, feasible).
void appendEnergy(std::string& out, const search::EvaluatedPoint& e, const BudgetContext* budget) {
    const search::PlanShape& s = e.planShape;
    if (s.joulesPerIteration > 0) {
        out += ",\"energy_j_per_iteration\":" + formatNumber(s.joulesPerIteration);
        out += ",\"average_power_w\":" + formatNumber(s.averagePowerWatts);
    }
    if (!budget) return;
    const double samplesPerIteration = e.throughputSamplesPerSecond * s.timePerBatchSeconds;
    const auto cost =
        energy::trainingCost(budget->budget, samplesPerIteration * budget->tokensPerSample,
                             s.timePerBatchSeconds, s.devicesUsed, s.joulesPerIteration);
    if (!cost) return;
    out += ",\"days_to_train\":" + formatNumber(cost->days);
    out += ",\"device_hours\":" + formatNumber(cost->deviceHours);
    if (s.joulesPerIteration > 0)
        out += ",\"energy_mwh\":" + formatNumber(cost->energyMegawattHours);
    if (cost->hasCost) out += ",\"cost\":" + formatNumber(cost->cost);
}

void appendPoint(std::string& out, const search::EvaluatedPoint& e, bool multiModel,
                 bool withObjective, const hardware::AcceleratorConfig& base,
                 const BudgetContext* budget) {
    appendPointFields(out, e.point, base);
    out += ",\"status\":\"" + std::string(search::toString(e.status)) + "\"";
    if (withObjective) out += ",\"objective\":" + formatNumber(e.objective);
    if (multiModel) {
        out += ",\"model_throughputs_samples_per_s\":[";
        for (std::size_t i = 0; i < e.modelThroughputsSamplesPerSecond.size(); ++i)
            out += (i ? "," : "") + formatNumber(e.modelThroughputsSamplesPerSecond[i]);
        out += "]";
    }
    out += ",\"throughput_samples_per_s\":" + formatNumber(e.throughputSamplesPerSecond);
    out +=
        ",\"fixed_throughput_samples_per_s\":" + formatNumber(e.baselineThroughputSamplesPerSecond);
    const search::PlanShape& s = e.planShape;
    if (s.tensorParallel > 0) {
        out += ",\"plan\":{\"tensor_parallel\":" + std::to_string(s.tensorParallel);
        out += ",\"data_parallel\":" + std::to_string(s.dataParallel);
        out += ",\"stages\":" + std::to_string(s.stages);
        out += ",\"interleave\":" + std::to_string(s.interleave);
        out += ",\"zero\":" + std::to_string(s.zero);
        out += std::string(",\"sequence_parallel\":") + (s.sequenceParallel ? "true" : "false");
        if (s.devicesUsed > 0) out += ",\"devices_used\":" + std::to_string(s.devicesUsed);
        out += ",\"time_per_batch_s\":" + formatNumber(s.timePerBatchSeconds) + "}";
        if (!multiModel) appendEnergy(out, e, budget);
        out += "}";
    } else {
        out += ",\"plan\":null}";
    }
}

Json pointJson(const search::SearchPoint& p, const hardware::AcceleratorConfig& base) {
    std::string text;
    appendPointFields(text, p, base);
    text += "}";
    return Json::parse(text);
}

Json planObject(const std::shared_ptr<const placement::Plan>& plan,
                const std::vector<std::string>& names, const BudgetContext* budget = nullptr) {
    return plan ? Json::parse(planToJson(*plan, names, -1, budget)) : Json(nullptr);
}

Json baselinesJson(const search::SearchBaselines& b, const std::vector<std::string>& names,
                   const hardware::AcceleratorConfig& base) {
    Json out = Json::object();
    for (int i = 0; i < search::kBaselineCount; ++i) {
        const search::BaselineOutcome& o = search::baselineOutcome(b, i);
        Json entry = {{"available", o.available},
                      {"throughput_samples_per_s", o.throughputSamplesPerSecond},
                      {"joint_factor", b.factorOver(o)}};
        if (o.available) {
            entry["point"] = pointJson(o.point, base);
            if (o.plan) entry["plan"] = planObject(o.plan, names);
        } else {
            entry["message"] = o.message;
        }
        out[std::string(search::baselineKey(i))] = std::move(entry);
    }
    return out;
}

std::string indexList(const std::vector<std::size_t>& indices) {
    std::string out = "[";
    for (std::size_t i = 0; i < indices.size(); ++i)
        out += (i ? "," : "") + std::to_string(indices[i]);
    return out + "]";
}

}  // namespace

SearchReport makeSearchReport(const search::SearchOutcome& outcome,
                              const hardware::HardwarePoint& baseHardware) {
    SearchReport report;
    report.results = outcome.results;
    report.objective = outcome.objective;
    report.baseHardware = baseHardware;
    for (const search::ModelSearchReport& m : outcome.models)
        report.models.push_back({m.name, m.layerNames, m.baselines, m.plans});
    return report;
}

std::string searchReportToJson(const SearchReport& report) {
    static const search::SearchResults kEmpty;
    const search::SearchResults& results = report.results ? *report.results : kEmpty;
    const auto& stats = results.statistics();
    const bool multi = report.models.size() > 1;
    const bool withObjective = multi || report.objective != search::SearchObjective::Throughput;
    const BudgetContext* budget = report.budget ? &*report.budget : nullptr;

    Json head = {{"format", "tandem-search-results"}, {"version", 1}};
    Json names = Json::array();
    for (const auto& m : report.models) names.push_back(m.name);
    head["models"] = std::move(names);
    head["explorer"] = stats.explorer;
    head["threads"] = stats.threads;
    head["objective"] = std::string(search::toString(report.objective));
    head["base_hardware"] = hardware::hardwareToJsonObject(report.baseHardware);
    std::string out = jsonText(head);
    out.pop_back();  // reopen the object to stream the points
    if (report.run) out += ",\"run\":" + report.run->toJson();

    out.reserve(out.size() + results.points().size() * 330 + 4096);
    out += ",\"points\":[";
    for (std::size_t i = 0; i < results.points().size(); ++i) {
        if (i) out += ",\n";
        appendPoint(out, results.points()[i], multi, withObjective, report.baseHardware.accelerator,
                    budget);
    }
    out += "],\"pareto\":" + indexList(results.paretoByArea());
    out += ",\"pareto_by_hbm\":" + indexList(results.paretoByHbm());
    out += ",\"best\":" + (results.best() ? std::to_string(*results.best()) : std::string("null"));

    Json plans = Json::object();
    Json baselines = Json::object();
    for (const SearchModelReport& m : report.models) {
        for (const auto& [position, plan] : m.plans) {
            const std::string key = std::to_string(position);
            if (multi) {
                if (!plans.contains(key)) plans[key] = Json::object();
                plans[key][m.name] = planObject(plan, m.layerNames, budget);
            } else {
                plans[key] = planObject(plan, m.layerNames, budget);
            }
        }
        if (multi)
            baselines[m.name] =
                baselinesJson(m.baselines, m.layerNames, report.baseHardware.accelerator);
        else
            baselines = baselinesJson(m.baselines, m.layerNames, report.baseHardware.accelerator);
    }
    Json tail = {{"plans", std::move(plans)},
                 {"baselines", std::move(baselines)},
                 {"reference_in_space",
                  !report.models.empty() && report.models.front().baselines.referenceInSpace},
                 {"evaluated", stats.evaluated},
                 {"points_in_space", stats.pointsInSpace},
                 {"skipped", stats.skipped},
                 {"cancelled", stats.cancelled},
                 {"elapsed_s", stats.wallSeconds}};
    std::string tailText = jsonText(tail);
    out += ",";
    out.append(tailText, 1, std::string::npos);  // drop the tail object's opening brace
    out += "\n";
    return out;
}

Status saveSearchReportJson(const std::filesystem::path& path, const SearchReport& report) {
    return writeFileAtomically(path, searchReportToJson(report));
}

}  // namespace tandem::core::io
