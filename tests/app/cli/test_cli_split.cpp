// A search split into parts ends with the same results as one run: `search --shard K/N` files
// joined by `merge`, a run killed with SIGTERM and resumed from its `--checkpoint` (also past a
// torn last line), and `mpirun -np 2 tandem-cli search`. The oracle is always a whole run of the
// same search in one process: the JSON files must be equal apart from "elapsed_s" and "threads".
// Each shard holds exactly its chips (chip_index mod N = K − 1), the whole's points for them, and
// the shards' points add up to the whole's. Merging parts that do not make one complete search
// (another search, another N, a shard twice or missing, an interrupted shard, a whole-search
// file, a file without "run", no files, no output) and bad --shard values exit 2 with a message
// naming the problem, writing nothing; so do shards with edited values (merge checks every point
// and evaluates the decisive ones and a sample again). The searches are the example project's space
// (4,600 points): with gpt2-xl (~2 s), and with its own gpt3-175b (~10 s) for the run to interrupt.
// The time from the signal to the exit is printed, never asserted.
#include <signal.h>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "app/cli/mpi_job.h"
#include "tests/app/cli/cli_test_support.h"
#include "tests/app/cli/search_files_support.h"

using namespace cli_test;

class TestCliSplit : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string path(const std::string& name) const {
        return dir_.filePath(QString::fromStdString(name)).toStdString();
    }

    // The quick search with `extra`, run once per `name` into that file of the fixture's folder;
    // "" (the error printed) when it fails.
    std::string quickOnce(const std::string& name, Args extra) {
        const std::string out = path(name);
        if (exists(out)) return out;
        extra.insert(extra.end(), {"--json", out});
        const auto r = run(quick(extra));
        if (r.code == 0) return out;
        qWarning("%s: exit %d: %s", name.c_str(), r.code, r.err.c_str());
        return {};
    }
    std::string whole() { return quickOnce("whole.json", {}); }
    std::string shard(int k, int n) {
        const std::string kn = std::to_string(k) + "/" + std::to_string(n);
        return quickOnce("shard-" + std::to_string(k) + "-of-" + std::to_string(n) + ".json",
                         {"--shard", kn});
    }

