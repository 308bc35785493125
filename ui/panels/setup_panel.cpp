#include "ui/panels/setup_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QToolBox>
#include <QVBoxLayout>

#include "core/common/units.h"
#include "core/hardware/cluster_presets.h"
#include "core/hardware/parameter_registry.h"
#include "core/hardware/preset_library.h"
#include "core/importers/model_loader.h"
#include "core/model/model_zoo.h"
#include "ui/editors/cluster_training_editor.h"
#include "ui/editors/hardware_editor.h"
#include "ui/editors/parameter_editor.h"
#include "ui/editors/search_space_editor.h"
#include "ui/panels/extra_models_list.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}

QScrollArea* scrolled(QWidget* content, QWidget* parent) {
    auto* area = new QScrollArea(parent);
    area->setWidget(content);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return area;
}
}  // namespace

SetupPanel::SetupPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* modelBox = new QWidget(this);
    auto* modelLayout = new QVBoxLayout(modelBox);
    modelLayout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Model:"), modelBox));
    modelCombo_ = new QComboBox(modelBox);
    for (const auto& entry : core::model::zooModels()) {
        modelCombo_->addItem(text(entry.name), text(entry.name));
        modelCombo_->setItemData(modelCombo_->count() - 1, text(entry.description),
                                 Qt::ToolTipRole);
    }
    modelCombo_->setToolTip(tr("Model from the zoo, or Open… for a model file"));
    row->addWidget(modelCombo_, 1);
    auto* open = new QPushButton(tr("Open…"), modelBox);
    open->setToolTip(
        tr("Load a Tandem model file, a Hugging Face config.json or an ONNX model "
           "(weights are never read)"));
    row->addWidget(open);
    modelLayout->addLayout(row);
    modelSummary_ = new QLabel(modelBox);
    modelSummary_->setWordWrap(true);
    modelSummary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    modelLayout->addWidget(modelSummary_);
    layout->addWidget(modelBox);

    sections_ = new QToolBox(this);
    hardware_ = new HardwareEditor;
    clusterTraining_ = new ClusterTrainingEditor;
    space_ = new SearchSpaceEditor;
    auto* searchBox = new QWidget;
    auto* searchLayout = new QVBoxLayout(searchBox);
    searchLayout->setContentsMargins(0, 0, 0, 0);
    extraModels_ = new ExtraModelsList(searchBox);
    searchLayout->addWidget(extraModels_);
    searchLayout->addWidget(space_, 1);
    sections_->addItem(scrolled(hardware_, sections_), tr("Hardware"));
    sections_->addItem(scrolled(clusterTraining_, sections_), tr("Cluster and training"));
    sections_->addItem(scrolled(searchBox, sections_), tr("Search space"));
    sections_->setItemToolTip(0, tr("The accelerator of the point the views show, and the "
                                    "reference chip of a search"));
    sections_->setItemToolTip(1, tr("Devices, links, batch, microbatch, sequence, recompute, "
                                    "optimizer"));
    sections_->setItemToolTip(2, tr("The models searched besides the set-up's, and the chips, "
                                    "microbatch sizes, HBM sizes and recompute settings a search "
                                    "explores"));
    layout->addWidget(sections_, 1);

    connect(open, &QPushButton::clicked, this, &SetupPanel::chooseModelFile);
    connect(modelCombo_, &QComboBox::currentIndexChanged, this, &SetupPanel::modelChosen);
    connect(hardware_, &HardwareEditor::valuesChanged, this, &SetupPanel::hardwareEdited);
    connect(hardware_, &HardwareEditor::presetApplied, this,
            [this](const core::hardware::HardwarePoint& point) {
                clusterTraining_->setCluster(point.cluster);
                hardwareEdited();
            });
    connect(clusterTraining_, &ClusterTrainingEditor::valuesChanged, this, [this] {
        hardware_->setCluster(clusterTraining_->cluster());
        space_->setBase(hardware());
        if (!applying_) emit pointChanged();
    });
    connect(space_, &SearchSpaceEditor::valuesChanged, this, [this] {
        if (!applying_) emit searchChanged();
    });
    connect(extraModels_, &ExtraModelsList::toggled, this, &SetupPanel::extraModelToggled);
    connect(space_, &SearchSpaceEditor::areaBudgetChanged, hardware_,
            &HardwareEditor::setAreaBudget);

    for (ParameterEditor* editor : findChildren<ParameterEditor*>())
        connect(editor, &ParameterEditor::validityChanged, this, &SetupPanel::validityChanged);

    applyProject(defaultProject());
}

