#include "ui/panels/pipeline_view.h"

#include <QLabel>
#include <QTextDocument>
#include <QVBoxLayout>

#include "core/common/units.h"
#include "core/placement/pipeline_timeline.h"
#include "core/placement/plan.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/charts/point_text.h"
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
    const auto S = std::int64_t(p.stages.size());
    const auto m = p.microbatchesPerPipeline;
    const QString lastRound = QString::fromStdString(core::placement::lastRoundText(p));
    // One bubble, the cost model's (the one time per batch and the breakdown use), with its
    // formula in the plan's numbers; the simulation's idle share goes to the tooltip.
    const QString formula = p.interleave > 1
                                ? tr("((S − 1)/V)/(m + (S − 1)/V) with S = %1, m = %2, V = %3")
                                      .arg(S)
                                      .arg(m)
                                      .arg(p.interleave)
                                : tr("(S − 1)/(m + S − 1) = %1/%2").arg(S - 1).arg(m + S - 1);
    header_->setText(
        tr("<b>t = %1</b> tensor-parallel × <b>d = %2</b> data-parallel × <b>%3</b> · "
           "<b>%4</b> of %5 per pipeline<br>time per batch <b>%6</b> · "
           "throughput <b>%7</b> · bubble <b>%8</b> = the share of the pipeline's time a stage "
           "idles while the pipeline fills and drains, %9 (cost model, every stage timed as the "
           "slowest)")
            .arg(p.tensorParallel)
            .arg(p.dataParallel)
            .arg(countText(S, tr("stage"), tr("stages")))
            .arg(countText(m, tr("microbatch"), tr("microbatches")))
            .arg(countText(p.microbatchSize, tr("sample"), tr("samples")) +
                 (lastRound.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(lastRound)))
            .arg(qs(core::formatSeconds(p.timePerBatchSeconds)),
                 qs(core::formatThroughput(p.throughputSamplesPerSecond)),
                 percent(p.bubbleFraction), formula.toHtmlEscaped()));
    header_->setToolTip(
        tr("Time per batch: the pipeline (%1) plus the exposed gradient all-reduce and the "
           "optimizer step (%2).\nThe timeline below simulates 1F1B with each stage's own "
           "times and leaves out the all-reduce and\noptimizer step: it takes %3, and its stages "
           "idle %4 of it on average (more than the bubble\nwhen stage loads differ: lighter "
           "stages wait for the slowest).")
            .arg(qs(core::formatSeconds(p.pipelineSeconds)),
                 qs(core::formatSeconds(p.syncSeconds + p.optimizerSeconds)),
                 qs(core::formatSeconds(shared->makespanSeconds())),
                 percent(shared->meanBubbleFraction())));
    const core::placement::TimeBreakdown& b = p.breakdown;
    const auto part = [](double seconds) { return qs(core::formatSeconds(seconds)); };
    QString breakdown =
        tr("<br>where the time goes: compute %1 · recompute %2 · tensor-parallel comm %3 · "
           "pipeline p2p %4 · bubble %5 · data-parallel sync %6 · optimizer step %7")
            .arg(part(b.computeSeconds), part(b.recomputeSeconds),
                 part(b.tensorParallelCommSeconds), part(b.pipelineP2pSeconds),
                 part(b.pipelineBubbleSeconds), part(b.dataParallelSyncSeconds),
                 part(b.optimizerSeconds));
    if (b.tensorParallelCommHiddenSeconds > 0 || b.dataParallelHiddenSeconds > 0)
        breakdown +=
            tr("<br>hidden behind compute by overlap: tensor-parallel comm %1 · "
               "data-parallel sync %2")
                .arg(part(b.tensorParallelCommHiddenSeconds), part(b.dataParallelHiddenSeconds));
    if (p.mfu > 0) breakdown += tr(" · model FLOPs utilisation <b>%1</b>").arg(percent(p.mfu));
    header_->setText(header_->text() + breakdown);
    chart_->setTimeline(shared, PlacementView::stageLayerLabels(p, layerNames));
}

void PipelineView::clearPlan(const QString& reason) {
    const QString text = tr("No plan: %1").arg(reason);
    header_->setText(text.toHtmlEscaped());
    header_->setToolTip(QString());
    chart_->clear(text);
}

QString PipelineView::headerText() const {
    QTextDocument document;
    document.setHtml(header_->text());
    return document.toPlainText();
}

QString PipelineView::headerToolTip() const {
    return header_->toolTip();
}

}  // namespace tandem::ui
