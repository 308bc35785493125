#pragma once
// The Pipeline tab: a header line with the plan's shape and cost (t, d, stages,
// microbatches, bubble, time per batch, throughput, all with units) above the 1F1B timeline of
// one pipeline replica. The timeline is core's PipelineTimeline simulation of the plan's stage
// times; the header also shows its bubble next to the cost model's (S − 1)/(m + S − 1), since
// they differ when stage loads are unequal. Without a plan both say "No plan: <reason>".
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

private:
    QLabel* header_ = nullptr;
    PipelineChart* chart_ = nullptr;
};

}  // namespace tandem::ui
