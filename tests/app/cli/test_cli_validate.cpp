// `tandem-cli validate` on the bundled sets: Narayanan et al. 2021's ten Megatron-LM runs each
// within ±10 % of the measured TFLOP/s per GPU; Megatron-Core's H100 rows and Korthikanti et al.
// (MLSys 2023)'s eight runs (full and selective recomputation) within their bounds;
// Bang et al. 2024's 1,440 single-node A100 runs all predicted, with the summary equal to an
// independent recomputation from the per-run JSON and its accuracy held where the model has it;
// the text output of every set. (User files:
// test_cli_validate_runs.cpp; `place --strategy`: test_cli_strategy.cpp.)
#include <QJsonArray>
#include <QMap>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "rank_oracle.h"
#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {

bool close(double a, double b) {
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

using tandem::test::rankCorrelation;

// `validate --set NAME --json`: the one set's runs, after checking its name and hardware.
QJsonArray runsOfSet(const char* name, const char* hardware) {
    const auto r = run({"validate", "--set", name, "--json"});
    if (r.code != 0) return {};
    const QJsonArray sets = parseObject(r.out).value("sets").toArray();
    if (sets.size() != 1) return {};
    const QJsonObject set = sets.first().toObject();
    if (set.value("name").toString() != QLatin1String(name) ||
        set.value("hardware").toString() != QLatin1String(hardware))
        return {};
    return set.value("runs").toArray();
}

}  // namespace

class TestCliValidate : public QObject {
    Q_OBJECT

private slots:
    void measuredRunsWithinTenPercent() {
        const QJsonArray runs = runsOfSet("megatron-a100", "a100-like");
        QCOMPARE(runs.size(), 10);
        for (const auto& value : runs) {
            const QJsonObject o = value.toObject();
            const QByteArray name = o.value("name").toString().toUtf8();
            QVERIFY2(o.value("fits").toBool(), name.constData());
            const double measured = o.value("measured_tflops_per_gpu").toDouble();
            const double predicted = o.value("predicted_tflops_per_gpu").toDouble();
            qInfo("%s: predicted %.1f, measured %.1f TFLOP/s per GPU (%+.1f %%)", name.constData(),
                  predicted, measured, 100 * (predicted / measured - 1));
            QVERIFY2(std::abs(predicted / measured - 1) <= 0.10, name.constData());
            // The error is of the training run's iteration time (the JSON's predicted and
            // measured seconds, not this test's clock); TFLOP/s are inversely proportional to it.
            const double predictedIteration = o.value("predicted_s").toDouble(),
                         measuredIteration = o.value("measured_s").toDouble();
            QCOMPARE(o.value("error").toDouble(), predictedIteration / measuredIteration - 1);
            QVERIFY(std::abs(predicted / measured - measuredIteration / predictedIteration) <
                    1e-12);
        }
    }

    // Megatron-Core's H100 rows (bf16, the distributed optimizer, sequence parallelism and all
    // three overlaps; microbatch and recomputation the fastest that fit): the 70 B and 314 B
    // runs within ±10 %. The 7.1 B run is predicted about a quarter faster than measured, the
    // gap docs/cost-model.md explains (its measured time is what full recomputation gives); it
    // is held within 30 % here so that it cannot silently widen.
    void h100RowsWithinTheirBounds() {
        const QJsonArray runs = runsOfSet("h100-megatron-core", "h100-80gb");
        QCOMPARE(runs.size(), 3);
        for (const auto& value : runs) {
            const QJsonObject o = value.toObject();
            const QByteArray name = o.value("name").toString().toUtf8();
            QVERIFY2(o.value("fits").toBool(), name.constData());
            QVERIFY(!o.value("microbatch_given").toBool());
            const double error = o.value("error").toDouble();
            QCOMPARE(error,
                     o.value("predicted_s").toDouble() / o.value("measured_s").toDouble() - 1);
            qInfo("%s: microbatch %d, %+.1f %%", name.constData(), o.value("microbatch").toInt(),
                  100 * error);
            QVERIFY2(std::abs(error) <= (name == "GPT 7.1B" ? 0.30 : 0.10), name.constData());
        }
    }

