#include "ui/editors/cluster_training_editor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QVBoxLayout>
#include <algorithm>

#include "core/hardware/cluster_presets.h"
#include "core/hardware/parameter_registry.h"
#include "ui/editors/parameter_editor.h"
#include "ui/editors/registry_values.h"

namespace tandem::ui {

namespace {
using core::hardware::clusterParameters;
using core::hardware::trainingParameters;
}  // namespace

ClusterTrainingEditor::ClusterTrainingEditor(QWidget* parent)
    : QWidget(parent),
      cluster_(clusterParameters().defaults()),
      training_(trainingParameters().defaults()) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* presetRow = new QFormLayout;
    presets_ = new QComboBox(this);
    for (const auto& preset : core::hardware::clusterPresets()) {
        presets_->addItem(QString::fromUtf8(preset.label.data(), qsizetype(preset.label.size())),
                          QString::fromUtf8(preset.name.data(), qsizetype(preset.name.size())));
        presets_->setItemData(
            presets_->count() - 1,
            QString::fromUtf8(preset.description.data(), qsizetype(preset.description.size())),
            Qt::ToolTipRole);
    }
    presets_->addItem(tr("Custom"), QString());
    presets_->setToolTip(
        tr("A named cluster with its published link rates; editing a field "
           "below makes it Custom"));
    presetRow->addRow(tr("Cluster:"), presets_);
    layout->addLayout(presetRow);
    connect(presets_, &QComboBox::activated, this, [this](int index) {
        const auto* preset =
            core::hardware::findClusterPreset(presets_->itemData(index).toString().toStdString());
        if (!preset) return;  // "Custom": the fields stay as they are
        setCluster(preset->cluster);
        emit valuesChanged();
    });
    clusterForm_ =
        new ParameterEditor(clusterParameters().section(), specsOf(clusterParameters()), this);
    trainingForm_ =
        new ParameterEditor(trainingParameters().section(), specsOf(trainingParameters()), this);
    layout->addWidget(clusterForm_);
    layout->addWidget(trainingForm_);
    connect(clusterForm_, &ParameterEditor::valuesChanged, this, [this] {
        const bool changed = acceptCluster();
        showMatchingPreset();
        if (changed) emit valuesChanged();
    });
    connect(trainingForm_, &ParameterEditor::valuesChanged, this, [this] {
        if (acceptTraining()) emit valuesChanged();
    });
    for (const char* key :
         {"strategyPipeline", "strategyTensor", "strategyData", "interleave", "zero"})
        trainingForm_->setSpecialValueText(key, tr("search chooses"));
    setModelSequenceLength(0);
    setCluster(cluster_);
    setTraining(training_);
}

void ClusterTrainingEditor::setModelSequenceLength(std::int64_t tokens) {
    modelSequenceLength_ = std::max<std::int64_t>(tokens, 0);
    trainingForm_->setSpecialValueText("sequenceLength",
                                       modelSequenceLength_ > 0
                                           ? tr("model default (%1)").arg(modelSequenceLength_)
                                           : tr("model default"));
}

void ClusterTrainingEditor::setCluster(const core::hardware::ClusterConfig& cluster) {
    clusterForm_->setValues(valuesOf(clusterParameters(), cluster));
    acceptCluster();
    showMatchingPreset();
}

void ClusterTrainingEditor::showMatchingPreset() {
    const auto* preset = core::hardware::matchClusterPreset(cluster_);
    const int index = presets_->findData(
        preset ? QString::fromUtf8(preset->name.data(), qsizetype(preset->name.size()))
               : QString());
    presets_->setCurrentIndex(index < 0 ? presets_->count() - 1 : index);
}

void ClusterTrainingEditor::setTraining(const core::hardware::TrainingConfig& training) {
    trainingForm_->setValues(valuesOf(trainingParameters(), training));
    acceptTraining();
}

bool ClusterTrainingEditor::acceptCluster() {
    const auto candidate = configFrom(clusterParameters(), clusterForm_->values());
    const core::Status status = clusterParameters().validate(candidate);
    clusterForm_->setFormError(status.ok() ? QString() : QString::fromStdString(status.message()));
    if (!status.ok() || candidate == cluster_) return false;
    cluster_ = candidate;
    return true;
}

bool ClusterTrainingEditor::acceptTraining() {
    const auto candidate = configFrom(trainingParameters(), trainingForm_->values());
    const core::Status status = trainingParameters().validate(candidate);
    trainingForm_->setFormError(status.ok() ? QString() : QString::fromStdString(status.message()));
    if (!status.ok() || candidate == training_) return false;
    training_ = candidate;
    return true;
}

bool ClusterTrainingEditor::isValid() const {
    return clusterForm_->isValid() && trainingForm_->isValid() &&
           clusterForm_->formError().isEmpty() && trainingForm_->formError().isEmpty();
}

}  // namespace tandem::ui
