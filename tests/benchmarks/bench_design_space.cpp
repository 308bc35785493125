// Design-space chart benchmark: streams the 704,640 points of the PHAZE space (synthetic points,
// tests/ui/design_space/synthetic_design_points.h) into a DesignSpaceChart in the batch sizes
// the search job hands to the GUI thread, and measures what the GUI thread pays per batch: the
// add plus the replot it triggers (the worst case, every batch drawn at once) — wall time and
// the GUI thread's own CPU time, worst, 95th percentile and mean. A point stays selected while
// points stream (so every batch looks it up, as in the app after a click), and one hover hit test
// per batch probes the hit-test index. After streaming it times a full replot (colour change),
// zoomed replot, hit tests, selection and setResults with the whole results, as the search
// finishing does, and streams the first batch size once more through a MainWindow (batches
// emitted as SearchJob::pointsReady). Runs offscreen unless QT_QPA_PLATFORM says otherwise.
//
// Batch sizes: the search job flushes every 100 ms; GPT-3 on two cores evaluates ~900 points/s
// (92 per batch), small models ~1,000–10,000 points/s, many-core machines more. The defaults
// cover 92, 920 and 7,046 (1 % of the space: a 70,000 points/s search) points per batch.
//
// Usage: bench_design_space [--batch N]... [--points N] [--verbose]
#include <QApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "core/search/search_results.h"
#include "tests/ui/design_space/synthetic_design_points.h"
#include "ui/charts/design_space_chart.h"
#include "ui/jobs/search_job.h"
#include "ui/main_window.h"
#include "ui/view_tabs.h"
#include "ui/workspace.h"

using tandem::core::search::EvaluatedPoint;
using tandem::test::syntheticDesignBatch;
using tandem::ui::ColourDimension;
using tandem::ui::DesignSpaceChart;

