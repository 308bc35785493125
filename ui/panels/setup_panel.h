#pragma once
// The left dock (ARCHITECTURE.md §1.10): the model (ModelChooser: zoo list + Open…, with a
// one-line summary: parameters, layers, FLOPs per sample, sequence length; models load in the
// background while the rest of the window stays usable), the hardware
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
#include <optional>
#include <vector>

#include "core/io/project_file.h"
#include "core/model/model_source.h"
#include "core/placement/model_placement.h"
#include "core/search/search_point.h"
#include "core/search/search_run.h"
#include "ui/jobs/model_load_job.h"

class QComboBox;
class QToolBox;

namespace tandem::ui {

class HardwareEditor;
class ClusterTrainingEditor;
class SearchSpaceEditor;
class ExtraModelsList;
class ModelChooser;

class SetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit SetupPanel(QWidget* parent = nullptr);

    // A zoo name or a model file (Tandem JSON, Hugging Face config.json, ONNX), loaded on this
    // thread (command-line arguments, tests); once loaded, a load running in the background is
    // cancelled. On failure nothing changes and `error` (when given) says why.
    bool setModel(const QString& nameOrPath, QString* error = nullptr);
    // As picking `nameOrPath` in the chooser: loads it in the background (ModelLoadJob, latest
    // wins) while the panel shows "Loading …" with a Cancel button, and adopts it when it has
    // loaded; loadEnded(id, …) says how it ended. A failure is reported (modelLoadFailed) and
    // the chooser goes back to the loaded model; a newer pick or cancelLoading() supersedes it
    // (the loaded model stays). Returns the load's id.
    quint64 pickModel(const QString& nameOrPath);
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
    // "Also search for" (ExtraModelsList loads a ticked one in the background). setExtraModels
    // loads each one once on this thread (then cached); one that cannot be loaded is left out,
    // reported through modelLoadFailed and `error` (false). searchChanged follows a change.
    QStringList extraModels() const;
    bool setExtraModels(const QStringList& references, QString* error = nullptr);
    ExtraModelsList* extraModelsList() const { return extraModels_; }

    // The whole set-up as a project (view state and results are the window's), and back. A
    // project whose model cannot be loaded is refused and nothing changes. applyProject loads
    // the models on this thread (the set-up's model already loaded is reused: undo, New);
    // applyProjectInBackground loads them as pickModel does and applies the project when they
    // have loaded (projectAboutToApply, then the edits, then loadEnded(id, true, {})), or
    // refuses it (loadEnded(id, false, why)); cancelled or superseded: loadEnded(id, false, {}).
    core::io::ProjectFile project() const;
    // What the app opens on and File ▸ New project starts from: GPT-3 on the TPUv4-like chip in
    // DGX A100 nodes, recompute on.
    static core::io::ProjectFile defaultProject();
    bool applyProject(const core::io::ProjectFile& project, QString* error = nullptr);
    quint64 applyProjectInBackground(const core::io::ProjectFile& project);

    // A background load of the set-up's model or of a project's models (not an extra model's).
    bool isLoading() const;
    // Cancels the background loads (the set-up's, a project's, the extra models'): the loaded
    // models stay and the chooser shows the loaded one again.
    void cancelLoading();
    ModelLoadJob* modelLoadJob() const;

    HardwareEditor* hardwareEditor() const { return hardware_; }
    ClusterTrainingEditor* clusterTrainingEditor() const { return clusterTraining_; }
    SearchSpaceEditor* searchSpaceEditor() const { return space_; }
    QComboBox* modelChooser() const;
    // The summary line of the loaded model, from the build its load did (no build here).
    QString modelSummary() const;

signals:
    void pointChanged();
    void searchChanged();
    // A field became invalid or valid again (isValid() and problem() may have changed).
    void validityChanged();
    void modelLoadFailed(const QString& message);
    // A background load (pickModel, applyProjectInBackground) ended: `adopted`, or refused with
    // `error` (empty: cancelled or superseded).
    void loadEnded(quint64 id, bool adopted, const QString& error);
    void projectAboutToApply(quint64 id);  // applyProjectInBackground's edits follow at once

private:
    void adoptModel(const ModelLoad& load);
    void hardwareEdited();
    void showModelSummary();
    void loadAnswered(quint64 id, const std::vector<ModelLoad>& loads);
    void applyLoaded(const core::io::ProjectFile& project, const ModelLoad& main);

    ModelChooser* chooser_ = nullptr;
    QToolBox* sections_ = nullptr;
    HardwareEditor* hardware_ = nullptr;
    ClusterTrainingEditor* clusterTraining_ = nullptr;
    SearchSpaceEditor* space_ = nullptr;
    ExtraModelsList* extraModels_ = nullptr;
    // What the chooser's pending load applies when it is a project's.
    std::optional<core::io::ProjectFile> pendingProject_;
    core::model::ModelSourcePtr model_;
    QString modelReference_;
    bool applying_ = false;
};

}  // namespace tandem::ui
