#pragma once
// The left dock (ARCHITECTURE.md §1.10): the model (zoo list + Open…, with a
// one-line summary: parameters, layers, FLOPs per sample, sequence length), the hardware
// (presets and registry-generated editors with the live area readout), the cluster and
// training, and the search space (with "Also search for": the models a multi-model search ranks
// together with the set-up's model), as collapsible sections. It owns what the user set up and
// hands it out as the requests core understands: pointRequest() for the single point the views
// show, searchRequest() for a search, project() for a project file. Every valid edit emits
// pointChanged() or searchChanged(); invalid values are refused by the editors with the reason
// shown under the field.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <map>

#include "core/io/project_file.h"
#include "core/model/model_source.h"
#include "core/placement/model_placement.h"
#include "core/search/search_point.h"
#include "core/search/search_run.h"

class QComboBox;
class QLabel;
class QToolBox;

namespace tandem::ui {

class HardwareEditor;
class ClusterTrainingEditor;
class SearchSpaceEditor;
class ExtraModelsList;

class SetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit SetupPanel(QWidget* parent = nullptr);

    // A zoo name or a model file (Tandem JSON, Hugging Face config.json, ONNX). On failure
    // nothing changes and `error` (when given) says why.
    bool setModel(const QString& nameOrPath, QString* error = nullptr);
    // A preset name (built-in or user) or a hardware file.
    bool setHardware(const QString& nameOrPath, QString* error = nullptr);
    // `point` (accelerator and cluster, with its name and description) as the set-up's
    // hardware, as one edit (pointChanged once): a calibrated description from Hardware ▸
    // Calibrate from measurements….
    void useHardware(const core::hardware::HardwarePoint& point);

    core::model::ModelSourcePtr model() const { return model_; }
    QString modelReference() const { return modelReference_; }
    core::hardware::HardwarePoint hardware() const;
    core::hardware::TrainingConfig training() const;
    bool isValid() const;  // every editor holds valid values
    // Why the set-up is not valid, for a status line: "Tensor cores: must be …", the first
    // field (by label) or cross-field rule an editor refuses; empty when valid.
    QString problem() const;
    // Copies a design-space point's chip (HBM included), microbatch size and recompute into the
    // editors, as one edit (pointChanged once).
    void usePoint(const core::search::SearchPoint& point);

    core::placement::ModelPlacementRequest pointRequest() const;
    // The set-up's model first, then the checked extra models (a multi-model search).
    core::search::SearchRequest searchRequest() const;

    // The models searched besides the set-up's model (zoo names or model files), as checked in
    // "Also search for". setExtraModels loads each one once (then cached); one that cannot be
    // loaded is left out, reported through modelLoadFailed and `error` (false). searchChanged
    // follows a change.
    QStringList extraModels() const;
    bool setExtraModels(const QStringList& references, QString* error = nullptr);
    ExtraModelsList* extraModelsList() const { return extraModels_; }

    // The whole set-up as a project (view state and results are the window's), and back. A
    // project whose model cannot be loaded is refused and nothing changes.
    core::io::ProjectFile project() const;
    // What the app opens on and File ▸ New project starts from: GPT-3 on the TPUv4-like chip in
    // DGX A100 nodes, recompute on.
    static core::io::ProjectFile defaultProject();
    bool applyProject(const core::io::ProjectFile& project, QString* error = nullptr);

    HardwareEditor* hardwareEditor() const { return hardware_; }
    ClusterTrainingEditor* clusterTrainingEditor() const { return clusterTraining_; }
    SearchSpaceEditor* searchSpaceEditor() const { return space_; }
    QComboBox* modelChooser() const { return modelCombo_; }
    QString modelSummary() const;

signals:
    void pointChanged();
    void searchChanged();
    // A field became invalid or valid again (isValid() and problem() may have changed).
    void validityChanged();
    void modelLoadFailed(const QString& message);

private:
    void chooseModelFile();
    void adoptModel(core::model::ModelSourcePtr model, const QString& nameOrPath);
    void modelChosen(int index);
    void hardwareEdited();
    void showModelSummary();
    // The loaded (cached) extra model; null, with modelLoadFailed emitted, when it fails.
    core::model::ModelSourcePtr extraModel(const QString& reference, QString* error);
    void extraModelToggled(const QString& reference, bool checked);

    QComboBox* modelCombo_ = nullptr;
    QLabel* modelSummary_ = nullptr;
    QToolBox* sections_ = nullptr;
    HardwareEditor* hardware_ = nullptr;
    ClusterTrainingEditor* clusterTraining_ = nullptr;
    SearchSpaceEditor* space_ = nullptr;
    ExtraModelsList* extraModels_ = nullptr;
    std::map<QString, core::model::ModelSourcePtr> extraCache_;  // loaded extra models
    core::model::ModelSourcePtr model_;
    QString modelReference_;
    bool applying_ = false;
};

}  // namespace tandem::ui
