// Nothing heavy on the GUI thread (issue 25): models picked in the set-up, ticked under "Also
// search for" or named by a project load in the background (ModelLoadJob), and project files
// are read and written by ProjectFileJob. Driven as a user drives the dock and the window; the
// oracles are what the set-up holds afterwards: the newest pick wins, Cancel keeps the loaded
// model, a model that fails puts the chooser back, a background save leaves the window
// unmodified only when the set-up is still what was saved, and Save then Quit keeps the save.
// Nothing is timed; waits have generous watchdogs.
#include <QApplication>
#include <QComboBox>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "core/io/project_file.h"
#include "tests/ui/main_window/window_test_support.h"
#include "tests/ui/test_output_dir.h"
#include "ui/editors/hardware_editor.h"
#include "ui/editors/parameter_editor.h"
#include "ui/jobs/model_load_job.h"
#include "ui/jobs/project_file_job.h"
#include "ui/main_window.h"
#include "ui/panels/extra_models_list.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/view_tabs.h"
#include "ui/workspace.h"

using namespace tandem;

namespace {
int comboIndex(ui::SetupPanel& setup, const QString& reference) {
    return setup.modelChooser()->findData(reference);
}
QString comboReference(ui::SetupPanel& setup) {
    return setup.modelChooser()->currentData().toString();
}
// Lets the answers of loads that were cancelled or superseded arrive (they must be dropped).
void drain(ui::SetupPanel& setup) {
    setup.modelLoadJob()->waitForDone();
    QTest::qWait(20);
}
}  // namespace

