// `tandem-cli calibrate` in-process on the 24 synthetic runs of tests/data/calibration: the
// fitted hardware file reads back as hardware (and is accepted by `validate --hardware`, which
// then predicts the runs as the calibration said), the --json document's keys and its
// agreement with the file, --fit / --holdout / --folds / --seed, the table's parameters with
// units and pinned state, and bad inputs (exit 2 with a message naming what was wrong). And on
// the bundled single-node A100 set: fitted on one half, it predicts the other within 8 %.
#include <QJsonArray>
#include <QTemporaryDir>
#include <cmath>

#include "cli_test_support.h"
#include "core/hardware/hardware_json.h"
#include "test_paths.h"

using cli_test::parseObject;
using cli_test::run;

namespace {

std::string runsCsv() {
    return tandem::test::testDataDir() + "/calibration/small-runs.csv";
}

// Cheap options for every call: few evaluations, two threads.
std::vector<std::string> calibrate(std::vector<std::string> more) {
    std::vector<std::string> args{"calibrate", "--runs",    runsCsv(), "--evaluations",
                                  "40",        "--threads", "2",       "--quiet"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

}  // namespace

class TestCliCalibrate : public QObject {
    Q_OBJECT

private slots:
    void writesHardwareThatReadsBack() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("my-cluster.json").toStdString();
        const auto r = run(calibrate({"--fit", "tensorCoreEfficiency,operatorOverheadSeconds",
                                      "--folds", "3", "--out", out}));
        QVERIFY2(r.code == 0, r.err.c_str());
        // The table: parameters with start, fitted, bounds in units, and the figures.
        QVERIFY(r.out.find("accelerator.tensorCoreEfficiency") != std::string::npos);
        QVERIFY(r.out.find("accelerator.operatorOverheadSeconds") != std::string::npos);
        QVERIFY(r.out.find("µs") != std::string::npos);
        QVERIFY(r.out.find("cross-validated") != std::string::npos);
        QVERIFY(r.out.find("3-fold cross-validation, seed 1") != std::string::npos);
        QVERIFY(r.out.find("Worst runs") != std::string::npos);
        QVERIFY(r.out.find("Wrote " + out) != std::string::npos);

        auto hw = tandem::core::hardware::loadHardwareFile(out);
        QVERIFY2(hw.ok(), hw.ok() ? "" : hw.message().c_str());
        QCOMPARE(hw->name, std::string("a100-like-calibrated"));
        QVERIFY(hw->description.find("small-runs.csv") != std::string::npos);
        QVERIFY(hw->description.find("cross-validated") != std::string::npos);
        QVERIFY(hw->accelerator.tensorCoreEfficiency >= 0.3);
        QVERIFY(hw->accelerator.tensorCoreEfficiency <= 1.0);
        QVERIFY(hw->accelerator.hbmEfficiency == 0.75);  // not fitted: a100-like's

        // Every command accepts it: validate predicts the runs with the fitted values.
        const auto v =
            run({"validate", "--runs", runsCsv(), "--hardware", out, "--json", "--quiet"});
        QVERIFY2(v.code == 0, v.err.c_str());
        const auto j = run(calibrate(
            {"--fit", "tensorCoreEfficiency,operatorOverheadSeconds", "--folds", "3", "--json"}));
        QVERIFY2(j.code == 0, j.err.c_str());
        const QJsonObject doc = parseObject(j.out);
        const QJsonObject summary =
            parseObject(v.out)["sets"].toArray()[0].toObject()["summary"].toObject();
        QCOMPARE(summary["mean_abs_error"].toDouble(),
                 doc["training_error"].toObject()["mean_abs_error"].toDouble());
    }

    void jsonKeys() {
        const auto r = run(calibrate({"--json", "--holdout", "0.5", "--seed", "4"}));
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject doc = parseObject(r.out);
        for (const char* key :
             {"format", "version", "source", "start_hardware", "hardware", "cancelled",
              "validation", "parameters", "start_error", "training_error", "validation_error",
              "evaluations", "fits", "elapsed_s", "runs"})
            QVERIFY2(doc.contains(key), key);
        QCOMPARE(doc["format"].toString(), QString("tandem-calibration"));
        QCOMPARE(doc["validation"].toObject()["kind"].toString(), QString("holdout"));
        QCOMPARE(doc["validation"].toObject()["seed"].toInt(), 4);
        QCOMPARE(doc["validation"].toObject()["holdout_fraction"].toDouble(), 0.5);
        QCOMPARE(doc["hardware"].toObject()["name"].toString(), QString("a100-like-calibrated"));
        const QJsonArray parameters = doc["parameters"].toArray();
        QVERIFY(parameters.size() >= 6);  // every available parameter by default
        for (const auto& value : parameters) {
            const QJsonObject p = value.toObject();
            for (const char* key :
                 {"key", "label", "unit", "lower", "upper", "start", "fitted", "first_fit",
                  "identifiability", "pinned", "sensitivity", "fold_values"})
                QVERIFY2(p.contains(key), key);
            QVERIFY(p["fitted"].toDouble() >= p["lower"].toDouble());
            QVERIFY(p["fitted"].toDouble() <= p["upper"].toDouble());
            if (!p["pinned"].toBool()) QCOMPARE(p["fitted"].toDouble(), p["start"].toDouble());
        }
        const QJsonArray runs = doc["runs"].toArray();
        QCOMPARE(runs.size(), 24);
        int held = 0;
        for (const auto& value : runs) {
            const QJsonObject run = value.toObject();
            for (const char* key : {"name", "measured_s", "fold", "training", "fits", "start_s",
                                    "fitted_s", "fitted_error", "validated_s", "validated_error"})
                QVERIFY2(run.contains(key), key);
            held += run["training"].toBool() ? 0 : 1;
        }
        QCOMPARE(held, 12);
        QCOMPARE(doc["validation_error"].toObject()["runs"].toInt(), 12);
        // The data-parallel overlap: the runs have d = 2, so a fit may see it; either way the
        // document says which parameters are pinned and the hardware holds the fitted values.
        const QJsonObject accelerator = doc["hardware"].toObject()["accelerator"].toObject();
        for (const auto& value : parameters) {
            const QJsonObject p = value.toObject();
            const QString key = p["key"].toString();
            if (key.startsWith("accelerator."))
                QCOMPARE(accelerator[key.mid(12)].toDouble(), p["fitted"].toDouble());
        }
    }

    // The acceptance figure of issue 23: calibrate fitted on a random half of the 1,440
    // single-node A100 runs (seed 1, every parameter) predicts the other half, runs it never
    // saw, within a mean absolute error of 8 %. Recomputed here from the per-run errors.
    void halfOfTheSingleNodeSetPredictsTheOtherHalf() {
        const auto r = run({"calibrate", "--set", "single-node-a100", "--holdout", "0.5", "--seed",
                            "1", "--threads", "2", "--quiet", "--json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const QJsonObject doc = parseObject(r.out);
        const QJsonArray runs = doc["runs"].toArray();
        QCOMPARE(runs.size(), 1440);
        double sum = 0;
        int held = 0;
        for (const auto& value : runs) {
            const QJsonObject run = value.toObject();
            if (run["training"].toBool()) continue;
            QVERIFY(run["fits"].toBool());
            sum += std::abs(run["validated_error"].toDouble());
            ++held;
        }
        QCOMPARE(held, 720);
        const double heldOutMae = sum / held;
        const QJsonObject validation = doc["validation_error"].toObject();
        QCOMPARE(validation["runs"].toInt(), 720);
        QVERIFY(std::abs(validation["mean_abs_error"].toDouble() - heldOutMae) < 1e-9);
        QVERIFY2(heldOutMae <= 0.08,
                 qPrintable(QString("held-out mean |error| %1 %").arg(100 * heldOutMae)));
        // The fit did something: the held-out half is predicted better than the unfitted
        // description predicts the whole set.
        QVERIFY(heldOutMae < doc["start_error"].toObject()["mean_abs_error"].toDouble());
    }

    void verboseListsEveryRun() {
        const auto r = run(calibrate({"--fit", "hbmEfficiency", "--folds", "0", "--verbose"}));
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(r.out.find("Every run") != std::string::npos);
        QVERIFY(r.out.find("h1024-t2p1d2-b16") != std::string::npos);
        QVERIFY(r.out.find("h512-t1p1d1-b8") != std::string::npos);
    }

    void badInputsExit2() {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("nope.csv").toStdString();
        const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
            {{"calibrate"}, "--runs FILE.csv"},
            {{"calibrate", "--runs", missing}, "nope.csv"},
            {{"calibrate", "--set", "nope"}, "nope"},
            {{"calibrate", "--set", "single-node-a100", "--runs", runsCsv()}, "one of them"},
            {calibrate({"--fit", "numTensorCores"}), "not a calibratable parameter"},
            {calibrate({"--fit", "hbmEfficiency,"}), "one is empty"},
            {calibrate({"--fit", "hbmEfficiency,hbmEfficiency"}), "named twice"},
            {calibrate({"--folds", "1"}), "--folds 1"},
            {calibrate({"--folds", "30"}), "at least 30 runs"},
            {calibrate({"--holdout", "1"}), "--holdout"},
            {calibrate({"--holdout", "0.5", "--folds", "3"}), "not both"},
            {calibrate({"--evaluations", "0"}), "--evaluations"},
            {calibrate({"--tensor-core-efficiency", "0.1", "--fit", "tensorCoreEfficiency"}),
             "outside the physical bounds"},
            {calibrate({"--hardware", "nope-hw"}), "nope-hw"},
            {calibrate({"--out", ""}), "--out"},
        };
        for (const auto& [args, expected] : cases) {
            const auto r = run(args);
            QVERIFY2(r.code == 2, (args.back() + ": exit " + std::to_string(r.code)).c_str());
            QVERIFY2(r.err.find(expected) != std::string::npos, r.err.c_str());
            QVERIFY(r.err.find("tandem-cli") != std::string::npos);
            QVERIFY(r.out.empty());
        }
    }
};

QTEST_APPLESS_MAIN(TestCliCalibrate)
#include "test_cli_calibrate.moc"
