// The window's desktop conventions (issue 14, "go beyond"): Edit ▸ Undo/Redo of set-up edits
// (any editor, the model, across a restore), View ▸ Set-up dock / Reset layout / Ctrl+1…8, Help ▸
// Guide to the tabs, and the one question a long search asks. Oracles: the values set before an
// edit, the tab titles, the window's own widgets. Nothing is timed.
#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QUndoStack>
#include <QtTest>

#include "tests/ui/main_window/window_test_support.h"
#include "tests/ui/test_output_dir.h"
#include "ui/editors/hardware_editor.h"
#include "ui/editors/parameter_editor.h"
#include "ui/guide_text.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/panels/setup_panel.h"
#include "ui/project_session.h"
#include "ui/setup_history.h"

using namespace tandem;

using window_test::findAction;

class TestWindowMenus : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { tandem::test::isolateUserFolders(); }
    void init() { QSettings().clear(); }

    void undoRedoRestoresSetUpEdits() {
        ui::MainWindow window;
        auto* stack = window.history()->stack();
        QVERIFY(!stack->canUndo());
        auto* form = window.setup()->hardwareEditor()->form();
        const double cores = form->value("numTensorCores");
        QVERIFY(form->setValue("numTensorCores", 2 * cores));
        QVERIFY(window.setModel("bert-large"));
        QCOMPARE(stack->count(), 2);
        auto* undo = window.findChild<QAction*>("undoAction");
        auto* redo = window.findChild<QAction*>("redoAction");
        QVERIFY(undo && redo);
        QVERIFY2(undo->text().startsWith("&Undo"), qPrintable(undo->text()));
        QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));
        // The README's Redo key works whatever the platform lists first (Ctrl+Y on some).
        QVERIFY(redo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
        undo->trigger();
        QCOMPARE(window.setup()->modelReference(), QString("gpt3-175b"));
        QCOMPARE(form->value("numTensorCores"), 2 * cores);
        undo->trigger();
        QCOMPARE(form->value("numTensorCores"), cores);
        QVERIFY(!stack->canUndo());
        redo->trigger();
        QCOMPARE(form->value("numTensorCores"), 2 * cores);
        redo->trigger();
        QCOMPARE(window.setup()->modelReference(), QString("bert-large"));
        QVERIFY(!stack->canRedo());
        // A restore is not itself a step, and the project counts as modified.
        QCOMPARE(stack->count(), 2);
        QVERIFY(window.session()->isModified());
        // A new project starts a fresh history.
        window.session()->setModified(false);
        findAction(window, "&New project")->trigger();
        QVERIFY(!stack->canUndo());
    }

    void viewMenuAndGuide() {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* dock = window.findChild<QDockWidget*>("setupDock");
        QVERIFY(dock && dock->isVisible());
        QAction* toggle = findAction(window, "&Set-up dock");
        QVERIFY(toggle);
        toggle->trigger();
        QVERIFY(!dock->isVisible());
        findAction(window, "&Reset layout")->trigger();
        QVERIFY(dock->isVisible());
        for (int i = 0; i < window.tabs()->count() && i < 8; ++i) {
            QAction* tab = findAction(window, window.tabs()->tabText(i));
            QVERIFY2(tab, qPrintable(window.tabs()->tabText(i)));
            QCOMPARE(tab->shortcut(), QKeySequence(QString("Ctrl+%1").arg(i + 1)));
            tab->trigger();
            QCOMPARE(window.tabs()->currentIndex(), i);
        }
        // The guide covers every tab; the current tab's section comes first.
        const QString guide = ui::guideText("Pipeline");
        for (int i = 0; i < window.tabs()->count(); ++i)
            QVERIFY2(guide.contains("<h4>" + window.tabs()->tabText(i) + "</h4>"),
                     qPrintable(window.tabs()->tabText(i)));
        QVERIFY(guide.indexOf("<h4>Pipeline</h4>") < guide.indexOf("<h4>Design space</h4>"));
        QVERIFY(findAction(window, "&Guide to the tabs"));
        QVERIFY(findAction(window, "&About Tandem"));
        QCOMPARE(findAction(window, "Save project &as…")->shortcut(),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));  // as the README says
        QCOMPARE(findAction(window, "&Quit")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));
    }

    void aLongSearchAsksOnce() {
        ui::MainWindow window;
        window.show();
        core::search::SearchProgress p;
        p.total = 700000;
        p.done = 1000;
        p.elapsedSeconds = 1;
        p.pointsPerSecond = 1000;
        p.etaSeconds = 699;
        emit window.searchJob()->progress(p);
        auto* box = window.findChild<QMessageBox*>("longSearchQuestion");
        QVERIFY(box);
        QVERIFY2(box->text().contains("11.7 min"), qPrintable(box->text()));
        emit window.searchJob()->progress(p);
        QCOMPARE(window.findChildren<QMessageBox*>("longSearchQuestion").size(), 1);
        box->close();
        // A short search does not ask.
        ui::MainWindow quick;
        p.etaSeconds = 120;
        emit quick.searchJob()->progress(p);
        QVERIFY(!quick.findChild<QMessageBox*>("longSearchQuestion"));
    }
};

QTEST_MAIN(TestWindowMenus)
#include "test_window_menus.moc"
