#include "core/estimate/operator_estimator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "core/estimate/estimate_key.h"
#include "core/estimate/gemm_cost_model.h"

namespace tandem::core::estimate {

namespace {

using model::OpClass;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
    return a / b + (a % b != 0 ? 1 : 0);
}

// ⌈e / (a·b)⌉ without forming a·b when it would overflow (then a·b > e ≥ 0).
std::int64_t ceilDiv(std::int64_t e, std::int64_t a, std::int64_t b) {
    std::int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product)) return e > 0 ? 1 : 0;
    return ceilDiv(e, product);
}

std::string outOfRange(const std::string& field, const std::string& value, const char* allowed) {
    return field + " = " + value + " is out of range: must be " + allowed;
}

void checkCount(std::string& message, const char* field, std::int64_t value, std::int64_t minimum) {
    if (!message.empty() || value >= minimum) return;
    message = outOfRange(field, std::to_string(value),
                         minimum == 0 ? "an integer >= 0" : "an integer >= 1");
}

std::string formatDouble(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

void checkRate(std::string& message, const char* field, double value, bool zeroAllowed) {
    if (!message.empty()) return;
    const bool ok = std::isfinite(value) && (zeroAllowed ? value >= 0 : value > 0);
    if (!ok)
        message = outOfRange(field, formatDouble(value),
                             zeroAllowed ? "finite and >= 0" : "finite and > 0");
}

void checkFraction(std::string& message, const char* field, double value) {
    if (!message.empty()) return;
    if (!(value > 0 && value <= 1)) message = outOfRange(field, formatDouble(value), "in (0, 1]");
}

bool gemmIsEmpty(const model::GemmShape& g) {
    return g.batch == 0 || g.m == 0 || g.n == 0 || g.k == 0;
}

}  // namespace

OperatorEstimator::OperatorEstimator(hardware::AcceleratorConfig accelerator,
                                     hardware::ClusterConfig cluster,
                                     std::shared_ptr<EstimateCache> cache)
    : accelerator_(accelerator),
      cluster_(cluster),
      cache_(cache ? std::move(cache) : std::make_shared<EstimateCache>()),
      hardwareValid_(validateHardware(accelerator_, cluster_).ok()) {}

Expected<OperatorEstimator> OperatorEstimator::create(hardware::AcceleratorConfig accelerator,
                                                      hardware::ClusterConfig cluster,
                                                      std::shared_ptr<EstimateCache> cache) {
    if (Status status = validateHardware(accelerator, cluster); !status.ok())
        return Error{status.message()};
    return OperatorEstimator(accelerator, cluster, std::move(cache));
}

Status OperatorEstimator::validateHardware(const hardware::AcceleratorConfig& a,
                                           const hardware::ClusterConfig& c) {
    std::string m;
    checkCount(m, "accelerator.numTensorCores", a.numTensorCores, 1);
    checkCount(m, "accelerator.tensorCoreRows", a.tensorCoreRows, 1);
    checkCount(m, "accelerator.tensorCoreCols", a.tensorCoreCols, 1);
    checkCount(m, "accelerator.numVectorCores", a.numVectorCores, 1);
    checkCount(m, "accelerator.vectorCoreLanes", a.vectorCoreLanes, 1);
    checkCount(m, "accelerator.bytesPerElement", a.bytesPerElement, 1);
    if (m.empty() && a.globalBufferBytes / 2 < a.bytesPerElement) {
        m = outOfRange("accelerator.globalBufferBytes", std::to_string(a.globalBufferBytes),
                       "at least two elements (2 x bytesPerElement)");
    }
    checkRate(m, "accelerator.hbmBandwidthBytesPerSecond", a.hbmBandwidthBytesPerSecond, false);
    checkRate(m, "accelerator.clockHz", a.clockHz, false);
    checkCount(m, "cluster.devices", c.devices, 1);
    checkCount(m, "cluster.devicesPerNode", c.devicesPerNode, 1);
    checkRate(m, "cluster.intraNodeBandwidthBytesPerSecond", c.intraNodeBandwidthBytesPerSecond,
              false);
    checkRate(m, "cluster.interNodeBandwidthBytesPerSecond", c.interNodeBandwidthBytesPerSecond,
              false);
    checkRate(m, "cluster.hopLatencySeconds", c.hopLatencySeconds, true);
    checkRate(m, "cluster.collectiveLatencySeconds", c.collectiveLatencySeconds, true);
    checkFraction(m, "accelerator.tensorCoreEfficiency", a.tensorCoreEfficiency);
    checkFraction(m, "accelerator.fp8EfficiencyRatio", a.fp8EfficiencyRatio);
    checkRate(m, "accelerator.tensorCoreDrainCyclesPerRow", a.tensorCoreDrainCyclesPerRow, true);
    checkCount(m, "accelerator.tensorCoreTileFolds", a.tensorCoreTileFolds, 1);
    checkRate(m, "accelerator.tensorCoreTileOverheadCycles", a.tensorCoreTileOverheadCycles, true);
    checkFraction(m, "accelerator.hbmEfficiency", a.hbmEfficiency);
    checkRate(m, "accelerator.operatorOverheadSeconds", a.operatorOverheadSeconds, true);
    checkRate(m, "accelerator.hostOverheadSeconds", a.hostOverheadSeconds, true);
    checkFraction(m, "cluster.collectiveEfficiency", c.collectiveEfficiency);
    if (!m.empty()) return Error{"estimator: " + m};
    return Status::success();
}

