#include "core/energy/energy_estimate.h"

namespace tandem::core::energy {

EnergyEstimate estimateEnergy(const IterationActivity& a, const EnergyRates& r) {
    EnergyEstimate e;
    e.known = true;
    e.computeJoules =
        a.gemmFlops * r.joulesPerGemmFlop + (a.flops - a.gemmFlops) * r.joulesPerOtherFlop;
    e.memoryJoules = a.hbmBytes * r.joulesPerHbmByte;
    e.networkJoules = a.intraNodeLinkBytes * r.joulesPerIntraNodeByte +
                      a.interNodeLinkBytes * r.joulesPerInterNodeByte;
    const double deviceSeconds = double(a.devices) * a.seconds;
    e.staticJoules = r.staticWattsPerDevice * deviceSeconds;
    e.averagePowerWatts = deviceSeconds > 0 ? e.totalJoules() / deviceSeconds : 0.0;
    return e;
}

}  // namespace tandem::core::energy
