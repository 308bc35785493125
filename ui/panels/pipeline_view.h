#pragma once
// The Pipeline tab: a header with the plan's shape (t, d, stages, microbatches), its one time
// per batch, throughput and one bubble — the cost model's, defined in words and as
// (S − 1)/(m + S − 1) in the plan's numbers — and where the time goes, above the 1F1B timeline
// of one pipeline replica. The timeline is core's PipelineTimeline simulation of the plan's
// stage times; its own length and idle share (larger when stage loads differ) are in the
// header's tooltip, next to the pipeline / all-reduce split of the time per batch. Without a
// plan both say "No plan: <reason>".
#include <QWidget>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class QLabel;

namespace tandem::core::placement {
struct Plan;
}

namespace tandem::ui {

class PipelineChart;

class PipelineView : public QWidget {
    Q_OBJECT
public:
    explicit PipelineView(QWidget* parent = nullptr);

    // layerNames: LayerCostSet::layers[i].name (optional), for the stages' layer ranges.
    void setPlan(std::shared_ptr<const core::placement::Plan> plan,
                 const std::vector<std::string>& layerNames = {});
    void clearPlan(const QString& reason);

    PipelineChart* chart() const { return chart_; }
    QString headerText() const;
    QString headerToolTip() const;

private:
    QLabel* header_ = nullptr;
    PipelineChart* chart_ = nullptr;
};

}  // namespace tandem::ui
