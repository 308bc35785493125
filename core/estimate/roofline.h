#pragma once
// The roofline of a chip and the operators of one layer on it (Williams, Waterman and Patterson,
// "Roofline", CACM 2009): each operator's arithmetic intensity (FLOPs per HBM byte, operand
// re-reads included) against the FLOP/s it attains in the estimator (its FLOPs over its
// all-cores time), under two roofs — the tensor cores' dense peak and the HBM bandwidth memory-
// bound kernels sustain (hbmBandwidth × hbmEfficiency) — which meet at the ridge point:
// intensity = peak / bandwidth. An operator left of the ridge is memory-bound (at best
// bandwidth × intensity), right of it compute-bound (at best the peak). Operators without FLOPs
// or bytes (views, collectives) have no place on the chart and are left out.
#include <string>
#include <vector>

#include "core/estimate/model_estimate.h"
#include "core/hardware/accelerator_config.h"
#include "core/model/operator.h"

namespace tandem::core::estimate {

struct RooflinePoint {
    std::string name;  // the forward operator's name ("attn.qkv")
    model::OpClass opClass = model::OpClass::Nop;
    bool backward = false;  // the backward operators derived from it, summed
    double flops = 0;       // FLOP
    double bytes = 0;       // HBM bytes
    double seconds = 0;     // all-cores time
    double intensity = 0;   // FLOP per byte
    double attainedFlopsPerSecond = 0;
};

struct Roofline {
    double peakFlopsPerSecond = 0;       // the compute roof
    double bandwidthBytesPerSecond = 0;  // the memory roof's slope
    double ridgeIntensity = 0;           // FLOP per byte where the roofs meet
    std::vector<RooflinePoint> points;   // forward then backward, in the layer's order

    // The roof over `intensity`: min(peak, bandwidth × intensity), FLOP/s.
    double roofAt(double intensity) const;
    // Attained over roof (0..1 for a physical estimate).
    double fractionOfRoof(const RooflinePoint& point) const;
    bool memoryBound(const RooflinePoint& point) const { return point.intensity < ridgeIntensity; }
};

// The roofline of `layer` (an entry of a ModelEstimate) on `accelerator`.
Roofline rooflineOf(const LayerEstimate& layer, const hardware::AcceleratorConfig& accelerator);

}  // namespace tandem::core::estimate