Status OperatorEstimator::validateOperator(const model::Operator& op) const {
    std::string m;
    const bool gemm = op.opClass == OpClass::TensorCore || op.opClass == OpClass::Fused;
    const bool vector = op.opClass == OpClass::VectorCore || op.opClass == OpClass::Fused;
    if (gemm) {
        checkCount(m, "gemm.batch", op.gemm.batch, 0);
        checkCount(m, "gemm.m", op.gemm.m, 0);
        checkCount(m, "gemm.n", op.gemm.n, 0);
        checkCount(m, "gemm.k", op.gemm.k, 0);
        checkCount(m, "streamedBytes", op.streamedBytes, 0);
    }
    if (vector) {
        checkCount(m, "elements", op.elements, 0);
        checkRate(m, "cyclesPerElement", op.cyclesPerElement, true);
    }
    if (op.opClass == OpClass::VectorCore) checkCount(m, "streamedTensors", op.streamedTensors, 0);
    if (op.opClass == OpClass::Collective) {
        checkCount(m, "collectiveBytes", op.collectiveBytes, 0);
        if (m.empty() && (op.groupSize < 1 || op.groupSize > cluster_.devices)) {
            m = outOfRange(
                "groupSize", std::to_string(op.groupSize),
                ("an integer in [1, cluster.devices = " + std::to_string(cluster_.devices) + "]")
                    .c_str());
        }
    }
    if (!m.empty()) return Error{"operator '" + op.name + "': " + m};
    return Status::success();
}

OperatorCost OperatorEstimator::estimate(const model::Operator& op) const {
    if (op.opClass == OpClass::Nop) return {};
    if (!hardwareValid_ || !validateOperator(op).ok()) return estimateUncached(op);
    const EstimateKey key = EstimateKey::make(op, accelerator_, cluster_);
    if (std::optional<OperatorCost> cached = cache_->find(key)) return *cached;
    const OperatorCost cost = estimateUncached(op);
    cache_->insert(key, cost);
    return cost;
}

Expected<OperatorCost> OperatorEstimator::tryEstimate(const model::Operator& op) const {
    if (Status status = validateHardware(accelerator_, cluster_); !status.ok())
        return Error{status.message()};
    if (Status status = validateOperator(op); !status.ok()) return Error{status.message()};
    const OperatorCost cost = estimate(op);
    // The parameter ranges keep every latency finite; should a combination still overflow, say
    // which operator and which hardware numbers it was rather than report infinite time.
    if (!std::isfinite(cost.oneCoreSeconds) || !std::isfinite(cost.allCoresSeconds) ||
        !std::isfinite(cost.bytes) || !std::isfinite(cost.flops)) {
        const auto& a = accelerator_;
        return Error{"operator '" + op.name + "': its latency is not a finite number with " +
                     "accelerator.clockHz = " + formatDouble(a.clockHz) +
                     " and accelerator.hbmBandwidthBytesPerSecond = " +
                     formatDouble(a.hbmBandwidthBytesPerSecond) +
                     "; raise them or make the operator smaller"};
    }
    return cost;
}

