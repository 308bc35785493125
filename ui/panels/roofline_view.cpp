#include "ui/panels/roofline_view.h"

#include <QComboBox>
#include <QFormLayout>
#include <QVBoxLayout>
#include <algorithm>

#include "core/common/units.h"
#include "core/estimate/roofline.h"
#include "ui/charts/roofline_chart.h"

namespace tandem::ui {

RooflineView::RooflineView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* row = new QFormLayout;
    layer_ = new QComboBox(this);
    layer_->setObjectName("rooflineLayer");
    layer_->setToolTip(
        tr("Layer whose operators are placed on the chip's roofline, at the "
           "plan's tensor-parallel width and microbatch size"));
    row->addRow(tr("Layer:"), layer_);
    layout->addLayout(row);
    chart_ = new RooflineChart(this);
    chart_->setMinimumHeight(360);
    layout->addWidget(chart_, 1);
    connect(layer_, &QComboBox::currentIndexChanged, this, &RooflineView::showLayer);
}

void RooflineView::showEstimate(std::shared_ptr<const core::model::ModelGraph> graph,
                                const core::hardware::HardwarePoint& hardware,
                                std::shared_ptr<const core::estimate::ModelEstimate> estimate) {
    graph_ = std::move(graph);
    estimate_ = std::move(estimate);
    hardware_ = hardware;
    const QString previous = layer_->currentText();
    {
        const QSignalBlocker blocker(layer_);
        layer_->clear();
        if (estimate_)
            for (const auto& layer : estimate_->layers)
                layer_->addItem(QString::fromStdString(layer.name));
        int index = layer_->findText(previous);
        if (index < 0) index = std::min(1, layer_->count() - 1);
        layer_->setCurrentIndex(index);
    }
    showLayer(layer_->currentIndex());
}

void RooflineView::clear(const QString& reason) {
    graph_.reset();
    estimate_.reset();
    const QSignalBlocker blocker(layer_);
    layer_->clear();
    chart_->clear(reason);
}

void RooflineView::showLayer(int index) {
    if (!estimate_ || index < 0 || std::size_t(index) >= estimate_->layers.size()) {
        chart_->clear(tr("No layer estimated yet"));
        return;
    }
    const auto& layer = estimate_->layers[std::size_t(index)];
    const QString model = graph_ ? QString::fromStdString(graph_->name()) : QString();
    const QString chip =
        QString::fromStdString(hardware_.name.empty() ? "custom chip" : hardware_.name);
    chart_->setRoofline(
        core::estimate::rooflineOf(layer, hardware_.accelerator),
        tr("Roofline of %1 — %2 on %3").arg(QString::fromStdString(layer.name), model, chip));
}

}  // namespace tandem::ui
