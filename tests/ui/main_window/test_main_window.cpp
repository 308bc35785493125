// The main window as a user drives it: the evaluated default (Gantt bars =
// scheduled operators, one device-map cell per device, a layers model that passes
// QAbstractItemModelTester), a small search streaming into the design space and a Cancel that
// stops a large one (no more than two points per worker finish after it; meanwhile the status
// bar reads "n / total points · rate · ETA" beside a Cancel button), save → reopen of a
// project reproducing every setting, and invalid input refused with a visible reason. Nothing is
// timed (bench_responsiveness measures event-loop gaps and cancel latency); waits have
// generous watchdogs.
#include <qcustomplot.h>
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "core/common/units.h"
#include "core/search/search_grid.h"
#include "tests/ui/main_window/window_test_support.h"
#include "tests/ui/test_output_dir.h"
#include "ui/charts/chart_widget.h"
#include "ui/charts/design_space_chart.h"
#include "ui/charts/device_map_chart.h"
#include "ui/charts/gantt_chart.h"
#include "ui/editors/cluster_training_editor.h"
#include "ui/editors/hardware_editor.h"
#include "ui/editors/parameter_editor.h"
#include "ui/editors/search_space_editor.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/models/layer_table_model.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/placement_view.h"
#include "ui/panels/schedule_view.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/view_tabs.h"
#include "ui/widgets/elided_label.h"
#include "ui/workspace.h"

using namespace tandem;

