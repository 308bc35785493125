// The built-in presets: the cluster presets match their sources, every chip preset holds the
// published (datasheet) numbers, the list and lookup by name and alias, and the preset files
// are exactly what the writer produces.
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/hardware/area_model.h"
#include "core/hardware/cluster_presets.h"
#include "core/hardware/hardware_json.h"
#include "core/hardware/preset_library.h"
#include "test_paths.h"
#include "test_presets.h"
#include "text_checks.h"

using namespace tandem::core::hardware;
namespace fs = std::filesystem;

namespace {

using tandem::test::contains;
using tandem::test::presetOrDie;
using tandem::test::readAll;

}  // namespace

class TestPresets : public QObject {
    Q_OBJECT

private slots:
    // The cluster presets: PHAZE's flat link is ClusterConfig's defaults (and tpuv4-like's);
    // dgx-a100 is the a100-like preset's cluster, with Selene's published link rates.
    void clusterPresetsMatchTheirSources() {
        const auto* flat = tandem::core::hardware::findClusterPreset("phaze-flat");
        const auto* dgx = tandem::core::hardware::findClusterPreset("dgx-a100");
        QVERIFY(flat && dgx);
        QVERIFY(flat->cluster == tandem::core::hardware::ClusterConfig{});
        QCOMPARE(flat->cluster.interNodeBandwidthBytesPerSecond, 4.0 * 1024 * 1024 * 1024);
        QVERIFY(PresetLibrary::preset("tpuv4-like")->cluster == flat->cluster);
        QVERIFY(PresetLibrary::preset("a100-like")->cluster == dgx->cluster);
        QCOMPARE(dgx->cluster.interNodeBandwidthBytesPerSecond, 8 * 200e9 / 8 / 8);
        QCOMPARE(tandem::core::hardware::matchClusterPreset(dgx->cluster), dgx);
        auto edited = dgx->cluster;
        edited.devices = 512;
        QVERIFY(!tandem::core::hardware::matchClusterPreset(edited));
        QVERIFY(!tandem::core::hardware::findClusterPreset("nope"));
        QCOMPARE(tandem::core::hardware::clusterPresets().size(), std::size_t(2));
    }
    void presetsHoldThePublishedNumbers() {
        const auto tpu = PresetLibrary::preset("tpuv4-like");
        QVERIFY2(tpu.ok(), tpu.ok() ? "" : tpu.message().c_str());
        const AcceleratorConfig& t = tpu->accelerator;
        QCOMPARE(t, AcceleratorConfig{});  // the struct defaults are the reference chip
        QCOMPARE(t.numTensorCores, std::int64_t(8));
        QCOMPARE(t.tensorCoreRows * t.tensorCoreCols, std::int64_t(128 * 128));
        QCOMPARE(t.numVectorCores * t.vectorCoreLanes, std::int64_t(2 * 128));
        QCOMPARE(t.globalBufferBytes, std::int64_t(128) << 20);
        QCOMPARE(t.hbmCapacityBytes, std::int64_t(32) << 30);
        QCOMPARE(t.hbmBandwidthBytesPerSecond, 1.2e12);
        QCOMPARE(t.clockHz, 1.05e9);
        QCOMPARE(t.bytesPerElement, std::int64_t(2));
        QCOMPARE(t.peakFlopsPerSecond(), 2.752512e14);  // "275 TFLOP/s"
        QCOMPARE(tpu->cluster.devices, std::int64_t(1024));
        QCOMPARE(tpu->cluster.intraNodeBandwidthBytesPerSecond, 4.0 * 1073741824.0);
        QCOMPARE(tpu->cluster.interNodeBandwidthBytesPerSecond, 4.0 * 1073741824.0);
        QCOMPARE(tpu->cluster.hopLatencySeconds, 0.0);
        QCOMPARE(*AreaModel().areaSquareMillimetres(t), 278.826676);
        // Priced as a real chip (docs/cost-model.md); PHAZE's ideal one is t.ideal().
        QCOMPARE(t.tensorCoreEfficiency, 0.85);
        QCOMPARE(t.hbmEfficiency, 0.85);
        QCOMPARE(t.tensorCoreDrainCyclesPerRow, 1.0);
        QCOMPARE(t.operatorOverheadSeconds, 1e-6);
        QCOMPARE(t.hostOverheadSeconds, 0.0);  // a compiled step
        QCOMPARE(t.ideal().tensorCoreEfficiency, 1.0);
        QCOMPARE(t.ideal().tensorCoreDrainCyclesPerRow, 0.0);
        QCOMPARE(t.ideal().operatorOverheadSeconds, 0.0);

        const auto gpu = PresetLibrary::preset("a100-like");
        QVERIFY2(gpu.ok(), gpu.ok() ? "" : gpu.message().c_str());
        const AcceleratorConfig& a = gpu->accelerator;
        QCOMPARE(a.numTensorCores, std::int64_t(108));
        QCOMPARE(a.tensorCoreRows, std::int64_t(32));
        QCOMPARE(a.tensorCoreCols, std::int64_t(32));
        QCOMPARE(a.numVectorCores, std::int64_t(108));
        QCOMPARE(a.vectorCoreLanes, std::int64_t(64));
        QCOMPARE(a.globalBufferBytes, std::int64_t(40) << 20);
        QCOMPARE(a.hbmCapacityBytes, std::int64_t(80) << 30);
        QCOMPARE(a.hbmBandwidthBytesPerSecond, 2.039e12);
        QCOMPARE(a.clockHz, 1.41e9);
        QVERIFY(std::fabs(a.peakFlopsPerSecond() - 312e12) < 0.01 * 312e12);
        QCOMPARE(gpu->cluster.devices, std::int64_t(1024));
        QCOMPARE(gpu->cluster.devicesPerNode, std::int64_t(8));
        QCOMPARE(gpu->cluster.intraNodeBandwidthBytesPerSecond, 300e9);
        QCOMPARE(gpu->cluster.interNodeBandwidthBytesPerSecond, 25e9);
        QVERIFY(gpu->cluster.hopLatencySeconds > 0);
        QCOMPARE(gpu->cluster.collectiveLatencySeconds, 8e-6);  // NCCL's start-up
        QCOMPARE(a.tensorCoreTileFolds, std::int64_t(4));       // 128×128 thread-block tiles
        QCOMPARE(a.tensorCoreTileOverheadCycles, 500.0);
        QCOMPARE(a.hostOverheadSeconds, 55e-6);  // PyTorch's eager dispatch
        QCOMPARE(a.ideal().hostOverheadSeconds, 0.0);
        QCOMPARE(a.ideal().tensorCoreTileFolds, std::int64_t(1));
        const auto gpuArea = AreaModel().areaSquareMillimetres(a);
        QVERIFY2(gpuArea.ok(), gpuArea.ok() ? "" : gpuArea.message().c_str());
        QVERIFY(*gpuArea > 100 && *gpuArea < 278.826676);
    }

