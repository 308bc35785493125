#pragma once
// Transformer-like layer DAGs for the scheduler's benchmark and robustness tests, until the model
// zoo and estimator provide real ones: a Megatron-style block (forward: LN, QKV, attention BMMs,
// softmax, projection, all-reduce, residual, MLP; backward: input- and weight-gradient GEMMs,
// the attention diamond, all-reduces of Megatron's f operator) with latencies from a simple
// roofline-like model (GEMMs on 128×128 arrays at 1.05 GHz, all-core efficiency falling with
// the core count; vector ops by elements and cycles per element; ring all-reduce at 100 GB/s),
// i.e. µs to ms. Header-only so the benchmark and the tests share it without a library.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/schedule/schedule_problem.h"

namespace tandem::testing {

struct SyntheticModel {
    std::string name;
    double hidden, seq, batch, heads, tensorParallel;
};

struct SyntheticChip {
    std::string name;
    int tensorCores, vectorCores;
};

struct NamedProblem {
    std::string name;
    core::schedule::ScheduleProblem problem;
};

inline const std::vector<SyntheticModel>& syntheticModels() {
    static const std::vector<SyntheticModel> models{
        {"bert-large", 1024, 512, 4, 16, 1},      {"gpt2-xl", 1600, 1024, 2, 25, 1},
        {"megatron-8b-t8", 3072, 1024, 1, 24, 8}, {"gpt3-t8", 12288, 2048, 1, 96, 8},
        {"small-t2", 512, 128, 8, 8, 2},
    };
    return models;
}

inline const std::vector<SyntheticChip>& syntheticChips() {
    static const std::vector<SyntheticChip> chips{
        {"tpuv4-like", 8, 2},    {"1tc-1vc", 1, 1},
        {"2tc-2vc", 2, 2},       {"4tc-1vc", 4, 1},
        {"16tc-4vc", 16, 4},     {"64tc-16vc", 64, 16},
        {"256tc-64vc", 256, 64}, {"4096tc-4096vc", 4096, 4096},
        {"1tc-4096vc", 1, 4096}, {"4096tc-1vc", 4096, 1},
    };
    return chips;
}

class SyntheticLayerBuilder {
public:
    SyntheticLayerBuilder(const SyntheticModel& m, const SyntheticChip& c) : m_(m), c_(c) {}

    core::schedule::ScheduleProblem forward() {
        start();
        const double h = m_.hidden, s = m_.seq * m_.batch, t = m_.tensorParallel;
        const double dh = h / m_.heads, heads = m_.heads / t;
        const int ln1 = vec("ln1", s * h, 6, {});
        const int f1 = nop("f1", {ln1});
        const int qkv = gemm("qkv", s, 3 * h / t, h, {f1});
        const int q = nop("q", {qkv}), k = nop("k", {qkv}), v = nop("v", {qkv});
        const int qk = gemm("qk", m_.seq, m_.seq, dh, {q, k}, heads * m_.batch);
        const int scale = vec("scale", heads * m_.batch * m_.seq * m_.seq, 1, {qk});
        const int softmax = vec("softmax", heads * m_.batch * m_.seq * m_.seq, 12, {scale});
        const int drop = vec("attn_dropout", heads * m_.batch * m_.seq * m_.seq, 2, {softmax});
        const int av = gemm("av", m_.seq, dh, m_.seq, {drop, v}, heads * m_.batch);
        const int proj = gemm("proj", s, h, h / t, {av});
        const int g1 = allReduce("g1", s * h, {proj});
        const int drop1 = vec("dropout1", s * h, 2, {g1});
        const int res1 = vec("residual1", s * h, 1, {drop1});
        const int ln2 = vec("ln2", s * h, 6, {res1});
        const int f2 = nop("f2", {ln2});
        const int fc1 = gemm("fc1", s, 4 * h / t, h, {f2});
        const int gelu = vec("gelu", s * 4 * h / t, 1, {fc1});
        const int fc2 = gemm("fc2", s, h, 4 * h / t, {gelu});
        const int g2 = allReduce("g2", s * h, {fc2});
        const int drop2 = vec("dropout2", s * h, 2, {g2});
        vec("residual2", s * h, 1, {drop2, res1});
        return p_;
    }

    core::schedule::ScheduleProblem backward() {
        start();
        const double h = m_.hidden, s = m_.seq * m_.batch, t = m_.tensorParallel;
        const double dh = h / m_.heads, heads = m_.heads / t;
        const double attn = heads * m_.batch * m_.seq * m_.seq;
        const int res2 = vec("d_residual2", s * h, 1, {});
        const int drop2 = vec("d_dropout2", s * h, 1, {res2});
        const int g2 = nop("d_g2", {drop2});
        const int fc2x = gemm("fc2_dx", s, 4 * h / t, h, {g2});
        gemm("fc2_dw", 4 * h / t, h, s, {g2});
        const int gelu = vec("d_gelu", s * 4 * h / t, 2, {fc2x});
        const int fc1x = gemm("fc1_dx", s, h, 4 * h / t, {gelu});
        gemm("fc1_dw", h, 4 * h / t, s, {gelu});
        const int f2 = allReduce("d_f2", s * h, {fc1x});
        const int ln2 = vec("d_ln2", s * h, 8, {f2});
        const int res1 = vec("d_residual1", s * h, 1, {ln2, res2});
        const int drop1 = vec("d_dropout1", s * h, 1, {res1});
        const int g1 = nop("d_g1", {drop1});
        const int projx = gemm("proj_dx", s, h / t, h, {g1});
        gemm("proj_dw", h / t, h, s, {g1});
        const int da = gemm("av_da", m_.seq, m_.seq, dh, {projx}, heads * m_.batch);
        const int dv = gemm("av_dv", m_.seq, dh, m_.seq, {projx}, heads * m_.batch);
        const int ddrop = vec("d_attn_dropout", attn, 1, {da});
        const int dsoft = vec("d_softmax", attn, 4, {ddrop});
        const int dscale = vec("d_scale", attn, 1, {dsoft});
        const int dq = gemm("qk_dq", m_.seq, dh, m_.seq, {dscale}, heads * m_.batch);
        const int dk = gemm("qk_dk", m_.seq, dh, m_.seq, {dscale}, heads * m_.batch);
        const int cat = nop("d_qkv_concat", {dq, dk, dv});
        const int qkvx = gemm("qkv_dx", s, h, 3 * h / t, {cat});
        gemm("qkv_dw", 3 * h / t, h, s, {cat});
        const int f1 = allReduce("d_f1", s * h, {qkvx});
        const int ln1 = vec("d_ln1", s * h, 8, {f1});
        vec("d_residual0", s * h, 1, {ln1, res1});
        return p_;
    }

