// Calibration on synthetic measured runs: small GPTs on 1 to 8 GPUs whose "measured" times are
// the cost model's own predictions on hardware with known parameter values. From the a100-like
// description the fit must recover those values (and nearly zero error), stay within the
// physical bounds, report a parameter the runs cannot see (data-parallel overlap when no run
// is data-parallel) as not pinned and keep its start value, cross-validate with folds that
// partition the runs (each run's out-of-fold prediction is the prediction of its fold's fit),
// hold out a seeded share, give bit-identical results for 1 and 2 threads, count runs that do
// not fit, refuse bad options, and return the best point so far when cancelled.
#include <QtTest>
#include <cmath>

#include "core/calibration/calibration.h"
#include "core/hardware/preset_library.h"
#include "core/validation/run_predictor.h"
#include "test_presets.h"

using namespace tandem::core;
using namespace tandem::core::calibration;
using validation::MeasuredRun;

namespace {

hardware::HardwarePoint a100() {
    return tandem::test::presetOrDie("a100-like");
}

// The "true" cluster the synthetic runs were measured on.
hardware::HardwarePoint truth() {
    hardware::HardwarePoint hw = a100();
    hw.accelerator.tensorCoreEfficiency = 0.62;
    hw.accelerator.hbmEfficiency = 0.55;
    hw.accelerator.operatorOverheadSeconds = 6e-6;
    hw.cluster.collectiveEfficiency = 0.6;
    return hw;
}

// Small GPTs, tensor-parallel and pipelined, never data-parallel (d = 1).
std::vector<MeasuredRun> shapes() {
    std::vector<MeasuredRun> runs;
    int n = 0;
    for (const std::int64_t hidden : {512, 1024, 2048})
        for (const auto& [t, p] : {std::pair{1, 1}, {2, 1}, {4, 1}, {2, 2}})
            for (const std::int64_t batch : {4, 16}) {
                MeasuredRun r;
                r.name = "run " + std::to_string(++n);
                r.model = {hidden, 16, 4, 512, 50257, 128};
                r.tensor = t;
                r.pipeline = p;
                r.data = 1;
                r.gpus = t * p;
                r.globalBatch = batch;
                r.microbatch = 2;
                r.measuredSeconds = 1;  // replaced by the prediction on truth()
                runs.push_back(r);
            }
    return runs;
}

std::unique_ptr<validation::RunPredictor> predictorFor(std::vector<MeasuredRun> runs,
                                                       int threads = 2) {
    validation::RunPredictorOptions options;
    options.threads = threads;
    auto p = validation::RunPredictor::create(std::move(runs), options);
    if (!p) qFatal("%s", p.message().c_str());
    return std::move(p).value();
}

// The shapes with their times predicted on `hardware`.
std::vector<MeasuredRun> measuredOn(const hardware::HardwarePoint& hardware) {
    std::vector<MeasuredRun> runs = shapes();
    auto predictions = predictorFor(runs)->predict(hardware);
    if (!predictions) qFatal("%s", predictions.message().c_str());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!(*predictions)[i].fits) qFatal("%s does not fit", runs[i].name.c_str());
        runs[i].measuredSeconds = (*predictions)[i].predictedSeconds;
    }
    return runs;
}

const FittedParameter& parameter(const CalibrationResult& r, std::string_view key) {
    for (const FittedParameter& p : r.parameters)
        if (p.parameter.key == key) return p;
    qFatal("no parameter %s", std::string(key).c_str());
}

CalibrationOptions options(std::vector<std::string> keys, int folds = 0) {
    CalibrationOptions o;
    o.parameters = std::move(keys);
    o.folds = folds;
    o.maxEvaluations = 150;
    o.source = "synthetic runs";
    return o;
}

}  // namespace

