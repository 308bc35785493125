#include "ui/panels/pipeline_view.h"

#include <QCheckBox>
#include <QLabel>
#include <QShortcut>
#include <QSplitter>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/common/units.h"
#include "core/placement/pipeline_memory.h"
#include "core/placement/pipeline_timeline.h"
#include "core/placement/plan.h"
#include "ui/charts/pipeline_chart.h"
#include "ui/charts/point_text.h"
#include "ui/panels/pipeline_playback.h"
#include "ui/panels/placement_view.h"

namespace tandem::ui {

namespace {
QString qs(const std::string& text) {
    return QString::fromStdString(text);
}
QString percent(double fraction) {
    return qs(core::formatFixed(100 * fraction, 1)) + " %";
}
QString plainText(const QString& html) {
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText();
}
QLabel* lineLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}
// The cost model's bubble formula in the plan's numbers: native (ΣL − Lmax)/V over the pipeline
// time, PHAZE's (S − 1)/V steps over m + (S − 1)/V.
QString bubbleFormula(const core::placement::Plan& p) {
    const auto S = std::int64_t(p.stages.size());
    const auto m = p.microbatchesPerPipeline;
    const bool interleaved = p.interleave > 1;
    if (p.costModel == core::placement::CostModelKind::PhazeCompat) {
        if (interleaved)
            return PipelineView::tr("((S − 1)/V)/(m + (S − 1)/V) with S = %1, m = %2, V = %3")
                .arg(S)
                .arg(m)
                .arg(p.interleave);
        return PipelineView::tr("(S − 1)/(m + S − 1) = %1/%2").arg(S - 1).arg(m + S - 1);
    }
    const QString loads = qs(core::formatSeconds(core::placement::stageLoadSum(p.stages)));
    const QString slowest = qs(core::formatSeconds(p.maxStageLoadSeconds));
    if (interleaved)
        return PipelineView::tr(
                   "((ΣL − Lmax)/V)/(m·Lmax + (ΣL − Lmax)/V) with the stage loads "
                   "ΣL = %1, the slowest Lmax = %2, m = %3, V = %4")
            .arg(loads, slowest)
            .arg(m)
            .arg(p.interleave);
    return PipelineView::tr(
               "(ΣL − Lmax)/(m·Lmax + ΣL − Lmax) with the stage loads ΣL = %1, the "
               "slowest Lmax = %2, m = %3")
        .arg(loads, slowest)
        .arg(m);
}
}  // namespace

PipelineView::PipelineView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    header_ = new QLabel(this);
    header_->setWordWrap(true);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    playback_ = new PipelinePlayback(this);
    gpipeToggle_ = new QCheckBox(tr("Show GPipe beside 1F1B"), this);
    gpipeToggle_->setChecked(true);
    gpipeToggle_->setToolTip(
        tr("GPipe runs every forward, then every backward: the same bubble as 1F1B, but each "
           "stage holds the activations of all its microbatches at once."));
    auto* splitter = new QSplitter(Qt::Vertical, this);
    auto section = [splitter](QLabel*& line, PipelineChart*& chart) {
        auto* box = new QWidget(splitter);
        auto* column = new QVBoxLayout(box);
        column->setContentsMargins(0, 4, 0, 0);
        line = lineLabel(box);
        chart = new PipelineChart(box);
        column->addWidget(line);
        column->addWidget(chart, 1);
        splitter->addWidget(box);
        return box;
    };
    section(oneFOneBLine_, chart_);
    gpipeSection_ = section(gpipeLine_, gpipeChart_);
    layout->addWidget(header_);
    layout->addWidget(playback_);
    layout->addWidget(gpipeToggle_);
    layout->addWidget(splitter, 1);

    connect(gpipeToggle_, &QCheckBox::toggled, gpipeSection_, &QWidget::setVisible);
    connect(playback_, &PipelinePlayback::playheadMoved, this, [this](double seconds) {
        chart_->setPlayhead(seconds);
        gpipeChart_->setPlayhead(seconds);
    });
    // The two charts keep the same time window, so one instant lines up in both.
    connect(chart_, &PipelineChart::timeRangeChanged, gpipeChart_, &PipelineChart::showTimeRange);
    connect(gpipeChart_, &PipelineChart::timeRangeChanged, chart_, &PipelineChart::showTimeRange);
    const auto shortcut = [this](const QKeySequence& keys, void (PipelinePlayback::*slot)()) {
        auto* s = new QShortcut(keys, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, playback_, slot);
    };
    shortcut(QKeySequence(Qt::Key_K), &PipelinePlayback::togglePlay);
    shortcut(QKeySequence(Qt::Key_Period), &PipelinePlayback::stepForward);
    shortcut(QKeySequence(Qt::Key_Comma), &PipelinePlayback::stepBack);
    clearPlan(tr("nothing evaluated yet"));
}

