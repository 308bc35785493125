#pragma once
// What a set of operators does, summed from their costs (operator_cost.h): the arithmetic and
// the HBM traffic that the energy model (core/energy) prices. Per device, for one microbatch.
#include <cstddef>
#include <vector>

#include "core/estimate/operator_cost.h"
#include "core/model/operator.h"

namespace tandem::core::estimate {

struct PassWork {
    double flops = 0;      // all arithmetic, FLOP
    double gemmFlops = 0;  // of which on the tensor cores (GEMMs and fused GEMMs)
    double hbmBytes = 0;   // HBM reads and writes, bytes

    bool operator==(const PassWork&) const = default;
};

// The work of the operators of `ops` that `pick` selects, costs aligned with ops by index.
template <typename Pick>
PassWork sumWork(const std::vector<model::Operator>& ops, const std::vector<OperatorCost>& costs,
                 Pick pick) {
    PassWork work;
    for (std::size_t i = 0; i < ops.size() && i < costs.size(); ++i) {
        if (!pick(ops[i])) continue;
        work.flops += costs[i].flops;
        if (ops[i].isGemm()) work.gemmFlops += costs[i].flops;
        work.hbmBytes += costs[i].bytes;
    }
    return work;
}

}  // namespace tandem::core::estimate