class TestCalibration : public QObject {
    Q_OBJECT

private slots:
    void recoversKnownParameters() {
        auto predictor = predictorFor(measuredOn(truth()));
        hardware::HardwarePoint start = a100();
        start.cluster.dataParallelOverlap = 0.3;  // invisible to runs without data parallelism
        auto r =
            calibrate(*predictor, start,
                      options({"tensorCoreEfficiency", "hbmEfficiency", "operatorOverheadSeconds",
                               "collectiveEfficiency", "dataParallelOverlap"}));
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        qInfo("start %.2f %% -> fitted %.3f %% in %d predictions", 100 * r->startError.meanAbsError,
              100 * r->trainingError.meanAbsError, r->evaluations);
        for (const FittedParameter& p : r->parameters)
            qInfo("%s: start %g fitted %g sensitivity %g %s", std::string(p.parameter.key).c_str(),
                  p.start, p.fitted, p.sensitivity,
                  std::string(toString(p.identifiability)).c_str());
        QVERIFY(!r->cancelled);
        QVERIFY(r->startError.meanAbsError > 0.05);
        QVERIFY(r->trainingError.meanAbsError < 0.001);
        QVERIFY(std::fabs(parameter(*r, "accelerator.tensorCoreEfficiency").fitted - 0.62) < 0.01);
        QVERIFY(std::fabs(parameter(*r, "accelerator.hbmEfficiency").fitted - 0.55) < 0.01);
        QVERIFY(std::fabs(parameter(*r, "accelerator.operatorOverheadSeconds").fitted - 6e-6) <
                0.1e-6);
        QVERIFY(std::fabs(parameter(*r, "cluster.collectiveEfficiency").fitted - 0.6) < 0.02);
        for (const char* key :
             {"accelerator.tensorCoreEfficiency", "accelerator.hbmEfficiency",
              "accelerator.operatorOverheadSeconds", "cluster.collectiveEfficiency"})
            QVERIFY2(parameter(*r, key).pinned(), key);

        // The overlap cannot be seen: not pinned, kept, and the written point says so.
        const FittedParameter& overlap = parameter(*r, "cluster.dataParallelOverlap");
        QVERIFY(overlap.identifiability == Identifiability::Flat);
        QCOMPARE(overlap.sensitivity, 0.0);
        QCOMPARE(overlap.fitted, 0.3);
        QCOMPARE(r->fitted.cluster.dataParallelOverlap, 0.3);
        QCOMPARE(r->fitted.name, std::string("a100-like-calibrated"));
        QVERIFY(r->fitted.description.find("synthetic runs") != std::string::npos);
        QVERIFY(r->fitted.description.find("kept (not pinned down by the runs): "
                                           "cluster.dataParallelOverlap") != std::string::npos);

        // Bounds: every fitted value, and the written point, within them.
        for (const FittedParameter& p : r->parameters) {
            QVERIFY(p.fitted >= p.parameter.lower && p.fitted <= p.parameter.upper);
            QCOMPARE(parameterValue(r->fitted, p.parameter), p.fitted);
        }
        // The fitted point predicts what the result says.
        auto again = predictor->predict(r->fitted);
        QVERIFY(again.ok());
        for (std::size_t i = 0; i < again->size(); ++i)
            QVERIFY((*again)[i].predictedSeconds == r->fittedRuns[i].predictedSeconds);
    }

    void boundsHoldWhenTheTruthIsOutside() {
        // Runs "measured" on a chip slower than the bounds allow: the fit stops at the bound.
        hardware::HardwarePoint slow = truth();
        slow.accelerator.tensorCoreEfficiency = 0.1;
        slow.accelerator.hbmEfficiency = 0.1;
        auto predictor = predictorFor(measuredOn(slow));
        auto r = calibrate(*predictor, a100(), options({"tensorCoreEfficiency", "hbmEfficiency"}));
        QVERIFY(r.ok());
        for (const FittedParameter& p : r->parameters) {
            QVERIFY(p.fitted >= p.parameter.lower && p.fitted <= p.parameter.upper);
            QVERIFY(p.firstFit >= p.parameter.lower && p.firstFit <= p.parameter.upper);
        }
        QCOMPARE(parameter(*r, "accelerator.hbmEfficiency").fitted, 0.3);
    }

    void crossValidationFoldsPartition() {
        auto predictor = predictorFor(measuredOn(truth()));
        auto r = calibrate(*predictor, a100(),
                           options({"tensorCoreEfficiency", "operatorOverheadSeconds"}, 4));
        QVERIFY(r.ok());
        QVERIFY(r->validation == ValidationKind::KFold);
        const std::size_t n = predictor->runs().size();
        QCOMPARE(r->fold.size(), n);
        QCOMPARE(r->validatedRuns.size(), n);
        // The main fit and one per fold, and a refit exactly when a parameter is not pinned.
        bool allPinned = true;
        for (const FittedParameter& p : r->parameters) allPinned = allPinned && p.pinned();
        QCOMPARE(r->fits, 1 + 4 + (allPinned ? 0 : 1));
        std::vector<int> sizes(4, 0);
        for (int f : r->fold) ++sizes[std::size_t(f)];
        for (int s : sizes) QVERIFY(s == int(n / 4) || s == int(n / 4) + 1);
        // Each run's out-of-fold prediction is its fold's fit predicting it.
        for (int f = 0; f < 4; ++f) {
            hardware::HardwarePoint point = a100();
            for (const FittedParameter& p : r->parameters) {
                QCOMPARE(p.foldValues.size(), std::size_t(4));
                QVERIFY(setParameterValue(point, p.parameter, p.foldValues[std::size_t(f)]).ok());
            }
            auto predicted = predictor->predict(point);
            QVERIFY(predicted.ok());
            for (std::size_t i = 0; i < n; ++i)
                if (r->fold[i] == f)
                    QVERIFY((*predicted)[i].predictedSeconds ==
                            r->validatedRuns[i].predictedSeconds);
        }
        QVERIFY(r->validationError.has_value());
        QCOMPARE(r->validationError->runs, n);
        QVERIFY(r->validationError->meanAbsError < 0.05);
    }

