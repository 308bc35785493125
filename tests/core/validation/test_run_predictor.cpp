// The cached predictor of measured runs (core/validation/run_predictor.h) against the uncached
// chain it stands for — placement::evaluateStrategy() of each run's request at each microbatch
// candidate, the fastest that fits — bit for bit, on bundled runs and on runs with every
// optional feature; the same results for any thread count and across repeated calls with
// other hardware; runs that do not fit as results; cancel, progress and refused runs. Also the
// bundled sets as the library reads them.
#include <QtTest>

#include <atomic>
#include <cmath>
#include <vector>

#include "core/hardware/preset_library.h"
#include "core/validation/measured_run_set.h"
#include "core/validation/run_predictor.h"
#include "core/validation/run_request.h"
#include "test_presets.h"

using namespace tandem::core;
using namespace tandem::core::validation;

namespace {

hardware::HardwarePoint a100() {
    return tandem::test::presetOrDie("a100-like");
}

MeasuredRunSet bundled(const std::string& name) {
    auto set = bundledRunSet(name);
    if (!set) qFatal("%s", set.message().c_str());
    return *set;
}

// The prediction without the predictor: every candidate through evaluateStrategy().
RunPrediction uncached(const MeasuredRun& run, const hardware::HardwarePoint& hw) {
    RunPrediction best;
    for (std::int64_t b : microbatchCandidates(run)) {
        auto request = runRequest(run, b, hw);
        if (!request) qFatal("%s", request.message().c_str());
        auto evaluated = placement::evaluateStrategy(*request, runStrategy(run));
        if (!evaluated) qFatal("%s: %s", run.name.c_str(), evaluated.message().c_str());
        const auto& r = evaluated->result;
        if (!r.fits || !r.plan) continue;
        if (!best.fits || r.plan->timePerBatchSeconds < best.predictedSeconds) {
            best.fits = true;
            best.microbatch = b;
            best.predictedSeconds = r.plan->timePerBatchSeconds;
        }
    }
    return best;
}

// Runs with the features the bundled sets do not use.
std::vector<MeasuredRun> featureRuns() {
    MeasuredRun base;
    base.model = {1024, 16, 24, 1024, 50257, 128};
    base.gpus = 8;
    base.tensor = 2;
    base.pipeline = 2;
    base.data = 2;
    base.globalBatch = 32;
    base.microbatch = 2;
    base.measuredSeconds = 0.2;
    std::vector<MeasuredRun> runs;
    MeasuredRun r = base;
    r.name = "selective + sequence parallel + interleave 2";
    r.recompute = hardware::Recompute::Selective;
    r.sequenceParallel = true;
    r.interleave = 2;
    runs.push_back(r);
    r = base;
    r.name = "no recompute, SGD, microbatch not given";
    r.recompute = hardware::Recompute::Off;
    r.optimizer = hardware::Optimizer::Sgd;
    r.microbatch = 0;
    runs.push_back(r);
    r = base;
    r.name = "fp32 on 2 GPUs";
    r.bytesPerElement = 4;
    r.gpus = 2;
    r.tensor = 1;
    r.pipeline = 1;
    r.data = 2;
    r.microbatch = 0;
    runs.push_back(r);
    return runs;
}

std::unique_ptr<RunPredictor> predictorFor(std::vector<MeasuredRun> runs, int threads = 2) {
    RunPredictorOptions options;
    options.threads = threads;
    auto p = RunPredictor::create(std::move(runs), options);
    if (!p) qFatal("%s", p.message().c_str());
    return std::move(p).value();
}

void compareExactly(const std::vector<RunPrediction>& a, const std::vector<RunPrediction>& b) {
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].fits, b[i].fits);
        QCOMPARE(a[i].microbatch, b[i].microbatch);
        QCOMPARE(a[i].predictedSeconds, b[i].predictedSeconds);  // exactly: QCOMPARE is fuzzy
        QVERIFY(a[i].predictedSeconds == b[i].predictedSeconds);
        QVERIFY(a[i].error == b[i].error);
    }
}

}  // namespace

