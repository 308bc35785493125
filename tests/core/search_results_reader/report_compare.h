#pragma once
// Exact comparison of a SearchReport read back by search_results_reader.h with the one that was
// written: every field the format carries must be equal bit for bit (doubles compared with ==,
// not Qt's fuzzy QCOMPARE), the fields it does not carry must be at their documented defaults.
// Each helper records the first difference with its place and returns; callers stop with
// `if (QTest::currentTestFailed()) return;`.
#include <QtTest>
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

#include "core/io/search_results_json.h"
#include "core/search/search_baselines.h"

namespace report_compare {

template <class T>
std::string shown(const T& value) {
    if constexpr (std::is_floating_point_v<T>) {
        char text[40];
        std::snprintf(text, sizeof text, "%.17g", double(value));
        return text;
    } else if constexpr (std::is_enum_v<T>) {
        return std::to_string(static_cast<long long>(value));
    } else if constexpr (std::is_arithmetic_v<T>) {
        return std::to_string(value);
    } else {
        return "(not printable)";
    }
}

template <class A, class B>
std::string differs(const std::string& place, const A& actual, const B& expected) {
    return place + ": read " + shown(actual) + ", written " + shown(expected);
}

}  // namespace report_compare

// Exact equality with the place in the message.
#define SAME(place, actual, expected) \
    QVERIFY2((actual) == (expected),  \
             report_compare::differs(std::string(place) + " " #actual, actual, expected).c_str())

namespace report_compare {

using namespace tandem::core;

inline void accelerator(const std::string& at, const hardware::AcceleratorConfig& a,
                        const hardware::AcceleratorConfig& b) {
    SAME(at, a.numTensorCores, b.numTensorCores);
    SAME(at, a.tensorCoreRows, b.tensorCoreRows);
    SAME(at, a.tensorCoreCols, b.tensorCoreCols);
    SAME(at, a.numVectorCores, b.numVectorCores);
    SAME(at, a.vectorCoreLanes, b.vectorCoreLanes);
    SAME(at, a.globalBufferBytes, b.globalBufferBytes);
    SAME(at, a.hbmCapacityBytes, b.hbmCapacityBytes);
    SAME(at, a.hbmBandwidthBytesPerSecond, b.hbmBandwidthBytesPerSecond);
    SAME(at, a.clockHz, b.clockHz);
    SAME(at, a.bytesPerElement, b.bytesPerElement);
    SAME(at, a.tensorCoreEfficiency, b.tensorCoreEfficiency);
    SAME(at, a.hbmEfficiency, b.hbmEfficiency);
    SAME(at, a.operatorOverheadSeconds, b.operatorOverheadSeconds);
    SAME(at, a.operatorExecution, b.operatorExecution);
    QVERIFY(a == b);  // catches a field added to AcceleratorConfig and not listed above
}

// `numbers`: compare index and chipIndex too (false for a partial file, see the reader header).
inline void point(const std::string& at, const search::SearchPoint& a, const search::SearchPoint& b,
                  bool numbers) {
    if (numbers) {
        SAME(at, a.index, b.index);
        SAME(at, a.chipIndex, b.chipIndex);
    }
    accelerator(at, a.accelerator, b.accelerator);
    if (QTest::currentTestFailed()) return;
    SAME(at, a.areaSquareMillimetres, b.areaSquareMillimetres);
    SAME(at, a.microbatchSize, b.microbatchSize);
    SAME(at, a.recompute, b.recompute);
}

inline void evaluated(const std::string& at, const search::EvaluatedPoint& a,
                      const search::EvaluatedPoint& b, bool numbers) {
    point(at, a.point, b.point, numbers);
    if (QTest::currentTestFailed()) return;
    SAME(at, a.status, b.status);
    SAME(at, a.throughputSamplesPerSecond, b.throughputSamplesPerSecond);
    SAME(at, a.objective, b.objective);
    SAME(at, a.baselineThroughputSamplesPerSecond, b.baselineThroughputSamplesPerSecond);
    SAME(at, a.planShape.tensorParallel, b.planShape.tensorParallel);
    SAME(at, a.planShape.dataParallel, b.planShape.dataParallel);
    SAME(at, a.planShape.stages, b.planShape.stages);
    SAME(at, a.planShape.interleave, b.planShape.interleave);
    SAME(at, a.planShape.zero, b.planShape.zero);
    SAME(at, a.planShape.sequenceParallel, b.planShape.sequenceParallel);
    SAME(at, a.planShape.timePerBatchSeconds, b.planShape.timePerBatchSeconds);
    SAME(at, a.modelThroughputsSamplesPerSecond.size(), b.modelThroughputsSamplesPerSecond.size());
    for (std::size_t m = 0; m < a.modelThroughputsSamplesPerSecond.size(); ++m)
        SAME(at, a.modelThroughputsSamplesPerSecond[m], b.modelThroughputsSamplesPerSecond[m]);
    // Not carried: at their defaults.
    QVERIFY(a.message.empty());
    QVERIFY(a.schedules == search::ScheduleSummary{});
    QVERIFY(a.seconds == search::PhaseSeconds{});
    QVERIFY(!a.plan && !a.baselinePlan);
}

inline void statistics(const search::SearchStatistics& a, const search::SearchStatistics& b) {
    QCOMPARE(a.explorer, b.explorer);
    SAME("statistics", a.threads, b.threads);
    SAME("statistics", a.pointsInSpace, b.pointsInSpace);
    SAME("statistics", a.evaluated, b.evaluated);
    SAME("statistics", a.skipped, b.skipped);
    SAME("statistics", a.cancelled, b.cancelled);
    SAME("statistics", a.wallSeconds, b.wallSeconds);
}

inline void results(const search::SearchResults& a, const search::SearchResults& b, bool numbers) {
    statistics(a.statistics(), b.statistics());
    QCOMPARE(a.points().size(), b.points().size());
    for (std::size_t i = 0; i < a.points().size(); ++i) {
        evaluated("points[" + std::to_string(i) + "]", a.points()[i], b.points()[i], numbers);
        if (QTest::currentTestFailed()) return;
    }
    QCOMPARE(a.paretoByArea(), b.paretoByArea());
    QCOMPARE(a.paretoByHbm(), b.paretoByHbm());
    QCOMPARE(a.best(), b.best());
}

inline void plan(const std::string& at, const placement::Plan& a, const placement::Plan& b) {
    SAME(at, a.costModel, b.costModel);
    SAME(at, a.tensorParallel, b.tensorParallel);
    SAME(at, a.dataParallel, b.dataParallel);
    SAME(at, a.microbatchSize, b.microbatchSize);
    SAME(at, a.microbatchesPerPipeline, b.microbatchesPerPipeline);
    SAME(at, a.devicesPerPipeline, b.devicesPerPipeline);
    SAME(at, a.devicesUsed, b.devicesUsed);
    SAME(at, a.recompute, b.recompute);
    SAME(at, a.sequenceParallel, b.sequenceParallel);
    SAME(at, a.interleave, b.interleave);
    SAME(at, a.maxStageLoadSeconds, b.maxStageLoadSeconds);
    SAME(at, a.pipelineSeconds, b.pipelineSeconds);
    SAME(at, a.syncSeconds, b.syncSeconds);
    SAME(at, a.optimizerSeconds, b.optimizerSeconds);
    SAME(at, a.timePerBatchSeconds, b.timePerBatchSeconds);
    SAME(at, a.throughputSamplesPerSecond, b.throughputSamplesPerSecond);
    SAME(at, a.bubbleFraction, b.bubbleFraction);
    SAME(at, a.breakdown.computeSeconds, b.breakdown.computeSeconds);
    SAME(at, a.breakdown.recomputeSeconds, b.breakdown.recomputeSeconds);
    SAME(at, a.breakdown.tensorParallelCommSeconds, b.breakdown.tensorParallelCommSeconds);
    SAME(at, a.breakdown.pipelineP2pSeconds, b.breakdown.pipelineP2pSeconds);
    SAME(at, a.breakdown.pipelineBubbleSeconds, b.breakdown.pipelineBubbleSeconds);
    SAME(at, a.breakdown.dataParallelSyncSeconds, b.breakdown.dataParallelSyncSeconds);
    SAME(at, a.breakdown.optimizerSeconds, b.breakdown.optimizerSeconds);
    SAME(at, a.modelFlopsPerIteration, b.modelFlopsPerIteration);
    SAME(at, a.mfu, b.mfu);
    QCOMPARE(a.devices.size(), b.devices.size());  // the search stores none
    SAME(at, a.stages.size(), b.stages.size());
    for (std::size_t k = 0; k < a.stages.size(); ++k) {
        const std::string s = at + ".stages[" + std::to_string(k) + "]";
        const placement::StagePlan& x = a.stages[k];
        const placement::StagePlan& y = b.stages[k];
        QVERIFY2(x.layers == y.layers, (s + ": layers differ").c_str());
        SAME(s, x.position, y.position);
        SAME(s, x.devices, y.devices);
        SAME(s, x.forwardSeconds, y.forwardSeconds);
        SAME(s, x.backwardSeconds, y.backwardSeconds);
        // Derived as forward + backward: the solver's own sum up to rounding.
        QVERIFY2(std::abs(x.loadSeconds - y.loadSeconds) <= 1e-12 * std::abs(y.loadSeconds),
                 differs(s + " loadSeconds", x.loadSeconds, y.loadSeconds).c_str());
        SAME(s, x.recompute, y.recompute);
        SAME(s, x.selectiveRecompute, y.selectiveRecompute);
        SAME(s, x.inFlightMicrobatches, y.inFlightMicrobatches);
        SAME(s, x.parameterBytes, 0.0);  // not carried
        SAME(s, x.memory.weightsBytes, y.memory.weightsBytes);
        SAME(s, x.memory.gradientsBytes, y.memory.gradientsBytes);
        SAME(s, x.memory.optimizerBytes, y.memory.optimizerBytes);
        SAME(s, x.memory.activationsBytes, y.memory.activationsBytes);
        SAME(s, x.memory.stashBytes, y.memory.stashBytes);
        SAME(s, x.memory.totalBytes, y.memory.totalBytes);
        SAME(s, x.memory.capacityBytes, y.memory.capacityBytes);
        SAME(s, x.memory.freeBytes, y.memory.freeBytes);
    }
}

inline void planPointer(const std::string& at, const std::shared_ptr<const placement::Plan>& a,
                        const std::shared_ptr<const placement::Plan>& b) {
    QVERIFY2(bool(a) == bool(b), (at + ": one plan is null").c_str());
    if (a) plan(at, *a, *b);
}

inline void baselines(const std::string& at, const search::SearchBaselines& a,
                      const search::SearchBaselines& b, bool numbers) {
    SAME(at, a.referenceInSpace, b.referenceInSpace);
    SAME(at, a.partial, b.partial);
    for (int i = 0; i < search::kBaselineCount; ++i) {
        const std::string o = at + "." + std::string(search::baselineKey(i));
        const search::BaselineOutcome& x = search::baselineOutcome(a, i);
        const search::BaselineOutcome& y = search::baselineOutcome(b, i);
        SAME(o, x.available, y.available);
        SAME(o, x.throughputSamplesPerSecond, y.throughputSamplesPerSecond);
        QCOMPARE(x.message, y.message);
        if (x.available) point(o + ".point", x.point, y.point, numbers);
        if (QTest::currentTestFailed()) return;
        planPointer(o + ".plan", x.plan, y.plan);
        if (QTest::currentTestFailed()) return;
    }
}

// `a` read back, `b` written.
inline void report(const tandem::core::io::SearchReport& a, const tandem::core::io::SearchReport& b,
                   bool numbers = true) {
    QVERIFY(a.results && b.results);
    results(*a.results, *b.results, numbers);
    if (QTest::currentTestFailed()) return;
    QVERIFY(a.baseHardware == b.baseHardware);
    QCOMPARE(a.models.size(), b.models.size());
    for (std::size_t m = 0; m < a.models.size(); ++m) {
        const auto& x = a.models[m];
        const auto& y = b.models[m];
        const std::string at = "models[" + std::to_string(m) + "]";
        QCOMPARE(x.name, y.name);
        QCOMPARE(x.layerNames, y.layerNames);
        baselines(at + ".baselines", x.baselines, y.baselines, numbers);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(x.plans.size(), y.plans.size());
        for (const auto& [position, p] : y.plans) {
            QVERIFY2(x.plans.count(position), (at + ": a plan is missing").c_str());
            planPointer(at + ".plans." + std::to_string(position), x.plans.at(position), p);
            if (QTest::currentTestFailed()) return;
        }
    }
}

}  // namespace report_compare
