#include "ui/charts/point_colouring.h"

#include <algorithm>
#include <array>

#include "core/common/units.h"
#include "core/hardware/parameter_registry.h"
#include "ui/charts/point_text.h"

namespace tandem::ui {

namespace {
// Stops of a perceptually ordered dark-purple → teal → green scale; the yellow end of viridis is
// left out because it is unreadable as small dots on a white background.
constexpr std::array<std::array<int, 3>, 5> kStops{
    {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {170, 210, 40}}};

std::size_t optionalIndex(ColourDimension dimension) {
    return std::size_t(dimension) - std::size_t(ColourDimension::OptionalField);
}

const core::hardware::Parameter<core::hardware::AcceleratorConfig>* registryField(
    ColourDimension dimension) {
    return core::hardware::acceleratorParameters().find(
        core::search::optionalSearchedFields()[optionalIndex(dimension)]->key);
}

QColor scaleColour(double t) {
    t = std::clamp(t, 0.0, 1.0) * double(kStops.size() - 1);
    const auto i = std::min(std::size_t(t), kStops.size() - 2);
    const double f = t - double(i);
    const auto mix = [&](int c) {
        return int(kStops[i][std::size_t(c)] * (1 - f) + kStops[i + 1][std::size_t(c)] * f + 0.5);
    };
    return QColor(mix(0), mix(1), mix(2));
}
}  // namespace

QList<ColourDimension> PointColouring::dimensions() {
    QList<ColourDimension> out;
    for (std::size_t d = 0; d < kColourDimensionCount; ++d) out << ColourDimension(d);
    return out;
}

QString PointColouring::dimensionName(ColourDimension dimension) {
    switch (dimension) {
        case ColourDimension::MicrobatchSize:
            return QStringLiteral("Microbatch size");
        case ColourDimension::TensorCoreCount:
            return QStringLiteral("Tensor cores");
        case ColourDimension::TensorCoreSize:
            return QString::fromUtf8("Tensor-core size (rows×cols)");
        case ColourDimension::VectorCoreCount:
            return QStringLiteral("Vector cores");
        case ColourDimension::GlobalBuffer:
            return QStringLiteral("Global buffer");
        case ColourDimension::HbmCapacity:
            return QStringLiteral("HBM capacity");
        case ColourDimension::Recompute:
            return QStringLiteral("Recompute");
        default:
            break;
    }
    const std::string_view label = registryField(dimension)->spec.label;
    return QString::fromUtf8(label.data(), qsizetype(label.size()));
}

double PointColouring::valueOf(ColourDimension dimension, const DesignPointRecord& r) {
    switch (dimension) {
        case ColourDimension::MicrobatchSize:
            return r.microbatchSize;
        case ColourDimension::TensorCoreCount:
            return r.tensorCores;
        case ColourDimension::TensorCoreSize:
            return double(r.tensorCoreRows) * r.tensorCoreCols;
        case ColourDimension::VectorCoreCount:
            return r.vectorCores;
        case ColourDimension::GlobalBuffer:
            return double(r.globalBufferBytes);
        case ColourDimension::HbmCapacity:
            return double(r.hbmCapacityBytes);
        case ColourDimension::Recompute:
            return double(int(r.recompute));
        default:
            break;
    }
    return r.optionalFields[optionalIndex(dimension)];
}

void PointColouring::reset(ColourDimension dimension) {
    dimension_ = dimension;
    values_ = listed_[std::size_t(dimension)];
    idAt_.resize(values_.size());
    for (std::size_t k = 0; k < values_.size(); ++k) idAt_[k] = int(k);
    assignBuckets();
}

void PointColouring::setValueLists(const core::search::SearchSpace& space) {
    const auto sorted = [](std::vector<double> values) {
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        return values;
    };
    const auto doubles = [&](const std::vector<std::int64_t>& list) {
        return sorted(std::vector<double>(list.begin(), list.end()));
    };
    std::vector<double> sizes;  // rows × cols of every pair the lists allow
    for (auto rows : space.tensorCoreRows)
        for (auto cols : space.tensorCoreCols) sizes.push_back(double(rows) * double(cols));
    std::vector<double> recompute;
    for (auto r : space.recompute) recompute.push_back(double(int(r)));
    listed_[std::size_t(ColourDimension::MicrobatchSize)] = doubles(space.microbatchSizes);
    listed_[std::size_t(ColourDimension::TensorCoreCount)] = doubles(space.numTensorCores);
    listed_[std::size_t(ColourDimension::TensorCoreSize)] = sorted(std::move(sizes));
    listed_[std::size_t(ColourDimension::VectorCoreCount)] = doubles(space.numVectorCores);
    listed_[std::size_t(ColourDimension::GlobalBuffer)] = doubles(space.globalBufferBytes);
    listed_[std::size_t(ColourDimension::HbmCapacity)] = doubles(space.hbmCapacityBytes);
    listed_[std::size_t(ColourDimension::Recompute)] = sorted(std::move(recompute));
    const auto optional = core::search::optionalSearchedFields();
    for (std::size_t k = 0; k < optional.size(); ++k) {
        // Not searched: every chip has the base's value.
        const std::vector<std::int64_t>& list = space.*optional[k]->values;
        listed_[std::size_t(ColourDimension::OptionalField) + k] =
            list.empty()
                ? std::vector<double>{registryField(
                                          ColourDimension(
                                              std::size_t(ColourDimension::OptionalField) + k))
                                          ->get(space.base.accelerator)}
                : doubles(list);
    }
    hasLists_ = true;
    reset(dimension_);
}

void PointColouring::clearValueLists() {
    for (auto& list : listed_) list.clear();
    hasLists_ = false;
    reset(dimension_);
}

bool PointColouring::observe(const DesignPointRecord& record) {
    const double v = valueOf(dimension_, record);
    const auto it = std::lower_bound(values_.begin(), values_.end(), v);
    if (it != values_.end() && *it == v) return false;
    idAt_.insert(idAt_.begin() + (it - values_.begin()), int(values_.size()));
    values_.insert(it, v);
    assignBuckets();
    return true;
}

void PointColouring::assignBuckets() {
    bucketOfId_.resize(values_.size());
    for (std::size_t k = 0; k < values_.size(); ++k)
        bucketOfId_[std::size_t(idAt_[k])] = bucketOfPosition(k);
}

int PointColouring::valueIdOf(const DesignPointRecord& record) const {
    const double v = valueOf(dimension_, record);
    const auto it = std::lower_bound(values_.begin(), values_.end(), v);
    if (it == values_.end() || *it != v) return -1;
    return idAt_[std::size_t(it - values_.begin())];
}

int PointColouring::bucketCount() const {
    return int(std::min<std::size_t>(values_.size(), kMaxBuckets));
}

int PointColouring::bucketOfPosition(std::size_t position) const {
    if (values_.size() <= std::size_t(kMaxBuckets)) return int(position);
    return int(position * std::size_t(kMaxBuckets) / values_.size());
}

int PointColouring::bucketOf(const DesignPointRecord& record) const {
    const double v = valueOf(dimension_, record);
    const auto it = std::lower_bound(values_.begin(), values_.end(), v);
    // Unobserved values go to the nearest bucket rather than out of range.
    const auto position = std::min<std::size_t>(std::size_t(it - values_.begin()),
                                                values_.empty() ? 0 : values_.size() - 1);
    return bucketOfPosition(position);
}

QString PointColouring::valueLabel(double v) const {
    switch (dimension_) {
        case ColourDimension::MicrobatchSize:
            return v == 1 ? QStringLiteral("1 sample") : QStringLiteral("%1 samples").arg(v);
        case ColourDimension::TensorCoreCount:
            return QStringLiteral("%1 TC").arg(v);
        case ColourDimension::TensorCoreSize:
            return QStringLiteral("%1 PE/TC").arg(QString::fromStdString(core::formatCount(v)));
        case ColourDimension::VectorCoreCount:
            return QStringLiteral("%1 VC").arg(v);
        case ColourDimension::GlobalBuffer:
        case ColourDimension::HbmCapacity:
            return QString::fromStdString(core::formatBytes(v));
        case ColourDimension::Recompute:
            return QStringLiteral("recompute ") + recomputeText(core::hardware::Recompute(int(v)));
        default:
            break;
    }
    return searchedValueText(core::search::optionalSearchedFields()[optionalIndex(dimension_)]->key,
                             v);
}

QString PointColouring::bucketLabel(int bucket) const {
    std::size_t first = values_.size(), last = 0;
    for (std::size_t i = 0; i < values_.size(); ++i) {
        if (bucketOfPosition(i) != bucket) continue;
        first = std::min(first, i);
        last = i;
    }
    if (first >= values_.size()) return {};
    if (first == last) return valueLabel(values_[first]);
    return valueLabel(values_[first]) + QString::fromUtf8(" – ") + valueLabel(values_[last]);
}

QColor PointColouring::bucketColour(int bucket) const {
    const int n = bucketCount();
    return scaleColour(n <= 1 ? 0.5 : double(bucket) / double(n - 1));
}

}  // namespace tandem::ui