namespace {

double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Wall and GUI-thread CPU milliseconds of one piece of work.
struct Cost {
    double wall = 0, cpu = 0;
};

template <class F>
Cost measure(F&& work) {
    QElapsedTimer timer;
    timer.start();
    const double cpu0 = threadCpuMs();
    work();
    return {double(timer.nsecsElapsed()) / 1e6, threadCpuMs() - cpu0};
}

struct Summary {
    double worst = 0, p95 = 0, mean = 0;
};

Summary summarise(std::vector<double> v) {
    Summary s;
    if (v.empty()) return s;
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    std::sort(v.begin(), v.end());
    s.worst = v.back();
    s.p95 = v[std::min(v.size() - 1, v.size() * 95 / 100)];
    return s;
}

void show(DesignSpaceChart& chart) {
    chart.resize(1100, 680);
    chart.show();
    QApplication::processEvents();
    chart.replotNow();
}

bool verbose = false;  // --verbose: print every batch that took more than 10 ms

void streamRun(std::int64_t points, std::int64_t batchSize) {
    DesignSpaceChart chart;
    show(chart);
    chart.selectPoint(points / 3);  // selected before it arrives: looked up on every batch
    std::vector<double> batchWall, batchCpu, addCpu, replotCpu, hitCpu;
    std::int64_t worstAt = 0;
    const QPoint probe(chart.plotWidget()->width() / 2, chart.plotWidget()->height() / 2);
    for (std::int64_t first = 0; first < points; first += batchSize) {
        const auto batch = syntheticDesignBatch(first, std::min(batchSize, points - first));
        const Cost add = measure([&] { chart.addPoints(batch); });
        const Cost replot = measure([&] { chart.replotNow(); });
        const Cost hit = measure([&] { (void)chart.pointAt(probe); });
        if (batchCpu.empty() ||
            add.cpu + replot.cpu > *std::max_element(batchCpu.begin(), batchCpu.end()))
            worstAt = first;
        if (verbose && add.cpu + replot.cpu + hit.cpu > 10)
            std::printf(
                "  batch at point %lld: add %.1f ms, replot %.1f ms (%zu points drawn), "
                "hit test %.1f ms\n",
                static_cast<long long>(first), add.cpu, replot.cpu, chart.lastCloudDrawnPoints(),
                hit.cpu);
        batchWall.push_back(add.wall + replot.wall);
        batchCpu.push_back(add.cpu + replot.cpu);
        addCpu.push_back(add.cpu);
        replotCpu.push_back(replot.cpu);
        hitCpu.push_back(hit.cpu);
    }
    const auto w = summarise(batchWall), c = summarise(batchCpu), a = summarise(addCpu),
               r = summarise(replotCpu), h = summarise(hitCpu);
    std::printf(
        "batch %6lld x %5zu: GUI-thread CPU per batch worst %6.1f ms  p95 %6.1f  mean %6.2f "
        "(add worst %.1f mean %.2f, replot worst %.1f mean %.2f; worst at point %lld) | wall "
        "worst %.1f mean %.2f | hover hit test worst %.1f mean %.3f ms | total CPU %.0f ms\n",
        static_cast<long long>(batchSize), batchCpu.size(), c.worst, c.p95, c.mean, a.worst, a.mean,
        r.worst, r.mean, static_cast<long long>(worstAt), w.worst, w.mean, h.worst, h.mean,
        std::accumulate(batchCpu.begin(), batchCpu.end(), 0.0));
    std::fflush(stdout);
}

// The same stream through the main window: batches arrive as SearchJob::pointsReady, which the
// window hands to its design-space chart (and, before, also copied into a vector of its own).
void mainWindowRun(std::int64_t points, std::int64_t batchSize) {
    tandem::ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    window.views()->showPage(window.views()->designSpace());
    QApplication::processEvents();
    std::vector<double> batchCpu, batchWall;
    for (std::int64_t first = 0; first < points; first += batchSize) {
        auto batch = syntheticDesignBatch(first, std::min(batchSize, points - first));
        const Cost c = measure([&] {
            emit window.workspace()->searchJob()->pointsReady(std::move(batch));
            window.views()->designSpace()->replotNow();
        });
        batchCpu.push_back(c.cpu);
        batchWall.push_back(c.wall);
    }
    const auto c = summarise(batchCpu), w = summarise(batchWall);
    std::printf(
        "main window, batch %6lld x %5zu: GUI-thread CPU per batch worst %6.1f ms  p95 %6.1f  "
        "mean %6.2f | wall worst %.1f mean %.2f\n",
        static_cast<long long>(batchSize), batchCpu.size(), c.worst, c.p95, c.mean, w.worst,
        w.mean);
    std::fflush(stdout);
}

void afterStreaming(std::int64_t points) {
    DesignSpaceChart chart;
    show(chart);
    std::vector<EvaluatedPoint> all;
    all.reserve(std::size_t(points));
    for (std::int64_t first = 0; first < points; first += 7046) {
        auto batch = syntheticDesignBatch(first, std::min<std::int64_t>(7046, points - first));
        chart.addPoints(batch);
        std::move(batch.begin(), batch.end(), std::back_inserter(all));
    }
    chart.replotNow();
    const Cost recolour = measure([&] {
        chart.setColourDimension(ColourDimension::TensorCoreCount);
        chart.replotNow();
    });
    const double cloud = chart.lastCloudDrawMilliseconds();
    const Cost replot = measure([&] {
        chart.resize(1000, 640);
        QApplication::processEvents();
        chart.replotNow();
    });
    QPoint bestPixel;
    const Cost lookup = measure([&] { bestPixel = *chart.pixelOf(*chart.bestPointIndex()); });
    const Cost firstHit = measure([&] { (void)chart.pointAt(bestPixel); });
    const Cost hundredHits = measure([&] {
        for (int i = 0; i < 100; ++i) (void)chart.pointAt(QPoint(100 + i * 7, 300));
    });
    const Cost select = measure([&] {
        chart.selectPoint(*chart.bestPointIndex());
        chart.replotNow();
    });
    auto results = std::make_shared<const tandem::core::search::SearchResults>(
        std::move(all), tandem::core::search::SearchStatistics{});
    const Cost finish = measure([&] {
        chart.setResults(results);
        chart.replotNow();
    });
    std::printf(
        "%lld points, GUI-thread CPU (wall): recolour + replot %.1f (%.1f) ms [cloud draw %.1f "
        "ms], resize + full replot %.1f (%.1f) ms, first lookup by point index %.1f (%.1f) ms, "
        "first hit test %.1f (%.1f) ms, 100 hit tests %.1f (%.1f) ms, select + replot %.1f "
        "(%.1f) ms, setResults + replot %.1f (%.1f) ms\n",
        static_cast<long long>(points), recolour.cpu, recolour.wall, cloud, replot.cpu, replot.wall,
        lookup.cpu, lookup.wall, firstHit.cpu, firstHit.wall, hundredHits.cpu, hundredHits.wall,
        select.cpu, select.wall, finish.cpu, finish.wall);
}

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::int64_t points = 704640;
    std::vector<std::int64_t> batches;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--batch") && i + 1 < argc) {
            batches.push_back(std::max<std::int64_t>(1, std::atoll(argv[++i])));
        } else if (!std::strcmp(argv[i], "--points") && i + 1 < argc) {
            points = std::max<std::int64_t>(1, std::atoll(argv[++i]));
        } else if (!std::strcmp(argv[i], "--verbose")) {
            verbose = true;
        } else {
            std::fprintf(stderr,
                         "usage: bench_design_space [--batch N]... [--points N] [--verbose]\n");
            return 2;
        }
    }
    if (batches.empty()) batches = {7046, 920, 92};
    std::printf("bench_design_space: %lld points, chart 1100 x 680, offscreen\n",
                static_cast<long long>(points));
    for (auto b : batches) streamRun(points, b);
    mainWindowRun(points, batches.front());
    afterStreaming(points);
    return 0;
}