namespace {
constexpr std::int64_t kMiB = std::int64_t(1) << 20;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

bool waitForPlacement(ui::MainWindow& window, int ms = 120000) {
    const QDeadlineTimer watchdog(ms);
    while (!watchdog.hasExpired()) {
        if (window.workspace()->placement() && !window.workspace()->pointJob()->busy()) return true;
        QTest::qWait(20);
    }
    return false;
}

core::search::SearchSpace smallSpace(int tensorCoreCounts) {
    auto s = core::search::SearchSpace::phaze();
    s.name = "ui-test";
    s.numTensorCores = {};
    for (int i = 0, n = 2; i < tensorCoreCounts; ++i, n *= 2) s.numTensorCores.push_back(n);
    s.tensorCoreRows = {64, 128};
    s.tensorCoreCols = {128};
    s.numVectorCores = {2, 4};
    s.globalBufferBytes = {32 * kMiB, 128 * kMiB};
    s.microbatchSizes = {1, 2};
    s.hbmCapacityBytes = {32 * kGiB};
    return s;
}
// 35,008 points: minutes to search, still running when the test cancels it.
core::search::SearchSpace largeSpace() {
    auto s = core::search::SearchSpace::phaze();
    s.name = "ui-test-large";
    s.numTensorCores = core::search::SearchSpace::powersOfTwo(1, 64);
    s.tensorCoreRows = core::search::SearchSpace::powersOfTwo(8, 256);
    s.tensorCoreCols = core::search::SearchSpace::powersOfTwo(8, 256);
    s.numVectorCores = core::search::SearchSpace::powersOfTwo(1, 64);
    s.globalBufferBytes = {16 * kMiB, 64 * kMiB};
    s.microbatchSizes = {1, 2, 4, 8};
    s.hbmCapacityBytes = {32 * kGiB, 80 * kGiB};
    return s;
}
}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        // Recent projects and the last folder go to QSettings: under this process's temporary
        // folder, not the home folder.
        tandem::test::isolateUserFolders();
        QVERIFY(QSettings().fileName().startsWith(tandem::test::outputDir()));
    }

    void init() { QSettings().clear(); }

    void opensEvaluatedDefault() {
        ui::MainWindow window;
        window.show();
        QVERIFY(waitForPlacement(window));
        QVERIFY2(window.workspace()->lastError().isEmpty(),
                 qPrintable(window.workspace()->lastError()));
        const auto placement = window.workspace()->placement();
        QCOMPARE(placement->widths.front().graph->name(), std::string("gpt3-175b"));
        QVERIFY(placement->result.plan);
        // Gantt: one bar per scheduled operator (Fused one-core operators draw a TC and a VC
        // bar), counted independently from the schedule the view shows.
        auto* view = window.views()->scheduleView();
        const auto& width = placement->widths[std::size_t(view->widthIndex())];
        const auto& unique = width.schedules->unique[std::size_t(view->uniqueLayer())];
        const auto& schedule = view->direction() == core::schedule::Direction::Forward
                                   ? *unique.forward
                                   : *unique.backward;
        int scheduled = 0;
        for (const auto& task : schedule.tasks)
            if (task.mode != core::schedule::TaskMode::None && task.durationSeconds > 0)
                ++scheduled;
        QVERIFY(scheduled > 0);
        QCOMPARE(view->chart()->operatorCount(), scheduled);
        QVERIFY(view->chart()->barCount() >= scheduled);
        // Device map: one cell per device of the 1,024-device cluster.
        QCOMPARE(window.views()->placementView()->deviceMap()->cellCount(), 1024);
        // Layers: a valid item model with one row per layer.
        QAbstractItemModelTester tester(window.views()->layerModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(window.views()->layerModel()->rowCount(), 98);
        // Comparison before any search: the point against its fixed strategy.
        QVERIFY(window.views()->comparisonView()->columnCount() >= 2);

        // Chart exports: PNG, PDF and SVG by suffix, written whole; anything else refused.
        QTemporaryDir dir;
        const std::pair<const char*, QByteArray> formats[] = {{"gantt.png", QByteArray("\x89PNG")},
                                                              {"gantt.pdf", QByteArray("%PDF")},
                                                              {"gantt.svg", QByteArray("<?xml")}};
        for (const auto& [name, magic] : formats) {
            const QString path = dir.filePath(name);
            QVERIFY2(view->chart()->exportTo(path).isEmpty(), name);
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(file.read(magic.size()) == magic, name);
            QVERIFY(file.size() > 1000);
        }
        QVERIFY(!view->chart()->exportTo(dir.filePath("gantt.bmp")).isEmpty());
        QVERIFY(!QFile::exists(dir.filePath("gantt.bmp")));
        // A caption goes into the file only: the chart on screen keeps its layout.
        const int rows = view->chart()->plot()->plotLayout()->rowCount();
        const QString captioned = dir.filePath("captioned.svg");
        QVERIFY(view->chart()->exportTo(captioned, 0, 0, "Tandem caption of gpt3-175b").isEmpty());
        QFile svg(captioned);
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("Tandem caption of gpt3-175b"));
        QCOMPARE(view->chart()->plot()->plotLayout()->rowCount(), rows);
    }

    void editingReEvaluatesInTheBackground() {
        ui::MainWindow window;
        window.show();
        QVERIFY(waitForPlacement(window));
        const double before =
            window.workspace()->placement()->result.plan->throughputSamplesPerSecond;
        auto* form = window.setup()->hardwareEditor()->form();
        QVERIFY(form->setValue("numTensorCores", 16));
        QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->pointJob()->busy(), 60000);
        QVERIFY(waitForPlacement(window));
        QCOMPARE(window.workspace()
                     ->placement()
                     ->widths.front()
                     .schedules->unique.front()
                     .forward->numTensorCores,
                 16);
        QVERIFY(window.workspace()->placement()->result.plan->throughputSamplesPerSecond != before);
    }

    void searchStreamsAndCancelStops() {
        ui::MainWindow window;
        window.show();
        QVERIFY(waitForPlacement(window));
        QVERIFY(window.workspace()->setModel("bert-large"));
        auto space = smallSpace(3);
        window.setup()->searchSpaceEditor()->setSpace(space);
        QVERIFY(window.setup()->searchSpaceEditor()->isValid());
        space.base = window.setup()->hardware();
        const auto points = core::search::SearchGrid::create(space)->pointCount();

        QSignalSpy batches(window.workspace()->searchJob(), &ui::SearchJob::pointsReady);
        QSignalSpy finished(window.workspace()->searchJob(), &ui::SearchJob::finished);
        window.startSearch();
        QVERIFY(window.workspace()->searchJob()->running());
        QVERIFY(finished.wait(300000));
        qInfo("search of %lld points: %lld batches", (long long)points, (long long)batches.count());
        QVERIFY(batches.count() >= 1);
        QCOMPARE(window.views()->designSpace()->pointCount(), points);
        QVERIFY(window.workspace()->results());
        QCOMPARE(qint64(window.workspace()->results()->points().size()), points);
        QVERIFY(window.views()->comparisonView()->columnCount() >= 4);

        // A large space (minutes of points), cancelled after the first batch: partial results
        // are kept.
        window.setup()->searchSpaceEditor()->setSpace(largeSpace());
        QSignalSpy batches2(window.workspace()->searchJob(), &ui::SearchJob::pointsReady);
        QSignalSpy finished2(window.workspace()->searchJob(), &ui::SearchJob::finished);
        window.startSearch();
        QVERIFY(batches2.wait(120000));
        // The status bar: progress against the grid's points, rate and ETA, and Cancel.
        auto large = largeSpace();
        large.base = window.setup()->hardware();
        const QString total = QString::fromStdString(
            core::formatCount(double(core::search::SearchGrid::create(large)->pointCount())));
        auto* readout = window.statusBar()->findChild<ui::ElidedLabel*>("liveReadout");
        QPushButton* cancel = nullptr;
        for (auto* button : window.statusBar()->findChildren<QPushButton*>())
            if (button->text() == "Cancel") cancel = button;
        QVERIFY(readout && cancel && cancel->isVisible());
        QTRY_VERIFY2_WITH_TIMEOUT(readout->fullText().contains(" / " + total + " points") &&
                                      readout->fullText().contains("points/s") &&
                                      readout->fullText().contains("ETA"),
                                  qPrintable(readout->fullText()), 60000);
        // Clicking a streamed point while the search runs evaluates that point's chip.
        const auto firstBatch =
            batches2.at(0).at(0).value<std::vector<core::search::EvaluatedPoint>>();
        const auto picked = std::find_if(firstBatch.begin(), firstBatch.end(),
                                         [](const auto& p) { return p.feasible(); });
        QVERIFY(picked != firstBatch.end());
        QSignalSpy answers(window.workspace()->pointJob(), &ui::PointEvaluationJob::finished);
        emit window.views()->designSpace()->pointSelected(picked->point.index);
        QVERIFY(window.workspace()->pointJob()->busy());
        QCOMPARE(window.views()->designSpace()->selectedPointIndex(), picked->point.index);
        const quint64 pickedId = window.workspace()->pointJob()->latestId();
        QTRY_VERIFY_WITH_TIMEOUT(!answers.isEmpty(), 120000);
        QCOMPARE(answers.at(0).at(0).value<quint64>(), pickedId);
        const auto pickedPlacement =
            answers.at(0).at(1).value<std::shared_ptr<const core::placement::ModelPlacement>>();
        const auto& forward = *pickedPlacement->widths.front().schedules->unique.front().forward;
        QCOMPARE(qint64(forward.numTensorCores), qint64(picked->point.accelerator.numTensorCores));
        QCOMPARE(qint64(pickedPlacement->problem.training.microbatch),
                 qint64(picked->point.microbatchSize));
        QVERIFY(window.workspace()->searchJob()->running());
        // The explorer starts nothing after Cancel: only points already running may finish.
        const std::int64_t before = window.workspace()->searchJob()->pointsFinished();
        window.workspace()->cancelSearch();
        QVERIFY(finished2.count() > 0 || finished2.wait(60000));
        const auto after = std::int64_t(window.workspace()->results()->points().size()) - before;
        qInfo("cancelled after %lld points; %lld more finished", (long long)before,
              (long long)after);
        QVERIFY(after >= 0);
        QVERIFY(after <= 2 * std::int64_t(window.workspace()->results()->statistics().threads));
        QVERIFY(window.workspace()->results()->statistics().cancelled);
        QVERIFY(!cancel->isVisible());
        QVERIFY2(readout->fullText().contains("cancelled"), qPrintable(readout->fullText()));
        QVERIFY(window.workspace()->results()->points().size() > 0);
        QCOMPARE(window.views()->designSpace()->pointCount(),
                 qint64(window.workspace()->results()->points().size()));
        // Partial results say so: the design-space title and the comparison.
        QVERIFY2(window.views()->designSpace()->titleText().contains("partial"),
                 qPrintable(window.views()->designSpace()->titleText()));
        QVERIFY2(window.views()->comparisonView()->heading().contains("partial"),
                 qPrintable(window.views()->comparisonView()->heading()));
    }

    void projectRoundTrip() {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.tandem");
        core::io::ProjectFile saved;
        {
            ui::MainWindow window;
            QVERIFY(window.workspace()->setModel("llama2-7b"));
            QVERIFY(window.setup()->hardwareEditor()->form()->setValue("globalBufferBytes",
                                                                       64.0 * kMiB));
            QVERIFY(window.setup()->clusterTrainingEditor()->trainingForm()->setValue("globalBatch",
                                                                                      2048));
            window.setup()->searchSpaceEditor()->setSpace(smallSpace(2));
            window.setup()->searchSpaceEditor()->setExplorer(core::search::ExplorerKind::Pruned);
            QVERIFY(window.workspace()->session()->isModified());
            QVERIFY(window.workspace()->saveProject(path));
            QVERIFY(!window.workspace()->session()->isModified());
            saved = window.setup()->project();
        }
        ui::MainWindow reopened;
        QVERIFY(reopened.workspace()->openProject(path));
        core::io::ProjectFile loaded = reopened.setup()->project();
        QCOMPARE(loaded.model, saved.model);
        QVERIFY(loaded.hardware == saved.hardware);
        QVERIFY(loaded.training == saved.training);
        QVERIFY(loaded.search == saved.search);
        QVERIFY(loaded.explorer == core::search::ExplorerKind::Pruned);
        QCOMPARE(loaded.training.globalBatch, std::int64_t(2048));
        QCOMPARE(loaded.hardware.accelerator.globalBufferBytes, 64 * kMiB);
        QVERIFY(!reopened.workspace()->session()->isModified());
        QCOMPARE(reopened.workspace()->session()->recentFiles().value(0),
                 QFileInfo(path).absoluteFilePath());
    }

    void invalidInputIsRefusedWithAReason() {
        ui::MainWindow window;
        window.show();
        auto* form = window.setup()->hardwareEditor()->form();
        const double before = form->value("numTensorCores");
        QVERIFY(!form->setValue("numTensorCores", 0));
        QCOMPARE(form->value("numTensorCores"), before);
        QVERIFY(!form->errorText("numTensorCores").isEmpty());
        bool shown = false;
        for (auto* label : window.findChildren<QLabel*>())
            shown |=
                label->isVisibleTo(&window) && label->text() == form->errorText("numTensorCores");
        QVERIFY2(shown, qPrintable(form->errorText("numTensorCores")));
        // A model whose heads t cannot divide is refused by the model chooser with a reason.
        QTemporaryDir dir;
        const QString broken = dir.filePath("broken.json");
        QVERIFY(window_test::writeFile(broken, "{\"format\": \"tandem-model\", \"version\": 1}"));
        QVERIFY(!window.workspace()->setModel(broken));
        QVERIFY(!window.workspace()->lastError().isEmpty());
        QCOMPARE(window.setup()->modelReference(), QString("gpt3-175b"));  // nothing changed
        // A project that does not parse is refused and the open one stays.
        const QString bad = dir.filePath("bad.tandem");
        QVERIFY(window_test::writeFile(bad, "{\"format\": \"tandem-project\", \"version\": 99}"));
        QTimer::singleShot(0, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->accept();
        });
        QVERIFY(!window.workspace()->openProject(bad));
        QVERIFY(window.workspace()->lastError().contains("99"));
    }

    void errorsDoNotHideTheLiveReadout() {
        // A model that fails to load reports in the status bar, but the live "model on chip"
        // readout stays visible and keeps updating through later edits; the
        // error is a transient message, not the bar's permanent state.
        ui::MainWindow window;
        window.show();
        QVERIFY(waitForPlacement(window));
        // The status bar's live readout, saying "<model> on <chip>: …" (elided when narrow).
        auto* readout = window.statusBar()->findChild<ui::ElidedLabel*>("liveReadout");
        QVERIFY(readout);
        QVERIFY(readout->isVisible());
        const QString before = readout->fullText();
        QVERIFY2(before.contains("samples/s"), qPrintable(before));
        const QString error = "not-a-model.json: missing \"format\": \"tandem-model\"";
        emit window.setup()->modelLoadFailed(error);
        QCOMPARE(window.statusBar()->currentMessage(), error);
        QVERIFY(readout->isVisible());
        QVERIFY(window.workspace()->setModel("bert-large"));
        QVERIFY(waitForPlacement(window));
        QVERIFY(readout->isVisible());
        QVERIFY2(readout->fullText().contains("bert-large"), qPrintable(readout->fullText()));
        QVERIFY(window.workspace()->setModel("gpt3-175b"));
        QVERIFY(waitForPlacement(window));
        QVERIFY(readout->isVisible());
        QVERIFY2(readout->fullText().contains("gpt3-175b"), qPrintable(readout->fullText()));
    }

    void malformedModelFilesOpenAnErrorDialog_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("fileName");
        QTest::newRow("0-byte json") << QByteArray() << "empty.json";
        QTest::newRow("truncated onnx")
            << QByteArray::fromHex("080712046f6e6e783affff") << "broken.onnx";
        QTest::newRow("unknown model_type")
            << QByteArray(R"({"model_type": "mamba"})") << "config.json";
        QTest::newRow("wrong field type")
            << QByteArray(R"({"model_type": "gpt2", "n_layer": "many", "n_embd": 64,
                             "n_head": 4, "n_positions": 32, "vocab_size": 100})")
            << "config.json";
    }

    void malformedModelFilesOpenAnErrorDialog() {
        QFETCH(QByteArray, content);
        QFETCH(QString, fileName);
        ui::MainWindow window;
        window.show();
        QTemporaryDir dir;
        const QString path = dir.filePath(fileName);
        QVERIFY(window_test::writeFile(path, content));
        QString dialogText;
        QTimer::singleShot(0, [&dialogText] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                dialogText = box->text();
                box->accept();
            }
        });
        QVERIFY(!window.openModelPath(path));
        QVERIFY2(!dialogText.isEmpty(), "no error dialog was shown");
        QCOMPARE(dialogText, window.workspace()->lastError());
        QVERIFY(dialogText.contains(fileName));
        // A directory is refused the same way.
        QTimer::singleShot(0, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
                box->accept();
        });
        QVERIFY(!window.openModelPath(dir.path()));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