    void presetListAndLookup() {
        const auto list = PresetLibrary::list();
        std::vector<std::string> names;
        for (const auto& info : list) {
            names.push_back(info.name);
            QVERIFY(!info.description.empty());
        }
        const std::vector<std::string> expected{"a100-40gb",    "a100-80gb",  "a100-like",
                                                "b200-192gb",   "h100-80gb",  "h200-141gb",
                                                "mi300x-192gb", "tpuv4-like", "v100-32gb"};
        QCOMPARE(names, expected);
        QCOMPARE(PresetLibrary::nameList(),
                 std::string("a100-40gb, a100-80gb, a100-like, b200-192gb, h100-80gb, "
                             "h200-141gb, mi300x-192gb, tpuv4-like, v100-32gb"));
        const auto unknown = PresetLibrary::preset("tpuv5");
        QVERIFY(!unknown.ok());
        VERIFY_CONTAINS(unknown.message(), "unknown hardware preset 'tpuv5'");
        VERIFY_CONTAINS(unknown.message(), "a100-like, b200-192gb");
        // a100-like is a100-80gb under its earlier name: the same numbers, named as asked.
        HardwarePoint alias = presetOrDie("a100-like");
        const HardwarePoint target = presetOrDie("a100-80gb");
        QCOMPARE(alias.name, std::string("a100-like"));
        QVERIFY(alias.description.find("a100-80gb") != std::string::npos);
        QCOMPARE(*PresetLibrary::resolveHardware("a100-like"), alias);
        alias.name = target.name;
        alias.description = target.description;
        QCOMPARE(alias, target);
    }

