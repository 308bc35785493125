#pragma once
// The left side of the calibration dialog: what to fit to what. The measured runs (a CSV file
// chosen with a file dialog or typed, or one of the bundled sets — e.g. the single-node A100
// set — which are embedded like the CLI's `--set`), the starting hardware (the project's
// current point by default, or a built-in preset), the parameters to fit (a checkable list of
// core::calibration::availableCalibrationParameters(), each with its physical bounds and why
// as tooltip), cross-validation folds (0: none), the seed of the folds and the evaluation
// budget per fit. request() turns the form into a CalibrationRequest or says what is wrong in
// words the dialog shows.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>

#include "core/hardware/hardware_point.h"
#include "ui/jobs/calibration_job.h"

class QComboBox;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace tandem::ui {

class CalibrationOptionsForm : public QWidget {
    Q_OBJECT
public:
    explicit CalibrationOptionsForm(const core::hardware::HardwarePoint& projectHardware,
                                    QWidget* parent = nullptr);

    // The first hardware choice; the form shows its name.
    void setProjectHardware(const core::hardware::HardwarePoint& point);
    // A CSV file as the runs (chooses "CSV file").
    void setRunsFile(const QString& path);
    // A bundled set as the runs; false for an unknown name.
    bool selectBundledSet(const QString& name);
    // A built-in preset as the start (false for an unknown name); empty: the project's.
    bool selectStartPreset(const QString& name);
    // Checks exactly these keys ("accelerator.tensorCoreEfficiency" or the key alone).
    void setParameters(const QStringList& keys);
    QStringList checkedParameters() const;  // full keys, in table order
    void setFolds(int folds);
    void setSeed(int seed);
    void setEvaluations(int evaluations);

    // The request, or nullopt with `error` saying what to change.
    std::optional<CalibrationRequest> request(QString* error) const;
    // The file or set the runs come from, for messages: "runs.csv", "bundled set …".
    QString runsDescription() const;

    QComboBox* sourceChooser() const { return source_; }
    QLineEdit* runsFileEdit() const { return file_; }
    QComboBox* hardwareChooser() const { return hardware_; }
    QListWidget* parameterList() const { return parameters_; }
    QSpinBox* foldsBox() const { return folds_; }
    QSpinBox* seedBox() const { return seed_; }
    QSpinBox* evaluationsBox() const { return evaluations_; }

signals:
    void changed();

private:
    void sourceChosen();
    void browse();

    core::hardware::HardwarePoint project_;
    QComboBox* source_ = nullptr;
    QLineEdit* file_ = nullptr;
    QPushButton* browse_ = nullptr;
    QComboBox* hardware_ = nullptr;
    QListWidget* parameters_ = nullptr;
    QSpinBox* folds_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QSpinBox* evaluations_ = nullptr;
};

}  // namespace tandem::ui
