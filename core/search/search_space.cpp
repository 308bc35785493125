#include "core/search/search_space.h"

#include <array>
#include <cmath>
#include <functional>
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

using Field = hardware::Parameter<AcceleratorConfig>;

// "numTensorCores 4, tensorCoreRows 128, …" over the fields `space` searches.
std::string describeChip(const SearchSpace& space, const AcceleratorConfig& c) {
    std::string out;
    for (const SearchedField& f : kSearchedFields) {
        if (!space.searches(f)) continue;
        const Field& field = parameterOf(f);
        out += (out.empty() ? "" : ", ") + std::string(f.key) + " " +
               field.spec.formatValue(field.get(c));
    }
    return out;
}

bool tiedLanes(const SearchSpace& space, const SearchedField& f) {
    return space.vectorLanes == VectorLanesRule::TiedToTensorCoreCols &&
           f.values == &SearchSpace::vectorCoreLanes;
}

}  // namespace

bool SearchSpace::searches(const SearchedField& field) const {
    return !field.optional || !(this->*field.values).empty();
}

const hardware::Parameter<AcceleratorConfig>& parameterOf(const SearchedField& field) {
    static const auto records = [] {
        std::array<const hardware::Parameter<AcceleratorConfig>*, std::size(kSearchedFields)> out{};
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = hardware::acceleratorParameters().find(kSearchedFields[i].key);
        return out;
    }();
    const std::less<const SearchedField*> before;
    if (!before(&field, std::begin(kSearchedFields)) && before(&field, std::end(kSearchedFields)))
        return *records[std::size_t(&field - std::begin(kSearchedFields))];
    return *hardware::acceleratorParameters().find(field.key);  // a copy of an entry
}

std::span<const SearchedField* const> optionalSearchedFields() {
    static const auto fields = [] {
        std::array<const SearchedField*, kOptionalSearchedFieldCount> out{};
        std::size_t n = 0;
        for (const SearchedField& f : kSearchedFields)
            if (f.optional) out[n++] = &f;
        return out;
    }();
    return fields;
}

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

    double raw = 1;
    for (const SearchedField& f : kSearchedFields) {
        const std::vector<std::int64_t>& values = this->*f.values;
        const std::string field = "accelerator." + std::string(f.key);
        if (tiedLanes(*this, f)) {
            if (!values.empty())
                return Error{kPrefix + field + " is tied to tensorCoreCols but also lists " +
                             std::to_string(values.size()) +
                             " values: give either the tie or a list"};
            continue;
        }
        if (Status s = checkList(values, field, acceleratorSpec(f.key), f.optional); !s.ok())
            return s;
        raw *= double(std::max<std::size_t>(values.size(), 1));
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
    // An odometer over the searched fields' lists, the last field turning fastest; a field
    // left out (tied lanes, an optional field not searched) keeps the base's value.
    struct Wheel {
        const Field* field;
        const std::vector<std::int64_t>* values;
    };
    std::vector<Wheel> wheels;
    for (const SearchedField& f : kSearchedFields)
        if (searches(f) && !tiedLanes(*this, f))
            wheels.push_back({&parameterOf(f), &(this->*f.values)});
    const bool tied = vectorLanes == VectorLanesRule::TiedToTensorCoreCols;
    std::vector<std::size_t> at(wheels.size(), 0);
    std::vector<ChipConfiguration> chips;
    AcceleratorConfig c = base.accelerator;
    for (bool more = true; more;) {
        for (std::size_t w = 0; w < wheels.size(); ++w)
            wheels[w].field->set(c, double((*wheels[w].values)[at[w]]));
        if (tied) c.vectorCoreLanes = c.tensorCoreCols;
        Expected<hardware::AreaBreakdown> area = areaModel.breakdown(c);
        if (!area.ok())
            return Error{kPrefix + "chip (" + describeChip(*this, c) + "): " + area.message()};
        const double mm2 = area->totalSquareMillimetres();
        if (hardware::AreaModel::inPhazeAreaWindow(c, mm2, areaBudgetSquareMillimetres,
                                                   minAreaFraction))
            chips.push_back({c, area->totalSquareMicrometres(), mm2});
        more = false;
        for (std::size_t w = wheels.size(); w-- > 0;) {
            if (++at[w] < wheels[w].values->size()) {
                more = true;
                break;
            }
            at[w] = 0;
        }
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
