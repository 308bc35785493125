#pragma once
// The "Roofline" tab: a layer chooser above the RooflineChart of that layer's operators on the
// shown point's chip (core::estimate::rooflineOf over the point's per-operator estimate, which
// the Summary and Operators tabs share). Computing a layer's roofline takes microseconds, so it
// runs on the GUI thread when the layer or the estimate changes.
#include <QWidget>
#include <memory>

#include "core/estimate/model_estimate.h"
#include "core/hardware/hardware_point.h"
#include "core/model/model_graph.h"

class QComboBox;

namespace tandem::ui {

class RooflineChart;

class RooflineView : public QWidget {
    Q_OBJECT
public:
    explicit RooflineView(QWidget* parent = nullptr);

    // The point's model graph, chip and estimate; keeps the chosen layer when the new graph has
    // one of that name (else the first transformer-like layer, index 1 when there is one).
    void showEstimate(std::shared_ptr<const core::model::ModelGraph> graph,
                      const core::hardware::HardwarePoint& hardware,
                      std::shared_ptr<const core::estimate::ModelEstimate> estimate);
    void clear(const QString& reason);
    RooflineChart* chart() const { return chart_; }
    QComboBox* layerChooser() const { return layer_; }

private:
    void showLayer(int index);

    QComboBox* layer_ = nullptr;
    RooflineChart* chart_ = nullptr;
    std::shared_ptr<const core::model::ModelGraph> graph_;
    std::shared_ptr<const core::estimate::ModelEstimate> estimate_;
    core::hardware::HardwarePoint hardware_;
};

}  // namespace tandem::ui
