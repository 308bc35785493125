#include "core/energy/energy_estimate.h"

#include "core/common/units.h"

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

std::string energySharesText(const EnergyEstimate& e) {
    const double total = e.totalJoules();
    const auto share = [total](double part) {
        return formatFixed(total > 0 ? 100 * part / total : 0.0, 0) + " %";
    };
    return "compute " + share(e.computeJoules) + ", HBM " + share(e.memoryJoules) + ", links " +
           share(e.networkJoules) + ", static " + share(e.staticJoules);
}

}  // namespace tandem::core::energy