PipelineChart* PipelineView::focusedChart() const {
    return gpipeToggle_->isChecked() && gpipeChart_->isAncestorOf(focusWidget()) ? gpipeChart_
                                                                                 : chart_;
}

QString PipelineView::scheduleLine(const core::placement::Plan& plan,
                                   const core::placement::PipelineTimeline& timeline) const {
    const bool gpipe = timeline.schedule() == core::placement::PipelineSchedule::GPipe;
    const core::placement::ScheduleMemory memory = core::placement::scheduleMemory(plan, timeline);
    // The stage that holds the most microbatches (the first of equals).
    const auto most = std::max_element(memory.peakInFlight.begin(), memory.peakInFlight.end());
    const auto fullest = most - memory.peakInFlight.begin();
    QString line =
        gpipe ? tr("<b>GPipe</b>, for comparison: every forward, then every backward")
              : tr("<b>1F1B (PipeDream-Flush)</b>, as the plan runs: one forward, one backward");
    line += tr(" · the pipeline takes <b>%1</b>, its stages idle <b>%2</b> of it")
                .arg(qs(core::formatSeconds(timeline.makespanSeconds())),
                     percent(timeline.meanBubbleFraction()));
    line += tr(" · stage %1 holds up to <b>%2</b> of %3 microbatches' activations")
                .arg(fullest)
                .arg(PipelinePlayback::microbatchesText(most == memory.peakInFlight.end() ? 0.0
                                                                                          : *most))
                .arg(timeline.microbatchCount());
    if (!memory.known)
        return line + tr(" · memory: not recorded in this results file (evaluate the point "
                         "again to see it)");
    line += tr(" · memory per device <b>%1</b> of %2 (stage %3)")
                .arg(qs(core::formatBytes(memory.fullestBytes())),
                     qs(core::formatBytes(memory.capacityBytes)))
                .arg(memory.fullestStage);
    if (!memory.fits()) line += tr(" — <b>does not fit</b>");
    return line;
}

void PipelineView::setSubject(const QString& subject) {
    chart_->setSubject(subject.isEmpty() ? subject : tr("%1 · 1F1B schedule").arg(subject));
    gpipeChart_->setSubject(
        subject.isEmpty() ? subject : tr("%1 · GPipe schedule, for comparison").arg(subject));
}

