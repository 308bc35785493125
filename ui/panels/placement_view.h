#pragma once
// The Placement tab: a header line (devices used and idle, t × d × stages, the fullest
// stage against HBM) above the device map of the whole cluster beside the per-stage memory
// chart, in a splitter. Accepts plans with or without a device table: without one it fills a
// copy with core's assignDevices() for the given cluster size. Without a plan, or when the plan
// does not fit the cluster, it says "No plan: <reason>".
#include <QString>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class QLabel;
class QSplitter;

namespace tandem::core::placement {
struct Plan;
}

namespace tandem::ui {

class DeviceMapChart;
class MemoryChart;

class PlacementView : public QWidget {
    Q_OBJECT
public:
    explicit PlacementView(QWidget* parent = nullptr);

    // layerNames: LayerCostSet::layers[i].name (optional); clusterDevices: devices in the
    // cluster (used when plan->devices is empty; must be ≥ plan->devicesUsed).
    void setPlan(std::shared_ptr<const core::placement::Plan> plan,
                 const std::vector<std::string>& layerNames, std::int64_t clusterDevices);
    void clearPlan(const QString& reason);

    DeviceMapChart* deviceMap() const { return deviceMap_; }
    MemoryChart* memoryChart() const { return memory_; }
    QSplitter* splitter() const { return splitter_; }
    QString headerText() const;

    // One short description per stage of its layers, e.g. "layers 3–14 (layer.2 … layer.13)";
    // names are optional. Shared with the pipeline view's tooltips.
    static std::vector<QString> stageLayerLabels(const core::placement::Plan& plan,
                                                 const std::vector<std::string>& layerNames);

private:
    QLabel* header_ = nullptr;
    QSplitter* splitter_ = nullptr;
    DeviceMapChart* deviceMap_ = nullptr;
    MemoryChart* memory_ = nullptr;
};

}  // namespace tandem::ui
