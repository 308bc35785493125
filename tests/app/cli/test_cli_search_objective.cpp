// `tandem-cli search --objective throughput|throughput-per-watt|cost` with a token budget, as a
// script reads it: the JSON names the objective, every feasible point carries its energy, power
// and (with --tokens) days, device-hours, MWh and cost, which are recomputed here by hand; the
// best point is the highest objective, which is recomputed from each point's figures; the
// project's run.objective drives the CLI; bad values exit with code 2 and say what is allowed.
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <cmath>

#include "core/hardware/preset_library.h"
#include "core/io/project_file.h"
#include "core/search/search_space.h"
#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {
tandem::core::search::SearchSpace smallSpace() {
    auto space = tandem::core::search::SearchSpace::phaze();
    space.name = "cli-objective";
    space.numTensorCores = {4, 8, 16};
    space.tensorCoreRows = {64, 128};
    space.tensorCoreCols = {128};
    space.numVectorCores = {2, 8};
    space.globalBufferBytes = {std::int64_t(32) << 20};
    space.microbatchSizes = {1, 2};
    space.hbmCapacityBytes = {std::int64_t(32) << 30};
    return space;
}

QJsonObject readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return parseObject(file.readAll().toStdString());
}

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}
}  // namespace

class TestCliSearchObjective : public QObject {
    Q_OBJECT
private slots:
    void rankedByObjectiveWithBudget_data() {
        QTest::addColumn<QString>("objective");
        QTest::newRow("throughput") << "throughput";
        QTest::newRow("throughput-per-watt") << "throughput-per-watt";
        QTest::newRow("cost") << "cost";
    }

    void rankedByObjectiveWithBudget() {
        QFETCH(QString, objective);
        QTemporaryDir dir;
        const QString space = dir.filePath("space.json");
        QVERIFY(smallSpace().saveFile(space.toStdString()));
        const QString json = dir.filePath("out.json");
        const auto r =
            run({"search", "--model", "gpt2-xl", "--space", space.toStdString(), "--objective",
                 objective.toStdString(), "--tokens", "1e9", "--price-per-device-hour", "2.5",
                 "--json", json.toStdString(), "--quiet"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject results = readJson(json);
        QCOMPARE(results.value("objective").toString(), objective);
        const QJsonArray points = results.value("points").toArray();
        const double batch = 4096, tokensPerSample = 1024;  // gpt2-xl's sequence length
        int best = -1;
        double bestValue = 0;
        for (int i = 0; i < points.size(); ++i) {
            const QJsonObject p = points[i].toObject();
            if (p.value("status").toString() != "feasible") {
                QVERIFY(!p.contains("energy_j_per_iteration") && !p.contains("days_to_train"));
                continue;
            }
            const QJsonObject plan = p.value("plan").toObject();
            const double joules = p.value("energy_j_per_iteration").toDouble();
            const double watts = p.value("average_power_w").toDouble();
            const double devices = plan.value("devices_used").toDouble();
            const double batchTime = plan.value("time_per_batch_s").toDouble();  // modelled
            const double throughput = p.value("throughput_samples_per_s").toDouble();
            QVERIFY(joules > 0 && watts > 0 && devices >= 1 && devices <= 1024);
            QVERIFY(near(watts * devices * batchTime, joules));
            const double iterations = 1e9 / (batch * tokensPerSample);
            QVERIFY(near(p.value("days_to_train").toDouble(), iterations * batchTime / 86400));
            const double deviceHours = iterations * batchTime * devices / 3600;
            QVERIFY(near(p.value("device_hours").toDouble(), deviceHours));
            QVERIFY(near(p.value("energy_mwh").toDouble(), iterations * joules / 3.6e9));
            QVERIFY(near(p.value("cost").toDouble(), 2.5 * deviceHours));
            const double value = objective == "throughput" ? throughput
                                 : objective == "cost"     ? throughput / devices
                                                           : batch / joules;
            if (objective == "throughput")
                QVERIFY(!p.contains("objective"));
            else
                QVERIFY(near(p.value("objective").toDouble(), value));
            if (best < 0 || value > bestValue) {
                best = i;
                bestValue = value;
            }
        }
        QVERIFY(best >= 0);
        QCOMPARE(results.value("best").toInt(), best);
        const auto summary =
            run({"search", "--model", "gpt2-xl", "--space", space.toStdString(), "--objective",
                 objective.toStdString(), "--tokens", "1e9", "--quiet"});
        QVERIFY2(summary.code == 0, summary.err.c_str());
        QVERIFY(summary.out.find("to train 1.00 B tokens") != std::string::npos);
        QVERIFY(summary.out.find("W per device on average") != std::string::npos);
        QCOMPARE(summary.out.find("ranked by") != std::string::npos, objective != "throughput");
    }

    void projectObjectiveAndBadValues() {
        QTemporaryDir dir;
        tandem::core::io::ProjectFile project;
        project.model = "gpt2-xl";
        project.hardware = tandem::core::hardware::PresetLibrary::preset("tpuv4-like").value();
        project.search = smallSpace();
        project.search.base = project.hardware;
        project.objective = tandem::core::search::SearchObjective::Cost;
        const QString path = dir.filePath("p.tandem");
        QVERIFY(project.save(path.toStdString()).ok());
        auto r = run({"search", "--project", path.toStdString(), "--quiet"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(r.out.find("ranked by cost to train (samples/device-h)") != std::string::npos);
        // The flag overrides the project's.
        r = run(
            {"search", "--project", path.toStdString(), "--objective", "throughput", "--quiet"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(r.out.find("ranked by") == std::string::npos);

        const std::string s = path.toStdString();
        r = run({"search", "--project", s, "--objective", "fastest"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("throughput, throughput-per-watt, cost") != std::string::npos);
        r = run({"search", "--project", s, "--price-per-device-hour", "2"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("--tokens") != std::string::npos);
        QCOMPARE(run({"search", "--project", s, "--tokens", "-1"}).code, 2);
        QCOMPARE(
            run({"search", "--project", s, "--tokens", "1e9", "--price-per-device-hour", "nan"})
                .code,
            2);
        // A project naming an unknown objective is refused with the field named.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray text = file.readAll();
        file.close();
        QVERIFY(text.contains("\"objective\": \"cost\""));
        text.replace("\"objective\": \"cost\"", "\"objective\": \"watts\"");
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
        file.close();
        r = run({"search", "--project", s});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("run.objective") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCliSearchObjective)
#include "test_cli_search_objective.moc"
