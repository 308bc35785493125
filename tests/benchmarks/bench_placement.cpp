// Placement benchmark: the exact solver against the textbook DP with the full device dimension
// (tests/core/placement/oracle/reference_dp.h), measured in the same run, on a GPT-3-175B-like
// chain (embedding, 96 transformer layers, head = 98 nodes) over 1,024 devices with
// t ∈ {1, 2, 4, 8}, recompute off and on, under both cost models. Prints each instance's fast
// time (median of repeats), reference time, their ratio and whether the optima agree bit for
// bit. Per-layer costs come from simple formulas (FLOPs at the 275 TFLOP/s peak of the TPUv4-like
// chip, Megatron tensor-parallel all-reduces, Korthikanti et al.'s activation sizes) until the
// real pipeline feeds problems; `--instance FILE` runs a PHAZE instance file instead.
//
// Usage: bench_placement [--repeat N] [--no-reference] [--instance FILE]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/hardware/preset_library.h"
#include "core/model/model_zoo.h"
#include "core/placement/model_placement.h"
#include "core/placement/phaze_instance.h"
#include "core/placement/placement_solver.h"
#include "oracle/reference_dp.h"

using namespace tandem::core::placement;
using Clock = std::chrono::steady_clock;
using tandem::core::Error;
using tandem::core::Expected;

