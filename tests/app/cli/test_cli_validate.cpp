// The native cost model against measured training runs (Megatron-LM, Narayanan et al. 2021,
// Table 1, bundled in resources/validation/megatron-a100.json): each within ±10 % of the measured
// TFLOP/s per GPU. And `place --strategy P,T,D`, which evaluates one given strategy: its JSON is
// the plan, and strategies that cannot be formed are exit 2 with a message.
#include <QJsonArray>
#include <QtTest>

#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

class TestCliValidate : public QObject {
    Q_OBJECT

private slots:
    void measuredRunsWithinTenPercent() {
        const auto r = run({"validate", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject root = parseObject(r.out);
        const QJsonArray runs = root.value("runs").toArray();
        QCOMPARE(runs.size(), 3);
        for (const auto& value : runs) {
            const QJsonObject o = value.toObject();
            const QByteArray name = o.value("name").toString().toUtf8();
            QVERIFY2(o.value("fits").toBool(), name.constData());
            const double measured = o.value("measured_tflops_per_gpu").toDouble();
            const double predicted = o.value("predicted_tflops_per_gpu").toDouble();
            qInfo("%s: predicted %.1f, measured %.1f TFLOP/s per GPU (%+.1f %%)", name.constData(),
                  predicted, measured, 100 * (predicted / measured - 1));
            QVERIFY2(std::abs(predicted / measured - 1) <= 0.10, name.constData());
            QCOMPARE(o.value("error").toDouble(), predicted / measured - 1);
        }
    }

    void strategyEvaluatesThatPlan() {
        const auto r =
            run({"place", "--model", "gpt3-175b", "--hardware", "a100-like", "--recompute", "on",
                 "--optimizer", "adam", "--strategy", "8,8,16", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject plan = parseObject(r.out);
        QVERIFY2(plan.value("fits").toBool(), r.out.c_str());
        QCOMPARE(plan.value("pipeline_stages").toInt(), 8);
        QCOMPARE(plan.value("tensor_parallel").toInt(), 8);
        QCOMPARE(plan.value("data_parallel").toInt(), 16);
        QCOMPARE(plan.value("strategy").toObject().value("pipeline").toInt(), 8);
        const QJsonArray stages = plan.value("stages").toArray();
        QCOMPARE(stages.size(), 8);
        // 96 layers in 8 equal stages; the embedding with the first, the head with the last.
        QCOMPARE(stages.first().toObject().value("layers").toArray().size(), 13);
        QCOMPARE(stages.last().toObject().value("layers").toArray().size(), 13);
        QCOMPARE(stages.at(3).toObject().value("layers").toArray().size(), 12);
        for (const auto& stage : stages) QVERIFY(stage.toObject().value("recompute").toBool());

        // The breakdown sums to the iteration time; every part is there.
        const QJsonObject b = plan.value("breakdown").toObject();
        double sum = 0;
        for (const char* key :
             {"compute_s", "recompute_s", "tensor_parallel_comm_s", "pipeline_p2p_s",
              "pipeline_bubble_s", "data_parallel_sync_s", "optimizer_s"}) {
            QVERIFY2(b.contains(key), key);
            QVERIFY(b.value(key).toDouble() >= 0);
            sum += b.value(key).toDouble();
        }
        const double time = plan.value("time_per_batch_s").toDouble();
        QVERIFY(std::abs(sum - time) <= 1e-9 * time);
        QVERIFY(b.value("recompute_s").toDouble() > 0);
        QVERIFY(b.value("tensor_parallel_comm_s").toDouble() > 0);  // t = 8
        QVERIFY(b.value("pipeline_bubble_s").toDouble() > 0);       // 8 stages
        QVERIFY(b.value("data_parallel_sync_s").toDouble() > 0);    // 16 replicas

        // MFU against Megatron's formula without recomputation, written out independently:
        // 72·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)) over time × devices × 312 TFLOP/s.
        const double B = 4096, s = 2048, l = 96, h = 12288, V = 50257;
        const double flops = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
        const double peak = 2.0 * 108 * 32 * 32 * 1.41e9;
        const double mfu = flops / (time * plan.value("devices_used").toDouble() * peak);
        qInfo("GPT-3 175B, 8·8·16 on a100-like: MFU %.1f %% (formula %.1f %%)",
              100 * plan.value("mfu").toDouble(), 100 * mfu);
        QVERIFY(std::abs(plan.value("mfu").toDouble() / mfu - 1) < 0.02);
    }

    void strategiesThatCannotBeFormedAreRefused_data() {
        QTest::addColumn<QString>("strategy");
        QTest::addColumn<QString>("message");
        QTest::newRow("P does not divide") << "5,8,16"
                                           << "does not divide the model's 96";
        QTest::newRow("T does not divide heads") << "8,5,16"
                                                 << "not divisible by t = 5";
        QTest::newRow("too many devices") << "8,8,32"
                                          << "but the cluster has 1024";
        QTest::newRow("two numbers") << "8,8"
                                     << "is not P,T,D";
        QTest::newRow("zero") << "0,8,16"
                              << "out of range";
    }

    void strategiesThatCannotBeFormedAreRefused() {
        QFETCH(QString, strategy);
        QFETCH(QString, message);
        const auto r = run({"place", "--model", "gpt3-175b", "--hardware", "a100-like",
                            "--strategy", strategy.toStdString()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliValidate)
#include "test_cli_validate.moc"