    void holdoutSplit() {
        auto predictor = predictorFor(measuredOn(truth()));
        CalibrationOptions o = options({"tensorCoreEfficiency", "hbmEfficiency"});
        o.holdoutFraction = 0.25;
        o.seed = 11;
        auto r = calibrate(*predictor, a100(), o);
        QVERIFY(r.ok());
        QVERIFY(r->validation == ValidationKind::Holdout);
        const auto held = std::count(r->training.begin(), r->training.end(), false);
        QCOMPARE(std::size_t(held), std::size_t(std::llround(0.25 * 24)));
        QCOMPARE(r->validationError->runs, std::size_t(held));
        QCOMPARE(r->trainingError.runs, std::size_t(24 - held));
        QVERIFY(r->fitted.description.find("held-out") != std::string::npos);
    }

    void sameForAnyThreadCount() {
        const auto runs = measuredOn(truth());
        CalibrationOptions o = options({"tensorCoreEfficiency", "hbmEfficiency",
                                        "operatorOverheadSeconds", "hopLatencySeconds"},
                                       3);
        o.maxEvaluations = 60;
        auto one = calibrate(*predictorFor(runs, 1), a100(), o);
        auto two = calibrate(*predictorFor(runs, 2), a100(), o);
        QVERIFY(one.ok() && two.ok());
        QCOMPARE(one->evaluations, two->evaluations);
        for (std::size_t i = 0; i < one->parameters.size(); ++i) {
            QVERIFY(one->parameters[i].fitted == two->parameters[i].fitted);
            QVERIFY(one->parameters[i].foldValues == two->parameters[i].foldValues);
            QVERIFY(one->parameters[i].identifiability == two->parameters[i].identifiability);
        }
        QVERIFY(one->validationError->meanAbsError == two->validationError->meanAbsError);
        QVERIFY(one->fitted == two->fitted);
    }

    void cancelKeepsBestSoFar() {
        auto predictor = predictorFor(measuredOn(truth()));
        int reports = 0;
        RunControl* self = nullptr;
        RunControl control(
            [&](const Progress& p) {
                QVERIFY(p.done <= p.total);
                if (++reports == 12) self->cancel();
            },
            std::chrono::milliseconds(0));
        self = &control;
        auto r = calibrate(*predictor, a100(),
                           options({"tensorCoreEfficiency", "hbmEfficiency"}, 5), &control);
        QVERIFY(r.ok());
        QVERIFY(r->cancelled);
        QVERIFY(!r->validationError.has_value());
        QVERIFY(r->evaluations >= 11 && r->evaluations <= 13);
        QVERIFY(r->trainingError.meanAbsError <= r->startError.meanAbsError);
        QVERIFY(r->fitted.description.find("interrupted") != std::string::npos);
    }

    void runsThatDoNotFitCount() {
        std::vector<MeasuredRun> runs = measuredOn(truth());
        runs[0].model.layers = 96;  // far beyond 80 GiB on one GPU
        runs[0].model.hidden = 8192;
        runs[0].model.heads = 64;
        auto predictor = predictorFor(runs);
        auto r = calibrate(*predictor, a100(), options({"tensorCoreEfficiency"}));
        QVERIFY(r.ok());
        QVERIFY(!r->fittedRuns[0].fits);
        QVERIFY(!r->fittedRuns[0].reason.empty());
        QCOMPARE(r->trainingError.notFitting, std::size_t(1));
        QCOMPARE(r->trainingError.worstAbsError, kNoFitError);
        QCOMPARE(r->trainingError.runs, runs.size());
    }

    void refusals() {
        auto predictor = predictorFor(measuredOn(truth()));
        const auto message = [&](CalibrationOptions o, hardware::HardwarePoint start = a100()) {
            auto r = calibrate(*predictor, start, o);
            return r.ok() ? std::string() : r.message();
        };
        QVERIFY(message(options({"numTensorCores"})).find("not a calibratable") !=
                std::string::npos);
        QVERIFY(
            message(options({"hbmEfficiency", "accelerator.hbmEfficiency"})).find("named twice") !=
            std::string::npos);
        hardware::HardwarePoint low = a100();
        low.accelerator.tensorCoreEfficiency = 0.1;
        const std::string outside = message(options({"tensorCoreEfficiency"}), low);
        QVERIFY(outside.find("outside the physical bounds") != std::string::npos);
        QVERIFY(outside.find("0.300 to 1.000") != std::string::npos);
        QVERIFY(message(options({"hbmEfficiency"}, 25)).find("at least 25 runs") !=
                std::string::npos);
        CalibrationOptions o = options({"hbmEfficiency"});
        o.maxEvaluations = 0;
        QVERIFY(message(o).find("evaluation budget") != std::string::npos);
        o = options({"hbmEfficiency"});
        o.holdoutFraction = 1.0;
        QVERIFY(message(o).find("hold-out fraction") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestCalibration)
#include "test_calibration.moc"
