#pragma once
// The Schedule tab: the per-layer operator schedule of the selected point as a Gantt chart. It
// takes a ModelPlacement (whose widths[i] pair each tensor-parallel width's ModelGraph with its
// ModelSchedule) and offers a chooser of the unique layers ("transformer ×96"), a Forward /
// Backward switch and, when several widths were scheduled, a t chooser. Above the chart it
// states the makespan, the lower bound and whether the schedule is proven optimal or how far
// from the bound it may be. "Export trace…" writes the same Chrome trace as `tandem-cli schedule
// --trace`, atomically.
#include <memory>

#include <QString>
#include <QWidget>

#include "core/placement/model_placement.h"
#include "core/schedule/model_schedule.h"

class QComboBox;
class QLabel;
class QPushButton;
class QRadioButton;

namespace tandem::ui {

class GanttChart;

class ScheduleView : public QWidget {
    Q_OBJECT
public:
    explicit ScheduleView(QWidget* parent = nullptr);

    // Shows `placement`'s schedules at widths[widthIndex]; −1 picks the width of the placement's
    // plan (or the widest when nothing fits). nullptr clears the view. The current layer and
    // direction are kept when the new placement has them.
    void setPlacement(std::shared_ptr<const core::placement::ModelPlacement> placement,
                      int widthIndex = -1);
    // Empties the view and shows `reason` (e.g. why there is nothing to schedule).
    void clear(const QString& reason = {});

    void setWidthIndex(int index);   // an entry of placement->widths
    void setUniqueLayer(int index);  // an entry of ModelGraph::uniqueGraphs()
    void setDirection(core::schedule::Direction direction);
    int widthIndex() const;
    int uniqueLayer() const;
    core::schedule::Direction direction() const;
    int layerChoices() const;  // entries in the layer chooser

    GanttChart* chart() const { return chart_; }
    QString lastError() const { return lastError_; }

    // Writes core::io::chromeTrace of the shown width to `path` (QSaveFile): by default the
    // first layer of the shown unique layer (forward and backward), or every layer of the model.
    // Returns an empty string, or a message naming the file and the reason.
    QString exportTrace(const QString& path, bool allLayers = false) const;

signals:
    void traceExported(const QString& path);

private:
    void fillLayerChooser();
    void refresh();
    void exportTraceInteractively();
    void exportImageInteractively();
    void showError(const QString& message);
    const core::placement::WidthInput* width() const;
    std::size_t representativeLayer() const;  // the first layer using the shown unique layer

    std::shared_ptr<const core::placement::ModelPlacement> placement_;
    QComboBox* width_ = nullptr;
    QLabel* widthLabel_ = nullptr;
    QComboBox* layer_ = nullptr;
    QRadioButton* forward_ = nullptr;
    QRadioButton* backward_ = nullptr;
    QLabel* makespan_ = nullptr;
    QLabel* bound_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* chip_ = nullptr;
    QLabel* error_ = nullptr;
    QPushButton* exportTrace_ = nullptr;
    QPushButton* exportImage_ = nullptr;
    QPushButton* resetZoom_ = nullptr;
    GanttChart* chart_ = nullptr;
    QString lastError_;
    bool updating_ = false;
};

}  // namespace tandem::ui