OperatorCost OperatorEstimator::estimateUncached(const model::Operator& op) const {
    if (op.opClass == OpClass::Nop || !validateOperator(op).ok()) return {};
    if (!hardwareValid_) return {kInfinity, kInfinity, op.flops(), 0};
    switch (op.opClass) {
        case OpClass::TensorCore:
        case OpClass::Fused:
            return gemmCost(op);
        case OpClass::VectorCore:
            return vectorCost(op);
        case OpClass::Collective:
            return collectiveCost(op);
        case OpClass::Nop:
            break;
    }
    return {};
}

std::vector<OperatorCost> OperatorEstimator::estimateAll(
    const std::vector<model::Operator>& ops) const {
    std::vector<OperatorCost> costs;
    costs.reserve(ops.size());
    for (const model::Operator& op : ops) costs.push_back(estimate(op));
    return costs;
}

OperatorCost OperatorEstimator::gemmCost(const model::Operator& op) const {
    const auto& a = accelerator_;
    const bool hasEpilogue = op.opClass == OpClass::Fused && op.elements > 0;
    if (gemmIsEmpty(op.gemm) && !hasEpilogue) return {};  // nothing to launch
    double oneCycles = 0, allCycles = 0, trafficBytes = 0, castBytes = 0;
    // fp8 (Transformer Engine): a linear layer's GEMM retires fp8MacRatio reduction steps per
    // cycle, reads 1-byte operands and writes a 2-byte output, and first casts its activation
    // operand (m × k) from bf16 in a pass of its own (read 2 B, write 1 B). The attention cores
    // (batched GEMMs) stay bf16, as in Transformer Engine's default recipe.
    const bool fp8 =
        a.precision == hardware::Precision::Fp8 && op.gemm.batch == 1 && op.streamedBytes == 0;
    if (!gemmIsEmpty(op.gemm)) {
        const GemmCore core{a.tensorCoreRows, a.tensorCoreCols, a.minFoldCycles(),
                            a.tensorCoreTileFolds, a.tensorCoreTileOverheadCycles};
        model::GemmShape steps = op.gemm;
        if (fp8) steps.k = std::int64_t(std::ceil(double(op.gemm.k) / a.fp8MacRatio));
        oneCycles = GemmCostModel::oneCoreCycles(steps, core);
        allCycles = GemmCostModel::allCoresCycles(steps, a.numTensorCores, core).cycles;
        if (fp8) {
            trafficBytes = GemmCostModel::traffic(op.gemm, a.globalBufferBytes, 1).bytes +
                           double(op.gemm.m) * double(op.gemm.n);
            castBytes = 3.0 * double(op.gemm.m) * double(op.gemm.k);
        } else if (op.streamedBytes > 0) {
            // FlashAttention: Q, K, V and the output (and their gradients) stream through HBM;
            // the score tiles stay on chip.
            trafficBytes = double(op.streamedBytes);
        } else {
            trafficBytes =
                GemmCostModel::traffic(op.gemm, a.globalBufferBytes, a.bytesPerElement).bytes;
        }
    }
    double epilogueOne = 0, epilogueAll = 0;
    // FlashAttention on a chip with a special-function unit: each score's exponential waits on
    // that unit between the kernel's GEMMs, so its cycles add to the array's (the lanes' other
    // softmax work issues beside them and hides); elsewhere the epilogue overlaps the array.
    const bool serialSoftmax =
        hasEpilogue && op.streamedBytes > 0 && a.specialFunctionOpsPerCycle > 0;
    double serialOne = 0, serialAll = 0;
    if (serialSoftmax) {
        serialOne = double(op.elements) / a.specialFunctionOpsPerCycle;
        serialAll = double(ceilDiv(op.elements, a.numVectorCores)) / a.specialFunctionOpsPerCycle;
    } else if (hasEpilogue) {
        epilogueOne = double(ceilDiv(op.elements, a.vectorCoreLanes)) * op.cyclesPerElement;
        epilogueAll =
            double(ceilDiv(op.elements, a.vectorCoreLanes, a.numVectorCores)) * op.cyclesPerElement;
    }
    const double memorySeconds = trafficBytes / a.achievableHbmBandwidth();
    const double castSeconds =
        castBytes > 0 ? castBytes / a.achievableHbmBandwidth() + a.operatorOverheadSeconds : 0.0;
    // An fp8 GEMM's main loop sustains fp8EfficiencyRatio of a bf16 one's share of its peak.
    const double arrayHz = a.clockHz * a.tensorCoreEfficiency * (fp8 ? a.fp8EfficiencyRatio : 1.0);
    OperatorCost cost;
    cost.oneCoreSeconds = std::max({oneCycles / arrayHz + serialOne / a.clockHz,
                                    epilogueOne / a.clockHz, memorySeconds}) +
                          a.operatorOverheadSeconds + castSeconds;
    cost.allCoresSeconds = std::max({allCycles / arrayHz + serialAll / a.clockHz,
                                     epilogueAll / a.clockHz, memorySeconds}) +
                           a.operatorOverheadSeconds + castSeconds;
    cost.flops = op.flops();
    cost.bytes = trafficBytes + castBytes;
    return cost;
}

