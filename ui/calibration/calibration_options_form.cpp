#include "ui/calibration/calibration_options_form.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <limits>

#include "core/calibration/calibration_parameter.h"
#include "core/calibration/fold_assignment.h"
#include "core/hardware/preset_library.h"
#include "core/validation/measured_run_set.h"

namespace tandem::ui {

namespace cal = core::calibration;

namespace {

QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

constexpr int kKeyRole = Qt::UserRole;  // parameter list: the full key; chooser: set or preset

}  // namespace

CalibrationOptionsForm::CalibrationOptionsForm(const core::hardware::HardwarePoint& projectHardware,
                                               QWidget* parent)
    : QWidget(parent), project_(projectHardware) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form);

    source_ = new QComboBox(this);
    source_->setObjectName("calibrationSource");
    source_->addItem(tr("CSV file"), QString());
    source_->setItemData(0,
                         tr("Your own measured runs: one run per line, columns by header name "
                            "(see the README's measured-runs CSV)"),
                         Qt::ToolTipRole);
    for (const std::string& name : core::validation::bundledRunSetNames()) {
        source_->addItem(tr("Bundled set: %1").arg(text(name)), text(name));
        source_->setItemData(source_->count() - 1,
                             tr("The measured runs bundled with Tandem as "
                                "resources/validation/%1.json (tandem-cli calibrate --set %1)")
                                 .arg(text(name)),
                             Qt::ToolTipRole);
    }
    form->addRow(tr("Measured runs:"), source_);

    file_ = new QLineEdit(this);
    file_->setObjectName("calibrationRunsFile");
    file_->setPlaceholderText(tr("runs.csv"));
    file_->setToolTip(tr("A CSV file of measured runs, as tandem-cli calibrate --runs reads it"));
    browse_ = new QPushButton(tr("Browse…"), this);
    browse_->setToolTip(tr("Choose the CSV file of measured runs"));
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(file_, 1);
    fileRow->addWidget(browse_);
    form->addRow(tr("CSV file:"), fileRow);

    hardware_ = new QComboBox(this);
    hardware_->setObjectName("calibrationStart");
    hardware_->setToolTip(
        tr("The hardware description the fit starts from; parameters not "
           "fitted keep its values"));
    hardware_->addItem(QString(), QString());  // the project's, named by setProjectHardware
    for (const auto& preset : core::hardware::PresetLibrary::list()) {
        hardware_->addItem(tr("Preset: %1").arg(text(preset.name)), text(preset.name));
        hardware_->setItemData(hardware_->count() - 1, text(preset.description), Qt::ToolTipRole);
    }
    form->addRow(tr("Starting hardware:"), hardware_);

    folds_ = new QSpinBox(this);
    folds_->setObjectName("calibrationFolds");
    folds_->setRange(0, cal::kMaxFolds);
    folds_->setValue(5);
    folds_->setSpecialValueText(tr("none"));
    folds_->setToolTip(tr("k-fold cross-validation: each fold of the runs is predicted by a fit "
                          "of the others (0: none, else 2 to %1)")
                           .arg(cal::kMaxFolds));
    form->addRow(tr("Cross-validation folds:"), folds_);
    seed_ = new QSpinBox(this);
    seed_->setObjectName("calibrationSeed");
    seed_->setRange(0, std::numeric_limits<int>::max());
    seed_->setValue(1);
    seed_->setToolTip(tr("Seed of the random split of the runs into folds"));
    form->addRow(tr("Seed:"), seed_);
    evaluations_ = new QSpinBox(this);
    evaluations_->setObjectName("calibrationEvaluations");
    evaluations_->setRange(1, cal::kMaxCalibrationEvaluations);
    evaluations_->setValue(cal::CalibrationOptions{}.maxEvaluations);
    evaluations_->setToolTip(
        tr("At most this many predictions of all the runs per fit (the "
           "main fit, each fold and a refit)"));
    form->addRow(tr("Evaluations per fit:"), evaluations_);

    layout->addWidget(new QLabel(tr("Parameters to fit:"), this));
    parameters_ = new QListWidget(this);
    parameters_->setObjectName("calibrationParameters");
    for (const cal::CalibrationParameter& p : cal::availableCalibrationParameters()) {
        const auto* spec = cal::registrySpec(p);
        auto* item = new QListWidgetItem(spec ? text(spec->label) : text(p.key), parameters_);
        item->setData(kKeyRole, text(p.key));
        item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
        item->setCheckState(Qt::Checked);
        item->setToolTip(
            tr("%1\nPhysical bounds: %2 to %3\n%4")
                .arg(text(p.key), QString::fromStdString(cal::formatParameterValue(p, p.lower)),
                     QString::fromStdString(cal::formatParameterValue(p, p.upper)), text(p.why)));
    }
    layout->addWidget(parameters_, 1);

    setProjectHardware(projectHardware);
    connect(source_, &QComboBox::currentIndexChanged, this, &CalibrationOptionsForm::sourceChosen);
    connect(browse_, &QPushButton::clicked, this, &CalibrationOptionsForm::browse);
    connect(file_, &QLineEdit::textChanged, this, &CalibrationOptionsForm::changed);
    connect(hardware_, &QComboBox::currentIndexChanged, this, &CalibrationOptionsForm::changed);
    connect(parameters_, &QListWidget::itemChanged, this, &CalibrationOptionsForm::changed);
    for (QSpinBox* box : {folds_, seed_, evaluations_})
        connect(box, &QSpinBox::valueChanged, this, &CalibrationOptionsForm::changed);
    sourceChosen();
}

