#include "core/hardware/area_model.h"

#include <cmath>
#include <string>

#include "core/hardware/parameter_spec.h"

namespace tandem::core::hardware {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

constexpr AreaTablePoint kTensorCore[] = {
    {4, 9174},       {8, 12214},      {16, 18295},       {32, 30455},       {64, 54777},
    {128, 105534},   {256, 207181},   {512, 411281},     {1024, 816865},    {2048, 1619903},
    {4096, 3228709}, {8192, 6431023}, {16384, 12899083}, {32768, 25802926}, {65536, 51444202},
};
constexpr AreaTablePoint kVectorCore[] = {
    {2, 7654},   {4, 9173},   {8, 12213},    {16, 18291},
    {32, 30448}, {64, 54763}, {128, 105506}, {256, 207125},
};
constexpr AreaTablePoint kGlobalBuffer[] = {
    {2 * kMiB, 3338220},   {4 * kMiB, 6078640},   {8 * kMiB, 11952400},    {16 * kMiB, 23745200},
    {32 * kMiB, 46750900}, {64 * kMiB, 88605700}, {128 * kMiB, 175423000},
};

// Power law through two table points, evaluated at x (inside or, when extrapolating, outside).
double logLog(const AreaTablePoint& a, const AreaTablePoint& b, double x) {
    const double t = (std::log(x) - std::log(a.size)) / (std::log(b.size) - std::log(a.size));
    return std::exp(std::log(a.areaSquareMicrometres) +
                    t * (std::log(b.areaSquareMicrometres) - std::log(a.areaSquareMicrometres)));
}

// `what` describes the value for messages, e.g. "a tensor core of 1 PEs"; `formatSize` prints a
// table size with its unit.
Expected<double> lookUp(std::span<const AreaTablePoint> table, double x, bool extrapolate,
                        const std::string& what, std::string (*formatSize)(double)) {
    if (!std::isfinite(x) || x <= 0)
        return Error{"area model: " + what + " has no area: the size must be positive"};
    const AreaTablePoint& first = table.front();
    const AreaTablePoint& last = table.back();
    if (x < first.size || x > last.size) {
        if (!extrapolate)
            return Error{"area model: " + what + " is outside the area table [" +
                         formatSize(first.size) + ", " + formatSize(last.size) +
                         "]; choose a size inside the table or allow extrapolation"};
        return x < first.size ? logLog(table[0], table[1], x)
                              : logLog(table[table.size() - 2], last, x);
    }
    for (std::size_t i = 0; i + 1 < table.size(); ++i) {
        if (x == table[i].size) return table[i].areaSquareMicrometres;
        if (x < table[i + 1].size) return logLog(table[i], table[i + 1], x);
    }
    return last.areaSquareMicrometres;
}

std::string processingElements(double pes) {
    return formatNumber(pes) + " PEs";
}
std::string lanes(double count) {
    return formatNumber(count) + " lanes";
}
std::string bytesAndMebibytes(double bytes) {
    return formatNumber(bytes) + " B (" + formatNumber(bytes / kMiB) + " MiB)";
}

}  // namespace

std::span<const AreaTablePoint> AreaModel::tensorCoreTable() {
    return kTensorCore;
}
std::span<const AreaTablePoint> AreaModel::vectorCoreTable() {
    return kVectorCore;
}
std::span<const AreaTablePoint> AreaModel::globalBufferTable() {
    return kGlobalBuffer;
}

Expected<double> AreaModel::tensorCoreSquareMicrometres(double pes) const {
    return lookUp(kTensorCore, pes, allowExtrapolation_,
                  "a tensor core of " + processingElements(pes), &processingElements);
}

Expected<double> AreaModel::vectorCoreSquareMicrometres(double laneCount) const {
    return lookUp(kVectorCore, laneCount, allowExtrapolation_,
                  "a vector core of " + lanes(laneCount), &lanes);
}

Expected<double> AreaModel::globalBufferSquareMicrometres(double bytes) const {
    return lookUp(kGlobalBuffer, bytes, allowExtrapolation_,
                  "a global buffer of " + bytesAndMebibytes(bytes), &bytesAndMebibytes);
}

Expected<AreaBreakdown> AreaModel::breakdown(const AcceleratorConfig& config) const {
    if (config.numTensorCores < 1 || config.numVectorCores < 1)
        return Error{
            "area model: accelerator.numTensorCores = " + std::to_string(config.numTensorCores) +
            " and accelerator.numVectorCores = " + std::to_string(config.numVectorCores) +
            " must both be at least 1"};
    const double pes = double(config.tensorCoreRows) * double(config.tensorCoreCols);
    Expected<double> tc = tensorCoreSquareMicrometres(pes);
    if (!tc.ok())
        return Error{tc.message() + " [accelerator.tensorCoreRows × tensorCoreCols = " +
                     std::to_string(config.tensorCoreRows) + " × " +
                     std::to_string(config.tensorCoreCols) + "]"};
    Expected<double> vc = vectorCoreSquareMicrometres(double(config.vectorCoreLanes));
    if (!vc.ok()) return Error{vc.message() + " [accelerator.vectorCoreLanes]"};
    Expected<double> glb = globalBufferSquareMicrometres(double(config.globalBufferBytes));
    if (!glb.ok()) return Error{glb.message() + " [accelerator.globalBufferBytes]"};
    AreaBreakdown result;
    result.tensorCoresSquareMicrometres = double(config.numTensorCores) * *tc;
    result.vectorCoresSquareMicrometres = double(config.numVectorCores) * *vc;
    result.globalBufferSquareMicrometres = *glb;
    return result;
}

Expected<double> AreaModel::areaSquareMicrometres(const AcceleratorConfig& config) const {
    Expected<AreaBreakdown> parts = breakdown(config);
    if (!parts.ok()) return parts.error();
    return parts->totalSquareMicrometres();
}

Expected<double> AreaModel::areaSquareMillimetres(const AcceleratorConfig& config) const {
    Expected<AreaBreakdown> parts = breakdown(config);
    if (!parts.ok()) return parts.error();
    return parts->totalSquareMillimetres();
}

bool AreaModel::inPhazeAreaWindow(const AcceleratorConfig& config, double areaSquareMillimetres,
                                  double budgetSquareMillimetres, double minFraction) {
    if (areaSquareMillimetres > budgetSquareMillimetres) return false;
    if (config.numTensorCores == 1 || config.numVectorCores == 1) return true;
    return areaSquareMillimetres >= minFraction * budgetSquareMillimetres;
}

}  // namespace tandem::core::hardware
