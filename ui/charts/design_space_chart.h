#pragma once
// The "Design space" tab: every evaluated point of a search as area (mm²) against
// throughput (samples/s), coloured by a chosen configuration dimension, with the Pareto front
// (throughput vs area) as a step line, the best point and the reference chip marked, infeasible
// points on a grey row at zero, hover tooltips with the full configuration, click to select,
// wheel zoom, drag pan, double-click (or 0) to reset. Points arrive in batches while a search
// streams (addPoints) and are replaced by the final SearchResults (setResults). It is built for
// PHAZE's 704,640 points: compact per-point records in chunked storage (DesignSpaceData), a
// point cloud that merges what falls on one 2-pixel cell before drawing (ScatterCloud), and a
// spatial grid for hit tests (PointGrid). A streamed batch costs the GUI thread work in
// proportion to the batch, not to the points already shown: records and cloud points are
// appended, the Pareto front merges the batch into the old front, and the replot stamps only the
// new points unless the view changed (bench_design_space measures it). A colour bar above the
// plot chooses the colour dimension. Points are named by SearchPoint::index everywhere (signals,
// selection, queries).
#include <QPoint>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <memory>
#include <optional>
#include <vector>

#include "core/hardware/accelerator_config.h"
#include "core/search/evaluated_point.h"
#include "core/search/search_baselines.h"
#include "core/search/search_results.h"
#include "ui/charts/chart_widget.h"
#include "ui/charts/design_space_data.h"
#include "ui/charts/design_space_marks.h"
#include "ui/charts/scatter_cloud.h"

class QCPTextElement;
class QComboBox;
class QMouseEvent;

namespace tandem::ui {

class DesignSpaceChart : public ChartWidget {
    Q_OBJECT
public:
    explicit DesignSpaceChart(QWidget* parent = nullptr);
    ~DesignSpaceChart() override;

    // Forgets every point (a new search); the reference chip and colour dimension stay.
    void clear();
    // The searched space's value lists fix each value's colour before the first point arrives
    // (DesignSpaceData::setSpace), so colours do not change while a search streams.
    void setSpace(const core::search::SearchSpace& space);
    // Forgets the space's value lists: colours from the points alone (results opened from a
    // file, whose space is not the last search's).
    void clearSpace();
    // Appends streamed points (any order; Cancelled ones are not answers and are ignored).
    void addPoints(const std::vector<core::search::EvaluatedPoint>& points);
    // Replaces the points by the final results; front and best then come from them.
    void setResults(std::shared_ptr<const core::search::SearchResults> results);
    // Marks the reference chip at its best evaluated point (HBM, microbatch and recompute are
    // per-point options, so any point on this chip counts).
    void setReferencePoint(const core::hardware::AcceleratorConfig& chip,
                           const QString& name = QStringLiteral("reference chip"));
    // Marks the reference explicitly, e.g. SearchBaselines::referencePlaced when the reference
    // chip lies outside the searched space; overrides setReferencePoint.
    void setReferenceOutcome(const core::search::BaselineOutcome& outcome, const QString& name);
    void setColourDimension(ColourDimension dimension);
    ColourDimension colourDimension() const { return data_.colouring().dimension(); }

    // The searched models (search order). More than one: a multi-model search, plotted as its
    // objective (geometric mean of each model's throughput over its reference-chip throughput,
    // "× reference") with each model's throughput in the tooltips. Before the points arrive.
    void setModelNames(const QStringList& names);
    // What the search ranked by: the y axis shows it (its title and unit); before the points.
    void setObjective(core::search::SearchObjective objective);
    // "Rank by:" above the plot (throughput, per watt, cost to train): the user's choice is
    // objectiveChosen; the Workspace re-ranks the shown results (core's rankResults) and calls
    // setObjective and setResults, or says why it cannot. setObjective moves the box too.
    QComboBox* rankBox() const { return rankBox_; }
    QString yAxisLabel() const;
    // A point's (model name, throughput) pairs of a multi-model search; empty otherwise.
    std::vector<std::pair<QString, double>> modelThroughputsOf(qint64 pointIndex) const;

    // Whose results these are ("gpt3-175b on tpuv4-like"), named in the title.
    void setOwner(const QString& owner);
    // Marks the points as answering another set-up (`why`, e.g. "set-up changed"): the title
    // says whose they are and why they are stale, the points fade, the selection ring goes and
    // clicks select nothing. An empty `why` makes them current again.
    void setStale(const QString& why);
    bool isStale() const { return !stale_.isEmpty(); }

