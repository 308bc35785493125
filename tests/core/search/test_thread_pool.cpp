// ThreadPool (every index exactly once for any thread count, callers sharing a pool, wait and
// the draining destructor) and the progress line explorers report through RunControl.
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "core/search/progress_meter.h"
#include "core/search/thread_pool.h"

using tandem::core::search::ProgressMeter;
using tandem::core::search::SearchProgress;
using tandem::core::search::ThreadPool;

class TestThreadPool : public QObject {
    Q_OBJECT

private slots:
    void threadPool() {
        QCOMPARE(ThreadPool().threadCount(), std::max(1, int(std::thread::hardware_concurrency())));
        for (int threads : {1, 2, 4}) {
            ThreadPool pool(threads);
            QCOMPARE(pool.threadCount(), threads);
            for (std::int64_t count : {0, 1, 7, 1000}) {
                std::vector<std::atomic<int>> hits(std::size_t(count + 1));
                pool.parallelFor(count, [&](std::int64_t i) { hits[std::size_t(i)]++; });
                for (std::int64_t i = 0; i < count; ++i) QCOMPARE(hits[std::size_t(i)].load(), 1);
                QCOMPARE(hits[std::size_t(count)].load(), 0);
            }
            // Two callers share the pool at once; each returns when its own indices are done.
            std::atomic<std::int64_t> a{0}, b{0};
            std::thread other([&] { pool.parallelFor(500, [&](std::int64_t i) { a += i; }); });
            pool.parallelFor(300, [&](std::int64_t i) { b += i; });
            other.join();
            QCOMPARE(a.load(), std::int64_t(499 * 500 / 2));
            QCOMPARE(b.load(), std::int64_t(299 * 300 / 2));
        }
        std::atomic<int> done{0};
        {
            ThreadPool pool(2);
            for (int i = 0; i < 40; ++i)
                pool.submit([&] {
                    std::this_thread::sleep_for(std::chrono::microseconds(200));
                    ++done;
                });
            pool.wait();
            QCOMPARE(done.load(), 40);
            for (int i = 0; i < 10; ++i) pool.submit([&] { ++done; });
        }  // the destructor finishes queued tasks
        QCOMPARE(done.load(), 50);
    }

    void progressLine() {
        SearchProgress p{50, 200, 10, 5, 30};
        QCOMPARE(QString::fromStdString(ProgressMeter::format(p)),
                 QString("50 / 200 points · 5.0 points/s · ETA 30 s"));
        p = {1000, 704640, 10, 100, 7036.4};
        QCOMPARE(QString::fromStdString(ProgressMeter::format(p)),
                 QString("1,000 / 704,640 points · 100 points/s · ETA 1.95 h"));
    }
};

QTEST_GUILESS_MAIN(TestThreadPool)
#include "test_thread_pool.moc"
