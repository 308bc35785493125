#include "ui/charts/scatter_cloud.h"

#include <qcustomplot.h>
#include <QElapsedTimer>
#include <QImage>
#include <algorithm>
#include <cmath>

namespace tandem::ui {

namespace {
constexpr int kCell = 2;    // pixels per grid cell: finer than a marker, coarse enough to merge
constexpr int kRadius = 2;  // disc radius in pixels (a 5-pixel marker)
}  // namespace

class ScatterCloud::Layer : public QCPLayerable {
public:
    explicit Layer(QCustomPlot* plot) : QCPLayerable(plot, QStringLiteral("main")) {}

    std::vector<float> xs, ys;
    std::vector<std::uint8_t> buckets;
    std::vector<QColor> colours;
    quint64 version = 0;  // bumped on every data or colour change
    double drawMilliseconds = 0;

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
        const Key key{version,      rect.size(),  xRange.lower, xRange.upper,
                      yRange.lower, yRange.upper, ratio};
        if (!(key == cachedKey_) || image_.isNull()) {
            render(rect.size(), xRange, yRange, ratio);
            cachedKey_ = key;
        }
        painter->drawImage(rect.topLeft(), image_);
        drawMilliseconds = double(timer.nsecsElapsed()) / 1e6;
    }

private:
    struct Key {
        quint64 version = ~quint64(0);
        QSize size;
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        qreal ratio = 1;
        bool operator==(const Key&) const = default;
    };

    void render(QSize logical, const QCPRange& xr, const QCPRange& yr, qreal ratio) {
        const int w = int(std::ceil(logical.width() * ratio));
        const int h = int(std::ceil(logical.height() * ratio));
        image_ = QImage(w, h, QImage::Format_ARGB32_Premultiplied);
        image_.setDevicePixelRatio(ratio);
        image_.fill(Qt::transparent);
        const int cols = (w + kCell - 1) / kCell, rows = (h + kCell - 1) / kCell;
        // owner: 0 empty, 1 infeasible, 2 + bucket for feasible points (higher wins).
        owner_.assign(std::size_t(cols) * std::size_t(rows), 0);
        const double sx = w / xr.size(), sy = h / yr.size();
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const double px = (double(xs[i]) - xr.lower) * sx;
            const double py = (yr.upper - double(ys[i])) * sy;
            // Outside the visible ranges (or not a number): nothing to draw.
            if (!(px >= 0 && py >= 0 && px < w && py < h)) continue;
            const std::size_t cell =
                std::size_t(int(py) / kCell) * std::size_t(cols) + std::size_t(int(px) / kCell);
            const std::uint8_t b = buckets[i];
            const std::uint16_t o = b == kInfeasible ? 1 : std::uint16_t(2 + b);
            owner_[cell] = std::max(owner_[cell], o);
        }
        std::vector<QRgb> rgb(colours.size());
        for (std::size_t b = 0; b < colours.size(); ++b) rgb[b] = colours[b].rgba();
        const QRgb grey = qRgb(165, 165, 165);
        const int r = std::max(1, int(std::lround(kRadius * ratio)));
        for (int cy = 0; cy < rows; ++cy)
            for (int cx = 0; cx < cols; ++cx) {
                const std::uint16_t o =
                    owner_[std::size_t(cy) * std::size_t(cols) + std::size_t(cx)];
                if (o == 0) continue;
                const int x = cx * kCell + kCell / 2, y = cy * kCell + kCell / 2;
                if (o == 1)
                    stampCross(x, y, r, grey);
                else if (std::size_t(o - 2) < rgb.size())
                    stampDisc(x, y, r, rgb[std::size_t(o - 2)]);
            }
    }

    void put(int x, int y, QRgb c) {
        if (x < 0 || y < 0 || x >= image_.width() || y >= image_.height()) return;
        reinterpret_cast<QRgb*>(image_.scanLine(y))[x] = c;
    }
    void stampDisc(int x, int y, int r, QRgb c) {
        for (int dy = -r; dy <= r; ++dy)
            for (int dx = -r; dx <= r; ++dx)
                if (dx * dx + dy * dy <= r * r + r / 2) put(x + dx, y + dy, c);
    }
    void stampCross(int x, int y, int r, QRgb c) {
        for (int d = -r; d <= r; ++d) {
            put(x + d, y + d, c);
            put(x + d, y - d, c);
        }
    }

    Key cachedKey_;
    QImage image_;
    std::vector<std::uint16_t> owner_;
};

ScatterCloud::ScatterCloud(QCustomPlot* plot) : layer_(new Layer(plot)) {}

ScatterCloud::~ScatterCloud() = default;  // the plot deletes its layerables

void ScatterCloud::clear() {
    layer_->xs.clear();
    layer_->ys.clear();
    layer_->buckets.clear();
    ++layer_->version;
}

void ScatterCloud::reserve(std::size_t points) {
    layer_->xs.reserve(points);
    layer_->ys.reserve(points);
    layer_->buckets.reserve(points);
}

void ScatterCloud::append(double x, double y, std::uint8_t bucket) {
    layer_->xs.push_back(float(x));
    layer_->ys.push_back(float(y));
    layer_->buckets.push_back(bucket);
    ++layer_->version;
}

void ScatterCloud::setBucket(std::size_t i, std::uint8_t bucket) {
    layer_->buckets[i] = bucket;
    ++layer_->version;
}

void ScatterCloud::setBucketColours(std::vector<QColor> colours) {
    layer_->colours = std::move(colours);
    ++layer_->version;
}

std::size_t ScatterCloud::size() const {
    return layer_->xs.size();
}

double ScatterCloud::lastDrawMilliseconds() const {
    return layer_->drawMilliseconds;
}

}  // namespace tandem::ui
