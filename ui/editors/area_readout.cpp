#include "ui/editors/area_readout.h"

#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "core/common/units.h"
#include "core/hardware/area_model.h"
#include "ui/charts/point_text.h"

namespace tandem::ui {

namespace {

// The area text the design space and the comparison show (point_text.h).
QString mm2(double value) {
    return areaText(value);
}

// The chunk colour carries the verdict; the palette alone is ignored by some styles.
const char* kWithin = "QProgressBar::chunk { background-color: #2e7d32; }";
const char* kOver = "QProgressBar::chunk { background-color: #c62828; }";

}  // namespace

AreaReadout::AreaReadout(QWidget* parent)
    : QWidget(parent),
      budget_(core::hardware::AreaModel::kReferenceAreaSquareMillimetres),
      area_(std::numeric_limits<double>::quiet_NaN()) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    label_ = new QLabel(this);
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar_ = new QProgressBar(this);
    bar_->setObjectName("areaBar");
    bar_->setRange(0, 1000);
    bar_->setTextVisible(true);
    bar_->setAlignment(Qt::AlignCenter);
    layout->addWidget(label_);
    layout->addWidget(bar_);
    refresh();
}

void AreaReadout::setAccelerator(const core::hardware::AcceleratorConfig& accelerator) {
    accelerator_ = accelerator;
    refresh();
}

void AreaReadout::setBudget(double squareMillimetres) {
    budget_ = squareMillimetres;
    refresh();
}

void AreaReadout::setAllowExtrapolation(bool allow) {
    extrapolate_ = allow;
    refresh();
}

bool AreaReadout::hasArea() const {
    return std::isfinite(area_);
}
QString AreaReadout::text() const {
    return label_->text();
}
QString AreaReadout::barText() const {
    return bar_->format();
}

void AreaReadout::refresh() {
    const core::hardware::AreaModel model(extrapolate_);
    const auto breakdown = model.breakdown(accelerator_);
    if (!breakdown.ok()) {
        area_ = std::numeric_limits<double>::quiet_NaN();
        over_ = false;
        label_->setText(tr("Area unknown: %1").arg(QString::fromStdString(breakdown.message())));
        label_->setStyleSheet("QLabel { color: #b00020; }");
        bar_->setEnabled(false);
        bar_->setValue(0);
        bar_->setFormat(tr("outside the area tables"));
        bar_->setStyleSheet({});
        bar_->setToolTip(label_->text());
        return;
    }
    area_ = breakdown->totalSquareMillimetres();
    const bool budgetValid = std::isfinite(budget_) && budget_ > 0;
    over_ = budgetValid && area_ > budget_;
    const double percent = budgetValid ? 100.0 * area_ / budget_ : 0.0;
    label_->setStyleSheet(over_ ? "QLabel { color: #b00020; }" : QString());
    label_->setText(budgetValid ? tr("Area %1 of %2 budget").arg(mm2(area_), mm2(budget_))
                                : tr("Area %1 (no valid budget)").arg(mm2(area_)));
    bar_->setEnabled(true);
    // A chip over budget fills the bar; the text gives the true percentage.
    bar_->setValue(int(std::lround(std::min(percent, 100.0) * 10)));
    const QString share = QString::fromStdString(core::formatFixed(percent, 1)) + " %";
    bar_->setFormat(over_ ? tr("%1 — over budget by %2").arg(share, mm2(area_ - budget_))
                          : tr("%1 of budget").arg(share));
    bar_->setStyleSheet(over_ ? kOver : kWithin);
    const double um2PerMm2 = 1e6;
    bar_->setToolTip(
        tr("<b>Silicon area (22 nm tables)</b><br>Tensor cores: %1<br>Vector cores: %2<br>"
           "Global buffer: %3<br>Total: %4<br>Budget: %5")
            .arg(mm2(breakdown->tensorCoresSquareMicrometres / um2PerMm2),
                 mm2(breakdown->vectorCoresSquareMicrometres / um2PerMm2),
                 mm2(breakdown->globalBufferSquareMicrometres / um2PerMm2), mm2(area_),
                 mm2(budget_)));
    label_->setToolTip(bar_->toolTip());
}

}  // namespace tandem::ui