void CalibrationOptionsForm::setProjectHardware(const core::hardware::HardwarePoint& point) {
    project_ = point;
    hardware_->setItemText(0, tr("Project: %1").arg(QString::fromStdString(point.name)));
    hardware_->setItemData(
        0, tr("The project's current hardware: %1").arg(QString::fromStdString(point.description)),
        Qt::ToolTipRole);
}

void CalibrationOptionsForm::setRunsFile(const QString& path) {
    source_->setCurrentIndex(0);
    file_->setText(path);
}

bool CalibrationOptionsForm::selectBundledSet(const QString& name) {
    const int index = name.isEmpty() ? -1 : source_->findData(name);
    if (index < 0) return false;
    source_->setCurrentIndex(index);
    return true;
}

bool CalibrationOptionsForm::selectStartPreset(const QString& name) {
    const int index = hardware_->findData(name);
    if (index < 0) return false;
    hardware_->setCurrentIndex(index);
    return true;
}

void CalibrationOptionsForm::setParameters(const QStringList& keys) {
    for (int i = 0; i < parameters_->count(); ++i) {
        QListWidgetItem* item = parameters_->item(i);
        const QString key = item->data(kKeyRole).toString();
        const bool on = keys.contains(key) || keys.contains(key.section('.', 1));
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
}

QStringList CalibrationOptionsForm::checkedParameters() const {
    QStringList keys;
    for (int i = 0; i < parameters_->count(); ++i)
        if (parameters_->item(i)->checkState() == Qt::Checked)
            keys << parameters_->item(i)->data(kKeyRole).toString();
    return keys;
}

void CalibrationOptionsForm::setFolds(int folds) {
    folds_->setValue(folds);
}

void CalibrationOptionsForm::setSeed(int seed) {
    seed_->setValue(seed);
}

void CalibrationOptionsForm::setEvaluations(int evaluations) {
    evaluations_->setValue(evaluations);
}

QString CalibrationOptionsForm::runsDescription() const {
    const QString set = source_->currentData().toString();
    return set.isEmpty() ? QFileInfo(file_->text().trimmed()).fileName()
                         : tr("the bundled set %1").arg(set);
}

std::optional<CalibrationRequest> CalibrationOptionsForm::request(QString* error) const {
    const auto fail = [error](const QString& why) {
        if (error) *error = why;
        return std::nullopt;
    };
    CalibrationRequest r;
    const QString set = source_->currentData().toString();
    if (set.isEmpty()) {
        const QString path = file_->text().trimmed();
        if (path.isEmpty())
            return fail(tr("Choose a CSV file of measured runs (Browse…), or a bundled set."));
        r.runsFile = path.toStdString();
    } else {
        r.bundledSet = set.toStdString();
    }
    const QString preset = hardware_->currentData().toString();
    if (preset.isEmpty()) {
        r.start = project_;
    } else {
        auto point = core::hardware::PresetLibrary::preset(preset.toStdString());
        if (!point) return fail(QString::fromStdString(point.message()));
        r.start = *point;
    }
    const QStringList keys = checkedParameters();
    // An empty list would mean "all" to core: the user unticked everything on purpose.
    if (keys.isEmpty()) return fail(tr("Tick at least one parameter to fit."));
    for (const QString& key : keys) r.options.parameters.push_back(key.toStdString());
    if (folds_->value() == 1)
        return fail(tr("One fold leaves nothing to validate on: choose none (0) or 2 to %1 "
                       "folds.")
                        .arg(cal::kMaxFolds));
    r.options.folds = folds_->value();
    r.options.seed = std::uint64_t(seed_->value());
    r.options.maxEvaluations = evaluations_->value();
    if (core::Status s = cal::validateCalibrationOptions(r.options); !s)
        return fail(QString::fromStdString(s.message()));
    return r;
}

void CalibrationOptionsForm::sourceChosen() {
    const bool file = source_->currentData().toString().isEmpty();
    file_->setEnabled(file);
    browse_->setEnabled(file);
    emit changed();
}

void CalibrationOptionsForm::browse() {
    const QString start = file_->text().trimmed();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Measured runs"), start.isEmpty() ? QString() : QFileInfo(start).absolutePath(),
        tr("Measured runs (*.csv *.json);;All files (*)"));
    if (!path.isEmpty()) file_->setText(path);
}

}  // namespace tandem::ui
