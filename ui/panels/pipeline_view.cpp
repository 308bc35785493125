#include "ui/panels/pipeline_view.h"

#include <QLabel>
#include <QTextDocument>
#include <QVBoxLayout>

#include "core/common/units.h"
#include "core/placement/pipeline_timeline.h"
#include "core/placement/plan.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/panels/placement_view.h"

namespace tandem::ui {

namespace {
QString qs(const std::string& text) {
    return QString::fromStdString(text);
}
QString percent(double fraction) {
    return qs(core::formatFixed(100 * fraction, 1)) + " %";
}
}  // namespace

PipelineView::PipelineView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    header_ = new QLabel(this);
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    header_->setToolTip(
        tr("Cost model bubble: (S − 1)/(m + S − 1), the idle share of the slowest stage.\n"
           "1F1B simulation: the idle share of all stages in the simulated schedule below,\n"
           "which is larger when stage loads differ. Time per batch includes the gradient\n"
           "all-reduce, which the timeline does not show."));
    chart_ = new PipelineChart(this);
    layout->addWidget(header_);
    layout->addWidget(chart_, 1);
    clearPlan(tr("nothing evaluated yet"));
}

void PipelineView::setPlan(std::shared_ptr<const core::placement::Plan> plan,
                           const std::vector<std::string>& layerNames) {
    if (!plan) {
        clearPlan(tr("no placement fits"));
        return;
    }
    auto timeline = core::placement::PipelineTimeline::build(*plan);
    if (!timeline) {
        clearPlan(qs(timeline.message()));
        return;
    }
    const auto& p = *plan;
    const auto shared =
        std::make_shared<const core::placement::PipelineTimeline>(std::move(timeline).value());
    header_->setText(
        tr("<b>t = %1</b> tensor-parallel × <b>d = %2</b> data-parallel × <b>%3</b> stages · "
           "<b>%4</b> microbatches of %5 sample(s) per pipeline<br>bubble <b>%6</b> "
           "(cost model; all stages in the 1F1B timeline: %7) · time per batch <b>%8</b> "
           "(pipeline %9 + all-reduce and optimizer step %10; the simulated timeline below takes "
           "%11) · "
           "throughput <b>%12</b>")
            .arg(p.tensorParallel)
            .arg(p.dataParallel)
            .arg(p.stages.size())
            .arg(p.microbatchesPerPipeline)
            .arg(p.microbatchSize)
            .arg(percent(p.bubbleFraction), percent(shared->meanBubbleFraction()),
                 qs(core::formatSeconds(p.timePerBatchSeconds)),
                 qs(core::formatSeconds(p.pipelineSeconds)),
                 qs(core::formatSeconds(p.syncSeconds + p.optimizerSeconds)),
                 qs(core::formatSeconds(shared->makespanSeconds())),
                 qs(core::formatRate(p.throughputSamplesPerSecond, "samples"))));
    const core::placement::TimeBreakdown& b = p.breakdown;
    const auto part = [](double seconds) { return qs(core::formatSeconds(seconds)); };
    QString breakdown =
        tr("<br>where the time goes: compute %1 · recompute %2 · tensor-parallel comm %3 · "
           "pipeline p2p %4 · bubble %5 · data-parallel sync %6 · optimizer step %7")
            .arg(part(b.computeSeconds), part(b.recomputeSeconds),
                 part(b.tensorParallelCommSeconds), part(b.pipelineP2pSeconds),
                 part(b.pipelineBubbleSeconds), part(b.dataParallelSyncSeconds),
                 part(b.optimizerSeconds));
    if (p.mfu > 0) breakdown += tr(" · model FLOPs utilisation <b>%1</b>").arg(percent(p.mfu));
    header_->setText(header_->text() + breakdown);
    chart_->setTimeline(shared, PlacementView::stageLayerLabels(p, layerNames));
}

void PipelineView::clearPlan(const QString& reason) {
    const QString text = tr("No plan: %1").arg(reason);
    header_->setText(text.toHtmlEscaped());
    chart_->clear(text);
}

QString PipelineView::headerText() const {
    QTextDocument document;
    document.setHtml(header_->text());
    return document.toPlainText();
}

}  // namespace tandem::ui
