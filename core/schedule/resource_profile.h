#pragma once
// The chip's resource usage over time while a list scheduler places operators one by one:
// piecewise-constant counts of busy tensor cores, vector cores and the link. An operator in
// intra-operator-parallel mode demands every TC and every VC, which is how its exclusivity is
// enforced; a collective demands only the link, so it may overlap any computation.
#include <vector>

namespace tandem::core::schedule {

struct Demand {
    int tensorCores = 0;
    int vectorCores = 0;
    int link = 0;
};

class ResourceProfile {
public:
    ResourceProfile(int tensorCores, int vectorCores);

    // The earliest t ≥ earliest at which `demand` fits during [t, t + duration). Time points
    // are only ever compared, never rounded, so a start equal to another task's end is exact.
    double earliestStart(double earliest, double duration, const Demand& demand) const;
    void reserve(double start, double end, const Demand& demand);

private:
    bool fits(int segment, const Demand& demand) const;
    int segmentAt(double time) const;  // index of the segment containing time
    int split(double time);            // makes `time` a breakpoint, returns its segment

    int tensorCores_;
    int vectorCores_;
    // Segment k covers [times_[k], times_[k + 1]) (the last one extends to infinity).
    std::vector<double> times_;
    std::vector<Demand> used_;
};

}  // namespace tandem::core::schedule