namespace {

constexpr double kPeakFlops = 275e12;  // 8 TC of 128×128 MACs at 1.05 GHz
constexpr double kHbmBytesPerSecond = 1.2e12;
constexpr double kIntraNode = 300e9, kInterNode = 25e9;

double allReduceSeconds(double bytes, std::int64_t t) {
    return t <= 1 ? 0.0 : 2.0 * double(t - 1) / double(t) * bytes / kIntraNode;
}

// GPT-3 175B at microbatch 1: h = 12288, a = 96 heads, s = 2048, V = 51200, fp16.
LayerCostSet gpt3Width(std::int64_t t, int layers) {
    const double h = 12288, s = 2048, a = 96, V = 51200, bpe = 2, td = double(t);
    const double hidden = s * h * bpe;  // one activation tensor of the residual stream
    LayerCostSet set;
    set.tensorParallel = t;
    const bool tp = t > 1;
    const double embedFw = 2 * hidden / kHbmBytesPerSecond;
    set.layers.push_back({"embedding", embedFw, 2 * embedFw, V * h * bpe / td, hidden, s * 4, tp});
    const double flops = 24 * s * h * h + 4 * s * s * h;
    const double fw = flops / td / kPeakFlops + 2 * allReduceSeconds(hidden, t);
    const double bw = 2 * flops / td / kPeakFlops + 2 * allReduceSeconds(hidden, t);
    const double params = (12 * h * h + 13 * h) * bpe / td;
    const double activations = s * h * (10 + 24 / td + 5 * a * s / (h * td));
    for (int i = 0; i < layers; ++i)
        set.layers.push_back({std::string("layer.").append(std::to_string(i)), fw, bw, params,
                              activations, hidden, tp});
    const double headFlops = 2 * s * h * V / td;
    set.layers.push_back({"head", headFlops / kPeakFlops + allReduceSeconds(s * 4, t),
                          2 * headFlops / kPeakFlops, V * h * bpe / td, s * V * (bpe + 4) / td,
                          hidden, tp});
    for (int i = 1; i < layers + 2; ++i) set.edges.push_back({i - 1, i, hidden});
    return set;
}

PlacementProblem gpt3(tandem::core::hardware::Recompute recompute) {
    PlacementProblem pb;
    for (std::int64_t t : {1, 2, 4, 8}) pb.widths.push_back(gpt3Width(t, 96));
    pb.cluster.devices = 1024;
    pb.cluster.devicesPerNode = 8;
    pb.cluster.intraNodeBandwidthBytesPerSecond = kIntraNode;
    pb.cluster.interNodeBandwidthBytesPerSecond = kInterNode;
    pb.cluster.hopLatencySeconds = 5e-6;
    pb.training.globalBatch = 4096;
    pb.training.microbatch = 1;
    pb.training.recompute = recompute;
    pb.training.optimizer = tandem::core::hardware::Optimizer::Adam;
    pb.hbmCapacityBytes = 32.0 * double(std::int64_t(1) << 30);
    return pb;
}

// The real pipeline's problem: GPT-3 175B from the zoo on the TPUv4-like preset (1,024 devices,
// PHAZE's flat 4 GiB/s link), every layer estimated and scheduled, widths t ∈ {1, 2, 4, 8}.
PlacementProblem zooGpt3(tandem::core::hardware::Recompute recompute) {
    tandem::core::placement::ModelPlacementRequest request;
    request.model = tandem::core::model::zooModel("gpt3-175b").value();
    request.hardware = tandem::core::hardware::PresetLibrary::preset("tpuv4-like").value();
    request.training.recompute = recompute;
    request.training.optimizer = tandem::core::hardware::Optimizer::Adam;
    request.widths = {1, 2, 4, 8};
    auto placed = tandem::core::placement::placeModel(request);
    if (!placed) {
        std::fprintf(stderr, "zoo gpt3-175b: %s\n", placed.message().c_str());
        std::exit(1);
    }
    return placed->problem;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

bool runInstance(const std::string& name, const PlacementProblem& pb, CostModelKind model,
                 int repeat, bool reference) {
    SolverOptions options;
    options.costModel = model;
    const PlacementSolver solver(options);
    std::vector<double> times;
    Expected<PlacementResult> result = Error{"not run"};
    for (int r = 0; r < repeat; ++r) {
        const auto start = Clock::now();
        result = solver.solve(pb);
        times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        if (!result) {
            std::printf("%s: error: %s\n", name.c_str(), result.message().c_str());
            return false;
        }
    }
    const double fast = median(times);
    const double tpb = result->plan ? result->plan->timePerBatchSeconds : oracle::kInf;
    std::printf("%-34s %-12s fast %8.3f ms (min %7.3f)", name.c_str(),
                std::string(toString(model)).c_str(), fast * 1e3,
                *std::min_element(times.begin(), times.end()) * 1e3);
    if (result->plan)
        std::printf("  t=%lld d=%lld S=%zu TPB=%.9g", (long long)result->plan->tensorParallel,
                    (long long)result->plan->dataParallel, result->plan->stages.size(), tpb);
    else
        std::printf("  no feasible plan");
    bool agree = true;
    if (reference) {
        const auto start = Clock::now();
        const oracle::ReferenceResult ref = oracle::referenceDp(pb, model);
        const double slow = std::chrono::duration<double>(Clock::now() - start).count();
        agree = ref.best == tpb;
        std::printf("\n%-34s %-12s reference %9.1f ms  ratio %7.0fx  optima %s (ref TPB=%.9g)", "",
                    "", slow * 1e3, slow / fast, agree ? "agree" : "DIFFER", ref.best);
    }
    std::printf("\n");
    std::fflush(stdout);
    return agree;
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress lines appear at once, also when piped
    int repeat = 21;
    bool reference = true;
    std::string instance;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--no-reference"))
            reference = false;
        else if (!std::strcmp(argv[i], "--instance") && i + 1 < argc)
            instance = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--repeat N] [--no-reference] [--instance FILE]\n",
                         argv[0]);
            return 2;
        }
    }
    bool ok = true;
    if (!instance.empty()) {
        const auto loaded = loadPhazeInstance(instance);
        if (!loaded) {
            std::fprintf(stderr, "%s\n", loaded.message().c_str());
            return 2;
        }
        ok = runInstance(instance, loaded->problem, CostModelKind::PhazeCompat, repeat, reference);
        return ok ? 0 : 1;
    }
    std::printf(
        "8 instances; the reference DP takes about 10 s each (--no-reference skips it)\n\n");
    std::printf(
        "GPT-3 175B-like chain: 98 nodes, 1024 devices, t in {1,2,4,8}, Adam, 32 GiB HBM, "
        "global batch 4096, microbatch 1\n");
    using tandem::core::hardware::Recompute;
    for (Recompute rec : {Recompute::Off, Recompute::On})
        for (CostModelKind model : {CostModelKind::Native, CostModelKind::PhazeCompat})
            ok = runInstance(
                     std::string("gpt3-175b recompute ") + (rec == Recompute::On ? "on" : "off"),
                     gpt3(rec), model, repeat, reference) &&
                 ok;
    std::printf(
        "\nThe same from the real pipeline: zoo gpt3-175b on tpuv4-like (estimated and "
        "scheduled layer times), 1024 devices, t in {1,2,4,8}, Adam\n");
    for (Recompute rec : {Recompute::Off, Recompute::On})
        for (CostModelKind model : {CostModelKind::Native, CostModelKind::PhazeCompat})
            ok = runInstance(std::string("zoo gpt3-175b recompute ") +
                                 (rec == Recompute::On ? "on" : "off"),
                             zooGpt3(rec), model, repeat, reference) &&
                 ok;
    return ok ? 0 : 1;
}
