#include "ui/panels/summary_panel.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

#include "core/common/units.h"
#include "core/hardware/area_model.h"
#include "core/placement/mfu_note.h"
#include "ui/charts/breakdown_chart.h"
#include "ui/charts/point_text.h"
#include "ui/panels/energy_budget_box.h"
#include "ui/widgets/elided_label.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}
}  // namespace

SummaryPanel::SummaryPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    error_ = new QLabel(this);
    error_->setWordWrap(true);
    error_->setStyleSheet("QLabel { color: #b00020; font-weight: bold; }");
    error_->hide();
    layout->addWidget(error_);

    auto* modelBox = new QGroupBox(tr("Model"), this);
    auto* modelForm = new QFormLayout(modelBox);
    modelName_ = addRow(modelForm, tr("Name"), tr("Zoo name or model file"));
    parameters_ = addRow(modelForm, tr("Parameters"), tr("Whole model, tied weights counted once"));
    layers_ = addRow(modelForm, tr("Layers"), tr("Layer nodes in the pipeline chain"));
    sequence_ = addRow(modelForm, tr("Sequence length"), tr("Tokens per sample"));
    flopsPerSample_ = addRow(modelForm, tr("Training FLOPs per sample"),
                             tr("Forward + backward, all tensor-parallel shards"));
    layout->addWidget(modelBox);

    auto* hwBox = new QGroupBox(tr("Hardware"), this);
    auto* hwForm = new QFormLayout(hwBox);
    hardwareName_ = addRow(hwForm, tr("Preset"), tr("Hardware preset or file"));
    cores_ = addRow(hwForm, tr("Cores"), tr("Tensor cores (systolic arrays) and vector cores"));
    peak_ = addRow(hwForm, tr("Peak"), tr("Dense tensor-core peak: 2 FLOP per MAC per cycle"));
    memory_ = addRow(hwForm, tr("Memory"), tr("On-chip global buffer and off-chip HBM"));
    cluster_ = addRow(hwForm, tr("Cluster"), tr("Devices and links between them"));
    area_ = addRow(hwForm, tr("Area"), tr("From PHAZE's 22 nm area tables"));
    areaBar_ = new QProgressBar(hwBox);
    areaBar_->setRange(0, 1000);
    areaBar_->setToolTip(
        tr("Chip area against the budget (the TPUv4-like reference chip, "
           "278.83 mm²)"));
    hwForm->addRow(tr("Area budget:"), areaBar_);
    layout->addWidget(hwBox);

    auto* timeBox = new QGroupBox(tr("Where the time goes"), this);
    auto* timeLayout = new QVBoxLayout(timeBox);
    plan_ = new QLabel(QStringLiteral("—"), timeBox);
    plan_->setWordWrap(true);
    plan_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    timeLayout->addWidget(plan_);
    breakdown_ = new BreakdownChart(timeBox);
    breakdown_->setFixedHeight(160);
    timeLayout->addWidget(breakdown_);
    layout->addWidget(timeBox);
    energy_ = new EnergyBudgetBox(this);
    layout->addWidget(energy_);
    layout->addStretch(1);
}

void SummaryPanel::showPlan(const core::placement::Plan* plan, const QString& why) {
    energy_->showPlan(plan);
    if (!plan) {
        plan_->setText(tr("Nothing fits: %1").arg(why));
        breakdown_->clear();
        return;
    }
    QString text = tr("%1 · %2 per batch")
                       .arg(throughputText(plan->throughputSamplesPerSecond),
                            QString::fromStdString(core::formatSeconds(plan->timePerBatchSeconds)));
    if (plan->mfu > 0)
        text += tr(" · model FLOPs utilisation %1 %")
                    .arg(QString::fromStdString(core::formatFixed(100.0 * plan->mfu, 1)));
    // A compute-bound chip's MFU above what published runs reach says why, under the figure.
    if (const std::string note = core::placement::highMfuNote(*plan); !note.empty())
        text += QStringLiteral("\n") + QString::fromStdString(note);
    plan_->setText(text);
    breakdown_->setRows({{tr("This plan"), plan, {}}});
}

QString SummaryPanel::planText() const {
    return plan_->text();
}

