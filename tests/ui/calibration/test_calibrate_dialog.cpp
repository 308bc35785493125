// Hardware ▸ Calibrate from measurements…: the dialog fitted on tests/data/calibration/
// small-runs.csv with a small budget. Oracle: core::calibration::calibrate called directly with
// the same runs, start and options — the table must show its values (formatParameterValue), the
// scatter one point per run at its (measured, validated predicted) times, the summary its
// errors and the worst-runs table its worst run. Also: the bundled single-node A100 set is a
// choice and a fit on it can be cancelled (button and Esc) leaving the dialog usable, malformed
// CSVs, empty ones, bad options and an out-of-bounds start are messages in the dialog, the
// fitted hardware saves as a hardware file that reads back equal, and in the main window the
// Hardware menu opens the dialog and "Use in project" makes the fitted hardware the set-up's in
// one undoable step.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "core/calibration/calibration.h"
#include "core/common/units.h"
#include "core/hardware/hardware_json.h"
#include "core/hardware/preset_library.h"
#include "core/validation/measured_run_set.h"
#include "core/validation/run_predictor.h"
#include "test_paths.h"
#include "tests/ui/test_output_dir.h"
#include "ui/calibration/calibrate_dialog.h"
#include "ui/calibration/calibration_options_form.h"
#include "ui/calibration/calibration_results_view.h"
#include "ui/charts/calibration_chart.h"
#include "ui/main_window.h"
#include "ui/panels/setup_panel.h"
#include "ui/setup_history.h"
#include "ui/view_tabs.h"
#include "ui/workspace.h"

using namespace tandem;
using tandem::ui::CalibrateDialog;
using tandem::ui::CalibrationChart;
namespace cal = tandem::core::calibration;

namespace {

const QStringList kKeys{"accelerator.tensorCoreEfficiency", "accelerator.hbmEfficiency",
                        "accelerator.operatorOverheadSeconds"};
constexpr int kEvaluations = 12;
constexpr int kFolds = 3;
constexpr int kSeed = 7;

QString smallRuns() {
    return QString::fromStdString(test::testDataDir() + "/calibration/small-runs.csv");
}

core::hardware::HardwarePoint preset(const char* name) {
    auto p = core::hardware::PresetLibrary::preset(name);
    if (!p) qFatal("%s", p.message().c_str());
    return *p;
}

// The dialog set up for the small fit, not yet run.
void setUpSmallFit(CalibrateDialog& dialog) {
    auto* form = dialog.form();
    form->setRunsFile(smallRuns());
    QVERIFY(form->selectStartPreset("a100-like"));
    form->setParameters(kKeys);
    form->setFolds(kFolds);
    form->setSeed(kSeed);
    form->setEvaluations(kEvaluations);
}

// Runs the dialog and waits for its answer (a result or a message); false when it would not
// start or did not answer within `ms`.
bool runAndWait(CalibrateDialog& dialog, int ms = 120000) {
    if (!dialog.run()) return false;
    const QDeadlineTimer watchdog(ms);
    while (dialog.running() && !watchdog.hasExpired()) QTest::qWait(20);
    return !dialog.running();
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& content) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write(content);
    return path;
}

}  // namespace

class TestCalibrateDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::isolateUserFolders(); }

    void fitShowsCoresResult() {
        CalibrateDialog dialog(preset("tpuv4-like"));
        dialog.show();
        setUpSmallFit(dialog);
        QSignalSpy outcomes(&dialog, &CalibrateDialog::outcomeChanged);
        QVERIFY(runAndWait(dialog));
        QVERIFY2(dialog.outcome(), qPrintable(dialog.message()));
        QVERIFY(!dialog.messageIsError());
        QCOMPARE(dialog.progressBar()->value(), dialog.progressBar()->maximum());

        // The oracle: calibrate() directly on the same runs, start and options.
        auto set = core::validation::runSetFromFile(smallRuns().toStdString(), "a100-like");
        QVERIFY(set);
        auto predictor = core::validation::RunPredictor::create(set->runs);
        QVERIFY(predictor);
        cal::CalibrationOptions options;
        for (const QString& k : kKeys) options.parameters.push_back(k.toStdString());
        options.folds = kFolds;
        options.seed = kSeed;
        options.maxEvaluations = kEvaluations;
        options.source = smallRuns().toStdString();
        auto oracle = cal::calibrate(**predictor, preset("a100-like"), options);
        QVERIFY2(oracle, oracle ? "" : oracle.message().c_str());
        const cal::CalibrationResult& r = dialog.outcome()->result;
        QVERIFY(r.fitted == oracle->fitted);
        QCOMPARE(r.start.name, std::string("a100-like"));

        // The parameter table: one row per fitted parameter, start and fitted as core formats
        // them, the status from its identifiability.
        const QTableWidget* table = dialog.results()->parameterTable();
        QCOMPARE(table->rowCount(), int(kKeys.size()));
        using View = ui::CalibrationResultsView;
        for (int row = 0; row < table->rowCount(); ++row) {
            const cal::FittedParameter& p = oracle->parameters[std::size_t(row)];
            QCOMPARE(r.parameters[std::size_t(row)].fitted, p.fitted);
            QCOMPARE(table->item(row, View::Parameter)->data(Qt::UserRole).toString(), kKeys[row]);
            QCOMPARE(table->item(row, View::Start)->text(),
                     QString::fromStdString(cal::formatParameterValue(p.parameter, p.start)));
            QCOMPARE(table->item(row, View::Fitted)->text(),
                     QString::fromStdString(cal::formatParameterValue(p.parameter, p.fitted)));
            const QString status = table->item(row, View::Status)->text();
            QVERIFY2(p.pinned()
                         ? status.startsWith("Fitted")
                         : status.startsWith(
                               p.identifiability == cal::Identifiability::Flat ? "Flat" : "Varies"),
                     qPrintable(status));
        }

        // Training and cross-validated errors in the summary.
        const auto percent = [](double f) {
            return QString::fromStdString(core::formatFixed(100 * f, 1) + " %");
        };
        const QString summary = dialog.results()->summary()->text();
        QVERIFY(oracle->validationError);
        QVERIFY2(summary.contains(percent(oracle->trainingError.meanAbsError)),
                 qPrintable(summary));
        QVERIFY2(summary.contains(percent(oracle->validationError->meanAbsError)),
                 qPrintable(summary));

        // The scatter: k-fold, so every run is out of fold, at (measured, out-of-fold predicted).
        const CalibrationChart* chart = dialog.results()->chart();
        const auto points = chart->drawnPoints(CalibrationChart::Series::OutOfSample);
        std::size_t fitting = 0;
        for (const auto& o : oracle->validatedRuns) fitting += o.fits ? 1 : 0;
        QCOMPARE(points.size() + std::size_t(chart->notDrawn()), set->runs.size());
        QCOMPARE(points.size(), fitting);
        QVERIFY(chart->drawnPoints(CalibrationChart::Series::InSample).empty());
        QCOMPARE(chart->drawnPoints(CalibrationChart::Series::Start).size(),
                 std::size_t(std::count_if(oracle->startRuns.begin(), oracle->startRuns.end(),
                                           [](const auto& o) { return o.fits; })));
        std::size_t k = 0;
        for (std::size_t i = 0; i < set->runs.size(); ++i) {
            if (!oracle->validatedRuns[i].fits) continue;
            QCOMPARE(points[k].x(), set->runs[i].measuredSeconds);
            QCOMPARE(points[k].y(), oracle->validatedRuns[i].predictedSeconds);
            ++k;
        }
        QCOMPARE(chart->seriesName(CalibrationChart::Series::OutOfSample),
                 QString("Cross-validated (out of fold)"));
        // Hovering a point names its run.
        const CalibrationChart::Dot& dot = chart->dots().back();
        QVERIFY(chart->pointTextAt(chart->pixelOf(dot))
                    .startsWith(QString::fromStdString(set->runs[dot.run].name)));

        // The worst run first.
        std::size_t worst = 0;
        for (std::size_t i = 0; i < set->runs.size(); ++i)
            if (std::fabs(oracle->validatedRuns[i].error) >
                std::fabs(oracle->validatedRuns[worst].error))
                worst = i;
        const QTableWidget* worstRuns = dialog.results()->worstRunsTable();
        QCOMPARE(worstRuns->rowCount(), ui::CalibrationResultsView::kWorstRuns);
        QCOMPARE(worstRuns->item(0, 0)->text(), QString::fromStdString(set->runs[worst].name));

        QVERIFY(dialog.saveButton()->isEnabled() && dialog.useButton()->isEnabled());
        QVERIFY(!outcomes.isEmpty());

        // A look at the dialog after a fit.
        QTest::qWait(50);
        const QPixmap shot = dialog.grab();
        QVERIFY(shot.save(test::outputPath("calibrate_dialog.png")));
        if (qEnvironmentVariableIsSet("TANDEM_CALIBRATE_PNG"))
            shot.save(qEnvironmentVariable("TANDEM_CALIBRATE_PNG"));

        // Linear axes keep the points.
        dialog.results()->logAxes()->setChecked(false);
        QVERIFY(!chart->logarithmic());
        QCOMPARE(chart->drawnPoints(CalibrationChart::Series::OutOfSample).size(), fitting);
    }

    void savesTheFittedHardware() {
        CalibrateDialog dialog(preset("a100-like"));
        setUpSmallFit(dialog);
        dialog.form()->setFolds(0);
        QVERIFY(runAndWait(dialog));
        QVERIFY2(dialog.outcome(), qPrintable(dialog.message()));
        const QString path = test::outputPath("fitted-hardware.json");
        QCOMPARE(dialog.saveHardwareTo(path), QString());
        auto read = core::hardware::loadHardwareFile(path.toStdString());
        QVERIFY2(read, read ? "" : read.message().c_str());
        QVERIFY(*read == dialog.outcome()->result.fitted);
        QCOMPARE(read->name, std::string("a100-like-calibrated"));
        // A folder is not a file: an error in the dialog, nothing crashes.
        const QString error = dialog.saveHardwareTo(test::outputDir());
        QVERIFY(!error.isEmpty());
        QVERIFY(dialog.messageIsError());
    }

    void errorsAreMessagesAndTheDialogStaysUsable() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        CalibrateDialog dialog(preset("a100-like"));
        setUpSmallFit(dialog);

        // Malformed CSV: the reader's message names the file and line.
        QFile small(smallRuns());
        QVERIFY(small.open(QIODevice::ReadOnly));
        QByteArray bad = small.readAll();
        bad.replace(",1,8,2,512,16,4,512,1,1,1,23.437", ",one,8,2,512,16,4,512,1,1,1,23.437");
        dialog.form()->setRunsFile(writeFile(dir, "bad-runs.csv", bad));
        QVERIFY(runAndWait(dialog));
        QVERIFY(!dialog.outcome());
        QVERIFY(dialog.messageIsError());
        QVERIFY2(dialog.message().contains("bad-runs.csv") && dialog.message().contains("line"),
                 qPrintable(dialog.message()));
        QVERIFY(!dialog.saveButton()->isEnabled() && !dialog.useButton()->isEnabled());
        QVERIFY(dialog.runButton()->isEnabled());

        // A header without runs, and a missing file.
        dialog.form()->setRunsFile(writeFile(dir, "empty.csv", bad.left(bad.indexOf('\n') + 1)));
        QVERIFY(runAndWait(dialog));
        QVERIFY(!dialog.outcome() && dialog.messageIsError());
        dialog.form()->setRunsFile(dir.filePath("missing.csv"));
        QVERIFY(runAndWait(dialog));
        QVERIFY2(dialog.messageIsError() && dialog.message().contains("missing.csv"),
                 qPrintable(dialog.message()));

        // Bad options are refused before anything runs.
        dialog.form()->setRunsFile(smallRuns());
        dialog.form()->setParameters({});
        QVERIFY(!dialog.run());
        QVERIFY(dialog.messageIsError() && dialog.message().contains("parameter"));
        dialog.form()->setParameters(kKeys);
        dialog.form()->setFolds(1);
        QVERIFY(!dialog.run());
        QVERIFY(dialog.messageIsError() && dialog.message().contains("fold"));
        dialog.form()->setFolds(0);
        dialog.form()->setRunsFile(QString());
        QVERIFY(!dialog.run());
        QVERIFY(dialog.messageIsError());

        // A start outside the physical bounds says which parameter.
        auto slow = preset("a100-like");
        slow.accelerator.tensorCoreEfficiency = 0.1;
        slow.name = "slow-chip";
        dialog.setProjectHardware(slow);
        QVERIFY(dialog.form()->selectStartPreset(QString()));
        dialog.form()->setRunsFile(smallRuns());
        QVERIFY(runAndWait(dialog));
        QVERIFY2(dialog.messageIsError() && dialog.message().contains("tensorCoreEfficiency"),
                 qPrintable(dialog.message()));

        // Still usable: a good fit now succeeds.
        QVERIFY(dialog.form()->selectStartPreset("a100-like"));
        QVERIFY(runAndWait(dialog));
        QVERIFY2(dialog.outcome() && !dialog.messageIsError(), qPrintable(dialog.message()));
    }

    void cancelAndEscape() {
        CalibrateDialog dialog(preset("a100-like"));
        dialog.show();
        QVERIFY(dialog.form()->selectBundledSet("single-node-a100"));
        QVERIFY(!dialog.form()->runsFileEdit()->isEnabled());
        QVERIFY(dialog.form()->selectStartPreset("a100-like"));
        dialog.form()->setEvaluations(5000);  // minutes: only a cancel ends it soon
        for (const char* key : {"Cancel", "Esc"}) {
            QVERIFY(dialog.run());
            QVERIFY(dialog.running() && dialog.cancelButton()->isEnabled());
            QVERIFY(!dialog.runButton()->isEnabled());
            QTest::qWait(300);
            if (QByteArray(key) == "Cancel")
                QTest::mouseClick(dialog.cancelButton(), Qt::LeftButton);
            else
                QTest::keyClick(&dialog, Qt::Key_Escape);
            QVERIFY(dialog.isVisible());  // Esc while running cancels, it does not close
            QTRY_VERIFY_WITH_TIMEOUT(!dialog.running(), 60000);
            QVERIFY2(dialog.message().startsWith("Cancelled"), qPrintable(dialog.message()));
            QVERIFY(!dialog.messageIsError());
            if (dialog.outcome()) QVERIFY(dialog.outcome()->result.cancelled);
            QVERIFY(!dialog.saveButton()->isEnabled() && !dialog.useButton()->isEnabled());
            QVERIFY(dialog.runButton()->isEnabled());
        }
        QTest::keyClick(&dialog, Qt::Key_Escape);  // nothing runs: Esc closes
        QVERIFY(!dialog.isVisible());
    }

    void hardwareMenuAndUseInProject() {
        ui::MainWindow window;
        window.show();
        QAction* action = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->text() == "&Hardware")
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == QString("Calibrate from measurements…")) action = a;
        QVERIFY(action);
        QVERIFY(!action->toolTip().isEmpty() && !action->statusTip().isEmpty());
        action->trigger();
        CalibrateDialog* dialog = window.calibrateDialog();
        QVERIFY(dialog && dialog->isVisible());
        const auto before = window.setup()->hardware();
        QVERIFY(dialog->form()->hardwareChooser()->currentText().contains(
            QString::fromStdString(before.name)));

        setUpSmallFit(*dialog);
        dialog->form()->setFolds(0);
        QVERIFY(runAndWait(*dialog));
        QVERIFY2(dialog->outcome(), qPrintable(dialog->message()));
        const auto fitted = dialog->outcome()->result.fitted;
        QTest::mouseClick(dialog->useButton(), Qt::LeftButton);
        const auto after = window.setup()->hardware();
        QCOMPARE(after.name, fitted.name);
        QVERIFY(after.accelerator == fitted.accelerator);
        QVERIFY(after.cluster == fitted.cluster);
        // The dialog's project choice follows the set-up.
        QVERIFY(dialog->form()->hardwareChooser()->itemText(0).contains("a100-like-calibrated"));

        // One undo step goes back to the hardware before.
        QUndoStack* stack = window.workspace()->history()->stack();
        QCOMPARE(stack->undoText(), QString("Use calibrated hardware"));
        stack->undo();
        QVERIFY(window.setup()->hardware().accelerator == before.accelerator);
        QCOMPARE(window.setup()->hardware().name, before.name);
        dialog->close();
        QTRY_VERIFY(!window.calibrateDialog());
    }
};

QTEST_MAIN(TestCalibrateDialog)
#include "test_calibrate_dialog.moc"
