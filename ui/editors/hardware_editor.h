#pragma once
// The "Hardware" section of the set-up dock: a preset chooser (the built-in presets plus the
// user's own, kept as hardware JSON files under QStandardPaths::AppDataLocation/presets), the
// accelerator form generated from the parameter registry, and the live area readout against the
// search's budget. The cluster travels with a preset but is edited in ClusterTrainingEditor:
// choosing a preset emits presetApplied() with the whole point so the owner can pass the
// cluster on, and setCluster() keeps the copy that "Save as preset…" writes up to date.
// A preset whose accelerator is edited is no longer that preset: hardware() is then named
// "<preset> (modified)" with a description saying so, and the chooser shows no preset; undoing
// the edits (or loading such a point, e.g. from a project) restores or keeps that naming.
#include <optional>

#include <QString>
#include <QStringList>
#include <QWidget>

#include "core/common/expected.h"
#include "core/hardware/hardware_point.h"

class QComboBox;
class QPushButton;

namespace tandem::ui {

class AreaReadout;
class ParameterEditor;

class HardwareEditor : public QWidget {
    Q_OBJECT
public:
    explicit HardwareEditor(QWidget* parent = nullptr);

    // Name, description and cluster of the chosen preset (or setHardware), the accelerator
    // as last validly edited; named "<preset> (modified)" when it differs from the preset.
    core::hardware::HardwarePoint hardware() const;
    core::hardware::AcceleratorConfig accelerator() const;
    // Shows `point` without changing the preset list; emits nothing.
    void setHardware(const core::hardware::HardwarePoint& point);
    void setCluster(const core::hardware::ClusterConfig& cluster);

    // Built-in names first, then user presets, as listed in the chooser.
    QStringList presetNames() const;
    // Applies a listed preset; false (and nothing changes) for an unknown name.
    bool selectPreset(const QString& name);
    // Re-reads the user presets folder (a broken file is listed disabled, with its error).
    void reloadUserPresets();
    // Writes the current hardware as user preset `name`; returns the error, empty on success.
    QString saveUserPreset(const QString& name);
    static QString userPresetDirectory();

    void setAreaBudget(double squareMillimetres);
    void setAllowAreaExtrapolation(bool allow);

    bool isValid() const;
    ParameterEditor* form() const { return form_; }
    AreaReadout* areaReadout() const { return area_; }

signals:
    // After a valid edit of the accelerator, or a preset was applied.
    void valuesChanged();
    void presetApplied(const core::hardware::HardwarePoint& point);

private:
    void presetActivated(int index);
    void saveAsPresetClicked();
    // The listed preset called `name` (built-in or user file), or an error.
    core::Expected<core::hardware::HardwarePoint> loadPreset(const QString& name) const;
    // Names point_ after its preset, or "<preset> (modified)" when the accelerator differs,
    // and shows the preset in the chooser only when it matches.
    void refreshIdentity();
    // Shows the registry's rules between fields under the form, marking the fields they name.
    void checkRules();

    core::hardware::HardwarePoint point_;
    std::optional<core::hardware::HardwarePoint> preset_;  // what point_ was based on
    QComboBox* presets_ = nullptr;
    QPushButton* saveAs_ = nullptr;
    ParameterEditor* form_ = nullptr;
    AreaReadout* area_ = nullptr;
};

}  // namespace tandem::ui