core::io::ProjectFile SetupPanel::defaultProject() {
    core::io::ProjectFile project;
    project.model = "gpt3-175b";
    if (auto preset = core::hardware::PresetLibrary::preset("tpuv4-like"))
        project.hardware = *preset;
    // On DGX-class links the chip matters (on PHAZE's flat 4 GiB/s link communication hides
    // it), and with recomputation GPT-3's fixed Megatron strategy fits in 32 GiB, so the
    // Comparison has a baseline from the start.
    if (const auto* cluster = core::hardware::findClusterPreset("dgx-a100"))
        project.hardware.cluster = cluster->cluster;
    project.training.recompute = core::hardware::Recompute::On;
    project.search.base = project.hardware;
    return project;
}

void SetupPanel::hardwareEdited() {
    space_->setBase(hardware());
    if (!applying_) emit pointChanged();
}

core::hardware::HardwarePoint SetupPanel::hardware() const {
    core::hardware::HardwarePoint point = hardware_->hardware();
    point.cluster = clusterTraining_->cluster();
    return point;
}

core::hardware::TrainingConfig SetupPanel::training() const {
    return clusterTraining_->training();
}

bool SetupPanel::isValid() const {
    return model_ && hardware_->isValid() && clusterTraining_->isValid();
}

QString SetupPanel::problem() const {
    if (!model_) return tr("no model is loaded");
    if (isValid()) return {};
    for (const ParameterEditor* editor : findChildren<ParameterEditor*>()) {
        if (!editor->formError().isEmpty()) return editor->formError();
        QString found;
        const auto look = [&](const auto& registry) {
            for (const auto& parameter : registry.parameters()) {
                if (!found.isEmpty() || editor->indexOf(parameter.spec.key) < 0) continue;
                const QString error = editor->errorText(parameter.spec.key);
                if (!error.isEmpty()) found = error;  // it starts with the field's label
            }
        };
        look(core::hardware::acceleratorParameters());
        look(core::hardware::clusterParameters());
        look(core::hardware::trainingParameters());
        if (!found.isEmpty()) return found;
    }
    return tr("a set-up field holds an invalid value");
}

void SetupPanel::usePoint(const core::search::SearchPoint& point) {
    core::hardware::HardwarePoint h = hardware();
    h.accelerator = point.accelerator;
    core::hardware::TrainingConfig t = training();
    t.microbatch = point.microbatchSize;
    t.recompute = point.recompute;
    applying_ = true;
    hardware_->setHardware(h);  // names it "<preset> (modified)" when it differs
    clusterTraining_->setTraining(t);
    space_->setBase(hardware());
    applying_ = false;
    emit pointChanged();
}

void SetupPanel::useHardware(const core::hardware::HardwarePoint& point) {
    applying_ = true;
    hardware_->setHardware(point);  // not a preset: the chooser shows "(custom)"
    clusterTraining_->setCluster(point.cluster);
    space_->setBase(hardware());
    applying_ = false;
    emit pointChanged();
}

bool SetupPanel::setModel(const QString& nameOrPath, QString* error) {
    auto loaded = core::importers::loadModel(nameOrPath.toStdString());
    if (!loaded) {
        const QString message = text(loaded.message());
        if (error) *error = message;
        emit modelLoadFailed(message);
        return false;
    }
    adoptModel(*loaded, nameOrPath);
    return true;
}

void SetupPanel::adoptModel(core::model::ModelSourcePtr model, const QString& nameOrPath) {
    model_ = std::move(model);
    modelReference_ = nameOrPath;
    extraModels_->setMainModel(nameOrPath);  // always searched: not an extra one
    int index = modelCombo_->findData(nameOrPath);
    if (index < 0) {
        modelCombo_->addItem(QFileInfo(nameOrPath).fileName(), nameOrPath);
        index = modelCombo_->count() - 1;
        modelCombo_->setItemData(index, nameOrPath, Qt::ToolTipRole);
    }
    {
        const QSignalBlocker blocker(modelCombo_);
        modelCombo_->setCurrentIndex(index);
    }
    showModelSummary();
    if (!applying_) {
        emit pointChanged();
        emit searchChanged();
    }
}

bool SetupPanel::setHardware(const QString& nameOrPath, QString* error) {
    if (hardware_->presetNames().contains(nameOrPath)) return hardware_->selectPreset(nameOrPath);
    auto point = core::hardware::PresetLibrary::resolveHardware(nameOrPath.toStdString());
    if (!point) {
        if (error) *error = text(point.message());
        return false;
    }
    hardware_->setHardware(*point);
    clusterTraining_->setCluster(point->cluster);
    hardwareEdited();
    return true;
}

void SetupPanel::modelChosen(int index) {
    if (index < 0) return;
    const QString reference = modelCombo_->itemData(index).toString();
    if (reference == modelReference_) return;
    if (!setModel(reference)) {
        // Back to the model that is still loaded.
        const QSignalBlocker blocker(modelCombo_);
        modelCombo_->setCurrentIndex(modelCombo_->findData(modelReference_));
    }
}

