#pragma once
// The "Cluster and training" section of the set-up dock: devices, devices per node, link
// bandwidths and latency (ClusterConfig), global batch, microbatch, sequence length, recompute
// and optimizer (TrainingConfig), all generated from the parameter registry. Besides the
// per-field checks of ParameterEditor, the registries' rules between fields (devicesPerNode ≤
// devices, microbatch ≤ globalBatch) are checked after every edit: a violation is shown under
// its section and the struct keeps its last valid state, so cluster() and training() are always
// valid. HBM capacity is an accelerator field and lives in HardwareEditor. A sequence length of
// 0 means the model's own and reads "model default (2048)" (the loaded model's value, when the
// owner passes it on with setModelSequenceLength) instead of "0 tokens". A "Cluster" list above
// the fields offers the named clusters of core/hardware/cluster_presets.h (PHAZE's flat link,
// DGX A100 nodes) and shows which one the fields match, or "Custom".
#include <QString>
#include <QWidget>
#include <cstdint>

class QComboBox;

#include "core/hardware/cluster_config.h"
#include "core/hardware/training_config.h"

namespace tandem::ui {

class ParameterEditor;

class ClusterTrainingEditor : public QWidget {
    Q_OBJECT
public:
    explicit ClusterTrainingEditor(QWidget* parent = nullptr);

    // The last state that passed every check.
    const core::hardware::ClusterConfig& cluster() const { return cluster_; }
    const core::hardware::TrainingConfig& training() const { return training_; }
    // Shows the values; emits nothing.
    void setCluster(const core::hardware::ClusterConfig& cluster);
    void setTraining(const core::hardware::TrainingConfig& training);

    // The loaded model's own sequence length (ModelSource::defaultSequenceLength()), named where
    // the sequence length is 0: "model default (2048)"; 0 or less: unknown, "model default".
    void setModelSequenceLength(std::int64_t tokens);
    std::int64_t modelSequenceLength() const { return modelSequenceLength_; }

    // True when every field and every rule between fields holds.
    bool isValid() const;
    ParameterEditor* clusterForm() const { return clusterForm_; }
    ParameterEditor* trainingForm() const { return trainingForm_; }
    QComboBox* clusterPresets() const { return presets_; }

signals:
    void valuesChanged();

private:
    bool acceptCluster();
    bool acceptTraining();
    void showMatchingPreset();

    core::hardware::ClusterConfig cluster_;
    core::hardware::TrainingConfig training_;
    ParameterEditor* clusterForm_ = nullptr;
    ParameterEditor* trainingForm_ = nullptr;
    QComboBox* presets_ = nullptr;
    std::int64_t modelSequenceLength_ = 0;
};

}  // namespace tandem::ui
