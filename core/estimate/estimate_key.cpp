#include "core/estimate/estimate_key.h"

#include <bit>

namespace tandem::core::estimate {

namespace {

// +0.0 and -0.0 compare equal, so they must hash equal: adding +0.0 turns -0.0 into +0.0.
double canonical(double x) {
    return x + 0.0;
}

// SplitMix64's finaliser: every input bit affects every output bit.
std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

struct Hasher {
    std::uint64_t state = 0x243f6a8885a308d3ULL;
    void add(std::int64_t v) { state = mix(state + 0x9e3779b97f4a7c15ULL + std::uint64_t(v)); }
    void add(double v) { add(std::bit_cast<std::int64_t>(v)); }
};

}  // namespace

EstimateKey EstimateKey::make(const model::Operator& op,
                              const hardware::AcceleratorConfig& accelerator,
                              const hardware::ClusterConfig& cluster) {
    EstimateKey key;
    key.opClass = static_cast<std::int64_t>(op.opClass);
    const bool gemm =
        op.opClass == model::OpClass::TensorCore || op.opClass == model::OpClass::Fused;
    const bool vector =
        op.opClass == model::OpClass::VectorCore || op.opClass == model::OpClass::Fused;
    if (gemm) {
        key.batch = op.gemm.batch;
        key.m = op.gemm.m;
        key.n = op.gemm.n;
        key.k = op.gemm.k;
        key.tensorCoreEfficiency = canonical(accelerator.tensorCoreEfficiency);
        key.tensorCoreDrainCyclesPerRow = canonical(accelerator.tensorCoreDrainCyclesPerRow);
        key.tensorCoreTileFolds = accelerator.tensorCoreTileFolds;
        key.tensorCoreTileOverheadCycles = canonical(accelerator.tensorCoreTileOverheadCycles);
        key.numTensorCores = accelerator.numTensorCores;
        key.tensorCoreRows = accelerator.tensorCoreRows;
        key.tensorCoreCols = accelerator.tensorCoreCols;
        key.globalBufferBytes = accelerator.globalBufferBytes;
    }
    if (vector) {
        key.elements = op.elements;
        key.cyclesPerElement = canonical(op.cyclesPerElement);
        key.numVectorCores = accelerator.numVectorCores;
        key.vectorCoreLanes = accelerator.vectorCoreLanes;
    }
    // A fused epilogue reads the GEMM's output on chip, so only plain vector ops stream tensors.
    if (op.opClass == model::OpClass::VectorCore) key.streamedTensors = op.streamedTensors;
    if (gemm || vector) {
        key.bytesPerElement = accelerator.bytesPerElement;
        key.hbmBandwidthBytesPerSecond = canonical(accelerator.hbmBandwidthBytesPerSecond);
        key.hbmEfficiency = canonical(accelerator.hbmEfficiency);
        key.clockHz = canonical(accelerator.clockHz);
    }
    if (op.opClass == model::OpClass::Collective) {
        key.collectiveBytes = op.collectiveBytes;
        key.groupSize = op.groupSize;
        key.collectiveKind = std::int64_t(op.collective);
        key.linkBandwidthBytesPerSecond = canonical(cluster.effectiveGroupBandwidth(op.groupSize));
        key.hopLatencySeconds = canonical(cluster.hopLatencySeconds);
        key.collectiveLatencySeconds = canonical(cluster.collectiveLatencySeconds);
        key.devicesPerNode = cluster.devicesPerNode;
    }
    key.operatorOverheadSeconds = canonical(accelerator.operatorOverheadSeconds);
    return key;
}

std::size_t EstimateKeyHash::operator()(const EstimateKey& key) const noexcept {
    Hasher h;
    h.add(key.opClass);
    h.add(key.batch);
    h.add(key.m);
    h.add(key.n);
    h.add(key.k);
    h.add(key.elements);
    h.add(key.cyclesPerElement);
    h.add(key.streamedTensors);
    h.add(key.collectiveBytes);
    h.add(key.groupSize);
    h.add(key.collectiveKind);
    h.add(key.numTensorCores);
    h.add(key.tensorCoreRows);
    h.add(key.tensorCoreCols);
    h.add(key.globalBufferBytes);
    h.add(key.numVectorCores);
    h.add(key.vectorCoreLanes);
    h.add(key.bytesPerElement);
    h.add(key.hbmBandwidthBytesPerSecond);
    h.add(key.clockHz);
    h.add(key.linkBandwidthBytesPerSecond);
    h.add(key.hopLatencySeconds);
    h.add(key.collectiveLatencySeconds);
    h.add(key.devicesPerNode);
    h.add(key.tensorCoreEfficiency);
    h.add(key.tensorCoreDrainCyclesPerRow);
    h.add(key.tensorCoreTileFolds);
    h.add(key.tensorCoreTileOverheadCycles);
    h.add(key.hbmEfficiency);
    h.add(key.operatorOverheadSeconds);
    return std::size_t(h.state);
}

}  // namespace tandem::core::estimate
