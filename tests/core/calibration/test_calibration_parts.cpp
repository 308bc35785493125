// The pieces of a calibration without measured runs: the table of calibratable parameters and
// its registry access (bounds inside the registry's ranges, read and write by key, refusals),
// the seeded k-fold and hold-out splits (partitions, sizes, reproducible, seed-dependent), and
// the simplex search on closed-form objectives (finds the minimum, never leaves the unit box,
// keeps the budget, deterministic, errors and cancel).
#include <QtTest>
#include <cmath>
#include <numeric>
#include <set>

#include "core/calibration/calibration_parameter.h"
#include "core/calibration/fold_assignment.h"
#include "core/calibration/simplex_search.h"
#include "core/hardware/parameter_registry.h"
#include "core/hardware/preset_library.h"
#include "test_presets.h"

using namespace tandem::core;
using namespace tandem::core::calibration;

namespace {

hardware::HardwarePoint a100() {
    return tandem::test::presetOrDie("a100-like");
}

}  // namespace

class TestCalibrationParts : public QObject {
    Q_OBJECT

private slots:
    void tableWithinRegistry() {
        const auto available = availableCalibrationParameters();
        QVERIFY(available.size() >= 6);  // the six parameters the cost model has today
        for (const char* key :
             {"accelerator.tensorCoreEfficiency", "accelerator.hbmEfficiency",
              "accelerator.operatorOverheadSeconds", "cluster.collectiveEfficiency",
              "cluster.hopLatencySeconds", "cluster.dataParallelOverlap"})
            QVERIFY2(findCalibrationParameter(key).ok(), key);
        for (const CalibrationParameter& p : calibrationTable()) {
            QVERIFY(p.lower < p.upper);
            QVERIFY(!p.why.empty());
            const hardware::ParameterSpec* spec = registrySpec(p);
            if (!spec) continue;  // a parameter this build's cost model does not have yet
            // The physical bounds lie inside what the registry accepts.
            QVERIFY2(spec->check(p.lower, "x").ok(), std::string(p.key).c_str());
            QVERIFY2(spec->check(p.upper, "x").ok(), std::string(p.key).c_str());
        }
    }

    void readWriteByKey() {
        hardware::HardwarePoint hw = a100();
        auto tc = findCalibrationParameter("tensorCoreEfficiency");  // the key alone also works
        QVERIFY(tc.ok());
        QCOMPARE(std::string(tc->key), std::string("accelerator.tensorCoreEfficiency"));
        QCOMPARE(parameterValue(hw, *tc), hw.accelerator.tensorCoreEfficiency);
        QVERIFY(setParameterValue(hw, *tc, 0.61).ok());
        QCOMPARE(hw.accelerator.tensorCoreEfficiency, 0.61);
        auto hop = findCalibrationParameter("cluster.hopLatencySeconds");
        QVERIFY(hop.ok());
        QVERIFY(setParameterValue(hw, *hop, 7e-6).ok());
        QCOMPARE(hw.cluster.hopLatencySeconds, 7e-6);
        QCOMPARE(parameterValue(hw, *hop), 7e-6);
        // The registry's own check refuses what it refuses, naming the key.
        const Status bad = setParameterValue(hw, *tc, 5.0);
        QVERIFY(!bad.ok());
        QVERIFY(bad.message().find("tensorCoreEfficiency") != std::string::npos);
        QCOMPARE(hw.accelerator.tensorCoreEfficiency, 0.61);  // unchanged
    }

    void unknownKeys() {
        for (const char* key : {"numTensorCores", "accelerator.nope", "", "cluster."}) {
            auto p = findCalibrationParameter(key);
            QVERIFY2(!p.ok(), key);
            QVERIFY(p.message().find("accelerator.tensorCoreEfficiency") != std::string::npos);
        }
    }

    void kFoldPartitions() {
        for (const std::size_t n : {5u, 17u, 1440u}) {
            for (const int k : {2, 5}) {
                auto fold = kFoldAssignment(n, k, 7);
                QVERIFY(fold.ok());
                std::vector<std::size_t> sizes(std::size_t(k), 0);
                for (int f : *fold) {
                    QVERIFY(f >= 0 && f < k);
                    ++sizes[std::size_t(f)];
                }
                const auto [lo, hi] = std::minmax_element(sizes.begin(), sizes.end());
                QVERIFY(*hi - *lo <= 1);
                QCOMPARE(std::accumulate(sizes.begin(), sizes.end(), std::size_t(0)), n);
                QCOMPARE(*kFoldAssignment(n, k, 7), *fold);  // reproducible
            }
        }
        QVERIFY(*kFoldAssignment(100, 5, 1) != *kFoldAssignment(100, 5, 2));
        // Fixed values: the split is the same on every machine (SplitMix64, not std::shuffle).
        QCOMPARE(seededPermutation(6, 1), seededPermutation(6, 1));
        const auto p = seededPermutation(50, 3);
        QCOMPARE(std::set<std::size_t>(p.begin(), p.end()).size(), std::size_t(50));
        QVERIFY(!kFoldAssignment(4, 5, 1).ok());
        QVERIFY(!kFoldAssignment(10, 1, 1).ok());
        QVERIFY(!kFoldAssignment(100, kMaxFolds + 1, 1).ok());
    }

