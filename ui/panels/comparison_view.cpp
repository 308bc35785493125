#include "ui/panels/comparison_view.h"

#include <QFrame>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "core/common/units.h"
#include "core/hardware/area_model.h"
#include "ui/charts/point_text.h"

namespace tandem::ui {

namespace {
QString bytes(std::int64_t b) {
    return QString::fromStdString(core::formatBytes(double(b)));
}

// a / b, or 0 when either side is missing, so callers print "—".
double ratio(double a, double b) {
    return a > 0 && b > 0 ? a / b : 0.0;
}

const char* const kRowTitles[ComparisonView::RowCount] = {
    "Throughput", "Factor",     "Tensor cores", "Vector cores", "Global buffer", "HBM",
    "Area",       "Microbatch", "Recompute",    "Plan",         "Note"};
const char* const kRowTips[ComparisonView::RowCount] = {
    "Training samples per second over the whole cluster",
    "Throughput relative to the baseline named in the row header",
    "Count × systolic array rows×cols",
    "Count × lanes",
    "On-chip global buffer",
    "HBM capacity per chip",
    "Chip area from the 22 nm area model",
    "Samples per microbatch",
    "Activation recomputation setting solved for",
    "Tensor-parallel width t, data-parallel degree d, pipeline stages",
    "Why an entry is not available, or remarks"};
}  // namespace

ComparisonView::ComparisonView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    heading_ = new QLabel(this);
    heading_->setStyleSheet(QStringLiteral("QLabel { font-weight: bold; font-size: 12pt; }"));
    heading_->setWordWrap(true);
    layout->addWidget(heading_);
    // The reading of the numbers comes first: it is the answer; the table is the evidence.
    // A framed box rather than a styled label: a label's style-sheet border is not part of its
    // height-for-width, which clipped the last wrapped line.
    auto* box = new QFrame(this);
    box->setObjectName(QStringLiteral("explanationBox"));
    box->setStyleSheet(
        QStringLiteral("#explanationBox { background: #f3f7fb; border: 1px solid "
                       "#c5d5e6; border-radius: 4px; }"));
    auto* boxLayout = new QVBoxLayout(box);
    boxLayout->setContentsMargins(8, 6, 8, 6);
    explanation_ = new QLabel(box);
    explanation_->setWordWrap(true);
    explanation_->setTextFormat(Qt::RichText);
    explanation_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    explanation_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    boxLayout->addWidget(explanation_);
    layout->addWidget(box);
    table_ = new QTableWidget(RowCount, 0, this);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(true);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    for (int r = 0; r < RowCount; ++r) {
        auto* item = new QTableWidgetItem(tr(kRowTitles[r]));
        item->setToolTip(tr(kRowTips[r]));
        table_->setVerticalHeaderItem(r, item);
    }
    layout->addWidget(table_);
    layout->addStretch(1);
    clear();
}

void ComparisonView::clear() {
    heading_->setText(tr("Comparison"));
    table_->setColumnCount(0);
    explanation_->setText(
        tr("Evaluate a point or run a search to compare Tandem's placement and "
           "chip with the fixed Megatron strategy on the reference chip."));
}

ComparisonView::Entry ComparisonView::fromOutcome(const QString& title,
                                                  const core::search::BaselineOutcome& outcome) {
    Entry e;
    e.title = title;
    e.available = outcome.available;
    e.message = QString::fromStdString(outcome.message);
    e.throughput = outcome.throughputSamplesPerSecond;
    e.chip = outcome.point.accelerator;
    e.area = outcome.point.areaSquareMillimetres;
    e.microbatch = outcome.point.microbatchSize;
    e.recompute = outcome.point.recompute;
    e.plan = outcome.plan.get();
    return e;
}