    // Korthikanti et al.'s four A100 models with full recomputation and with selective
    // recomputation plus sequence parallelism: each within ±12 % (the worst, 530 B with full
    // recomputation, is +10.6 %), and the time the paper's technique saves on each model —
    // 22.5, 24.2, 22.9 and 24.3 % measured — predicted within 6 points.
    void korthikantiRowsWithinTheirBounds() {
        const QJsonArray runs = runsOfSet("korthikanti-a100", "a100-like");
        QCOMPARE(runs.size(), 8);
        for (int i = 0; i < runs.size(); ++i) {
            const QJsonObject o = runs.at(i).toObject();
            const QByteArray name = o.value("name").toString().toUtf8();
            QVERIFY2(o.value("fits").toBool(), name.constData());
            QCOMPARE(o.value("recompute").toString(), QString(i < 4 ? "on" : "selective"));
            QCOMPARE(o.value("sequence_parallel").toBool(), i >= 4);
            const double error = o.value("error").toDouble();
            qInfo("%s: microbatch %d, %+.1f %%", name.constData(), o.value("microbatch").toInt(),
                  100 * error);
            QVERIFY2(std::abs(error) <= 0.12, name.constData());
        }
        for (int i = 0; i < 4; ++i) {
            const QJsonObject full = runs.at(i).toObject(), selective = runs.at(i + 4).toObject();
            const double measured =
                1 - selective["measured_s"].toDouble() / full["measured_s"].toDouble();
            const double predicted =
                1 - selective["predicted_s"].toDouble() / full["predicted_s"].toDouble();
            qInfo("%s: saves %.1f %% measured, %.1f %% predicted",
                  qPrintable(full["name"].toString()), 100 * measured, 100 * predicted);
            QVERIFY(measured > 0.2 && predicted > 0.2);
            QVERIFY(std::abs(predicted - measured) <= 0.06);
        }
    }

