#pragma once
// The main window: a left dock to choose the model, the hardware and the build options, and
// central tabs that show what core computed for them. Wiring only: every number comes from core.
#include <QMainWindow>
#include <memory>

#include "core/estimate/model_estimate.h"
#include "core/hardware/hardware_point.h"
#include "core/model/model_graph.h"
#include "core/model/model_source.h"

class QComboBox;
class QSpinBox;
class QTableView;
class QSortFilterProxyModel;
class QLabel;

namespace tandem::ui {

class SummaryPanel;
class OperatorTableModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Selects a model (zoo name or file) and a hardware preset (or file) and evaluates them.
    bool setModel(const QString& nameOrPath);
    bool setHardware(const QString& nameOrPath);
    // As File ▸ Open model…: loads the file and shows an error dialog when it cannot be used.
    bool openModelPath(const QString& path);

    // The latest evaluation, for tests; null when the inputs are invalid.
    std::shared_ptr<const core::estimate::ModelEstimate> estimate() const { return estimate_; }
    std::shared_ptr<const core::model::ModelGraph> graph() const { return graph_; }
    QString lastError() const { return lastError_; }

public slots:
    void evaluate();

private:
    QWidget* buildSetupPanel();
    void openModelFile();
    void openHardwareFile();
    void showLayer(int index);
    void reportError(const QString& message);

    QComboBox* modelCombo_ = nullptr;
    QComboBox* hardwareCombo_ = nullptr;
    QSpinBox* tensorParallel_ = nullptr;
    QSpinBox* microbatch_ = nullptr;
    QSpinBox* sequence_ = nullptr;
    QComboBox* layerCombo_ = nullptr;
    SummaryPanel* summary_ = nullptr;
    OperatorTableModel* operatorModel_ = nullptr;
    QSortFilterProxyModel* operatorProxy_ = nullptr;
    QTableView* operatorView_ = nullptr;

    core::model::ModelSourcePtr source_;
    std::shared_ptr<const core::model::ModelGraph> graph_;
    std::shared_ptr<const core::estimate::ModelEstimate> estimate_;
    core::hardware::HardwarePoint hardware_;
    QString lastError_;
    bool evaluating_ = false;
};

}  // namespace tandem::ui
