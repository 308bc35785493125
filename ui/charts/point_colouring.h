#pragma once
// How the design-space chart colours its points: by one dimension of the configuration
// (microbatch size, tensor-core count, tensor-core size rows×cols, vector-core count, global
// buffer, HBM, recompute, and each optional searched field such as the clock). The distinct values,
// sorted, each get one colour of an ordered (viridis-like) scale, because every dimension is
// ordinal and "more" should read as "lighter". Beyond kMaxBuckets distinct values, neighbouring
// values share a bucket labelled with their range, so the legend stays readable for user-defined
// spaces. The values are the searched space's lists when it is known (setValueLists, before the
// search starts), so a value keeps its colour from the first streamed batch to the final results;
// values no list names (or every value, without a space) are added as points stream in, which
// re-assigns the buckets.
#include <QColor>
#include <QList>
#include <QString>
#include <array>
#include <vector>

#include "core/search/search_space.h"
#include "ui/charts/design_point_record.h"

namespace tandem::ui {

enum class ColourDimension {
    MicrobatchSize,
    TensorCoreCount,
    TensorCoreSize,  // rows × cols processing elements per tensor core
    VectorCoreCount,
    GlobalBuffer,
    HbmCapacity,
    Recompute,
    // OptionalField + k: the k-th of core::search::optionalSearchedFields() (clock, HBM
    // bandwidth, …), named and formatted by the parameter registry.
    OptionalField,
};

// Every dimension: the fixed ones and one per optional searched field.
inline constexpr std::size_t kColourDimensionCount =
    std::size_t(ColourDimension::OptionalField) + core::search::kOptionalSearchedFieldCount;

class PointColouring {
public:
    static constexpr int kMaxBuckets = 12;

    explicit PointColouring(ColourDimension dimension = ColourDimension::MicrobatchSize)
        : dimension_(dimension) {}

    static QList<ColourDimension> dimensions();
    static QString dimensionName(ColourDimension dimension);  // "Microbatch size", …
    static double valueOf(ColourDimension dimension, const DesignPointRecord& record);

    ColourDimension dimension() const { return dimension_; }
    // Forgets every observed value (e.g. for a new dimension or a new search); the value lists
    // of setValueLists stay and are the values again.
    void reset(ColourDimension dimension);
    // Every dimension's values from the space's lists (tensor cores, rows × cols, vector cores,
    // buffers, HBM sizes, microbatch sizes, recompute settings), known before the first point.
    // Resets the observed values, as reset() does.
    void setValueLists(const core::search::SearchSpace& space);
    // Back to values collected from the points alone.
    void clearValueLists();
    bool hasValueLists() const { return hasLists_; }
    // Records the point's value; true when it was new, i.e. buckets must be re-assigned.
    bool observe(const DesignPointRecord& record);

    int bucketCount() const;
    int bucketOf(const DesignPointRecord& record) const;  // 0 … bucketCount() − 1
    // Every distinct value also has a stable id, 0, 1, 2, … in the order values were first
    // observed: a new value shifts buckets but never ids, so a point's id can be stored once and
    // its bucket looked up at drawing time. −1 for a value not observed.
    int valueCount() const { return int(values_.size()); }
    int valueIdOf(const DesignPointRecord& record) const;
    int bucketOfValueId(int id) const { return bucketOfId_[std::size_t(id)]; }
    QString bucketLabel(int bucket) const;  // with its unit, e.g. "64 MiB"
    QColor bucketColour(int bucket) const;

private:
    int bucketOfPosition(std::size_t position) const;
    QString valueLabel(double value) const;

    void assignBuckets();

    ColourDimension dimension_;
    bool hasLists_ = false;
    // Per ColourDimension: the space's values, distinct and ascending.
    std::array<std::vector<double>, kColourDimensionCount> listed_;
    std::vector<double> values_;   // distinct, ascending
    std::vector<int> idAt_;        // id of values_[k]
    std::vector<int> bucketOfId_;  // bucket of the value with that id
};

}  // namespace tandem::ui