void SetupPanel::chooseModelFile() {
    const QString filters =
        tr("Models (*.json *.onnx);;Tandem model or Hugging Face config "
           "(*.json);;ONNX (*.onnx);;All files (*)");
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), {}, filters);
    if (!path.isEmpty()) setModel(path);
}

void SetupPanel::showModelSummary() {
    modelSummary_->setText(modelSummary());
    // "Sequence length: model default (2048)" names the loaded model's own length.
    clusterTraining_->setModelSequenceLength(model_ ? model_->defaultSequenceLength() : 0);
}

QString SetupPanel::modelSummary() const {
    if (!model_) return {};
    core::model::BuildOptions options;
    options.bytesPerElement = hardware_->accelerator().bytesPerElement;
    auto graph = model_->build(options);
    if (!graph) return tr("Cannot build %1: %2").arg(text(model_->name()), text(graph.message()));
    const double flopsPerSample = graph->forwardFlops() + graph->backwardFlops();
    return tr("%1 parameters · %2 layers · %3 per sample (forward + backward) · sequence %4 "
              "tokens")
        .arg(text(core::formatCount(graph->parameterCount())))
        .arg(graph->layers().size())
        .arg(text(core::formatFlops(flopsPerSample)))
        .arg(graph->options().sequenceLength);
}

core::placement::ModelPlacementRequest SetupPanel::pointRequest() const {
    core::placement::ModelPlacementRequest request;
    request.model = model_;
    request.hardware = hardware();
    request.training = training();
    request.widths = space_->space().widthsFor(*model_);
    return request;
}

core::search::SearchRequest SetupPanel::searchRequest() const {
    core::search::SearchRequest request;
    if (model_) request.models = {model_};
    for (const QString& reference : extraModels())
        if (const auto it = extraCache_.find(reference); it != extraCache_.end() && it->second)
            request.models.push_back(it->second);
    request.space = space_->space();
    request.space.base = hardware();
    request.training = training();
    request.explorer = space_->explorer();
    request.threads = space_->threads();
    return request;
}

core::io::ProjectFile SetupPanel::project() const {
    core::io::ProjectFile project;
    project.model = modelReference_.toStdString();
    project.hardware = hardware();
    project.training = training();
    project.search = space_->space();
    project.search.base = project.hardware;
    project.explorer = space_->explorer();
    project.threads = space_->threads();
    for (const QString& reference : extraModels())
        project.searchModels.push_back(reference.toStdString());
    return project;
}

QStringList SetupPanel::extraModels() const {
    return extraModels_->checked();
}

core::model::ModelSourcePtr SetupPanel::extraModel(const QString& reference, QString* error) {
    if (const auto it = extraCache_.find(reference); it != extraCache_.end()) return it->second;
    auto loaded = core::importers::loadModel(reference.toStdString());
    if (!loaded) {
        const QString message = tr("Also search for: %1").arg(text(loaded.message()));
        if (error) *error = message;
        emit modelLoadFailed(message);
        return nullptr;
    }
    extraCache_[reference] = *loaded;
    return *loaded;
}

bool SetupPanel::setExtraModels(const QStringList& references, QString* error) {
    QStringList usable;
    bool ok = true;
    for (const QString& reference : references) {
        if (reference == modelReference_ || usable.contains(reference)) continue;
        if (extraModel(reference, error))
            usable << reference;
        else
            ok = false;
    }
    const QStringList before = extraModels();
    extraModels_->setChecked(usable);
    if (!applying_ && extraModels() != before) emit searchChanged();
    return ok;
}

void SetupPanel::extraModelToggled(const QString& reference, bool checked) {
    if (checked && !extraModel(reference, nullptr)) {
        extraModels_->uncheck(reference);  // reported; the search stays as it was
        return;
    }
    if (!applying_) emit searchChanged();
}

bool SetupPanel::applyProject(const core::io::ProjectFile& project, QString* error) {
    auto loaded = core::importers::loadModel(project.model);
    if (!loaded) {
        if (error) *error = text(loaded.message());
        return false;
    }
    applying_ = true;
    adoptModel(*loaded, text(project.model));
    QStringList extra;
    for (const std::string& name : project.searchModels) extra << text(name);
    setExtraModels(extra);  // a model that cannot be loaded is reported and left out
    hardware_->setHardware(project.hardware);
    clusterTraining_->setCluster(project.hardware.cluster);
    clusterTraining_->setTraining(project.training);
    space_->setSpace(project.search);
    space_->setBase(project.hardware);
    space_->setExplorer(project.explorer);
    space_->setThreads(int(project.threads));
    applying_ = false;
    showModelSummary();
    emit pointChanged();
    emit searchChanged();
    return true;
}

}  // namespace tandem::ui
