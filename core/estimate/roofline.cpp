#include "core/estimate/roofline.h"

#include <algorithm>

namespace tandem::core::estimate {

double Roofline::roofAt(double intensity) const {
    return std::min(peakFlopsPerSecond, bandwidthBytesPerSecond * intensity);
}

double Roofline::fractionOfRoof(const RooflinePoint& point) const {
    const double roof = roofAt(point.intensity);
    return roof > 0 ? point.attainedFlopsPerSecond / roof : 0.0;
}

Roofline rooflineOf(const LayerEstimate& layer, const hardware::AcceleratorConfig& accelerator) {
    Roofline out;
    out.peakFlopsPerSecond = accelerator.peakFlopsPerSecond();
    out.bandwidthBytesPerSecond = accelerator.achievableHbmBandwidth();
    out.ridgeIntensity = out.bandwidthBytesPerSecond > 0
                             ? out.peakFlopsPerSecond / out.bandwidthBytesPerSecond
                             : 0.0;
    for (const bool backward : {false, true}) {
        for (const OperatorEstimate& e : layer.operators) {
            if (!e.op) continue;
            const OperatorCost& c = backward ? e.backward : e.forward;
            if (!(c.flops > 0) || !(c.bytes > 0) || !(c.allCoresSeconds > 0)) continue;
            RooflinePoint p;
            p.name = e.op->name;
            p.opClass = e.op->opClass;
            p.backward = backward;
            p.flops = c.flops;
            p.bytes = c.bytes;
            p.seconds = c.allCoresSeconds;
            p.intensity = c.flops / c.bytes;
            p.attainedFlopsPerSecond = c.flops / c.allCoresSeconds;
            out.points.push_back(std::move(p));
        }
    }
    return out;
}

}  // namespace tandem::core::estimate
