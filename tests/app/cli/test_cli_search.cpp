// `tandem-cli search` as scripts use it: the JSON file's keys and their agreement with
// the CSV, the summary's four-way comparison, the space file round trip, multi-model runs, and
// bad input exiting with code 2 and a message.
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/hardware/preset_library.h"
#include "core/io/project_file.h"
#include "core/search/search_space.h"
#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {
QString writeSmallSpace(QTemporaryDir& dir, std::vector<std::int64_t> microbatches = {1, 2}) {
    auto space = tandem::core::search::SearchSpace::phaze();
    space.name = "cli-small";
    space.numTensorCores = {4, 8};
    space.tensorCoreRows = {64, 128};
    space.tensorCoreCols = {128};
    space.numVectorCores = {2};
    space.globalBufferBytes = {std::int64_t(128) << 20};
    space.microbatchSizes = std::move(microbatches);
    space.hbmCapacityBytes = {std::int64_t(32) << 30};
    const QString path = dir.filePath("space.json");
    if (!space.saveFile(path.toStdString())) return {};
    return path;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
}  // namespace

class TestCliSearch : public QObject {
    Q_OBJECT

private slots:
    // Points that cannot run are counted with their commonest reasons: here every point of
    // microbatch 3, whose size does not divide the global batch of 4,096.
    void summaryNamesWhyPointsAreInfeasible() {
        QTemporaryDir dir;
        const QString space = writeSmallSpace(dir, {1, 3});
        const auto r = run({"search", "--model", "gpt2-xl", "--space", space.toStdString(),
                            "--threads", "2", "--quiet"});
        QVERIFY2(r.code == 0, r.err.c_str());
        // 4 chips × 2 mbs × 1 HBM × 2 recompute = 16 points, the 8 of microbatch 3 infeasible.
        QVERIFY2(r.out.find("Evaluated 16 points (8 feasible)") != std::string::npos,
                 r.out.c_str());
        QVERIFY2(
            r.out.find("Not feasible: 8 points; most often:\n  8 × the global batch of "
                       "4096 samples does not split into microbatches of 3\n") != std::string::npos,
            r.out.c_str());
    }

