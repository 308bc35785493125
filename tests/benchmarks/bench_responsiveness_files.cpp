// bench_responsiveness, section 6 (files and models; see bench_responsiveness.cpp's header).
#include <QApplication>
#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "core/importers/model_loader.h"
#include "core/io/search_results_json.h"
#include "tests/benchmarks/bench_responsiveness_support.h"
#include "tests/core/importers/onnx_test_support.h"
#include "tests/ui/design_space/synthetic_design_points.h"
#include "tests/ui/jobs/jobs_test_support.h"
#include "ui/jobs/model_load_job.h"
#include "ui/jobs/point_evaluation_job.h"
#include "ui/jobs/project_file_job.h"
#include "ui/jobs/results_file_job.h"
#include "ui/main_window.h"
#include "ui/panels/setup_panel.h"
#include "ui/workspace.h"

using namespace jobs_test;

namespace responsiveness {
namespace {

// An MLP of `layers` MatMul + Add + Relu blocks of width `width`, every weight written as real
// (zero) bytes: ~width² × 4 × layers bytes on disk.
void writeOnnxModel(const std::string& path, int layers, std::int64_t width) {
    namespace pb = onnx_test;
    std::string nodes, inits;
    const std::string weightBytes(std::size_t(width * width * 4), '\0');
    const std::string biasBytes(std::size_t(width * 4), '\0');
    std::string x = "x";
    for (int l = 0; l < layers; ++l) {
        const std::string n = std::to_string(l);
        nodes += pb::bytes(1, pb::node({x, "W" + n}, {"m" + n}, "/l" + n + "/MatMul", "MatMul"));
        nodes += pb::bytes(1, pb::node({"m" + n, "b" + n}, {"a" + n}, "/l" + n + "/Add", "Add"));
        x = l + 1 == layers ? std::string("y") : "r" + n;
        nodes += pb::bytes(1, pb::node({"a" + n}, {x}, "/l" + n + "/Relu", "Relu"));
        inits += pb::bytes(5, pb::integer(1, std::uint64_t(width)) +
                                  pb::integer(1, std::uint64_t(width)) + pb::integer(2, 1) +
                                  pb::bytes(8, "W" + n) + pb::bytes(9, weightBytes));
        inits += pb::bytes(5, pb::integer(1, std::uint64_t(width)) + pb::integer(2, 1) +
                                  pb::bytes(8, "b" + n) + pb::bytes(9, biasBytes));
    }
    const std::string graph =
        nodes + pb::bytes(2, "mlp") + inits +
        pb::bytes(11, pb::valueInfo("x", pb::kFloat, {{0, "batch"}, {width, ""}})) +
        pb::bytes(12, pb::valueInfo("y", pb::kFloat, {{0, "batch"}, {width, ""}}));
    std::ofstream out(path, std::ios::binary);
    out << pb::model(graph);
}

// `points` synthetic design points (bench_design_space's) as a results file.
void writeResultsFile(const std::string& path, std::int64_t points) {
    search::SearchStatistics statistics;
    statistics.explorer = "exhaustive";
    statistics.pointsInSpace = points;
    statistics.evaluated = points;
    tandem::core::io::SearchReport report;
    report.results = std::make_shared<const search::SearchResults>(
        tandem::test::syntheticDesignBatch(0, points), statistics);
    report.baseHardware = tpuv4();
    // A model no set-up can load: the window keeps the model it loads meanwhile.
    report.models.push_back({"synthetic-mlp", {}, {}, {}});
    if (auto saved = tandem::core::io::saveSearchReportJson(path, report); !saved)
        qFatal("%s", saved.message().c_str());
}

double megabytes(const std::string& path) {
    return double(std::filesystem::file_size(path)) / 1e6;
}

}  // namespace

void filesAndModels(int repeat) {
    QTemporaryDir dir;
    const std::string onnx = dir.filePath("mlp.onnx").toStdString();
    const std::string results = dir.filePath("results.json").toStdString();
    writeOnnxModel(onnx, 1600, 128);
    writeResultsFile(results, 850000);
    std::printf("  model %s: %.0f MB; results file: %.0f MB\n", onnx.c_str(), megabytes(onnx),
                megabytes(results));
    std::vector<double> before, floor, loading, adopt, shown, freed, idle;
    for (int r = 0; r < repeat; ++r) {
        const auto start = Clock::now();
        if (!tandem::core::importers::loadModel(onnx)) qFatal("the ONNX model does not load");
        before.push_back(msSince(start));
    }
    const QString model = QString::fromStdString(onnx);
    for (int r = 0; r < repeat; ++r) {
        tandem::ui::MainWindow window;
        showWithTheDefaultPoint(window);
        tandem::ui::SetupPanel* setup = window.setup();
        bool modelDone = false, resultsDone = false, saveDone = false;
        QObject::connect(setup, &tandem::ui::SetupPanel::loadEnded, &window,
                         [&](quint64, bool adopted) { modelDone = adopted; });
        QObject::connect(window.workspace()->filesJob(), &tandem::ui::ResultsFileJob::busyChanged,
                         &window, [&](bool busy) { resultsDone = resultsDone || !busy; });
        QObject::connect(window.workspace()->projectFiles(), &tandem::ui::ProjectFileJob::saved,
                         &window, [&] { saveDone = true; });
        {  // the floor: the same window doing nothing for 3 s
            GapProbe probe;
            QTest::qWait(3000);
            floor.push_back(probe.worstMs());
        }
        // The new model's point is not evaluated meanwhile: redrawing the views for 1,600
        // layers is the views' cost (bench_views), not a load's.
        window.workspace()->pointJob()->setDebounceMs(3600 * 1000);
        double worstLoading = 0;
        {
            GapProbe probe;
            // The gaps until the results file is read, then from the moment its points are
            // shown (a second probe started after the window's own slot) until all are done.
            std::unique_ptr<GapProbe> afterShown;
            QObject::connect(window.workspace()->filesJob(),
                             &tandem::ui::ResultsFileJob::busyChanged, &window, [&](bool busy) {
                                 if (!busy) worstLoading = probe.worstMs();
                             });
            QObject::connect(window.workspace()->filesJob(), &tandem::ui::ResultsFileJob::loaded,
                             &window, [&] { afterShown = std::make_unique<GapProbe>(); });
            // The model's answer: busyChanged(false) just before it, loaded after the set-up
            // adopted it (the chooser's slot comes first).
            Clock::time_point answered;
            QObject::connect(setup->modelLoadJob(), &tandem::ui::ModelLoadJob::busyChanged, &window,
                             [&](bool busy) {
                                 if (!busy) answered = Clock::now();
                             });
            QObject::connect(setup->modelLoadJob(), &tandem::ui::ModelLoadJob::loaded, &window,
                             [&] { adopt.push_back(msSince(answered)); });
            setup->pickModel(model);
            window.workspace()->openResults(QString::fromStdString(results));
            window.workspace()->saveProjectInBackground(dir.filePath("p.tandem"));
            if (!waitFor([&] { return modelDone && resultsDone && saveDone; }, 600000))
                qFatal("model, results or save did not finish");
            if (!waitFor([&] { return window.workspace()->report() != nullptr; }, 600000))
                qFatal("the results were not shown");
            QTest::qWait(100);
            loading.push_back(std::max(worstLoading, afterShown ? afterShown->worstMs() : 0.0));
            shown.push_back(probe.worstMs());
        }
        // Cancel halfway through the import.
        setup->setModel("bert-large");
        setup->pickModel(model);
        QTest::qWait(int(before[before.size() / 2] / 2));
        bool turned = false;
        const auto cancelledAt = Clock::now();
        setup->cancelLoading();
        QTimer::singleShot(0, &window, [&] { turned = true; });
        if (!waitFor([&] { return turned; })) qFatal("no event-loop turn");
        freed.push_back(msSince(cancelledAt));
        if (!waitFor([&] { return !setup->modelLoadJob()->busy(); })) qFatal("import never ended");
        idle.push_back(msSince(cancelledAt));
        if (setup->modelReference() != "bert-large") qFatal("cancel did not keep the model");
    }
    report("before: loadModel of the 100 MB ONNX file on the GUI thread", before, "–");
    report("MainWindow: worst gap of the idle window over 3 s (the floor)", floor, "–");
    report("MainWindow: worst gap, ONNX load + results read + project save", loading, "≤ 50 ms");
    report("MainWindow: of which adopting the loaded model (GUI thread)", adopt, "–");
    report("MainWindow: the same, with the 850,000 points then shown", shown, "–");
    report("MainWindow: model load cancelled halfway -> the GUI's next turn", freed, "≤ 50 ms");
    report("MainWindow: model load cancelled halfway -> its thread idle", idle, "–");
}

}  // namespace responsiveness
