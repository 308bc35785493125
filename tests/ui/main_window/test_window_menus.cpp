// The window's desktop conventions (issue 14, "go beyond"): Edit ▸ Undo/Redo of set-up edits
// (any editor, the model, across a restore), View ▸ Set-up dock / Reset layout / Ctrl+1…8, Help ▸
// Guide to the tabs, and the one question a long search asks. Oracles: the values set before an
// edit, the tab titles, the window's own widgets. Nothing is timed.
#include <QAbstractSpinBox>
#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
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
#include "ui/view_tabs.h"
#include "ui/widgets/elided_label.h"
#include "ui/workspace.h"

using namespace tandem;

using window_test::findAction;

class TestWindowMenus : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { tandem::test::isolateUserFolders(); }
    void init() { QSettings().clear(); }

    void undoRedoRestoresSetUpEdits() {
        ui::MainWindow window;
        auto* stack = window.workspace()->history()->stack();
        QVERIFY(!stack->canUndo());
        auto* form = window.setup()->hardwareEditor()->form();
        const double cores = form->value("numTensorCores");
        QVERIFY(form->setValue("numTensorCores", 2 * cores));
        QVERIFY(window.workspace()->setModel("bert-large"));
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
        QVERIFY(window.workspace()->session()->isModified());
        // A new project starts a fresh history.
        window.workspace()->session()->setModified(false);
        findAction(window, "&New project")->trigger();
        QVERIFY(!stack->canUndo());
    }

    // Issue 25, item 4: a value typed into a spin box and committed with Tab is a set-up edit,
    // and Ctrl+Z then undoes it, wherever the focus went (the next field has nothing of its own
    // to undo). While a field still holds typed text, Ctrl+Z first undoes the typing there.
    void ctrlZAfterTabUndoesTheSetUpEdit() {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* form = window.setup()->hardwareEditor()->form();
        auto* cores = qobject_cast<QAbstractSpinBox*>(form->fieldWidget("numTensorCores"));
        QVERIFY(cores);
        const double before = form->value("numTensorCores");
        cores->setFocus();
        QTRY_VERIFY(cores->hasFocus());
        cores->selectAll();
        QTest::keyClicks(cores, "16");
        QTest::keyClick(cores, Qt::Key_Tab);
        QCOMPARE(form->value("numTensorCores"), 16.0);
        QWidget* next = QApplication::focusWidget();
        QVERIFY(next && next != cores);
        QTest::keyClick(next, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(form->value("numTensorCores"), before);
        // Undoing re-applies the set-up to the dock, which may move the focus.
        QWidget* focus = QApplication::focusWidget();
        QTest::keyClick(focus ? focus : static_cast<QWidget*>(&window), Qt::Key_Z,
                        Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(form->value("numTensorCores"), 16.0);
    }

    // Issue 25, item 4: undoing back to the saved set-up leaves nothing unsaved; redoing past it
    // is a change again.
    void undoToTheSavedStateIsNotAChange() {
        ui::MainWindow window;
        QTemporaryDir dir;
        const QString path = dir.filePath("p.tandem");
        QVERIFY(window.workspace()->saveProject(path));
        QVERIFY(!window.workspace()->session()->isModified());
        auto* form = window.setup()->hardwareEditor()->form();
        const double cores = form->value("numTensorCores");
        QVERIFY(form->setValue("numTensorCores", 2 * cores));
        QVERIFY(window.workspace()->session()->isModified());
        auto* undo = window.findChild<QAction*>("undoAction");
        auto* redo = window.findChild<QAction*>("redoAction");
        undo->trigger();
        QCOMPARE(form->value("numTensorCores"), cores);
        QVERIFY(!window.workspace()->session()->isModified());
        redo->trigger();
        QVERIFY(window.workspace()->session()->isModified());
        // Saved after the edit: undoing now leaves the saved state.
        QVERIFY(window.workspace()->saveProject(path));
        QVERIFY(!window.workspace()->session()->isModified());
        undo->trigger();
        QVERIFY(window.workspace()->session()->isModified());
        redo->trigger();
        QVERIFY(!window.workspace()->session()->isModified());
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
        for (int i = 0; i < window.views()->count() && i < 8; ++i) {
            QAction* tab = findAction(window, window.views()->tabText(i));
            QVERIFY2(tab, qPrintable(window.views()->tabText(i)));
            QCOMPARE(tab->shortcut(), QKeySequence(QString("Ctrl+%1").arg(i + 1)));
            tab->trigger();
            QCOMPARE(window.views()->currentIndex(), i);
        }
        // The guide covers every tab; the current tab's section comes first.
        const QString guide = ui::guideText("Pipeline");
        for (int i = 0; i < window.views()->count(); ++i)
            QVERIFY2(guide.contains("<h4>" + window.views()->tabText(i) + "</h4>"),
                     qPrintable(window.views()->tabText(i)));
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
        emit window.workspace()->searchJob()->progress(p);
        auto* box = window.findChild<QMessageBox*>("longSearchQuestion");
        QVERIFY(box);
        QVERIFY2(box->text().contains("11.7 min"), qPrintable(box->text()));
        // Later progress: the question and the status bar state the same rate and ETA.
        p.done = 40000;
        p.elapsedSeconds = 30;
        p.pointsPerSecond = 1333.3;
        p.etaSeconds = 500;
        emit window.workspace()->searchJob()->progress(p);
        QCOMPARE(window.findChildren<QMessageBox*>("longSearchQuestion").size(), 1);
        const QString readout =
            window.statusBar()->findChild<ui::ElidedLabel*>("liveReadout")->fullText();
        for (const char* figure : {"1333 points/s", "8.3 min"}) {
            QVERIFY2(readout.contains(figure), qPrintable(readout));
            QVERIFY2(box->text().contains(figure), qPrintable(box->text()));
        }
        box->close();
        // A short search does not ask.
        ui::MainWindow quick;
        p.etaSeconds = 120;
        emit quick.workspace()->searchJob()->progress(p);
        QVERIFY(!quick.findChild<QMessageBox*>("longSearchQuestion"));
    }
};

QTEST_MAIN(TestWindowMenus)
#include "test_window_menus.moc"