    void jsonCsvAndSummary() {
        QTemporaryDir dir;
        const QString space = writeSmallSpace(dir);
        QVERIFY(!space.isEmpty());
        const QString json = dir.filePath("out.json"), csv = dir.filePath("out.csv");
        const auto r =
            run({"search", "--model", "gpt2-xl", "--space", space.toStdString(), "--threads", "2",
                 "--json", json.toStdString(), "--csv", csv.toStdString(), "--quiet"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(r.err.empty());  // --quiet
        for (const char* text :
             {"Best point:", "Pareto front:", "reference chip + fixed strategy",
              "reference chip + Tandem placement", "searched chip + fixed strategy",
              "joint optimum", "same options: reference chip + placement", "Time per phase:"})
            QVERIFY2(r.out.find(text) != std::string::npos, text);

        const QJsonObject root = QJsonDocument::fromJson(readAll(json)).object();
        for (const char* key :
             {"points", "pareto", "best", "plans", "baselines", "evaluated", "elapsed_s"})
            QVERIFY2(root.contains(key), key);
        const QJsonArray points = root["points"].toArray();
        // 4 chips (2 TC counts × 2 row sizes; all in the window) × 2 mbs × 1 HBM × 2 recompute.
        QCOMPARE(points.size(), 4 * 2 * 1 * 2);
        QCOMPARE(root["evaluated"].toInt(), points.size());
        // CSV: a header plus one row per point, throughputs identical to the JSON's.
        const QList<QByteArray> rows = readAll(csv).trimmed().split('\n');
        QCOMPARE(rows.size(), points.size() + 1);
        const QList<QByteArray> header = rows.front().split(',');
        const int column = header.indexOf("throughput_samples_per_s");
        QVERIFY(column >= 0);
        for (int i = 0; i < points.size(); ++i) {
            const double csvValue = rows[i + 1].split(',')[column].toDouble();
            QCOMPARE(csvValue, points[i].toObject()["throughput_samples_per_s"].toDouble());
        }
        // The best point is the highest throughput; the joint baseline is that point.
        const int best = root["best"].toInt();
        double top = 0;
        for (const auto& p : points)
            top = std::max(top, p.toObject()["throughput_samples_per_s"].toDouble());
        QCOMPARE(points[best].toObject()["throughput_samples_per_s"].toDouble(), top);
        const QJsonObject baselines = root["baselines"].toObject();
        QCOMPARE(baselines["joint"].toObject()["throughput_samples_per_s"].toDouble(), top);
        for (const char* key : {"reference_fixed", "reference_placed", "searched_fixed",
                                "placement_only", "chip_only", "chip_and_placement", "same_hbm"}) {
            const QJsonObject b = baselines[key].toObject();
            QVERIFY2(b["available"].toBool(), key);
            QVERIFY(b["throughput_samples_per_s"].toDouble() <= top);
            QVERIFY(b["joint_factor"].toDouble() >= 1.0);
        }
        QVERIFY(root["plans"].toObject().contains(QString::number(best)));
        for (const auto& index : root["pareto"].toArray())
            QVERIFY(root["plans"].toObject().contains(QString::number(index.toInt())));
    }

    void clockAndBandwidthAreSearched() {
        // A space file as a user writes it, with the registry's keys: one chip at two clocks and
        // two HBM bandwidths. Every combination is a point; the CSV and the JSON carry each
        // point's values; a slower clock or a narrower memory never trains faster; and the
        // results read back (split into shards and merged) give the whole run's CSV.
        QTemporaryDir dir;
        const QString space = dir.filePath("clock-space.json");
        {
            QFile file(space);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(R"({"format": "tandem-search-space", "version": 1, "name": "clocks",
                "accelerator": {"numTensorCores": [8], "tensorCoreRows": [128],
                  "tensorCoreCols": [128], "numVectorCores": [2],
                  "globalBufferBytes": [134217728],
                  "clockHz": [525000000, 1050000000],
                  "hbmBandwidthBytesPerSecond": [600000000000, 1200000000000]},
                "hbmCapacityBytes": [34359738368], "microbatchSizes": [1],
                "recompute": ["off"]})");
        }
        const auto search = [&](const std::vector<std::string>& extra) {
            std::vector<std::string> args{"search",  "--model",           "gpt2-xl",
                                          "--space", space.toStdString(), "--quiet"};
            args.insert(args.end(), extra.begin(), extra.end());
            return run(args);
        };
        const QString csv = dir.filePath("all.csv"), json = dir.filePath("all.json");
        auto r = search({"--csv", csv.toStdString(), "--json", json.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        // The summary names the searched clock and bandwidth of each point it shows.
        QVERIFY2(r.out.find("Best point: 8 TC 128×128 · 2 VC ×128 · GLB 128 MiB · Clock 1.05 GHz "
                            "· HBM bandwidth 1.20 TB/s") != std::string::npos,
                 r.out.c_str());
        const QList<QByteArray> rows = readAll(csv).trimmed().split('\n');
        QCOMPARE(rows.size(), 1 + 4);
        const QList<QByteArray> header = rows.front().split(',');
        const int clock = header.indexOf("clock_hz"),
                  bandwidth = header.indexOf("hbm_bandwidth_bytes_per_s"),
                  throughput = header.indexOf("throughput_samples_per_s");
        QVERIFY(clock >= 0 && bandwidth >= 0 && throughput >= 0);
        std::map<std::pair<double, double>, double> byValues;
        for (int i = 1; i < rows.size(); ++i) {
            const QList<QByteArray> cells = rows[i].split(',');
            byValues[{cells[clock].toDouble(), cells[bandwidth].toDouble()}] =
                cells[throughput].toDouble();
        }
        QCOMPARE(int(byValues.size()), 4);  // each combination once
        const double slowNarrow = byValues.at({525e6, 600e9}),
                     fastNarrow = byValues.at({1050e6, 600e9});
        const double slowWide = byValues.at({525e6, 1200e9}),
                     fastWide = byValues.at({1050e6, 1200e9});
        QVERIFY(slowNarrow > 0);
        QVERIFY(fastNarrow >= slowNarrow && fastWide >= slowWide);
        QVERIFY(slowWide >= slowNarrow && fastWide >= fastNarrow);
        QVERIFY(fastWide > slowNarrow);
        // The JSON names a point's clock where it differs from the base's (tpuv4-like, 1.05 GHz).
        const QJsonArray points =
            QJsonDocument::fromJson(readAll(json)).object()["points"].toArray();
        QCOMPARE(points.size(), 4);
        int withClock = 0;
        for (const auto& p : points) {
            const QJsonObject hardware = p.toObject()["hardware"].toObject();
            if (hardware.contains("clockHz")) {
                QCOMPARE(hardware["clockHz"].toDouble(), 525e6);
                ++withClock;
            }
        }
        QCOMPARE(withClock, 2);

        const QString one = dir.filePath("1.json"), two = dir.filePath("2.json"),
                      merged = dir.filePath("merged.csv");
        QVERIFY(search({"--shard", "1/2", "--json", one.toStdString()}).code == 0);
        QVERIFY(search({"--shard", "2/2", "--json", two.toStdString()}).code == 0);
        r = run({"merge", one.toStdString(), two.toStdString(), "--csv", merged.toStdString()});
        QVERIFY2(r.code == 0, r.err.c_str());
        // Up to "best": the schedule statistics and timings per point are not in a results file.
        const auto upToBest = [](const QByteArray& text) {
            QList<QByteArray> out;
            for (const QByteArray& row : text.trimmed().split('\n'))
                out << row.split(',').mid(0, 33).join(',');
            return out;
        };
        QCOMPARE(rows.front().split(',')[32], QByteArray("best"));
        QCOMPARE(upToBest(readAll(merged)), upToBest(readAll(csv)));
    }

    void multiModel() {
        QTemporaryDir dir;
        const QString space = writeSmallSpace(dir);
        const QString json = dir.filePath("multi.json");
        const auto r = run({"search", "--model", "bert-large", "--model", "gpt2-xl", "--space",
                            space.toStdString(), "--json", json.toStdString(), "--quiet"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(r.out.find("geometric mean") != std::string::npos);
        const QJsonObject root = QJsonDocument::fromJson(readAll(json)).object();
        QCOMPARE(root["models"].toArray().size(), 2);
        const QJsonObject best = root["points"].toArray()[root["best"].toInt()].toObject();
        QCOMPARE(best["model_throughputs_samples_per_s"].toArray().size(), 2);
        QVERIFY(root["baselines"].toObject().contains("bert-large"));
        QVERIFY(root["baselines"].toObject().contains("gpt2-xl"));
        // Issue 27, item 1: each model's searched steps of the attribution chain are its own
        // evaluations on the chosen chip — available where they fit, the point the results hold
        // there giving the same throughput.
        const QJsonArray points = root["points"].toArray();
        const int chip = best["chip_index"].toInt();
        int matched = 0;
        const char* names[] = {"bert-large", "gpt2-xl"};
        for (int m = 0; m < 2; ++m) {
            const QJsonObject b = root["baselines"].toObject()[names[m]].toObject();
            const QJsonObject reference = b["reference_fixed"].toObject();
            QVERIFY(reference["available"].toBool());
            const QJsonObject held = reference["point"].toObject();
            const QJsonObject placed = b["chip_and_placement"].toObject();
            QVERIFY2(placed["available"].toBool(), qPrintable(placed["message"].toString()));
            const QJsonObject at = placed["point"].toObject();
            QCOMPARE(at["chip_index"].toInt(), chip);
            for (const char* key : {"microbatch", "recompute", "hbm_bytes"})
                QCOMPARE(at[key].toVariant(), held[key].toVariant());
            const double throughput = placed["throughput_samples_per_s"].toDouble();
            for (const auto& v : points) {
                const QJsonObject p = v.toObject();
                const QJsonArray each = p["model_throughputs_samples_per_s"].toArray();
                if (p["chip_index"].toInt() != chip || each.size() != 2 ||
                    p["microbatch"] != at["microbatch"] || p["recompute"] != at["recompute"] ||
                    p["hbm_bytes"].toVariant() != at["hbm_bytes"].toVariant())
                    continue;
                QCOMPARE(each[m].toDouble(), throughput);
                ++matched;
            }
            // Placement never below the fixed strategy; freeing microbatch and recompute never
            // below holding them.
            const QJsonObject fixed = b["chip_only"].toObject();
            if (fixed["available"].toBool())
                QVERIFY(fixed["throughput_samples_per_s"].toDouble() <= throughput);
            const QJsonObject sameHbm = b["same_hbm"].toObject();
            QVERIFY2(sameHbm["available"].toBool(), qPrintable(sameHbm["message"].toString()));
            QVERIFY(sameHbm["throughput_samples_per_s"].toDouble() >= throughput);
        }
        QVERIFY2(matched > 0, "the chosen chip at the held options is a point of the results");

        // The same model twice would count twice in the geometric mean: refused, also through
        // a project whose search_models repeats its model.
        const auto twice = run({"search", "--model", "gpt2-xl", "--model", "bert-large", "--model",
                                "gpt2-xl", "--space", space.toStdString(), "--quiet"});
        QCOMPARE(twice.code, 2);
        QVERIFY2(twice.err.find("'gpt2-xl' is listed twice (models 1 and 3)") != std::string::npos,
                 twice.err.c_str());
        tandem::core::io::ProjectFile project;
        project.model = "gpt2-xl";
        project.searchModels = {"bert-large", "gpt2-xl"};
        project.hardware = tandem::core::hardware::PresetLibrary::preset("tpuv4-like").value();
        project.search = tandem::core::search::SearchSpace::loadFile(space.toStdString()).value();
        const QString path = dir.filePath("twice.tandem");
        QVERIFY(project.save(path.toStdString()).ok());
        const auto fromProject = run({"search", "--project", path.toStdString(), "--quiet"});
        QCOMPARE(fromProject.code, 2);
        QVERIFY2(fromProject.err.find("is listed twice") != std::string::npos,
                 fromProject.err.c_str());
    }

    void projectFile() {
        // The GUI's project file drives the CLI: model, hardware, space and explorer.
        QTemporaryDir dir;
        tandem::core::io::ProjectFile project;
        project.model = "gpt2-xl";
        project.hardware = tandem::core::hardware::PresetLibrary::preset("tpuv4-like").value();
        project.search = tandem::core::search::SearchSpace::phaze();
        project.search.name = "from-project";
        project.search.numTensorCores = {4, 8};
        project.search.tensorCoreRows = {128};
        project.search.tensorCoreCols = {128};
        project.search.numVectorCores = {2};
        project.search.globalBufferBytes = {std::int64_t(128) << 20};
        project.search.microbatchSizes = {1};
        project.search.hbmCapacityBytes = {std::int64_t(32) << 30};
        project.search.base = project.hardware;
        project.explorer = tandem::core::search::ExplorerKind::Pruned;
        const QString path = dir.filePath("p.tandem");
        QVERIFY(project.save(path.toStdString()).ok());
        const auto r = run({"search", "--project", path.toStdString(), "--quiet"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(r.out.find("gpt2-xl over 'from-project'") != std::string::npos);
        QVERIFY(r.out.find("pruned explorer") != std::string::npos);
        QCOMPARE(run({"search", "--project", "/no/such/project.tandem"}).code, 2);
    }

    // Issue 26, item 6: the training flags reach every point; with V, the ZeRO stage and sequence
    // parallelism left to the placement each point chooses them (never slower than the plain
    // search, point by point), and its plan says what was chosen.
    void trainingFlagsReachEveryPoint() {
        QTemporaryDir dir;
        const std::string s = writeSmallSpace(dir).toStdString();
        const QString plainPath = dir.filePath("plain.json"), chosenPath = dir.filePath("c.json");
        const std::vector<std::string> base{"search", "--model",     "gpt2-xl", "--space",
                                            s,        "--optimizer", "adam",    "--quiet"};
        auto plainArgs = base, chosenArgs = base;
        plainArgs.insert(plainArgs.end(), {"--json", plainPath.toStdString()});
        chosenArgs.insert(chosenArgs.end(),
                          {"--interleave", "auto", "--zero", "auto", "--sequence-parallel=auto",
                           "--json", chosenPath.toStdString()});
        const auto plainRun = run(plainArgs);
        QVERIFY2(plainRun.code == 0, plainRun.err.c_str());
        const auto chosenRun = run(chosenArgs);
        QVERIFY2(chosenRun.code == 0, chosenRun.err.c_str());
        const QJsonObject plain = QJsonDocument::fromJson(readAll(plainPath)).object();
        const QJsonObject chosen = QJsonDocument::fromJson(readAll(chosenPath)).object();
        const QJsonArray a = plain["points"].toArray(), b = chosen["points"].toArray();
        QCOMPARE(a.size(), b.size());
        int faster = 0;
        for (int i = 0; i < a.size(); ++i) {
            const double x = a[i].toObject()["throughput_samples_per_s"].toDouble();
            const double y = b[i].toObject()["throughput_samples_per_s"].toDouble();
            QVERIFY2(y >= x, "a choice is never slower than the plain plan");
            if (y > x) ++faster;
            // Every point, stored plan or not, names its V and ZeRO stage: chosen ones where it
            // gained, the plain plan's (V 1, ZeRO 0) in the plain search and where nothing won.
            const QJsonObject plainShape = a[i].toObject()["plan"].toObject();
            const QJsonObject shape = b[i].toObject()["plan"].toObject();
            if (shape.isEmpty()) continue;
            QCOMPARE(plainShape["interleave"].toInt(), 1);
            QCOMPARE(plainShape["zero"].toInt(), 0);
            QCOMPARE(plainShape["sequence_parallel"].toBool(), false);
            QCOMPARE(shape["interleave"].toInt() > 1 || shape["zero"].toInt() > 0 ||
                         shape["sequence_parallel"].toBool(),
                     y > x);
        }
        QVERIFY2(faster > 0, "some point gains from V or ZeRO");
        // A stored plan (the best point's, the front's) that beats the plain one carries its V
        // or ZeRO stage; one that does not is the plain plan.
        const QJsonObject plans = chosen["plans"].toObject();
        QVERIFY(!plans.isEmpty());
        for (auto it = plans.begin(); it != plans.end(); ++it) {
            const int i = it.key().toInt();
            const QJsonObject plan = it.value().toObject();
            const bool gained = b[i].toObject()["throughput_samples_per_s"].toDouble() >
                                a[i].toObject()["throughput_samples_per_s"].toDouble();
            QCOMPARE(plan["interleave"].toInt() > 1 || plan["zero"].toInt() > 0 ||
                         plan["sequence_parallel"].toBool(),
                     gained);
        }

        // Bad values: exit 2, saying what is allowed.
        auto bad = [&](std::vector<std::string> extra, const char* says) {
            auto args = base;
            args.insert(args.end(), extra.begin(), extra.end());
            const auto r = run(args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.find(says) != std::string::npos, r.err.c_str());
        };
        bad({"--zero", "5"}, "[0, 3]");
        bad({"--interleave", "x"}, "or auto");
        bad({"--precision", "fp4"}, "fp16, bf16, fp8");
        bad({"--precision", "fp8"}, "fp8MacRatio");  // tpuv4-like has no fp8 rate
        bad({"--zero", "3", "--cost-model", "phaze-compat"}, "no ZeRO");
        const auto lamb =
            run({"search", "--model", "gpt2-xl", "--space", s, "--optimizer", "lamb"});
        QCOMPARE(lamb.code, 2);
        QVERIFY2(lamb.err.find("sgd, adam") != std::string::npos, lamb.err.c_str());
    }

    void badInput() {
        QTemporaryDir dir;
        const QString space = writeSmallSpace(dir);
        const std::string s = space.toStdString();
        QCOMPARE(run({"search"}).code, 2);  // no model
        QCOMPARE(run({"search", "--model", "no-such-model", "--space", s}).code, 2);
        QCOMPARE(run({"search", "--model", "gpt2-xl", "--space", "/no/such/space.json"}).code, 2);
        QCOMPARE(run({"search", "--model", "gpt2-xl", "--space", s, "--explorer", "random"}).code,
                 2);
        QCOMPARE(run({"search", "--model", "gpt2-xl", "--space", s, "--threads", "-1"}).code, 2);
        QCOMPARE(run({"search", "--model", "gpt2-xl", "--space", s, "--threads", "1024"}).code, 2);
        QCOMPARE(run({"search", "--model", "gpt2-xl", "--space", s, "--devices", "0"}).code, 2);
        QCOMPARE(run({"search", "--model", "gpt2-xl", "--space", s, "--cost-model", "x"}).code, 2);
        QFile broken(dir.filePath("broken.json"));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write(
            "{\"format\": \"tandem-search-space\", \"version\": 1, \"microbatchSizes\": [0]}");
        broken.close();
        const auto r =
            run({"search", "--model", "gpt2-xl", "--space", broken.fileName().toStdString()});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("microbatch") != std::string::npos);
        const auto unwritable = run({"search", "--model", "gpt2-xl", "--space", s, "--quiet",
                                     "--json", "/no/such/dir/out.json"});
        QCOMPARE(unwritable.code, 2);
        QVERIFY(!unwritable.err.empty());
    }
};

QTEST_GUILESS_MAIN(TestCliSearch)
#include "test_cli_search.moc"
