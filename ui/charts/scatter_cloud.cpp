#include "ui/charts/scatter_cloud.h"

#include <qcustomplot.h>
#include <QElapsedTimer>
#include <QImage>
#include <algorithm>
#include <cmath>

#include "ui/charts/chunked_vector.h"

namespace tandem::ui {

namespace {
constexpr int kCell = 2;    // pixels per grid cell: finer than a marker, coarse enough to merge
constexpr int kRadius = 2;  // disc radius in pixels (a 5-pixel marker)
}  // namespace

class ScatterCloud::Layer : public QCPLayerable {
public:
    explicit Layer(QCustomPlot* plot) : QCPLayerable(plot, QStringLiteral("main")) {}

    struct Point {
        float x = 0, y = 0;
        std::uint32_t colourClass = 0;
    };
    ChunkedVector<Point, 16> points;
    std::vector<int> bucketOfClass;
    std::vector<QColor> colours;
    quint64 style = 0;  // bumped when colours or class buckets change: everything is redrawn
    quint64 epoch = 0;  // bumped by clear()
    double drawMilliseconds = 0;
    std::size_t drawnPoints = 0;

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override {
        painter->setAntialiasing(false);
    }
    QRect clipRect() const override { return mParentPlot->axisRect()->rect(); }

    void draw(QCPPainter* painter) override {
        QElapsedTimer timer;
        timer.start();
        const QRect rect = mParentPlot->axisRect()->rect();
        if (rect.width() <= 0 || rect.height() <= 0) return;
        const auto xRange = mParentPlot->xAxis->range();
        const auto yRange = mParentPlot->yAxis->range();
        const qreal ratio = std::max<qreal>(1.0, painter->device()->devicePixelRatioF());
        const Key key{style,        epoch,        rect.size(),  xRange.lower,
                      xRange.upper, yRange.lower, yRange.upper, ratio};
        if (!(key == cachedKey_) || image_.isNull()) {
            render(rect.size(), xRange, yRange, ratio);
            cachedKey_ = key;
            drawnPoints = points.size();
        } else {
            drawnPoints = points.size() - stamped_;
            stampNew();
        }
        painter->drawImage(rect.topLeft(), image_);
        drawMilliseconds = double(timer.nsecsElapsed()) / 1e6;
    }

private:
    struct Key {
        quint64 style = ~quint64(0), epoch = 0;
        QSize size;
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        qreal ratio = 1;
        bool operator==(const Key&) const = default;
    };

    // Owner priority of a class: 0 not drawn, 1 infeasible, 2 + bucket (higher wins a cell).
    std::uint16_t priorityOf(std::uint32_t c) const {
        if (c == kInfeasible) return 1;
        if (c >= bucketOfClass.size()) return 0;
        const int b = bucketOfClass[c];
        return b >= 0 && std::size_t(b) < colours.size() ? std::uint16_t(2 + b) : 0;
    }

    // The cell of point p, or −1 when it falls outside the image (or is not a number).
    std::ptrdiff_t cellOf(const Point& p) const {
        const double px = (double(p.x) - x0_) * sx_;
        const double py = (y1_ - double(p.y)) * sy_;
        if (!(px >= 0 && py >= 0 && px < width_ && py < height_)) return -1;
        return std::ptrdiff_t(int(py) / kCell) * cols_ + int(px) / kCell;
    }

    void stampCell(std::ptrdiff_t cell, std::uint16_t o) {
        const int x = int(cell % cols_) * kCell + kCell / 2,
                  y = int(cell / cols_) * kCell + kCell / 2;
        if (o == 1)
            stampCross(x, y, radius_, qRgb(165, 165, 165), o);
        else
            stampDisc(x, y, radius_, colours[std::size_t(o - 2)].rgba(), o);
    }

