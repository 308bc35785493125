#include "ui/charts/pipeline_blocks.h"

#include <algorithm>
#include <cmath>

#include "core/placement/pipeline_timeline.h"

namespace tandem::ui {

namespace {

using core::placement::PipelineBlock;

// Blocks narrower than this merge into runs: below ~3 px neither colour shading nor borders can
// be seen, and painting tens of thousands of 1–2 px rectangles is what makes zoomed-out replots
// slow.
constexpr double kMergeBelowPx = 3.0;

QColor blockColour(bool forward, int microbatch, int chunk) {
    // Alternate shades tell neighbouring microbatches apart when blocks touch; under interleaved
    // 1F1B every other model chunk is darker.
    QColor base = forward ? PipelineBlocks::kForward : PipelineBlocks::kBackward;
    if (chunk % 2) base = base.darker(135);
    return microbatch % 2 ? base.lighter(118) : base;
}

}  // namespace

const QColor PipelineBlocks::kForward(0x2F, 0x6D, 0xB5);
const QColor PipelineBlocks::kBackward(0xE8, 0x7D, 0x12);

PipelineBlocks::PipelineBlocks(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis) {
    setSelectable(QCP::stNone);
    setAntialiased(false);
    setAntialiasedFill(false);
}

QCPRange PipelineBlocks::getKeyRange(bool& found, QCP::SignDomain) const {
    found = timeline_ != nullptr;
    return found ? QCPRange(0, std::max(timeline_->makespanSeconds(), 1e-12)) : QCPRange();
}

QCPRange PipelineBlocks::getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const {
    found = timeline_ != nullptr;
    return found ? QCPRange(-0.5, timeline_->stageCount() - 0.5) : QCPRange();
}

void PipelineBlocks::flush(QCPPainter* painter, Run& run, double top, double height) {
    if (!run.active()) return;
    const double x = std::floor(run.x0);
    const double width = std::max(1.0, std::ceil(run.x1) - x);
    if (run.forward && run.backward) {
        painter->fillRect(QRectF(x, top, width, height / 2), kForward);
        painter->fillRect(QRectF(x, top + height / 2, width, height - height / 2), kBackward);
        drawn_ += 2;
    } else {
        painter->fillRect(QRectF(x, top, width, height), run.forward ? kForward : kBackward);
        ++drawn_;
    }
    run = Run{};
}

void PipelineBlocks::drawLabel(QCPPainter* painter, const QRectF& block, int microbatch) {
    // Centred in the part of the block in view, so a block cut by the edge keeps its number.
    const QRectF rect = block.intersected(QRectF(clipRect()));
    const QString label = QString::number(microbatch + 1);
    // The chart's font with a pixel to spare on each side, else the smaller font with none. The
    // room asked for is that of the longest number in view, so that at any zoom the blocks of
    // one width are all numbered or all blank: never 1–9 numbered and 10 on not.
    const QString widest(widestLabel_, QLatin1Char('8'));
    for (const QFont* font : {&font_, &smallFont_}) {
        const QFontMetricsF metrics(*font);
        const double pad = font == &font_ ? 2 : 0;
        if (rect.width() < metrics.horizontalAdvance(widest) + pad ||
            rect.height() < metrics.height() - 2)
            continue;
        painter->setFont(*font);
        painter->setPen(Qt::white);
        painter->drawText(rect, Qt::AlignCenter, label);
        ++labels_;
        return;
    }
}

void PipelineBlocks::draw(QCPPainter* painter) {
    drawn_ = 0;
    labels_ = 0;
    if (!timeline_) return;
    font_ = mParentPlot->font();
    smallFont_ = font_;
    smallFont_.setPointSizeF(std::max(6.5, font_.pointSizeF() * 0.8));
    const QCPRange keys = mKeyAxis->range();
    const QCPRange values = mValueAxis->range();
    const int S = timeline_->stageCount();
    const int first = std::max(0, int(std::ceil(values.lower - kHalfRow)));
    const int last = std::min(S - 1, int(std::floor(values.upper + kHalfRow)));
    // The digits of the highest microbatch number in view. Forward numbers ascend in a stage's
    // execution order, and so do backward ones: it is the last forward or backward in view.
    int highest = 0;
    for (int k = first; k <= last; ++k) {
        const auto blocks = timeline_->stageBlocks(k);
        auto end = std::partition_point(blocks.begin(), blocks.end(), [&](const PipelineBlock& b) {
            return b.startSeconds <= keys.upper;
        });
        bool forward = false, backward = false;
        for (auto it = end; it != blocks.begin() && !(forward && backward);) {
            --it;
            if (it->endSeconds < keys.lower) break;
            (it->forward ? forward : backward) = true;
            highest = std::max(highest, it->microbatch + 1);
        }
    }
    widestLabel_ = int(QString::number(highest).size());
    double lastRowPixel = -1e9;
    for (int k = first; k <= last; ++k) {
        const double y0 = mValueAxis->coordToPixel(k - kHalfRow);
        const double y1 = mValueAxis->coordToPixel(k + kHalfRow);
        const double top = std::round(std::min(y0, y1));
        const double height = std::max(1.0, std::round(std::abs(y1 - y0)));
        if (height <= 1 && top == lastRowPixel) continue;  // rows thinner than a pixel overlap
        lastRowPixel = top;
        const auto blocks = timeline_->stageBlocks(k);
        // Blocks of a stage never overlap, so their ends ascend with their starts.
        auto it = std::partition_point(blocks.begin(), blocks.end(), [&](const PipelineBlock& b) {
            return b.endSeconds < keys.lower;
        });
        Run run;
        for (; it != blocks.end() && it->startSeconds <= keys.upper; ++it) {
            const double x0 = mKeyAxis->coordToPixel(it->startSeconds);
            const double x1 = mKeyAxis->coordToPixel(it->endSeconds);
            if (x1 - x0 < kMergeBelowPx) {
                if (run.active() && x0 > run.x1 + 1.0) flush(painter, run, top, height);
                if (!run.active()) run.x0 = x0;
                run.x1 = std::max(run.x1, x1);
                (it->forward ? run.forward : run.backward) = true;
                continue;
            }
            flush(painter, run, top, height);
            const QRectF rect(x0, top, x1 - x0, height);
            const QColor colour = blockColour(it->forward, it->microbatch, it->chunk);
            painter->fillRect(rect, colour);
            ++drawn_;
            if (rect.width() >= 5 && height >= 5) {
                painter->setPen(QPen(colour.darker(140), 0));
                painter->setBrush(Qt::NoBrush);
                painter->drawRect(rect.adjusted(0, 0, -1, -1));
            }
            drawLabel(painter, rect, it->microbatch);
        }
        flush(painter, run, top, height);
    }
}

}  // namespace tandem::ui
