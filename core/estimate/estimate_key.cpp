#include "core/estimate/estimate_key.h"

#include <array>
#include <bit>
#include <utility>
#include <vector>

#include "core/hardware/parameter_registry.h"

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

namespace {

// The registry fields one class of operator reads, as getters into the key's hardware slots.
struct CostFields {
    std::vector<std::pair<std::size_t, double (*)(const hardware::AcceleratorConfig&)>> chip;
    std::vector<std::pair<std::size_t, double (*)(const hardware::ClusterConfig&)>> cluster;
};

std::uint8_t costUseOf(model::OpClass opClass) {
    switch (opClass) {
        case model::OpClass::TensorCore:
            return hardware::kCostOfGemm;
        case model::OpClass::VectorCore:
            return hardware::kCostOfVector;
        case model::OpClass::Fused:
            return hardware::kCostOfGemm | hardware::kCostOfVector;
        case model::OpClass::Collective:
            return hardware::kCostOfCollective;
        default:
            return 0;
    }
}

// Built once from the registries, for every combination of CostUse bits. Only fields some cost
// reads have a slot (in registry order, accelerator first): the others (memory capacity, energy,
// cluster size) never reach a key.
const CostFields& costFieldsFor(std::uint8_t use) {
    static const std::array<CostFields, 8> table = [] {
        std::array<CostFields, 8> t;
        const auto chip = hardware::acceleratorParameters().parameters();
        const auto cluster = hardware::clusterParameters().parameters();
        for (std::uint8_t u = 0; u < t.size(); ++u) {
            std::size_t slot = 0;
            for (const auto& p : chip) {
                if (p.spec.costUse == 0) continue;
                if (slot < EstimateKey::kMaxHardwareFields && (p.spec.costUse & u) != 0)
                    t[u].chip.emplace_back(slot, p.get);
                ++slot;
            }
            for (const auto& p : cluster) {
                if (p.spec.costUse == 0) continue;
                if (slot < EstimateKey::kMaxHardwareFields && (p.spec.costUse & u) != 0)
                    t[u].cluster.emplace_back(slot, p.get);
                ++slot;
            }
        }
        return t;
    }();
    return table[use & 7];
}

}  // namespace

std::size_t EstimateKey::hardwareFieldCount() {
    std::size_t count = 0;
    for (const auto& p : hardware::acceleratorParameters().parameters())
        count += p.spec.costUse != 0;
    for (const auto& p : hardware::clusterParameters().parameters()) count += p.spec.costUse != 0;
    return count;
}

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
        key.streamedBytes = op.streamedBytes;
    }
    if (vector) {
        key.elements = op.elements;
        key.cyclesPerElement = canonical(op.cyclesPerElement);
    }
    // A fused epilogue reads the GEMM's output on chip, so only plain vector ops stream tensors.
    if (op.opClass == model::OpClass::VectorCore) key.streamedTensors = op.streamedTensors;
    if (op.opClass == model::OpClass::Collective) {
        key.collectiveBytes = op.collectiveBytes;
        key.groupSize = op.groupSize;
        key.collectiveKind = std::int64_t(op.collective);
    }
    const CostFields& fields = costFieldsFor(costUseOf(op.opClass));
    for (const auto& [slot, get] : fields.chip) key.hardware[slot] = canonical(get(accelerator));
    for (const auto& [slot, get] : fields.cluster) key.hardware[slot] = canonical(get(cluster));
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
    h.add(key.streamedBytes);
    h.add(key.collectiveBytes);
    h.add(key.groupSize);
    h.add(key.collectiveKind);
    for (double v : key.hardware) h.add(v);
    return std::size_t(h.state);
}

}  // namespace tandem::core::estimate
