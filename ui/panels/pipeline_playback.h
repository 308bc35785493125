#pragma once
// The Pipeline tab's step-by-step playback (issue 27 item 11): buttons to go to the start, step
// back, play or pause, and step on; a slider over the steps; a speed; and a status that says, at
// the current instant, what every stage of each schedule does — a forward or a backward of which
// microbatch, or idle while the pipeline fills, while it waits for a neighbour, or done — and
// how many microbatches' activations it holds. A step is an instant at which any block of
// either schedule starts or ends (core's pipelineSteps). playheadMoved tells the charts where to
// draw the playhead. Timelines of more than kMaxBlocks blocks are not stepped (the list of
// steps alone would hold the GUI thread): the status says so.
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace tandem::core::placement {
class PipelineTimeline;
}

namespace tandem::ui {

class PipelinePlayback : public QWidget {
    Q_OBJECT
public:
    static constexpr std::size_t kMaxBlocks = std::size_t(1) << 20;

    explicit PipelinePlayback(QWidget* parent = nullptr);

    // The 1F1B timeline and, optionally, GPipe's; back to the start, paused, playhead hidden.
    void setTimelines(std::shared_ptr<const core::placement::PipelineTimeline> oneFOneB,
                      std::shared_ptr<const core::placement::PipelineTimeline> gpipe);
    void clear();

    int stepCount() const { return int(steps_.size()); }
    int step() const { return step_; }  // −1: not started (playhead hidden)
    double stepSeconds(int index) const { return steps_[std::size_t(index)]; }
    bool playing() const;
    // Plain text of the status under the buttons.
    QString statusText() const;
    // A count of microbatches held: "4", or "5.5" for chunk passes under interleaving.
    static QString microbatchesText(double microbatches);

public slots:
    void setStep(int index);
    void stepForward();
    void stepBack();
    void toStart();
    void togglePlay();
    void pause();

signals:
    void playheadMoved(double seconds);  // negative: hide the playhead

private:
    void updateControls();
    QString momentHtml(const core::placement::PipelineTimeline& timeline, double seconds) const;

    std::shared_ptr<const core::placement::PipelineTimeline> oneFOneB_, gpipe_;
    std::vector<double> steps_;
    int step_ = -1;
    QToolButton *start_ = nullptr, *back_ = nullptr, *play_ = nullptr, *forward_ = nullptr;
    QSlider* slider_ = nullptr;
    QComboBox* speed_ = nullptr;
    QLabel* status_ = nullptr;
    QTimer* timer_ = nullptr;
};

}  // namespace tandem::ui
