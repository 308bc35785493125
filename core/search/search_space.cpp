#include "core/search/search_space.h"

#include <cmath>
#include <string>

#include "core/hardware/parameter_registry.h"

namespace tandem::core::search {

namespace {

using hardware::AcceleratorConfig;
using hardware::ParameterSpec;

// Longer lists are typos (a power-of-two dimension has at most a few dozen useful values), and
// the cap keeps the raw product below overflow.
constexpr std::size_t kMaxListLength = 64;
// Raw combinations enumerated before the area window: PHAZE's untied space has 605,696; the cap
// (2^20) keeps a mistyped space from enumerating for minutes or holding more than about 100 MB
// of chips (a search over a million chips is weeks of work on a workstation anyway).
constexpr double kMaxRawChips = double(1 << 20);

const std::string kPrefix = "search space: ";

const ParameterSpec& acceleratorSpec(std::string_view key) {
    return hardware::acceleratorParameters().find(key)->spec;
}

// Non-empty (unless allowed), at most kMaxListLength entries, each value inside `spec`, no value
// twice. `field` is the name in messages, e.g. "accelerator.numTensorCores".
Status checkList(const std::vector<std::int64_t>& values, const std::string& field,
                 const ParameterSpec& spec, bool allowEmpty = false) {
    if (values.empty() && !allowEmpty)
        return Error{kPrefix + field + " is empty: list at least one value, each " +
                     spec.describeRange()};
    if (values.size() > kMaxListLength)
        return Error{kPrefix + field + " has " + std::to_string(values.size()) +
                     " values: at most " + std::to_string(kMaxListLength) + " are allowed"};
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double value = double(values[i]);
        if (!spec.check(value, "").ok())
            return Error{kPrefix + field + "[" + std::to_string(i) +
                         "] = " + spec.formatValue(value) + " is out of range: must be " +
                         spec.describeRange()};
        for (std::size_t j = 0; j < i; ++j)
            if (values[j] == values[i])
                return Error{kPrefix + field + " lists " + spec.formatValue(value) +
                             " twice (entries " + std::to_string(j) + " and " + std::to_string(i) +
                             "); each value must appear once"};
    }
    return Status::success();
}

std::string describeChip(const AcceleratorConfig& c) {
    return "numTensorCores " + std::to_string(c.numTensorCores) + ", tensorCoreRows " +
           std::to_string(c.tensorCoreRows) + ", tensorCoreCols " +
           std::to_string(c.tensorCoreCols) + ", numVectorCores " +
           std::to_string(c.numVectorCores) + ", vectorCoreLanes " +
           std::to_string(c.vectorCoreLanes) + ", globalBufferBytes " +
           std::to_string(c.globalBufferBytes);
}

}  // namespace

std::string_view toString(VectorLanesRule rule) {
    return rule == VectorLanesRule::TiedToTensorCoreCols ? "tensorCoreCols" : "free";
}

std::vector<std::int64_t> SearchSpace::powersOfTwo(std::int64_t min, std::int64_t max) {
    std::vector<std::int64_t> values;
    const auto isPowerOfTwo = [](std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; };
    if (!isPowerOfTwo(min) || !isPowerOfTwo(max) || min > max) return values;
    for (std::int64_t v = min;; v *= 2) {
        values.push_back(v);
        if (v == max) break;
    }
    return values;
}

SearchSpace SearchSpace::phaze() {
    constexpr std::int64_t kMiB = std::int64_t(1) << 20;
    constexpr std::int64_t kGiB = std::int64_t(1) << 30;
    SearchSpace space;
    space.name = "phaze";
    space.base.name = "tpuv4-like";
    space.base.description =
        "TPUv4-like reference chip: 1.2 TB/s HBM, 1.05 GHz, 2 bytes per element; 1,024 chips on "
        "one flat 4 GiB/s link";
    // AcceleratorConfig and ClusterConfig default to the reference chip and PHAZE's cluster.
    space.numTensorCores = powersOfTwo(1, 4096);
    space.tensorCoreRows = powersOfTwo(2, 256);
    space.tensorCoreCols = powersOfTwo(2, 256);
    space.numVectorCores = powersOfTwo(1, 4096);
    space.vectorLanes = VectorLanesRule::TiedToTensorCoreCols;
    space.globalBufferBytes = powersOfTwo(2 * kMiB, 128 * kMiB);
    space.hbmCapacityBytes = {32 * kGiB, 64 * kGiB, 80 * kGiB};
    space.microbatchSizes = {1, 2, 4, 8};
    space.recompute = {hardware::Recompute::Off, hardware::Recompute::On};
    return space;
}