class TestRunPredictor : public QObject {
    Q_OBJECT

private slots:
    void bundledSets() {
        const auto names = bundledRunSetNames();
        QCOMPARE(names, (std::vector<std::string>{"h100-megatron-core", "korthikanti-a100",
                                                  "megatron-a100", "single-node-a100"}));
        // Megatron-Core's H100 rows: the README's TFLOP/s with its formula (no recomputation
        // counted, F = 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h))) solved for the time, to 4 digits.
        const MeasuredRunSet h100 = bundled("h100-megatron-core");
        QCOMPARE(h100.runs.size(), std::size_t(3));
        const double published[] = {465.9, 419.7, 474.4};
        for (std::size_t i = 0; i < h100.runs.size(); ++i) {
            const MeasuredRun& r = h100.runs[i];
            QCOMPARE(r.data, std::int64_t(48));
            QCOMPARE(r.zero, std::int64_t(1));
            QVERIFY(r.flashAttention && r.sequenceParallel);
            QVERIFY(r.overlapGradReduce && r.overlapParamGather && r.tpCommOverlap);
            QVERIFY(r.recompute == hardware::Recompute::Auto);
            const double B = double(r.globalBatch), s = 4096, l = double(r.model.layers),
                         h = double(r.model.hidden), V = 131072;
            const double F = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
            QVERIFY(std::abs(r.measuredSeconds * published[i] * 1e12 * double(r.gpus) / F - 1) <
                    1e-4);
            // The names count two vocabulary matrices (untied embeddings, as the set says):
            // 12·l·h² + 13·l·h + 2·h + (2V + s)·h is 7.13, 69.84 and 313.6 B, each the name to
            // half a unit of its last digit, where one tied matrix gives 6.59, 68.77 and 311.5 B.
            QVERIFY(!r.model.tiedEmbeddings);
            const std::string named = r.name.substr(4, r.name.size() - 5);  // "GPT 7.1B"
            const auto point = named.find('.');
            const double unit = point == std::string::npos
                                    ? 1.0
                                    : std::pow(10.0, -double(named.size() - point - 1));
            const double untied = (12 * l * h * h + 13 * l * h + 2 * h + (2 * V + s) * h) / 1e9;
            QVERIFY2(std::abs(untied - std::stod(named)) <= unit / 2, r.name.c_str());
            QVERIFY2(std::abs(untied - V * h / 1e9 - std::stod(named)) > unit / 2, r.name.c_str());
        }
        const MeasuredRunSet narayanan = bundled("megatron-a100");
        QCOMPARE(narayanan.runs.size(), std::size_t(10));
        QCOMPARE(narayanan.runs[7].name, std::string("GPT 310.1B"));
        QVERIFY(narayanan.tflopsPublished);
        QCOMPARE(narayanan.hardware, std::string("a100-like"));
        for (const MeasuredRun& r : narayanan.runs) {
            QCOMPARE(r.microbatch, std::int64_t(0));
            QCOMPARE(r.model.sequence, std::int64_t(2048));
            QCOMPARE(paddedVocab(r.model, r.tensor), std::int64_t(51200));
            QCOMPARE(r.tensor * r.pipeline * r.data, r.gpus);
            // The measured time is the paper's formula solved for the time.
            const double B = double(r.globalBatch), s = 2048, l = double(r.model.layers),
                         h = double(r.model.hidden);
            const double F = 96 * B * s * l * h * h * (1 + s / (6 * h) + 51200 / (16 * l * h));
            QVERIFY(std::abs(r.measuredSeconds /
                                 (F / (r.measuredTflopsPerGpu * 1e12 * double(r.gpus))) -
                             1) < 1e-12);
            // The transcription: the paper's parameter count, 12·l·h²·(1 + 13/(12h) +
            // (V + s)/(12·l·h)), is the one in each row's name ("GPT 39.1B") to its rounding.
            const double billions =
                12 * l * h * h * (1 + 13 / (12 * h) + (51200 + s) / (12 * l * h)) / 1e9;
            const double named = std::stod(r.name.substr(4));
            QVERIFY2(std::abs(billions - named) <= 0.051 + 1e-3 * named, r.name.c_str());
        }
        // Korthikanti et al.'s four models, full recomputation and then selective recomputation
        // with sequence parallelism: the second four times give the paper's MFU (41.5, 51.4,
        // 56.0 and 56.3 %) with the 72-formula, to its rounding.
        const MeasuredRunSet korthikanti = bundled("korthikanti-a100");
        QCOMPARE(korthikanti.runs.size(), std::size_t(8));
        const double mfu[] = {0.415, 0.514, 0.560, 0.563};
        for (std::size_t i = 0; i < korthikanti.runs.size(); ++i) {
            const MeasuredRun& r = korthikanti.runs[i];
            const MeasuredRun& twin = korthikanti.runs[i % 4];  // the same model and layout
            QCOMPARE(r.tensor, std::int64_t(8));
            QCOMPARE(r.data, std::int64_t(1));
            QCOMPARE(r.globalBatch, twin.globalBatch);
            QCOMPARE(r.pipeline, twin.pipeline);
            QCOMPARE(paddedVocab(r.model, r.tensor), std::int64_t(51200));
            QVERIFY(!r.flashAttention);
            QVERIFY(r.recompute ==
                    (i < 4 ? hardware::Recompute::On : hardware::Recompute::Selective));
            QCOMPARE(r.sequenceParallel, i >= 4);
            if (i < 4) continue;
            const double B = double(r.globalBatch), s = 2048, l = double(r.model.layers),
                         h = double(r.model.hidden);
            const double F = 72 * B * s * l * h * h * (1 + s / (6 * h) + 51200 / (12 * l * h));
            const double measuredMfu = F / (r.measuredSeconds * double(r.gpus) * 312e12);
            QVERIFY2(std::abs(measuredMfu / mfu[i - 4] - 1) < 0.005, r.name.c_str());
        }
        const MeasuredRunSet single = bundled("single-node-a100");
        QCOMPARE(single.runs.size(), std::size_t(1440));
        QVERIFY(!single.tflopsPublished);
        QVERIFY(single.licence.find("MIT") != std::string::npos);
        QVERIFY(single.source.find("vTrain") != std::string::npos);
        auto missing = bundledRunSet("nope");
        QVERIFY(!missing.ok());
        QVERIFY(missing.message().find("megatron-a100, single-node-a100") != std::string::npos);
    }