private slots:
    void shardsMergedEqualOneRun() {
        const std::string all = whole();
        QVERIFY(!all.empty());
        std::vector<std::string> shards;
        for (int k = 1; k <= 3; ++k) {
            shards.push_back(shard(k, 3));
            QVERIFY(!shards.back().empty());
        }
        const std::string merged = path("merged.json");
        const auto r =
            run({"merge", "--json", merged, "--threads", "2", shards[2], shards[0], shards[1]});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(r.out.find("Merged 3 shards of 3") != std::string::npos, r.out.c_str());
        const Json expected = comparable(all);
        QVERIFY(expected.is_object());
        QVERIFY(!expected["run"].contains("shard"));
        const std::string differ = difference(comparable(merged), expected);
        QVERIFY2(differ.empty(), differ.c_str());

        // Each shard holds exactly its chips' points, equal to the whole run's.
        const Json& points = expected["points"];
        QCOMPARE(qint64(points.size()), expected["points_in_space"].get<qint64>());
        std::map<qint64, const Json*> byIndex;
        for (const Json& p : points) byIndex[p["index"].get<qint64>()] = &p;
        QCOMPARE(byIndex.size(), points.size());
        std::set<qint64> seen;
        for (int k = 1; k <= 3; ++k) {
            const Json part = comparable(shards[std::size_t(k - 1)]);
            QVERIFY(part["run"]["shard"] == (Json{{"index", k}, {"count", 3}}));
            QVERIFY(!part["points"].empty());
            for (const Json& p : part["points"]) {
                const qint64 index = p["index"].get<qint64>();
                QCOMPARE(p["chip_index"].get<qint64>() % 3, qint64(k - 1));
                QVERIFY2(seen.insert(index).second, "a point in two shards");
                QVERIFY(byIndex.count(index));
                QVERIFY2(p == *byIndex[index], qPrintable(QString::number(index)));
            }
        }
        QCOMPARE(seen.size(), points.size());  // the counts add up to the whole's
    }

    void mismatchedShardsAreRefused() {
        const std::string s1 = shard(1, 3), s2 = shard(2, 3), s3 = shard(3, 3);
        const std::string half = shard(1, 2), all = whole();
        const std::string otherSearch =
            quickOnce("batch-2048-shard-1-of-3.json", {"--global-batch", "2048", "--shard", "1/3"});
        for (const std::string& file : {s1, s2, s3, half, all, otherSearch}) QVERIFY(!file.empty());
        // An interrupted shard: the file of a complete one marked cancelled.
        QByteArray text = readBytes(s2);
        QVERIFY(text.contains("\"cancelled\":false"));
        const std::string cancelled = path("cancelled.json");
        QVERIFY(writeBytes(cancelled, text.replace("\"cancelled\":false", "\"cancelled\":true")));
        // A shard that says nothing of its run.
        auto edited = nlohmann::ordered_json::parse(readBytes(s3).toStdString());
        QVERIFY(edited.erase("run") == 1);
        const std::string noRun = path("no-run.json");
        QVERIFY(writeBytes(noRun, QByteArray::fromStdString(edited.dump())));

        const std::string out = path("refused.json");
        struct Case {
            const char* what;
            Args args;
            std::vector<std::string> says;
        };
        const std::vector<Case> cases = {
            {"different searches",
             {"--json", out, s2, otherSearch, s3},
             {"are shards of different searches", "training"}},
            {"different N", {"--json", out, s2, half}, {"share N"}},
            {"same shard twice", {"--json", out, s1, s2, s1, s3}, {"are both shard 1/3"}},
            {"a missing shard", {"--json", out, s3, s1}, {"shard 2/3 missing"}},
            {"an interrupted shard", {"--json", out, s1, cancelled, s3}, {"was interrupted"}},
            {"a whole search", {"--json", out, all}, {"not a shard"}},
            {"a file without run", {"--json", out, s1, s2, noRun}, {"no \"run\""}},
            {"no files", {"--json", out}, {"no shards given"}},
            {"no --json", {s1, s2, s3}, {"--json OUT"}},
        };
        for (const Case& c : cases) {
            Args args = {"merge"};
            args.insert(args.end(), c.args.begin(), c.args.end());
            const auto r = run(args);
            QVERIFY2(r.code == 2, c.what);
            for (const std::string& fragment : c.says)
                QVERIFY2(r.err.find(fragment) != std::string::npos,
                         qPrintable(QString("%1: %2").arg(c.what, r.err.c_str())));
            QVERIFY2(!exists(out), c.what);
        }

        for (const std::string bad : {"0/3", "4/3", "3", "a/b", "1/0"}) {
            const auto r = run(quick({"--shard", bad, "--json", out}));
            QVERIFY2(r.code == 2, bad.c_str());
            QVERIFY2(r.err.find("--shard = '" + bad + "'") != std::string::npos, r.err.c_str());
            QVERIFY(!exists(out));
        }
    }

    // Shards with edited values: each is refused (exit 2, naming the file and the point), whether
    // the edit contradicts the point itself or only its evaluation again.
    void editedShardsAreRefused() {
        const std::vector<std::string> parts = {shard(1, 3), shard(2, 3), shard(3, 3)};
        for (const std::string& file : parts) QVERIFY(!file.empty());
        // The whole search's best point and the shard that holds it.
        int bestShard = -1;
        qint64 bestIndex = -1;
        double bestThroughput = 0;
        std::vector<nlohmann::ordered_json> files;
        for (int k = 0; k < 3; ++k) {
            files.push_back(nlohmann::ordered_json::parse(readBytes(parts[std::size_t(k)])));
            for (const auto& p : files.back()["points"])
                if (p["throughput_samples_per_s"].get<double>() > bestThroughput) {
                    bestThroughput = p["throughput_samples_per_s"].get<double>();
                    bestIndex = p["index"].get<qint64>();
                    bestShard = k;
                }
        }
        QVERIFY(bestShard >= 0);
        using Edit = std::function<void(nlohmann::ordered_json & points)>;
        auto best = [&](nlohmann::ordered_json& points) -> nlohmann::ordered_json& {
            for (auto& p : points)
                if (p["index"].get<qint64>() == bestIndex) return p;
            return points[0];
        };
        struct Case {
            const char* what;
            int shard;
            Edit edit;
        };
        const std::vector<Case> cases = {
            {"throughput x10", bestShard,
             [&](nlohmann::ordered_json& points) {
                 auto& p = best(points);
                 p["throughput_samples_per_s"] = p["throughput_samples_per_s"].get<double>() * 10;
             }},
            {"throughput x10 with a matching time per batch", bestShard,
             [&](nlohmann::ordered_json& points) {
                 auto& p = best(points);
                 const double time = p["plan"]["time_per_batch_s"].get<double>();
                 const double batch =
                     std::round(p["throughput_samples_per_s"].get<double>() * time);
                 p["plan"]["time_per_batch_s"] = time / 10;
                 p["throughput_samples_per_s"] = batch / (time / 10);
             }},
            {"999 stages", bestShard,
             [&](nlohmann::ordered_json& points) { best(points)["plan"]["stages"] = 999; }},
            {"infeasible with its plan", bestShard,
             [&](nlohmann::ordered_json& points) { best(points)["status"] = "infeasible"; }},
            {"a consistent lie on a sampled point", (bestShard + 1) % 3,
             [&](nlohmann::ordered_json& points) {
                 auto& p = points[0];  // each shard's first point is evaluated again
                 if (p["status"] == "feasible") {
                     p["status"] = "infeasible";
                     p["throughput_samples_per_s"] = 0;
                     p["fixed_throughput_samples_per_s"] = 0;
                     p["plan"] = nullptr;
                 } else {
                     const auto& winner = best(files[std::size_t(bestShard)]["points"]);
                     p["status"] = "feasible";
                     p["throughput_samples_per_s"] = winner["throughput_samples_per_s"];
                     p["plan"] = winner["plan"];
                 }
             }},
        };
        const std::string out = path("edited-merged.json");
        for (const Case& c : cases) {
            nlohmann::ordered_json edited = files[std::size_t(c.shard)];
            const qint64 index = edited["points"][0]["index"].get<qint64>();
            c.edit(edited["points"]);
            const std::string file = path("edited.json");
            QVERIFY(writeBytes(file, QByteArray::fromStdString(edited.dump())));
            Args args = {"merge", "--json", out, "--threads", "2"};
            for (int k = 0; k < 3; ++k) args.push_back(k == c.shard ? file : parts[std::size_t(k)]);
            const auto r = run(args);
            QVERIFY2(r.code == 2, qPrintable(QString("%1: exit %2").arg(c.what).arg(r.code)));
            const qint64 named = c.shard == bestShard ? bestIndex : index;
            for (const std::string& fragment : {file, "point " + std::to_string(named)})
                QVERIFY2(r.err.find(fragment) != std::string::npos,
                         qPrintable(QString("%1: %2").arg(c.what, r.err.c_str())));
            QVERIFY2(!exists(out), c.what);
        }
    }

    void killedRunResumesToTheSameResult() {
        // The example project with its own gpt3-175b: long enough to interrupt.
        const std::string ck = path("ck"), json = path("resumed.json");
        const Args command = {"search",       "--project", project(), "--threads", "2",
                              "--checkpoint", ck,          "--json",  json,        "--quiet"};
        QStringList args;
        for (std::size_t i = 1; i < command.size(); ++i) args << QString::fromStdString(command[i]);
        QProcess process;
        process.start(TANDEM_CLI_PATH, QStringList{"search"} + args);
        QVERIFY(process.waitForStarted(30000));
        QElapsedTimer waited;
        waited.start();
        while (readBytes(ck).count('\n') < 50 && process.state() == QProcess::Running &&
               waited.elapsed() < 120000)
            process.waitForFinished(100);
        QVERIFY2(process.state() == QProcess::Running, "the search ended before its checkpoint");
        QElapsedTimer stop;
        stop.start();
        ::kill(pid_t(process.processId()), SIGTERM);
        QVERIFY(process.waitForFinished(120000));
        qInfo("search stopped %lld ms after SIGTERM", stop.elapsed());
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 143);
        QVERIFY2(err.contains("interrupted (SIGTERM)") && err.contains("resume"), err.constData());

        // The checkpoint holds exactly the points the interrupted results file holds.
        const Json partial = comparable(json);
        QCOMPARE(partial.value("cancelled", false), true);
        const qint64 space = partial["points_in_space"].get<qint64>();
        const qint64 records = readBytes(ck).count('\n') - 2;
        QVERIFY(records >= 50);
        QVERIFY(records < space);
        QCOMPARE(records, partial["evaluated"].get<qint64>());

        // The same command again resumes and ends with one whole run's results.
        auto r = run(command);
        QVERIFY2(r.code == 0, r.err.c_str());
        QCOMPARE(checkpointCounts(r.out), std::make_pair(records, space - records));
        const QByteArray complete = readBytes(ck);
        QCOMPARE(qint64(complete.count('\n')), space + 2);
        const std::string once = path("once.json");
        const auto w =
            run({"search", "--project", project(), "--threads", "2", "--json", once, "--quiet"});
        QVERIFY2(w.code == 0, w.err.c_str());
        const Json expected = comparable(once);
        std::string differ = difference(comparable(json), expected);
        QVERIFY2(differ.empty(), differ.c_str());

        // The checkpoint of another search is refused, and left as it was.
        const std::string other = path("other.json");
        r = run({"search", "--project", project(), "--threads", "2", "--global-batch", "2048",
                 "--checkpoint", ck, "--json", other, "--quiet"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("another search (training (globalBatch))") != std::string::npos,
                 r.err.c_str());
        QVERIFY(!exists(other));
        QCOMPARE(readBytes(ck), complete);

        // A torn last line (a crash mid-write) is dropped; the result stays the same.
        const QByteArray last = complete.left(complete.size() - 1).split('\n').back();
        QVERIFY(last.size() > 20);
        QVERIFY(writeBytes(ck, last.left(last.size() / 2), true));
        QVERIFY(QFile::remove(QString::fromStdString(json)));
        r = run(command);
        QVERIFY2(r.code == 0, r.err.c_str());
        QCOMPARE(checkpointCounts(r.out), std::make_pair(space, qint64(0)));
        QCOMPARE(readBytes(ck), complete);  // cut back to its whole lines
        differ = difference(comparable(json), expected);
        QVERIFY2(differ.empty(), differ.c_str());
    }

    void mpirunMatchesOneProcess() {
        if (!tandem::cli::MpiJob::available()) QSKIP("tandem-cli was built without MPI");
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        if (mpirun.isEmpty()) QSKIP("no mpirun on the PATH");
        const std::string all = whole();
        QVERIFY(!all.empty());
        const std::string json = path("mpi.json");
        QProcess process;
        process.start(
            mpirun, {"--allow-run-as-root", "--oversubscribe", "-np", "2", TANDEM_CLI_PATH,
                     "search", "--project", QString::fromStdString(project()), "--model", "gpt2-xl",
                     "--threads", "1", "--json", QString::fromStdString(json), "--quiet"});
        QVERIFY(process.waitForStarted(60000));
        QVERIFY(process.waitForFinished(300000));
        const QByteArray out = process.readAllStandardOutput();
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 0, err.constData());
        QVERIFY2(out.contains("MPI: 2 ranks"), out.constData());
        const std::string differ = difference(comparable(json), comparable(all));
        QVERIFY2(differ.empty(), differ.c_str());
    }

    void helpListsTheNewFlags() {
        const auto search = run({"search", "--help"});
        QCOMPARE(search.code, 0);
        for (const char* flag : {"--shard", "--checkpoint"})
            QVERIFY2(search.out.find(flag) != std::string::npos, flag);
        const auto merge = run({"merge", "--help"});
        QCOMPARE(merge.code, 0);
        QVERIFY2(merge.out.find("FILES…") != std::string::npos, merge.out.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliSplit)
#include "test_cli_split.moc"
