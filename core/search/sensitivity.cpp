#include "core/search/sensitivity.h"

#include <algorithm>
#include <cmath>

#include "core/hardware/parameter_registry.h"

namespace tandem::core::search {

namespace {

struct Outcome {
    bool fits = false;
    double throughput = 0;
    double joulesPerSample = 0;
    std::string note;
};

Expected<Outcome> place(const placement::ModelPlacementRequest& request, RunControl* control) {
    RunControl inner(RunControl::SilentChildOf{control});
    auto placed = placement::placeModel(request, &inner);
    if (!placed) return placed.error();
    Outcome out;
    const auto& plan = placed->result.plan;
    if (!plan) {
        out.note = placed->result.infeasibleReason;
        return out;
    }
    out.fits = true;
    out.throughput = plan->throughputSamplesPerSecond;
    if (plan->energy.known && plan->globalBatch > 0)
        out.joulesPerSample = plan->energy.totalJoules() / double(plan->globalBatch);
    return out;
}

bool moved(const hardware::ParameterSpec& spec) {
    return spec.kind != hardware::ParameterKind::Choice && !spec.powerOfTwo;
}

// The value `fraction` below (sign −1) or above (+1) `base`; an integer moves at least one.
double shifted(const hardware::ParameterSpec& spec, double base, double fraction, int sign) {
    const double target = base * (1 + sign * fraction);
    if (spec.kind != hardware::ParameterKind::Integer) return target;
    const double rounded = std::round(target);
    return rounded == base ? base + sign : rounded;
}

template <class Config>
void addEntries(const hardware::ParameterRegistry<Config>& registry, const Config& config,
                std::vector<SensitivityEntry>& out) {
    for (const auto& p : registry.parameters()) {
        if (!moved(p.spec)) continue;
        if (p.spec.key == "devices" || p.spec.key == "devicesPerNode") continue;
        SensitivityEntry e;
        e.section = std::string(registry.section());
        e.key = std::string(p.spec.key);
        e.label = std::string(p.spec.label);
        e.unit = std::string(p.spec.unit);
        e.base = p.get(config);
        out.push_back(std::move(e));
    }
}

// The request with `entry`'s field at `value`; an error (the registry's message) when refused.
Expected<placement::ModelPlacementRequest> withValue(const placement::ModelPlacementRequest& base,
                                                     const SensitivityEntry& entry, double value) {
    placement::ModelPlacementRequest request = base;
    const auto apply = [&](const auto& registry, auto& config) -> Status {
        const auto* parameter = registry.find(entry.key);
        if (!parameter) return Error{"unknown parameter " + entry.key};
        if (Status s = registry.assign(config, *parameter, value); !s.ok()) return s;
        return registry.validate(config);
    };
    const Status status =
        entry.section == "cluster"
            ? apply(hardware::clusterParameters(), request.hardware.cluster)
            : apply(hardware::acceleratorParameters(), request.hardware.accelerator);
    if (!status.ok()) return Error{status.message()};
    return request;
}

double relative(double value, double base) {
    return base > 0 && value > 0 ? value / base - 1 : 0.0;
}

}  // namespace

double SensitivityEntry::throughputChange(const SensitivitySide& side) const {
    return side.evaluated && side.fits ? relative(side.throughputSamplesPerSecond, baseThroughput)
                                       : (side.evaluated && baseThroughput > 0 ? -1.0 : 0.0);
}

double SensitivityEntry::energyChange(const SensitivitySide& side) const {
    return side.evaluated && side.fits ? relative(side.joulesPerSample, baseJoulesPerSample) : 0.0;
}

std::vector<std::pair<std::string, std::string>> sensitivityParameters() {
    std::vector<SensitivityEntry> entries;
    addEntries(hardware::acceleratorParameters(), hardware::AcceleratorConfig{}, entries);
    addEntries(hardware::clusterParameters(), hardware::ClusterConfig{}, entries);
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& e : entries) out.emplace_back(e.section, e.key);
    return out;
}

Expected<SensitivityResult> analyseSensitivity(const placement::ModelPlacementRequest& request,
                                               double fraction, RunControl* control) {
    if (!(fraction > 0) || fraction > 0.9)
        return Error{"sensitivity: the fraction must be in (0, 0.9], not " +
                     std::to_string(fraction)};
    SensitivityResult result;
    result.fraction = fraction;
    auto base = place(request, control);
    if (!base) return Error{"sensitivity: the point itself: " + base.message()};
    if (!base->fits)
        return Error{"sensitivity: nothing fits at this point (" + base->note +
                     "), so no change can be measured against it"};
    result.baseThroughputSamplesPerSecond = base->throughput;
    result.baseJoulesPerSample = base->joulesPerSample;
    std::vector<SensitivityEntry> entries;
    addEntries(hardware::acceleratorParameters(), request.hardware.accelerator, entries);
    addEntries(hardware::clusterParameters(), request.hardware.cluster, entries);
    const double total = double(2 * entries.size());
    double done = 0;
    for (SensitivityEntry& e : entries) {
        e.baseThroughput = base->throughput;
        e.baseJoulesPerSample = base->joulesPerSample;
        const auto* spec = e.section == "cluster"
                               ? &hardware::clusterParameters().find(e.key)->spec
                               : &hardware::acceleratorParameters().find(e.key)->spec;
        for (const int sign : {-1, +1}) {
            SensitivitySide& side = sign < 0 ? e.low : e.high;
            side.value = shifted(*spec, e.base, fraction, sign);
            if (control && control->cancelled()) {
                result.cancelled = true;
                continue;
            }
            auto changed = withValue(request, e, side.value);
            if (!changed) {
                side.note = changed.message();
            } else if (auto outcome = place(*changed, control); !outcome) {
                if (control && control->cancelled()) {
                    result.cancelled = true;
                    continue;
                }
                side.note = outcome.message();
            } else {
                side.evaluated = true;
                side.fits = outcome->fits;
                side.throughputSamplesPerSecond = outcome->throughput;
                side.joulesPerSample = outcome->joulesPerSample;
                side.note = outcome->note;
            }
            done += 1;
            if (control) control->report(done, total, e.label);
        }
    }
    const auto impact = [](const SensitivityEntry& e) {
        return std::make_pair(
            std::max(std::abs(e.throughputChange(e.low)), std::abs(e.throughputChange(e.high))),
            std::max(std::abs(e.energyChange(e.low)), std::abs(e.energyChange(e.high))));
    };
    std::stable_sort(entries.begin(), entries.end(),
                     [&](const SensitivityEntry& a, const SensitivityEntry& b) {
                         return impact(a) > impact(b);
                     });
    result.entries = std::move(entries);
    return result;
}

}  // namespace tandem::core::search
