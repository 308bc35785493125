#include "ui/editors/hardware_editor.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <filesystem>

#include "core/hardware/cluster_presets.h"
#include "core/hardware/hardware_json.h"
#include "core/hardware/parameter_registry.h"
#include "core/hardware/preset_library.h"
#include "ui/editors/area_readout.h"
#include "ui/editors/parameter_editor.h"
#include "ui/editors/registry_values.h"

namespace tandem::ui {

namespace {

using core::hardware::acceleratorParameters;

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

// Item data of the preset chooser.
constexpr int kNameRole = Qt::UserRole;      // the preset's name
constexpr int kPathRole = Qt::UserRole + 1;  // a user preset's file; empty for a built-in
// What an edited preset is called: "tpuv4-like (modified)".
const QString kModifiedSuffix = QStringLiteral(" (modified)");

std::filesystem::path toPath(const QString& path) {
    return std::filesystem::path(path.toStdU16String());
}

}  // namespace

HardwareEditor::HardwareEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    presets_ = new QComboBox(this);
    presets_->setObjectName("presetChooser");
    presets_->setPlaceholderText(tr("(custom)"));
    presets_->setToolTip(tr("Built-in hardware presets and your own (saved with "
                            "\"Save as preset…\" in %1)")
                             .arg(QDir::toNativeSeparators(userPresetDirectory())));
    presets_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    presets_->setMinimumContentsLength(10);
    saveAs_ = new QPushButton(tr("Save as preset…"), this);
    saveAs_->setToolTip(
        tr("Save this accelerator and cluster as a hardware JSON file you can "
           "choose here later and pass to tandem-cli --hardware"));
    auto* row = new QHBoxLayout;
    row->addWidget(presets_, 1);
    row->addWidget(saveAs_);
    layout->addLayout(row);

    form_ = new ParameterEditor(acceleratorParameters().section(), specsOf(acceleratorParameters()),
                                this);
    layout->addWidget(form_);
    area_ = new AreaReadout(this);
    layout->addWidget(area_);

    reloadUserPresets();
    connect(presets_, &QComboBox::activated, this, &HardwareEditor::presetActivated);
    connect(saveAs_, &QPushButton::clicked, this, &HardwareEditor::saveAsPresetClicked);
    connect(form_, &ParameterEditor::valuesChanged, this, [this] {
        checkRules();
        point_.accelerator = accelerator();
        area_->setAccelerator(point_.accelerator);
        refreshIdentity();
        emit valuesChanged();
    });

    selectPreset("tpuv4-like");
}

core::hardware::HardwarePoint HardwareEditor::hardware() const {
    core::hardware::HardwarePoint point = point_;
    point.accelerator = accelerator();
    return point;
}

core::hardware::AcceleratorConfig HardwareEditor::accelerator() const {
    return configFrom(acceleratorParameters(), form_->values());
}

void HardwareEditor::setHardware(const core::hardware::HardwarePoint& point) {
    point_ = point;
    const auto values = valuesOf(acceleratorParameters(), point.accelerator);
    form_->setValues(values);
    checkRules();
    point_.accelerator = accelerator();
    area_->setAccelerator(point_.accelerator);
    // The preset it is, or was modified from ("tpuv4-like (modified)" in a saved project).
    QString base = text(point.name);
    if (base.endsWith(kModifiedSuffix)) base.chop(kModifiedSuffix.size());
    const auto preset =
        presets_->findData(base, kNameRole) >= 0 ? loadPreset(base) : core::Error{"not a preset"};
    preset_.reset();
    if (preset.ok()) preset_ = *preset;
    refreshIdentity();
}

core::Expected<core::hardware::HardwarePoint> HardwareEditor::loadPreset(
    const QString& name) const {
    const int index = presets_->findData(name, kNameRole);
    if (index < 0) return core::Error{"no preset named " + name.toStdString()};
    const QString path = presets_->itemData(index, kPathRole).toString();
    return path.isEmpty() ? core::hardware::PresetLibrary::preset(name.toStdString())
                          : core::hardware::loadHardwareFile(toPath(path));
}

void HardwareEditor::refreshIdentity() {
    const QSignalBlocker blocker(presets_);
    // With no preset selected the chooser shows the hardware's own name, as everything else
    // does: "tpuv4-like (modified)", a searched point's name, or "(custom)" for a nameless one.
    presets_->setPlaceholderText(point_.name.empty() ? tr("(custom)") : text(point_.name));
    if (!preset_) {
        presets_->setCurrentIndex(presets_->findData(text(point_.name), kNameRole));
        return;
    }
    if (point_.accelerator == preset_->accelerator) {
        point_.name = preset_->name;
        point_.description = preset_->description;
        if (!(point_.cluster == preset_->cluster)) {
            // The preset's description names its cluster: do not claim it for another one.
            const auto* cluster = core::hardware::matchClusterPreset(point_.cluster);
            point_.description = "The " + preset_->name + " chip in " +
                                 (cluster ? std::string(cluster->label) : "an edited cluster");
        }
        presets_->setCurrentIndex(presets_->findData(text(preset_->name), kNameRole));
    } else {
        point_.name = preset_->name + kModifiedSuffix.toStdString();
        point_.description = "The " + preset_->name + " preset with edited accelerator parameters";
        presets_->setPlaceholderText(text(point_.name));
        presets_->setCurrentIndex(-1);
    }
}

