#pragma once
// The plottable behind PipelineChart: draws a PipelineTimeline's blocks (keys in seconds, one row
// per stage around its index) in the visible time range of the visible rows only. Blocks
// narrower than a few pixels merge into runs (upper half forward colour, lower half backward
// colour when a run mixes both), so a zoomed-out view of 65,536 blocks paints a few thousand
// rectangles. Every block wide enough to hold a microbatch number (1-based, as the tooltips say)
// as long as the longest in view shows its own: in the chart's font if that fits, else in a
// smaller one. Which blocks are numbered depends only on their width in pixels, never on their
// number: narrow blocks are all blank rather than 1–9 numbered and 10 on not.
#include <qcustomplot.h>
#include <QColor>

namespace tandem::core::placement {
class PipelineTimeline;
}

namespace tandem::ui {

class PipelineBlocks : public QCPAbstractPlottable {
public:
    static constexpr double kHalfRow = 0.38;  // a stage row spans stage ± kHalfRow
    static const QColor kForward;             // blue
    static const QColor kBackward;            // orange: distinct from blue for colour-blind users

    PipelineBlocks(QCPAxis* keyAxis, QCPAxis* valueAxis);

    void setTimeline(const core::placement::PipelineTimeline* timeline) { timeline_ = timeline; }
    // Rectangles and microbatch numbers the last draw painted.
    int drawnRectangles() const { return drawn_; }
    int drawnLabels() const { return labels_; }

    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }
    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override;
    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter*, const QRectF&) const override {}

private:
    struct Run {
        double x0 = 0, x1 = -1;
        bool forward = false, backward = false;
        bool active() const { return x1 >= x0; }
    };
    void flush(QCPPainter* painter, Run& run, double top, double height);
    void drawLabel(QCPPainter* painter, const QRectF& rect, int microbatch);

    const core::placement::PipelineTimeline* timeline_ = nullptr;
    QFont font_, smallFont_;  // the plot's font and the fallback for narrow blocks
    int widestLabel_ = 1;     // digits of the highest microbatch number in view
    int drawn_ = 0;
    int labels_ = 0;
};

}  // namespace tandem::ui
