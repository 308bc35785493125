#pragma once
// Stage candidates shared between placement problems that differ only in their recomputation
// setting. A chain's candidate stages (StageCandidates::forChain) and their costs do not depend
// on recomputation: every StageCost carries the loads and in-flight limits of all three
// recomputation modes, and the DP picks the one the problem asks for. A design-space search
// places each (chip, microbatch size, HBM capacity) with recomputation off and on, so the second
// placement can reuse the first one's candidates instead of pricing every range again.
//
// Contract: one cache serves problems that are equal in everything but `training.recompute`
// (the search keeps one per chip × microbatch size, whose problems differ in HBM capacity and
// recomputation; the capacity is part of the key). Only the chain path is cached: DAG candidates
// point into a lattice that lives in one solve. Thread-safe; two threads that miss on one key
// both price it and the first stored copy is kept (the two are identical).
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "core/placement/cost_model_kind.h"
#include "core/placement/stage_candidates.h"

namespace tandem::core::placement {

class StageCandidateCache {
public:
    struct Key {
        CostModelKind costModel = CostModelKind::Native;
        std::int64_t tensorParallel = 1;
        double hbmCapacityBytes = 0;
        bool operator<(const Key& o) const {
            return std::tie(costModel, tensorParallel, hbmCapacityBytes) <
                   std::tie(o.costModel, o.tensorParallel, o.hbmCapacityBytes);
        }
    };

    // The stored candidates for `key`, or null.
    std::shared_ptr<const StageCandidates> find(const Key& key) const;
    // Stores `candidates` unless the key is already there; returns the stored copy.
    std::shared_ptr<const StageCandidates> insert(
        const Key& key, std::shared_ptr<const StageCandidates> candidates);

private:
    mutable std::mutex mutex_;
    std::map<Key, std::shared_ptr<const StageCandidates>> entries_;
};

}  // namespace tandem::core::placement
