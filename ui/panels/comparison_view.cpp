#include "ui/panels/comparison_view.h"

#include <QFrame>
#include <QHeaderView>
#include <QLabel>
#include <QStringList>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "core/common/units.h"
#include "core/hardware/area_model.h"
#include "core/hardware/parameter_registry.h"
#include "core/search/search_space.h"
#include "ui/charts/breakdown_chart.h"
#include "ui/charts/point_text.h"
#include "ui/panels/comparison_text.h"

namespace tandem::ui {

namespace {
// The chip and options that differ between two plans' points, "tensor cores, microbatch".
QString differences(const core::hardware::AcceleratorConfig& a, const core::placement::Plan* pa,
                    const core::hardware::AcceleratorConfig& b, const core::placement::Plan* pb) {
    QStringList out;
    if (a.numTensorCores != b.numTensorCores || a.tensorCoreRows != b.tensorCoreRows ||
        a.tensorCoreCols != b.tensorCoreCols)
        out << QObject::tr("tensor cores");
    if (a.numVectorCores != b.numVectorCores || a.vectorCoreLanes != b.vectorCoreLanes)
        out << QObject::tr("vector cores");
    if (a.globalBufferBytes != b.globalBufferBytes) out << QObject::tr("global buffer");
    for (const core::search::SearchedField* f : core::search::optionalSearchedFields()) {
        const auto* field = &core::search::parameterOf(*f);
        if (field->get(a) == field->get(b)) continue;
        QString label =
            QString::fromUtf8(field->spec.label.data(), qsizetype(field->spec.label.size()));
        if (label.size() > 1 && label[1].isLower()) label[0] = label[0].toLower();  // not "HBM"
        out << label;
    }
    if (a.hbmCapacityBytes != b.hbmCapacityBytes) out << QObject::tr("HBM capacity");
    if (pa && pb && pa->microbatchSize != pb->microbatchSize) out << QObject::tr("microbatch");
    if (pa && pb && pa->recompute != pb->recompute) out << QObject::tr("recompute");
    if (pa && pb &&
        (pa->tensorParallel != pb->tensorParallel || pa->dataParallel != pb->dataParallel ||
         pa->stages.size() != pb->stages.size()))
        out << QObject::tr("plan");
    return out.isEmpty() ? QObject::tr("nothing") : out.join(QStringLiteral(", "));
}

QString bytes(std::int64_t b) {
    return QString::fromStdString(core::formatBytes(double(b)));
}

// a / b, or 0 when either side is missing, so callers print "—".
double ratio(double a, double b) {
    return a > 0 && b > 0 ? a / b : 0.0;
}

const char* const kRowTitles[ComparisonView::RowCount] = {
    "Throughput", "MFU",          "What changes", "× over the\ncolumn before",
    "Factor",     "Tensor cores", "Vector cores", "Global buffer",
    "HBM",        "Area",         "Microbatch",   "Recompute",
    "Plan",       "Note"};
const char* const kRowTips[ComparisonView::RowCount] = {
    "Training samples per second over the whole cluster",
    "Model FLOPs utilisation: the model's FLOPs per batch over time per batch × devices × peak",
    "The one thing this column frees over the column it builds on; everything else is held",
    "Throughput relative to the column this one builds on: what the one change buys",
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
    breakdown_ = new BreakdownChart(this);
    breakdown_->setToolTip(
        tr("Where each column's time per batch goes (core's time breakdown; "
           "the parts sum to the time per batch)"));
    layout->addWidget(breakdown_);
    layout->addStretch(1);
    clear();
}

void ComparisonView::setSubject(const QString& subject) {
    breakdown_->setSubject(subject);
}

void ComparisonView::setHeading(const QString& text) {
    headingText_ = text;
    heading_->setText(stale_.isEmpty() ? text : tr("%1 — %2").arg(text, stale_));
}

void ComparisonView::setStale(const QString& why) {
    stale_ = why;
    setHeading(headingText_);
}

ComparisonView::Entry ComparisonView::fromPlacement(const QString& title,
                                                    const core::placement::ModelPlacement& p,
                                                    const core::hardware::AcceleratorConfig& chip) {
    Entry e;
    e.title = title;
    e.chip = chip;
    const auto area = core::hardware::AreaModel().areaSquareMillimetres(chip);
    e.area = area ? *area : -1.0;
    if (!area) e.areaError = QString::fromStdString(area.error().message);
    if (p.result.plan) {
        e.available = true;
        e.plan = &*p.result.plan;
        e.throughput = e.plan->throughputSamplesPerSecond;
        e.microbatch = e.plan->microbatchSize;
        e.recompute = e.plan->recompute;
    } else {
        e.message = QString::fromStdString(p.result.infeasibleReason);
    }
    return e;
}

void ComparisonView::setPair(const core::placement::ModelPlacement& first,
                             const core::hardware::AcceleratorConfig& firstChip,
                             const QString& firstTitle,
                             const core::placement::ModelPlacement& second,
                             const core::hardware::AcceleratorConfig& secondChip,
                             const QString& secondTitle) {
    setHeading(tr("Side by side: %1 and %2").arg(firstTitle, secondTitle));
    Entry a = fromPlacement(firstTitle, first, firstChip);
    Entry b = fromPlacement(secondTitle, second, secondChip);
    a.changed = tr("(the first)");
    b.changed = differences(firstChip, a.plan, secondChip, b.plan);
    b.stepFrom = 0;
    showEntries({a, b}, a.available ? 0 : -1, tr("× over\n%1").arg(firstTitle));
    const auto seconds = [](const Entry& e) {
        return e.plan ? QString::fromStdString(core::formatSeconds(e.plan->timePerBatchSeconds))
                      : QString::fromUtf8("—");
    };
    explanation_->setText(a.available && b.available
                              ? tr("%1 reaches <b>%2</b>, %3 the throughput of %4 (%5 per batch "
                                   "against %6). What differs: %7.")
                                    .arg(secondTitle.toHtmlEscaped(), throughputText(b.throughput),
                                         factorText(ratio(b.throughput, a.throughput)),
                                         firstTitle.toHtmlEscaped(), seconds(b), seconds(a),
                                         b.changed)
                              : tr("Nothing fits on %1: %2")
                                    .arg((a.available ? secondTitle : firstTitle).toHtmlEscaped(),
                                         (a.available ? b.message : a.message).toHtmlEscaped()));
}

void ComparisonView::clear() {
    setHeading(tr("Comparison"));
    table_->setColumnCount(0);
    breakdown_->clear();
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

QStringList ComparisonView::changesBetween(const Entry& from, const Entry& to) {
    QStringList parts;
    core::hardware::AcceleratorConfig a = from.chip, b = to.chip;
    a.hbmCapacityBytes = b.hbmCapacityBytes = 0;
    if (!(a == b)) parts << tr("chip");
    if (from.chip.hbmCapacityBytes != to.chip.hbmCapacityBytes) parts << tr("HBM capacity");
    if (from.microbatch != to.microbatch) parts << tr("microbatch");
    if (from.recompute != to.recompute) parts << tr("recompute");
    return parts;
}

void ComparisonView::setBaselines(const core::search::SearchBaselines& b) {
    setHeading(b.partial ? tr("Where the speed-up comes from: one change at a time "
                              "(partial: the search was cancelled)")
                         : tr("Where the speed-up comes from: one change at a time"));
    std::vector<Entry> entries;
    if (b.referenceFixed.available) {
        const auto add = [&](const QString& title, const core::search::BaselineOutcome& o,
                             const QString& changed, int from) {
            entries.push_back(fromOutcome(title, o));
            entries.back().changed = changed;
            entries.back().stepFrom = from;
        };
        add(tr("Reference chip\n+ fixed strategy"), b.referenceFixed, tr("(the baseline)"), -1);
        add(tr("+ Tandem placement"), b.placementOnly,
            tr("placement (same chip, HBM, microbatch, recompute)"), 0);
        add(tr("+ searched chip"), b.chipAndPlacement, tr("chip (same options)"), 1);
        add(tr("+ microbatch,\nrecompute"), b.sameHbm, tr("microbatch, recompute (same HBM)"), 2);
        // A cancelled search has not seen every point: its best is the best so far.
        add(b.partial ? tr("+ HBM capacity\n= best so far") : tr("+ HBM capacity\n= joint optimum"),
            b.joint, tr("HBM capacity"), 3);
        add(tr("Searched chip\n+ fixed strategy"), b.chipOnly,
            tr("chip only (fixed strategy, same options)"), 0);
        // The last two steps take the best point with more left free, and that point may also
        // sit on another chip or differ in more than the step names: the header names what the
        // step frees plus anything else that differs from the column before, and the "What
        // changes" row exactly what differs (issue 27, item 2).
        const QStringList freed[2] = {{tr("microbatch"), tr("recompute")}, {tr("HBM capacity")}};
        for (std::size_t k : {std::size_t(3), std::size_t(4)}) {
            Entry& e = entries[k];
            const Entry& before = entries[std::size_t(e.stepFrom)];
            if (!e.available || !before.available) continue;
            const QStringList changed = changesBetween(before, e);
            QStringList named = freed[k - 3];
            for (const QString& part : changed)
                if (!named.contains(part)) named << part;
            const QString joint =
                k == 4 ? (b.partial ? tr("\n= best so far") : tr("\n= joint optimum")) : QString();
            e.title = QStringLiteral("+ ") + named.join(QStringLiteral(",\n")) + joint;
            e.changed = (changed.isEmpty() ? tr("nothing: the same point")
                                           : changed.join(QStringLiteral(", "))) +
                        (k == 3 ? tr(" (same HBM)") : tr(" (every choice free)"));
        }
        showEntries(entries, 0, tr("× over reference\n+ fixed strategy"));
    } else {
        entries = {fromOutcome(tr("Reference chip\n+ fixed strategy"), b.referenceFixed),
                   fromOutcome(tr("Reference chip\n+ Tandem placement"), b.referencePlaced),
                   fromOutcome(tr("Searched chip\n+ fixed strategy"), b.searchedFixed),
                   fromOutcome(b.partial ? tr("Best so far\n(chip + placement)")
                                         : tr("Joint optimum\n(chip + placement)"),
                               b.joint)};
        showEntries(entries, entries[1].available ? 1 : -1,
                    tr("× over reference\n+ Tandem placement"));
    }
    explanation_->setText(searchComparisonText(b));
}

void ComparisonView::setSinglePoint(const core::placement::ModelPlacement& placement,
                                    const core::hardware::AcceleratorConfig& chip) {
    const bool yours = placement.fixedStrategy.has_value();
    setHeading(yours ? tr("This point: your fixed strategy against the model's")
                     : tr("This point: Tandem's placement against the model's fixed strategy"));
    Entry placed = fromPlacement(
        yours ? tr("This chip\n+ your strategy") : tr("This chip\n+ Tandem placement"), placement,
        chip);
    // The fixed strategy's column: the same chip with the baseline's plan.
    core::placement::ModelPlacement asFixed;
    if (placement.baseline && placement.baseline->fits && placement.baseline->plan)
        asFixed.result.plan = placement.baseline->plan;
    else
        asFixed.result.infeasibleReason =
            placement.baseline ? placement.baseline->reason : "The model names no fixed strategy.";
    Entry fixed = fromPlacement(tr("This chip\n+ fixed strategy"), asFixed, chip);
    fixed.changed = tr("(the baseline)");
    placed.changed = tr("placement (same chip, HBM, microbatch, recompute)");
    placed.stepFrom = 0;
    showEntries({fixed, placed}, fixed.available ? 0 : -1, tr("× over\nfixed strategy"));
    explanation_->setText(singlePointComparisonText(placement));
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
            if (e.plan && e.plan->mfu > 0)
                cells[Mfu] = QString::fromStdString(core::formatFixed(100.0 * e.plan->mfu, 1)) +
                             QStringLiteral(" %");
            cells[Factor] = factorText(ratio(e.throughput, baseThroughput));
            if (e.stepFrom >= 0)
                cells[Step] =
                    factorText(ratio(e.throughput, entries[std::size_t(e.stepFrom)].available
                                                       ? entries[std::size_t(e.stepFrom)].throughput
                                                       : 0.0));
            cells[TensorCores] = tensorCoresText(e.chip);
            cells[VectorCores] = vectorCoresText(e.chip);
            cells[GlobalBuffer] = bytes(e.chip.globalBufferBytes);
            cells[Hbm] = bytes(e.chip.hbmCapacityBytes);
            cells[Area] = e.area >= 0 ? areaText(e.area) : dash;
            cells[Microbatch] =
                e.microbatch == 1 ? tr("1 sample") : tr("%1 samples").arg(e.microbatch);
            cells[Recompute] = recomputeText(e.recompute);
            cells[Plan] = e.plan ? planShapeText(*e.plan) : tr("not kept by the search");
            if (!e.changed.isEmpty()) cells[Changed] = e.changed;
            cells[Note] = e.areaError.isEmpty() ? QString() : e.areaError;
        } else {
            cells[Throughput] = tr("not available");
            cells[Changed] = e.changed.isEmpty() ? dash : e.changed;
            cells[Note] = e.message.isEmpty() ? tr("Nothing fits.") : e.message;
        }
        for (int r = 0; r < RowCount; ++r) {
            auto* item = new QTableWidgetItem(cells[r]);
            item->setTextAlignment(Qt::AlignCenter);
            item->setToolTip(r == Note || !e.available ? cells[Note] : cells[r]);
            if (!e.available) item->setForeground(QColor(130, 130, 130));
            if (r == Throughput || r == Factor || r == Step) {
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
        if (e.available &&
            (fastest < 0 || e.throughput >= entries[std::size_t(fastest)].throughput))
            fastest = c;
        anyNote |= !table_->item(Note, c)->text().isEmpty() &&
                   table_->item(Note, c)->text() != QString::fromUtf8("—");
    }
    if (fastest >= 0)
        for (int r : {int(Throughput), int(Factor), int(Step)})
            table_->item(r, fastest)->setBackground(QColor(222, 242, 214));
    table_->setRowHidden(Note, !anyNote);
    bool anyMfu = false;
    for (const Entry& e : entries) anyMfu |= e.available && e.plan && e.plan->mfu > 0;
    table_->setRowHidden(Mfu, !anyMfu);
    bool anyStep = false;
    for (const Entry& e : entries) anyStep |= e.stepFrom >= 0;
    table_->setRowHidden(Changed, !anyStep);
    table_->setRowHidden(Step, !anyStep);
    table_->resizeRowsToContents();
    table_->setCurrentItem(nullptr);
    // Exactly as tall as its rows, so no empty band sits between the table and the stretch.
    int height = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth();
    for (int r = 0; r < RowCount; ++r)
        if (!table_->isRowHidden(r)) height += table_->rowHeight(r);
    table_->setFixedHeight(height);
    std::vector<BreakdownChart::Row> rows;
    for (const Entry& e : entries)
        rows.push_back({QString(e.title).replace(QLatin1Char('\n'), QLatin1Char(' ')),
                        e.available ? e.plan : nullptr,
                        e.available ? tr("plan not kept by the search") : tr("nothing fits")});
    breakdown_->setRows(rows);
    breakdown_->setFixedHeight(90 + 26 * int(rows.size()));
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
