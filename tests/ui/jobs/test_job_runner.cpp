// JobRunner, the one background-work primitive of the app (issue 25, item 2): ids, latest-only
// answers, every answer in order, cancel, progress, busy before the answer, and destruction that
// cancels and then waits. The work is controlled by gates the test opens, so nothing depends on
// how fast the machine is; oracles are the ids and values each run was given.
#include <QSignalSpy>
#include <QtTest>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "ui/jobs/job_runner.h"

using tandem::core::RunControl;
using tandem::ui::JobRunner;

namespace {

// A door the test opens; work waits at it (or until its run is cancelled).
class Gate {
public:
    void open() {
        std::lock_guard lock(mutex_);
        open_ = true;
        changed_.notify_all();
    }
    // False as soon as `control` is cancelled (also when that came before the opening), else
    // true once opened.
    bool pass(const RunControl& control) {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (control.cancelled()) return false;
            if (open_) return true;
            changed_.wait_for(lock, std::chrono::milliseconds(5));
        }
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool open_ = false;
};

}  // namespace

class TestJobRunner : public QObject {
    Q_OBJECT

private slots:
    void onlyTheLatestAnswerArrives() {
        JobRunner runner(JobRunner::Answers::LatestOnly);
        Gate gate;
        std::atomic<int> cancelledRuns{0}, workStarted{0};
        std::vector<std::pair<quint64, int>> answers;
        // Each run holds the runner's one thread until the gate opens, whether or not it was
        // cancelled meanwhile, so run 2 cannot start before run 3 replaces it however slowly
        // the machine (or a sanitizer) runs.
        const RunControl never;
        const auto work = [&](int value) {
            return [&gate, &cancelledRuns, &workStarted, &never, value](RunControl& control) {
                ++workStarted;
                gate.pass(never);
                if (control.cancelled()) ++cancelledRuns;
                return value;
            };
        };
        const auto keep = [&](quint64 id, int value) { answers.emplace_back(id, value); };
        QCOMPARE(runner.start(work(1), keep), quint64(1));
        QTRY_COMPARE_WITH_TIMEOUT(workStarted.load(), 1,
                                  60000);  // run 1 holds the runner's one thread
        QCOMPARE(runner.start(work(2), keep), quint64(2));
        QCOMPARE(runner.start(work(3), keep), quint64(3));
        QCOMPARE(runner.latestId(), quint64(3));
        QVERIFY(runner.busy());
        gate.open();
        QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 60000);
        QCOMPARE(answers.size(), std::size_t(1));
        QCOMPARE(answers.front(), std::make_pair(quint64(3), 3));
        // Run 1 was running and saw its cancellation; run 2, cancelled while queued, never ran.
        QCOMPARE(cancelledRuns.load(), 1);
        QCOMPARE(workStarted.load(), 2);
    }

    void everyAnswerArrivesInOrder() {
        JobRunner runner(JobRunner::Answers::Every);
        std::vector<int> answers;
        for (int v = 1; v <= 5; ++v)
            runner.start([v](RunControl&) { return v * v; },
                         [&](quint64, int value) { answers.push_back(value); });
        QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 60000);
        QCOMPARE(answers, (std::vector<int>{1, 4, 9, 16, 25}));
    }

    void cancelDropsTheAnswerAndStopsTheWork() {
        JobRunner runner(JobRunner::Answers::Every);
        Gate gate;
        std::atomic<bool> started{false}, sawCancel{false};
        bool delivered = false;
        runner.start(
            [&](RunControl& control) {
                started = true;
                sawCancel = !gate.pass(control);
                return 0;
            },
            [&](quint64, int) { delivered = true; });
        QTRY_VERIFY_WITH_TIMEOUT(started.load(), 60000);
        runner.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 60000);
        QVERIFY(sawCancel);
        QVERIFY(!delivered);
    }

    void progressAndBusyComeBeforeTheAnswer() {
        JobRunner runner(JobRunner::Answers::LatestOnly);
        QSignalSpy progress(&runner, &JobRunner::progress);
        std::vector<QString> order;
        connect(&runner, &JobRunner::busyChanged, this,
                [&](bool busy) { order.push_back(busy ? "busy" : "idle"); });
        runner.start(
            [](RunControl& control) {
                control.report(1, 2, "half");
                control.report(2, 2, "all");  // the final report always goes through
                return 7;
            },
            [&](quint64 id, int value) {
                QCOMPARE(id, quint64(1));
                QCOMPARE(value, 7);
                order.push_back("answer");
            });
        QTRY_COMPARE_WITH_TIMEOUT(order.size(), std::size_t(3), 60000);
        QCOMPARE(order, (std::vector<QString>{"busy", "idle", "answer"}));
        QVERIFY(!progress.isEmpty());
        const QList<QVariant> last = progress.takeLast();
        QCOMPARE(last.at(0).toULongLong(), quint64(1));
        QCOMPARE(last.at(1).toDouble(), 2.0);
        QCOMPARE(last.at(3).toString(), QString("all"));
    }

    void cancellingOneRunDropsOnlyItsAnswer() {
        JobRunner runner(JobRunner::Answers::Every);
        Gate gate;
        std::vector<int> answers;
        const auto keep = [&](quint64, int value) { answers.push_back(value); };
        runner.start([&](RunControl& control) { return gate.pass(control) ? 1 : -1; }, keep);
        const quint64 second = runner.start([](RunControl&) { return 2; }, keep);
        runner.start([](RunControl&) { return 3; }, keep);
        runner.cancel(second);
        gate.open();
        QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 60000);
        QCOMPARE(answers, (std::vector<int>{1, 3}));
    }

    // A file queued behind another is still written when its writer is destroyed.
    void alwaysWorkRunsEvenWhenCancelledFirst() {
        Gate gate;
        std::atomic<bool> started{false}, written{false};
        {
            JobRunner runner(JobRunner::Answers::Every);
            runner.start(
                [&](RunControl& control) {
                    started = true;
                    return gate.pass(control);
                },
                [](quint64, bool) {});
            runner.start(
                [&](RunControl&) {
                    written = true;
                    return true;
                },
                [](quint64, bool) {}, JobRunner::Work::Always);
            QTRY_VERIFY_WITH_TIMEOUT(started.load(), 60000);
        }
        QVERIFY(written);
    }

    void destructionCancelsThenWaits() {
        Gate gate;
        std::atomic<bool> started{false}, finished{false}, sawCancel{false};
        bool delivered = false;
        {
            JobRunner runner(JobRunner::Answers::LatestOnly);
            runner.start(
                [&](RunControl& control) {
                    started = true;
                    sawCancel = !gate.pass(control);
                    finished = true;
                    return 0;
                },
                [&](quint64, int) { delivered = true; });
            QTRY_VERIFY_WITH_TIMEOUT(started.load(), 60000);
        }  // the destructor returns only after the work has finished
        QVERIFY(finished);
        QVERIFY(sawCancel);
        QTest::qWait(20);
        QVERIFY(!delivered);
    }
};

QTEST_GUILESS_MAIN(TestJobRunner)
#include "test_job_runner.moc"
