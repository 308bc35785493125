#include "core/search/search_objective.h"

#include <cmath>

#include "core/common/enum_names.h"
#include "core/common/text_excerpt.h"
#include "core/common/units.h"

namespace tandem::core::search {

namespace {
constexpr EnumNames<SearchObjective, 3> kObjectiveNames{{
    {SearchObjective::Throughput, "throughput"},
    {SearchObjective::ThroughputPerWatt, "throughput-per-watt"},
    {SearchObjective::Cost, "cost"},
}};
}  // namespace

std::string_view toString(SearchObjective objective) {
    return enumName(kObjectiveNames, objective);
}

Expected<SearchObjective> parseSearchObjective(std::string_view name) {
    SearchObjective objective{};
    if (parseEnumName(kObjectiveNames, name, objective)) return objective;
    std::string valid;
    for (SearchObjective o : kSearchObjectives)
        valid += (valid.empty() ? "" : ", ") + std::string(toString(o));
    return Error{"objective \"" + textExcerpt(name) + "\" is unknown: must be one of " + valid};
}

double objectiveValue(SearchObjective objective, double throughputSamplesPerSecond,
                      double devicesUsed, double joulesPerIteration, double samplesPerIteration) {
    const auto finiteOrZero = [](double v) { return std::isfinite(v) && v > 0 ? v : 0.0; };
    switch (objective) {
        case SearchObjective::Throughput:
            return throughputSamplesPerSecond;
        case SearchObjective::ThroughputPerWatt:
            return joulesPerIteration > 0 ? finiteOrZero(samplesPerIteration / joulesPerIteration)
                                          : 0.0;
        case SearchObjective::Cost:
            return devicesUsed > 0 ? finiteOrZero(throughputSamplesPerSecond / devicesUsed) : 0.0;
    }
    return 0;
}

double objectiveValue(SearchObjective objective, const placement::Plan& plan) {
    return objectiveValue(objective, plan.throughputSamplesPerSecond, double(plan.devicesUsed),
                          plan.energy.known ? plan.energy.totalJoules() : 0.0,
                          double(plan.globalBatch));
}

std::string_view objectiveTitle(SearchObjective objective) {
    switch (objective) {
        case SearchObjective::Throughput:
            return "throughput";
        case SearchObjective::ThroughputPerWatt:
            return "throughput per watt";
        case SearchObjective::Cost:
            return "cost to train";
    }
    return "";
}

std::string_view objectiveUnit(SearchObjective objective) {
    switch (objective) {
        case SearchObjective::Throughput:
            return "samples/s";
        case SearchObjective::ThroughputPerWatt:
            return "samples/kJ";
        case SearchObjective::Cost:
            return "samples/device-h";
    }
    return "";
}

double objectiveDisplayScale(SearchObjective objective) {
    switch (objective) {
        case SearchObjective::Throughput:
            return 1;
        case SearchObjective::ThroughputPerWatt:
            return 1e3;  // per joule → per kilojoule
        case SearchObjective::Cost:
            return 3600;  // per device-second → per device-hour
    }
    return 1;
}

std::string formatObjective(SearchObjective objective, double value) {
    if (objective == SearchObjective::Throughput) return formatThroughput(value);
    return formatSignificant(value * objectiveDisplayScale(objective)) + " " +
           std::string(objectiveUnit(objective));
}

}  // namespace tandem::core::search
