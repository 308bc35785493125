// Precision (issue 26, item 2; docs/cost-model.md, "Precision"): fp8 as Transformer Engine runs
// it against hand-derived figures — a linear layer's GEMM at the fp8 rate on 1-byte operands
// plus the cast of its activation operand, attention's batched GEMMs unchanged, the fp8 weight
// copies in memory (+2 bytes per parameter) — and every refusal: bf16 on a chip without it, fp8
// on a chip without an fp8 rate, fp8 under phaze-compat, and a measured run in a precision its
// hardware cannot run.
#include <QtTest>

#include <cmath>
#include <string>

#include "core/estimate/gemm_cost_model.h"
#include "core/estimate/operator_estimator.h"
#include "core/hardware/parameter_registry.h"
#include "core/hardware/preset_library.h"
#include "core/placement/fixed_strategy.h"
#include "core/validation/measured_run.h"
#include "core/validation/run_request.h"
#include "tests/core/placement/small_gpt_request.h"

namespace hw = tandem::core::hardware;
namespace md = tandem::core::model;
using tandem::core::estimate::GemmCostModel;
using tandem::core::estimate::OperatorEstimator;
using namespace tandem::core::placement;
using namespace tandem::core::validation;

namespace {

hw::HardwarePoint preset(const char* name) {
    auto p = hw::PresetLibrary::preset(name);
    if (!p.ok()) qFatal("preset %s: %s", name, p.message().c_str());
    return *p;
}

md::Operator gemm(std::int64_t batch, std::int64_t m, std::int64_t n, std::int64_t k) {
    md::Operator op;
    op.name = "gemm";
    op.opClass = md::OpClass::TensorCore;
    op.gemm = {batch, m, n, k};
    return op;
}

bool contains(const std::string& text, const char* part) {
    return text.find(part) != std::string::npos;
}

// embedding, 4 layers, head as in test_fixed_strategy, parameters in bytes (2 B per parameter).
PlacementProblem smallGpt(bool fp8) {
    PlacementProblem pb;
    LayerCostSet set;
    set.tensorParallel = 1;
    set.layers.push_back({"embedding", 0.5, 1.0, 40, 2, 1, false});
    for (int i = 0; i < 4; ++i)
        set.layers.push_back({"layer." + std::to_string(i), 3.0, 6.0, 10, 8, 2, false});
    set.layers.push_back({"head", 2.0, 4.0, 40, 4, 2, false});
    for (int i = 1; i < 6; ++i) set.edges.push_back({i - 1, i, 2.0});
    pb.widths.push_back(set);
    pb.cluster.devices = 8;
    pb.training.globalBatch = 8;
    pb.hbmCapacityBytes = 1e6;
    pb.fp8WeightCopies = fp8;
    return pb;
}

}  // namespace

class TestPrecision : public QObject {
    Q_OBJECT

private slots:
    void fp8LinearGemmRunsAtTheFp8Rate() {
        // H100: 132 SMs, fp8 at twice the bf16 rate. A large square GEMM is compute-bound: fp8
        // halves its reduction steps and adds the cast of A (m × k: read 2 B, write 1 B), so the
        // time falls to a little over half; its traffic is the 1-byte traffic, the 2-byte output
        // beyond it (m·n more bytes) and the cast's 3·m·k.
        hw::AcceleratorConfig bf16 = preset("h100-80gb").accelerator;
        hw::AcceleratorConfig fp8 = bf16;
        fp8.precision = hw::Precision::Fp8;
        fp8.fp8EfficiencyRatio = 1;  // the rate alone; fp8MainLoopFollowsItsCeiling takes the rest
        const OperatorEstimator slow(bf16), fast(fp8);
        const md::Operator op = gemm(1, 8192, 8192, 8192);
        const auto a = slow.estimate(op), b = fast.estimate(op);
        const double ratio = a.allCoresSeconds / b.allCoresSeconds;
        qInfo("8192^3 GEMM on H100: bf16 %.3f ms, fp8 %.3f ms (%.2fx)", a.allCoresSeconds * 1e3,
              b.allCoresSeconds * 1e3, ratio);
        QVERIFY(ratio > 1.7 && ratio < 2.0);
        const double m = 8192, n = 8192, k = 8192;
        const double oneByte = GemmCostModel::traffic(op.gemm, fp8.globalBufferBytes, 1).bytes;
        QCOMPARE(b.bytes, oneByte + m * n + 3 * m * k);
        QCOMPARE(a.bytes, GemmCostModel::traffic(op.gemm, bf16.globalBufferBytes, 2).bytes);
        QCOMPARE(a.flops, b.flops);  // the work is the same; MFU stays against the bf16 peak
        QCOMPARE(fast.accelerator().peakFlopsPerSecond(), slow.accelerator().peakFlopsPerSecond());
    }

