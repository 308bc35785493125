#include "ui/panels/placement_view.h"

#include <QLabel>
#include <QSplitter>
#include <QTextDocument>
#include <QVBoxLayout>

#include "core/common/units.h"
#include "core/placement/plan.h"
#include "ui/charts/device_map_chart.h"
#include "ui/charts/memory_chart.h"
#include "ui/charts/point_text.h"

namespace tandem::ui {

namespace {
QString qs(const std::string& text) {
    return QString::fromStdString(text);
}
}  // namespace

PlacementView::PlacementView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    header_ = new QLabel(this);
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    splitter_ = new QSplitter(Qt::Horizontal, this);
    deviceMap_ = new DeviceMapChart(splitter_);
    memory_ = new MemoryChart(splitter_);
    splitter_->addWidget(deviceMap_);
    splitter_->addWidget(memory_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    splitter_->setSizes({600, 400});  // the initial 3 : 2 split; stretch factors keep it
    splitter_->setChildrenCollapsible(false);
    layout->addWidget(header_);
    layout->addWidget(splitter_, 1);
    clearPlan(tr("nothing evaluated yet"));
}

std::vector<QString> PlacementView::stageLayerLabels(const core::placement::Plan& plan,
                                                     const std::vector<std::string>& layerNames) {
    auto name = [&](int layer) {
        return std::size_t(layer) < layerNames.size() ? qs(layerNames[std::size_t(layer)])
                                                      : QString();
    };
    std::vector<QString> labels;
    for (const auto& stage : plan.stages) {
        const auto& layers = stage.layers;
        if (layers.empty()) {
            labels.push_back(tr("no layers"));
            continue;
        }
        const int first = layers.front(), last = layers.back();
        const bool contiguous = last - first + 1 == int(layers.size());
        // One numbering only: the layers' own names when known ("layer.72" is graph position
        // 73 when an embedding comes first), positions otherwise.
        const QString a = name(first), b = name(last);
        QString text;
        if (layers.size() == 1)
            text = a.isEmpty() ? tr("layer %1").arg(first) : a;
        else if (!a.isEmpty())
            text = tr("%1 layers: %2 … %3").arg(layers.size()).arg(a, b);
        else if (contiguous)
            text = tr("layers %1–%2").arg(first).arg(last);
        else
            text = tr("%1 layers").arg(layers.size());
        labels.push_back(text);
    }
    return labels;
}

void PlacementView::setPlan(std::shared_ptr<const core::placement::Plan> plan,
                            const std::vector<std::string>& layerNames,
                            std::int64_t clusterDevices) {
    if (!plan) {
        clearPlan(tr("no placement fits"));
        return;
    }
    if (plan->devices.empty()) {
        if (clusterDevices < plan->devicesUsed || clusterDevices < 1) {
            clearPlan(tr("the plan uses %1 devices but the cluster has %2")
                          .arg(plan->devicesUsed)
                          .arg(clusterDevices));
            return;
        }
        auto filled = std::make_shared<core::placement::Plan>(*plan);
        core::placement::assignDevices(*filled, clusterDevices);
        plan = std::move(filled);
    }
    const auto labels = stageLayerLabels(*plan, layerNames);
    int fullest = 0;
    for (std::size_t k = 0; k < plan->stages.size(); ++k)
        if (plan->stages[k].memory.totalBytes >
            plan->stages[std::size_t(fullest)].memory.totalBytes)
            fullest = int(k);
    const auto n = std::int64_t(plan->devices.size());
    QString text =
        tr("<b>%1</b> of %2 devices used (%3 idle) · t = %4 × d = %5 × %6")
            .arg(qs(core::formatCount(double(plan->devicesUsed))), qs(core::formatCount(double(n))),
                 qs(core::formatCount(double(n - plan->devicesUsed))))
            .arg(plan->tensorParallel)
            .arg(plan->dataParallel)
            .arg(countText(std::int64_t(plan->stages.size()), tr("stage"), tr("stages")));
    if (!plan->stages.empty()) {
        const auto& m = plan->stages[std::size_t(fullest)].memory;
        text +=
            tr(" · fullest stage %1: <b>%2</b> of %3 HBM per device")
                .arg(fullest)
                .arg(qs(core::formatBytes(m.totalBytes)), qs(core::formatBytes(m.capacityBytes)));
    }
    header_->setText(text);
    deviceMap_->setPlan(plan, labels);
    memory_->setPlan(plan, labels);
}

void PlacementView::clearPlan(const QString& reason) {
    const QString text = tr("No plan: %1").arg(reason);
    header_->setText(text.toHtmlEscaped());
    deviceMap_->clear(text);
    memory_->clear(text);
}

QString PlacementView::headerText() const {
    QTextDocument document;
    document.setHtml(header_->text());
    return document.toPlainText();
}

}  // namespace tandem::ui
