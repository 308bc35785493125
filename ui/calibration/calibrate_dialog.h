#pragma once
// Hardware ▸ Calibrate from measurements… (ARCHITECTURE.md §1.10, §1.13): the app's side of
// `tandem-cli calibrate`. The options on the left (CalibrationOptionsForm), Run and Cancel with
// a progress bar and a message line, the result on the right (CalibrationResultsView), and
// "Save hardware file…" (the fitted HardwarePoint as a hardware JSON file, written atomically by
// core::hardware::saveHardwareFile) and "Use in project" (emits hardwareChosen; the window
// applies it to the set-up as one undoable edit). The fit runs on a CalibrationJob; only the
// answer to the latest Run is shown. Any error — a malformed CSV, no usable runs, bad options,
// a start outside the physical bounds — is a message in the dialog, which stays usable.
// Esc cancels a running fit, and closes the dialog when nothing runs; closing cancels the fit.
// An interrupted fit is shown but cannot be saved or used (it is not validated), as the CLI
// writes no --out file then.
#include <QDialog>
#include <QString>
#include <memory>

#include "core/hardware/hardware_point.h"
#include "ui/jobs/calibration_job.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace tandem::ui {

class CalibrationOptionsForm;
class CalibrationResultsView;

class CalibrateDialog : public QDialog {
    Q_OBJECT
public:
    explicit CalibrateDialog(const core::hardware::HardwarePoint& projectHardware,
                             QWidget* parent = nullptr);
    ~CalibrateDialog() override;

    void setProjectHardware(const core::hardware::HardwarePoint& point);
    // The folder "Save hardware file…" opens in first.
    void setFolder(const QString& folder) { folder_ = folder; }

    // As the buttons do (without the file dialog): start a fit (false, with the message shown,
    // when the form is refused), cancel it, write the fitted hardware (the error, or empty),
    // hand it to the project.
    bool run();
    void cancel();
    QString saveHardwareTo(const QString& path);
    void useInProject();

    bool running() const;
    // The latest finished calibration (null before it, and after a failure or new Run).
    std::shared_ptr<const CalibrationOutcome> outcome() const { return outcome_; }
    // The message line: an error, "Cancelled.", progress or what was saved.
    QString message() const;
    bool messageIsError() const { return error_; }

    CalibrationOptionsForm* form() const { return form_; }
    CalibrationResultsView* results() const { return results_; }
    CalibrationJob* job() const { return job_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* saveButton() const { return save_; }
    QPushButton* useButton() const { return use_; }
    QProgressBar* progressBar() const { return progress_; }

signals:
    // "Use in project": the fitted hardware point.
    void hardwareChosen(const core::hardware::HardwarePoint& point);
    // A new result (or none) was shown.
    void outcomeChanged();

public slots:
    void reject() override;  // Esc: cancel a running fit, else close

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void showMessage(const QString& text, bool error);
    void progressed(quint64 id, double fraction, const QString& message);
    void finished(quint64 id, std::shared_ptr<const CalibrationOutcome> outcome);
    void failed(quint64 id, const QString& message);
    void saveClicked();
    void refreshButtons();

    CalibrationJob* job_ = nullptr;
    CalibrationOptionsForm* form_ = nullptr;
    CalibrationResultsView* results_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* save_ = nullptr;
    QPushButton* use_ = nullptr;
    QPushButton* close_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* message_ = nullptr;
    std::shared_ptr<const CalibrationOutcome> outcome_;
    quint64 currentId_ = 0;  // the Run whose answer is shown; others are dropped
    bool cancelled_ = false;
    bool closing_ = false;
    bool error_ = false;
    QString folder_;
};

}  // namespace tandem::ui
