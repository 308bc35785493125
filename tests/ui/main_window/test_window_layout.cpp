// The window on a small screen (issue 25, items 1, 3 and 5): it opens within the screen, its
// minimum size with the set-up dock fits a 1,024 × 768 projector, long texts elide (with the
// whole text as a tool tip) instead of widening it, a faded page shows only itself, and the
// readout forgets "Reading …" once the read has failed. Oracles: the screen's geometry, the
// texts set, and a blend computed from the page's own pixels. Nothing is timed.
#include <QDockWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "tests/ui/main_window/window_test_support.h"
#include "tests/ui/test_output_dir.h"
#include "ui/editors/hardware_editor.h"
#include "ui/editors/parameter_editor.h"
#include "ui/jobs/results_file_job.h"
#include "ui/main_window.h"
#include "ui/panels/comparison_view.h"
#include "ui/panels/current_point_bar.h"
#include "ui/panels/setup_panel.h"
#include "ui/panels/summary_panel.h"
#include "ui/view_tabs.h"
#include "ui/widgets/elided_label.h"
#include "ui/widgets/fade_veil.h"
#include "ui/workspace.h"

using namespace tandem;

namespace {

// A 1,024 × 768 screen less a title bar: what the window's minimum size must fit.
constexpr int kProjectorWidth = 1024;
constexpr int kProjectorHeight = 768 - 32;

// What the screen shows of `widget` (the window's backing store, as a user sees it): the part
// of it that is visible.
QImage shownPixels(QWidget& window, QWidget* widget) {
    const QImage all =
        window.screen()->grabWindow(window.winId()).toImage().convertToFormat(QImage::Format_RGB32);
    const QRect visible = widget->visibleRegion().boundingRect();
    const QPoint at = widget->mapTo(&window, visible.topLeft()) * all.devicePixelRatio();
    return all.copy(QRect(at, visible.size() * all.devicePixelRatio()));
}

ui::ElidedLabel* readout(ui::MainWindow& window) {
    return window.statusBar()->findChild<ui::ElidedLabel*>("liveReadout");
}

}  // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { tandem::test::isolateUserFolders(); }
    void init() { QSettings().clear(); }

    void opensWithinTheScreen() {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QRect room = window.screen()->availableGeometry();
        QVERIFY2(room.contains(window.frameGeometry()),
                 qPrintable(QString("window %1×%2 at %3,%4 on a screen of %5×%6")
                                .arg(window.frameGeometry().width())
                                .arg(window.frameGeometry().height())
                                .arg(window.x())
                                .arg(window.y())
                                .arg(room.width())
                                .arg(room.height())));
    }

    void minimumSizeFitsAProjectorWithTheDock() {
        ui::MainWindow window;
        window.show();
        QVERIFY(window_test::settle(window));
        auto* dock = window.findChild<QDockWidget*>("setupDock");
        QVERIFY(dock && dock->isVisible());
        // On every tab: a page larger than its room scrolls instead.
        for (int i = 0; i < window.views()->count(); ++i) {
            window.views()->setCurrentIndex(i);
            QTest::qWait(20);
            const QSize least = window.minimumSizeHint().expandedTo(window.minimumSize());
            QVERIFY2(least.width() <= kProjectorWidth && least.height() <= kProjectorHeight,
                     qPrintable(QString("tab %1: minimum %2 × %3")
                                    .arg(window.views()->tabText(i))
                                    .arg(least.width())
                                    .arg(least.height())));
        }
    }

    void longTextsElideInsteadOfWidening() {
        ui::MainWindow window;
        window.resize(kProjectorWidth, kProjectorHeight);
        window.show();
        QVERIFY(window_test::settle(window));
        // The bar's buttons for a design-space point are part of the minimum; its text is not.
        window.currentPointBar()->showSearchPoint(7, "gpt3-175b on a chip", "a 1 · b 2");
        QTest::qWait(50);
        const int width = window.width();
        const QSize least = window.minimumSizeHint();
        QVERIFY(least.width() <= kProjectorWidth);
        // A multi-model point's per-model throughputs in the bar above the tabs.
        QStringList models;
        for (int m = 0; m < 40; ++m) models << QString("model-%1 %2.5 samples/s").arg(m).arg(m);
        const QString perModel = models.join(" · ");
        window.currentPointBar()->showSearchPoint(7, "gpt3-175b on a chip", perModel);
        // A long error in the live readout.
        const QString error = QString("model.json: ") + QString("far too long ").repeated(60);
        readout(window)->setFullText(error);
        QTest::qWait(50);
        QCOMPARE(window.minimumSizeHint().width(), least.width());
        QCOMPARE(window.width(), width);
        auto* bar = window.currentPointBar()->findChild<ui::ElidedLabel*>();
        QVERIFY(bar && bar->isElided());
        QVERIFY(bar->toolTip().contains(perModel));
        QVERIFY(window.currentPointBar()->text().contains(perModel));
        QVERIFY(readout(window)->isElided());
        QVERIFY(readout(window)->toolTip().contains(error));
        // Short again: shown whole, no tool tip of its own.
        readout(window)->setFullText("Ready");
        QVERIFY(!readout(window)->isElided());
        QCOMPARE(readout(window)->text(), QString("Ready"));
    }

    void fadedPageShowsOnlyItself() {
        ui::MainWindow window;
        window.resize(kProjectorWidth, kProjectorHeight);
        window.show();
        QVERIFY(window_test::settle(window));
        // Visit a page full of text first, then one with room to show what is under it.
        window.views()->showPage(window.views()->comparisonView());
        QTest::qWait(100);
        window.views()->showPage(window.findChild<ui::SummaryPanel*>());
        QWidget* page = window.views()->currentPage();
        QTest::qWait(100);
        const QImage clear = shownPixels(window, page);
        auto* form = window.setup()->hardwareEditor()->form();
        QVERIFY(!form->setValue("numTensorCores", 0));  // the views fade
        QVERIFY(!window.workspace()->viewsUpToDate());
        QTest::qWait(100);
        const QImage faded = shownPixels(window, page);
        QCOMPARE(faded.size(), clear.size());
        // Every faded pixel is the page's own pixel blended with the window's colour.
        const QColor under = page->palette().color(QPalette::Window);
        double worst = 0, total = 0;
        for (int y = 0; y < clear.height(); ++y)
            for (int x = 0; x < clear.width(); ++x) {
                const QColor c = clear.pixelColor(x, y), f = faded.pixelColor(x, y);
                const auto blend = [](int page, int back) {
                    return (1 - ui::FadeVeil::kVeilOpacity) * page +
                           ui::FadeVeil::kVeilOpacity * back;
                };
                const double d = std::abs(f.red() - blend(c.red(), under.red())) +
                                 std::abs(f.green() - blend(c.green(), under.green())) +
                                 std::abs(f.blue() - blend(c.blue(), under.blue()));
                worst = std::max(worst, d);
                total += d;
            }
        const double mean = total / double(clear.width() * clear.height());
        QVERIFY2(
            mean < 2.0 && worst < 12.0,
            qPrintable(QString("mean %1, worst %2 levels off the blend").arg(mean).arg(worst)));
        QVERIFY(form->setValue("numTensorCores", 8));
    }

    // Issue 27, item 5: a chip whose area is unknown shows no figure of the chip before it.
    void unknownAreaKeepsNoStaleFigure() {
        ui::MainWindow window;
        QVERIFY(window_test::settle(window));
        auto* summary = window.findChild<ui::SummaryPanel*>();
        auto* bar = summary->findChild<QProgressBar*>();
        QVERIFY(bar);
        auto* form = window.setup()->hardwareEditor()->form();
        QVERIFY(form->setValue("numTensorCores", 16));  // over the budget: a figure in %
        QVERIFY(window_test::settle(window));
        QVERIFY2(bar->text().contains('%'), qPrintable(bar->text()));
        // A global buffer beyond PHAZE's area table (and its extrapolation off): no area.
        QVERIFY(form->setValue("globalBufferBytes", 64.0 * 1024 * 1024 * 1024));
        QVERIFY(window_test::settle(window));
        QVERIFY2(!bar->text().contains('%'), qPrintable(bar->text()));
        QCOMPARE(bar->text(), QString("unknown"));
        QCOMPARE(bar->value(), 0);
    }

    void failedReadClearsItsStatus() {
        ui::MainWindow window;
        window.show();
        QVERIFY(window_test::settle(window));
        const QString before = readout(window)->fullText();
        QTemporaryDir dir;
        const QString damaged = dir.filePath("r-damaged.json");
        QVERIFY(window_test::writeFile(damaged,
                                       "{\"format\": \"tandem-search-results\", \"points\": ["));
        QString dialog;
        bool busyUnderDialog = true;
        auto* progress = window.statusBar()->findChild<QProgressBar*>();
        QVERIFY(progress);
        QTimer closer;
        connect(&closer, &QTimer::timeout, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                dialog = box->text();
                busyUnderDialog = progress->isVisible();
                box->accept();
            }
        });
        closer.start(20);
        window.workspace()->openResults(damaged);
        QVERIFY(readout(window)->fullText().contains("Reading r-damaged.json"));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isEmpty(), 60000);
        QVERIFY(!busyUnderDialog);
        QVERIFY(!window.workspace()->filesJob()->busy());
        QCOMPARE(readout(window)->fullText(), before);
        QVERIFY(!progress->isVisible());
    }
};

QTEST_MAIN(TestWindowLayout)
#include "test_window_layout.moc"
