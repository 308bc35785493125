#include "ui/charts/design_space_chart.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

#include "core/common/units.h"
#include "ui/charts/point_text.h"
#include "ui/widgets/elided_label.h"

namespace tandem::ui {

namespace {
constexpr double kHitRadiusPixels = 8;

}  // namespace

DesignSpaceChart::DesignSpaceChart(QWidget* parent) : ChartWidget(parent) {
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    auto* colourLabel = new QLabel(tr("&Colour by:"), this);
    colourBox_ = new QComboBox(this);
    colourLabel->setBuddy(colourBox_);
    for (auto d : PointColouring::dimensions())
        colourBox_->addItem(PointColouring::dimensionName(d), int(d));
    colourBox_->setToolTip(tr("Which configuration field colours the points"));
    auto* reset = new QPushButton(tr("&Reset view"), this);
    reset->setToolTip(tr("Fit every point (keys 0 or Home; double-click the chart)"));
    auto* hint =
        new ElidedLabel(tr("Wheel or +/− zoom · drag or arrows pan · click selects"), this);
    hint->setStyleSheet(QStringLiteral("QLabel { color: palette(mid); }"));
    bar->addWidget(colourLabel);
    bar->addWidget(colourBox_);
    bar->addSpacing(12);
    auto* rankLabel = new QLabel(tr("Ran&k by:"), this);
    rankBox_ = makeRankBox();
    rankLabel->setBuddy(rankBox_);
    bar->addWidget(rankLabel);
    bar->addWidget(rankBox_);
    bar->addSpacing(12);
    bar->addWidget(reset);
    bar->addStretch(1);
    bar->addWidget(hint);
    auto* column = static_cast<QVBoxLayout*>(layout());
    column->insertLayout(0, bar);
    column->setStretchFactor(plot_, 1);
    connect(colourBox_, &QComboBox::currentIndexChanged, this, [this](int row) {
        setColourDimension(ColourDimension(colourBox_->itemData(row).toInt()));
    });
    connect(reset, &QPushButton::clicked, this, &DesignSpaceChart::resetView);
    setUpPlot();
}

DesignSpaceChart::~DesignSpaceChart() = default;

QWidget* DesignSpaceChart::plotWidget() const {
    return plot_;
}

QRect DesignSpaceChart::plotArea() const {
    return plot_->axisRect()->rect();
}

void DesignSpaceChart::setUpPlot() {
    plot_->setMouseTracking(true);
    plot_->setFocusPolicy(Qt::StrongFocus);
    setFocusProxy(plot_);
    plot_->installEventFilter(this);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->xAxis->setLabel(tr("Chip area (mm²)"));
    plot_->yAxis->setLabel(tr("Throughput (samples/s)"));
    plot_->yAxis->setNumberFormat(QStringLiteral("gb"));

    plot_->plotLayout()->insertRow(0);
    title_ = new QCPTextElement(plot_, tr("Design space: no points yet"),
                                QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plot_->plotLayout()->addElement(0, 0, title_);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), std::max(8, font().pointSize() - 1)));
    plot_->legend->setRowSpacing(0);
    // The legend sits right of the axis rect, at the top of a column that has a filler below,
    // so it keeps its natural height instead of stretching its frame over the whole column.
    auto* side = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(1, 1, side);
    side->addElement(0, 0, plot_->legend);
    side->addElement(1, 0, new QCPLayoutElement(plot_));
    side->setRowStretchFactor(0, 0.001);
    side->setMargins(QMargins(0, 4, 6, 0));
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
    plot_->legend->setLayer(QStringLiteral("legend"));

    cloud_ = std::make_unique<ScatterCloud>(plot_);
    marks_ = std::make_unique<DesignSpaceMarks>(plot_);
    connect(plot_, &QCustomPlot::mouseMove, this, &DesignSpaceChart::onMouseMove);
    connect(plot_, &QCustomPlot::mousePress, this,
            [this](QMouseEvent* e) { pressPos_ = e->pos(); });
    connect(plot_, &QCustomPlot::mouseRelease, this, &DesignSpaceChart::onMouseRelease);
    connect(plot_, &QCustomPlot::mouseWheel, this, [this] { userView_ = true; });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { resetView(); });
    refresh();
}

void DesignSpaceChart::clear() {
    data_.clear();
    partial_ = false;
    selectedRecord_.reset();
    userView_ = false;
    rebuildScatter();
    refresh();
}

void DesignSpaceChart::addPoints(const std::vector<core::search::EvaluatedPoint>& points) {
    // O(batch): records and cloud points are appended, a new colour value re-maps the colour
    // classes (O(values)), the front merges the batch into the old front, and the replot this
    // queues stamps only the new points (see ScatterCloud).
    const std::size_t from = data_.size();
    bool newValues = false;
    for (const auto& p : points) newValues |= data_.add(p);
    if (data_.size() == from) return;
    if (newValues) applyColouring();
    appendScatter(from);
    data_.mergeFront(from);
    findSelected(from);
    refresh();
}