    void fp8MainLoopFollowsItsCeiling() {
        // fp8EfficiencyRatio scales the main loop of fp8 GEMMs only: a compute-bound GEMM's
        // time beyond the per-kernel floor and the activation cast grows by 1 / ratio, a bf16
        // GEMM's does not move. The H100 preset's ratio is its measured fp8 ceiling over its
        // bf16 one (maximum achievable matmul FLOPS, H100 SXM: 70.9 % and 80.3 % of peak).
        hw::AcceleratorConfig chip = preset("h100-80gb").accelerator;
        QVERIFY(std::fabs(chip.fp8EfficiencyRatio - 70.9 / 80.3) < 5e-4);
        chip.precision = hw::Precision::Fp8;
        hw::AcceleratorConfig full = chip;
        full.fp8EfficiencyRatio = 1;
        const md::Operator op = gemm(1, 8192, 8192, 8192);
        const double cast =
            3.0 * 8192 * 8192 / chip.achievableHbmBandwidth() + chip.operatorOverheadSeconds;
        const auto loop = [&](const hw::AcceleratorConfig& a) {
            return OperatorEstimator(a).estimate(op).allCoresSeconds - a.operatorOverheadSeconds -
                   cast;
        };
        QVERIFY(std::fabs(loop(chip) * chip.fp8EfficiencyRatio - loop(full)) < 1e-9 * loop(full));
        hw::AcceleratorConfig bf16 = chip, bf16Full = full;
        bf16.precision = bf16Full.precision = hw::Precision::Bf16;
        QCOMPARE(OperatorEstimator(bf16).estimate(op).allCoresSeconds,
                 OperatorEstimator(bf16Full).estimate(op).allCoresSeconds);
        // Attention's batched GEMMs stay bf16, so the ratio does not reach them either.
        const md::Operator scores = gemm(96, 2048, 2048, 128);
        QCOMPARE(OperatorEstimator(chip).estimate(scores).allCoresSeconds,
                 OperatorEstimator(full).estimate(scores).allCoresSeconds);
        // Out of (0, 1] it is refused, naming the field.
        hw::AcceleratorConfig bad = chip;
        bad.fp8EfficiencyRatio = 1.5;
        const auto refused = hw::acceleratorParameters().validate(bad);
        QVERIFY(!refused.ok());
        QVERIFY2(contains(refused.message(), "fp8EfficiencyRatio"), refused.message().c_str());
        // Rates that 0 switches off: a positive one so small that the work it prices overflows
        // is refused (it once cast an infinite reduction to an integer), naming the field.
        for (const char* field : {"fp8MacRatio", "specialFunctionOpsPerCycle"}) {
            hw::AcceleratorConfig tiny = chip;
            hw::acceleratorParameters().find(field)->set(tiny, 1e-300);
            const auto no = hw::acceleratorParameters().validate(tiny);
            QVERIFY2(!no.ok() && contains(no.message(), field), field);
            QVERIFY2(contains(no.message(), "0 (no "), no.message().c_str());
            hw::acceleratorParameters().find(field)->set(tiny, 0.001);
            QVERIFY2(hw::acceleratorParameters().validate(tiny).ok(), field);
        }
    }

