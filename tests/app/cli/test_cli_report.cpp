// `tandem-cli report --project P --out R.html` (issue 27 item 16) as a script runs it: the
// example project gives a report whose plan figures agree with `place --json` on the same
// set-up, with its sections and charts; bad input exits with code 2 and says what was wrong.
#include <QFile>
#include <QTemporaryDir>

#include "core/common/units.h"
#include "core/hardware/hardware_json.h"
#include "core/io/project_file.h"
#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {
const std::string kProject =
    std::string(TANDEM_SOURCE_DIR) + "/resources/examples/gpt3-quick-search.tandem";

QString readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}
}  // namespace

class TestCliReport : public QObject {
    Q_OBJECT
private slots:
    void reportsTheExampleProject() {
        QTemporaryDir dir;
        const QString out = dir.filePath("r.html");
        const auto r = run({"report", "--project", kProject, "--out", out.toStdString(), "--tokens",
                            "300e9", "--price-per-device-hour", "2", "--quiet"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(r.err.empty());
        const QString html = readAll(out);
        for (const char* section :
             {"<h2>Set-up</h2>", "<h2>The plan</h2>", "<h2>Energy and time to train</h2>",
              "<h2>Roofline</h2>", "<h2>Scaling</h2>"})
            QVERIFY2(html.contains(section), section);
        QCOMPARE(html.count("<svg"), 3);
        // The plan agrees with `place` on the same set-up (the project's hardware and training).
        auto project = tandem::core::io::ProjectFile::load(kProject);
        QVERIFY(project.ok());
        const QString hardware = dir.filePath("hardware.json");
        {
            QFile file(hardware);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(
                tandem::core::hardware::toHardwareJson(project->hardware)));
        }
        const QJsonObject placed =
            jsonOfRun({"place", "--model", "gpt3-175b", "--hardware", hardware.toStdString(),
                       "--recompute", "on", "--json"},
                      {});
        const double throughput = placed.value("throughput_samples_per_s").toDouble();
        QVERIFY(throughput > 0);
        QVERIFY2(html.contains(QString::fromStdString(tandem::core::formatThroughput(throughput))),
                 qPrintable(QString::fromStdString(tandem::core::formatThroughput(throughput))));
        QVERIFY(html.contains("To train on 300.0 B tokens"));
        QVERIFY(html.contains("cost "));
        // To standard output.
        const auto piped =
            run({"report", "--project", kProject, "--out", "-", "--quiet", "--scaling", "none"});
        QCOMPARE(piped.code, 0);
        QVERIFY(piped.out.find("<h2>The plan</h2>") != std::string::npos);
        QVERIFY(piped.out.find("<h2>Scaling</h2>") == std::string::npos);
    }

    void badInput() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("r.html").toStdString();
        auto r = run({"report", "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("--project") != std::string::npos);
        r = run({"report", "--project", kProject});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("--out") != std::string::npos);
        QCOMPARE(run({"report", "--project", "/no/such.tandem", "--out", out}).code, 2);
        // A .pdf name is not given HTML: the app writes PDFs.
        r = run({"report", "--project", kProject, "--out", "r.pdf"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("File ▸ Export report") != std::string::npos, r.err.c_str());
        QVERIFY(!QFile::exists("r.pdf"));
        r = run({"report", "--project", kProject, "--out", out, "--scaling", "sideways"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("strong, weak, none") != std::string::npos);
        QCOMPARE(run({"report", "--project", kProject, "--out", out, "--tokens", "-3"}).code, 2);
        QCOMPARE(
            run({"report", "--project", kProject, "--out", "/no/such/dir/r.html", "--quiet"}).code,
            2);
        QVERIFY(!QFile::exists(QString::fromStdString(out)));
    }
};

QTEST_GUILESS_MAIN(TestCliReport)
#include "test_cli_report.moc"
