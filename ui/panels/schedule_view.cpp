#include "ui/panels/schedule_view.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSaveFile>
#include <QVBoxLayout>
#include <map>

#include "core/common/units.h"
#include "core/io/schedule_json.h"
#include "core/schedule/gantt_layout.h"
#include "ui/charts/gantt_chart.h"
#include "ui/widgets/flow_layout.h"

namespace tandem::ui {

namespace sch = core::schedule;

namespace {
QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QLabel* valueLabel(QWidget* parent, const QString& tooltip) {
    auto* label = new QLabel(QStringLiteral("—"), parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setToolTip(tooltip);
    return label;
}
}  // namespace

ScheduleView::ScheduleView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);

    // Controls and facts wrap onto more lines in a narrow window (FlowLayout); a label and
    // what it names wrap together.
    auto* controls = new FlowLayout;
    const auto together = [this](QWidget* first, QWidget* second) {
        auto* pair = new QWidget(this);
        auto* row = new QHBoxLayout(pair);
        row->setContentsMargins(0, 0, 0, 0);
        row->addWidget(first);
        row->addWidget(second);
        return pair;
    };
    auto* layerLabel = new QLabel(tr("&Layer:"), this);
    layer_ = new QComboBox(this);
    // Long layer names do not widen the window: the list shows them whole.
    layer_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    layer_->setMinimumContentsLength(14);
    layer_->setToolTip(
        tr("Identical layers share one schedule; each distinct layer is listed "
           "once with how many times it occurs"));
    layerLabel->setBuddy(layer_);
    controls->addWidget(together(layerLabel, layer_));
    forward_ = new QRadioButton(tr("&Forward"), this);
    backward_ = new QRadioButton(tr("&Backward"), this);
    forward_->setToolTip(tr("The forward pass of one microbatch through this layer"));
    backward_->setToolTip(tr("The backward pass: input and weight gradients of every GEMM"));
    auto* group = new QButtonGroup(this);
    group->addButton(forward_);
    group->addButton(backward_);
    forward_->setChecked(true);
    controls->addSpacing(12);
    controls->addWidget(together(forward_, backward_));
    widthLabel_ = new QLabel(tr("&Tensor parallel:"), this);
    width_ = new QComboBox(this);
    width_->setToolTip(
        tr("Tensor-parallel width t: each layer is split over t devices, so "
           "every operator is 1/t of the work plus all-reduces on the link"));
    widthLabel_->setBuddy(width_);
    controls->addSpacing(12);
    controls->addWidget(together(widthLabel_, width_));
    controls->addSpacing(12);
    resetZoom_ = new QPushButton(tr("&Reset zoom"), this);
    resetZoom_->setToolTip(
        tr("Show the whole makespan (Home, or double-click the chart). "
           "Wheel zooms the time axis, drag pans it."));
    exportImage_ = new QPushButton(tr("Export &image…"), this);
    exportImage_->setToolTip(tr("Save the chart as PNG, PDF or SVG"));
    exportTrace_ = new QPushButton(tr("Export &trace…"), this);
    exportTrace_->setToolTip(
        tr("Save a Chrome trace of this layer (open it in Perfetto or "
           "chrome://tracing), the same format as tandem-cli --trace"));
    controls->addWidget(resetZoom_);
    controls->addWidget(exportImage_);
    controls->addWidget(exportTrace_);
    layout->addLayout(controls);

    auto* facts = new FlowLayout;
    auto addFact = [&](const QString& name, QLabel* value) {
        auto* fact = new QWidget(this);  // name and value wrap together
        auto* pair = new QHBoxLayout(fact);
        pair->setContentsMargins(0, 0, 12, 0);
        auto* label = new QLabel(name, fact);
        label->setToolTip(value->toolTip());
        pair->addWidget(label);
        pair->addWidget(value);
        facts->addWidget(fact);
    };
    makespan_ = valueLabel(this, tr("Time from the first operator's start to the last one's end"));
    bound_ = valueLabel(this, tr("The best proven lower bound on the makespan: no schedule of "
                                 "this layer on this chip can be faster"));
    status_ = valueLabel(this, tr("Optimal: the makespan equals the bound. Otherwise the solver "
                                  "stopped early and the gap says how far it may be from optimal"));
    chip_ = valueLabel(this, tr("Operators drawn and the chip's cores"));
    addFact(tr("Makespan:"), makespan_);
    addFact(tr("Lower bound:"), bound_);
    addFact(tr("Status:"), status_);
    addFact(tr("Operators:"), chip_);
    layout->addLayout(facts);

    error_ = new QLabel(this);
    error_->setWordWrap(true);
    error_->setStyleSheet("QLabel { color: #b00020; font-weight: bold; }");
    error_->hide();
    layout->addWidget(error_);

