// Starting a thread pool can fail (a memory or process limit): ThreadPool::create must then
// return an Error promptly, after stopping the threads that did start — it used to hang forever
// in its cleanup. Run in a child process whose address space is limited, so thread stacks run
// out after a few threads; the parent waits with a watchdog and reads the child's verdict.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <QtTest>
#include <csignal>

#include "core/search/thread_pool.h"

using tandem::core::search::ThreadPool;

namespace {

// In a child: 0 when create(256) under a tight address-space limit returns an Error (and a
// pool of 2 still works afterwards once the limit is lifted), 1 when it wrongly succeeds, 3
// when the limit cannot be set.
int childCheck() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) != 0) return 3;
    // Each thread reserves an 8 MiB stack: 256 MiB more than now cannot hold 256 of them.
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
        std::fclose(f);
    }
    const rlim_t now = rlim_t(pages) * rlim_t(::sysconf(_SC_PAGESIZE));
    rlimit tight{now + (rlim_t(256) << 20), limit.rlim_max};
    if (::setrlimit(RLIMIT_AS, &tight) != 0) return 3;
    auto pool = ThreadPool::create(256);
    if (pool.ok()) return 1;
    if (pool.message().find("cannot start 256 worker threads") == std::string::npos) return 4;
    ::setrlimit(RLIMIT_AS, &limit);
    auto small = ThreadPool::create(2);
    if (!small.ok()) return 5;
    int sum = 0;
    std::mutex m;
    (*small)->parallelFor(100, [&](std::int64_t i) {
        std::lock_guard lock(m);
        sum += int(i);
    });
    return sum == 4950 ? 0 : 6;
}

}  // namespace

class TestThreadPoolStart : public QObject {
    Q_OBJECT

private slots:
    void outOfRangeCountsAreErrors() {
        QVERIFY(!ThreadPool::create(-1).ok());
        QVERIFY(!ThreadPool::create(ThreadPool::kMaxThreads + 1).ok());
        QVERIFY(ThreadPool::create(ThreadPool::kMaxThreads + 1)
                    .message()
                    .find("0 (one per "
                          "core) to 256") != std::string::npos);
        auto one = ThreadPool::create(1);
        QVERIFY(one.ok());
        QCOMPARE((*one)->threadCount(), 1);
    }

    void failedStartIsAnErrorNotAHang() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QSKIP("sanitizers reserve terabytes of address space; RLIMIT_AS cannot be used");
#endif
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            ::alarm(60);  // watchdog: a hang kills the child with SIGALRM
            ::_exit(childCheck());
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFEXITED(status),
                 WIFSIGNALED(status)
                     ? qPrintable(QString("child killed by signal %1").arg(WTERMSIG(status)))
                     : "child did not exit");
        if (WEXITSTATUS(status) == 3) QSKIP("RLIMIT_AS cannot be set here");
        QCOMPARE(WEXITSTATUS(status), 0);
    }
};

QTEST_GUILESS_MAIN(TestThreadPoolStart)
#include "test_thread_pool_start.moc"