// A value that elides (whole text in its tool tip) rather than widening the window.
ElidedLabel* SummaryPanel::addRow(QFormLayout* form, const QString& label, const QString& tooltip) {
    auto* value = new ElidedLabel(QStringLiteral("—"), this);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setBaseToolTip(tooltip);
    form->addRow(label + ':', value);
    return value;
}

void SummaryPanel::showError(const QString& message) {
    error_->setText(message);
    error_->setVisible(!message.isEmpty());
}

void SummaryPanel::showEvaluation(const core::model::ModelGraph& graph,
                                  const core::hardware::HardwarePoint& hardware,
                                  const core::estimate::ModelEstimate& estimate) {
    showError({});
    const auto& o = graph.options();
    const auto& t = estimate.totals;
    modelName_->setFullText(text(graph.name()));
    parameters_->setFullText(text(core::formatCount(t.parameters)));
    layers_->setFullText(QString::number(graph.layers().size()));
    sequence_->setFullText(tr("%1 tokens").arg(o.sequenceLength));
    energy_->setTokensPerSample(double(o.sequenceLength));
    const double perSample = (t.forwardFlops + t.backwardFlops) * double(o.tensorParallel) /
                             double(std::max<std::int64_t>(1, o.microbatch));
    flopsPerSample_->setFullText(text(core::formatFlops(perSample)));

    const auto& a = hardware.accelerator;
    const auto& c = hardware.cluster;
    hardwareName_->setFullText(text(hardware.name));
    cores_->setFullText(tr("%1 TC of %2×%3 MACs, %4 VC of %5 lanes, %6 GHz")
                            .arg(a.numTensorCores)
                            .arg(a.tensorCoreRows)
                            .arg(a.tensorCoreCols)
                            .arg(a.numVectorCores)
                            .arg(a.vectorCoreLanes)
                            .arg(a.clockHz / 1e9, 0, 'f', 2));
    QString peak = text(core::formatRate(a.peakFlopsPerSecond(), "FLOP")) + tr(" dense fp16/bf16");
    if (a.precision == core::hardware::Precision::Fp8)
        peak +=
            tr(" · fp8 GEMMs %1")
                .arg(text(core::formatRate(a.peakFlopsPerSecond() * a.gemmRateOverPeak(), "FLOP")));
    peak_->setFullText(peak);
    memory_->setFullText(tr("%1 buffer, %2 HBM at %3")
                             .arg(text(core::formatBytes(double(a.globalBufferBytes))),
                                  text(core::formatBytes(double(a.hbmCapacityBytes))),
                                  text(core::formatRate(a.hbmBandwidthBytesPerSecond, "B"))));
    cluster_->setFullText(
        tr("%1 devices, %2 per node; %3 in a node, %4 between nodes")
            .arg(text(core::formatCount(double(c.devices))))
            .arg(c.devicesPerNode)
            .arg(text(core::formatRate(c.intraNodeBandwidthBytesPerSecond, "B")),
                 text(core::formatRate(c.interNodeBandwidthBytesPerSecond, "B"))));
    const auto area = core::hardware::AreaModel().areaSquareMillimetres(a);
    const double budget = core::hardware::AreaModel::kReferenceAreaSquareMillimetres;
    if (area) {
        area_->setFullText(tr("%1 mm² (%2 % of the %3 mm² budget)")
                               .arg(*area, 0, 'f', 2)
                               .arg(100.0 * *area / budget, 0, 'f', 1)
                               .arg(budget, 0, 'f', 2));
        areaBar_->setValue(int(std::min(1.0, *area / budget) * 1000));
        areaBar_->setFormat(QStringLiteral("%1 %").arg(100.0 * *area / budget, 0, 'f', 1));
        areaBar_->setStyleSheet(*area > budget ? "QProgressBar::chunk { background: #c62828; }"
                                               : QString());
    } else {
        // Nothing left of the last chip's figure: an empty bar that says why.
        area_->setFullText(text(area.message()));
        areaBar_->setValue(0);
        areaBar_->setFormat(tr("unknown"));
        areaBar_->setStyleSheet(QString());
    }
}

}  // namespace tandem::ui
