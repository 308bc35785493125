#pragma once
// What the main-window tests share: a small search space that runs in seconds, waiting until the
// window's point has settled, a search run as a user starts it, and finding a menu action.
#include <QAction>
#include <QDeadlineTimer>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>

#include "ui/editors/search_space_editor.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/panels/setup_panel.h"
#include "ui/view_tabs.h"
#include "ui/workspace.h"

namespace window_test {

constexpr std::int64_t kMiB = std::int64_t(1) << 20;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

// 8 chips × 2 microbatch sizes × 1 HBM size × 2 recompute settings (PHAZE's).
inline tandem::core::search::SearchSpace smallSpace() {
    auto s = tandem::core::search::SearchSpace::phaze();
    s.name = "window-test";
    s.numTensorCores = {2, 4};
    s.tensorCoreRows = {64, 128};
    s.tensorCoreCols = {128};
    s.numVectorCores = {2};
    s.globalBufferBytes = {32 * kMiB, 128 * kMiB};
    s.microbatchSizes = {1, 2};
    s.hbmCapacityBytes = {32 * kGiB};
    return s;
}

// Until the window shows an evaluated point and nothing is pending (false after `ms`).
inline bool settle(tandem::ui::MainWindow& window, int ms = 120000) {
    const QDeadlineTimer watchdog(ms);
    while (!watchdog.hasExpired()) {
        if (window.workspace()->placement() && !window.workspace()->pointJob()->busy() &&
            window.workspace()->pointJob()->latestId() != 0) {
            QTest::qWait(50);  // a debounced request may still be pending
            if (!window.workspace()->pointJob()->busy()) return true;
        }
        QTest::qWait(20);
    }
    return false;
}

// `model` searched over smallSpace() through Search ▸ Start; the window then holds its results.
inline void search(tandem::ui::MainWindow& window, const char* model = "bert-large") {
    QVERIFY(window.workspace()->setModel(model));
    window.setup()->searchSpaceEditor()->setSpace(smallSpace());
    QSignalSpy finished(window.workspace()->searchJob(), &tandem::ui::SearchJob::finished);
    window.startSearch();
    QVERIFY(finished.wait(300000));
    QVERIFY(window.workspace()->results() && !window.workspace()->results()->points().empty());
}

// Writes `content` to `path` (a test's own file, often deliberately broken); false on failure.
inline bool writeFile(const QString& path, const QByteArray& content) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

// The window's action with this text (menus, toolbar), or null.
inline QAction* findAction(tandem::ui::MainWindow& window, const QString& text) {
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == text) return a;
    return nullptr;
}

}  // namespace window_test