    // Everything: owners of every cell first, then one stamp per occupied cell, row by row.
    void render(QSize logical, const QCPRange& xr, const QCPRange& yr, qreal ratio) {
        width_ = int(std::ceil(logical.width() * ratio));
        height_ = int(std::ceil(logical.height() * ratio));
        image_ = QImage(width_, height_, QImage::Format_ARGB32_Premultiplied);
        image_.setDevicePixelRatio(ratio);
        image_.fill(Qt::transparent);
        pixelOwner_.assign(std::size_t(width_) * std::size_t(height_), 0);
        cols_ = (width_ + kCell - 1) / kCell;
        const int rows = (height_ + kCell - 1) / kCell;
        owner_.assign(std::size_t(cols_) * std::size_t(rows), 0);
        x0_ = xr.lower;
        y1_ = yr.upper;
        sx_ = width_ / xr.size();
        sy_ = height_ / yr.size();
        radius_ = std::max(1, int(std::lround(kRadius * ratio)));
        priority_.resize(bucketOfClass.size());
        for (std::size_t c = 0; c < bucketOfClass.size(); ++c)
            priority_[c] = priorityOf(std::uint32_t(c));
        points.forEachFrom(0, [this](const Point& p) {
            const auto cell = cellOf(p);
            if (cell < 0) return;
            const std::uint16_t o = p.colourClass == kInfeasible       ? 1
                                    : p.colourClass < priority_.size() ? priority_[p.colourClass]
                                                                       : 0;
            auto& owner = owner_[std::size_t(cell)];
            owner = std::max(owner, o);
        });
        // Once: bits() and scanLine() check for sharing on every call.
        bits_ = image_.bits();
        bytesPerLine_ = image_.bytesPerLine();
        for (std::size_t cell = 0; cell < owner_.size(); ++cell)
            if (owner_[cell] != 0) stampCell(std::ptrdiff_t(cell), owner_[cell]);
        stamped_ = points.size();
    }

    // The points appended since the last draw, on top of the image as it is.
    void stampNew() {
        bits_ = image_.bits();
        bytesPerLine_ = image_.bytesPerLine();
        points.forEachFrom(stamped_, [this](const Point& p) {
            const auto cell = cellOf(p);
            if (cell < 0) return;
            const std::uint16_t o = priorityOf(p.colourClass);
            auto& owner = owner_[std::size_t(cell)];
            if (o <= owner) return;
            owner = o;
            stampCell(cell, o);
        });
        stamped_ = points.size();
    }

    // Markers of neighbouring cells overlap; a pixel shows the highest priority that covers it,
    // whatever the order of stamping, so drawing a batch onto the image gives exactly the image
    // a full draw would (and the buckets look drawn in order, the highest on top).
    void put(int x, int y, QRgb c, std::uint16_t o) {
        if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
        auto& owner = pixelOwner_[std::size_t(y) * std::size_t(width_) + std::size_t(x)];
        if (o <= owner) return;  // equal priority: the same colour is there already
        owner = o;
        reinterpret_cast<QRgb*>(bits_ + std::ptrdiff_t(y) * bytesPerLine_)[x] = c;
    }
    void stampDisc(int x, int y, int r, QRgb c, std::uint16_t o) {
        for (int dy = -r; dy <= r; ++dy)
            for (int dx = -r; dx <= r; ++dx)
                if (dx * dx + dy * dy <= r * r + r / 2) put(x + dx, y + dy, c, o);
    }
    void stampCross(int x, int y, int r, QRgb c, std::uint16_t o) {
        for (int d = -r; d <= r; ++d) {
            put(x + d, y + d, c, o);
            put(x + d, y - d, c, o);
        }
    }

    Key cachedKey_;
    QImage image_;
    std::vector<std::uint16_t> owner_;       // priority per cell
    std::vector<std::uint16_t> pixelOwner_;  // priority per pixel of image_
    std::vector<std::uint16_t> priority_;    // priorityOf(class), cached for a full render
    uchar* bits_ = nullptr;                  // image_'s pixels, valid while drawing
    qsizetype bytesPerLine_ = 0;
    std::size_t stamped_ = 0;  // points [0, stamped_) are in image_
    // The mapping of the image: pixel = ((x − x0_)·sx_, (y1_ − y)·sy_).
    double x0_ = 0, y1_ = 0, sx_ = 0, sy_ = 0;
    int width_ = 0, height_ = 0, cols_ = 1, radius_ = 1;
};

ScatterCloud::ScatterCloud(QCustomPlot* plot) : layer_(new Layer(plot)) {}

ScatterCloud::~ScatterCloud() = default;  // the plot deletes its layerables

void ScatterCloud::clear() {
    layer_->points.clear();
    ++layer_->epoch;
}

void ScatterCloud::append(double x, double y, std::uint32_t colourClass) {
    layer_->points.push_back({float(x), float(y), colourClass});
}

void ScatterCloud::setClassBuckets(std::vector<int> bucketOfClass) {
    if (bucketOfClass == layer_->bucketOfClass) return;
    layer_->bucketOfClass = std::move(bucketOfClass);
    ++layer_->style;
}

void ScatterCloud::setBucketColours(std::vector<QColor> colours) {
    if (colours == layer_->colours) return;
    layer_->colours = std::move(colours);
    ++layer_->style;
}

std::size_t ScatterCloud::size() const {
    return layer_->points.size();
}

double ScatterCloud::lastDrawMilliseconds() const {
    return layer_->drawMilliseconds;
}

std::size_t ScatterCloud::lastDrawnPoints() const {
    return layer_->drawnPoints;
}

}  // namespace tandem::ui
