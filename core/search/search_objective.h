#pragma once
// What a search ranks its points by (`search --objective`, the project's run.objective;
// docs/cost-model.md, "Energy" and "Time to train"). Every point's plan is the fastest placement
// of its chip and options, whatever the objective; the objective only orders the points:
//  - throughput:          samples per second (the default, PHAZE's objective);
//  - throughput-per-watt: samples per joule, i.e. samples per second per watt drawn by the
//                         devices in use (the plan's energy per iteration over its batch);
//  - cost:                samples per device-second, the inverse of the device-seconds (hence
//                         the cost at any price per device-hour) a sample takes — maximising it
//                         minimises the cost to train on any token budget.
// Its names are spelled only in search_objective.cpp.
#include <array>
#include <string>
#include <string_view>

#include "core/common/expected.h"
#include "core/placement/plan.h"

namespace tandem::core::search {

enum class SearchObjective { Throughput, ThroughputPerWatt, Cost };

inline constexpr std::array<SearchObjective, 3> kSearchObjectives{
    SearchObjective::Throughput, SearchObjective::ThroughputPerWatt, SearchObjective::Cost};

std::string_view toString(
    SearchObjective objective);  // "throughput", "throughput-per-watt", "cost"
// The inverse of toString(); another name is an error that quotes it and lists the valid ones.
Expected<SearchObjective> parseSearchObjective(std::string_view name);

// The objective's value for a plan, in SI units (samples/s, samples/J, samples/(device·s));
// 0 when the plan lacks what it needs (no energy, no devices, no time).
double objectiveValue(SearchObjective objective, const placement::Plan& plan);
// The same from a plan's figures: its throughput, devices in use and joules per iteration.
double objectiveValue(SearchObjective objective, double throughputSamplesPerSecond,
                      double devicesUsed, double joulesPerIteration, double samplesPerIteration);

// For people: "throughput", "throughput per watt", "cost to train" and the unit a value is shown
// in ("samples/s", "samples/kJ", "samples/device-h"), with the factor from the SI value to it.
std::string_view objectiveTitle(SearchObjective objective);
std::string_view objectiveUnit(SearchObjective objective);
double objectiveDisplayScale(SearchObjective objective);
// "12.3 samples/kJ": the value at three significant digits in its display unit.
std::string formatObjective(SearchObjective objective, double value);

}  // namespace tandem::core::search
