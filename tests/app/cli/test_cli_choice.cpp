// `place --interleave auto --zero auto --sequence-parallel=auto` (issue 26, item 6): the placement
// chooses V and the ZeRO stage among strategies of equal stages and sequence parallelism by
// placing the model both ways, says what it chose and against what, in the text and
// the JSON; with --strategy it chooses them for that strategy. The choice is never slower than
// the plain placement nor than the same strategy with the values the CLI took before (V = 1,
// ZeRO 0), and bad values are exit 2 with the allowed ones.
#include <QtTest>

#include "tests/app/cli/cli_test_support.h"

using namespace cli_test;

namespace {

const std::vector<std::string> kGpt3{"place",     "--model",     "gpt3-175b", "--hardware",
                                     "a100-like", "--devices",   "1024",      "--optimizer",
                                     "adam",      "--recompute", "auto"};

QJsonObject placeJson(std::vector<std::string> extra) {
    extra.push_back("--json");
    return jsonOfRun(kGpt3, extra);
}

}  // namespace

class TestCliChoice : public QObject {
    Q_OBJECT

private slots:
    void autoChoosesAndSaysSo() {
        const QJsonObject plain = placeJson({});
        const QJsonObject chosen = placeJson({"--interleave", "auto", "--zero", "auto"});
        QVERIFY(plain.value("fits").toBool() && chosen.value("fits").toBool());
        QVERIFY(!plain.contains("choice"));
        const QJsonObject choice = chosen.value("choice").toObject();
        QVERIFY(choice.value("interleave_chosen").toBool());
        QVERIFY(choice.value("zero_chosen").toBool());
        QVERIFY(choice.value("strategies_priced").toInt() > 100);
        // Measured against the plain placement, which it may only improve on.
        QCOMPARE(choice.value("plain_seconds_per_batch").toDouble(),
                 plain.value("time_per_batch_s").toDouble());
        const double time = chosen.value("time_per_batch_s").toDouble();
        QVERIFY(time <= plain.value("time_per_batch_s").toDouble());
        // On 1,024 A100s GPT-3 gains from both: a smaller bubble and a sharded optimizer
        // (which frees the memory for fewer, longer stages).
        QVERIFY2(chosen.value("interleave").toInt() > 1, "interleaving chosen");
        QVERIFY2(chosen.value("zero").toInt() >= 1, "ZeRO chosen");
        const QJsonObject strategy = choice.value("strategy").toObject();
        QCOMPARE(strategy.value("pipeline").toInt(), chosen.value("pipeline_stages").toInt());
        QCOMPARE(strategy.value("tensor").toInt(), chosen.value("tensor_parallel").toInt());
        QCOMPARE(strategy.value("data").toInt(), chosen.value("data_parallel").toInt());
        // The chosen strategy evaluated on its own gives the same time, bit for bit.
        const QJsonObject again =
            placeJson({"--strategy",
                       std::to_string(strategy.value("pipeline").toInt()) + "," +
                           std::to_string(strategy.value("tensor").toInt()) + "," +
                           std::to_string(strategy.value("data").toInt()),
                       "--interleave", std::to_string(chosen.value("interleave").toInt()), "--zero",
                       std::to_string(chosen.value("zero").toInt())});
        QCOMPARE(again.value("time_per_batch_s").toDouble(), time);
        // The text names the choice.
        std::vector<std::string> args = kGpt3;
        for (const char* a : {"--interleave", "auto", "--zero", "auto"}) args.push_back(a);
        const auto text = run(args);
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.find("Chosen among") != std::string::npos, text.out.c_str());
    }

    void aFixedStrategyGetsItsBest() {
        const std::vector<std::string> strategy{"--strategy", "8,8,16", "--sequence-parallel"};
        auto with = [&](std::vector<std::string> extra) {
            extra.insert(extra.begin(), strategy.begin(), strategy.end());
            return placeJson(extra);
        };
        const QJsonObject chosen = with({"--interleave", "auto", "--zero", "auto"});
        double best = 1e300;
        for (const char* V : {"1", "2", "3", "4", "6", "12"})
            for (const char* Z : {"0", "1", "2", "3"}) {
                const QJsonObject each = with({"--interleave", V, "--zero", Z});
                if (each.value("fits").toBool())
                    best = std::min(best, each.value("time_per_batch_s").toDouble());
            }
        QCOMPARE(chosen.value("time_per_batch_s").toDouble(), best);
        QCOMPARE(chosen.value("strategy").toObject().value("pipeline").toInt(), 8);
    }

    void sequenceParallelismAuto() {
        // --sequence-parallel=auto: the faster of off and on, named in the JSON and the text.
        const QJsonObject off = placeJson({}), on = placeJson({"--sequence-parallel"});
        const QJsonObject chosen = placeJson({"--sequence-parallel=auto"});
        QVERIFY(chosen.value("choice").toObject().value("sequence_parallel_chosen").toBool());
        const double best = std::min(off.value("time_per_batch_s").toDouble(),
                                     on.value("time_per_batch_s").toDouble());
        QCOMPARE(chosen.value("time_per_batch_s").toDouble(), best);
        std::vector<std::string> args = kGpt3;
        args.push_back("--sequence-parallel=auto");
        const auto text = run(args);
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.find("Sequence parallelism chosen") != std::string::npos,
                 text.out.c_str());
        // Other inline values are refused; a plain switch still takes none.
        args.back() = "--sequence-parallel=yes";
        auto r = run(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("=auto") != std::string::npos, r.err.c_str());
        args.back() = "--json=1";
        r = run(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("takes no value") != std::string::npos, r.err.c_str());
    }

    void badValuesSayAuto() {
        for (const auto& [flag, value] :
             {std::pair{"--zero", "5"}, {"--zero", "x"}, {"--interleave", "0"}}) {
            std::vector<std::string> args = kGpt3;
            args.push_back(flag);
            args.push_back(value);
            const auto r = run(args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.find("or auto") != std::string::npos, r.err.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliChoice)
#include "test_cli_choice.moc"