    qint64 pointCount() const { return qint64(data_.size()); }
    // The chart's title: point counts, the best throughput, and whether the results are
    // partial (a cancelled search).
    QString titleText() const;
    bool hasPoint(qint64 pointIndex) const { return data_.recordOf(pointIndex).has_value(); }
    qint64 feasibleCount() const { return data_.feasibleCount(); }
    qint64 infeasibleCount() const { return pointCount() - feasibleCount(); }
    std::optional<qint64> bestPointIndex() const;
    std::optional<qint64> referencePointIndex() const;  // when marked at an evaluated point
    // Where setReferenceOutcome's mark is drawn (area, plotted objective); none when it is not.
    std::optional<QPointF> referenceMark() const { return referenceExplicit_; }
    qint64 selectedPointIndex() const { return selected_; }  // −1: none
    // The front's points in drawing order (area ascending) and the line as drawn.
    std::vector<qint64> paretoPointIndices() const;
    QVector<QPointF> paretoLine() const;
    int colourBucketCount() const { return data_.colouring().bucketCount(); }
    QStringList legendLabels() const;
    QString tooltipFor(qint64 pointIndex) const;  // empty for an unknown point

    // The QCustomPlot as a QWidget (for event tests) and the pixel of a point in it.
    QWidget* plotWidget() const;
    // The rectangle the points are drawn in, in plotWidget() pixels (it narrows when the legend
    // widens, e.g. when a count gains a digit).
    QRect plotArea() const;
    std::optional<QPoint> pixelOf(qint64 pointIndex) const;
    // The nearest point within a few pixels of `pixel` (plotWidget() coordinates).
    std::optional<qint64> pointAt(const QPoint& pixel) const;
    // Replots now instead of at the next event-loop pass.
    void replotNow();
    // How long the point cloud took to draw at the last replot, ms, and how many points it
    // stamped: after a streamed batch only that batch's points, unless the view changed.
    double lastCloudDrawMilliseconds() const { return cloud_->lastDrawMilliseconds(); }
    std::size_t lastCloudDrawnPoints() const { return cloud_->lastDrawnPoints(); }

public slots:
    // Highlights the point (no signal); −1 or an unknown index clears the highlight, which
    // comes back if the point streams in later.
    void selectPoint(qint64 pointIndex);
    void resetView();

signals:
    void pointSelected(qint64 pointIndex);
    // A right-click on a point (global position, for a context menu).
    void pointMenuRequested(qint64 pointIndex, const QPoint& globalPosition);
    void objectiveChosen(core::search::SearchObjective objective);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void setUpPlot();
    QComboBox* makeRankBox();  // design_space_chart_models.cpp
    // referenceOutcome_'s mark and tooltip at the plotted objective (no replot).
    void placeReferenceOutcome();
    // Every point into the cloud again (a new search, results or colour dimension): O(points).
    void rebuildScatter();
    // The colour key after a new colour value: legend entries and the cloud's class → bucket
    // and bucket → colour tables, O(values); the points keep their classes.
    void applyColouring();
    // Records [from, end) into the cloud, with their colour value id as class: O(end − from).
    void appendScatter(std::size_t from);
    void updateMarks();
    // The record of selected_ among records [from, end), by a scan.
    void findSelected(std::size_t from);
    void fitView();
    void refresh();
    void updateYAxisLabel();
    std::optional<std::size_t> nearestRecord(const QPoint& pixel) const;
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    bool handleKey(int key);

    DesignSpaceData data_;
    std::optional<QPointF> referenceExplicit_;  // setReferenceOutcome
    // What setReferenceOutcome was given, to plot it again at another objective.
    std::optional<core::search::BaselineOutcome> referenceOutcome_;
    QString referenceTooltip_;
    qint64 selected_ = -1;
    // The record of selected_, once it has arrived: found by scanning each streamed batch, so
    // streaming never needs the by-index lookup of DesignSpaceData.
    std::optional<std::size_t> selectedRecord_;
    bool userView_ = false;  // the user zoomed or panned: streaming no longer refits
    QPoint pressPos_;

    QComboBox* colourBox_ = nullptr;
    QComboBox* rankBox_ = nullptr;
    QCPTextElement* title_ = nullptr;
    bool partial_ = false;  // the results are those of a cancelled search
    QString owner_;         // setOwner
    QString stale_;         // setStale: why the points are not current
    std::unique_ptr<ScatterCloud> cloud_;
    std::unique_ptr<DesignSpaceMarks> marks_;
    std::vector<std::int64_t> valueCounts_;   // feasible points per colour value id
    std::vector<std::int64_t> bucketCounts_;  // the same summed per colour bucket (legend)
};

}  // namespace tandem::ui