    // Today's GPUs (docs/cost-model.md, "Today's GPUs"): the template's peak, memory and node
    // against each datasheet's figures, typed here independently of the preset files.
    void todaysGpusHoldTheirDatasheets() {
        struct Sheet {
            const char* name;
            double peak;  // dense fp16/bf16 FLOP/s
            double hbmBytes, hbmRate, intra, inter;
            double mamf;  // measured best bf16 GEMM over the peak (0: not measured)
        };
        const double GiB = 1073741824.0;
        const Sheet sheets[] = {
            {"v100-32gb", 125e12, 32 * GiB, 900e9, 150e9, 6.25e9, 0},
            {"a100-40gb", 312e12, 40 * GiB, 1555e9, 300e9, 25e9, 267.9 / 312},
            {"a100-80gb", 312e12, 80 * GiB, 2039e9, 300e9, 25e9, 267.9 / 312},
            {"h100-80gb", 989.4e12, 80 * GiB, 3.35e12, 450e9, 50e9, 792.1 / 989},
            {"h200-141gb", 989.4e12, 141e9, 4.8e12, 450e9, 50e9, 792.1 / 989},
            {"b200-192gb", 2.25e15, 192e9, 8e12, 900e9, 50e9, 0},
            {"mi300x-192gb", 1307.4e12, 192e9, 5.3e12, 448e9, 50e9, 781.9 / 1300},
        };
        const double a100Mamf = 267.9 / 312;  // the maximum achievable matmul table's A100 SXM
        const HardwarePoint a100 = presetOrDie("a100-80gb");
        for (const Sheet& sheet : sheets) {
            const HardwarePoint p = presetOrDie(sheet.name);
            const AcceleratorConfig& a = p.accelerator;
            QVERIFY2(std::fabs(a.peakFlopsPerSecond() - sheet.peak) < 0.005 * sheet.peak,
                     sheet.name);
            QCOMPARE(double(a.hbmCapacityBytes), sheet.hbmBytes);
            QCOMPARE(a.hbmBandwidthBytesPerSecond, sheet.hbmRate);
            QCOMPARE(p.cluster.devicesPerNode, std::int64_t(8));
            QCOMPARE(p.cluster.intraNodeBandwidthBytesPerSecond, sheet.intra);
            QCOMPARE(p.cluster.interNodeBandwidthBytesPerSecond, sheet.inter);
            // The A100's mechanisms with the A100's values, nothing fitted per chip; the GEMM
            // main loop scaled by the chip's measured best GEMM over the A100's (Bekman's
            // maximum achievable matmul table), the A100's own where the table has no row.
            const double mainLoop = a100.accelerator.tensorCoreEfficiency *
                                    (sheet.mamf > 0 ? sheet.mamf / a100Mamf : 1.0);
            QVERIFY2(std::fabs(a.tensorCoreEfficiency - mainLoop) < 1e-3, sheet.name);
            QCOMPARE(a.hbmEfficiency, a100.accelerator.hbmEfficiency);
            QCOMPARE(a.tensorCoreTileOverheadCycles, a100.accelerator.tensorCoreTileOverheadCycles);
            QCOMPARE(a.operatorOverheadSeconds, a100.accelerator.operatorOverheadSeconds);
            QCOMPARE(a.hostOverheadSeconds, a100.accelerator.hostOverheadSeconds);
            QCOMPARE(p.cluster.collectiveEfficiency, a100.cluster.collectiveEfficiency);
            QCOMPARE(p.cluster.collectiveLatencySeconds, a100.cluster.collectiveLatencySeconds);
            QCOMPARE(p.cluster.hopLatencySeconds, a100.cluster.hopLatencySeconds);
            QVERIFY2(p.description.find("datasheet") != std::string::npos, sheet.name);
            // fp8 GEMMs keep the chip's measured fp8 ceiling over its bf16 one (the same table's
            // v2 rows: H100 SXM 1,402.6 of 1,979 and 794.5 of 989), 1 where none is measured.
            const bool hopper = std::string(sheet.name).rfind("h", 0) == 0;
            const double fp8Ratio = hopper ? (1402.6 / 1979) / (794.5 / 989) : 1.0;
            QVERIFY2(std::fabs(a.fp8EfficiencyRatio - fp8Ratio) < 1e-3, sheet.name);
            if (a.fp8MacRatio > 0)  // one TDP at the fp8 share sustained
                QVERIFY2(std::fabs(a.fp8MacEnergyFraction - 0.5 / a.fp8EfficiencyRatio) < 1e-3,
                         sheet.name);
            // An overlapped collective takes 16 SMs (or CUs): NCCL's channels, TE's default.
            QVERIFY2(std::fabs(a.collectiveComputeShare - 16.0 / double(a.numTensorCores)) < 1e-4,
                     sheet.name);
            // FlashAttention's exponentials wait on 16 special-function results per SM (or CU)
            // and cycle between the GEMMs; B200's kernels run them beside the GEMMs (0).
            const bool blackwell = std::string(sheet.name).rfind("b200", 0) == 0;
            QCOMPARE(a.specialFunctionOpsPerCycle, blackwell ? 0.0 : 16.0);
        }
    }

    void presetFilesAreCanonical() {
        // The resource files are exactly what toHardwareJson writes, so save → load → save is
        // stable and users can diff their copies against them.
        for (const char* name : {"tpuv4-like", "v100-32gb", "a100-40gb", "a100-80gb", "h100-80gb",
                                 "h200-141gb", "b200-192gb", "mi300x-192gb"}) {
            const fs::path file = fs::path(tandem::test::sourceDir()) / "resources" / "hardware" /
                                  (std::string(name) + ".json");
            const auto fromFile = loadHardwareFile(file);
            QVERIFY2(fromFile.ok(), fromFile.ok() ? "" : fromFile.message().c_str());
            QCOMPARE(*fromFile, presetOrDie(name));
            QCOMPARE(toHardwareJson(*fromFile), readAll(file));
        }
    }
};

QTEST_GUILESS_MAIN(TestPresets)
#include "test_presets.moc"