    void attentionGemmsStayBf16() {
        // Transformer Engine's default recipe: the batched GEMMs of attention are bf16.
        hw::AcceleratorConfig bf16 = preset("h100-80gb").accelerator;
        hw::AcceleratorConfig fp8 = bf16;
        fp8.precision = hw::Precision::Fp8;
        const md::Operator scores = gemm(96, 2048, 2048, 128);
        QCOMPARE(OperatorEstimator(fp8).estimate(scores).allCoresSeconds,
                 OperatorEstimator(bf16).estimate(scores).allCoresSeconds);
        QCOMPARE(OperatorEstimator(fp8).estimate(scores).bytes,
                 OperatorEstimator(bf16).estimate(scores).bytes);
    }

    void fp16AndBf16PriceAlike() {
        hw::AcceleratorConfig bf16 = preset("a100-80gb").accelerator;
        hw::AcceleratorConfig fp16 = bf16;
        fp16.precision = hw::Precision::Fp16;
        for (const md::Operator& op : {gemm(1, 4096, 4096, 1024), gemm(32, 512, 512, 64)})
            QCOMPARE(OperatorEstimator(fp16).estimate(op).allCoresSeconds,
                     OperatorEstimator(bf16).estimate(op).allCoresSeconds);
    }

    void fp8KeepsWeightCopies() {
        // 2-byte weights: the fp8 copy and its transpose add 2 bytes per parameter, as much as
        // the weights themselves; gradients and optimizer state do not change.
        FixedStrategy fixed;
        fixed.transformerLayers = 4;
        const auto plain = evaluateFixedStrategy(smallGpt(false), fixed, CostModelKind::Native);
        const auto fp8 = evaluateFixedStrategy(smallGpt(true), fixed, CostModelKind::Native);
        QVERIFY(plain.ok() && fp8.ok());
        QVERIFY(plain->plan && fp8->plan);
        const MemoryBreakdown& a = plain->plan->stages[0].memory;
        const MemoryBreakdown& b = fp8->plan->stages[0].memory;
        QCOMPARE(a.weightsBytes, 40.0 + 4 * 10.0 + 40.0);
        QCOMPARE(b.weightsBytes, 2 * a.weightsBytes);
        QCOMPARE(b.gradientsBytes, a.gradientsBytes);
        QCOMPARE(b.optimizerBytes, a.optimizerBytes);
        QCOMPARE(b.totalBytes, a.totalBytes + a.weightsBytes);
    }

    // The precision decides the gradients' format end to end: bf16 (a100-like's usual one) and
    // fp8 hold Megatron's fp32 gradient buffer, 2 + 4 + 12/d bytes per parameter with the
    // distributed optimizer; fp16, or bf16 with --grad-reduce-in-bf16, 2 + 2 + 12/d.
    void gradientFormatFollowsThePrecision() {
        const auto perParameter = [](hw::Precision precision, bool reduceInBf16) {
            ModelPlacementRequest r = tandem::test::smallGptRequest();
            r.hardware.accelerator.precision = precision;
            r.training.gradReduceInBf16 = reduceInBf16;
            r.training.zero = 1;
            r.training.strategyPipeline = 1;
            r.training.strategyTensor = 1;
            r.training.strategyData = 8;
            const auto placed = placeModel(r);
            if (!placed.ok() || !placed->result.plan) qFatal("small GPT does not place");
            const StagePlan& stage = placed->result.plan->stages[0];
            const MemoryBreakdown& m = stage.memory;
            const double parameters = stage.parameterBytes / 2;
            return (m.gradientsBytes + m.optimizerBytes) / parameters;
        };
        QCOMPARE(perParameter(hw::Precision::Bf16, false), 4.0 + 12.0 / 8);
        QCOMPARE(perParameter(hw::Precision::Fp8, false), 4.0 + 12.0 / 8);
        QCOMPARE(perParameter(hw::Precision::Bf16, true), 2.0 + 12.0 / 8);
        QCOMPARE(perParameter(hw::Precision::Fp16, false), 2.0 + 12.0 / 8);
        QCOMPARE(perParameter(hw::Precision::Fp16, true), 2.0 + 12.0 / 8);
        // A measured run's grad_reduce_in_bf16 column reaches the training it is priced with.
        MeasuredRun run = tandem::test::smallGptRun();
        for (bool reduceInBf16 : {false, true}) {
            run.gradReduceInBf16 = reduceInBf16;
            const auto r = runRequest(run, 1, preset("a100-like"));
            QVERIFY(r.ok());
            QCOMPARE(r->training.gradReduceInBf16, reduceInBf16);
        }
    }

