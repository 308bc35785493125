#include "ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "core/estimate/operator_estimator.h"
#include "core/hardware/preset_library.h"
#include "core/importers/model_loader.h"
#include "core/model/model_zoo.h"
#include "ui/models/operator_table_model.h"
#include "ui/panels/summary_panel.h"

namespace tandem::ui {

namespace {
QString text(const std::string& s) { return QString::fromStdString(s); }

QSpinBox* spinBox(QWidget* parent, int min, int max, int value, const QString& suffix,
                  const QString& tooltip) {
    auto* box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setValue(value);
    box->setSuffix(suffix);
    box->setToolTip(tooltip);
    box->setKeyboardTracking(false);
    return box;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("Tandem — accelerator and placement co-search"));
    resize(1280, 800);

    auto* dock = new QDockWidget(tr("Set-up"), this);
    dock->setObjectName("setupDock");
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    dock->setWidget(buildSetupPanel());
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    auto* tabs = new QTabWidget(this);
    summary_ = new SummaryPanel(tabs);
    tabs->addTab(summary_, tr("Summary"));

    auto* operatorsPage = new QWidget(tabs);
    auto* operatorsLayout = new QVBoxLayout(operatorsPage);
    auto* layerRow = new QFormLayout;
    layerCombo_ = new QComboBox(operatorsPage);
    layerCombo_->setToolTip(tr("Layer whose operators are listed; identical layers share one "
                               "operator graph"));
    layerRow->addRow(tr("Layer:"), layerCombo_);
    operatorsLayout->addLayout(layerRow);
    operatorModel_ = new OperatorTableModel(this);
    operatorProxy_ = new QSortFilterProxyModel(this);
    operatorProxy_->setSourceModel(operatorModel_);
    operatorProxy_->setSortRole(Qt::UserRole);
    operatorView_ = new QTableView(operatorsPage);
    operatorView_->setModel(operatorProxy_);
    // Graph order until the user clicks a header.
    operatorView_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    operatorView_->setSortingEnabled(true);
    operatorView_->setAlternatingRowColors(true);
    operatorView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    operatorView_->verticalHeader()->hide();
    operatorsLayout->addWidget(operatorView_);
    tabs->addTab(operatorsPage, tr("Operators"));
    setCentralWidget(tabs);
    connect(layerCombo_, &QComboBox::currentIndexChanged, this, &MainWindow::showLayer);

    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(tr("Open &model…"), QKeySequence::Open, this, &MainWindow::openModelFile);
    fileMenu->addAction(tr("Open &hardware…"), QKeySequence(tr("Ctrl+Shift+O")), this,
                        &MainWindow::openHardwareFile);
    fileMenu->addSeparator();
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    statusBar()->showMessage(tr("Ready"));
    evaluate();
}

QWidget* MainWindow::buildSetupPanel() {
    auto* panel = new QWidget(this);
    auto* form = new QFormLayout(panel);

    modelCombo_ = new QComboBox(panel);
    for (const auto& entry : core::model::zooModels()) {
        modelCombo_->addItem(text(entry.name), text(entry.name));
        modelCombo_->setItemData(modelCombo_->count() - 1, text(entry.description),
                                 Qt::ToolTipRole);
    }
    modelCombo_->setCurrentIndex(std::max(0, modelCombo_->findData("gpt3-175b")));
    modelCombo_->setToolTip(tr("Model from the zoo, or File ▸ Open model… for a model file"));
    auto* openModel = new QPushButton(tr("Open…"), panel);
    openModel->setToolTip(tr("Load a Tandem model file, a Hugging Face config.json or an ONNX "
                             "model (weights are never read)"));
    connect(openModel, &QPushButton::clicked, this, &MainWindow::openModelFile);
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(modelCombo_, 1);
    modelRow->addWidget(openModel);
    form->addRow(tr("Model:"), modelRow);

    hardwareCombo_ = new QComboBox(panel);
    for (const auto& preset : core::hardware::PresetLibrary::list()) {
        hardwareCombo_->addItem(text(preset.name), text(preset.name));
        hardwareCombo_->setItemData(hardwareCombo_->count() - 1, text(preset.description),
                                    Qt::ToolTipRole);
    }
    hardwareCombo_->setCurrentIndex(std::max(0, hardwareCombo_->findData("tpuv4-like")));
    hardwareCombo_->setToolTip(tr("Hardware preset, or File ▸ Open hardware… for a file"));
    auto* openHardware = new QPushButton(tr("Open…"), panel);
    openHardware->setToolTip(tr("Load a hardware file (.json)"));
    connect(openHardware, &QPushButton::clicked, this, &MainWindow::openHardwareFile);
    auto* hardwareRow = new QHBoxLayout;
    hardwareRow->addWidget(hardwareCombo_, 1);
    hardwareRow->addWidget(openHardware);
    form->addRow(tr("Hardware:"), hardwareRow);

    tensorParallel_ = spinBox(panel, 1, 4096, 8, {},
                              tr("Tensor-parallel width t: devices that split each layer "
                                 "(Megatron column/row parallelism)"));
    microbatch_ = spinBox(panel, 1, 1 << 20, 1, {}, tr("Samples per microbatch"));
    sequence_ = spinBox(panel, 0, 1 << 24, 0, tr(" tokens"),
                        tr("Tokens per sample; 0 uses the model's default"));
    sequence_->setSpecialValueText(tr("model default"));
    form->addRow(tr("Tensor parallel:"), tensorParallel_);
    form->addRow(tr("Microbatch (samples):"), microbatch_);
    form->addRow(tr("Sequence:"), sequence_);

    connect(modelCombo_, &QComboBox::currentIndexChanged, this, &MainWindow::evaluate);
    connect(hardwareCombo_, &QComboBox::currentIndexChanged, this, &MainWindow::evaluate);
    for (QSpinBox* box : {tensorParallel_, microbatch_, sequence_})
        connect(box, &QSpinBox::valueChanged, this, &MainWindow::evaluate);
    return panel;
}

bool MainWindow::setModel(const QString& nameOrPath) {
    int index = modelCombo_->findData(nameOrPath);
    if (index < 0) {
        modelCombo_->addItem(QFileInfo(nameOrPath).fileName(), nameOrPath);
        index = modelCombo_->count() - 1;
    }
    modelCombo_->setCurrentIndex(index);
    evaluate();
    return lastError_.isEmpty();
}

bool MainWindow::setHardware(const QString& nameOrPath) {
    int index = hardwareCombo_->findData(nameOrPath);
    if (index < 0) {
        hardwareCombo_->addItem(QFileInfo(nameOrPath).fileName(), nameOrPath);
        index = hardwareCombo_->count() - 1;
    }
    hardwareCombo_->setCurrentIndex(index);
    evaluate();
    return lastError_.isEmpty();
}

void MainWindow::openModelFile() {
    const QString filters = tr("Models (*.json *.onnx);;Tandem model or Hugging Face config "
                               "(*.json);;ONNX (*.onnx);;All files (*)");
    const QString path = QFileDialog::getOpenFileName(this, tr("Open model"), {}, filters);
    if (!path.isEmpty()) openModelPath(path);
}

bool MainWindow::openModelPath(const QString& path) {
    if (setModel(path)) return true;
    QMessageBox::warning(this, tr("Cannot open model"), lastError_);
    return false;
}

void MainWindow::openHardwareFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open hardware"), {},
                                                      tr("Hardware (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    if (!setHardware(path)) QMessageBox::warning(this, tr("Cannot open hardware"), lastError_);
}

void MainWindow::reportError(const QString& message) {
    lastError_ = message;
    graph_.reset();
    estimate_.reset();
    summary_->showError(message);
    operatorModel_->setLayer(nullptr, nullptr, -1);
    statusBar()->showMessage(message);
}

void MainWindow::evaluate() {
    if (evaluating_) return;  // setting widgets below re-enters through their signals
    evaluating_ = true;
    struct Reset {
        bool& flag;
        ~Reset() { flag = false; }
    } reset{evaluating_};

    const auto source =
        core::importers::loadModel(modelCombo_->currentData().toString().toStdString());
    if (!source) return reportError(text(source.message()));
    const auto hardware = core::hardware::PresetLibrary::resolveHardware(
        hardwareCombo_->currentData().toString().toStdString());
    if (!hardware) return reportError(text(hardware.message()));
    source_ = *source;
    hardware_ = *hardware;

    core::model::BuildOptions options;
    options.tensorParallel = tensorParallel_->value();
    options.microbatch = microbatch_->value();
    options.sequenceLength = sequence_->value();
    options.bytesPerElement = hardware_.accelerator.bytesPerElement;
    auto graph = source_->build(options);
    if (!graph) return reportError(text(graph.message()));
    const auto estimator =
        core::estimate::OperatorEstimator::create(hardware_.accelerator, hardware_.cluster);
    if (!estimator) return reportError(text(estimator.message()));

    graph_ = std::make_shared<const core::model::ModelGraph>(std::move(graph).value());
    estimate_ = std::make_shared<const core::estimate::ModelEstimate>(
        core::estimate::estimateModel(*graph_, *estimator));
    lastError_.clear();
    summary_->showEvaluation(*graph_, hardware_, *estimate_);

    const QString previous = layerCombo_->currentText();
    layerCombo_->clear();
    for (const auto& layer : graph_->layers()) layerCombo_->addItem(text(layer.name));
    // Keep the layer the user was looking at; start on the first transformer block.
    int layerIndex = layerCombo_->findText(previous);
    if (layerIndex < 0) layerIndex = std::max(0, std::min(1, layerCombo_->count() - 1));
    layerCombo_->setCurrentIndex(layerIndex);
    showLayer(layerCombo_->currentIndex());
    statusBar()->showMessage(tr("%1 on %2: evaluated").arg(text(graph_->name()), text(hardware_.name)));
}

void MainWindow::showLayer(int index) {
    operatorModel_->setLayer(graph_, estimate_, index);
}

}  // namespace tandem::ui