void ComparisonView::setBaselines(const core::search::SearchBaselines& b) {
    heading_->setText(b.partial ? tr("Where the speed-up comes from: the four baselines of the "
                                     "search (partial: the search was cancelled)")
                                : tr("Where the speed-up comes from: the four baselines of the "
                                     "search"));
    const std::vector<Entry> entries = {
        fromOutcome(tr("Reference chip\n+ fixed strategy"), b.referenceFixed),
        fromOutcome(tr("Reference chip\n+ Tandem placement"), b.referencePlaced),
        fromOutcome(tr("Searched chip\n+ fixed strategy"), b.searchedFixed),
        fromOutcome(tr("Joint optimum\n(chip + placement)"), b.joint)};
    const int base = entries[0].available ? 0 : entries[1].available ? 1 : -1;
    showEntries(entries, base,
                base == 1 ? tr("× over reference\n+ Tandem placement")
                          : tr("× over reference\n+ fixed strategy"));
    explanation_->setText(searchExplanation(b));
}

void ComparisonView::setSinglePoint(const core::placement::ModelPlacement& placement,
                                    const core::hardware::AcceleratorConfig& chip) {
    heading_->setText(tr("This point: Tandem's placement against the model's fixed strategy"));
    Entry fixed, placed;
    fixed.title = tr("This chip\n+ fixed strategy");
    placed.title = tr("This chip\n+ Tandem placement");
    const auto area = core::hardware::AreaModel().areaSquareMillimetres(chip);
    for (Entry* e : {&fixed, &placed}) {
        e->chip = chip;
        e->area = area ? *area : -1.0;
        if (!area) e->areaError = QString::fromStdString(area.error().message);
    }
    if (placement.baseline && placement.baseline->fits && placement.baseline->plan) {
        fixed.available = true;
        fixed.plan = &*placement.baseline->plan;
    } else {
        fixed.message = placement.baseline ? QString::fromStdString(placement.baseline->reason)
                                           : tr("The model names no fixed strategy.");
    }
    if (placement.result.plan) {
        placed.available = true;
        placed.plan = &*placement.result.plan;
    } else {
        placed.message = QString::fromStdString(placement.result.infeasibleReason);
    }
    for (Entry* e : {&fixed, &placed})
        if (e->plan) {
            e->throughput = e->plan->throughputSamplesPerSecond;
            e->microbatch = e->plan->microbatchSize;
            e->recompute = e->plan->recompute;
        }
    showEntries({fixed, placed}, fixed.available ? 0 : -1, tr("× over\nfixed strategy"));
    explanation_->setText(singleExplanation(placement));
}

