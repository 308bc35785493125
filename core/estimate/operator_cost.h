#pragma once
// What the estimator says about one operator on one accelerator (ARCHITECTURE.md §2.3).
namespace tandem::core::estimate {

struct OperatorCost {
    double oneCoreSeconds = 0;   // on one core of its class (a Fused op: one TC + one VC)
    double allCoresSeconds = 0;  // intra-operator parallel over all cores of its class
    double flops = 0;            // arithmetic work, FLOP
    double bytes = 0;            // HBM traffic, bytes (operand re-reads included)
    bool operator==(const OperatorCost&) const = default;
};

}  // namespace tandem::core::estimate