    void registryRefusesWhatTheChipCannotRun() {
        const auto& registry = hw::acceleratorParameters();
        hw::AcceleratorConfig v100 = preset("v100-32gb").accelerator;
        QVERIFY(v100.precision == hw::Precision::Fp16);
        QVERIFY(registry.validate(v100).ok());
        v100.precision = hw::Precision::Bf16;
        const auto noBf16 = registry.validate(v100);
        QVERIFY(!noBf16.ok());
        QVERIFY2(contains(noBf16.message(), "bf16Supported = no"), noBf16.message().c_str());
        hw::AcceleratorConfig a100 = preset("a100-80gb").accelerator;
        a100.precision = hw::Precision::Fp8;
        const auto noFp8 = registry.validate(a100);
        QVERIFY(!noFp8.ok());
        QVERIFY2(contains(noFp8.message(), "fp8MacRatio = 0"), noFp8.message().c_str());
        for (const char* name : {"h100-80gb", "h200-141gb", "b200-192gb", "mi300x-192gb"}) {
            hw::AcceleratorConfig chip = preset(name).accelerator;
            chip.precision = hw::Precision::Fp8;
            QVERIFY2(registry.validate(chip).ok(), name);
        }
    }

    void phazeCompatRefusesFp8() {
        QVERIFY(supportsPrecision(CostModelKind::Native, hw::Precision::Fp8).ok());
        QVERIFY(supportsPrecision(CostModelKind::PhazeCompat, hw::Precision::Bf16).ok());
        MeasuredRun run;
        run.model = {1024, 16, 4, 1024, 50257, 128};
        run.gpus = run.data = 2;
        run.globalBatch = 8;
        run.measuredSeconds = 1;
        run.precision = hw::Precision::Fp8;
        auto request = runRequest(run, 1, preset("h100-80gb"));
        QVERIFY2(request.ok(), request.ok() ? "" : request.message().c_str());
        QVERIFY(evaluateStrategy(*request, runStrategy(run)).ok());
        request->costModel = CostModelKind::PhazeCompat;
        const auto refused = evaluateStrategy(*request, runStrategy(run));
        QVERIFY(!refused.ok());
        QVERIFY2(contains(refused.message(), "no fp8"), refused.message().c_str());
        const auto placed = placeModel(*request);
        QVERIFY(!placed.ok());
        QVERIFY2(contains(placed.message(), "no fp8"), placed.message().c_str());
    }

    void measuredRunsNameTheirFormat() {
        std::int64_t bytes = 0;
        std::optional<hw::Precision> format;
        QVERIFY(parsePrecision("FP8", bytes, format));
        QCOMPARE(bytes, std::int64_t(2));  // bf16 outside the GEMMs
        QVERIFY(format == hw::Precision::Fp8);
        QVERIFY(parsePrecision("bf16", bytes, format));
        QVERIFY(format == hw::Precision::Bf16);
        QVERIFY(parsePrecision("fp32", bytes, format));
        QCOMPARE(bytes, std::int64_t(4));
        QVERIFY(!format);
        QVERIFY(!parsePrecision("fp12", bytes, format));
        MeasuredRun run;
        run.precision = hw::Precision::Bf16;
        QVERIFY(runHardware(preset("v100-32gb"), run).accelerator.precision == hw::Precision::Bf16);
        QVERIFY(!hw::acceleratorParameters()
                     .validate(runHardware(preset("v100-32gb"), run).accelerator)
                     .ok());
        run.precision.reset();
        QVERIFY(runHardware(preset("h100-80gb"), run).accelerator.precision ==
                hw::Precision::Bf16);  // the hardware's own
    }
};

QTEST_APPLESS_MAIN(TestPrecision)
#include "test_precision.moc"