void ComparisonView::showEntries(const std::vector<Entry>& entries, int base,
                                 const QString& factorLabel) {
    table_->setColumnCount(int(entries.size()));
    table_->verticalHeaderItem(Factor)->setText(factorLabel);
    const double baseThroughput = base >= 0 ? entries[std::size_t(base)].throughput : 0.0;
    for (int c = 0; c < int(entries.size()); ++c) {
        const Entry& e = entries[std::size_t(c)];
        table_->setHorizontalHeaderItem(c, new QTableWidgetItem(e.title));
        const QString dash = QString::fromUtf8("—");
        QString cells[RowCount];
        for (auto& cell : cells) cell = dash;
        if (e.available) {
            cells[Throughput] = throughputText(e.throughput);
            cells[Factor] = factorText(ratio(e.throughput, baseThroughput));
            cells[TensorCores] = tensorCoresText(e.chip);
            cells[VectorCores] = vectorCoresText(e.chip);
            cells[GlobalBuffer] = bytes(e.chip.globalBufferBytes);
            cells[Hbm] = bytes(e.chip.hbmCapacityBytes);
            cells[Area] = e.area >= 0 ? areaText(e.area) : dash;
            cells[Microbatch] =
                e.microbatch == 1 ? tr("1 sample") : tr("%1 samples").arg(e.microbatch);
            cells[Recompute] = recomputeText(e.recompute);
            cells[Plan] = e.plan ? planShapeText(*e.plan) : tr("not kept by the search");
            cells[Note] = e.areaError.isEmpty() ? QString() : e.areaError;
        } else {
            cells[Throughput] = tr("not available");
            cells[Note] = e.message.isEmpty() ? tr("Nothing fits.") : e.message;
        }
        for (int r = 0; r < RowCount; ++r) {
            auto* item = new QTableWidgetItem(cells[r]);
            item->setTextAlignment(Qt::AlignCenter);
            item->setToolTip(r == Note || !e.available ? cells[Note] : cells[r]);
            if (!e.available) item->setForeground(QColor(130, 130, 130));
            if (r == Throughput || r == Factor) {
                QFont f = item->font();
                f.setBold(e.available);
                item->setFont(f);
            }
            table_->setItem(r, c, item);
        }
    }
    // Highlight the fastest configuration, and show the note row only when something is noted.
    int fastest = -1;
    bool anyNote = false;
    for (int c = 0; c < int(entries.size()); ++c) {
        const Entry& e = entries[std::size_t(c)];
        if (e.available && (fastest < 0 || e.throughput > entries[std::size_t(fastest)].throughput))
            fastest = c;
        anyNote |= !table_->item(Note, c)->text().isEmpty() &&
                   table_->item(Note, c)->text() != QString::fromUtf8("—");
    }
    if (fastest >= 0)
        for (int r : {int(Throughput), int(Factor)})
            table_->item(r, fastest)->setBackground(QColor(222, 242, 214));
    table_->setRowHidden(Note, !anyNote);
    table_->resizeRowsToContents();
    table_->setCurrentItem(nullptr);
    // Exactly as tall as its rows, so no empty band sits between the table and the stretch.
    int height = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth();
    for (int r = 0; r < RowCount; ++r)
        if (!table_->isRowHidden(r)) height += table_->rowHeight(r);
    table_->setFixedHeight(height);
}

QString ComparisonView::searchExplanation(const core::search::SearchBaselines& b) const {
    const double rf = b.referenceFixed.available ? b.referenceFixed.throughputSamplesPerSecond : 0;
    const double rp =
        b.referencePlaced.available ? b.referencePlaced.throughputSamplesPerSecond : 0;
    const double sf = b.searchedFixed.available ? b.searchedFixed.throughputSamplesPerSecond : 0;
    const double j = b.joint.available ? b.joint.throughputSamplesPerSecond : 0;
    QStringList parts;
    if (j <= 0) {
        parts << tr("<b>No point of the search fits</b>: %1")
                     .arg(QString::fromStdString(b.joint.message).toHtmlEscaped());
        return parts.join(QStringLiteral(" "));
    }
    const double placement = ratio(rp, rf), chip = ratio(sf, rf), joint = ratio(j, rf);
    if (rf > 0) {
        if (placement > 0)
            parts << tr("Tandem's placement alone: <b>%1</b> on the reference chip.")
                         .arg(factorText(placement));
        if (chip > 0)
            parts
                << tr("The searched chip alone (fixed strategy): <b>%1</b>.").arg(factorText(chip));
        else
            parts << tr("The fixed strategy does not fit on the searched chip (%1).")
                         .arg(QString::fromStdString(b.searchedFixed.message).toHtmlEscaped());
        QString together = tr("Together: <b>%1</b>").arg(factorText(joint));
        if (placement > 0 && chip > 0) {
            const double product = placement * chip;
            if (joint > product * 1.02)
                together += tr(" — more than the two alone multiply to (%1): the searched chip "
                               "pays off only with a placement made for it, so chip and "
                               "placement reinforce each other.")
                                .arg(factorText(product));
            else if (joint < product / 1.02)
                together += tr(" — less than the two alone multiply to (%1): part of what "
                               "the chip gains, the placement would have found anyway.")
                                .arg(factorText(product));
            else
                together += tr(" — about the product of the two (%1): the gains are independent.")
                                .arg(factorText(product));
        } else {
            together += QLatin1Char('.');
        }
        parts << together;
        if (placement > 0)
            parts << tr("On top of Tandem's placement, searching the chip adds %1.")
                         .arg(factorText(ratio(j, rp)));
    } else {
        parts << tr("The fixed strategy does not fit on the reference chip (%1), so there is no "
                    "fixed-strategy baseline to compare with.")
                     .arg(QString::fromStdString(b.referenceFixed.message).toHtmlEscaped());
        if (rp > 0)
            parts << tr("Over the reference chip with Tandem's placement, the joint optimum is "
                        "<b>%1</b>.")
                         .arg(factorText(ratio(j, rp)));
    }
    if (b.partial)
        parts << tr(
            "<i>Partial results: the search was cancelled, so these baselines cover only "
            "the points it evaluated; a full search may find better ones.</i>");
    if (!b.referenceInSpace)
        parts << tr(
            "<i>The reference chip lies outside the searched space (budget or lists), so "
            "the joint optimum may fall below a reference baseline.</i>");
    return parts.join(QStringLiteral(" "));
}