OperatorCost OperatorEstimator::vectorCost(const model::Operator& op) const {
    const auto& a = accelerator_;
    if (op.elements == 0) return {};
    const double oneCycles = double(ceilDiv(op.elements, a.vectorCoreLanes)) * op.cyclesPerElement;
    const double allCycles =
        double(ceilDiv(op.elements, a.vectorCoreLanes, a.numVectorCores)) * op.cyclesPerElement;
    const double trafficBytes =
        double(op.elements) * double(a.bytesPerElement) * double(op.streamedTensors);
    const double memorySeconds = trafficBytes / a.achievableHbmBandwidth();
    OperatorCost cost;
    cost.oneCoreSeconds =
        std::max(oneCycles / a.clockHz, memorySeconds) + a.operatorOverheadSeconds;
    cost.allCoresSeconds =
        std::max(allCycles / a.clockHz, memorySeconds) + a.operatorOverheadSeconds;
    cost.flops = op.flops();
    cost.bytes = trafficBytes;
    return cost;
}

OperatorCost OperatorEstimator::collectiveCost(const model::Operator& op) const {
    const std::int64_t g = op.groupSize;
    if (g <= 1 || op.collectiveBytes == 0) return {};
    const double bandwidth = cluster_.effectiveGroupBandwidth(g);
    const double hop = cluster_.hopLatencySeconds;
    // Ring algorithms: an all-reduce is a reduce-scatter then an all-gather, each g − 1 steps
    // that send 1/g of the tensor.
    const bool allReduce = op.collective == model::CollectiveKind::AllReduce;
    const double phases = allReduce ? 2.0 : 1.0;
    double sentBytes = phases * double(g - 1) / double(g) * double(op.collectiveBytes);
    double steps = sentBytes / bandwidth + phases * double(g - 1) * hop;
    // NCCL's tree all-reduce across nodes: a chain through each node's members and a binary
    // tree over the nodes, up and down, each device sending the whole tensor twice. Fewer steps
    // than the ring's 2(g − 1), so NCCL picks it for small tensors on many nodes; the cheaper
    // of the two is taken, as NCCL's tuner does.
    if (allReduce && g > cluster_.devicesPerNode) {
        const std::int64_t perNode = cluster_.devicesPerNode;
        const std::int64_t nodes = (g + perNode - 1) / perNode;
        const double depth = double(perNode - 1) + std::ceil(std::log2(double(nodes)));
        const double treeBytes = 2.0 * double(op.collectiveBytes);
        const double tree = treeBytes / bandwidth + 2.0 * depth * hop;
        if (tree < steps) {
            steps = tree;
            sentBytes = treeBytes;
        }
    }
    const double seconds =
        steps + cluster_.collectiveLatencySeconds + accelerator_.operatorOverheadSeconds;
    OperatorCost cost;
    cost.oneCoreSeconds = seconds;
    cost.allCoresSeconds = seconds;
    cost.flops = 0;
    cost.bytes = sentBytes;
    return cost;
}

}  // namespace tandem::core::estimate