class TestModelLoading : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { tandem::test::isolateUserFolders(); }
    void init() { QSettings().clear(); }

    void aModelPickedInTheChooserLoadsInTheBackground() {
        ui::SetupPanel setup;
        QCOMPARE(setup.modelReference(), QString("gpt3-175b"));
        QSignalSpy ended(&setup, &ui::SetupPanel::loadEnded);
        QSignalSpy point(&setup, &ui::SetupPanel::pointChanged);
        setup.modelChooser()->setCurrentIndex(comboIndex(setup, "bert-large"));
        QVERIFY(setup.isLoading());
        auto* cancel = setup.findChild<QPushButton*>("cancelModelLoad");
        QVERIFY(cancel && cancel->isVisibleTo(&setup));
        QVERIFY(ended.wait(60000));
        QCOMPARE(ended[0][1].toBool(), true);
        QCOMPARE(setup.modelReference(), QString("bert-large"));
        QCOMPARE(comboReference(setup), QString("bert-large"));
        QVERIFY2(setup.modelSummary().contains("parameters"), qPrintable(setup.modelSummary()));
        QVERIFY(point.count() >= 1);
        QVERIFY(!setup.isLoading());
        QVERIFY(!cancel->isVisibleTo(&setup));
    }

    void aNewerPickSupersedesTheOlderOne() {
        ui::SetupPanel setup;
        QSignalSpy ended(&setup, &ui::SetupPanel::loadEnded);
        const quint64 first = setup.pickModel("gpt2-xl");
        const quint64 second = setup.pickModel("bert-large");
        QVERIFY(first != second);
        // The older load ends at once, neither adopted nor failed.
        QCOMPARE(ended.size(), 1);
        QCOMPARE(ended[0][0].value<quint64>(), first);
        QCOMPARE(ended[0][1].toBool(), false);
        QVERIFY(ended[0][2].toString().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 2, 60000);
        QCOMPARE(ended[1][0].value<quint64>(), second);
        QCOMPARE(ended[1][1].toBool(), true);
        drain(setup);
        QCOMPARE(ended.size(), 2);
        QCOMPARE(setup.modelReference(), QString("bert-large"));
    }

    void cancelKeepsTheLoadedModel() {
        ui::SetupPanel setup;
        QSignalSpy ended(&setup, &ui::SetupPanel::loadEnded);
        QSignalSpy point(&setup, &ui::SetupPanel::pointChanged);
        const QString summary = setup.modelSummary();
        setup.modelChooser()->setCurrentIndex(comboIndex(setup, "gpt2-xl"));
        QCOMPARE(comboReference(setup), QString("gpt2-xl"));
        QVERIFY(setup.isLoading());
        setup.findChild<QPushButton*>("cancelModelLoad")->click();
        QVERIFY(!setup.isLoading());  // the GUI is free at once
        QCOMPARE(ended.size(), 1);
        QCOMPARE(ended[0][1].toBool(), false);
        QCOMPARE(comboReference(setup), QString("gpt3-175b"));
        drain(setup);
        QCOMPARE(setup.modelReference(), QString("gpt3-175b"));
        QCOMPARE(setup.modelSummary(), summary);
        QCOMPARE(point.count(), 0);
        QCOMPARE(ended.size(), 1);
    }

    void aModelThatFailsPutsTheChooserBack() {
        QTemporaryDir dir;
        const QString path = dir.filePath("model.json");
        ui::SetupPanel setup;
        // A model file the chooser lists, loaded once, then broken on disk.
        QVERIFY(window_test::writeFile(path, R"({"model_type": "gpt2", "n_layer": 2, "n_embd": 64,
            "n_head": 4, "n_positions": 32, "vocab_size": 100})"));
        QVERIFY(setup.setModel(path));
        QVERIFY(setup.setModel("bert-large"));
        QVERIFY(window_test::writeFile(path, "{\"model_type\": \"mamba\"}"));
        QSignalSpy failed(&setup, &ui::SetupPanel::modelLoadFailed);
        QSignalSpy ended(&setup, &ui::SetupPanel::loadEnded);
        setup.modelChooser()->setCurrentIndex(comboIndex(setup, path));
        QVERIFY(ended.wait(60000));
        QCOMPARE(ended[0][1].toBool(), false);
        QVERIFY2(ended[0][2].toString().contains("model.json"), qPrintable(ended[0][2].toString()));
        QCOMPARE(failed.size(), 1);
        QCOMPARE(setup.modelReference(), QString("bert-large"));
        QCOMPARE(comboReference(setup), QString("bert-large"));
    }

    void aTickedExtraModelJoinsTheSearchOnceLoaded() {
        ui::SetupPanel setup;
        QListWidget* list = setup.extraModelsList()->list();
        QListWidgetItem* row = nullptr;
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->data(Qt::UserRole).toString() == "opt-350m") row = list->item(i);
        QVERIFY(row);
        QSignalSpy search(&setup, &ui::SetupPanel::searchChanged);
        row->setCheckState(Qt::Checked);
        QCOMPARE(setup.extraModels(), QStringList{"opt-350m"});  // checked at once
        QTRY_VERIFY_WITH_TIMEOUT(search.count() >= 1, 60000);
        QVERIFY(!setup.extraModelsList()->loading());
        QCOMPARE(setup.searchRequest().models.size(), std::size_t(2));
        QCOMPARE(setup.searchRequest().models[1]->name(), std::string("opt-350m"));
        // Cancelled while loading: unchecked again, the search as it was.
        QListWidgetItem* other = nullptr;
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->data(Qt::UserRole).toString() == "gpt2-xl") other = list->item(i);
        QVERIFY(other);
        other->setCheckState(Qt::Checked);
        QVERIFY(setup.extraModelsList()->loading());
        setup.cancelLoading();
        QCOMPARE(other->checkState(), Qt::Unchecked);
        setup.extraModelsList()->loadJob()->waitForDone();
        QTest::qWait(20);
        QCOMPARE(setup.extraModels(), QStringList{"opt-350m"});
        QCOMPARE(setup.searchRequest().models.size(), std::size_t(2));
    }

    void aProjectAppliesOnceItsModelsHaveLoaded() {
        ui::SetupPanel setup;
        core::io::ProjectFile project = ui::SetupPanel::defaultProject();
        project.model = "bert-large";
        project.searchModels = {"opt-350m"};
        QSignalSpy about(&setup, &ui::SetupPanel::projectAboutToApply);
        QSignalSpy ended(&setup, &ui::SetupPanel::loadEnded);
        const quint64 id = setup.applyProjectInBackground(project);
        QCOMPARE(setup.modelReference(), QString("gpt3-175b"));  // nothing changes meanwhile
        QVERIFY(ended.wait(60000));
        QCOMPARE(about.size(), 1);
        QCOMPARE(about[0][0].value<quint64>(), id);
        QCOMPARE(ended[0][1].toBool(), true);
        QCOMPARE(setup.modelReference(), QString("bert-large"));
        QCOMPARE(setup.extraModels(), QStringList{"opt-350m"});
        QCOMPARE(setup.searchRequest().models.size(), std::size_t(2));
        // A project whose model cannot be loaded is refused; nothing changes.
        project.model = "/no/such/model.onnx";
        setup.applyProjectInBackground(project);
        QVERIFY(ended.wait(60000));
        QCOMPARE(ended[1][1].toBool(), false);
        QVERIFY(ended[1][2].toString().contains("/no/such/model.onnx"));
        QCOMPARE(setup.modelReference(), QString("bert-large"));
    }

    void aBackgroundSaveMarksTheSavedSetUp() {
        ui::MainWindow window;
        QTemporaryDir dir;
        const QString path = dir.filePath("p.tandem");
        auto* form = window.setup()->hardwareEditor()->form();
        const double cores = form->value("numTensorCores");
        QVERIFY(form->setValue("numTensorCores", 2 * cores));
        QVERIFY(window.workspace()->session()->isModified());
        QSignalSpy saved(window.workspace()->projectFiles(), &ui::ProjectFileJob::saved);
        window.workspace()->saveProjectInBackground(path);
        QVERIFY(saved.wait(60000));
        QVERIFY(!window.workspace()->session()->isModified());
        QVERIFY(!window.isWindowModified());
        QCOMPARE(window.workspace()->session()->path(), QFileInfo(path).absoluteFilePath());
        QVERIFY(window.windowTitle().contains("p.tandem"));
        // Edited while the save runs: still modified once it is written.
        window.workspace()->saveProjectInBackground(path);
        QVERIFY(form->setValue("numTensorCores", cores));
        QVERIFY(saved.wait(60000));
        QVERIFY(window.workspace()->session()->isModified());
        QVERIFY(window.isWindowModified());
        const auto read = core::io::ProjectFile::load(path.toStdString());
        QVERIFY(read);
        QCOMPARE(read->hardware.accelerator.numTensorCores, std::int64_t(2 * cores));
    }

    void saveThenQuitKeepsTheSave() {
        QTemporaryDir dir;
        const QString path = dir.filePath("quit.tandem");
        bool asked = false;
        {
            ui::MainWindow window;
            window.show();
            QVERIFY(window.workspace()->setModel("gpt2-xl"));
            QVERIFY(window.workspace()->session()->isModified());
            window.workspace()->saveProjectInBackground(path);
            // Any "Unsaved changes" question would be a lost save: answer it Cancel and note it.
            QTimer::singleShot(0, [&asked] {
                if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                    asked = true;
                    box->reject();
                }
            });
            QVERIFY(window.close());
        }
        QVERIFY(!asked);
        const auto read = core::io::ProjectFile::load(path.toStdString());
        QVERIFY2(read, read ? "" : read.message().c_str());
        QCOMPARE(read->model, std::string("gpt2-xl"));
    }

    void aProjectOpensInTheBackground() {
        QTemporaryDir dir;
        const QString path = dir.filePath("open.tandem");
        core::io::ProjectFile project = ui::SetupPanel::defaultProject();
        project.model = "opt-350m";
        QVERIFY(project.save(path.toStdString()));
        ui::MainWindow window;
        window.workspace()->openProjectInBackground(path);
        QCOMPARE(window.setup()->modelReference(), QString("gpt3-175b"));
        QTRY_COMPARE_WITH_TIMEOUT(window.workspace()->session()->path(),
                                  QFileInfo(path).absoluteFilePath(), 60000);
        QCOMPARE(window.setup()->modelReference(), QString("opt-350m"));
        QVERIFY(!window.workspace()->session()->isModified());
        QVERIFY(window.workspace()->session()->recentFiles().contains(
            QFileInfo(path).absoluteFilePath()));
        // Cancelled while its model loads: the open project stays.
        project.model = "bert-large";
        const QString other = dir.filePath("other.tandem");
        QVERIFY(project.save(other.toStdString()));
        bool cancelled = false;
        // As soon as the file is read the set-up loads its model: Cancel then.
        connect(window.workspace()->projectFiles(), &ui::ProjectFileJob::loaded, &window, [&] {
            cancelled = window.setup()->isLoading();
            window.setup()->cancelLoading();
        });
        window.workspace()->openProjectInBackground(other);
        QTRY_VERIFY_WITH_TIMEOUT(cancelled, 60000);
        drain(*window.setup());
        QCOMPARE(window.setup()->modelReference(), QString("opt-350m"));
        QCOMPARE(window.workspace()->session()->path(), QFileInfo(path).absoluteFilePath());
    }
};

QTEST_MAIN(TestModelLoading)
#include "test_model_loading.moc"