    void singleNodeSetPredictsEveryRun() {
        const auto r = run({"validate", "--set", "single-node-a100", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject set = parseObject(r.out).value("sets").toArray().first().toObject();
        QCOMPARE(set.value("name").toString(), QString("single-node-a100"));
        QVERIFY(set.value("licence").toString().contains("MIT"));
        QVERIFY(!set.value("tflops_published").toBool());
        const QJsonArray runs = set.value("runs").toArray();
        QCOMPARE(runs.size(), 1440);

        // The summary recomputed independently from the runs.
        std::vector<double> errors, abs;
        QMap<QString, QList<int>> groups;
        for (int i = 0; i < runs.size(); ++i) {
            const QJsonObject o = runs.at(i).toObject();
            QVERIFY2(o.value("fits").toBool(), qPrintable(o.value("name").toString()));
            QCOMPARE(o.value("recompute").toString(), QString("on"));
            const double e =
                o.value("predicted_s").toDouble() / o.value("measured_s").toDouble() - 1;
            QCOMPARE(o.value("error").toDouble(), e);
            errors.push_back(e);
            abs.push_back(std::abs(e));
            const QString key = QString("%1/%2/%3/%4/%5")
                                    .arg(o.value("hidden").toInt(), 5, 10, QChar('0'))
                                    .arg(o.value("heads").toInt(), 5, 10, QChar('0'))
                                    .arg(o.value("layers").toInt(), 5, 10, QChar('0'))
                                    .arg(o.value("sequence").toInt(), 7, 10, QChar('0'))
                                    .arg(o.value("gpus").toInt(), 5, 10, QChar('0'));
            groups[key].append(i);
        }
        const QJsonObject s = set.value("summary").toObject();
        QCOMPARE(s.value("runs").toInt(), 1440);
        QCOMPARE(s.value("fitting").toInt(), 1440);
        const double mean = std::accumulate(abs.begin(), abs.end(), 0.0) / double(abs.size());
        const double signedMean =
            std::accumulate(errors.begin(), errors.end(), 0.0) / double(errors.size());
        std::vector<double> sorted = abs;
        std::sort(sorted.begin(), sorted.end());
        const double median = (sorted[719] + sorted[720]) / 2;
        const auto worst = std::max_element(abs.begin(), abs.end());
        QVERIFY(close(s.value("mean_abs_error").toDouble(), mean));
        QVERIFY(close(s.value("mean_error").toDouble(), signedMean));
        QCOMPARE(s.value("median_abs_error").toDouble(), median);
        QCOMPARE(s.value("worst_abs_error").toDouble(), *worst);
        QCOMPARE(s.value("worst_run").toInt(), int(worst - abs.begin()));

        // Groups: 2 hidden sizes × 4 depths × 3 GPU counts, each with ≥ 3 runs.
        const QJsonArray g = s.value("groups").toArray();
        QCOMPARE(g.size(), groups.size());
        QCOMPARE(g.size(), 24);
        double sumRho = 0, sumRegret = 0, worstRegret = 0;
        int index = 0;
        for (auto it = groups.cbegin(); it != groups.cend(); ++it, ++index) {
            std::vector<double> p, m;
            for (int i : it.value()) {
                const QJsonObject o = runs.at(i).toObject();
                const double batch = o.value("global_batch").toDouble();
                p.push_back(o.value("predicted_s").toDouble() / batch);
                m.push_back(o.value("measured_s").toDouble() / batch);
            }
            const QJsonObject group = g.at(index).toObject();
            QCOMPARE(group.value("runs").toInt(), int(it.value().size()));
            QCOMPARE(QString("%1").arg(group.value("layers").toInt(), 5, 10, QChar('0')),
                     it.key().section('/', 2, 2));
            const double rho = rankCorrelation(p, m);
            QVERIFY(close(group.value("spearman").toDouble(), rho));
            const auto pick = std::min_element(p.begin(), p.end()) - p.begin();
            const double regret = m[std::size_t(pick)] / *std::min_element(m.begin(), m.end()) - 1;
            QCOMPARE(group.value("regret").toDouble(), regret);
            sumRho += rho;
            sumRegret += regret;
            worstRegret = std::max(worstRegret, regret);
        }
        QVERIFY(close(s.value("mean_spearman").toDouble(), sumRho / 24));
        QVERIFY(close(s.value("mean_regret").toDouble(), sumRegret / 24));
        QCOMPARE(s.value("worst_regret").toDouble(), worstRegret);
        qInfo(
            "single-node-a100 on a100-like: mean |error| %.1f %%, median %.1f %%, worst %.1f %%, "
            "mean error %+.1f %%; mean Spearman %.3f, mean regret %.1f %%, worst regret %.1f %%",
            100 * mean, 100 * median, 100 * *worst, 100 * signedMean, sumRho / 24,
            100 * sumRegret / 24, 100 * worstRegret);
        // One a100-like description for all 1,440 runs, no per-run constant. The goal: a mean of
        // at most 8 % (7.9 %; before the kernel model 35.7 %) and a worst of at most 30 % (26.9 %
        // since the 1F1B fill and drain run at each stage's own load; 33.0 % before).
        QVERIFY2(mean <= 0.08, qPrintable(QString::number(100 * mean)));
        QVERIFY2(*worst <= 0.30, qPrintable(QString::number(100 * *worst)));
        QVERIFY2(std::abs(signedMean) <= 0.05, qPrintable(QString::number(100 * signedMean)));
        // The ranking a user acts on: within a model and GPU count, the predicted order follows
        // the measured one and the predicted best is the measured best or close to it.
        QVERIFY(sumRho / 24 >= 0.9);
        QVERIFY(worstRegret <= 0.05);
    }

    void textOutputOfEverySet() {
        const auto r = run({"validate"});
        QCOMPARE(r.code, 0);
        for (const char* part :
             {"Measured runs 'megatron-a100' on a100-like", "GPT 310.1B", "TFLOP/s error",
              "Measured runs 'single-node-a100' on a100-like (1,440 runs", "vTrain", "Licence: MIT",
              "mean |error|", "mean Spearman", "Spearman  regret"})
            QVERIFY2(r.out.find(part) != std::string::npos, part);
        QVERIFY(r.out.find("line 2 ") == std::string::npos);  // the large set's runs: --verbose
        const auto verbose = run({"validate", "--set", "single-node-a100", "--verbose"});
        QCOMPARE(verbose.code, 0);
        QVERIFY(verbose.out.find("line 1441") != std::string::npos);
        QVERIFY(verbose.out.find("Spearman  regret") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCliValidate)
#include "test_cli_validate.moc"
