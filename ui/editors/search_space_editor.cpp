#include "ui/editors/search_space_editor.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "core/common/units.h"
#include "core/hardware/parameter_registry.h"
#include "ui/editors/field_frame.h"
#include "ui/editors/quantity_spin_box.h"
#include "ui/editors/search_run_options.h"
#include "ui/editors/search_space_fields.h"
#include "ui/editors/value_list_edit.h"
#include "ui/jobs/search_space_counter.h"

namespace tandem::ui {

namespace {

using core::hardware::ParameterSpec;
using core::search::SearchSpace;

QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

const ParameterSpec& trainingSpec(std::string_view key) {
    return core::hardware::trainingParameters().find(key)->spec;
}

QFormLayout* formIn(QGroupBox* box) {
    auto* form = new QFormLayout(box);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    return form;
}

}  // namespace

SearchSpaceEditor::SearchSpaceEditor(QWidget* parent)
    : QWidget(parent),
      space_(SearchSpace::phaze()),
      counter_(new SearchSpaceCounter(this)),
      messages_(searchSpaceMessages()) {
    connect(counter_, &SearchSpaceCounter::counted, this, &SearchSpaceEditor::showCounts);
    setStyleSheet("QLabel#searchProblem { color: #b00020; }");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    // The count heads the section, where it is seen without scrolling, whatever list is edited.
    countLabel_ = new QLabel(this);
    countLabel_->setObjectName("searchCount");
    countLabel_->setWordWrap(true);
    countLabel_->setToolTip(
        tr("Chips in the area window and search points (chip × microbatch "
           "size × recompute × HBM size); tensor-parallel widths are chosen "
           "inside each point's placement and do not add points"));
    problemLabel_ = new QLabel(this);
    problemLabel_->setObjectName("searchProblem");
    problemLabel_->setWordWrap(true);
    problemLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problemLabel_->hide();
    auto* reset = new QPushButton(tr("PHAZE space"), this);
    reset->setToolTip(
        tr("Reset every list to PHAZE's design space (29,360 chips on the "
           "reference budget); the base hardware is kept"));
    connect(reset, &QPushButton::clicked, this, &SearchSpaceEditor::resetToPhaze);
    auto* top = new QHBoxLayout;
    top->addWidget(countLabel_, 1);
    top->addWidget(reset, 0, Qt::AlignTop);
    layout->addLayout(top);

    layout->addWidget(buildLists());
    layout->addWidget(buildWindow());
    layout->addWidget(buildOptions());
    run_ = new SearchRunOptions(this);
    connect(run_, &SearchRunOptions::changed, this, &SearchSpaceEditor::valuesChanged);
    layout->addWidget(run_);
    layout->addWidget(problemLabel_);

    showSpace(space_);
    check(false);
}

QWidget* SearchSpaceEditor::buildLists() {
    auto* box = new QGroupBox(tr("Searched accelerator fields"), this);
    auto* form = formIn(box);
    for (const core::search::SearchedField& f : core::search::kSearchedFields) {
        if (f.values == &SearchSpace::vectorCoreLanes) {
            tiedLanes_ = new QCheckBox(tr("Vector lanes = tensor-core columns"), box);
            tiedLanes_->setToolTip(
                tr("PHAZE ties each vector core's width to the tensor-core width, so "
                   "a vector core drains one output row per cycle; untick to search "
                   "the lanes on their own list"));
            form->addRow(tiedLanes_);
        }
        auto* edit = new ValueListEdit(searchListSpec(f.key), "accelerator", f.optional, box);
        form->addRow(text(searchListSpec(f.key).label) + ":", edit);
        lists_.push_back(edit);
        fieldLists_.push_back(edit);
    }
    showBaseValues();
    connect(tiedLanes_, &QCheckBox::toggled, this, [this](bool tied) {
        ValueListEdit* lanes = fieldList(&SearchSpace::vectorCoreLanes);
        lanes->setEnabled(!tied);
        if (!tied && lanes->values().empty())
            lanes->setValues(fieldList(&SearchSpace::tensorCoreCols)->values());
        edited();
    });
    return box;
}

ValueListEdit* SearchSpaceEditor::fieldList(std::vector<std::int64_t> SearchSpace::*values) const {
    for (std::size_t i = 0; i < fieldLists_.size(); ++i)
        if (core::search::kSearchedFields[i].values == values) return fieldLists_[i];
    return nullptr;
}

void SearchSpaceEditor::showBaseValues() {
    for (std::size_t i = 0; i < fieldLists_.size(); ++i) {
        const core::search::SearchedField& f = core::search::kSearchedFields[i];
        if (!f.optional) continue;
        const auto* field = &core::search::parameterOf(f);
        fieldLists_[i]->setPlaceholderText(tr("the base's %1")
                                               .arg(fieldLists_[i]->formatValue(std::int64_t(
                                                   field->get(space_.base.accelerator)))));
    }
}

QWidget* SearchSpaceEditor::buildWindow() {
    auto* box = new QGroupBox(tr("Area window"), this);
    auto* form = formIn(box);
    budget_ = new QuantitySpinBox(box);
    budget_->setObjectName("areaBudgetSquareMillimetres");
    budget_->setDecimals(2);
    budget_->setRange(0, 1e6);
    budget_->setSuffix(" mm²");
    budget_->setKeyboardTracking(false);
    budget_->setToolTip(tr("Largest chip area searched; the default is the TPUv4-like reference "
                           "chip, %1 mm²")
                            .arg(core::hardware::AreaModel::kReferenceAreaSquareMillimetres));
    form->addRow(tr("Budget:"), new FieldFrame(budget_, box));
    minFraction_ = new QuantitySpinBox(box);
    minFraction_->setObjectName("minAreaFraction");
    minFraction_->setDecimals(1);
    minFraction_->setRange(0, 100);
    minFraction_->setSingleStep(5);
    minFraction_->setSuffix(" % of budget");
    minFraction_->setKeyboardTracking(false);
    minFraction_->setToolTip(
        tr("Smallest chip area searched, as a share of the budget (PHAZE: "
           "30 %); waived for chips with one tensor or one vector core"));
    form->addRow(tr("Minimum area:"), new FieldFrame(minFraction_, box));
    extrapolate_ = new QCheckBox(tr("Extrapolate beyond the area tables"), box);
    extrapolate_->setToolTip(
        tr("Sizes outside PHAZE's 22 nm area tables are errors unless the "
           "power law of the two nearest table points may be extended"));
    form->addRow(extrapolate_);
    for (auto* spin : {budget_, minFraction_})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &SearchSpaceEditor::edited);
    connect(extrapolate_, &QCheckBox::toggled, this, &SearchSpaceEditor::edited);
    return box;
}

