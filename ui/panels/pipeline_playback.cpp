#include "ui/panels/pipeline_playback.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTextDocument>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

#include "core/common/units.h"
#include "core/placement/pipeline_moment.h"
#include "core/placement/pipeline_timeline.h"

namespace tandem::ui {

namespace {

using core::placement::PipelineMoment;
using core::placement::PipelineTimeline;
using core::placement::StageActivity;
using core::placement::StageMoment;

// Stages listed one by one up to this many; more are counted.
constexpr int kListedStages = 8;

QString seconds(double value) {
    return QString::fromStdString(core::formatSeconds(value));
}

QString stageState(const StageMoment& s, std::int64_t chunks) {
    const QString chunk =
        chunks > 1 ? PipelinePlayback::tr(" (chunk %1)").arg(s.chunk + 1) : QString();
    switch (s.activity) {
        case StageActivity::Forward:
            return PipelinePlayback::tr("forward %1%2").arg(s.microbatch + 1).arg(chunk);
        case StageActivity::Backward:
            return PipelinePlayback::tr("backward %1%2").arg(s.microbatch + 1).arg(chunk);
        case StageActivity::Idle:
            break;
    }
    if (s.finished()) return PipelinePlayback::tr("done");
    return s.filling() ? PipelinePlayback::tr("<i>idle</i>, filling")
                       : PipelinePlayback::tr("<i>idle</i>, waiting");
}

}  // namespace

PipelinePlayback::PipelinePlayback(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    auto button = [this, row](QStyle::StandardPixmap icon, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        row->addWidget(b);
        return b;
    };
    start_ = button(QStyle::SP_MediaSkipBackward, tr("Back to the start of the batch"));
    back_ = button(QStyle::SP_MediaSeekBackward, tr("Step back to the previous instant (,)"));
    play_ = button(QStyle::SP_MediaPlay, tr("Play the batch step by step, or pause (K)"));
    forward_ = button(QStyle::SP_MediaSeekForward,
                      tr("Step on to the next instant a block starts or ends (.)"));
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setToolTip(tr("Drag through the batch: one notch per instant a block starts or ends"));
    row->addWidget(slider_, 1);
    speed_ = new QComboBox(this);
    speed_->setToolTip(tr("How fast Play steps"));
    for (int perSecond : {1, 3, 10, 30})
        speed_->addItem(tr("%1 steps/s").arg(perSecond), perSecond);
    speed_->setCurrentIndex(1);
    row->addWidget(speed_);
    layout->addLayout(row);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    timer_ = new QTimer(this);

    connect(start_, &QToolButton::clicked, this, &PipelinePlayback::toStart);
    connect(back_, &QToolButton::clicked, this, &PipelinePlayback::stepBack);
    connect(play_, &QToolButton::clicked, this, &PipelinePlayback::togglePlay);
    connect(forward_, &QToolButton::clicked, this, &PipelinePlayback::stepForward);
    connect(slider_, &QSlider::valueChanged, this, [this](int value) {
        if (value != step_) setStep(value);
    });
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this] { timer_->setInterval(1000 / speed_->currentData().toInt()); });
    timer_->setInterval(1000 / speed_->currentData().toInt());
    connect(timer_, &QTimer::timeout, this, [this] {
        if (step_ + 1 >= stepCount())
            pause();
        else
            setStep(step_ + 1);
    });
    clear();
}

void PipelinePlayback::setTimelines(std::shared_ptr<const PipelineTimeline> oneFOneB,
                                    std::shared_ptr<const PipelineTimeline> gpipe) {
    pause();
    oneFOneB_ = std::move(oneFOneB);
    gpipe_ = std::move(gpipe);
    steps_.clear();
    step_ = -1;
    std::vector<const PipelineTimeline*> timelines;
    std::size_t blocks = 0;
    for (const auto& t : {oneFOneB_, gpipe_})
        if (t) {
            timelines.push_back(t.get());
            blocks += t->blocks().size();
        }
    if (!timelines.empty() && blocks <= kMaxBlocks)
        steps_ = core::placement::pipelineSteps(timelines);
    if (timelines.empty())
        status_->setText(tr("No plan to play."));
    else if (steps_.empty())
        status_->setText(tr("%1 blocks are too many to step through one by one (at most %2): "
                            "zoom into the chart instead.")
                             .arg(QLocale(QLocale::English).toString(qulonglong(blocks)))
                             .arg(QLocale(QLocale::English).toString(qulonglong(kMaxBlocks))));
    else
        status_->setText(
            tr("Press ▶ (K) to play the batch step by step, or step with . and , "
               "— every step is an instant a forward or backward starts or ends."));
    updateControls();
    emit playheadMoved(-1);
}