    // The MLP half of the backward block alone (11 operators): small enough for the reference
    // ILP to finish, with the same weight-gradient side branches.
    core::schedule::ScheduleProblem mlpBackward() {
        start();
        const double h = m_.hidden, s = m_.seq * m_.batch, t = m_.tensorParallel;
        const int res2 = vec("d_residual2", s * h, 1, {});
        const int drop2 = vec("d_dropout2", s * h, 1, {res2});
        const int g2 = nop("d_g2", {drop2});
        const int fc2x = gemm("fc2_dx", s, 4 * h / t, h, {g2});
        gemm("fc2_dw", 4 * h / t, h, s, {g2});
        const int gelu = vec("d_gelu", s * 4 * h / t, 2, {fc2x});
        const int fc1x = gemm("fc1_dx", s, h, 4 * h / t, {gelu});
        gemm("fc1_dw", h, 4 * h / t, s, {gelu});
        const int f2 = allReduce("d_f2", s * h, {fc1x});
        const int ln2 = vec("d_ln2", s * h, 8, {f2});
        vec("d_residual1", s * h, 1, {ln2, res2});
        return p_;
    }

private:
    static constexpr double kClock = 1.05e9;
    static constexpr double kArray = 128;
    static constexpr double kLanes = 128;

    void start() {
        p_ = {};
        p_.numTensorCores = c_.tensorCores;
        p_.numVectorCores = c_.vectorCores;
    }
    int add(std::string name, core::model::OpClass cls, double one, double all, double flops,
            std::vector<int> preds) {
        core::schedule::ScheduleTask task;
        task.name = std::move(name);
        task.opClass = cls;
        task.oneCoreSeconds = one;
        task.allCoresSeconds = all;
        task.flops = flops;
        task.predecessors = std::move(preds);
        p_.tasks.push_back(std::move(task));
        return static_cast<int>(p_.tasks.size()) - 1;
    }
    int nop(std::string name, std::vector<int> preds) {
        return add(std::move(name), core::model::OpClass::Nop, 0, 0, 0, std::move(preds));
    }
    // Tiling folds on one 128×128 array; over n cores the output tiles are shared out, so the
    // all-cores time rounds up per core and pays a synchronisation overhead.
    int gemm(std::string name, double m, double n, double k, std::vector<int> preds,
             double batch = 1) {
        const double tiles = batch * std::ceil(m / kArray) * std::ceil(n / kArray);
        const double perTile = k + 2 * kArray;  // stream k plus fill and drain
        const double one = tiles * perTile / kClock;
        const double cores = c_.tensorCores;
        const double all =
            std::ceil(tiles / cores) * perTile / kClock * (1 + 0.02 * std::log2(cores)) +
            1e-7 * std::log2(cores + 1);
        return add(std::move(name), core::model::OpClass::TensorCore, one, all,
                   2 * batch * m * n * k, std::move(preds));
    }
    int vec(std::string name, double elements, double cycles, std::vector<int> preds) {
        const double one = std::ceil(elements / kLanes) * cycles / kClock;
        const double cores = c_.vectorCores;
        const double all = std::ceil(elements / (kLanes * cores)) * cycles / kClock *
                               (1 + 0.03 * std::log2(cores)) +
                           5e-8 * std::log2(cores + 1);
        return add(std::move(name), core::model::OpClass::VectorCore, one, all, elements,
                   std::move(preds));
    }
    int allReduce(std::string name, double elements, std::vector<int> preds) {
        const double t = m_.tensorParallel;
        if (t <= 1) return nop(std::move(name), std::move(preds));
        const double seconds = 2 * (t - 1) / t * elements * 2 / 100e9 + 2 * (t - 1) * 5e-6;
        return add(std::move(name), core::model::OpClass::Collective, seconds, seconds, 0,
                   std::move(preds));
    }

    SyntheticModel m_;
    SyntheticChip c_;
    core::schedule::ScheduleProblem p_;
};

// Every model × chip: the block forward and backward, and (with `mlp`) the MLP backward alone.
inline std::vector<NamedProblem> syntheticLayerProblems(bool mlp = false) {
    std::vector<NamedProblem> out;
    for (const SyntheticModel& m : syntheticModels()) {
        for (const SyntheticChip& c : syntheticChips()) {
            SyntheticLayerBuilder builder(m, c);
            out.push_back({m.name + "/" + c.name + "/fwd", builder.forward()});
            out.push_back({m.name + "/" + c.name + "/bwd", builder.backward()});
            if (mlp) out.push_back({m.name + "/" + c.name + "/mlp-bwd", builder.mlpBackward()});
        }
    }
    return out;
}

}  // namespace tandem::testing