QWidget* SearchSpaceEditor::buildOptions() {
    auto* box = new QGroupBox(tr("Per-chip options"), this);
    auto* form = formIn(box);
    const auto add = [&](std::string_view key, bool allowEmpty) {
        auto* edit = new ValueListEdit(searchListSpec(key), "", allowEmpty, box);
        form->addRow(text(searchListSpec(key).label) + ":", edit);
        lists_.push_back(edit);
        return edit;
    };
    hbm_ = add("hbmCapacityBytes", false);
    microbatch_ = add("microbatchSizes", false);
    widths_ = add("tensorParallelWidths", true);
    auto* recomputeRow = new QHBoxLayout;
    const ParameterSpec& recompute = trainingSpec("recompute");
    for (std::string_view name : recompute.choices) {
        auto* check = new QCheckBox(text(name), box);
        check->setToolTip(text(recompute.description));
        recomputeRow->addWidget(check);
        recompute_.push_back(check);
        connect(check, &QCheckBox::toggled, this, &SearchSpaceEditor::edited);
    }
    recomputeRow->addStretch();
    form->addRow(tr("Recompute:"), recomputeRow);
    for (ValueListEdit* edit : lists_)
        connect(edit, &ValueListEdit::listEdited, this, &SearchSpaceEditor::edited);
    return box;
}