    void cacheIsBitIdenticalToEvaluateStrategy() {
        const std::vector<MeasuredRun> narayanan = bundled("megatron-a100").runs;
        std::vector<MeasuredRun> runs{narayanan[0], narayanan[3],
                                      narayanan[7]};  // 1.7, 18.4, 310 B
        const MeasuredRunSet single = bundled("single-node-a100");
        for (std::size_t i = 0; i < single.runs.size(); i += 29) runs.push_back(single.runs[i]);
        for (const MeasuredRun& r : featureRuns()) runs.push_back(r);
        const auto hw = a100();
        auto predictor = predictorFor(runs);
        QVERIFY(predictor->graphCount() < runs.size() + 3 * 8);  // shared between runs
        auto predicted = predictor->predict(hw);
        QVERIFY2(predicted.ok(), predicted.ok() ? "" : predicted.message().c_str());
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const RunPrediction expected = uncached(runs[i], hw);
            const RunPrediction& got = (*predicted)[i];
            QVERIFY2(got.fits == expected.fits, runs[i].name.c_str());
            QVERIFY2(got.fits, runs[i].name.c_str());
            QCOMPARE(got.microbatch, expected.microbatch);
            QVERIFY2(got.predictedSeconds == expected.predictedSeconds, runs[i].name.c_str());
            QVERIFY(got.error == got.predictedSeconds / runs[i].measuredSeconds - 1);
            QVERIFY(got.predictedTflopsPerGpu == tflopsPerGpu(runs[i], got.predictedSeconds));
        }
    }

    void threadCountAndRepeatedCallsDoNotMatter() {
        const auto runs = bundled("single-node-a100").runs;
        const auto hw = a100();
        auto one = predictorFor(runs, 1);
        auto three = predictorFor(runs, 3);
        QCOMPARE(one->threadCount(), 1);
        auto a = one->predict(hw);
        auto b = three->predict(hw);
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(a->size(), std::size_t(1440));
        compareExactly(*a, *b);
        for (const RunPrediction& p : *a) QVERIFY(p.fits);

        // Other hardware on the same predictor, then the first again: nothing stale is kept.
        hardware::HardwarePoint slow = hw;
        slow.name = "slow";
        slow.accelerator.tensorCoreEfficiency = 0.4;
        auto s = three->predict(slow);
        auto again = three->predict(hw);
        QVERIFY(s.ok() && again.ok());
        compareExactly(*a, *again);
        auto fresh = predictorFor(runs, 2)->predict(slow);
        QVERIFY(fresh.ok());
        compareExactly(*s, *fresh);
        std::size_t slower = 0;
        for (std::size_t i = 0; i < s->size(); ++i)
            slower += (*s)[i].predictedSeconds > (*a)[i].predictedSeconds;
        QVERIFY(slower > s->size() / 2);
    }

    void runsThatDoNotFitAreResults() {
        auto hw = a100();
        hw.accelerator.hbmCapacityBytes = std::int64_t(1) << 30;  // 1 GiB
        auto runs = featureRuns();
        runs.push_back(bundled("megatron-a100").runs[7]);  // 310 B parameters
        auto predicted = predictorFor(runs)->predict(hw);
        QVERIFY2(predicted.ok(), predicted.ok() ? "" : predicted.message().c_str());
        const RunPrediction& big = predicted->back();
        QVERIFY(!big.fits);
        QVERIFY(!big.reason.empty());
        QCOMPARE(big.predictedSeconds, 0.0);
    }

    void cancelProgressAndRefusals() {
        const auto runs = featureRuns();
        auto predictor = predictorFor(runs);
        RunControl cancelled;
        cancelled.cancel();
        auto stopped = predictor->predict(a100(), &cancelled);
        QVERIFY(!stopped.ok());
        QCOMPARE(stopped.message(), std::string("cancelled"));
        auto notCreated = RunPredictor::create(runs, {}, &cancelled);
        QVERIFY(!notCreated.ok());
        QCOMPARE(notCreated.message(), std::string("cancelled"));

        std::atomic<int> reports{0};
        std::atomic<bool> sawEnd{false};
        RunControl control(
            [&](const Progress& p) {
                ++reports;
                if (p.done == p.total) sawEnd = true;
                QVERIFY(p.message.find("predicting runs") != std::string::npos ||
                        p.message.find("scheduling layers") != std::string::npos ||
                        p.message.find("building models") != std::string::npos);
            },
            std::chrono::milliseconds(0));
        QVERIFY(RunPredictor::create(runs, {}, &control).ok());
        QVERIFY(sawEnd);
        sawEnd = false;
        QVERIFY(predictor->predict(a100(), &control).ok());
        QVERIFY(reports > 0);
        QVERIFY(sawEnd);

        MeasuredRun bad = runs.front();
        bad.name = "bad run";
        bad.gpus = 6;
        auto refused = RunPredictor::create({bad});
        QVERIFY(!refused.ok());
        QVERIFY2(refused.message().find("bad run: t·p·d") != std::string::npos,
                 refused.message().c_str());

        hardware::HardwarePoint broken = a100();
        broken.accelerator.clockHz = 0;
        auto rejected = predictor->predict(broken);
        QVERIFY(!rejected.ok());
        QVERIFY2(rejected.message().find("a100-like") != std::string::npos,
                 rejected.message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestRunPredictor)
#include "test_run_predictor.moc"