void HardwareEditor::setCluster(const core::hardware::ClusterConfig& cluster) {
    point_.cluster = cluster;
    refreshIdentity();
}

QStringList HardwareEditor::presetNames() const {
    QStringList names;
    for (int i = 0; i < presets_->count(); ++i)
        names << presets_->itemData(i, kNameRole).toString();
    return names;
}

bool HardwareEditor::selectPreset(const QString& name) {
    const int index = presets_->findData(name, kNameRole);
    if (index < 0) return false;
    const auto point = loadPreset(name);
    if (!point.ok()) {
        QMessageBox::warning(this, tr("Cannot use preset"), text(point.message()));
        return false;
    }
    setHardware(*point);
    presets_->setCurrentIndex(index);
    emit presetApplied(point_);
    emit valuesChanged();
    return true;
}

void HardwareEditor::reloadUserPresets() {
    const QString current = presets_->currentData(kNameRole).toString();
    const QSignalBlocker blocker(presets_);
    presets_->clear();
    for (const auto& info : core::hardware::PresetLibrary::list()) {
        presets_->addItem(text(info.name));
        const int i = presets_->count() - 1;
        presets_->setItemData(i, text(info.name), kNameRole);
        presets_->setItemData(i, text(info.description), Qt::ToolTipRole);
    }
    const QDir dir(userPresetDirectory());
    for (const QFileInfo& file : dir.entryInfoList({"*.json"}, QDir::Files, QDir::Name)) {
        const auto point = core::hardware::loadHardwareFile(toPath(file.absoluteFilePath()));
        const QString name = point.ok() ? text(point->name) : file.completeBaseName();
        if (presets_->findData(name, kNameRole) >= 0) continue;  // a built-in wins
        presets_->addItem(tr("%1 (user)").arg(name));
        const int i = presets_->count() - 1;
        presets_->setItemData(i, name, kNameRole);
        presets_->setItemData(i, file.absoluteFilePath(), kPathRole);
        presets_->setItemData(i,
                              point.ok() ? text(point->description) + "\n" + file.absoluteFilePath()
                                         : text(point.message()),
                              Qt::ToolTipRole);
        if (!point.ok()) {
            // Listed so the user sees the broken file and why, but not selectable.
            if (auto* model = qobject_cast<QStandardItemModel*>(presets_->model()))
                model->item(i)->setEnabled(false);
        }
    }
    presets_->setCurrentIndex(presets_->findData(current, kNameRole));
}

QString HardwareEditor::saveUserPreset(const QString& name) {
    static const QRegularExpression kSafe("^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$");
    if (!kSafe.match(name).hasMatch())
        return tr("\"%1\" is not a usable preset name: use 1 to 64 letters, digits, spaces, "
                  "'.', '_' or '-', starting with a letter or digit")
            .arg(name);
    for (const auto& info : core::hardware::PresetLibrary::list())
        if (text(info.name) == name)
            return tr("\"%1\" is a built-in preset; choose another name").arg(name);
    if (!isValid()) return tr("The accelerator has invalid values; fix the marked fields first");
    if (!QDir().mkpath(userPresetDirectory()))
        return tr("Cannot create the presets folder %1").arg(userPresetDirectory());
    core::hardware::HardwarePoint point = hardware();
    point.name = name.toStdString();
    if (point.description.find("User preset") != 0)
        point.description = "User preset based on " + (preset_ ? preset_->name : point_.name);
    const QString path = QDir(userPresetDirectory()).filePath(name + ".json");
    const core::Status status = core::hardware::saveHardwareFile(toPath(path), point);
    if (!status.ok()) return text(status.message());
    reloadUserPresets();
    point_.name = point.name;
    point_.description = point.description;
    preset_ = point;  // it is now that (unmodified) user preset
    refreshIdentity();
    return {};
}

QString HardwareEditor::userPresetDirectory() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/presets";
}

void HardwareEditor::setAreaBudget(double squareMillimetres) {
    area_->setBudget(squareMillimetres);
}

void HardwareEditor::setAllowAreaExtrapolation(bool allow) {
    area_->setAllowExtrapolation(allow);
}

bool HardwareEditor::isValid() const {
    return form_->isValid() && form_->formError().isEmpty();
}

void HardwareEditor::checkRules() {
    // The rules between fields (a precision the chip cannot run), once every field is valid.
    const core::Status status = form_->isValid() ? acceleratorParameters().validate(accelerator())
                                                 : core::Status::success();
    form_->setFormError(status.ok() ? QString() : text(status.message()));
}

void HardwareEditor::presetActivated(int index) {
    if (index < 0) return;
    selectPreset(presets_->itemData(index, kNameRole).toString());
}

void HardwareEditor::saveAsPresetClicked() {
    bool ok = false;
    const QString suggested = text(point_.name) + "-custom";
    const QString name = QInputDialog::getText(this, tr("Save hardware preset"), tr("Preset name:"),
                                               QLineEdit::Normal, suggested, &ok)
                             .trimmed();
    if (!ok || name.isEmpty()) return;
    const QString path = QDir(userPresetDirectory()).filePath(name + ".json");
    if (QFileInfo::exists(path) &&
        QMessageBox::question(this, tr("Replace preset?"),
                              tr("A preset named \"%1\" exists. Replace it?").arg(name)) !=
            QMessageBox::Yes)
        return;
    const QString error = saveUserPreset(name);
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot save preset"), error);
}

}  // namespace tandem::ui