void SearchSpaceEditor::showSpace(const SearchSpace& space) {
    showing_ = true;
    for (std::size_t i = 0; i < fieldLists_.size(); ++i)
        fieldLists_[i]->setValues(space.*core::search::kSearchedFields[i].values);
    const bool tied = space.vectorLanes == core::search::VectorLanesRule::TiedToTensorCoreCols;
    tiedLanes_->setChecked(tied);
    fieldList(&SearchSpace::vectorCoreLanes)->setEnabled(!tied);
    budgetShown_ = space.areaBudgetSquareMillimetres;
    budget_->setValue(space.areaBudgetSquareMillimetres);
    fractionShown_ = space.minAreaFraction;
    minFraction_->setValue(space.minAreaFraction * 100);
    extrapolate_->setChecked(space.allowAreaExtrapolation);
    hbm_->setValues(space.hbmCapacityBytes);
    microbatch_->setValues(space.microbatchSizes);
    widths_->setValues(space.tensorParallelWidths);
    for (std::size_t i = 0; i < recompute_.size(); ++i) {
        bool listed = false;
        for (auto r : space.recompute) listed = listed || std::size_t(r) == i;
        recompute_[i]->setChecked(listed);
    }
    showing_ = false;
}

SearchSpace SearchSpaceEditor::fromWidgets() const {
    SearchSpace s = space_;  // name and base
    for (std::size_t i = 0; i < fieldLists_.size(); ++i)
        s.*core::search::kSearchedFields[i].values = fieldLists_[i]->values();
    const bool tied = tiedLanes_->isChecked();
    s.vectorLanes = tied ? core::search::VectorLanesRule::TiedToTensorCoreCols
                         : core::search::VectorLanesRule::Free;
    if (tied) s.vectorCoreLanes.clear();
    // Spin boxes round to their decimals; keep the exact value unless the user changed it.
    s.areaBudgetSquareMillimetres =
        std::abs(budgetShown_ - budget_->value()) > 0.005 ? budget_->value() : budgetShown_;
    s.minAreaFraction = std::abs(fractionShown_ * 100 - minFraction_->value()) > 0.05
                            ? minFraction_->value() / 100
                            : fractionShown_;
    s.allowAreaExtrapolation = extrapolate_->isChecked();
    s.hbmCapacityBytes = hbm_->values();
    s.microbatchSizes = microbatch_->values();
    s.tensorParallelWidths = widths_->values();
    s.recompute.clear();
    for (std::size_t i = 0; i < recompute_.size(); ++i)
        if (recompute_[i]->isChecked()) s.recompute.push_back(core::hardware::Recompute(int(i)));
    // Name the space after what it is: PHAZE's until a list differs from it.
    SearchSpace phaze = SearchSpace::phaze();
    phaze.base = s.base;
    phaze.name = s.name;
    if (s == phaze)
        s.name = "phaze";
    else if (s.name == "phaze")
        s.name = "custom";
    return s;
}

void SearchSpaceEditor::edited() {
    if (!showing_) check(true);
}

void SearchSpaceEditor::check(bool emitChange) {
    QString problem;
    for (ValueListEdit* edit : lists_)
        if (edit->isEnabled() && !edit->parses()) {
            problem = edit->problem();
            break;
        }
    SearchSpace candidate = problem.isEmpty() ? fromWidgets() : space_;
    if (problem.isEmpty()) {
        const core::Status status = candidate.validate();
        if (!status.ok()) problem = QString::fromStdString(status.message());
    }
    markProblem(problem);
    if (!problem.isEmpty()) {
        counter_->cancel();  // a count still running is for a space no longer shown
        countLabel_->setText(tr("Chips and points: —"));
        emit countsUpdated();
        return;
    }
    const bool changed = !(candidate == space_);
    const bool budgetChanged =
        candidate.areaBudgetSquareMillimetres != space_.areaBudgetSquareMillimetres;
    space_ = std::move(candidate);
    if (changed || (counter_->counts().chips < 0 && !counter_->isCounting())) {
        counter_->count(space_);
        countLabel_->setText(countText());
    }
    if (budgetChanged) emit areaBudgetChanged(space_.areaBudgetSquareMillimetres);
    if (changed && emitChange) emit valuesChanged();
}