Status SearchSpace::validate() const {
    const auto& accelerators = hardware::acceleratorParameters();
    if (Status s = accelerators.validate(base.accelerator); !s.ok())
        return Error{kPrefix + "base: " + s.message()};
    if (Status s = hardware::clusterParameters().validate(base.cluster); !s.ok())
        return Error{kPrefix + "base: " + s.message()};

    const std::pair<const std::vector<std::int64_t>*, std::string_view> searched[] = {
        {&numTensorCores, "numTensorCores"},
        {&tensorCoreRows, "tensorCoreRows"},
        {&tensorCoreCols, "tensorCoreCols"},
        {&numVectorCores, "numVectorCores"},
        {&globalBufferBytes, "globalBufferBytes"}};
    double raw = 1;
    for (const auto& [values, key] : searched) {
        if (Status s = checkList(*values, "accelerator." + std::string(key), acceleratorSpec(key));
            !s.ok())
            return s;
        raw *= double(values->size());
    }
    if (vectorLanes == VectorLanesRule::TiedToTensorCoreCols) {
        if (!vectorCoreLanes.empty())
            return Error{
                kPrefix + "accelerator.vectorCoreLanes is tied to tensorCoreCols but also lists " +
                std::to_string(vectorCoreLanes.size()) + " values: give either the tie or a list"};
    } else {
        if (Status s = checkList(vectorCoreLanes, "accelerator.vectorCoreLanes",
                                 acceleratorSpec("vectorCoreLanes"));
            !s.ok())
            return s;
        raw *= double(vectorCoreLanes.size());
    }
    if (raw > kMaxRawChips)
        return Error{kPrefix + "the accelerator lists combine into " + hardware::formatNumber(raw) +
                     " chips before the area window: at most " +
                     hardware::formatNumber(kMaxRawChips) + " are allowed; shorten a list"};

    if (!std::isfinite(areaBudgetSquareMillimetres) || areaBudgetSquareMillimetres <= 0)
        return Error{kPrefix + "areaBudgetSquareMillimetres = " +
                     hardware::formatNumber(areaBudgetSquareMillimetres) +
                     " is out of range: must be a finite number > 0 (mm²)"};
    if (!(minAreaFraction >= 0 && minAreaFraction <= 1))
        return Error{kPrefix + "minAreaFraction = " + hardware::formatNumber(minAreaFraction) +
                     " is out of range: must be a number in [0, 1] (fraction of the budget)"};

    if (Status s =
            checkList(hbmCapacityBytes, "hbmCapacityBytes", acceleratorSpec("hbmCapacityBytes"));
        !s.ok())
        return s;
    if (Status s = checkList(microbatchSizes, "microbatchSizes",
                             hardware::trainingParameters().find("microbatch")->spec);
        !s.ok())
        return s;
    if (recompute.empty())
        return Error{kPrefix + "recompute is empty: list at least one of off, on, auto"};
    for (std::size_t i = 0; i < recompute.size(); ++i) {
        const std::string_view name = hardware::toString(recompute[i]);
        if (name == "unknown")
            return Error{kPrefix + "recompute[" + std::to_string(i) + "] = " +
                         std::to_string(int(recompute[i])) + " is not one of off, on, auto"};
        for (std::size_t j = 0; j < i; ++j)
            if (recompute[j] == recompute[i])
                return Error{kPrefix + "recompute lists " + std::string(name) + " twice (entries " +
                             std::to_string(j) + " and " + std::to_string(i) +
                             "); each value must appear once"};
    }
    ParameterSpec width;
    width.key = "tensorParallelWidths";
    width.unit = "devices";
    width.minValue = 1;
    width.maxValue = double(base.cluster.devices);  // a stage's t devices must exist
    return checkList(tensorParallelWidths, "tensorParallelWidths", width, true);
}

Expected<std::vector<ChipConfiguration>> SearchSpace::enumerateChips() const {
    if (Status s = validate(); !s.ok()) return Error{s.message()};
    const hardware::AreaModel areaModel(allowAreaExtrapolation);
    const bool tied = vectorLanes == VectorLanesRule::TiedToTensorCoreCols;
    const std::vector<std::int64_t> oneLaneSlot{0};  // the tied case walks the lane loop once
    const std::vector<std::int64_t>& lanes = tied ? oneLaneSlot : vectorCoreLanes;
    std::vector<ChipConfiguration> chips;
    AcceleratorConfig c = base.accelerator;
    for (const std::int64_t tc : numTensorCores)
        for (const std::int64_t rows : tensorCoreRows)
            for (const std::int64_t cols : tensorCoreCols)
                for (const std::int64_t vc : numVectorCores)
                    for (const std::int64_t lane : lanes)
                        for (const std::int64_t glb : globalBufferBytes) {
                            c.numTensorCores = tc;
                            c.tensorCoreRows = rows;
                            c.tensorCoreCols = cols;
                            c.numVectorCores = vc;
                            c.vectorCoreLanes = tied ? cols : lane;
                            c.globalBufferBytes = glb;
                            Expected<hardware::AreaBreakdown> area = areaModel.breakdown(c);
                            if (!area.ok())
                                return Error{kPrefix + "chip (" + describeChip(c) +
                                             "): " + area.message()};
                            const double mm2 = area->totalSquareMillimetres();
                            if (!hardware::AreaModel::inPhazeAreaWindow(
                                    c, mm2, areaBudgetSquareMillimetres, minAreaFraction))
                                continue;
                            chips.push_back({c, area->totalSquareMicrometres(), mm2});
                        }
    if (chips.empty())
        return Error{kPrefix + "no chip lies in the area window [" +
                     hardware::formatNumber(minAreaFraction * areaBudgetSquareMillimetres) + ", " +
                     hardware::formatNumber(areaBudgetSquareMillimetres) +
                     "] mm² (the lower bound waived for one tensor or vector core); raise "
                     "areaBudgetSquareMillimetres, lower minAreaFraction or change the lists"};
    return chips;
}

std::vector<std::int64_t> SearchSpace::widthsFor(const model::ModelSource& model) const {
    return tensorParallelWidths.empty() ? model.tensorParallelWidths() : tensorParallelWidths;
}

}  // namespace tandem::core::search
