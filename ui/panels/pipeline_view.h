#pragma once
// The Pipeline tab: a header with the plan's shape (t, d, stages, microbatches), its one time
// per batch, throughput and one bubble — the cost model's, defined in words and as a formula in
// the plan's numbers ((ΣL − Lmax)/(m·Lmax + ΣL − Lmax) natively, PHAZE's (S − 1)/(m + S − 1))
// — and where the time goes, above the 1F1B timeline
// of one pipeline replica. The timeline is core's PipelineTimeline simulation of the plan's
// stage times; its own length and idle share (larger when stage loads differ) are in the
// header's tooltip, next to the pipeline / all-reduce split of the time per batch. Without a
// plan both say "No plan: <reason>".
//
// Below the header a playback (PipelinePlayback) steps through the batch, and beside 1F1B, for
// the same plan, GPipe's timeline (all forwards, then all backwards; hidden with "Show GPipe
// beside 1F1B"), the two charts keeping the same time window. Above each chart a line gives its
// schedule's simulated time, idle share, the most microbatches a stage holds and the memory per
// device that needs (core's scheduleMemory): the same bubble, GPipe's m microbatches against
// 1F1B's S − k.
#include <QWidget>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class QCheckBox;
class QLabel;

namespace tandem::core::placement {
struct Plan;
class PipelineTimeline;
}  // namespace tandem::core::placement

namespace tandem::ui {

class PipelineChart;
class PipelinePlayback;

class PipelineView : public QWidget {
    Q_OBJECT
public:
    explicit PipelineView(QWidget* parent = nullptr);

    // layerNames: LayerCostSet::layers[i].name (optional), for the stages' layer ranges.
    void setPlan(std::shared_ptr<const core::placement::Plan> plan,
                 const std::vector<std::string>& layerNames = {});
    void clearPlan(const QString& reason);

    PipelineChart* chart() const { return chart_; }  // 1F1B
    PipelineChart* gpipeChart() const { return gpipeChart_; }
    // The chart File ▸ Export chart writes: GPipe's when it has the focus, else 1F1B's.
    PipelineChart* focusedChart() const;
    PipelinePlayback* playback() const { return playback_; }
    QCheckBox* gpipeToggle() const { return gpipeToggle_; }
    QString headerText() const;
    QString headerToolTip() const;
    // Plain text of the line above each chart.
    QString scheduleText(bool gpipe) const;
    // The charts' subject (ChartWidget::setSubject), each with its schedule's name, so an
    // exported chart says whether it is 1F1B or GPipe.
    void setSubject(const QString& subject);

private:
    QString scheduleLine(const core::placement::Plan& plan,
                         const core::placement::PipelineTimeline& timeline) const;

    QLabel* header_ = nullptr;
    PipelinePlayback* playback_ = nullptr;
    QCheckBox* gpipeToggle_ = nullptr;
    QLabel* oneFOneBLine_ = nullptr;
    QLabel* gpipeLine_ = nullptr;
    QWidget* gpipeSection_ = nullptr;
    PipelineChart* chart_ = nullptr;
    PipelineChart* gpipeChart_ = nullptr;
};

}  // namespace tandem::ui
