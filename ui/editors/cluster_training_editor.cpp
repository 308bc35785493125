#include "ui/editors/cluster_training_editor.h"

#include <QVBoxLayout>
#include <algorithm>

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
    clusterForm_ =
        new ParameterEditor(clusterParameters().section(), specsOf(clusterParameters()), this);
    trainingForm_ =
        new ParameterEditor(trainingParameters().section(), specsOf(trainingParameters()), this);
    layout->addWidget(clusterForm_);
    layout->addWidget(trainingForm_);
    connect(clusterForm_, &ParameterEditor::valuesChanged, this, [this] {
        if (acceptCluster()) emit valuesChanged();
    });
    connect(trainingForm_, &ParameterEditor::valuesChanged, this, [this] {
        if (acceptTraining()) emit valuesChanged();
    });
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
