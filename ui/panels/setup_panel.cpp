#include "ui/panels/setup_panel.h"

#include <QLabel>
#include <QScrollArea>
#include <QToolBox>
#include <QVBoxLayout>

#include "core/hardware/cluster_presets.h"
#include "core/hardware/parameter_registry.h"
#include "core/hardware/preset_library.h"
#include "core/io/search_setup.h"
#include "ui/editors/cluster_training_editor.h"
#include "ui/editors/hardware_editor.h"
#include "ui/editors/parameter_editor.h"
#include "ui/editors/search_space_editor.h"
#include "ui/panels/extra_models_list.h"
#include "ui/panels/model_chooser.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}

ModelLoad failure(const QString& reference) {  // an answer cut short (cancelled)
    return ModelLoad{reference, nullptr, {}, QObject::tr("%1: not loaded").arg(reference)};
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

    chooser_ = new ModelChooser(this);
    layout->addWidget(chooser_);

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

    connect(chooser_, &ModelChooser::chosen, this, &SetupPanel::pickModel);
    connect(chooser_, &ModelChooser::cancelClicked, this, &SetupPanel::cancelLoading);
    connect(chooser_, &ModelChooser::answered, this, &SetupPanel::loadAnswered);
    connect(chooser_, &ModelChooser::abandoned, this, [this](quint64 id) {
        pendingProject_.reset();
        emit loadEnded(id, false, {});
    });
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
    connect(extraModels_, &ExtraModelsList::toggled, this, [this] {
        if (!applying_) emit searchChanged();
    });
    connect(extraModels_, &ExtraModelsList::loadFailed, this, &SetupPanel::modelLoadFailed);
    connect(extraModels_, &ExtraModelsList::loadingChanged, chooser_,
            &ModelChooser::setExtraLoading);
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
    hardware_->setHardware(point);  // not a preset: the chooser shows the point's name
    clusterTraining_->setCluster(point.cluster);
    space_->setBase(hardware());
    applying_ = false;
    emit pointChanged();
}

bool SetupPanel::setModel(const QString& nameOrPath, QString* error) {
    std::vector<ModelLoad> loads =
        ModelLoadJob::loadNow({nameOrPath}, hardware_->accelerator().bytesPerElement);
    const ModelLoad main = loads.empty() ? failure(nameOrPath) : loads.front();
    if (!main.model) {
        if (error) *error = main.error;
        emit modelLoadFailed(main.error);
        return false;
    }
    chooser_->abandon();  // a background load would replace it later
    adoptModel(main);
    return true;
}

quint64 SetupPanel::pickModel(const QString& nameOrPath) {
    return chooser_->load({nameOrPath}, hardware_->accelerator().bytesPerElement);
}

bool SetupPanel::isLoading() const {
    return chooser_->pendingLoad() != 0;
}

void SetupPanel::cancelLoading() {
    chooser_->abandon();
    extraModels_->cancelLoads();
}

ModelLoadJob* SetupPanel::modelLoadJob() const {
    return chooser_->job();
}

QComboBox* SetupPanel::modelChooser() const {
    return chooser_->combo();
}

void SetupPanel::loadAnswered(quint64 id, const std::vector<ModelLoad>& loads) {
    std::optional<core::io::ProjectFile> project = std::exchange(pendingProject_, std::nullopt);
    const ModelLoad main = loads.empty() ? failure(QString()) : loads.front();
    if (!main.model) {
        if (!project) emit modelLoadFailed(main.error);
        emit loadEnded(id, false, main.error);
        return;
    }
    if (project) {
        extraModels_->remember(loads);  // the project's extra models, read with it
        emit projectAboutToApply(id);
        applyLoaded(*project, main);
    } else {
        adoptModel(main);
    }
    emit loadEnded(id, true, {});
}

void SetupPanel::adoptModel(const ModelLoad& load) {
    model_ = load.model;
    modelReference_ = load.reference;
    extraModels_->setMainModel(modelReference_);  // always searched: not an extra one
    chooser_->show(load);
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

void SetupPanel::showModelSummary() {
    // "Sequence length: model default (2048)" names the loaded model's own length.
    clusterTraining_->setModelSequenceLength(model_ ? model_->defaultSequenceLength() : 0);
}

QString SetupPanel::modelSummary() const {
    return chooser_->summary();
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
    // The one rule (core/io/search_setup.h): the project's space on its hardware, its training,
    // explorer and threads; the models as loaded, the set-up's first.
    std::vector<core::model::ModelSourcePtr> models;
    if (model_) models.push_back(model_);
    for (const auto& model : extraModels_->models()) models.push_back(model);
    return core::io::searchRequestFor(project(), std::move(models));
}

core::io::ProjectFile SetupPanel::project() const {
    core::io::ProjectFile project;
    project.model = modelReference_.toStdString();
    project.hardware = hardware();
    project.training = training();
    project.search = space_->space();
    project.search.base = project.hardware;
    project.explorer = space_->explorer();
    project.objective = space_->objective();
    project.threads = space_->threads();
    for (const QString& reference : extraModels())
        project.searchModels.push_back(reference.toStdString());
    return project;
}

QStringList SetupPanel::extraModels() const {
    return extraModels_->checked();
}

bool SetupPanel::setExtraModels(const QStringList& references, QString* error) {
    QStringList usable = references;
    usable.removeAll(modelReference_);
    const QStringList before = extraModels();
    const bool ok = extraModels_->setChecked(usable, error);
    if (!applying_ && extraModels() != before) emit searchChanged();
    return ok;
}

bool SetupPanel::applyProject(const core::io::ProjectFile& project, QString* error) {
    chooser_->abandon();
    const QString reference = text(project.model);
    ModelLoad main = chooser_->loaded();  // undo, redo, New: the loaded model is not read again
    if (!main.model || main.reference != reference) {
        std::vector<ModelLoad> loads =
            ModelLoadJob::loadNow({reference}, project.hardware.accelerator.bytesPerElement);
        main = loads.empty() ? failure(reference) : std::move(loads.front());
    }
    if (!main.model) {
        if (error) *error = main.error;
        return false;
    }
    applyLoaded(project, main);
    return true;
}

quint64 SetupPanel::applyProjectInBackground(const core::io::ProjectFile& project) {
    QStringList references{text(project.model)};
    for (const std::string& name : project.searchModels) references << text(name);
    const quint64 id = chooser_->load(references, project.hardware.accelerator.bytesPerElement);
    pendingProject_ = project;
    return id;
}

void SetupPanel::applyLoaded(const core::io::ProjectFile& project, const ModelLoad& main) {
    applying_ = true;
    adoptModel(main);
    QStringList extra;
    for (const std::string& name : project.searchModels) extra << text(name);
    setExtraModels(extra);  // a model that cannot be loaded is reported and left out
    hardware_->setHardware(project.hardware);
    clusterTraining_->setCluster(project.hardware.cluster);
    clusterTraining_->setTraining(project.training);
    space_->setSpace(project.search);
    space_->setBase(project.hardware);
    space_->setExplorer(project.explorer);
    space_->setObjective(project.objective);
    space_->setThreads(int(project.threads));
    applying_ = false;
    showModelSummary();
    emit pointChanged();
    emit searchChanged();
}

}  // namespace tandem::ui
