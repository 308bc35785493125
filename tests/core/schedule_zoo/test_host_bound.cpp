// The host bound of ModelSchedule (model_schedule.h): a layer direction takes the longer of its
// device makespan and the host's time to issue its operators, and a recomputing backward issues
// forward and backward in one stream. The oracle is an asynchronous launch queue simulated
// operator by operator over many repeated layers: its steady period must equal the closed form.
#include <QtTest>

#include <algorithm>
#include <vector>

#include "core/estimate/operator_estimator.h"
#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/schedule/model_schedule.h"

using namespace tandem::core;

namespace {

// Device durations of one direction in execution order (serial chips: the schedule's tasks by
// start time), and whether each is issued by the host (not a Nop).
struct Stream {
    std::vector<double> device;
    std::vector<bool> issued;
};

Stream streamOf(const model::LayerGraph& graph, const schedule::LayerSchedule& s,
                schedule::Direction d) {
    const auto& ops = d == schedule::Direction::Forward ? graph.forward() : graph.backward();
    std::vector<std::size_t> order(ops.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return s.tasks[a].startSeconds < s.tasks[b].startSeconds;
    });
    Stream out;
    for (std::size_t i : order) {
        out.device.push_back(s.tasks[i].durationSeconds);
        out.issued.push_back(ops[i].opClass != model::OpClass::Nop);
    }
    return out;
}

// The period of an asynchronous launch queue fed `repeats` times with the stream: the host
// issues each operator in `host` seconds, the device starts it once issued and once the previous
// one ended. The average over the last half of the repeats.
double queuePeriod(const Stream& s, double host, int repeats) {
    double issued = 0, deviceFree = 0, halfway = 0;
    for (int r = 0; r < repeats; ++r) {
        if (r == repeats / 2) halfway = deviceFree;
        for (std::size_t i = 0; i < s.device.size(); ++i) {
            if (s.issued[i]) issued += host;
            deviceFree = std::max(deviceFree, issued) + s.device[i];
        }
    }
    return (std::max(deviceFree, issued) - halfway) / double(repeats - repeats / 2);
}

Stream concat(Stream a, const Stream& b) {
    a.device.insert(a.device.end(), b.device.begin(), b.device.end());
    a.issued.insert(a.issued.end(), b.issued.begin(), b.issued.end());
    return a;
}

// Accumulating the weight gradients: per parameter-owning operator, a memory-bound add that
// streams gradientAccumulationStreams parameter-sized tensors at the achievable HBM bandwidth
// (its vector-lane time is far shorter on a GPU) plus the per-kernel overhead.
double accumulationOracle(const model::LayerGraph& graph, const hardware::AcceleratorConfig& a) {
    double seconds = 0;
    for (const model::Operator& op : graph.forward()) {
        const double bytes = double(op.parameterBytes + op.tiedParameterBytes);
        if (bytes > 0)
            seconds += bytes * double(a.gradientAccumulationStreams) /
                           (a.hbmBandwidthBytesPerSecond * a.hbmEfficiency) +
                       a.operatorOverheadSeconds;
    }
    return seconds;
}

}  // namespace

class TestHostBound : public QObject {
    Q_OBJECT

private slots:
    void layerTimesAreTheQueuePeriod() {
        auto gpu = hardware::PresetLibrary::preset("a100-like");
        QVERIFY(gpu.ok());
        const auto gpt = model::zooModel("gpt2-xl");
        QVERIFY(gpt.ok());
        const schedule::LayerScheduler scheduler;
        // Microbatch 1 at t = 1: host-bound; microbatch 8 at a long sequence: device-bound.
        int hostBound = 0, deviceBound = 0;
        for (std::int64_t mbs : {1, 8}) {
            model::BuildOptions options;
            options.microbatch = mbs;
            options.sequenceLength = mbs == 1 ? 256 : 1024;
            const auto graph = (*gpt)->build(options);
            QVERIFY2(graph.ok(), graph.ok() ? "" : graph.message().c_str());
            const estimate::OperatorEstimator estimator(gpu->accelerator, gpu->cluster);
            const auto s = schedule::scheduleModel(*graph, estimator, scheduler);
            QVERIFY2(s.ok(), s.ok() ? "" : s.message().c_str());
            const double host = gpu->accelerator.hostOverheadSeconds;
            QCOMPARE(s->hostOverheadSeconds, host);
            for (std::size_t u = 0; u < s->unique.size(); ++u) {
                const auto& us = s->unique[u];
                const Stream f = streamOf(*us.graph, *us.forward, schedule::Direction::Forward);
                Stream b = streamOf(*us.graph, *us.backward, schedule::Direction::Backward);
                // The gradient accumulation follows the backward pass on the device; the host
                // does not issue it (model_schedule.h).
                b.device.push_back(us.accumulationSeconds);
                b.issued.push_back(false);
                QCOMPARE(us.accumulationSeconds, accumulationOracle(*us.graph, gpu->accelerator));
                QVERIFY(us.accumulationSeconds > 0);
                const double fq = queuePeriod(f, host, 400);
                const double bq = queuePeriod(b, host, 400);
                const double rq = queuePeriod(concat(f, b), host, 400);
                QVERIFY2(std::abs(us.forwardSeconds() - fq) <= 1e-9 * fq,
                         qPrintable(QString("%1 vs %2").arg(us.forwardSeconds()).arg(fq)));
                QVERIFY(std::abs(us.backwardSeconds() - bq) <= 1e-9 * bq);
                QVERIFY(std::abs(us.backwardSeconds() + us.recomputeSeconds() - rq) <= 1e-9 * rq);
                (us.forwardHostSeconds > us.forward->makespanSeconds ? hostBound : deviceBound)++;
                // Rerunning the forward costs at most the forward again.
                QVERIFY(us.recomputeSeconds() <= us.forwardSeconds() * (1 + 1e-12));
            }
        }
        QVERIFY(hostBound > 0);
        QVERIFY(deviceBound > 0);
    }

    void noHostNoChange() {
        auto tpu = hardware::PresetLibrary::preset("tpuv4-like");
        QVERIFY(tpu.ok());
        QCOMPARE(tpu->accelerator.hostOverheadSeconds, 0.0);
        const auto gpt = model::zooModel("bert-large");
        model::BuildOptions options;
        options.sequenceLength = 128;
        const auto graph = (*gpt)->build(options);
        QVERIFY(graph.ok());
        const estimate::OperatorEstimator estimator(tpu->accelerator, tpu->cluster);
        const auto s = schedule::scheduleModel(*graph, estimator, schedule::LayerScheduler());
        QVERIFY(s.ok());
        for (std::size_t l = 0; l < graph->layers().size(); ++l) {
            const auto& us = s->layer(l);
            QCOMPARE(s->forwardSeconds(l), us.forward->makespanSeconds);
            QCOMPARE(s->backwardSeconds(l), us.backward->makespanSeconds);
            QCOMPARE(s->recomputeSeconds(l), us.forward->makespanSeconds);
        }
    }
};

QTEST_APPLESS_MAIN(TestHostBound)
#include "test_host_bound.moc"