void DesignSpaceChart::findSelected(std::size_t from) {
    if (selected_ < 0 || selectedRecord_) return;
    for (std::size_t i = from; i < data_.size(); ++i)
        if (data_.record(i).index == selected_) {
            selectedRecord_ = i;
            return;
        }
}

void DesignSpaceChart::setResults(std::shared_ptr<const core::search::SearchResults> results) {
    if (results)
        data_.adoptResults(*results);
    else
        data_.clear();
    partial_ = results && results->statistics().cancelled;
    selectedRecord_.reset();
    findSelected(0);
    rebuildScatter();
    refresh();
}

void DesignSpaceChart::setColourDimension(ColourDimension dimension) {
    const int row = colourBox_->findData(int(dimension));
    if (row != colourBox_->currentIndex()) {
        colourBox_->setCurrentIndex(row);  // comes back here through the signal
        return;
    }
    data_.setColourDimension(dimension);
    rebuildScatter();
    refresh();
}

void DesignSpaceChart::rebuildScatter() {
    cloud_->clear();
    valueCounts_.clear();
    applyColouring();
    appendScatter(0);
}

void DesignSpaceChart::applyColouring() {
    const auto& colouring = data_.colouring();
    marks_->setBuckets(colouring);
    std::vector<QColor> colours;
    for (int b = 0; b < colouring.bucketCount(); ++b) colours.push_back(colouring.bucketColour(b));
    cloud_->setBucketColours(std::move(colours));
    std::vector<int> bucketOfClass(std::size_t(colouring.valueCount()));
    for (int id = 0; id < colouring.valueCount(); ++id)
        bucketOfClass[std::size_t(id)] = colouring.bucketOfValueId(id);
    cloud_->setClassBuckets(std::move(bucketOfClass));
}

void DesignSpaceChart::appendScatter(std::size_t from) {
    const auto& colouring = data_.colouring();
    valueCounts_.resize(std::size_t(colouring.valueCount()), 0);
    for (std::size_t i = from; i < data_.size(); ++i) {
        const auto& r = data_.record(i);
        std::uint32_t colourClass = ScatterCloud::kInfeasible;
        if (r.feasible()) {
            // Every record's value was observed when it was added, so the id exists.
            const int id = colouring.valueIdOf(r);
            colourClass = id >= 0 ? std::uint32_t(id) : ScatterCloud::kHidden;
            if (id >= 0) ++valueCounts_[std::size_t(id)];
        }
        cloud_->append(r.areaSquareMillimetres, r.plottedThroughput(), colourClass);
    }
}

void DesignSpaceChart::updateMarks() {
    const auto& colouring = data_.colouring();
    bucketCounts_.assign(std::size_t(colouring.bucketCount()), 0);
    for (std::size_t id = 0; id < valueCounts_.size(); ++id)
        if (id < std::size_t(colouring.valueCount()))
            bucketCounts_[std::size_t(colouring.bucketOfValueId(int(id)))] += valueCounts_[id];
    marks_->update({&data_, referenceExplicit_, selectedRecord_, &bucketCounts_});
    const auto count = [](qint64 n) {
        return QString::fromStdString(core::formatCount(double(n)));
    };
    const QString of = owner_.isEmpty() ? QString() : tr(" of %1").arg(owner_);
    QString title = data_.size() == 0 ? tr("Design space%1: no points yet — run a search").arg(of)
                                      : tr("Design space%1: %2 points · %3 feasible")
                                            .arg(of, count(pointCount()), count(feasibleCount()));
    if (const auto b = data_.best())
        title += tr(" · best %1")
                     .arg(data_.multiModel()
                              ? tr("%1 reference").arg(objectiveText(data_.record(*b).objective))
                          : data_.objective() != core::search::SearchObjective::Throughput
                              ? QString::fromStdString(core::search::formatObjective(
                                    data_.objective(), data_.record(*b).objective))
                              : throughputText(data_.record(*b).throughputSamplesPerSecond));
    if (partial_) title += tr(" · partial: the search was cancelled");
    if (!stale_.isEmpty())
        title = tr("Results for %1 — %2 (search again: Ctrl+R)").arg(owner_, stale_);
    title_->setText(title);
}

void DesignSpaceChart::fitView() {
    if (userView_) return;
    double x0 = 0, x1 = 1, y1 = 1;
    if (data_.hasBounds()) {
        const QRectF b = data_.bounds();
        x0 = b.left();
        x1 = b.right();
        y1 = b.bottom();
    }
    if (referenceExplicit_) {
        x0 = std::min(x0, referenceExplicit_->x());
        x1 = std::max(x1, referenceExplicit_->x());
        y1 = std::max(y1, referenceExplicit_->y());
    }
    if (x1 <= x0) x0 -= 1, x1 += 1;
    if (y1 <= 0) y1 = 1;
    const double dx = (x1 - x0) * 0.04;
    plot_->xAxis->setRange(x0 - dx, x1 + dx);
    // A little room below zero keeps the infeasible row off the axis line.
    plot_->yAxis->setRange(-0.04 * y1, 1.06 * y1);
}