QString ComparisonView::singleExplanation(const core::placement::ModelPlacement& p) const {
    const auto* placed = p.result.plan ? &*p.result.plan : nullptr;
    const auto* fixed =
        p.baseline && p.baseline->fits && p.baseline->plan ? &*p.baseline->plan : nullptr;
    const auto percent = [](double f) {
        return QString::fromStdString(core::formatFixed(100.0 * f, 0)) + QStringLiteral(" %");
    };
    if (!placed)
        return tr("<b>Nothing fits on this chip</b>: %1")
            .arg(QString::fromStdString(p.result.infeasibleReason).toHtmlEscaped());
    QString text =
        tr("Tandem's placement (%1) reaches <b>%2</b>")
            .arg(planShapeText(*placed), throughputText(placed->throughputSamplesPerSecond));
    if (!fixed) {
        const QString why = p.baseline ? QString::fromStdString(p.baseline->reason)
                                       : tr("the model names no fixed strategy");
        return text +
               tr("; the fixed strategy does not run on this chip: %1.").arg(why.toHtmlEscaped());
    }
    text += tr(", <b>%1</b> the fixed Megatron strategy (%2, %3).")
                .arg(factorText(ratio(placed->throughputSamplesPerSecond,
                                      fixed->throughputSamplesPerSecond)),
                     planShapeText(*fixed), throughputText(fixed->throughputSamplesPerSecond));
    const auto seconds = [](double v) { return QString::fromStdString(core::formatSeconds(v)); };
    // Time per batch = slowest stage × (m + S − 1) + gradient sync: name each part for both.
    text += tr(" A batch takes %1 against %2: %3 microbatches per pipeline through a slowest "
               "stage of %4 (fixed: %5 × %6), the pipeline idles %7 of the time (fixed: %8), "
               "and the gradient all-reduce takes %9 (fixed: %10).")
                .arg(seconds(placed->timePerBatchSeconds), seconds(fixed->timePerBatchSeconds),
                     QString::number(placed->microbatchesPerPipeline),
                     seconds(placed->maxStageLoadSeconds),
                     QString::number(fixed->microbatchesPerPipeline),
                     seconds(fixed->maxStageLoadSeconds), percent(placed->bubbleFraction),
                     percent(fixed->bubbleFraction), seconds(placed->syncSeconds))
                .arg(seconds(fixed->syncSeconds));
    return text;
}

QString ComparisonView::heading() const {
    return heading_->text();
}
QString ComparisonView::explanation() const {
    return explanation_->text();
}
int ComparisonView::columnCount() const {
    return table_->columnCount();
}

QString ComparisonView::columnTitle(int column) const {
    const auto* item = table_->horizontalHeaderItem(column);
    return item ? item->text() : QString();
}

QString ComparisonView::cellText(Row row, int column) const {
    const auto* item = table_->item(int(row), column);
    return item ? item->text() : QString();
}

}  // namespace tandem::ui