    void holdout() {
        auto held = holdoutAssignment(1440, 0.5, 1);
        QVERIFY(held.ok());
        QCOMPARE(std::count(held->begin(), held->end(), true), 720);
        QCOMPARE(*holdoutAssignment(1440, 0.5, 1), *held);
        QVERIFY(*holdoutAssignment(1440, 0.5, 2) != *held);
        const std::vector<bool> small = *holdoutAssignment(10, 0.3, 1);
        QCOMPARE(std::count(small.begin(), small.end(), true), 3);
        for (double f : {0.0, 1.0, -0.5, 2.0, std::nan("")}) QVERIFY(!holdoutAssignment(10, f, 1));
        QVERIFY(!holdoutAssignment(3, 0.1, 1).ok());   // none held out
        QVERIFY(!holdoutAssignment(3, 0.95, 1).ok());  // none left to fit
    }

    void simplexSearchFindsMinimum() {
        // A smooth bowl with its minimum inside, and one with it on a face of the box.
        const std::vector<double> target{0.3, 0.71, 0.05};
        int outside = 0;
        const Objective bowl = [&](std::span<const double> x) -> Expected<double> {
            double s = 0;
            for (std::size_t i = 0; i < x.size(); ++i) {
                if (x[i] < 0 || x[i] > 1) ++outside;
                s += (i + 1) * (x[i] - target[i]) * (x[i] - target[i]);
            }
            return s;
        };
        SimplexSearchOptions options;
        options.maxEvaluations = 400;
        auto r = simplexSearch(bowl, {0.5, 0.5, 0.5}, options);
        QVERIFY(r.ok());
        QCOMPARE(outside, 0);
        QVERIFY(r->converged);
        QVERIFY(r->evaluations <= 400);
        for (std::size_t i = 0; i < 3; ++i) QVERIFY(std::fabs(r->x[i] - target[i]) < 0.01);
        auto again = simplexSearch(bowl, {0.5, 0.5, 0.5}, options);
        QVERIFY(again->x == r->x && again->evaluations == r->evaluations);  // deterministic

        const Objective edge = [](std::span<const double> x) -> Expected<double> {
            return -x[0] + std::fabs(x[1] - 0.2);
        };
        auto e = simplexSearch(edge, {0.0, 1.0}, options);
        QVERIFY(e.ok());
        QCOMPARE(e->x[0], 1.0);
        QVERIFY(std::fabs(e->x[1] - 0.2) < 0.01);
    }

    void simplexSearchBudgetErrorsCancel() {
        int calls = 0;
        const Objective counting = [&](std::span<const double> x) -> Expected<double> {
            ++calls;
            return std::fabs(x[0] - 0.123) + std::fabs(x[1] - 0.9);
        };
        SimplexSearchOptions options;
        options.maxEvaluations = 7;
        auto r = simplexSearch(counting, {0.5, 0.5}, options);
        QVERIFY(r.ok());
        QCOMPARE(calls, 7);
        QCOMPARE(r->evaluations, 7);
        QVERIFY(!r->converged);

        const Objective failing = [&](std::span<const double>) -> Expected<double> {
            return Error{"the model refused this"};
        };
        auto f = simplexSearch(failing, {0.5}, options);
        QVERIFY(!f.ok());
        QCOMPARE(f.message(), std::string("the model refused this"));

        // Cancelled after a few evaluations: the best point so far, marked cancelled.
        RunControl control;
        calls = 0;
        const Objective cancelling = [&](std::span<const double> x) -> Expected<double> {
            if (++calls == 5) control.cancel();
            return std::fabs(x[0] - 0.123) + std::fabs(x[1] - 0.9);
        };
        options.maxEvaluations = 1000;
        auto c = simplexSearch(cancelling, {0.5, 0.5}, options, &control);
        QVERIFY(c.ok());
        QVERIFY(c->cancelled);
        QCOMPARE(calls, 5);
        QVERIFY(c->value <= 0.377 + 0.4 + 1e-12);  // no worse than the start
        QCOMPARE(c->x.size(), std::size_t(2));

        QVERIFY(!simplexSearch(counting, {1.5}, options).ok());
        options.maxEvaluations = 0;
        QVERIFY(!simplexSearch(counting, {0.5}, options).ok());
    }
};

QTEST_APPLESS_MAIN(TestCalibrationParts)
#include "test_calibration_parts.moc"