void DesignSpaceChart::refresh() {
    updateMarks();
    fitView();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void DesignSpaceChart::replotNow() {
    plot_->replot();
}

void DesignSpaceChart::resetView() {
    userView_ = false;
    fitView();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void DesignSpaceChart::selectPoint(qint64 pointIndex) {
    selected_ = pointIndex;
    selectedRecord_ = data_.recordOf(pointIndex);
    updateMarks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

std::optional<std::size_t> DesignSpaceChart::nearestRecord(const QPoint& pixel) const {
    const auto* x = plot_->xAxis;
    const auto* y = plot_->yAxis;
    // The star is drawn over its neighbours: within its radius it is what the cursor is on.
    if (const auto best = data_.best()) {
        const DesignPointRecord& b = data_.record(*best);
        const QPointF at(x->coordToPixel(b.areaSquareMillimetres),
                         y->coordToPixel(b.plottedThroughput()));
        if (QLineF(at, QPointF(pixel)).length() <= DesignSpaceMarks::kBestStarPixels / 2)
            return best;
    }
    const double r = kHitRadiusPixels;
    const QRectF dataRect(QPointF(x->pixelToCoord(pixel.x() - r), y->pixelToCoord(pixel.y() + r)),
                          QPointF(x->pixelToCoord(pixel.x() + r), y->pixelToCoord(pixel.y() - r)));
    return data_.nearest(QPointF(pixel), r, dataRect.normalized(), [x, y](double a, double t) {
        return QPointF(x->coordToPixel(a), y->coordToPixel(t));
    });
}

std::optional<qint64> DesignSpaceChart::pointAt(const QPoint& pixel) const {
    const auto i = nearestRecord(pixel);
    if (!i) return std::nullopt;
    return data_.record(*i).index;
}

std::optional<QPoint> DesignSpaceChart::pixelOf(qint64 pointIndex) const {
    const auto i = data_.recordOf(pointIndex);
    if (!i) return std::nullopt;
    const auto& r = data_.record(*i);
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(r.areaSquareMillimetres))),
                  int(std::lround(plot_->yAxis->coordToPixel(r.plottedThroughput()))));
}

QString DesignSpaceChart::titleText() const {
    return title_->text();
}

QString DesignSpaceChart::tooltipFor(qint64 pointIndex) const {
    const auto i = data_.recordOf(pointIndex);
    return i ? data_.tooltip(*i) : QString();
}

void DesignSpaceChart::onMouseMove(QMouseEvent* event) {
    if (event->buttons() != Qt::NoButton) {
        userView_ = true;  // dragging pans
        QToolTip::hideText();
        return;
    }
    QString text;
    if (const auto i = nearestRecord(event->pos())) {
        text = data_.tooltip(*i);
    } else if (referenceExplicit_) {
        const QPointF p(plot_->xAxis->coordToPixel(referenceExplicit_->x()),
                        plot_->yAxis->coordToPixel(referenceExplicit_->y()));
        if (QLineF(p, event->pos()).length() <= kHitRadiusPixels) text = referenceTooltip_;
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

void DesignSpaceChart::onMouseRelease(QMouseEvent* event) {
    if ((event->pos() - pressPos_).manhattanLength() > 3 || !stale_.isEmpty()) return;
    const auto index = pointAt(event->pos());
    if (!index) return;
    if (event->button() == Qt::LeftButton) {
        selectPoint(*index);
        emit pointSelected(*index);
    } else if (event->button() == Qt::RightButton) {
        emit pointMenuRequested(*index, plot_->mapToGlobal(event->pos()));
    }
}

bool DesignSpaceChart::handleKey(int key) {
    if (key == Qt::Key_0 || key == Qt::Key_Home) {
        resetView();
        return true;
    }
    if (key == Qt::Key_Up || key == Qt::Key_Down) {  // throughput grows upwards here
        plot_->yAxis->moveRange((key == Qt::Key_Up ? 0.25 : -0.25) * plot_->yAxis->range().size());
        plot_->replot(QCustomPlot::rpQueuedReplot);
    } else if (!navigate(key, true)) {
        return false;
    }
    userView_ = true;
    return true;
}

bool DesignSpaceChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::KeyPress &&
        handleKey(static_cast<QKeyEvent*>(event)->key()))
        return true;
    return ChartWidget::eventFilter(watched, event);
}

std::optional<qint64> DesignSpaceChart::bestPointIndex() const {
    if (const auto b = data_.best()) return data_.record(*b).index;
    return std::nullopt;
}

std::optional<qint64> DesignSpaceChart::referencePointIndex() const {
    if (const auto r = data_.referenceRecord()) return data_.record(*r).index;
    return std::nullopt;
}

std::vector<qint64> DesignSpaceChart::paretoPointIndices() const {
    std::vector<qint64> out;
    for (auto i : data_.front()) out.push_back(data_.record(i).index);
    return out;
}

QVector<QPointF> DesignSpaceChart::paretoLine() const {
    return marks_->frontLine();
}

QStringList DesignSpaceChart::legendLabels() const {
    return marks_->legendLabels();
}

}  // namespace tandem::ui