QString PipelineView::scheduleText(bool gpipe) const {
    return plainText((gpipe ? gpipeLine_ : oneFOneBLine_)->text());
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
    auto gpipe =
        core::placement::PipelineTimeline::build(*plan, core::placement::PipelineSchedule::GPipe);
    const auto& p = *plan;
    const auto shared =
        std::make_shared<const core::placement::PipelineTimeline>(std::move(timeline).value());
    const auto S = std::int64_t(p.stages.size());
    const auto m = p.microbatchesPerPipeline;
    const QString lastRound = QString::fromStdString(core::placement::lastRoundText(p));
    // One bubble, the cost model's (the one time per batch and the breakdown use), with its
    // formula in the plan's numbers; the simulation's idle share goes to the tooltip.
    const bool native = p.costModel == core::placement::CostModelKind::Native;
    const QString formula = bubbleFormula(p);
    const QString pricing =
        native ? tr("cost model: the slowest stage runs its m loads back to back, the others "
                    "fill and drain the pipeline once at their own loads")
               : tr("cost model, every stage timed as the slowest");
    header_->setText(
        tr("<b>t = %1</b> tensor-parallel × <b>d = %2</b> data-parallel × <b>%3</b> · "
           "<b>%4</b> of %5 per pipeline<br>time per batch <b>%6</b> · "
           "throughput <b>%7</b> · bubble <b>%8</b> = the share of the pipeline's time a stage "
           "idles while the pipeline fills and drains, %9 (%10)")
            .arg(p.tensorParallel)
            .arg(p.dataParallel)
            .arg(countText(S, tr("stage"), tr("stages")))
            .arg(countText(m, tr("microbatch"), tr("microbatches")))
            .arg(countText(p.microbatchSize, tr("sample"), tr("samples")) +
                 (lastRound.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(lastRound)))
            .arg(qs(core::formatSeconds(p.timePerBatchSeconds)),
                 qs(core::formatThroughput(p.throughputSamplesPerSecond)),
                 percent(p.bubbleFraction), formula.toHtmlEscaped(), pricing.toHtmlEscaped()));
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
    if (b.tensorParallelCommHiddenSeconds > 0 || b.dataParallelHiddenSeconds > 0 ||
        b.pipelineP2pHiddenSeconds > 0)
        breakdown += tr("<br>hidden behind compute by overlap: tensor-parallel comm %1 · "
                        "data-parallel sync %2 · pipeline p2p %3")
                         .arg(part(b.tensorParallelCommHiddenSeconds),
                              part(b.dataParallelHiddenSeconds), part(b.pipelineP2pHiddenSeconds));
    if (p.mfu > 0) breakdown += tr(" · model FLOPs utilisation <b>%1</b>").arg(percent(p.mfu));
    header_->setText(header_->text() + breakdown);
    const auto labels = PlacementView::stageLayerLabels(p, layerNames);
    // GPipe first: 1F1B's default view is the one both charts then show (kept in step).
    std::shared_ptr<const core::placement::PipelineTimeline> gpipeShared;
    if (gpipe) {
        gpipeShared =
            std::make_shared<const core::placement::PipelineTimeline>(std::move(gpipe).value());
        gpipeChart_->setTimeline(gpipeShared, labels);
        QString line = scheduleLine(p, *gpipeShared);
        if (p.interleave > 1)
            line += tr(" · each stage's %1 model chunks run as one: GPipe does not interleave")
                        .arg(p.interleave);
        gpipeLine_->setText(line);
    } else {
        gpipeChart_->clear(qs(gpipe.message()));
        gpipeLine_->setText(tr("<b>GPipe</b>: %1").arg(qs(gpipe.message()).toHtmlEscaped()));
    }
    chart_->setTimeline(shared, labels);
    oneFOneBLine_->setText(scheduleLine(p, *shared));
    if (gpipeShared)
        gpipeChart_->showTimeRange(chart_->viewStartSeconds(), chart_->viewEndSeconds());
    playback_->setTimelines(shared, gpipeShared);
}

void PipelineView::clearPlan(const QString& reason) {
    const QString text = tr("No plan: %1").arg(reason);
    header_->setText(text.toHtmlEscaped());
    header_->setToolTip(QString());
    chart_->clear(text);
    gpipeChart_->clear(text);
    oneFOneBLine_->clear();
    gpipeLine_->clear();
    playback_->clear();
}

QString PipelineView::headerText() const {
    return plainText(header_->text());
}

QString PipelineView::headerToolTip() const {
    return header_->toolTip();
}

}  // namespace tandem::ui