void SearchSpaceEditor::markProblem(const QString& message) {
    const QString shown = inFormWords(message);
    problem_ = shown;
    problemLabel_->setText(shown);
    problemLabel_->setVisible(!shown.isEmpty());
    // Mark the field the message names first; a problem of the base hardware marks none.
    const QStringList named =
        message.contains("base: ") ? QStringList() : messages_.keysNamedIn(message);
    const QString first = named.value(0);
    for (ValueListEdit* edit : lists_)
        if (edit->parses()) edit->setProblem(edit->objectName() == first ? shown : QString());
    for (QDoubleSpinBox* spin : {budget_, minFraction_})
        static_cast<FieldFrame*>(spin->parentWidget())->setInvalid(spin->objectName() == first);
}

QString SearchSpaceEditor::inFormWords(const QString& message) const {
    // "search space: " goes without saying in this section.
    QString shown = messages_.humanize(message);
    if (shown.startsWith(QStringLiteral("search space: "))) shown.remove(0, 14);
    return shown;
}

void SearchSpaceEditor::showCounts() {
    const SearchSpaceCounter::Counts& counts = counter_->counts();
    if (!counts.error.isEmpty()) {
        problem_ = inFormWords(counts.error);
        problemLabel_->setText(problem_);
        problemLabel_->show();
    }
    countLabel_->setText(countText());
    emit countsUpdated();
}

QString SearchSpaceEditor::countText() const {
    const std::int64_t chips = chipCount();
    const std::int64_t points = pointCount();
    if (counter_->isCounting()) return tr("Counting chips…");
    if (chips < 0) return tr("Chips and points: —");
    const auto count = [](double n) { return QString::fromStdString(core::formatCount(n)); };
    return tr("<b>%1 chips</b> in the area window → <b>%2 points</b> (× %3 microbatch sizes × "
              "%4 recompute × %5 HBM sizes)")
        .arg(count(double(chips)), count(double(points)),
             QString::number(space_.microbatchSizes.size()),
             QString::number(space_.recompute.size()),
             QString::number(space_.hbmCapacityBytes.size()));
}

void SearchSpaceEditor::setSpace(const SearchSpace& space) {
    showSpace(space);
    space_.name = space.name;
    space_.base = space.base;
    showBaseValues();
    check(false);
}

void SearchSpaceEditor::setBase(const core::hardware::HardwarePoint& base) {
    space_.base = base;
    showBaseValues();
    check(false);
}

void SearchSpaceEditor::resetToPhaze() {
    SearchSpace phaze = SearchSpace::phaze();
    phaze.base = space_.base;
    showSpace(phaze);
    space_.name = phaze.name;
    check(true);
}

core::search::ExplorerKind SearchSpaceEditor::explorer() const {
    return run_->explorer();
}
void SearchSpaceEditor::setExplorer(core::search::ExplorerKind kind) {
    run_->setExplorer(kind);
}
core::search::SearchObjective SearchSpaceEditor::objective() const {
    return run_->objective();
}
void SearchSpaceEditor::setObjective(core::search::SearchObjective objective) {
    run_->setObjective(objective);
}
int SearchSpaceEditor::threads() const {
    return run_->threads();
}
void SearchSpaceEditor::setThreads(int threads) {
    run_->setThreads(threads);
}

bool SearchSpaceEditor::isValid() const {
    return problem_.isEmpty();
}

std::int64_t SearchSpaceEditor::chipCount() const {
    return counter_->counts().chips;
}
std::int64_t SearchSpaceEditor::pointCount() const {
    return counter_->counts().points;
}
bool SearchSpaceEditor::isCounting() const {
    return counter_->isCounting();
}
double SearchSpaceEditor::lastCountSeconds() const {
    return counter_->counts().seconds;
}

ValueListEdit* SearchSpaceEditor::listEdit(const QString& key) const {
    for (ValueListEdit* edit : lists_)
        if (edit->objectName() == key) return edit;
    return nullptr;
}

}  // namespace tandem::ui
