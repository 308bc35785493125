#include "ui/calibration/calibrate_dialog.h"

#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <filesystem>

#include "core/hardware/hardware_json.h"
#include "ui/calibration/calibration_options_form.h"
#include "ui/calibration/calibration_results_view.h"

namespace tandem::ui {

namespace {
// Width of the options column: the form's labels and a file name, not more.
constexpr int kOptionsWidth = 320;
}  // namespace

CalibrateDialog::CalibrateDialog(const core::hardware::HardwarePoint& projectHardware,
                                 QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Calibrate from measurements — Tandem"));
    setObjectName("calibrateDialog");
    job_ = new CalibrationJob(this);

    auto* left = new QWidget(this);
    left->setFixedWidth(kOptionsWidth);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    form_ = new CalibrationOptionsForm(projectHardware, left);
    leftLayout->addWidget(form_, 1);
    run_ = new QPushButton(tr("Run"), left);
    run_->setObjectName("calibrationRun");
    run_->setToolTip(tr("Fit the ticked parameters to the measured runs in the background"));
    run_->setDefault(true);
    cancel_ = new QPushButton(tr("Cancel"), left);
    cancel_->setObjectName("calibrationCancel");
    cancel_->setToolTip(tr("Stop the fit (Esc); the best point so far is shown, not validated"));
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(run_, 1);
    runRow->addWidget(cancel_, 1);
    leftLayout->addLayout(runRow);
    progress_ = new QProgressBar(left);
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setTextVisible(false);
    leftLayout->addWidget(progress_);
    message_ = new QLabel(left);
    message_->setObjectName("calibrationMessage");
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->setMinimumHeight(message_->fontMetrics().lineSpacing() * 3);
    message_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    leftLayout->addWidget(message_);

    results_ = new CalibrationResultsView(this);
    auto* body = new QHBoxLayout;
    body->addWidget(left);
    body->addWidget(results_, 1);

    auto* buttons = new QDialogButtonBox(this);
    save_ = buttons->addButton(tr("Save hardware file…"), QDialogButtonBox::ActionRole);
    save_->setObjectName("calibrationSave");
    save_->setToolTip(
        tr("Write the fitted hardware as a hardware JSON file (for tandem-cli "
           "--hardware, or to share)"));
    use_ = buttons->addButton(tr("Use in project"), QDialogButtonBox::ApplyRole);
    use_->setObjectName("calibrationUse");
    use_->setToolTip(
        tr("Make the fitted hardware the project's set-up hardware (Edit ▸ Undo "
           "goes back)"));
    close_ = buttons->addButton(QDialogButtonBox::Close);
    close_->setAutoDefault(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(body, 1);
    layout->addWidget(buttons);

    connect(run_, &QPushButton::clicked, this, &CalibrateDialog::run);
    connect(cancel_, &QPushButton::clicked, this, &CalibrateDialog::cancel);
    connect(save_, &QPushButton::clicked, this, &CalibrateDialog::saveClicked);
    connect(use_, &QPushButton::clicked, this, &CalibrateDialog::useInProject);
    connect(close_, &QPushButton::clicked, this, &QDialog::close);
    connect(job_, &CalibrationJob::progress, this, &CalibrateDialog::progressed);
    connect(job_, &CalibrationJob::finished, this, &CalibrateDialog::finished);
    connect(job_, &CalibrationJob::failed, this, &CalibrateDialog::failed);
    connect(job_, &CalibrationJob::runningChanged, this, &CalibrateDialog::refreshButtons);
    resize(1320, 840);
    refreshButtons();
}

CalibrateDialog::~CalibrateDialog() = default;

void CalibrateDialog::setProjectHardware(const core::hardware::HardwarePoint& point) {
    form_->setProjectHardware(point);
}

bool CalibrateDialog::running() const {
    return job_->running();
}

QString CalibrateDialog::message() const {
    return message_->text();
}

void CalibrateDialog::showMessage(const QString& text, bool error) {
    error_ = error;
    message_->setStyleSheet(error ? QStringLiteral("color: #B00020;") : QString());
    message_->setText(text);
}

bool CalibrateDialog::run() {
    QString why;
    auto request = form_->request(&why);
    if (!request) {
        showMessage(why, true);
        return false;
    }
    outcome_.reset();
    cancelled_ = false;
    results_->clear(tr("Fitting to %1…").arg(form_->runsDescription()));
    emit outcomeChanged();
    progress_->setValue(0);
    showMessage(tr("Reading the measured runs…"), false);
    currentId_ = job_->start(std::move(*request));
    refreshButtons();
    return true;
}

void CalibrateDialog::cancel() {
    if (!job_->running()) return;
    cancelled_ = true;
    job_->cancel();
    showMessage(tr("Cancelling…"), false);
}

void CalibrateDialog::progressed(quint64 id, double fraction, const QString& message) {
    if (id != currentId_) return;
    progress_->setValue(int(fraction * progress_->maximum()));
    if (cancelled_) return;
    // Core's phases read "fitting", "cross-validation fold 2 of 5": a status line's first word.
    QString text = message.isEmpty() ? tr("Fitting") : message;
    text[0] = text[0].toUpper();
    showMessage(text + "…", false);
}

void CalibrateDialog::finished(quint64 id, std::shared_ptr<const CalibrationOutcome> outcome) {
    if (id != currentId_ || !outcome) return;
    outcome_ = std::move(outcome);
    results_->setOutcome(outcome_);
    progress_->setValue(progress_->maximum());
    if (outcome_->result.cancelled)
        showMessage(tr("Cancelled: the best point found so far is shown, not validated. Run "
                       "again to save or use a result."),
                    false);
    else
        showMessage(tr("Done. Save the fitted hardware or use it in the project."), false);
    refreshButtons();
    emit outcomeChanged();
}

void CalibrateDialog::failed(quint64 id, const QString& message) {
    if (id != currentId_) return;
    progress_->setValue(0);
    if (cancelled_ && message == QLatin1String("cancelled")) {
        showMessage(tr("Cancelled before the fit started."), false);
        results_->clear(tr("Cancelled."));
    } else {
        showMessage(tr("Cannot calibrate: %1").arg(message), true);
        results_->clear(tr("No result: see the message on the left."));
    }
    refreshButtons();
    emit outcomeChanged();
}

QString CalibrateDialog::saveHardwareTo(const QString& path) {
    if (!outcome_ || outcome_->result.cancelled)
        return tr("There is no finished calibration to save; run one first.");
    const core::Status status = core::hardware::saveHardwareFile(
        std::filesystem::path(path.toStdU16String()), outcome_->result.fitted);
    if (!status.ok()) {
        const QString error = QString::fromStdString(status.message());
        showMessage(error, true);
        return error;
    }
    showMessage(
        tr("Wrote %1 (use it with tandem-cli --hardware).").arg(QDir::toNativeSeparators(path)),
        false);
    return {};
}

void CalibrateDialog::useInProject() {
    if (!outcome_ || outcome_->result.cancelled) return;
    emit hardwareChosen(outcome_->result.fitted);
    showMessage(
        tr("The project now uses %1.").arg(QString::fromStdString(outcome_->result.fitted.name)),
        false);
}

void CalibrateDialog::saveClicked() {
    if (!outcome_) return;
    const QString name = QString::fromStdString(outcome_->result.fitted.name) + ".json";
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save hardware file"), QDir(folder_).filePath(name),
                                     tr("Hardware files (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    folder_ = QFileInfo(path).absolutePath();
    saveHardwareTo(path);
}

void CalibrateDialog::refreshButtons() {
    const bool busy = job_->running();
    const bool usable = !busy && outcome_ && !outcome_->result.cancelled;
    run_->setEnabled(!busy);
    cancel_->setEnabled(busy);
    save_->setEnabled(usable);
    use_->setEnabled(usable);
    form_->setEnabled(!busy);
}

void CalibrateDialog::reject() {
    if (job_->running() && !closing_) {
        cancel();
        return;
    }
    QDialog::reject();
}

void CalibrateDialog::closeEvent(QCloseEvent* event) {
    job_->cancel();   // the job's destructor waits for it to stop
    closing_ = true;  // QDialog::closeEvent rejects: close, do not only cancel
    QDialog::closeEvent(event);
    closing_ = false;
}

}  // namespace tandem::ui