    chart_ = new GanttChart(this);
    layout->addWidget(chart_, 1);

    connect(layer_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(forward_, &QRadioButton::toggled, this, [this] { refresh(); });
    connect(width_, &QComboBox::currentIndexChanged, this, [this] {
        if (updating_) return;
        fillLayerChooser();
        refresh();
    });
    connect(resetZoom_, &QPushButton::clicked, chart_, &GanttChart::resetView);
    connect(exportTrace_, &QPushButton::clicked, this, [this] { exportTraceInteractively(); });
    connect(exportImage_, &QPushButton::clicked, this, [this] { exportImageInteractively(); });
    clear(tr("No schedule yet: evaluate a design point to see its layer schedules."));
}

void ScheduleView::clear(const QString& reason) {
    placement_.reset();
    updating_ = true;
    width_->clear();
    layer_->clear();
    updating_ = false;
    widthLabel_->hide();
    width_->hide();
    for (auto* label : {makespan_, bound_, status_, chip_}) label->setText(QStringLiteral("—"));
    status_->setStyleSheet({});
    chart_->setLayout(nullptr);
    exportTrace_->setEnabled(false);
    lastError_.clear();
    error_->setVisible(!reason.isEmpty());
    error_->setStyleSheet("QLabel { color: palette(mid); }");
    error_->setText(reason);
}

void ScheduleView::setPlacement(std::shared_ptr<const core::placement::ModelPlacement> placement,
                                int widthIndex) {
    if (!placement || placement->widths.empty()) {
        clear(tr("No schedule: the placement has no scheduled widths."));
        return;
    }
    const int previousLayer = uniqueLayer();
    placement_ = std::move(placement);
    if (widthIndex < 0 || widthIndex >= int(placement_->widths.size())) {
        widthIndex = int(placement_->widths.size()) - 1;
        if (const auto& plan = placement_->result.plan) {
            for (std::size_t i = 0; i < placement_->widths.size(); ++i)
                if (placement_->widths[i].graph->options().tensorParallel == plan->tensorParallel)
                    widthIndex = int(i);
        }
    }
    updating_ = true;
    width_->clear();
    for (const auto& w : placement_->widths) {
        const auto t = w.graph->options().tensorParallel;
        const bool planned =
            placement_->result.plan && placement_->result.plan->tensorParallel == t;
        width_->addItem(planned ? tr("t = %1 (the plan's)").arg(t) : tr("t = %1").arg(t));
    }
    width_->setCurrentIndex(widthIndex);
    updating_ = false;
    const bool several = placement_->widths.size() > 1;
    widthLabel_->setVisible(several);
    width_->setVisible(several);
    fillLayerChooser();
    if (previousLayer >= 0 && previousLayer < layer_->count()) setUniqueLayer(previousLayer);
    refresh();
}

const core::placement::WidthInput* ScheduleView::width() const {
    if (!placement_) return nullptr;
    const int i = width_->currentIndex();
    if (i < 0 || i >= int(placement_->widths.size())) return nullptr;
    return &placement_->widths[std::size_t(i)];
}

void ScheduleView::fillLayerChooser() {
    const int previous = layer_->currentIndex();
    updating_ = true;
    layer_->clear();
    if (const auto* w = width()) {
        const auto& graph = *w->graph;
        std::map<int, std::vector<std::size_t>> users;
        for (std::size_t l = 0; l < graph.layers().size(); ++l)
            users[graph.uniqueIndexOfLayer()[l]].push_back(l);
        for (std::size_t u = 0; u < graph.uniqueGraphs().size(); ++u) {
            const auto& list = users[int(u)];
            const QString kind = qs(graph.uniqueGraphs()[u]->kind());
            const QString first = list.empty() ? kind : qs(graph.layers()[list.front()].name);
            QString text;
            if (list.size() > 1) {
                text = tr("%1 ×%2 (%3 … %4)")
                           .arg(kind)
                           .arg(list.size())
                           .arg(first, qs(graph.layers()[list.back()].name));
            } else {
                text = first == kind ? first : tr("%1 (%2)").arg(first, kind);
            }
            layer_->addItem(text, int(u));
            layer_->setItemData(layer_->count() - 1,
                                tr("%1 operators forward, %2 backward")
                                    .arg(graph.uniqueGraphs()[u]->forward().size())
                                    .arg(graph.uniqueGraphs()[u]->backward().size()),
                                Qt::ToolTipRole);
        }
    }
    // Default to the most repeated layer (the transformer block), which dominates the time.
    int pick = previous;
    if (pick < 0 || pick >= layer_->count()) {
        pick = 0;
        if (const auto* w = width()) {
            std::vector<int> counts(w->graph->uniqueGraphs().size(), 0);
            for (int u : w->graph->uniqueIndexOfLayer()) ++counts[std::size_t(u)];
            pick = int(std::max_element(counts.begin(), counts.end()) - counts.begin());
        }
    }
    layer_->setCurrentIndex(std::min(pick, layer_->count() - 1));
    updating_ = false;
}

void ScheduleView::setWidthIndex(int index) {
    width_->setCurrentIndex(index);
}
void ScheduleView::setUniqueLayer(int index) {
    layer_->setCurrentIndex(index);
}
void ScheduleView::setDirection(sch::Direction direction) {
    (direction == sch::Direction::Forward ? forward_ : backward_)->setChecked(true);
}
int ScheduleView::widthIndex() const {
    return width_->currentIndex();
}
int ScheduleView::uniqueLayer() const {
    return layer_->currentIndex();
}
int ScheduleView::layerChoices() const {
    return layer_->count();
}
sch::Direction ScheduleView::direction() const {
    return forward_->isChecked() ? sch::Direction::Forward : sch::Direction::Backward;
}

std::size_t ScheduleView::representativeLayer() const {
    const auto* w = width();
    const auto& index = w->graph->uniqueIndexOfLayer();
    for (std::size_t l = 0; l < index.size(); ++l)
        if (index[l] == uniqueLayer()) return l;
    return 0;
}

void ScheduleView::showError(const QString& message) {
    lastError_ = message;
    error_->setStyleSheet("QLabel { color: #b00020; font-weight: bold; }");
    error_->setText(message);
    error_->setVisible(!message.isEmpty());
}

void ScheduleView::refresh() {
    if (updating_) return;
    const auto* w = width();
    const int u = uniqueLayer();
    if (!w || u < 0 || std::size_t(u) >= w->schedules->unique.size()) return;
    const auto& entry = w->schedules->unique[std::size_t(u)];
    const bool fwd = direction() == sch::Direction::Forward;
    const auto& schedule = fwd ? *entry.forward : *entry.backward;
    auto layout = sch::GanttLayout::build(*entry.graph, direction(), schedule);
    if (!layout) {
        chart_->setLayout(nullptr);
        exportTrace_->setEnabled(false);
        showError(tr("Cannot draw this schedule: %1").arg(qs(layout.message())));
        return;
    }
    showError({});
    auto shared = std::make_shared<const sch::GanttLayout>(std::move(layout).value());
    makespan_->setText(qs(core::formatSeconds(schedule.makespanSeconds)));
    bound_->setText(qs(core::formatSeconds(schedule.lowerBoundSeconds)));
    if (schedule.status == sch::ScheduleStatus::Optimal) {
        status_->setText(tr("optimal (proved by %1)")
                             .arg(qs(std::string(sch::toString(schedule.stats.provedBy)))));
        status_->setStyleSheet("QLabel { color: #1b7a3a; font-weight: bold; }");
    } else {
        status_->setText(tr("%1 — gap %2 %")
                             .arg(qs(std::string(sch::toString(schedule.status))))
                             .arg(qs(core::formatFixed(100 * schedule.gap, 2))));
        status_->setStyleSheet("QLabel { color: #a05a00; font-weight: bold; }");
    }
    chip_->setText(tr("%1 on %2 TC · %3 VC · 1 link")
                       .arg(shared->operatorCount())
                       .arg(shared->numTensorCores())
                       .arg(shared->numVectorCores()));
    const auto t = w->graph->options().tensorParallel;
    chart_->setLayout(shared, tr("%1 — %2, t = %3")
                                  .arg(layer_->currentText(), fwd ? tr("forward") : tr("backward"))
                                  .arg(t));
    exportTrace_->setEnabled(true);
}

QString ScheduleView::exportTrace(const QString& path, bool allLayers) const {
    const auto* w = width();
    if (!w) return tr("Cannot export a trace to %1: no schedule is shown.").arg(path);
    std::vector<std::size_t> layers;
    if (!allLayers) layers.push_back(representativeLayer());
    const std::string trace = core::io::chromeTrace(*w->graph, *w->schedules, layers);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("Cannot write %1: %2").arg(path, file.errorString());
    if (file.write(trace.data(), qint64(trace.size())) != qint64(trace.size())) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return tr("Cannot write %1: %2").arg(path, reason);
    }
    if (!file.commit()) return tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

void ScheduleView::exportTraceInteractively() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Chrome trace"),
                                                      QStringLiteral("schedule-trace.json"),
                                                      tr("Chrome trace (*.json)"));
    if (path.isEmpty()) return;
    const QString error = exportTrace(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export trace"), error);
        return;
    }
    emit traceExported(path);
}

void ScheduleView::exportImageInteractively() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export chart"), QStringLiteral("schedule.png"), ChartWidget::exportFilter());
    if (path.isEmpty()) return;
    const QString error = chart_->exportTo(path);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Export chart"), error);
}

}  // namespace tandem::ui