void PipelinePlayback::clear() {
    setTimelines(nullptr, nullptr);
}

bool PipelinePlayback::playing() const {
    return timer_->isActive();
}

void PipelinePlayback::setStep(int index) {
    if (steps_.empty()) return;
    step_ = std::clamp(index, 0, stepCount() - 1);
    const double at = steps_[std::size_t(step_)];
    QString html = tr("<b>Step %1 of %2</b> · %3 into the batch")
                       .arg(step_ + 1)
                       .arg(stepCount())
                       .arg(seconds(at));
    for (const auto& t : {oneFOneB_, gpipe_})
        if (t) html += "<br>" + momentHtml(*t, at);
    status_->setText(html);
    updateControls();
    emit playheadMoved(at);
}

void PipelinePlayback::stepForward() {
    pause();
    setStep(step_ + 1);
}

void PipelinePlayback::stepBack() {
    pause();
    setStep(std::max(0, step_ - 1));
}

void PipelinePlayback::toStart() {
    pause();
    setStep(0);
}

void PipelinePlayback::togglePlay() {
    if (playing()) {
        pause();
        return;
    }
    if (steps_.empty()) return;
    if (step_ + 1 >= stepCount()) setStep(0);  // played to the end: play again
    timer_->start();
    updateControls();
}

void PipelinePlayback::pause() {
    timer_->stop();
    updateControls();
}

void PipelinePlayback::updateControls() {
    const bool any = !steps_.empty();
    for (QWidget* w : {static_cast<QWidget*>(start_), static_cast<QWidget*>(back_),
                       static_cast<QWidget*>(play_), static_cast<QWidget*>(forward_),
                       static_cast<QWidget*>(slider_), static_cast<QWidget*>(speed_)})
        w->setEnabled(any);
    back_->setEnabled(any && step_ > 0);
    forward_->setEnabled(any && step_ + 1 < stepCount());
    play_->setIcon(style()->standardIcon(playing() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, stepCount() - 1));
    slider_->setValue(std::max(0, step_));
}

QString PipelinePlayback::momentHtml(const PipelineTimeline& timeline, double at) const {
    const QString name =
        timeline.schedule() == core::placement::PipelineSchedule::GPipe ? tr("GPipe") : tr("1F1B");
    if (at >= timeline.makespanSeconds())
        return tr("<b>%1</b>: every stage done; its pipeline took %2")
            .arg(name, seconds(timeline.makespanSeconds()));
    const PipelineMoment moment = core::placement::momentAt(timeline, at);
    const int S = int(moment.stages.size());
    QStringList parts;
    if (S <= kListedStages) {
        for (int k = 0; k < S; ++k) {
            const StageMoment& s = moment.stages[std::size_t(k)];
            QString part = tr("stage %1 %2").arg(k).arg(stageState(s, timeline.chunkCount()));
            if (s.heldMicrobatches > 0)
                part +=
                    tr(" (holds %1)").arg(PipelinePlayback::microbatchesText(s.heldMicrobatches));
            parts << part;
        }
        return tr("<b>%1</b>: %2").arg(name, parts.join(" · "));
    }
    int forward = 0, backward = 0, filling = 0, waiting = 0, done = 0, fullest = 0;
    for (int k = 0; k < S; ++k) {
        const StageMoment& s = moment.stages[std::size_t(k)];
        forward += s.activity == StageActivity::Forward;
        backward += s.activity == StageActivity::Backward;
        if (s.activity == StageActivity::Idle) {
            if (s.finished())
                ++done;
            else if (s.filling())
                ++filling;
            else
                ++waiting;
        }
        if (s.heldMicrobatches > moment.stages[std::size_t(fullest)].heldMicrobatches) fullest = k;
    }
    return tr("<b>%1</b>: of %2 stages %3 run a forward, %4 a backward; idle: %5 filling, "
              "%6 waiting, %7 done · stage 0 %8 · most held: stage %9, %10 microbatches")
        .arg(name)
        .arg(S)
        .arg(forward)
        .arg(backward)
        .arg(filling)
        .arg(waiting)
        .arg(done)
        .arg(stageState(moment.stages.front(), timeline.chunkCount()))
        .arg(fullest)
        .arg(microbatchesText(moment.stages[std::size_t(fullest)].heldMicrobatches));
}

QString PipelinePlayback::microbatchesText(double microbatches) {
    return std::abs(microbatches - std::round(microbatches)) < 1e-9
               ? QString::number(std::llround(microbatches))
               : QString::number(microbatches, 'f', 1);
}

QString PipelinePlayback::statusText() const {
    QTextDocument document;
    document.setHtml(status_->text());
    return document.toPlainText();
}

}  // namespace tandem::ui
