#pragma once
// The points behind the design-space chart, without any drawing: compact records in arrival
// order, the message table, the colour buckets, the Pareto front (asked of core as points
// stream; taken from SearchResults at the end), the best point, the reference chip's best point,
// lookups by SearchPoint::index and nearest-point queries through a spatial grid. Kept apart
// from DesignSpaceChart so the bookkeeping can be reasoned about (and tested) on its own.
#include <QHash>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <vector>

#include "core/hardware/accelerator_config.h"
#include "core/hardware/area_model.h"
#include "core/search/evaluated_point.h"
#include "core/search/search_results.h"
#include "ui/charts/chunked_vector.h"
#include "ui/charts/design_point_record.h"
#include "ui/charts/point_colouring.h"
#include "ui/charts/point_grid.h"

namespace tandem::ui {

class DesignSpaceData {
public:
    // Forgets the points; the colour dimension, the space's value lists and the reference chip
    // stay.
    void clear();
    // Appends one point; Cancelled points are not answers and are skipped. Returns true when
    // the point brought a new colour value (bucket colours must then be re-assigned).
    bool add(const core::search::EvaluatedPoint& point);
    // The front of everything after records [from, end) were added.
    void mergeFront(std::size_t from);
    // Replaces everything by the results; their front and best are used as they are.
    void adoptResults(const core::search::SearchResults& results);
    void setColourDimension(ColourDimension dimension);
    // The searched space, known before its first point: colours come from its value lists
    // (PointColouring::setValueLists), so each value keeps one colour while points stream in
    // and after adoptResults. Call it before (or after) clear() for a new search.
    void setSpace(const core::search::SearchSpace& space);
    // Colours from the points alone (results whose space is unknown).
    void clearSpace();
    void setReferenceChip(std::optional<core::hardware::AcceleratorConfig> chip, QString name);
    // The searched models, in search order; more than one: a multi-model search, whose points
    // plot their objective and keep each model's throughput. Kept by clear(); call it before
    // the points arrive.
    void setModelNames(const QStringList& names);
    const QStringList& modelNames() const { return modelNames_; }
    // What the search ranks by; a single-model point plots it (DesignPointRecord). Kept by
    // clear(); call it before the points arrive.
    void setObjective(core::search::SearchObjective objective) { objective_ = objective; }
    core::search::SearchObjective objective() const { return objective_; }
    bool multiModel() const { return modelNames_.size() > 1; }
    // Record i's (model name, throughput) pairs; empty unless multi-model and feasible.
    std::vector<std::pair<QString, double>> modelThroughputs(std::size_t i) const;

    const ChunkedVector<DesignPointRecord>& records() const { return records_; }
    const DesignPointRecord& record(std::size_t i) const { return records_[i]; }
    std::size_t size() const { return records_.size(); }
    std::int64_t feasibleCount() const { return feasible_; }
    const PointColouring& colouring() const { return colouring_; }
    const std::vector<std::size_t>& front() const { return front_; }
    std::optional<std::size_t> best() const { return best_; }
    std::optional<std::size_t> referenceRecord() const { return referenceRecord_; }
    const QString& referenceName() const { return referenceName_; }
    // Data bounds over the points with finite coordinates (area, plotted throughput).
    QRectF bounds() const { return bounds_; }
    bool hasBounds() const { return hasBounds_; }

    // The record of SearchPoint::index `pointIndex`.
    std::optional<std::size_t> recordOf(std::int64_t pointIndex) const;
    // The record nearest to `pixel` within `radius` pixels; `toPixel` maps (area, plotted
    // throughput) to pixels, `dataRect` bounds the data that can be that near.
    std::optional<std::size_t> nearest(const QPointF& pixel, double radius, const QRectF& dataRect,
                                       const std::function<QPointF(double, double)>& toPixel) const;
    // Rich-text tooltip: the configuration, which marks the point carries, and why a chip below
    // the space's minimum area is there at all (one tensor or vector core: the rule is waived).
    QString tooltip(std::size_t i) const;

private:
    void considerForReference(std::size_t i);

    // Chunked: a batch appends without ever copying the records already held.
    ChunkedVector<DesignPointRecord> records_;
    std::vector<QString> messages_;  // DesignPointRecord::messageId → text
    QHash<QString, int> messageIds_;
    std::int64_t feasible_ = 0;
    QRectF bounds_;
    bool hasBounds_ = false;
    PointColouring colouring_;
    // The space's minimum area (minAreaFraction × budget); PHAZE's until a space is set.
    double minAreaFraction_ = core::hardware::AreaModel::kMinAreaFraction;
    double areaBudgetSquareMillimetres_ =
        core::hardware::AreaModel::kReferenceAreaSquareMillimetres;
    std::vector<std::size_t> front_;  // record positions, area ascending
    std::optional<std::size_t> best_;
    std::optional<core::hardware::AcceleratorConfig> referenceChip_;
    std::optional<std::size_t> referenceRecord_;
    QString referenceName_ = QStringLiteral("reference chip");
    QStringList modelNames_;
    core::search::SearchObjective objective_ = core::search::SearchObjective::Throughput;
    // Multi-model: modelNames_.size() throughputs per record (zeros when not feasible).
    ChunkedVector<double> modelThroughputs_;

    // Point i of the grid is record i; its cell index is rebuilt lazily by nearest() (see
    // PointGrid: O(n) per 12.5 % growth, over a compact copy of the coordinates).
    mutable PointGrid grid_;
    // (point index, record) sorted, in two runs: byIndex_ covers records [0, byIndex_.size()),
    // byIndexTail_ the next byIndexTail_.size() records. New records are merged into the tail
    // (O(tail)), or, once the tail would outgrow an eighth of the main run, tail and new records
    // into the main run (O(n), every 12.5 % growth), so a lookup after each streamed batch does
    // not merge over all n. Built on the first lookup; streaming alone never builds it.
    mutable std::vector<std::pair<std::int64_t, std::size_t>> byIndex_;
    mutable std::vector<std::pair<std::int64_t, std::size_t>> byIndexTail_;
};

}  // namespace tandem::ui
