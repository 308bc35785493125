// Output files as users name them (--trace, --json, --csv): a regular file is replaced atomically,
// but a device (/dev/null) stays a device, a FIFO (a shell's pipe) receives the content instead of
// being replaced, a symbolic link is followed and stays a link, '-' is standard output, a path
// naming an open descriptor (/dev/stdout, /dev/fd/N) is written through it, and a directory is
// refused with exit 2. The real executable writes /dev/null, as a script would, and says that it
// waits when a FIFO has no reader yet. A file name near the 255-byte limit is written too (the
// temporary file beside it must not exceed the limit).
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <fstream>
#include <future>
#include <sstream>

#include "core/common/text_file.h"
#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {

std::string slurp(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool isCharacterDevice(const char* path) {
    struct stat st {};
    return ::stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

}  // namespace

class TestCliOutputs : public QObject {
    Q_OBJECT

private slots:
    void devicesStayDevices() {
        // A copy of /dev/null in a temporary folder when we may make one (root), so that a
        // regression cannot destroy the machine's /dev/null; otherwise /dev/null itself, which a
        // non-root user cannot replace anyway.
        QTemporaryDir dir;
        QByteArray device = dir.filePath("null").toLocal8Bit();
        if (::mknod(device.constData(), S_IFCHR | 0666, makedev(1, 3)) != 0) device = "/dev/null";
        QVERIFY(isCharacterDevice(device.constData()));
        QVERIFY(tandem::core::writeFileAtomically(device.toStdString(), "{}").ok());
        QVERIFY(isCharacterDevice(device.constData()));
        QProcess process;
        process.start(TANDEM_CLI_PATH, {"schedule", "--model", "gpt2-xl", "--trace",
                                        QString::fromLocal8Bit(device)});
        QVERIFY(process.waitForFinished(120000));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(isCharacterDevice(device.constData()));
    }

    void fifoReceivesTheContent() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("pipe");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        auto reader = std::async(std::launch::async, [&] { return slurp(fifo); });
        const auto r = run({"schedule", "--model", "gpt2-xl", "--trace", fifo.toStdString()});
        QCOMPARE(r.code, 0);
        const std::string received = reader.get();
        QVERIFY(received.rfind("{\"displayTimeUnit\"", 0) == 0);
        struct stat st {};
        QCOMPARE(::stat(fifo.toLocal8Bit().constData(), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode));
    }

    void symbolicLinksAreFollowed() {
        QTemporaryDir dir;
        const QString real = dir.filePath("real.json");
        const QString link = dir.filePath("link.json");
        const QString chain = dir.filePath("chain.json");
        QVERIFY(QFile::link("real.json", link));  // relative, as `ln -s` makes them
        QVERIFY(QFile::link(link, chain));
        QVERIFY(tandem::core::writeFileAtomically(chain.toStdString(), "first").ok());
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(QFileInfo(chain).isSymLink());
        QCOMPARE(slurp(real), std::string("first"));  // a dangling link's target is created
        const auto r = run({"schedule", "--model", "gpt2-xl", "--trace", link.toStdString()});
        QCOMPARE(r.code, 0);
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(slurp(real).rfind("{\"displayTimeUnit\"", 0) == 0);
        // A loop of links is an error, not a hang.
        const QString a = dir.filePath("a"), b = dir.filePath("b");
        QVERIFY(QFile::link(a, b) && QFile::link(b, a));
        QVERIFY(!tandem::core::writeFileAtomically(a.toStdString(), "x").ok());
    }

    void dashIsStandardOutput() {
        const auto r = run({"schedule", "--model", "gpt2-xl", "--trace", "-"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.rfind("{\"displayTimeUnit\"", 0) == 0);
        QVERIFY(r.err.find("layer makespans") != std::string::npos);  // the table moved aside
        const auto both = run({"schedule", "--model", "gpt2-xl", "--trace", "-", "--json"});
        QCOMPARE(both.code, 2);
        QVERIFY(both.err.find("standard output") != std::string::npos);
    }

    void descriptorsAreWrittenThrough() {
        // `--trace /dev/stdout >> run.log`: the shell's appending descriptor receives the trace;
        // run.log is neither replaced (same inode) nor truncated (its earlier line stays).
        QTemporaryDir dir;
        const QString log = dir.filePath("run.log");
        {
            QFile f(log);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("earlier\n");
        }
        struct stat before {};
        QCOMPARE(::stat(log.toLocal8Bit().constData(), &before), 0);
        QProcess appending;
        appending.setStandardOutputFile(log, QIODevice::Append);
        appending.start(TANDEM_CLI_PATH,
                        {"schedule", "--model", "gpt2-xl", "--trace", "/dev/stdout"});
        QVERIFY(appending.waitForFinished(120000));
        QCOMPARE(appending.exitCode(), 0);
        struct stat after {};
        QCOMPARE(::stat(log.toLocal8Bit().constData(), &after), 0);
        QCOMPARE(after.st_ino, before.st_ino);
        const std::string logged = slurp(log);
        QVERIFY2(logged.rfind("earlier\n{\"displayTimeUnit\"", 0) == 0,
                 logged.substr(0, 80).c_str());
        QVERIFY(logged.find("layer makespans") != std::string::npos);  // the table too

        // A pipe (`| cat`) and bash's >(…), a /dev/fd path: the bytes arrive.
        QProcess piped;
        piped.start(TANDEM_CLI_PATH, {"schedule", "--model", "gpt2-xl", "--trace", "/dev/stdout"});
        QVERIFY(piped.waitForFinished(120000));
        QCOMPARE(piped.exitCode(), 0);
        QVERIFY(piped.readAllStandardOutput().startsWith("{\"displayTimeUnit\""));
        int fds[2];
        QCOMPARE(::pipe(fds), 0);
        auto reader = std::async(std::launch::async, [&] {
            std::string got;
            char buffer[65536];
            for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
                got.append(buffer, std::size_t(n));
            return got;
        });
        const auto r =
            run({"schedule", "--model", "gpt2-xl", "--trace", "/dev/fd/" + std::to_string(fds[1])});
        ::close(fds[1]);
        QCOMPARE(r.code, 0);
        QVERIFY(reader.get().rfind("{\"displayTimeUnit\"", 0) == 0);
        ::close(fds[0]);

        // A descriptor that is not open is refused, naming it.
        const auto closed = run({"schedule", "--model", "gpt2-xl", "--trace", "/dev/fd/987"});
        QCOMPARE(closed.code, 2);
        QVERIFY2(closed.err.find("not open") != std::string::npos, closed.err.c_str());
    }

    void outputsOntoInputsAreRefused() {
        // --trace onto the hardware file it reads: refused before anything runs, the file intact.
        QTemporaryDir dir;
        const QString hardware = dir.filePath("chip.json");
        QVERIFY(QFile::copy(QString(TANDEM_SOURCE_DIR) + "/resources/hardware/tpuv4-like.json",
                            hardware));
        const std::string original = slurp(hardware);
        const auto onInput = run({"schedule", "--model", "gpt2-xl", "--hardware",
                                  hardware.toStdString(), "--trace", hardware.toStdString()});
        QCOMPARE(onInput.code, 2);
        QVERIFY2(onInput.err.find("--trace") != std::string::npos &&
                     onInput.err.find("--hardware") != std::string::npos,
                 onInput.err.c_str());
        QCOMPARE(slurp(hardware), original);
        // Another spelling of the same file (a symbolic link) is the same file.
        const QString link = dir.filePath("link.json");
        QVERIFY(QFile::link(hardware, link));
        const auto viaLink = run({"schedule", "--model", "gpt2-xl", "--hardware",
                                  hardware.toStdString(), "--trace", link.toStdString()});
        QCOMPARE(viaLink.code, 2);
        QCOMPARE(slurp(hardware), original);
        // Two outputs onto one file, and an output onto the checkpoint, before either exists.
        const std::string out = dir.filePath("out").toStdString();
        // (A missing space file: should the check ever fail, no search starts.)
        const std::string space = dir.filePath("missing-space.json").toStdString();
        const auto twice = run({"search", "--model", "gpt2-xl", "--space", space, "--json", out,
                                "--csv", dir.filePath("./sub/../out").toStdString()});
        QCOMPARE(twice.code, 2);
        QVERIFY2(twice.err.find("--csv") != std::string::npos, twice.err.c_str());
        // A link to a file that is not there yet is that file: the writer would create it.
        const std::string dangling = dir.filePath("dangling.csv").toStdString();
        QVERIFY(QFile::link(QString::fromStdString(out), QString::fromStdString(dangling)));
        const auto viaDangling = run(
            {"search", "--model", "gpt2-xl", "--space", space, "--json", out, "--csv", dangling});
        QCOMPARE(viaDangling.code, 2);
        QVERIFY2(viaDangling.err.find("same file") != std::string::npos, viaDangling.err.c_str());
        const auto checkpoint = run(
            {"search", "--model", "gpt2-xl", "--space", space, "--checkpoint", out, "--json", out});
        QCOMPARE(checkpoint.code, 2);
        QVERIFY2(checkpoint.err.find("--checkpoint") != std::string::npos, checkpoint.err.c_str());
        QVERIFY(!QFileInfo::exists(QString::fromStdString(out)));
        // Devices are written through, so two outputs may share one.
        const auto devices = run({"schedule", "--model", "gpt2-xl", "--trace", "/dev/null"});
        QCOMPARE(devices.code, 0);
    }

    void longFileNamesAreWritten() {
        QTemporaryDir dir;
        const std::string name(250, 'x');
        const std::string path = dir.path().toStdString() + "/" + name;
        const auto r = run({"schedule", "--model", "gpt2-xl", "--trace", path});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(slurp(QString::fromStdString(path)).rfind("{\"displayTimeUnit\"", 0) == 0);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);  // no temp
    }

    void fifoWithoutReaderSaysItWaits() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("pipe");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QProcess writer;
        writer.setReadChannel(QProcess::StandardError);
        writer.start(TANDEM_CLI_PATH, {"schedule", "--model", "gpt2-xl", "--trace", fifo});
        QVERIFY(writer.waitForStarted());
        // No reader yet: the command must say that it waits (not block in silence).
        QByteArray err;
        while (!err.contains("waiting for a program to read") &&
               writer.state() == QProcess::Running && writer.waitForReadyRead(120000))
            err += writer.readAllStandardError();
        err += writer.readAllStandardError();
        QVERIFY2(err.contains("waiting for a program to read the FIFO"), err.constData());
        // Then a reader gets the whole trace and the command ends normally.
        const std::string received = slurp(fifo);
        QVERIFY(writer.waitForFinished(120000));
        QCOMPARE(writer.exitCode(), 0);
        QVERIFY(received.rfind("{\"displayTimeUnit\"", 0) == 0);
        QVERIFY(received.size() > 1000);
    }

    void directoriesAndMissingFoldersAreRefused() {
        QTemporaryDir dir;
        const auto r = run({"schedule", "--model", "gpt2-xl", "--trace", dir.path().toStdString()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("directory") != std::string::npos, r.err.c_str());
        const auto missing = run({"schedule", "--model", "gpt2-xl", "--trace",
                                  dir.filePath("no/such/folder/t.json").toStdString()});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.err.find("does not exist") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCliOutputs)
#include "test_cli_outputs.moc"
